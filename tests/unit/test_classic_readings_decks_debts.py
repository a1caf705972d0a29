"""The readings of docs/readings.md about the dice seed, the virtual decks, the landings that
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
from bank.engine.events import DebtChanged, MoneyMoved, apply
from bank.engine.game import Game
from bank.rulesets.classic import commands as c
from bank.rulesets.classic.state import ClassicSet
from bank.services.journal import Journal
from bank.services.settings import load_settings
from bank.unit.io import Button, ButtonPressed, ButtonReleased, CardId, CardLifted, CardTapped
from board_assets import load_edition
from tests.panels.conftest import wait_until
from tests.support.fakes import FakeClock, MemoryJournal

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
    # the history names the card each draw took off the deck
    assert main(["history", "show", "1", "--data-dir", str(tmp_path / "d")]) == 0
    told = capsys.readouterr().out
    assert "La banque tire Chance 5 : Gare de Lyon" in told
    assert "La banque tire Caisse de communauté 15" in told


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


# ---------------------------------------------------------------- debts and bankruptcy

#: dog buys Belleville, Lecourbe and Gare Montparnasse (1180 left), pays the bank 1250 (owes
#: 70) and mortgages Belleville for it: owes 40, and 130 can still be raised
DEBT = (
    START
    + "tap deed:1\ntap bank:1\ntap deed:2\ntap bank:1\ntap deed:3\ntap bank:1\n"
    + "press menu\nkey 5\ntap bank:1\nkey 1250\npress ok\n"
    + "press menu\nkey 9\ntap bank:1\ntap deed:1\npress ok\n"
)


def test_a_debt_accepts_only_what_raises_money_and_offers_no_bankruptcy_while_it_can(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS C5, C19, C8: during a debt deed taps, cards and the dice (11) get the error
    cue; the menu holds 8, 9, 10, and 16 only when less can be raised than is owed (§3.12):
    here M after 10 closes it; once money was raised for the debt undo_available is false and
    the undo is refused; the debtor's worth does not subtract the debt."""
    text = DEBT + "tap deed:4\ntap deed:1\ntap chance:11\n"
    text += "press menu\nkey 1\nkey 1\npress cancel\n"  # 11: not in the debt menu
    text += "press menu\npress menu\npress menu\npress menu\n"  # 8, 9, 10, then closed
    text += "press menu\nkey 1\nkey 6\n"  # 16: not offered
    text += UNDO
    lines, state = play(tmp_path, capsys, text)
    shown = screens(lines)
    debt = "debt [dog] 40 {debt} | chien doit 40 / Encore possible 130"
    after = shown[max(i for i, s in enumerate(shown) if s.startswith("mortgaged")) + 1 :]
    assert after[0] == debt  # the session ended by ✓: the debt again
    assert after[1:4] == ["error {error} | Refusé / Réglez la dette"] * 3
    assert "error {error} | Refusé / Pas de choix 11" in after
    cycle = [s.split(" |")[0].split(" {")[0] for s in after if s.startswith(("menu", "debt"))]
    assert cycle[3:8] == ["debt [dog] 40", "menu #8", "menu #9", "menu #10", "debt [dog] 40"]
    assert "error {error} | Refusé / Pas de choix 16" in after
    assert after[-1] == "error {error} | Refusé / Dette d'abord"  # the undo, refused
    dog = state["players"][0]
    assert (dog["balance"], dog["debt"], dog["creditor"], dog["bankrupt"]) == (0, 40, None, False)
    assert dog["worth"] == 30 + 60 + 200  # Belleville mortgaged at half: the debt not counted
    assert state["undo_available"] is False  # C19
    assert state["properties"][3]["owner"] is None


def test_undo_available_says_whether_the_undo_of_a_debt_is_taken(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS C19: right after the payment that opened a debt, that payment can still be
    undone (the debt goes with it) and the state file says so; once money has been raised for
    the debt it says false, and the undo is refused."""
    opened = START + "tap deed:1\ntap bank:1\npress menu\nkey 5\ntap bank:1\nkey 1450\npress ok\n"
    _, state = play(tmp_path, capsys, opened)
    assert state["players"][0]["debt"] == 10 and state["undo_available"] is True
    lines, undone = play(tmp_path, capsys, UNDO)
    assert any("screen undo" in line for line in lines)
    assert undone["players"][0]["debt"] == 0 and balances(undone) == [1440, 1500]
    _, raised = play(tmp_path / "raised", capsys, DEBT)
    assert raised["players"][0]["debt"] == 40 and raised["undo_available"] is False


def test_the_interest_question_makes_undo_unavailable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS C19: while an undo would be refused (an interest question open) the state
    file says undo_available false; once answered, the trade with its interest is undoable."""
    text = START + "tap deed:1\ntap bank:1\npress menu\nkey 9\ntap bank:1\ntap deed:1\npress ok\n"
    text += "press menu\nkey 10\ntap bank:1\ntap bank:2\ntap deed:1\n"  # Belleville to racecar
    text += "press menu\npress menu\npress menu\npress ok\ntap bank:2\n"  # Résumé, ✓; accepted
    lines, asked = play(tmp_path, capsys, text)
    assert any("screen interest #1" in line for line in lines)
    assert asked["properties"][0]["interest_due"] and asked["undo_available"] is False
    lines, refused = play(tmp_path, capsys, UNDO)
    assert refused == asked and any("cue error" in line for line in lines)
    _, answered = play(tmp_path, capsys, "press ok\n")  # keep: racecar pays 3
    assert answered["undo_available"] is True and balances(answered) == [1470, 1497]


def _hotels_and_no_houses_left() -> str:
    """Dog, given 5000, builds hotels on the brown lots and then takes the bank's last 32
    houses (light blue, pink and dark blue, 4 each): 970 left."""
    text = START + "press menu\nkey 6\ntap bank:1\nkey 5000\npress ok\n"
    for deed in (1, 2, 4, 5, 6, 7, 9, 10, 27, 28):
        text += f"tap deed:{deed}\ntap bank:1\n"
    groups = ((1, 2), (4, 5, 6), (7, 9, 10), (27, 28))
    text += "press menu\nkey 7\ntap bank:1\n"
    text += "".join(f"tap deed:{d}\n" for _ in range(5) for d in groups[0])  # hotels
    text += "".join(f"tap deed:{d}\n" for g in groups[1:] for _ in range(4) for d in g)
    return text + "press ok\n"


def test_encore_possible_counts_a_hotel_with_its_houses_even_without_houses_in_stock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS C14 (and §3.12's offer of item 16): `Encore possible` counts a hotel and the
    four houses it replaced at half, even when the bank has no house to take it apart; item 16
    appears once the debt is more than that."""
    base = _hotels_and_no_houses_left()
    _, built = play(tmp_path / "built", capsys, base)
    assert built["bank"] == {"houses": 0, "hotels": 10, "skyscrapers": 0, "depots": 0}
    assert built["players"][0]["balance"] == 970
    # brown hotels 2 x 5 x 50 / 2, light blue 12 x 50 / 2, pink 12 x 100 / 2,
    # dark blue 8 x 200 / 2, and every mortgage: 30+30+50+50+60+70+70+80+175+200
    possible = 250 + 300 + 600 + 800 + 815
    for owed, offered in ((possible, False), (possible + 1, True)):
        text = base + f"press menu\nkey 5\ntap bank:1\nkey {970 + owed}\npress ok\n"
        text += "press menu\npress menu\npress menu\npress menu\n"
        lines, state = play(tmp_path / str(owed), capsys, text)
        shown = screens(lines)
        debt = f"debt [dog] {owed} {{debt}} | chien doit {owed} / Encore possible {possible}"
        assert debt in shown
        assert ("menu #16 {debt} | Faillite / ✓ puis carte" in shown) is offered, shown[-3:]
        assert state["players"][0]["debt"] == owed


def test_a_bankruptcy_that_ends_the_game_skips_the_interest_question_and_clears_the_debtor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS A8, A9: a bankruptcy that leaves one player ends the game at once: no interest
    question for the creditor's new mortgaged deeds; the bankrupt shows balance 0, debt 0,
    creditor null, jailed false, no jail cards, worth 0."""
    text = START + "tap deed:1\ntap bank:1\npress menu\nkey 9\ntap bank:1\ntap deed:1\npress ok\n"
    text += "tap chance:8\ntap bank:1\npress menu\nkey 2\ntap bank:1\n"  # a jail card, jailed
    text += "tap deed:8\ntap bank:2\ntap deed:21\ntap bank:2\n"  # racecar: both utilities
    text += "press menu\nkey 5\ntap bank:1\nkey 1465\npress ok\n"  # dog keeps 5
    text += "tap deed:8\ntap bank:1\nkey 12\npress ok\n"  # rent 10 x 12 = 120: owes 115
    text += "press menu\nkey 16\npress ok\ntap bank:1\n"  # offered (nothing to raise): ✓, card
    lines, state = play(tmp_path, capsys, text)
    assert not any("screen interest" in line for line in lines)
    assert state["game_over"] and state["winner"] == 2 and state["ranking"] == [2, 1]
    dog, racecar = state["players"]
    assert {
        k: dog[k] for k in ("balance", "debt", "creditor", "jailed", "jail_cards", "worth")
    } == {
        "balance": 0,
        "debt": 0,
        "creditor": None,
        "jailed": False,
        "jail_cards": [],
        "worth": 0,
    }
    assert dog["bankrupt"] and state["eliminated"] == [1]
    assert racecar["balance"] == 1500 - 300 + 5 and racecar["jail_cards"] == ["chance"]
    belleville = state["properties"][0]
    assert (belleville["owner"], belleville["mortgaged"], belleville["interest_due"]) == (
        2,
        True,
        False,
    )


def test_a_bankruptcy_to_the_bank_that_ends_the_game_runs_no_auction_series(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS A8: to the bank, the game over at once: no auction series; the deeds go back
    to the bank unowned and unmortgaged."""
    text = START + "tap deed:1\ntap bank:1\npress menu\nkey 9\ntap bank:1\ntap deed:1\npress ok\n"
    text += "tap deed:3\ntap bank:1\n"  # Gare Montparnasse, unmortgaged (100 to raise)
    text += "press menu\nkey 5\ntap bank:1\nkey 2000\npress ok\n"  # owes 2000 - 1270
    text += "press menu\nkey 16\npress ok\ntap bank:1\npress ok\n"
    lines, state = play(tmp_path, capsys, text)
    assert not any("Enchère 1/" in line for line in lines)
    assert state["game_over"] and state["winner"] == 2
    for deed in (0, 2):
        assert state["properties"][deed]["owner"] is None
        assert not state["properties"][deed]["mortgaged"]


def test_the_sales_of_the_auction_series_are_part_of_the_bankruptcy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS C13, C19: in a bankruptcy to the bank, the series' sales are not transactions
    of their own: nothing is undoable after them and the undo is refused."""
    text = START3 + "tap deed:1\ntap bank:1\npress menu\nkey 5\ntap bank:1\nkey 2000\npress ok\n"
    text += "press menu\nkey 16\npress ok\ntap bank:1\n"  # bankrupt to the bank
    text += "press ok\ntap bank:2\nwait 10.5\n"  # Enchère 1/1: racecar buys Belleville for 10
    lines, sold = play(tmp_path, capsys, text)
    assert any("Enchère 1/1" in line for line in lines)
    assert sold["properties"][0]["owner"] == 2 and balances(sold) == [0, 1490, 1500]
    assert sold["undo_available"] is False
    lines, after = play(tmp_path, capsys, UNDO)
    assert after == sold and any("cue error" in line for line in lines)


def test_debts_owed_to_a_player_who_goes_bankrupt_go_to_the_bank() -> None:
    """READINGS A18: the debts owed to a creditor who goes bankrupt before being paid are
    redirected to the bank.

    The unit settles one debtor at a time in the order the debts arose, and no gesture makes
    a player owe a creditor who is already settling a debt of their own, so no tap script
    reaches this state: it is built here from the events a journal would hold (racecar owes
    the bank 100, then tophat owes racecar 10), and the bankruptcy goes through the rules."""
    game = Game(load_edition("classic-fr"), journal=MemoryJournal())
    game.start((1, 2, 3))
    game.state = apply(
        game.state,
        [
            MoneyMoved(2, None, 1500, "test"),
            MoneyMoved(3, None, 1500, "test"),
            DebtChanged(2, 0, 100, None, None),
            DebtChanged(3, 0, 10, None, 2),
            ClassicSet("debts", (), (2, 3)),
        ],
    )
    game.execute(c.DeclareBankruptcy(2))
    tophat = game.state.player(3)
    assert tophat is not None and (tophat.debt, tophat.creditor) == (10, None)
    assert game.state.debtor() == tophat and not game.state.game_over


def test_a_bankrupts_jail_card_goes_under_its_virtual_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS D2, E7 (and §3.13): the jail card a player kept is out of the virtual deck;
    when its holder goes bankrupt to the bank it goes back under its deck."""
    rest = [n for n in order(0, "chance") if n != 8]
    text = START3 + "tap chance:8\ntap bank:1\n"  # dog keeps the Chance jail card (its tag)
    text += "press menu\nkey 5\ntap bank:1\nkey 2000\npress ok\n"  # owes 500, nothing to sell
    text += "press menu\nkey 16\npress ok\ntap bank:1\n"  # bankrupt to the bank
    text += (DRAW_CHANCE + "press ok\npress cancel\n") * 16
    lines, state = play(tmp_path, capsys, text, *VIRTUAL)
    assert state["players"][0]["bankrupt"] and state["players"][0]["jail_cards"] == []
    assert drawn(lines) == [*rest, 8]


def test_bankruptcy_is_offered_against_all_that_is_owed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """READINGS C22 (and §3.12): with debts to several creditors, item 16 compares what can
    still be raised with all that is owed, not only the debt being settled."""
    text = START3 + "tap deed:1\ntap bank:1\n"  # Belleville: a mortgage would raise 30
    text += "press menu\nkey 5\ntap bank:1\nkey 1435\npress ok\n"  # dog keeps 5
    text += "press menu\nkey 12\npress ok\npress ok\nkey 5\npress ok\nkey 25\npress ok\n"
    text += "tap bank:1\n"  # G5 25: owes Anakin 20 (being settled), then Padmé 25
    text += "press menu\npress menu\npress menu\npress menu\n"  # 8, 9, 10, 16
    lines, state = play(tmp_path, capsys, text, edition="starwars-ep2-fr")
    assert (state["players"][0]["debt"], state["players"][0]["creditor"]) == (20, 2)
    assert any("screen menu #16" in line for line in lines)  # 30 < 20 + 25
