"""The classic ruleset's part of the state, and the one event kind that changes it.

:class:`ClassicState` is the state extension of a classic game (docs/classic.md §1.1, §8.4): the
mortgaged deeds and the interest questions open, the bank's stock of buildings, the Free
Parking pot, the jail cards held (with their deck) and the jail tries, who has passed GO, the
unit's dice (roll count, last roll, the row of doubles, recent rollers for the claim window),
the eliminated players, the open debts in the order they arose (and those owed to the pot),
and the configuration recorded with the game. A deed's houses and hotel are the core's
``level`` (0-4 houses, 5 a hotel, 6 a Méga skyscraper). Every field holds plain, hashable
values, so the one event :class:`ClassicSet` (a field, its old and new value) applies, inverts
and reads back from the journal. Imports the engine's state and event types and the standard
library.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, ClassVar

from bank.engine.events import Event, register_events
from bank.engine.state import GameState

#: how many recent rollers the state keeps for the claim window (§3.4)
ROLLERS_KEPT = 64

#: a roll: (card or None, first die, second die, doubles in a row so far)
Roll = tuple[int | None, int, int, int]


@dataclass(frozen=True, slots=True)
class ClassicState:
    """What a classic game tracks beyond the shared state."""

    mortgaged: tuple[int, ...] = ()
    #: deeds whose new owner has not answered the interest question yet, in order (§3.10)
    interest_due: tuple[int, ...] = ()
    houses: int = 32
    hotels: int = 12
    #: Méga (§2.5): the skyscrapers and train depots left in the bank, the stations with a depot
    skyscrapers: int = 0
    depot_stock: int = 0
    depots: tuple[int, ...] = ()
    pot: int = 0
    #: (card, deck) of every "Get out of jail free" card held, in the order acquired
    jail_cards: tuple[tuple[int, str], ...] = ()
    #: (card, failed tries) of jailed players who rolled on the unit
    jail_tries: tuple[tuple[int, int], ...] = ()
    passed_go: tuple[int, ...] = ()
    #: rolls the unit made in this game (k of docs/readings.md D1)
    rolls: int = 0
    last_roll: Roll | None = None
    #: the third die of the last roll (Méga's speed die, Star Wars' Force die), None without
    third: str | None = None
    #: the card on a row of doubles and its length (one row at a time, A12)
    row: tuple[int, int] | None = None
    #: the cards of the recent rolls, oldest first (None: an anonymous roll)
    rollers: tuple[int | None, ...] = ()
    eliminated: tuple[int, ...] = ()
    #: the debtors in the order their debts arose (§3.12)
    debts: tuple[int, ...] = ()
    #: debtors whose debt goes into the Free Parking pot (A6)
    pot_debts: tuple[int, ...] = ()
    #: (debtor, creditor or None, amount, into the pot) of the debts a player owes another
    #: creditor behind the one being settled, in the order they arose (C22: a short payer of
    #: "pay each other player" owes several creditors)
    queued: tuple[tuple[int, int | None, int, bool], ...] = ()
    #: ``variants.virtual_decks``: each deck's order, top first (READINGS D2): shuffled once
    #: at the new game, a drawn card goes under, a kept jail card is out of it while held;
    #: empty without virtual decks. Never undone (E6): see :class:`DeckDrawn`, :class:`DeckOut`
    decks: tuple[tuple[str, tuple[int, ...]], ...] = ()
    #: the configuration recorded with the game (``table.key``, value)
    config: tuple[tuple[str, Any], ...] = ()
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        """The extension's keys for the core state file (the unit's §8.4 file is fuller)."""
        return {
            "bank": {"houses": self.houses, "hotels": self.hotels},
            "pot": self.pot,
            "mortgaged": list(self.mortgaged),
            "interest_due": list(self.interest_due),
            "jail_cards": [list(c) for c in self.jail_cards],
            "last_roll": list(self.last_roll) if self.last_roll else None,
            "eliminated": list(self.eliminated),
        }

    def tries(self, card: int) -> int:
        return dict(self.jail_tries).get(card, 0)

    def deck(self, name: str) -> tuple[int, ...]:
        """The virtual deck *name*'s order, top first (empty without virtual decks)."""
        return dict(self.decks).get(name, ())

    def cards_of(self, card: int) -> tuple[str, ...]:
        """The decks of *card*'s jail cards, in the order acquired."""
        return tuple(deck for holder, deck in self.jail_cards if holder == card)


_NAMES = tuple(f.name for f in fields(ClassicState))
#: every field's value in the order of the constructor's arguments, read in one C call
_EXT_VALUES = attrgetter(*_NAMES)
_INDEX = {name: i for i, name in enumerate(_NAMES)}

_FIELDS = frozenset(_NAMES)


def classic(state: GameState) -> ClassicState:
    """The classic part of *state* (every classic game starts with one)."""
    ext = state.extension
    return ext if isinstance(ext, ClassicState) else ClassicState()


def _freeze(value: Any) -> Any:
    """Lists read back from the journal become the tuples the state holds."""
    if isinstance(value, (list, tuple)):
        # most values are flat (the 64 recent rollers, the mortgaged deeds): a tuple that
        # hashes holds no list, so it is frozen already; one C-level pass instead of a call
        # per item, which made a long game's resume slow
        frozen = tuple(value)
        try:
            hash(frozen)
        except TypeError:
            return tuple(_freeze(v) for v in value)
        return frozen
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class ClassicSet(Event):
    """One field of the classic state changed from *old* to *new*."""

    kind: ClassVar[str] = "classic"
    field: str
    old: Any
    new: Any

    def __post_init__(self) -> None:
        if self.field not in _FIELDS:
            raise ValueError(f"the classic state has no field {self.field!r}")
        object.__setattr__(self, "old", _freeze(self.old))
        object.__setattr__(self, "new", _freeze(self.new))

    def apply(self, state: GameState) -> GameState:
        # every field copied in the constructor's order, read in one C call each:
        # dataclasses.replace checks more than it copies, and a resume applies one of these
        # for most transactions (a long game's resume was twice the Ultime one's)
        values = list(_EXT_VALUES(classic(state)))
        values[_INDEX[self.field]] = self.new
        return state.with_extension(ClassicState(*values))

    def inverse(self) -> Event:
        return ClassicSet(self.field, self.new, self.old)

    def to_dict(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "old": _thaw(self.old),
            "new": _thaw(self.new),
            "kind": self.kind,
        }


_ROLLS, _ROLLERS = _INDEX["rolls"], _INDEX["rollers"]


def _rolled(
    state: GameState, push: bool, card: int | None, dropped: tuple[int | None, ...]
) -> GameState:
    """*state* with a roll counted and *card* pushed (or the roll and the push undone)."""
    values = list(_EXT_VALUES(classic(state)))
    rollers: tuple[int | None, ...] = values[_ROLLERS]
    if push:
        values[_ROLLS] += 1
        values[_ROLLERS] = (*rollers[len(dropped) :], card)
    else:
        values[_ROLLS] -= 1
        values[_ROLLERS] = (*dropped, *rollers[:-1])
    return state.with_extension(ClassicState(*values))


@dataclass(frozen=True, slots=True)
class _RollerChange(Event):
    """One more roll of the unit's dice (``rolls`` counts it), *card*'s (None: anonymous) at the
    back of the recent rollers, and *dropped*: the card that left the front when the list was
    full, or nothing.

    Enough to apply the change and to undo it without the list itself, so the record's size
    does not grow with the game.
    """

    card: int | None
    dropped: tuple[int | None, ...] = ()

    def __post_init__(self) -> None:
        if len(self.dropped) > 1:
            raise ValueError("a roll drops at most one recent roller")
        object.__setattr__(self, "dropped", tuple(self.dropped))

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "dropped": list(self.dropped), "kind": self.kind}


@dataclass(frozen=True, slots=True)
class RollerPushed(_RollerChange):
    """The unit rolled for *card*: one more roll, *card* at the back of the recent rollers,
    *dropped* off the front."""

    kind: ClassVar[str] = "roller"

    def apply(self, state: GameState) -> GameState:
        return _rolled(state, True, self.card, self.dropped)

    def inverse(self) -> Event:
        return RollerPopped(self.card, self.dropped)


@dataclass(frozen=True, slots=True)
class RollerPopped(_RollerChange):
    """The undo of :class:`RollerPushed`: one roll less, *card* leaves the back of the recent
    rollers, *dropped* comes back in front."""

    kind: ClassVar[str] = "roller_undone"

    def apply(self, state: GameState) -> GameState:
        return _rolled(state, False, self.card, self.dropped)

    def inverse(self) -> Event:
        return RollerPushed(self.card, self.dropped)


def push_roller(rollers: tuple[int | None, ...], card: int | None) -> RollerPushed:
    """The event of a roll for *card*: counted, and *card* appended to *rollers* (the recent
    rollers before it), keeping the last :data:`ROLLERS_KEPT`."""
    return RollerPushed(card, rollers[: max(0, len(rollers) + 1 - ROLLERS_KEPT)])


_DECKS = _INDEX["decks"]


def _with_deck(state: GameState, name: str, order: tuple[int, ...]) -> GameState:
    values = list(_EXT_VALUES(classic(state)))
    values[_DECKS] = tuple((d, order if d == name else o) for d, o in values[_DECKS])
    return state.with_extension(ClassicState(*values))


@dataclass(frozen=True, slots=True)
class DeckDrawn(Event):
    """The top card of virtual deck *deck* was drawn and went under it (READINGS D2, E5).

    Only a draw (a command undo skips over, like a roll) emits it, so it is never undone."""

    kind: ClassVar[str] = "deck_drawn"
    deck: str

    def apply(self, state: GameState) -> GameState:
        order = classic(state).deck(self.deck)
        return _with_deck(state, self.deck, (*order[1:], *order[:1]))

    def inverse(self) -> Event:
        return DeckUndrawn(self.deck)


@dataclass(frozen=True, slots=True)
class DeckUndrawn(Event):
    """The inverse of :class:`DeckDrawn`: the bottom card back on top."""

    kind: ClassVar[str] = "deck_undrawn"
    deck: str

    def apply(self, state: GameState) -> GameState:
        order = classic(state).deck(self.deck)
        return _with_deck(state, self.deck, (*order[-1:], *order[:-1]))

    def inverse(self) -> Event:
        return DeckDrawn(self.deck)


@dataclass(frozen=True, slots=True)
class DeckOut(Event):
    """Card *number* (a "Get out of jail free" card now held) left virtual deck *deck*.

    Its inverse puts the card *under* the deck, not back where it was: the deck order is never
    undone, and a jail card an undo takes back from its holder goes under its deck (E6)."""

    kind: ClassVar[str] = "deck_out"
    deck: str
    number: int

    def apply(self, state: GameState) -> GameState:
        order = classic(state).deck(self.deck)
        return _with_deck(state, self.deck, tuple(n for n in order if n != self.number))

    def inverse(self) -> Event:
        return DeckUnder(self.deck, self.number)


@dataclass(frozen=True, slots=True)
class DeckUnder(Event):
    """Card *number* (a used or returned jail card) went under virtual deck *deck* (§3.6).

    Its inverse (an undo gives the card back to its holder) takes it out of the deck again."""

    kind: ClassVar[str] = "deck_under"
    deck: str
    number: int

    def apply(self, state: GameState) -> GameState:
        order = classic(state).deck(self.deck)
        return _with_deck(state, self.deck, (*(n for n in order if n != self.number), self.number))

    def inverse(self) -> Event:
        return DeckOut(self.deck, self.number)


register_events(ClassicSet, RollerPushed, RollerPopped, DeckDrawn, DeckUndrawn, DeckOut, DeckUnder)
