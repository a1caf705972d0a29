"""The readings of CLASSIC-READINGS.md about the dice seed, the virtual decks, the landings that
move nothing, the late claims and the debts, each traced through the classic unit: a tap script
run by ``ultibank script … --state -`` (or, for the seed of the games the box plays, the
daemon's own runtime), with the state file and the transcript checked for what the reading
settles. Each test names its readings in its docstring (``READINGS E18``); ``docs/readings.md``
lists them.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from bank.app.runtime import Runtime
from bank.cli import main
from bank.journal import Journal
from bank.settings import load_settings
from bank.unit.io import Button, ButtonPressed, ButtonReleased, CardId, CardLifted, CardTapped
from tests.panels.conftest import wait_until
from tests.support.fakes import FakeClock

START = "tap bank:1\ntap bank:2\npress ok\n"
START3 = "tap bank:1\ntap bank:2\ntap bank:3\npress ok\n"
UNDO = "hold ok+cancel 5\n"
VIRTUAL = ("--set", "variants.virtual_decks=true")
#: menu 12, ✓, Chance (the first deck), ✓: the `✓ tirer` screen (E4)
DRAW_CHANCE = "press menu\nkey 12\npress ok\npress ok\n"
DRAW_CHEST = "press menu\nkey 12\npress ok\npress menu\npress ok\n"


def play(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    text: str,
    *args: str,
    edition: str = "classic-fr",
) -> tuple[list[str], dict[str, Any]]:
    """The transcript lines and the state file of a tap script run on a fresh data dir (or
    on the game stored in ``tmp_path/d`` when the script continues one)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    script = tmp_path / f"game{len(list(tmp_path.glob('game*.tap')))}.tap"
    script.write_text(text, encoding="utf-8")
    argv = ["script", str(script), "--edition", edition, *args, "--state", "-"]
    assert main([*argv, "--data-dir", str(tmp_path / "d")]) == 0, capsys.readouterr().err
    captured = capsys.readouterr()
    state: dict[str, Any] = json.loads(captured.out)
    return captured.err.splitlines(), state


def screens(lines: list[str]) -> list[str]:
    """The screens of a transcript, without their time: ``card #8 {card} | … / …``."""
    return [line.split(" screen ", 1)[1] for line in lines if " screen " in line]


def cues_before(lines: list[str], index: int) -> list[str]:
    """The cues played with the *index*-th screen of a transcript (between it and the screen
    before: the unit plays a refusal's cue, then shows why)."""
    at = [i for i, line in enumerate(lines) if " screen " in line][index]
    out = []
    for line in reversed(lines[:at]):
        if " screen " in line:
            break
        out.append(line.split(" cue ", 1)[1])
    return out


def order(seed: int, deck: str) -> list[int]:
    """A virtual deck's shuffle, computed here from READINGS D2 alone."""
    digest = {n: hashlib.sha256(f"{seed}:{deck}:{n}".encode()).digest() for n in range(1, 17)}
    return sorted(range(1, 17), key=digest.__getitem__)


def die(seed: int, k: int, i: int) -> int:
    """Die *i* of roll *k*, computed here from READINGS D1 alone."""
    digest = hashlib.sha256(f"{seed}:{k}:{i}".encode()).digest()
    return 1 + int.from_bytes(digest[:8], "big") % 6


def drawn(lines: list[str]) -> list[int]:
    """The card numbers the `✓ tirer` draws showed (`card #N … / Qui a tiré ?` right after
    `✓ tirer`, refusals aside)."""
    out, prev = [], ""
    for screen in screens(lines):
        if screen.startswith("error "):
            continue
        if screen.startswith("card #") and "Qui a tiré ?" in screen and prev.startswith("draw "):
            out.append(int(screen.split()[1].removeprefix("#")))
        prev = screen
    return out


def balances(state: dict[str, Any]) -> list[int]:
    return [p["balance"] for p in state["players"]]


# ---------------------------------------------------------------- D1, E14: the dice seed


def test_the_units_dice_are_the_seeds_function_and_a_script_rolls_with_seed_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS D1: die i of roll k is 1 + sha256(f"{seed}:{k}:{i}")[:8] % 6; a script without
    --seed rolls with seed 0, and the seed is recorded with the game (the state file shows it)."""
    rolls = "press menu\nkey 11\ntap bank:1\npress menu\nkey 11\npress ok\n"
    rolls += "press menu\nkey 11\ntap bank:2\n"
    for seed, args in ((0, ()), (12345, ("--seed", "12345"))):
        lines, state = play(tmp_path / str(seed), capsys, START + rolls, *args)
        assert state["config"]["classic"]["dice_seed"] == seed
        shown = [s for s in screens(lines) if s.startswith("dice")]
        assert len(shown) == 3
        for k, screen in enumerate(shown, start=1):
            a, b = die(seed, k, 0), die(seed, k, 1)
            assert f"{a} + {b} = {a + b}" in screen, (seed, k, screen)
        a, b = die(seed, 3, 0), die(seed, 3, 1)
        assert state["last_roll"]["dice"] == [a, b] and state["turn"] == 2


def test_set_dice_seed_wins_over_the_seed_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS E14: --set classic.dice_seed=M wins over --seed N when both are given."""
    roll = START + "press menu\nkey 11\ntap bank:1\n"
    _, both = play(tmp_path / "a", capsys, roll, "--seed", "5", "--set", "classic.dice_seed=9")
    _, nine = play(tmp_path / "b", capsys, roll, "--seed", "9")
    assert both["config"]["classic"]["dice_seed"] == 9
    assert both["last_roll"] == nine["last_roll"]
    _, swapped = play(tmp_path / "c", capsys, roll, "--set", "classic.dice_seed=9", "--seed", "5")
    assert swapped["config"]["classic"]["dice_seed"] == 9


def _post(rt: Runtime, clock: FakeClock, *inputs: Any) -> None:
    for inp in inputs:
        rt.daemon.post(inp)
    rt.daemon.call(lambda: None)


def _tap(clock: FakeClock, card: str) -> list[Any]:
    return [
        CardTapped(clock(), CardId.parse(card), f"uid-{card}", "test"),
        CardLifted(clock(), f"uid-{card}", "test"),
    ]


def _press(clock: FakeClock, button: Button) -> list[Any]:
    return [ButtonPressed(clock(), button), ButtonReleased(clock(), button)]


def _seed(rt: Runtime) -> int:
    seed = rt.game.ruleset.settings(rt.game.state).classic.dice_seed  # type: ignore[attr-defined]
    assert isinstance(seed, int)
    return seed


def test_every_game_the_daemon_starts_draws_its_own_seed_kept_on_resume_and_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS D1: a new game in the daemon (the box, the emulator: the same runtime) draws a
    random seed and journals it with the game; two games one after the other roll different
    dice; a resumed game keeps its seed; `ultibank history` shows each game's seed."""
    data = tmp_path / "d"
    overrides = [f'game.data_dir="{data}"', 'game.edition="classic-fr"']
    clock = FakeClock()
    rt = Runtime(load_settings(None, overrides), clock=clock)
    rt.start(control=False)
    seeds = []
    try:
        for game in range(2):
            _post(rt, clock, *_tap(clock, "bank:1"), *_tap(clock, "bank:2"))
            _post(rt, clock, *_press(clock, Button.OK))
            assert rt.game.state.started
            seeds.append(_seed(rt))
            if game == 0:  # hold X 5 s: the game is archived and a new one registers
                _post(rt, clock, ButtonPressed(clock(), Button.CANCEL))
                clock.advance(5.5)
                _post(rt, clock)
                wait_until(lambda: not rt.game.state.started, what="the reset")
                _post(rt, clock, ButtonReleased(clock(), Button.CANCEL))
    finally:
        rt.stop()
    assert seeds[0] != seeds[1]  # 2**-63 of a chance to fail
    again = Runtime(load_settings(None, overrides), clock=FakeClock())
    try:
        assert _seed(again) == seeds[1]  # resumed: the seed recorded with the game
    finally:
        again.stop()
    assert main(["history", "list", "--data-dir", str(data)]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.rsplit("seed ", 1)[1] for line in listed] == [str(s) for s in seeds]


# ---------------------------------------------------------------- D2, E4-E7: the virtual decks


def test_the_card_icon_draws_from_a_tirer_screen_of_its_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS E4, D2: with virtual decks, menu 12, ✓, the deck (M toggles), ✓ shows
    `✓ tirer` in place of the number pick: digits and M get the error cue, ✓ draws the top
    card of the deck shuffled by D2, which then waits for `Qui a tiré ?`."""
    text = START + DRAW_CHANCE + "key 5\npress menu\npress ok\ntap bank:1\npress ok\n"
    text += DRAW_CHEST + "press ok\ntap bank:2\n"
    lines, state = play(tmp_path, capsys, text, *VIRTUAL)
    shown = screens(lines)
    tirer = shown.index("draw {card} | Chance / ✓ tirer")
    assert shown[tirer + 1 : tirer + 3] == ["error {error} | Refusé / Pas maintenant"] * 2
    assert sum(1 for line in lines if line.endswith("cue error")) == 2
    assert not any(s.startswith("pick") and "Numéro" in s for s in shown)  # no number pick
    first = order(0, "chance")[0]
    assert shown[tirer + 3].startswith(f"card #{first} ") and "Qui a tiré ?" in shown[tirer + 3]
    assert drawn(lines) == [order(0, "chance")[0], order(0, "chest")[0]]
    # Chance 5 (Gare de Lyon: Départ passed, +200; bought by dog for 200), Caisse 15 (+10)
    assert (first, order(0, "chest")[0]) == (5, 15)
    assert balances(state) == [1500, 1510] and state["properties"][10]["owner"] == 1


def test_a_drawn_card_stays_under_after_x_or_a_power_cut(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS E5, D2: the drawn card goes under at the draw: X or a power cut at
    `Qui a tiré ?` does not put it back on top; a whole round gives the shuffle again."""
    text = START + DRAW_CHANCE + "press ok\npress cancel\n"  # X at Qui a tiré ?
    text += DRAW_CHANCE + "press ok\npower off\npower on\n"  # a power cut there
    text += (DRAW_CHANCE + "press ok\npress cancel\n") * 14  # the rest of the deck, then again
    text += DRAW_CHANCE + "press ok\ntap bank:1\npress ok\n"
    lines, state = play(tmp_path, capsys, text, *VIRTUAL)
    want = order(0, "chance")
    assert drawn(lines) == [*want, want[0]]
    # only the last draw (Gare de Lyon, Départ passed) was applied
    assert balances(state) == [1500, 1500] and state["properties"][10]["owner"] == 1


def test_the_deck_order_is_never_undone_and_an_undone_jail_card_goes_under(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS E6, E5, D2: an undo leaves the deck order as the draws left it; the jail card
    it takes back from its holder goes under its deck."""
    want = order(0, "chance")
    jail = want.index(8)  # Chance 8, "Libéré de prison", third in seed 0's shuffle
    text = START + (DRAW_CHANCE + "press ok\npress cancel\n") * jail
    text += DRAW_CHANCE + "press ok\ntap bank:1\n"  # dog keeps the jail card
    text += (DRAW_CHANCE + "press ok\npress cancel\n") * 2  # two draws after it
    text += UNDO  # the draws are skipped over: the undo takes the jail card back
    text += (DRAW_CHANCE + "press ok\npress cancel\n") * 16
    lines, state = play(tmp_path, capsys, text, *VIRTUAL)
    assert any("screen undo" in line for line in lines)
    assert state["players"][0]["jail_cards"] == []
    first = [*want[: jail + 1], want[jail + 1], want[jail + 2]]
    rest = [n for n in want[jail + 3 :]] + [n for n in want[:jail]]
    after = [*rest, want[jail + 1], want[jail + 2], 8]  # 8 under the two drawn after it
    assert drawn(lines) == [*first, *after]


def test_tags_leave_the_virtual_order_alone_but_a_kept_jail_card_leaves_the_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS E7, D2: with virtual decks on, a tag tap or a typed card number leaves the
    order alone, except that a jail card acquired so leaves the deck, and goes under it when
    used."""
    want = order(0, "chance")
    text = START + "tap chance:14\ntap bank:1\n"  # a tag: +50, the order untouched
    text += "press menu\nkey 12\npress ok\npress ok\n" + "press cancel\n"  # the tirer screen, X
    text += "tap chance:8\ntap bank:2\n"  # the jail card by its tag: racecar keeps it
    text += (DRAW_CHANCE + "press ok\npress cancel\n") * 15  # a whole round without card 8
    text += "press menu\nkey 2\ntap bank:2\n"  # racecar to jail
    text += "press menu\nkey 2\ntap bank:2\npress menu\n"  # M: uses the card: under the deck
    text += (DRAW_CHANCE + "press ok\npress cancel\n") * 16
    lines, state = play(tmp_path, capsys, text, *VIRTUAL)
    rest = [n for n in want if n != 8]
    assert drawn(lines) == [*rest, *rest, 8]
    assert state["players"][1]["jail_cards"] == [] and not state["players"][1]["jailed"]
    assert balances(state) == [1550, 1500]


# ---------------------------------------------------------------- A17, C22: generic effects


def test_generic_effects_ask_the_effect_and_amounts_before_the_drawer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS A17: icon, ✓, deck (M toggles), ✓, effect (M cycles G1…G8, digits jump), ✓,
    amount(s), then the drawer's card; G7 keeps a jail card of the deck chosen."""
    text = START + "press menu\nkey 12\npress ok\npress ok\n"  # Jedi
    text += "press menu\npress menu\npress ok\n"  # G1 -> G2 -> G3 (repairs): M cycles
    text += "key 40\npress ok\nkey 115\npress ok\n"  # two amounts, then who drew it?
    text += "tap bank:1\n"
    text += "press menu\nkey 12\npress ok\npress menu\npress ok\nkey 7\npress ok\ntap bank:2\n"
    text += "press menu\nkey 12\npress ok\npress ok\nkey 2\npress ok\nkey 30\npress ok\n"
    text += "tap bank:2\n"
    lines, state = play(tmp_path, capsys, text, edition="starwars-ep2-fr")
    shown = screens(lines)
    at = shown.index("card {card} | G3 Réparations / Qui a tiré ?")
    assert shown[at - 1].startswith("entry 115 ")  # the amounts came first
    effect = shown.index("pick {keypad} | Quel effet ? / G3 Réparations")
    assert shown[effect - 3 : effect] == [
        "pick {keypad} | Quel paquet ? / Jedi",
        "pick {keypad} | Quel effet ? / G1 Recevoir de la b…",
        "pick {keypad} | Quel effet ? / G2 Payer la banque",
    ]
    assert effect < at and not any("Qui a tiré" in x for x in shown[effect:at])
    assert state["players"][1]["jail_cards"] == ["chest"]  # G7 from the Sith deck
    assert balances(state) == [1500, 1470]


def test_pay_each_other_player_is_one_payment_after_the_other(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS C22, A17: G5 pays each other player in card order, each under the debt rules:
    a short payer owes several creditors, and each is paid what they are owed, in turn."""
    text = START3 + "tap deed:1\ntap bank:1\n"  # dog buys Belleville (60)
    text += "press menu\nkey 5\ntap bank:1\nkey 1435\npress ok\n"  # dog keeps 5
    text += "press menu\nkey 12\npress ok\npress ok\nkey 5\npress ok\nkey 10\npress ok\n"
    text += "tap bank:1\n"  # G5 10: Anakin gets 5 (owed 5 more), Padmé is owed 10
    _, state = play(tmp_path, capsys, text, edition="starwars-ep2-fr")
    dog, anakin, padme = state["players"]
    assert (dog["balance"], anakin["balance"], padme["balance"]) == (0, 1505, 1500)
    assert (dog["debt"], dog["creditor"]) == (5, 2)  # the first creditor first
    more = "press menu\nkey 9\ntap bank:1\ntap deed:1\n"  # a mortgage raises 30
    lines, state = play(tmp_path, capsys, more, edition="starwars-ep2-fr")
    dog, anakin, padme = state["players"]
    assert (anakin["balance"], padme["balance"]) == (1510, 1510)  # 5 to Anakin, 10 to Padmé
    assert (dog["balance"], dog["debt"], dog["creditor"]) == (15, 0, None)
    assert any("Dette réglée" in line for line in lines)


# ---------------------------------------------------------------- E18, E19, A21, A15: landings


def records(tmp_path: Path) -> int:
    """How many transactions the journal of the game in ``tmp_path/d`` holds."""
    with Journal(tmp_path / "d" / "journal.sqlite") as journal:
        return len(list(journal.records()))


def test_a_landing_that_moves_nothing_is_not_a_transaction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS E18: `Chez vous`, `Hypothéqué : pas de loyer`, a jailed owner under
    variants.jailed_owner_no_rent and `Trop tard` journal nothing, leave undo_available as it
    was, and the undo that follows still cancels the transaction before them."""
    rule = ("--set", "variants.jailed_owner_no_rent=true")
    roll = "roll 1 2\npress menu\nkey 11\ntap bank:{}\n"
    steps: list[tuple[str, str, str, str]] = [
        # (what comes first, the transaction, the landing that moves nothing, its screen)
        ("", "tap deed:1\ntap bank:1\n", "tap deed:1\ntap bank:1\n", "screen own"),
        (
            "tap deed:3\ntap bank:1\n",
            "press menu\nkey 9\ntap bank:1\ntap deed:3\npress ok\n",
            "tap deed:3\ntap bank:2\n",
            "Hypothéqué",
        ),
        ("", "press menu\nkey 2\ntap bank:1\n", "tap deed:1\ntap bank:2\n", "screen no_rent"),
        (
            roll.format(2) + roll.format(1),
            "tap deed:5\ntap bank:3\n" + roll.format(3),  # a purchase, then a roll undo skips
            "tap deed:5\ntap bank:2\n",  # racecar's claim after dog's and tophat's rolls
            "screen late",
        ),
    ]
    play(tmp_path, capsys, START3, *rule)
    for first, done, landing, shown in steps:
        _, before = play(tmp_path, capsys, first, *rule)
        _, after_tx = play(tmp_path, capsys, done, *rule)
        assert after_tx["undo_available"]
        count = records(tmp_path)
        lines, after_landing = play(tmp_path, capsys, landing, *rule)
        assert any(shown in line for line in lines), (shown, lines[-4:])
        assert records(tmp_path) == count  # nothing journalled
        assert after_landing == after_tx  # nothing changed, undo_available included
        lines, undone = play(tmp_path, capsys, UNDO, *rule)
        assert any("screen undo" in line for line in lines)
        # the transaction before the landing is undone: the state before it comes back
        assert balances(undone) == balances(before), shown
        for key in ("owner", "mortgaged"):
            assert [p[key] for p in undone["properties"]] == [p[key] for p in before["properties"]]
        assert [p["jailed"] for p in undone["players"]] == [p["jailed"] for p in before["players"]]
        play(tmp_path, capsys, done, *rule)  # the game goes on from the transaction, redone


def test_a_utility_claim_too_late_is_refused_at_the_card_before_any_dice_pick(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS E19: once the claim is too late, the visitor's card gets `Trop tard` and the
    error cue at once: no dice-total pick opens and nothing is rolled; in time, the pick opens."""
    roll = "roll {} {}\npress menu\nkey 11\ntap bank:{}\n"
    text = START3 + "tap deed:8\ntap bank:1\n"  # dog buys the Electric Company
    text += roll.format(1, 2, 2) + "tap deed:8\ntap bank:2\npress cancel\n"  # in time: a pick
    text += roll.format(2, 3, 3) + roll.format(3, 5, 1)  # tophat and dog roll: too late
    text += "tap deed:8\ntap bank:2\npress ok\n"
    lines, state = play(tmp_path, capsys, text)
    shown = screens(lines)
    in_time = next(i for i, s in enumerate(shown) if s.startswith("pick"))
    assert "Total des dés ?" in shown[in_time] and "3 (dernier lancer)" in shown[in_time]
    late = max(i for i, s in enumerate(shown) if s.startswith("late "))
    assert late > in_time and not any(s.startswith("pick") for s in shown[late:])
    assert "error" in cues_before(lines, late)
    assert balances(state) == [1350, 1500, 1500]  # nothing paid
    assert state["last_roll"] == {"card": 1, "dice": [3, 5], "third": None, "doubles": 0}


def test_a_card_move_onto_an_owned_deed_is_never_too_late(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS A21: the landing a card makes is applied with the drawer's card, so its rent
    is due whatever the rolls since the drawer's last one."""
    roll = "roll {} {}\npress menu\nkey 11\ntap bank:{}\n"
    text = START3 + "tap deed:28\ntap bank:1\n"  # dog buys Rue de la Paix (400)
    text += roll.format(1, 2, 2) + roll.format(2, 3, 3) + roll.format(3, 5, 1)
    text += "tap deed:28\ntap bank:2\n"  # racecar's own landing: too late
    text += "tap chance:1\ntap bank:2\n"  # Chance 1 sends racecar there: rent 50
    lines, state = play(tmp_path, capsys, text)
    assert any("screen late" in line for line in lines)
    assert balances(state) == [1100 + 50, 1450, 1500]


def test_the_claim_window_counts_two_distinct_other_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS A15: "rolls from two other players" means two distinct other cards: a player
    who rolls twice (a double) closes nothing alone; a second player's roll does."""
    roll = "roll {} {}\npress menu\nkey 11\ntap bank:{}\n"
    text = START3 + "tap deed:1\ntap bank:1\n"  # dog buys Belleville
    text += roll.format(1, 2, 2)  # racecar rolls
    text += roll.format(2, 2, 3) + roll.format(1, 3, 3)  # tophat: a double, then again
    text += "tap deed:1\ntap bank:2\n"  # still in time: rent 2
    text += roll.format(4, 5, 1)  # dog rolls: two other cards now
    text += "tap deed:1\ntap bank:2\n"  # too late
    lines, state = play(tmp_path, capsys, text)
    assert sum(1 for line in lines if "screen rent" in line) == 1
    assert sum(1 for line in lines if "screen late" in line) == 1
    assert balances(state) == [1440 + 2, 1498, 1500]
