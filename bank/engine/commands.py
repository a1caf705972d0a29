"""Commands: what players ask the bank to do. The rules validate them and produce events.

A command names bank cards and property numbers (their ranges come from the edition), never
tokens or UIDs: the unit's behaviour has already turned taps into identities. The commands
here are those every ruleset shares (a new game, landing, an auction sale, giving up a
property to settle a debt, undo); a ruleset registers its own with :func:`register_commands`.
Imports only the standard library.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from bank.engine.values import dict_maker, field_names, register_once


@dataclass(frozen=True, slots=True)
class Command:
    name: ClassVar[str] = "command"
    #: undo may cancel this command's transaction
    undoable: ClassVar[bool] = True
    #: recorded in the journal but not a transaction for undo: undo skips over it and the
    #: undo group before it stays undoable (a classic dice roll, which undo never cancels)
    transparent: ClassVar[bool] = False

    def to_dict(self) -> dict[str, Any]:
        """Its fields (a tuple as a list), then its name."""
        maker = _AS_DICT.get(type(self))  # dict_maker's, looked up by class alone
        if maker is None:
            maker = _AS_DICT[type(self)] = dict_maker(type(self), "name", lists=True)
        return maker(self)


#: command class -> the function giving its stored form (``Command.to_dict``)
_AS_DICT: dict[type[Command], Callable[[Command], dict[str, Any]]] = {}


@dataclass(frozen=True, slots=True)
class NewGame(Command):
    """Register the bank cards of a new game (how many: the edition says)."""

    name: ClassVar[str] = "new_game"
    undoable: ClassVar[bool] = False
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Land(Command):
    """*card* lands on property *number*; what that does is the ruleset's to say."""

    name: ClassVar[str] = "land"
    card: int
    number: int


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
class Undo(Command):
    name: ClassVar[str] = "undo"
    undoable: ClassVar[bool] = False


_NAMES: dict[str, type[Command]] = {
    c.name: c
    for c in (
        NewGame,
        Land,
        AuctionSale,
        GiveProperty,
        Undo,
    )
}


def register_commands(*classes: type[Command]) -> None:
    """Let :func:`command_from_dict` read a ruleset's own commands (each name once)."""
    for cls in classes:
        register_once(_NAMES, cls.name, cls, "command")


def command_from_dict(raw: dict[str, Any]) -> Command:
    """Read a stored command."""
    data = dict(raw)
    cls = _NAMES[data.pop("name")]
    # a field added to a command after a game was stored takes its default
    kwargs = {
        name: tuple(data[name]) if isinstance(data[name], list) else data[name]
        for name in field_names(cls)  # cached: a resume reads thousands
        if name in data
    }
    return cls(**kwargs)
