"""Helpers for the classic rules tests: a game of classic-fr (or another edition) in memory."""

from __future__ import annotations

from typing import Any

from bank.commands import Command
from bank.game import Game, Transaction
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.rules import ClassicOutcome, ClassicRulesEngine
from bank.rulesets.classic.state import ClassicState, classic
from board_assets import load_edition
from tests.support.fakes import MemoryJournal


def new_game(players: int = 2, edition: str = "classic-fr", **tables: dict[str, Any]) -> Game:
    """A started game; *tables* are ``classic={...}``, ``variants={...}``."""
    config = ClassicConfig.from_mapping(tables) if tables else None
    game = Game(load_edition(edition), config, journal=MemoryJournal())
    game.start(range(1, players + 1))
    return game


def run(game: Game, *commands: Command) -> Transaction:
    tx = None
    for command in commands:
        tx = game.execute(command)
    assert tx is not None
    return tx


def outcome(tx: Transaction) -> ClassicOutcome:
    assert isinstance(tx.outcome, ClassicOutcome)
    return tx.outcome


def balance(game: Game, card: int) -> int:
    p = game.state.player(card)
    assert p is not None
    return p.balance


def balances(game: Game) -> list[int]:
    return [p.balance for p in game.state.players]


def ext(game: Game) -> ClassicState:
    return classic(game.state)


def rules(game: Game) -> ClassicRulesEngine:
    assert isinstance(game.ruleset, ClassicRulesEngine)
    return game.ruleset


def replayed(game: Game) -> Game:
    """The game re-opened from its journal."""
    return Game(game.edition, game.rules, journal=game.journal)
