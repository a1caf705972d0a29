"""The small interface a ruleset offers the game layer.

The Ultime rules (:mod:`bank.ultime`) are one ruleset; a classic-editions ruleset can sit
beside it and share the ledger, journal, undo, auctions, deck and panels. Imports only the
engine's value types.
"""

from __future__ import annotations

from typing import Protocol

from bank.commands import Command
from bank.events import Event
from bank.state import GameState


class Ruleset(Protocol):
    """Decides commands: validates against the state and returns the events, or raises."""

    def decide(self, state: GameState, command: Command) -> list[Event]:
        """Events of *command*; raises :class:`bank.errors.RuleError` (state untouched)."""
        ...

    def check_event_taps(
        self, state: GameState, event_id: int, props: tuple[int, ...], cards: tuple[int, ...]
    ) -> None:
        """Validate a partial list of taps for an event card."""
        ...

    def rent_due(self, state: GameState, number: int) -> int:
        """Rent a visitor would pay now on property *number* (0 if it yields nothing)."""
        ...
