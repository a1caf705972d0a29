"""The classic outcome of a record written before outcomes were journalled, told from its
events: the last step of the upcaster of outcome version 0.

:func:`bank.engine.records.derive_outcome` first decides the record's command again on the state it
started from (exact when the rules still give the events stored). When they do not (rules
changed since), :func:`from_events` reads what the events and the states around them show:
a purchase paid, a rent paid or owed, a house more, a mortgage taken or lifted, the dice of
the state's last roll... This is the only place where a classic outcome is worked out from
money movements and state changes; every reader takes the outcome as journalled. An outcome
told this way carries what the events hold: not where a card's move paid a rent, nor the
deck it sends the player to. Imports the core, the classic outcomes and the standard library.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final

from bank.engine.events import (
    DebtChanged,
    Event,
    GameEnded,
    JailChanged,
    MoneyMoved,
    PlayerJoined,
    PropertyChanged,
)
from bank.engine.state import GameState
from bank.rulesets.classic import outcomes as o
from board_assets import Edition

if TYPE_CHECKING:  # the records module loads the ruleset registry, which loads this package
    from bank.engine.records import Record

__all__ = ["from_events"]

HOTEL: Final = 5
SKYSCRAPER: Final = 6
FORCE_FACES: Final = frozenset({"light", "dark", "shift"})


def from_events(
    edition: Edition, record: Record, before: GameState, after: GameState
) -> o.ClassicOutcome | None:
    """The outcome *record* had, as its events show it (None: an undo, or a command this
    reading does not know)."""
    try:
        told = _told(edition, record, before, after)
    except (KeyError, IndexError, TypeError, ValueError):  # a record missing a field
        return None
    debtor = before.debtor()
    if told is None or debtor is None or after.debtor() is not None:
        return told
    if isinstance(told, o.Bankrupt):  # a bankruptcy ends a debt, it does not settle it
        return told
    return replace(told, debt_settled=debtor.card)


def _told(
    edition: Edition, record: Record, before: GameState, after: GameState
) -> o.ClassicOutcome | None:
    name = record.name
    args: Mapping[str, Any] = record.arguments()
    events = record.events
    card = args.get("card")
    card = int(card) if isinstance(card, int) else None
    paid = _paid(events).get(card, 0)
    received = _received(events, card)
    raw: Mapping[str, Any] = edition.raw.get("classic", {}) if edition.raw else {}
    if name == "new_game":
        joined = [e.balance for e in events if isinstance(e, PlayerJoined)]
        return o.Started(None, joined[0] if joined else 0)
    if name in ("visit", "land"):
        return _landing(edition, record, before, after, int(args["number"]))
    if name in ("auction_sale", "series_sale"):
        return o.AuctionWon(card, int(args["price"]), int(args["number"]))
    if name == "classic_go":
        return o.Salary(card, received)
    if name == "classic_jail":
        return o.Jailed(card, 0)
    if name == "classic_leave_jail":
        return o.LeftJail(card, paid, str(args["how"]))
    if name == "tax":
        return o.TaxPaid(card, _due(events, card), int(args["position"]))
    if name == "pay_bank":
        return o.PaidBank(card, int(args["amount"]))
    if name == "receive_bank":
        return o.Received(card, int(args["amount"]))
    if name == "collect_pot":
        return o.PotCollected(card, received)
    if name == "build":
        number = int(args["number"])
        if _is_depot(edition, raw, number):
            return o.Built(card, paid, number, False, "depot")
        level = after.prop(number).level
        building = "skyscraper" if level == SKYSCRAPER else ""
        return o.Built(card, paid, number, level == HOTEL, building)
    if name == "sell_building":
        number = int(args["number"])
        whole = bool(args.get("whole_group"))
        if whole:
            return o.BuildingSold(card, received, number, True)
        if _is_depot(edition, raw, number):
            return o.BuildingSold(card, received, number, False, "depot")
        building = "skyscraper" if before.prop(number).level == SKYSCRAPER else ""
        return o.BuildingSold(card, received, number, False, building)
    if name == "mortgage":
        number = int(args["number"])
        if number in _field(after, "mortgaged", ()):
            return o.Mortgaged(card, received, number)
        return o.Lifted(card, paid, number)
    if name == "trade":
        first, second = int(args["first"]), int(args["second"])
        due = _field(before, "interest_due", ())
        questions = tuple(n for n in _field(after, "interest_due", ()) if n not in due)
        return o.Traded(first, int(args.get("cash", 0)), second, questions)
    if name == "interest":
        number = int(args["number"])
        owner = before.prop(number).owner
        return o.InterestAnswered(owner, _due(events, owner), number, bool(args.get("lift")))
    if name == "roll":
        return _roll(record, after, card)
    if name == "card":
        bought = _bought(edition, record, after)
        amount = bought.amount if bought is not None else _due(events, card) or received
        was, now = before.player(card or 0), after.player(card or 0)
        gained = was is not None and now is not None and now.balance >= was.balance
        return o.CardPlayed(
            card, amount, str(args["deck"]), int(args["number"]), bought, None, gained
        )
    if name == "generic_card":
        return o.GenericPlayed(card, _due(events, card) or received, int(args["effect"]))
    if name == "draw":
        deck = str(args["deck"])
        order = dict(_field(before, "decks", ())).get(deck, ())
        return o.Drawn(None, 0, deck, int(order[0])) if order else None
    if name == "birthday_gift":
        return o.Gift(card, received)
    if name == "force":
        return _force(record, before, int(args["card"]))
    if name == "time_up":
        return o.TimeOver(after.winner, 0)
    if name == "bankruptcy":
        debtor = before.player(card) if card is not None else None
        creditor = debtor.creditor if debtor is not None else None
        ended = any(isinstance(e, GameEnded) and e.ended for e in events)
        rule = dict(_field(before, "config", ())).get("classic.bankrupt_to_bank", "auction")
        auction: tuple[int, ...] = ()
        if creditor is None and not ended and rule == "auction":  # the series (§3.13)
            auction = tuple(
                sorted(
                    e.number
                    for e in events
                    if isinstance(e, PropertyChanged)
                    and e.old_owner == card
                    and e.new_owner is None
                )
            )
        return o.Bankrupt(card, debtor.debt if debtor is not None else 0, creditor, auction, ended)
    return None


def _bought(edition: Edition, record: Record, after: GameState) -> o.Bought | None:
    """The purchase in *record*'s events, if any (a landing, or a card's move)."""
    card = int(record.arguments()["card"])
    price = next(
        (e.amount for e in record.events if isinstance(e, MoneyMoved) and e.reason == "purchase"),
        None,
    )
    number = next(
        (e.number for e in record.events if isinstance(e, PropertyChanged) and e.new_owner == card),
        None,
    )
    if price is None or number is None:
        return None
    group = edition.prop(number).group
    whole = all(after.prop(p.number).owner == card for p in edition.properties if p.group == group)
    return o.Bought(card, price, number, whole)


def _landing(
    edition: Edition, record: Record, before: GameState, after: GameState, number: int
) -> o.ClassicOutcome:
    card = int(record.arguments()["card"])
    bought = _bought(edition, record, after)
    if bought is not None:
        return bought
    owner = before.prop(number).owner
    rent = _due(record.events, card, "rent")
    if rent:
        owed = _owed(record.events, card)
        return o.RentPaid(card, rent, number, owner if owner is not None else 0, owed)
    if owner is None:
        return o.Short(card, edition.prop(number).price, number)
    if owner == card:
        return o.Own(card, 0, number)
    mortgaged = number in _field(before, "mortgaged", ())
    return o.NoRent(card, 0, number, "mortgaged" if mortgaged else "owner in jail")


def _roll(record: Record, after: GameState, card: int | None) -> o.ClassicOutcome | None:
    roll = _classic_new(record.events, "last_roll")
    if not roll:
        return None
    roller, a, b, doubles = roll
    third = _field(after, "third", None)
    number = int(third) if isinstance(third, str) and third.isdigit() else 0
    effect, tried = o.RollEffect.NONE, 0
    jail = [e.jailed for e in record.events if isinstance(e, JailChanged) and e.card == roller]
    if jail and jail[-1]:
        effect = o.RollEffect.THREE_DOUBLES
    elif jail:
        effect = o.RollEffect.FEE if _due(record.events, roller, "jail") else o.RollEffect.FREED
    else:
        mine = [t for t in (_classic_new(record.events, "jail_tries") or ()) if t[0] == roller]
        if mine:
            effect, tried = o.RollEffect.TRY, int(mine[0][1])
        elif number and a == b == number:
            effect = o.RollEffect.TRIPLE
    return o.Rolled(roller, a + b + number, (a, b), doubles, effect, third, tried)


def _force(record: Record, before: GameState, card: int) -> o.ClassicOutcome:
    rule = dict(_field(before, "config", ())).get("starwars.force_rule", "die")
    face = record.arguments().get("face")
    last = _field(before, "last_roll", None)
    third = _field(before, "third", None)
    known = rule == "die" and last is not None and last[0] == card and third in FORCE_FACES
    if known:
        face = third  # the unit knew the face: what was asked, if anything, is not it
    penalty = _due(record.events, card, "force")
    owed = _owed(record.events, card)
    return o.ForceFought(card, penalty, not penalty, str(face), owed, known)


# ---------------------------------------------------------------------- reading the events


def _paid(events: Iterable[Event]) -> dict[int | None, int]:
    """What each payer paid the bank in these events."""
    out: dict[int | None, int] = {}
    for e in events:
        if isinstance(e, MoneyMoved) and e.payee is None:
            out[e.payer] = out.get(e.payer, 0) + e.amount
    return out


def _received(events: Iterable[Event], card: int | None) -> int:
    return sum(e.amount for e in events if isinstance(e, MoneyMoved) and e.payee == card)


def _owed(events: Iterable[Event], card: int | None) -> int:
    """The debt these events left *card* with, over the one it had."""
    return sum(
        e.new_debt - e.old_debt
        for e in events
        if isinstance(e, DebtChanged) and e.card == card and e.new_debt > e.old_debt
    )


def _due(events: Iterable[Event], card: int | None, reason: str | None = None) -> int:
    """What *card* was charged: paid now plus the debt the charge left."""
    events = tuple(events)
    paid = sum(
        e.amount
        for e in events
        if isinstance(e, MoneyMoved) and e.payer == card and reason in (None, e.reason)
    )
    return paid + _owed(events, card)


def _classic_new(events: Iterable[Event], field: str) -> Any:
    """The last new value the classic state's *field* took in these events (None: unchanged)."""
    value = None
    for e in events:
        if e.kind == "classic" and getattr(e, "field", None) == field:
            value = getattr(e, "new", None)
    return value


def _field(state: GameState, field: str, default: Any) -> Any:
    return getattr(state.extension, field, default)


def _is_depot(edition: Edition, raw: Mapping[str, Any], number: int) -> bool:
    """Whether a building on deed *number* is a Méga train depot (a station's building)."""
    if not raw.get("mega", False) or not 1 <= number <= len(edition.properties):
        return False
    kinds: Mapping[str, str] = raw.get("group_kinds", {})
    return kinds.get(edition.prop(number).group) == "station"
