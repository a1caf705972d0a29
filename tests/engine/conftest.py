from __future__ import annotations

import pytest

from bank.engine.game import Game
from bank.rulesets.ultime.config import RulesConfig
from board_assets import Edition, load_edition


@pytest.fixture
def edition() -> Edition:
    return load_edition("ultime-fr")


@pytest.fixture
def game(edition: Edition) -> Game:
    """A fresh in-memory game with bank cards 1, 2 and 3 registered."""
    g = Game(edition, RulesConfig())
    g.start([1, 2, 3])
    return g


def bal(game: Game, card: int) -> int:
    p = game.state.player(card)
    assert p is not None
    return p.balance


def owner_level(game: Game, number: int) -> tuple[int | None, int | None]:
    p = game.state.prop(number)
    return p.owner, p.level
