"""Star Wars Episode II on the classic rules (docs/classic.md §7.1, §6.2, §6.3): the sides, the
Force battle under both readings and its penalty, the ``[starwars]`` keys, and the fast and
time-limited games played on starwars-ep2-fr."""

from __future__ import annotations

import pytest

from bank.engine.commands import Land, Undo
from bank.engine.errors import BankError, RuleError
from bank.engine.game import Game, Transaction
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.statefile import state_file

from .classic_support import balance, ext, new_game, outcome, replayed, rules, run

SW = "starwars-ep2-fr"
#: bank cards: 1 Obi-Wan (light) ... 5 Clone (light), 6 Dooku (dark), 7 Jango, 8 Droïde
OBIWAN, DOOKU = 1, 6
DEFAULT = ("shift", "shift", "light", "light", "dark", "dark")


def force_face(tx: Transaction) -> str | None:
    done = outcome(tx)
    assert isinstance(done, o.Rolled)
    return done.third


def test_the_eight_characters_have_the_rule_books_sides_in_the_state_file() -> None:
    game = new_game(8, SW)
    sides = [p["side"] for p in state_file(rules(game), game.state, False)["players"]]
    assert sides == ["light"] * 5 + ["dark"] * 3
    classic = new_game(2)
    assert [p["side"] for p in state_file(rules(classic), classic.state, False)["players"]] == [
        None,
        None,
    ]


@pytest.mark.parametrize(
    ("card", "face", "won"),
    [
        (OBIWAN, "light", True),
        (OBIWAN, "dark", False),
        (OBIWAN, "shift", False),
        (DOOKU, "dark", True),
        (DOOKU, "light", False),
        (DOOKU, "shift", False),
    ],
)
def test_the_die_reading_wins_on_the_square_of_ones_side_only(
    card: int, face: str, won: bool
) -> None:
    game = new_game(8, SW)
    done = outcome(run(game, c.ForceBattle(card, face)))
    assert isinstance(done, o.ForceFought)
    assert (done.won, done.face, done.amount) == (won, face, 0 if won else 200)
    assert balance(game, card) == (1500 if won else 1300)


@pytest.mark.parametrize(("card", "symbol", "won"), [(1, "light", True), (1, "dark", False)])
def test_the_symbol_reading_wins_on_ones_own_sides_symbol(
    card: int, symbol: str, won: bool
) -> None:
    game = new_game(8, SW, starwars={"force_rule": "symbol", "force_penalty": 150})
    done = outcome(run(game, c.ForceBattle(card, symbol)))
    assert isinstance(done, o.ForceFought) and done.won is won
    assert balance(game, card) == (1500 if won else 1350)
    dark = outcome(run(game, c.ForceBattle(DOOKU, "dark")))
    assert isinstance(dark, o.ForceFought) and dark.won
    with pytest.raises(RuleError) as err:  # the shift is no symbol
        game.execute(c.ForceBattle(card, "shift"))
    assert err.value.key == "force face?"


def test_the_face_is_asked_when_the_unit_does_not_know_it() -> None:
    game = new_game(2, SW)
    before = game.state
    with pytest.raises(RuleError) as err:
        game.execute(c.ForceBattle(1))
    assert err.value.key == "force face?" and game.state == before


def test_a_lost_battle_is_a_due_payment_and_a_fine_for_the_pot() -> None:
    game = new_game(2, SW, variants={"free_parking": "taxes_and_fines"})
    run(game, c.PayBank(1, 1400))
    pot = ext(game).pot
    done = outcome(run(game, c.ForceBattle(1, "dark")))
    assert isinstance(done, o.ForceFought) and done.owed == 100
    p = game.state.player(1)
    assert p is not None and (p.balance, p.debt, p.creditor) == (0, 100, None)
    assert ext(game).pot == pot + 100
    # the debt rules hold: nothing but raising money until it is paid
    with pytest.raises(BankError):
        game.execute(c.ForceBattle(2, "light"))


def test_the_penalty_stays_with_the_bank_without_the_fines_variant() -> None:
    for variant in ("off", "taxes"):
        game = new_game(2, SW, variants={"free_parking": variant})
        pot = ext(game).pot
        run(game, c.ForceBattle(1, "shift"))
        assert ext(game).pot == pot


def test_a_battle_is_undone_and_replays_from_the_journal() -> None:
    game = new_game(2, SW)
    run(game, c.ForceBattle(1, "dark"))
    assert balance(game, 1) == 1300
    assert replayed(game).state == game.state
    run(game, Undo())
    assert balance(game, 1) == 1500


def test_an_edition_without_sides_has_no_force() -> None:
    game = new_game(2)
    with pytest.raises(RuleError) as err:
        game.execute(c.ForceBattle(1, "light"))
    assert err.value.key == "no force"


def test_the_starwars_keys_are_checked_and_recorded_with_the_game() -> None:
    for bad in (
        {"force_rule": "dice"},
        {"force_penalty": 0},
        {"force_penalty": "200"},
        {"force_faces": ["shift"] * 5},
        {"force_faces": ["shift", "shift", "light", "light", "dark", "grey"]},
        {"force_side": "light"},
    ):
        with pytest.raises(BankError, match=r"starwars\."):
            ClassicConfig.from_mapping({"starwars": bad})
    game = new_game(2, SW, starwars={"force_penalty": 300})
    # re-opened with the default configuration: the recorded penalty still applies
    later = Game(game.edition, ClassicConfig(), journal=game.journal)
    assert dict(ext(later).config)["starwars.force_penalty"] == 300
    run(later, c.ForceBattle(1, "dark"))
    assert balance(later, 1) == 1200


# ---------------------------------------------------------------- §6.2 on this edition


def test_the_fast_game_builds_hotels_after_three_houses_and_ends_at_the_second_bankruptcy() -> None:
    game = new_game(3, SW, variants={"fast_game": True})
    run(game, Land(1, 1), Land(1, 2))
    for n in (1, 2, 1, 2, 1, 2):
        run(game, c.Build(1, n))
    built = outcome(run(game, c.Build(1, 1)))
    assert isinstance(built, o.Built) and built.hotel
    assert ext(game).houses == 32 - 6 + 3 and ext(game).hotels == 11
    # worth counts the hotel with the 3 houses it replaced: 4 x 50, and 3 x 50 on Titre 2
    cfg = rules(game).settings(game.state)
    assert rules(game).worth(game.state, 1, cfg) == balance(game, 1) + 120 + 200 + 150
    for card in (2, 3):
        run(game, c.PayBank(card, 1600), c.DeclareBankruptcy(card))
    assert game.state.game_over
    assert game.state.ranking == (1, 3, 2)


# ---------------------------------------------------------------- the Force die (§7.1, D1)


def test_the_battle_is_judged_on_the_landers_own_latest_roll_without_asking() -> None:
    game = new_game(2, SW)
    run(game, c.RollDice(1, (3, 4), third="light"))
    done = outcome(run(game, c.ForceBattle(1)))
    assert isinstance(done, o.ForceFought) and done.won and done.known
    with pytest.raises(RuleError) as err:  # a face that contradicts the unit's own roll
        game.execute(c.ForceBattle(1, "dark"))
    assert err.value.key == "force known"
    run(game, c.RollDice(2, (5, 6), third="shift"))
    with pytest.raises(RuleError) as err:  # Obi-Wan's roll is no longer the latest
        game.execute(c.ForceBattle(1))
    assert err.value.key == "force face?"
    lost = outcome(run(game, c.ForceBattle(2)))  # card 2 (Anakin, light) rolled the shift
    assert isinstance(lost, o.ForceFought) and not lost.won and lost.known


def test_a_lancer_roll_has_no_force_die_so_the_face_is_asked() -> None:
    game = new_game(2, SW)
    run(game, c.RollDice(1, (3, 4), pick=True))
    assert ext(game).third is None
    with pytest.raises(RuleError) as err:
        game.execute(c.ForceBattle(1))
    assert err.value.key == "force face?"


def test_the_symbol_reading_asks_even_after_the_landers_own_roll() -> None:
    game = new_game(2, SW, starwars={"force_rule": "symbol"})
    run(game, c.RollDice(1, (3, 4), third="dark"))
    with pytest.raises(RuleError):
        game.execute(c.ForceBattle(1))
    done = outcome(run(game, c.ForceBattle(1, "light")))
    assert isinstance(done, o.ForceFought) and done.won and not done.known


def test_the_force_die_rolls_the_editions_faces_or_the_configured_ones() -> None:
    game = new_game(2, SW)
    assert dict(ext(game).config)["starwars.force_faces"] == DEFAULT
    seen = {force_face(run(game, c.RollDice(None))) for _ in range(40)}
    assert seen == {"light", "dark", "shift"}
    dark = new_game(2, SW, starwars={"force_faces": ["dark"] * 6})
    assert dict(ext(dark).config)["starwars.force_faces"] == ("dark",) * 6
    rolled = {force_face(run(dark, c.RollDice(1))) for _ in range(10)}
    assert rolled == {"dark"}
    with pytest.raises(RuleError):  # a face this game's die does not carry
        dark.execute(c.RollDice(1, (1, 2), third="light"))
