"""What the classic rules need the table to answer is a typed question of the decision, not a
refusal: the decision carries it and no events, the unit asks it, and a caller that cannot
ask (the core's ``execute``) is refused with the reason key the question used to be. A roll's
effect is typed too, and its older string form still decodes."""

from __future__ import annotations

import pytest

from bank.engine.commands import Command, Land
from bank.engine.errors import RuleError
from bank.engine.game import Game
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic import questions as q
from bank.rulesets.classic.refusals import FirstLap, LateClaim

from .classic_support import ext, new_game, outcome, rules, run


def asked(game: Game, command: Command) -> q.ClassicQuestion:
    """The question *command* decides to, checking that it commits nothing."""
    state = game.state
    decision = rules(game).decide(state, command)
    assert decision.events == () and decision.outcome is None
    assert decision.state is None or decision.state == state
    assert isinstance(decision.question, q.ClassicQuestion)
    with pytest.raises(RuleError) as err:  # the core cannot ask: refused, nothing journalled
        game.execute(command)
    assert err.value.key == decision.question.kind
    assert game.state == state
    return decision.question


def test_a_card_moving_from_where_the_token_stood_asks_which_space() -> None:
    game = new_game()
    question = asked(game, c.PlayCard("chance", 6, 1))  # back three spaces
    assert question == q.WhichSpace(options=3)
    assert question.refusal().fields == {"options": 3}
    # answered: decided, with events
    assert rules(game).decide(game.state, c.PlayCard("chance", 6, 1, choice=0)).question is None


def test_community_chest_13_asks_pay_or_draw_a_chance() -> None:
    game = new_game()
    chest13 = c.PlayCard("chest", 13, 1)
    assert asked(game, chest13) == q.PayOrChance()
    paid = outcome(run(game, c.PlayCard("chest", 13, 1, choice=0)))
    assert isinstance(paid, o.CardPlayed) and paid.amount > 0


def test_an_advance_the_ring_cannot_tell_asks_whether_go_was_passed() -> None:
    game = new_game()
    assert asked(game, c.PlayCard("chance", 4, 1)) == q.PassedGo()
    before = ext(game).passed_go
    run(game, c.PlayCard("chance", 4, 1, passed_go=True))
    assert ext(game).passed_go != before  # the salary was paid


def test_the_force_battle_asks_the_face_the_unit_does_not_know() -> None:
    game = new_game(2, "starwars-ep2-fr")
    question = asked(game, c.ForceBattle(1))
    assert isinstance(question, q.ForceFace) and question.reading == "die"
    assert question.refusal().fields == {"reading": "die"}


def test_a_face_outside_the_reading_stays_a_refusal() -> None:
    game = new_game(2, "starwars-ep2-fr", starwars={"force_rule": "symbol"})
    with pytest.raises(RuleError) as err:
        rules(game).decide(game.state, c.ForceBattle(1, "shift"))
    assert err.value.key == "force face?"


def test_a_hotel_the_stock_cannot_break_asks_to_sell_the_whole_group() -> None:
    game = new_game()
    run(game, c.ReceiveBank(1, 20000))
    for number in (1, 2, 4, 5, 6, 7, 9, 10, 12, 13, 14):
        run(game, Land(1, number))
    for _ in range(4):
        for number in (1, 2):
            run(game, c.Build(1, number))
    run(game, c.Build(1, 1), c.Build(1, 2))
    for _ in range(4):
        for number in (4, 5, 6, 7, 9, 10):
            run(game, c.Build(1, number))
    for _ in range(2):
        for number in (12, 13, 14):
            run(game, c.Build(1, number))
    question = asked(game, c.SellBuilding(1, 1))
    assert question == q.SellWholeGroup(1, "houses")
    assert "whole group" in str(question.refusal())


def test_real_refusals_stay_refusals() -> None:
    game = new_game(3)
    run(game, Land(1, 1))
    run(game, c.RollDice(2, (1, 2)), c.RollDice(3, (2, 3)), c.RollDice(1, (1, 3)))
    run(game, c.RollDice(3, (2, 3)))
    with pytest.raises(LateClaim) as err:  # nothing to answer: the claim is refused
        rules(game).decide(game.state, Land(2, 1))
    assert err.value.key == "too late"
    first_lap = new_game(2, variants={"no_buy_first_lap": True})
    with pytest.raises(FirstLap) as refused:  # typed, with the key its words are found by
        rules(first_lap).decide(first_lap.state, Land(1, 1))
    assert refused.value.key == "first lap"


@pytest.mark.parametrize(
    ("text", "effect", "jail_try"),
    [
        ("", o.RollEffect.NONE, 0),
        ("three doubles", o.RollEffect.THREE_DOUBLES, 0),
        ("freed", o.RollEffect.FREED, 0),
        ("try 1", o.RollEffect.TRY, 1),
        ("try 2", o.RollEffect.TRY, 2),
        ("fee", o.RollEffect.FEE, 0),
        ("triple", o.RollEffect.TRIPLE, 0),
    ],
)
def test_the_string_form_of_a_roll_effect_still_decodes(
    text: str, effect: o.RollEffect, jail_try: int
) -> None:
    rolled = o.Rolled(1, 7, (3, 4), 0, text)  # type: ignore[arg-type]
    assert rolled.effect is effect and rolled.jail_try == jail_try
    assert rolled.effect_text == text
    assert rolled == o.Rolled(1, 7, (3, 4), 0, effect, None, jail_try)


def test_a_failed_jail_try_is_typed_with_its_number() -> None:
    game = new_game()
    run(game, c.GoToJail(1))
    first = outcome(run(game, c.RollDice(1, (1, 2))))
    second = outcome(run(game, c.RollDice(1, (1, 3))))
    assert isinstance(first, o.Rolled) and isinstance(second, o.Rolled)
    assert (first.effect, first.jail_try) == (o.RollEffect.TRY, 1)
    assert (second.effect, second.jail_try) == (o.RollEffect.TRY, 2)
    fee = outcome(run(game, c.RollDice(1, (1, 4))))
    assert isinstance(fee, o.Rolled) and fee.effect is o.RollEffect.FEE and fee.jail_try == 0


@pytest.mark.parametrize(
    ("deck", "number", "gained"),
    [("chest", 1, True), ("chance", 11, False), ("chance", 2, True), ("chance", 12, False)],
)
def test_a_cards_outcome_says_whether_the_drawer_gained(
    deck: str, number: int, gained: bool
) -> None:
    """The unit's `+`/`−` before a card's amount comes from the rules, not a state diff."""
    game = new_game()
    played = outcome(run(game, c.PlayCard(deck, number, 1)))
    assert isinstance(played, o.CardPlayed) and played.amount and played.gained is gained
