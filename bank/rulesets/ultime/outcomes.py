"""What an Ultime command did, as the rules decided it: the unit shows these, it never works
them out again from the events.

Every outcome carries the cues the transaction deserves (money moved, a level rose, someone
went to jail, the game ended), noted by the rules as they emitted the events. Imports the
core's outcome type and the standard library.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from bank.engine.ruleset import Outcome


@dataclass(frozen=True, slots=True)
class Happened:
    """What the transaction's events amount to, for the sound cues."""

    money_moved: bool = False
    level_up: bool = False
    jailed: bool = False
    game_over: bool = False


@dataclass(frozen=True, slots=True)
class UltimeOutcome(Outcome):
    kind: ClassVar[str] = "ultime"
    happened: Happened
    #: the player a payment this transaction charged could not meet: bankrupt, which ends an
    #: Ultime game (None: nobody). Only the kinds that charge a payment (a rent, the jail
    #: fee, an event's tax: their versions 2) can carry it.
    bankrupt: int | None = field(default=None, kw_only=True)

    @property
    def eliminated(self) -> int | None:
        return self.bankrupt

    @property
    def ends_game(self) -> bool:
        """An Ultime game ends with a bankruptcy, whatever the transaction that caused it."""
        return self.happened.game_over


@dataclass(frozen=True, slots=True)
class Started(UltimeOutcome):
    """A new game of the bank cards *cards* (version 2: *cards* added)."""

    kind: ClassVar[str] = "started"
    version: ClassVar[int] = 2
    cards: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Bought(UltimeOutcome):
    """*card* bought the free property *number* for *price* (by landing or by an event move)."""

    kind: ClassVar[str] = "bought"
    number: int
    card: int
    price: int
    #: the purchase completed its colour group (the bonus was given)
    completed_group: bool
    level: int


@dataclass(frozen=True, slots=True)
class RentPaid(UltimeOutcome):
    """*payer* paid *paid* of a rent to *owner* (less when a debt is left); the level rose."""

    kind: ClassVar[str] = "rent_paid"
    #: 2: may carry ``bankrupt``
    version: ClassVar[int] = 2
    number: int
    payer: int
    owner: int
    paid: int
    #: the payer could not pay it all and owes the rest
    owed: bool
    level: int | None


@dataclass(frozen=True, slots=True)
class NoRent(UltimeOutcome):
    """*card* visited the property *number* of a jailed owner: no rent, no rise (decision);
    version 2: *card* added."""

    kind: ClassVar[str] = "no_rent"
    version: ClassVar[int] = 2
    number: int
    card: int


@dataclass(frozen=True, slots=True)
class LevelRaised(UltimeOutcome):
    """*card*, the owner, landed on their own property *number*: its level is now *level*;
    *raised* False at the top. Version 2: *card* added."""

    kind: ClassVar[str] = "level"
    version: ClassVar[int] = 2
    number: int
    level: int
    raised: bool
    card: int


@dataclass(frozen=True, slots=True)
class SalaryPaid(UltimeOutcome):
    kind: ClassVar[str] = "salary"
    card: int
    amount: int


@dataclass(frozen=True, slots=True)
class Jailed(UltimeOutcome):
    kind: ClassVar[str] = "jailed"
    card: int


@dataclass(frozen=True, slots=True)
class LeftJail(UltimeOutcome):
    kind: ClassVar[str] = "left_jail"
    #: 2: may carry ``bankrupt``
    version: ClassVar[int] = 2
    card: int
    paid: bool


@dataclass(frozen=True, slots=True)
class LocationPaid(UltimeOutcome):
    kind: ClassVar[str] = "location_paid"
    card: int
    fee: int


@dataclass(frozen=True, slots=True)
class AuctionSold(UltimeOutcome):
    kind: ClassVar[str] = "auction_sold"
    number: int
    card: int
    price: int


@dataclass(frozen=True, slots=True)
class DebtSettled(UltimeOutcome):
    """A property given up; *change* is what the bank paid back over the debt."""

    kind: ClassVar[str] = "debt_settled"
    card: int
    number: int
    change: int


@dataclass(frozen=True, slots=True)
class EventPlayed(UltimeOutcome):
    """An event card's effect; *result* names what it did, with the figures that go with it.

    *result* is ``bought``, ``level``, ``swapped``, ``tax``, ``collected``, ``cheap_rent``,
    ``jailed``, ``gridlock``, ``nothing`` (no event at all: a level at its bound, a player
    already in jail...), ``event.<effect>`` for an effect on several levels at once, or
    ``unchanged`` when such an effect changed no level.
    """

    kind: ClassVar[str] = "event_played"
    #: 2: may carry ``bankrupt``
    version: ClassVar[int] = 2
    event_id: int
    effect: str
    result: str
    number: int | None = None
    card: int | None = None
    amount: int | None = None
    level: int | None = None
    #: the move bought a property that completed its colour group
    completed_group: bool = False


# ---------------------------------------------------------------------- upcasters


def _cards_joined(fields: dict[str, Any], command: Mapping[str, Any]) -> dict[str, Any]:
    """``started`` 1 to 2: the bank cards of the game, as the ``new_game`` command named them."""
    return {**fields, "cards": list(command.get("cards", ()))}


def _card_landed(fields: dict[str, Any], command: Mapping[str, Any]) -> dict[str, Any]:
    """``level`` and ``no_rent`` 1 to 2: the card that landed, as the ``land`` command named it."""
    return {**fields, "card": int(command["card"])}


def _no_bankruptcy_said(fields: dict[str, Any]) -> dict[str, Any]:
    """``rent_paid``, ``left_jail`` and ``event_played`` 1 to 2: version 2 may name the
    player the payment bankrupted (``bankrupt``); a version-1 record names none."""
    return fields


#: the upcasters of the stored fields alone, ``(kind, stored version) -> step``
UPCASTERS: Final = {
    (kind, 1): _no_bankruptcy_said for kind in ("rent_paid", "left_jail", "event_played")
}

#: the upcasters that read the record's command, ``(kind, stored version) -> step``
COMMAND_UPCASTERS: Final = {
    ("started", 1): _cards_joined,
    ("level", 1): _card_landed,
    ("no_rent", 1): _card_landed,
}
