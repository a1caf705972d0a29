"""The rules say what happened: a decision is the events and a typed outcome (item 2 of
issue 11), and a refusal is a reason key with fields, worded by the unit's catalogue."""

from __future__ import annotations

import pytest

from bank.engine.commands import Land, NewGame
from bank.engine.errors import RuleError
from bank.engine.game import Game
from bank.rulesets.ultime import outcomes as o
from bank.rulesets.ultime.commands import GoToJail, PassGo, PlayEvent
from bank.unit.text import engine_short
from board_assets import load_edition


@pytest.fixture
def game() -> Game:
    g = Game(load_edition("ultime-fr"))
    g.start([1, 2])
    return g


def test_landing_says_bought_rent_paid_and_level(game: Game) -> None:
    bought = game.execute(Land(1, 1)).outcome
    assert isinstance(bought, o.Bought)
    assert (bought.card, bought.price, bought.completed_group) == (1, 60, False)
    assert bought.happened.money_moved and not bought.happened.level_up
    rent = game.execute(Land(2, 1)).outcome
    assert isinstance(rent, o.RentPaid)
    # level 1 rent of the first brown property, then the level rose to 2
    assert (rent.payer, rent.owner, rent.paid, rent.owed, rent.level) == (2, 1, 70, False, 2)
    own = game.execute(Land(1, 1)).outcome
    assert isinstance(own, o.LevelRaised) and own.raised and own.level == 3
    assert own.happened.level_up and not own.happened.money_moved


def test_a_completed_colour_group_is_said_by_the_rules(game: Game) -> None:
    game.execute(Land(1, 1))
    done = game.execute(Land(1, 2)).outcome
    assert isinstance(done, o.Bought) and done.completed_group and done.happened.level_up


def test_a_jailed_owner_collects_nothing(game: Game) -> None:
    game.execute(Land(1, 1))
    game.execute(GoToJail(1))
    assert isinstance(game.execute(Land(2, 1)).outcome, o.NoRent)


def test_the_tax_event_says_its_amount(game: Game) -> None:
    game.execute(Land(1, 1))
    game.execute(Land(1, 2))
    tax = next(e.id for e in game.edition.events if e.kind == "tax")
    done = game.execute(PlayEvent(tax, cards=(1,))).outcome
    assert isinstance(done, o.EventPlayed)
    assert (done.result, done.card, done.amount) == ("tax", 1, 2 * 50)


def test_the_menu_commands_say_what_they_did(game: Game) -> None:
    go = game.execute(PassGo(2)).outcome
    assert isinstance(go, o.SalaryPaid) and go.amount == 200
    jail = game.execute(GoToJail(2)).outcome
    assert isinstance(jail, o.Jailed) and jail.happened.jailed


def test_a_refusal_is_a_reason_key_with_fields_worded_per_language() -> None:
    game = Game(load_edition("ultime-fr"))
    with pytest.raises(RuleError) as err:
        game.execute(NewGame((1, 2, 3, 4, 1)))
    with pytest.raises(RuleError) as five:
        game.execute(NewGame((1, 2, 3, 4, 5)))
    assert err.value.key == "card twice"
    assert (five.value.key, five.value.fields) == ("players range", {"lo": 2, "hi": 4})
    assert engine_short("fr", five.value.key, **five.value.fields) == "2 à 4 joueurs"
    assert engine_short("en", five.value.key, **five.value.fields) == "2-4 players"
