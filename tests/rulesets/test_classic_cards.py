"""Chance and Community Chest (docs/classic.md §4): every card of classic-fr and classic-uk, and
the generic effects of the editions without a card table (§4.5)."""

from __future__ import annotations

import pytest

from bank.engine.commands import Land
from bank.engine.errors import RuleError
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o

from .classic_support import balance, balances, ext, new_game, outcome, run

EDITIONS = ["classic-fr", "classic-uk"]

#: (deck, number, choice, passed_go) -> the drawer's balance change and the deed it owns after
CARDS = [
    ("chance", 1, None, None, -400, 28),
    ("chance", 2, None, None, 200, None),
    ("chance", 3, None, True, 200 - 240, 17),
    ("chance", 3, None, False, -240, 17),
    ("chance", 4, None, False, -140, 7),
    ("chance", 5, None, True, 0, 11),
    ("chance", 6, 0, None, -200, None),
    ("chance", 6, 1, None, -200, 14),
    ("chance", 6, 2, None, 0, None),
    ("chance", 7, None, None, 0, None),
    ("chance", 8, None, None, 0, None),
    ("chance", 9, None, None, 0, None),
    ("chance", 10, None, None, 0, None),
    ("chance", 11, None, None, -15, None),
    ("chance", 12, None, None, -150, None),
    ("chance", 13, None, None, -20, None),
    ("chance", 14, None, None, 50, None),
    ("chance", 15, None, None, 150, None),
    ("chance", 16, None, None, 100, None),
    ("chest", 1, None, None, 200, None),
    ("chest", 2, None, None, 200, None),
    ("chest", 3, None, None, -50, None),
    ("chest", 4, None, None, 50, None),
    ("chest", 5, None, None, 0, None),
    ("chest", 6, None, None, 0, None),
    ("chest", 7, None, None, -60, 1),
    ("chest", 8, None, None, 100, None),
    ("chest", 9, None, None, 20, None),
    ("chest", 10, None, None, 20, None),
    ("chest", 11, None, None, 25, None),
    ("chest", 12, None, None, -50, None),
    ("chest", 13, 0, None, -10, None),
    ("chest", 13, 1, None, 0, None),
    ("chest", 14, None, None, -100, None),
    ("chest", 15, None, None, 10, None),
    ("chest", 16, None, None, 100, None),
]


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize(("deck", "number", "choice", "passed", "delta", "deed"), CARDS)
def test_4_every_card_moves_the_money_of_its_table(
    edition: str,
    deck: str,
    number: int,
    choice: int | None,
    passed: bool | None,
    delta: int,
    deed: int | None,
) -> None:
    game = new_game(3, edition)
    tx = run(game, c.PlayCard(deck, number, 1, choice, passed))
    assert balance(game, 1) == 1500 + delta
    assert game.state.owned_by(1) == ((deed,) if deed else ())
    others = [1490, 1490] if (deck, number) == ("chest", 9) else [1500, 1500]
    assert balances(game)[1:] == others
    played = outcome(tx)
    assert isinstance(played, o.CardPlayed) and (played.deck, played.number) == (deck, number)
    draws = {("chance", 6, 2): "chest", ("chest", 13, 1): "chance"}
    assert played.draw == draws.get((deck, number, choice))
    assert (played.landing is not None) == (deed is not None)


@pytest.mark.parametrize("edition", EDITIONS)
def test_4_jail_cards_birthday_and_go(edition: str) -> None:
    game = new_game(3, edition)
    run(game, c.PlayCard("chance", 7, 1), c.PlayCard("chest", 6, 2))
    assert [p.jailed for p in game.state.players] == [True, True, False]
    run(game, c.PlayCard("chance", 8, 3), c.PlayCard("chest", 5, 3))
    assert ext(game).cards_of(3) == ("chance", "chest")
    with pytest.raises(RuleError, match="held"):
        game.execute(c.PlayCard("chance", 8, 1))
    run(game, c.PlayCard("chest", 9, 3))
    assert balances(game) == [1490, 1490, 1520]
    run(game, c.PlayCard("chance", 2, 2))
    assert ext(game).passed_go == (2,)


def test_4_go_cards_pay_double_with_the_variant_unless_excluded() -> None:
    game = new_game(variants={"double_go": True})
    run(game, c.PlayCard("chest", 1, 1))
    assert balance(game, 1) == 1900
    excluded = new_game(variants={"double_go": True, "double_go_cards": False})
    run(excluded, c.PlayCard("chest", 1, 1))
    assert balance(excluded, 1) == 1700


@pytest.mark.parametrize("edition", EDITIONS)
def test_4_repairs_count_houses_and_hotels(edition: str) -> None:
    game = new_game(2, edition)
    run(game, c.ReceiveBank(1, 5000), Land(1, 1), Land(1, 2))
    for number in (1, 2, 1, 2, 1, 2, 1, 2, 1):
        run(game, c.Build(1, number))  # a hotel on D1, 4 houses on D2
    before = balance(game, 1)
    assert outcome(run(game, c.PlayCard("chance", 10, 1))).amount == 4 * 40 + 115
    assert outcome(run(game, c.PlayCard("chance", 9, 1))).amount == 4 * 25 + 100
    assert balance(game, 1) == before - 275 - 200


def test_4_1_landing_after_a_move_pays_rent_and_is_never_too_late() -> None:
    game = new_game(3)
    run(game, Land(2, 11))
    run(game, c.RollDice(1, (1, 2)), c.RollDice(2, (1, 2)), c.RollDice(3, (1, 3)))
    tx = run(game, c.PlayCard("chance", 5, 1, passed_go=False))
    played = outcome(tx)
    assert isinstance(played, o.CardPlayed) and isinstance(played.landing, o.RentPaid)
    assert played.amount == played.landing.amount == 25 and played.landing.owner == 2
    with pytest.raises(RuleError, match="passed GO"):
        game.execute(c.PlayCard("chance", 4, 1))


def test_4_1_a_drawer_short_of_the_price_leaves_the_deed_unbought() -> None:
    game = new_game()
    run(game, c.PayBank(1, 1200))
    tx = run(game, c.PlayCard("chance", 1, 1))
    played = outcome(tx)
    assert isinstance(played, o.CardPlayed) and isinstance(played.landing, o.Short)
    assert game.state.prop(28).owner is None
    assert balance(game, 1) == 300


def test_4_3_chest_14_nearest_station_option() -> None:
    game = new_game(classic={"chest14": "nearest_station"})
    run(game, Land(2, 18))
    assert outcome(run(game, c.PlayCard("chest", 14, 1, choice=1))).amount == 25
    run(game, c.PlayCard("chest", 14, 1, choice=2))
    assert game.state.owned_by(1) == (26,)
    with pytest.raises(RuleError, match="choose"):
        game.execute(c.PlayCard("chest", 14, 1))


def test_4_5_generic_effects_without_a_card_table() -> None:
    game = new_game(3, "starwars-ep2-fr")
    with pytest.raises(RuleError):
        game.execute(c.PlayCard("chance", 1, 1))
    run(game, c.GenericCard("chance", 1, 1, (100,)), c.GenericCard("chest", 2, 2, (50,)))
    run(game, c.GenericCard("chance", 4, 3, (10,)), c.GenericCard("chest", 5, 1, (5,)))
    assert balances(game) == [1600 - 10 - 10, 1450 - 10 + 5, 1520 + 5]
    run(game, c.GenericCard("chest", 7, 2), c.GenericCard("chance", 6, 3))
    run(game, c.GenericCard("chance", 8, 1))
    assert ext(game).jail_cards == ((2, "chest"),) and game.state.player(3).jailed  # type: ignore[union-attr]
    assert balance(game, 1) == 1780
    for bad in (
        c.GenericCard("chance", 9, 1),
        c.GenericCard("chance", 12, 1),
        c.GenericCard("chance", 1, 1, ()),
    ):
        with pytest.raises(RuleError):
            game.execute(bad)
    fr = new_game()
    with pytest.raises(RuleError):
        fr.execute(c.GenericCard("chance", 1, 1, (100,)))
