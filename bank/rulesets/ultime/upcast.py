"""The Ultime outcome of a record written before outcomes were journalled, told from its
events: the last step of the upcaster of outcome version 0.

:func:`bank.engine.records.derive_outcome` first decides the record's command again on the state
it started from, with the default rules decisions (exact when they give the events stored).
When they do not (a game played under other decisions: a bankrupt's deeds to the bank, no
change given back on a debt...), :func:`from_events` reads what the events and the states
around them show: who bought or paid what, the levels the deed reached, what an event card
did. This is the only place where an Ultime outcome is worked out from events and states;
every reader takes the outcome as journalled. Imports the core, the Ultime outcomes and
events, and the standard library.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bank.engine.events import (
    DebtChanged,
    Event,
    GameEnded,
    JailChanged,
    MoneyMoved,
    PlayerBankrupt,
    PropertyChanged,
)
from bank.engine.state import GameState
from bank.rulesets.ultime import outcomes as o
from bank.rulesets.ultime.events import GroupCompleted, ultime
from board_assets import Edition

if TYPE_CHECKING:  # the records module loads the ruleset registry, which loads this package
    from bank.engine.records import Record

__all__ = ["from_events"]


def from_events(
    edition: Edition, record: Record, before: GameState, after: GameState
) -> o.UltimeOutcome | None:
    """The outcome *record* had, as its events show it (None: an undo, or a command this
    reading does not know)."""
    try:
        told = _told(edition, record, before, after)
    except (KeyError, IndexError, TypeError, ValueError):  # a record missing a field
        return None
    bankrupt = next((e.card for e in record.events if isinstance(e, PlayerBankrupt)), None)
    if told is not None and bankrupt is not None:
        told = replace(told, bankrupt=bankrupt)
    return told


def happened(events: Iterable[Event]) -> o.Happened:
    """The sound cues *events* deserve, noted as the rules note them."""
    money = level = jailed = over = False
    for e in events:
        if isinstance(e, MoneyMoved):
            money |= e.amount > 0
        elif isinstance(e, PropertyChanged):
            level |= (
                e.new_owner is not None
                and e.new_owner == e.old_owner
                and (e.new_level or 0) > (e.old_level or 0)
            )
        elif isinstance(e, GroupCompleted):
            level |= e.completed
        elif isinstance(e, JailChanged):
            jailed |= e.jailed
        elif isinstance(e, GameEnded):
            over |= e.ended
    return o.Happened(money, level, jailed, over)


def _told(
    edition: Edition, record: Record, before: GameState, after: GameState
) -> o.UltimeOutcome | None:
    name = record.name
    args: Mapping[str, Any] = record.arguments()
    events = record.events
    cues = happened(events)
    card = int(args["card"]) if isinstance(args.get("card"), int) else 0
    if name == "new_game":
        return o.Started(cues, tuple(int(c) for c in args.get("cards", ())))
    if name == "land":
        return _landing(record, before, after, card, int(args["number"]), cues)
    if name == "pass_go":
        return o.SalaryPaid(cues, card, _moved(events, "go"))
    if name == "go_to_jail":
        return o.Jailed(cues, card)
    if name == "leave_jail":
        return o.LeftJail(cues, card, bool(args.get("paid")))
    if name == "pay_location":
        return o.LocationPaid(cues, card, _moved(events, "location"))
    if name == "auction_sale":
        return o.AuctionSold(cues, int(args["number"]), card, int(args["price"]))
    if name == "give_property":
        return o.DebtSettled(cues, card, int(args["number"]), _moved(events, "change"))
    if name == "event":
        return _event(edition, record, after, cues)
    return None


def _landing(
    record: Record, before: GameState, after: GameState, card: int, number: int, cues: o.Happened
) -> o.UltimeOutcome:
    events = record.events
    owner = before.prop(number).owner
    level = after.prop(number).level
    if owner is None:
        completed = any(isinstance(e, GroupCompleted) and e.completed for e in events)
        return o.Bought(cues, number, card, _moved(events, "purchase"), completed, level or 1)
    if owner == card:
        return o.LevelRaised(
            cues, number, level or 1, (level or 0) > (before.prop(number).level or 0), card
        )
    charged = any(isinstance(e, MoneyMoved | DebtChanged | PlayerBankrupt) for e in events) or any(
        isinstance(e, PropertyChanged) and e.number == number for e in events
    )
    if not charged:
        return o.NoRent(cues, number, card)
    paid = sum(e.amount for e in events if isinstance(e, MoneyMoved) and e.reason == "rent")
    left = after.player(card)
    owed = left is not None and left.debt > 0
    return o.RentPaid(cues, number, card, owner, paid, owed, level)


def _event(edition: Edition, record: Record, after: GameState, cues: o.Happened) -> o.UltimeOutcome:
    args = record.arguments()
    events = record.events
    event_id = int(args["event_id"])
    kind = edition.event(event_id).kind
    props = [int(n) for n in args.get("props", ())]
    cards = [int(c) for c in args.get("cards", ())]
    number = props[0] if props else None
    first = cards[0] if cards else None
    level = after.prop(number).level if number is not None else None
    if kind == "gridlock":
        return o.EventPlayed(cues, event_id, kind, "gridlock")
    if kind == "cheap_rent":
        return o.EventPlayed(cues, event_id, kind, "cheap_rent", amount=ultime(after).cheap_rents)
    result, amount = f"event.{kind}", None
    bought = next(
        (
            e
            for e in events
            if isinstance(e, PropertyChanged) and e.old_owner is None and e.new_owner is not None
        ),
        None,
    )
    if kind == "move" and bought is not None:
        completed = any(isinstance(e, GroupCompleted) and e.completed for e in events)
        return o.EventPlayed(
            cues, event_id, kind, "bought", number=number, card=first,
            amount=_moved(events, "purchase"), level=level, completed_group=completed,
        )  # fmt: skip
    if kind in ("move", "reset_level", "max_level"):
        result = "level"
    elif kind == "swap":
        result = "swapped"
    elif kind == "tax":
        result = "tax"
        amount = _moved(events, "tax") + sum(
            e.new_debt - e.old_debt for e in events if isinstance(e, DebtChanged)
        )
    elif kind == "collect_pair":
        result = "collected"
        amount = next((e.amount for e in events if isinstance(e, MoneyMoved)), None)
    elif kind == "jail_other":
        result = "jailed"
    if not events:
        result = "nothing"
    elif result == f"event.{kind}" and not any(
        isinstance(e, PropertyChanged) and e.old_level != e.new_level for e in events
    ):
        result = "unchanged"
    return o.EventPlayed(
        cues, event_id, kind, result, number=number, card=first, amount=amount, level=level
    )


def _moved(events: Iterable[Event], reason: str) -> int:
    """The money these events moved for *reason*."""
    return sum(e.amount for e in events if isinstance(e, MoneyMoved) and e.reason == reason)
