"""Commands: what players ask the bank to do. The rules validate them and produce events.

A command names bank cards (1..4) and property numbers (1..22), never tokens or UIDs: the
unit's behaviour has already turned taps into identities. Imports only the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from bank.values import field_names


@dataclass(frozen=True, slots=True)
class Command:
    name: ClassVar[str] = "command"
    #: undo may cancel this command's transaction
    undoable: ClassVar[bool] = True

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {}
        for f in field_names(type(self)):
            v = getattr(self, f)
            d[f] = list(v) if isinstance(v, tuple) else v
        d["name"] = self.name
        return d


@dataclass(frozen=True, slots=True)
class NewGame(Command):
    """Register 2..4 bank cards; each is credited the start balance."""

    name: ClassVar[str] = "new_game"
    undoable: ClassVar[bool] = False
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Land(Command):
    """*card* lands on property *number*: buys it if unowned, pays rent, or raises its own level."""

    name: ClassVar[str] = "land"
    card: int
    number: int


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
class AuctionSale(Command):
    """The end of a timed auction: *card* pays *price* and owns *number* at level 1."""

    name: ClassVar[str] = "auction_sale"
    card: int
    number: int
    price: int


@dataclass(frozen=True, slots=True)
class GiveProperty(Command):
    """A debtor gives up one property, counted at its purchase price."""

    name: ClassVar[str] = "give_property"
    card: int
    number: int


@dataclass(frozen=True, slots=True)
class PlayEvent(Command):
    """An event card with its taps: *props* and *cards* in the order the card asks for them."""

    name: ClassVar[str] = "event"
    undoable: ClassVar[bool] = False
    event_id: int
    props: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Undo(Command):
    name: ClassVar[str] = "undo"
    undoable: ClassVar[bool] = False


_NAMES: dict[str, type[Command]] = {
    c.name: c
    for c in (
        NewGame,
        Land,
        PassGo,
        GoToJail,
        LeaveJail,
        PayLocation,
        AuctionSale,
        GiveProperty,
        PlayEvent,
        Undo,
    )
}


def command_from_dict(raw: dict[str, Any]) -> Command:
    """Read a stored command."""
    data = dict(raw)
    cls = _NAMES[data.pop("name")]
    kwargs = {
        f.name: tuple(data[f.name]) if isinstance(data[f.name], list) else data[f.name]
        for f in fields(cls)
    }
    return cls(**kwargs)
