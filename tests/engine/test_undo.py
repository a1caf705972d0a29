"""Single-transaction undo."""

from __future__ import annotations

import pytest

from bank.engine.commands import GiveProperty, Land, Undo
from bank.engine.errors import UndoRefused
from bank.engine.game import Game
from bank.rulesets.ultime.commands import PassGo, PlayEvent
from bank.rulesets.ultime.config import RulesConfig
from board_assets import Edition


def test_undo_restores_the_exact_previous_state(game: Game) -> None:
    game.execute(Land(1, 1))
    before = game.state
    game.execute(Land(1, 2))  # colour-set bonus included
    assert game.undo_available
    game.execute(Undo())
    assert game.state == before


def test_not_twice_in_a_row(game: Game) -> None:
    game.execute(PassGo(1))
    game.execute(PassGo(2))
    game.execute(Undo())
    assert not game.undo_available
    with pytest.raises(UndoRefused):
        game.execute(Undo())


def test_nothing_to_undo_after_new_game(game: Game) -> None:
    assert not game.undo_available


def _debt_game(game: Game) -> None:
    game.execute(Land(1, 14))
    for _ in range(3):
        game.execute(Land(1, 14))
    for n in (22, 21, 20):
        game.execute(Land(2, n))
    game.execute(Land(2, 5))


def test_no_undo_while_in_debt_then_whole_transaction(game: Game) -> None:
    _debt_game(game)
    before = game.state
    game.execute(Land(2, 14))
    assert game.state.debtor() is not None and not game.undo_available
    with pytest.raises(UndoRefused, match="debt"):
        game.execute(Undo())
    game.execute(GiveProperty(2, 5))
    game.execute(GiveProperty(2, 20))
    assert game.undo_available
    game.execute(Undo())
    assert game.state == before


def test_settled_debt_not_undoable_when_configured(edition: Edition) -> None:
    g = Game(edition, RulesConfig(undo_settled_debt_whole=False))
    g.start([1, 2, 3])
    _debt_game(g)
    g.execute(Land(2, 14))
    g.execute(GiveProperty(2, 20))
    assert not g.undo_available


def test_event_debt_settlement_not_undoable(game: Game) -> None:
    for n in (22, 21, 20, 19):
        game.execute(Land(1, n))
    game.execute(PlayEvent(7, cards=(1,)))
    game.execute(GiveProperty(1, 19))
    assert not game.undo_available


def test_undo_is_journalled_and_replays(edition: Edition) -> None:
    records: list[dict[str, object]] = []

    class ListJournal:
        def append(self, record: dict[str, object]) -> int:
            records.append(record)
            return len(records)

        def records(self):  # type: ignore[no-untyped-def]
            return iter(list(records))

        def new_game(self, meta: dict[str, object]) -> int:
            records.clear()
            return 1

    g = Game(edition, journal=ListJournal())  # type: ignore[arg-type]
    g.start([1, 2])
    g.execute(Land(1, 3))
    g.execute(Undo())
    assert records[-1]["command"] == {"name": "undo"}
    again = Game(edition, journal=ListJournal())  # type: ignore[arg-type]
    assert again.state == g.state and not again.undo_available
