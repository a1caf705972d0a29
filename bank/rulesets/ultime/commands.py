"""The Ultime ruleset's own commands (the M menu's GO, jail and Location, and event cards).

Registered with the core's command reader so the journal reads them back. Imports the core's
command type and the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bank.engine.commands import Command, register_commands


@dataclass(frozen=True, slots=True)
class PassGo(Command):
    name: ClassVar[str] = "pass_go"
    card: int


@dataclass(frozen=True, slots=True)
class GoToJail(Command):
    name: ClassVar[str] = "go_to_jail"
    card: int


@dataclass(frozen=True, slots=True)
class LeaveJail(Command):
    """Leave jail by paying the fee (``paid``) or free after rolling a double."""

    name: ClassVar[str] = "leave_jail"
    card: int
    paid: bool


@dataclass(frozen=True, slots=True)
class PayLocation(Command):
    """The voluntary Location fee; the landing on the chosen property follows as a :class:`Land`."""

    name: ClassVar[str] = "pay_location"
    card: int


@dataclass(frozen=True, slots=True)
class PlayEvent(Command):
    """An event card with its taps: *props* and *cards* in the order the card asks for them."""

    name: ClassVar[str] = "event"
    undoable: ClassVar[bool] = False
    event_id: int
    props: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()


register_commands(PassGo, GoToJail, LeaveJail, PayLocation, PlayEvent)
