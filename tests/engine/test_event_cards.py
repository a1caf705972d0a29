"""Each of the 23 event cards of docs/ultime.md §4, with its taps."""

from __future__ import annotations

import pytest

from bank.engine.commands import Land, Undo
from bank.engine.errors import NotEnoughMoney, RuleError, UndoRefused
from bank.engine.game import Game
from bank.rulesets.ultime.commands import GoToJail, PlayEvent
from bank.rulesets.ultime.events import ultime
from bank.rulesets.ultime.rules import UltimeRules
from board_assets import Edition

from .conftest import bal, owner_level


def rules(game: Game) -> UltimeRules:
    assert isinstance(game.ruleset, UltimeRules)
    return game.ruleset


def levels(game: Game, *numbers: int) -> list[int | None]:
    return [game.state.prop(n).level for n in numbers]


def test_edition_has_23_cards_of_the_right_kinds(edition: Edition) -> None:
    kinds = {e.id: e.kind for e in edition.events}
    assert len(kinds) == 23
    assert {i for i, k in kinds.items() if k == "move"} == {1, 3, 18}
    assert {i for i, k in kinds.items() if k == "group_up"} == {2, 12, 17}
    assert {i for i, k in kinds.items() if k == "reset_level"} == {4, 16, 20}
    assert {i for i, k in kinds.items() if k == "swap"} == {6, 9}
    assert {i for i, k in kinds.items() if k == "neighbours"} == {8, 10}
    assert {i for i, k in kinds.items() if k == "collect_pair"} == {11, 23}
    single = {5: "max_level", 7: "tax", 13: "cheap_rent", 14: "jail_other", 15: "side_down"}
    single |= {19: "group_down", 21: "gridlock", 22: "side_up"}
    assert {i: kinds[i] for i in single} == single


@pytest.mark.parametrize("eid", [1, 3, 18])
def test_move_buys_unowned_without_go(game: Game, eid: int) -> None:
    game.execute(PlayEvent(eid, props=(16,), cards=(2,)))
    assert owner_level(game, 16) == (2, 1) and bal(game, 2) == 1240


@pytest.mark.parametrize("eid", [1, 3, 18])
def test_move_to_own_raises_level(game: Game, eid: int) -> None:
    game.execute(Land(2, 16))
    game.execute(PlayEvent(eid, props=(16,), cards=(2,)))
    assert owner_level(game, 16) == (2, 2) and bal(game, 2) == 1240


def test_move_to_another_players_property_is_refused_at_the_mover_tap(game: Game) -> None:
    game.execute(Land(1, 16))
    rules(game).check_event_taps(game.state, 1, props=(16,))  # the destination alone is fine
    with pytest.raises(RuleError, match="belongs to player 1"):
        rules(game).check_event_taps(game.state, 1, props=(16,), cards=(2,))
    with pytest.raises(RuleError):
        game.execute(PlayEvent(1, props=(16,), cards=(2,)))


def test_move_completing_a_set_gives_the_bonus(game: Game) -> None:
    game.execute(Land(2, 1))
    game.execute(PlayEvent(3, props=(2,), cards=(2,)))
    assert levels(game, 1, 2) == [3, 3]


def test_move_refused_when_short(game: Game) -> None:
    for n in (22, 21, 20, 19):
        game.execute(Land(1, n))
    with pytest.raises(NotEnoughMoney):
        game.execute(PlayEvent(18, props=(17,), cards=(1,)))


@pytest.mark.parametrize("eid", [2, 12, 17])
def test_group_up(game: Game, eid: int) -> None:
    game.execute(Land(1, 9))
    game.execute(Land(2, 10))
    game.execute(PlayEvent(eid, props=(9,)))
    assert levels(game, 9, 10, 11) == [2, 2, None]


def test_group_up_needs_an_owned_property(game: Game) -> None:
    with pytest.raises(RuleError, match="nobody"):
        rules(game).check_event_taps(game.state, 2, props=(9,))


def test_group_down_19(game: Game) -> None:
    game.execute(Land(1, 9))
    game.execute(Land(1, 9))
    game.execute(Land(2, 10))
    game.execute(PlayEvent(19, props=(10,)))
    assert levels(game, 9, 10) == [1, 1]


@pytest.mark.parametrize("eid", [4, 16, 20])
def test_reset_to_level_1(game: Game, eid: int) -> None:
    game.execute(Land(1, 12))
    for _ in range(3):
        game.execute(Land(1, 12))
    game.execute(PlayEvent(eid, props=(12,)))
    assert levels(game, 12) == [1]


def test_max_level_5(game: Game) -> None:
    game.execute(Land(3, 7))
    game.execute(PlayEvent(5, props=(7,)))
    assert owner_level(game, 7) == (3, 5)


@pytest.mark.parametrize("eid", [6, 9])
def test_swap_keeps_levels(game: Game, eid: int) -> None:
    game.execute(Land(1, 3))
    game.execute(Land(1, 3))
    game.execute(Land(2, 20))
    game.execute(PlayEvent(eid, props=(3, 20)))
    assert owner_level(game, 3) == (2, 2) and owner_level(game, 20) == (1, 1)


def test_swap_refuses_same_owner_and_unowned(game: Game) -> None:
    game.execute(Land(1, 3))
    game.execute(Land(1, 20))
    with pytest.raises(RuleError, match="same player"):
        rules(game).check_event_taps(game.state, 6, props=(3, 20))
    with pytest.raises(RuleError, match="nobody"):
        rules(game).check_event_taps(game.state, 6, props=(3, 21))


def test_tax_50_per_property(game: Game) -> None:
    for n in (1, 5, 9):
        game.execute(Land(1, n))
    game.execute(PlayEvent(7, cards=(1,)))
    assert bal(game, 1) == 1500 - 60 - 120 - 180 - 150


def test_tax_with_debt_rules(game: Game) -> None:
    for n in (22, 21, 20, 19):
        game.execute(Land(1, n))  # 130 left, 4 properties: tax 200
    game.execute(PlayEvent(7, cards=(1,)))
    assert bal(game, 1) == 0 and game.state.player(1).debt == 70  # type: ignore[union-attr]


def test_tax_with_no_property_does_nothing(game: Game) -> None:
    tx = game.execute(PlayEvent(7, cards=(2,)))
    assert tx.events == () and bal(game, 2) == 1500


@pytest.mark.parametrize("eid", [8, 10])
def test_neighbours(game: Game, eid: int) -> None:
    game.execute(Land(1, 22))
    game.execute(Land(1, 22))
    game.execute(Land(2, 1))
    game.execute(Land(2, 1))
    game.execute(Land(3, 2))  # brown shared: +1 -> 1 at L3, 2 at L2
    assert levels(game, 22, 1, 2) == [2, 3, 2]
    game.execute(PlayEvent(eid, props=(1,)))  # neighbours of 1: 22 (across GO) and 2
    assert levels(game, 22, 1, 2) == [1, 4, 1]


def test_neighbours_leave_unowned_alone(game: Game) -> None:
    game.execute(Land(1, 10))
    game.execute(PlayEvent(8, props=(10,)))
    assert levels(game, 9, 10, 11) == [None, 2, None]


@pytest.mark.parametrize("eid", [11, 23])
def test_collect_pair(game: Game, eid: int) -> None:
    game.execute(PlayEvent(eid, cards=(1, 3)))
    assert (bal(game, 1), bal(game, 2), bal(game, 3)) == (1700, 1500, 1700)


def test_collect_pair_needs_two_players(game: Game) -> None:
    with pytest.raises(RuleError, match="another"):
        rules(game).check_event_taps(game.state, 11, cards=(1, 1))


def test_cheap_rent_13_next_two_rents_at_level_1(game: Game) -> None:
    game.execute(Land(1, 16))
    game.execute(Land(1, 16))
    game.execute(Land(1, 16))  # level 3: 420
    game.execute(PlayEvent(13))
    game.execute(Land(2, 16))  # 200, level 4
    game.execute(Land(3, 16))  # 200, level 5
    game.execute(Land(2, 16))  # 1300
    assert levels(game, 16) == [5]
    assert (bal(game, 2), bal(game, 3)) == (1500 - 200 - 1300, 1300)
    assert ultime(game.state).cheap_rents == 0


def test_jail_other_14(game: Game) -> None:
    game.execute(PlayEvent(14, cards=(2,)))
    assert game.state.player(2).jailed  # type: ignore[union-attr]
    tx = game.execute(PlayEvent(14, cards=(2,)))  # already jailed: does nothing
    assert tx.events == ()


def test_side_down_15_and_up_22(game: Game) -> None:
    game.execute(Land(1, 12))
    game.execute(Land(1, 12))
    game.execute(Land(2, 17))
    game.execute(Land(2, 17))
    game.execute(Land(3, 18))  # other side
    game.execute(PlayEvent(15, props=(17,)))
    assert levels(game, 12, 17, 18) == [1, 1, 1]
    game.execute(PlayEvent(22, props=(12,)))
    assert levels(game, 12, 17, 18) == [2, 2, 1]


def test_gridlock_21_changes_no_money(game: Game) -> None:
    before = game.state
    tx = game.execute(PlayEvent(21))
    assert tx.events == () and game.state == before


def test_event_transactions_cannot_be_undone(game: Game) -> None:
    game.execute(PlayEvent(11, cards=(1, 2)))
    assert not game.undo_available
    with pytest.raises(UndoRefused):
        game.execute(Undo())


def test_event_tap_counts_are_checked(game: Game) -> None:
    with pytest.raises(RuleError):
        game.execute(PlayEvent(11, cards=(1,)))
    with pytest.raises(RuleError):
        rules(game).check_event_taps(game.state, 13, props=(1,))
    with pytest.raises(RuleError):
        rules(game).check_event_taps(game.state, 24)


def test_jailed_mover_still_moves(game: Game) -> None:
    game.execute(GoToJail(1))
    game.execute(PlayEvent(1, props=(5,), cards=(1,)))
    assert owner_level(game, 5) == (1, 1)
