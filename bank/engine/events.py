"""Events: what a transaction changed, as diffs that can be applied and inverted.

Applying an event is pure and **trusted**: :func:`apply` does not check the rules (the rules
module decides, then produces events). Each event carries its before and after values, so
:meth:`inverse` gives the event that undoes it without copying the state.

Records are versioned (``SCHEMA_VERSION``) for the journal; :func:`event_from_dict` reads
every version this code has written. The kinds here are those every ruleset shares (players,
money, properties, jail, debts, the end); a ruleset registers its own kinds with
:func:`register_events`. Imports only ``bank.engine.state`` and the standard library.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from bank.engine.state import (
    Creditor,
    GameState,
    PlayerState,
    new_property,
    player_with_balance,
    state_with_players,
)
from bank.engine.values import dict_maker, register_once

#: event class -> the function giving its stored form (``Event.to_dict``)
_AS_DICT: dict[type[Event], Callable[[Event], dict[str, Any]]] = {}

#: the newest journal record schema this code writes (``bank.engine.records`` lists the versions)
SCHEMA_VERSION = 3


@dataclass(frozen=True, slots=True)
class Event(ABC):
    """One change a transaction made; each kind knows how to apply and invert itself."""

    kind: ClassVar[str] = "event"

    @abstractmethod
    def apply(self, state: GameState) -> GameState:
        """The state with this change made (trusted: the rules checked it)."""

    @abstractmethod
    def inverse(self) -> Event:
        """The event that undoes this one."""

    def to_dict(self) -> dict[str, Any]:
        # Not dataclasses.asdict: its recursive deep copy costs more than the rest of a
        # transaction's bookkeeping; every field here is a plain value. Its fields, then kind.
        maker = _AS_DICT.get(type(self))  # dict_maker's, looked up by class alone
        if maker is None:
            maker = _AS_DICT[type(self)] = dict_maker(type(self), "kind")
        return maker(self)


@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    """A bank card registered for a new game, credited the start balance by the bank."""

    kind: ClassVar[str] = "player_joined"
    card: int
    token: str
    balance: int
    joined: bool = True

    def apply(self, state: GameState) -> GameState:
        if self.joined:
            players = sorted(
                (*state.players, PlayerState(self.card, self.token, self.balance)),
                key=lambda p: p.card,
            )
        else:
            players = [p for p in state.players if p.card != self.card]
        return replace(state, players=tuple(players))

    def inverse(self) -> Event:
        return replace(self, joined=not self.joined)


@dataclass(frozen=True, slots=True)
class MoneyMoved(Event):
    """*amount* moved from *payer* to *payee*; None on either side is the bank."""

    kind: ClassVar[str] = "money"
    payer: int | None
    payee: int | None
    amount: int
    reason: str = ""

    def apply(self, state: GameState) -> GameState:
        payer, payee, amount = self.payer, self.payee, self.amount
        if payer is None and payee is None:
            return state
        # both sides on one copy of the players, one new state (most transactions move
        # money); a player is looked for at its seat first (bank card n is the n-th player
        # when the cards 1, 2... play, as they mostly do)
        players = list(state.players)
        if payer is not None:
            i = payer - 1
            if not (0 <= i < len(players) and players[i].card == payer):
                i = _seat(players, payer)
            p = players[i]
            players[i] = player_with_balance(p, p.balance - amount)
        if payee is not None:
            i = payee - 1
            if not (0 <= i < len(players) and players[i].card == payee):
                i = _seat(players, payee)
            p = players[i]
            players[i] = player_with_balance(p, p.balance + amount)
        return state_with_players(state, tuple(players))

    def inverse(self) -> Event:
        return replace(self, payer=self.payee, payee=self.payer)


def _seat(players: list[PlayerState], card: int) -> int:
    """The index of bank card *card*'s player in *players* (trusted: it plays)."""
    for i, p in enumerate(players):
        if p.card == card:
            return i
    raise AssertionError(f"no player {card}")


@dataclass(frozen=True, slots=True)
class PropertyChanged(Event):
    """A property's owner and/or level changed."""

    kind: ClassVar[str] = "property"
    number: int
    old_owner: int | None
    new_owner: int | None
    old_level: int | None
    new_level: int | None

    def apply(self, state: GameState) -> GameState:
        # built from its fields, not dataclasses.replace (most transactions raise a level)
        p = state.prop(self.number)
        return state.with_property(new_property(p.number, self.new_owner, self.new_level))

    def inverse(self) -> Event:
        return PropertyChanged(
            self.number, self.new_owner, self.old_owner, self.new_level, self.old_level
        )


@dataclass(frozen=True, slots=True)
class JailChanged(Event):
    kind: ClassVar[str] = "jail"
    card: int
    jailed: bool

    def apply(self, state: GameState) -> GameState:
        p = state.player(self.card)
        assert p is not None
        return state.with_player(p.with_jailed(self.jailed))

    def inverse(self) -> Event:
        return replace(self, jailed=not self.jailed)


@dataclass(frozen=True, slots=True)
class DebtChanged(Event):
    """A player's outstanding debt changed; *creditor* None is the bank."""

    kind: ClassVar[str] = "debt"
    card: int
    old_debt: int
    new_debt: int
    old_creditor: Creditor
    new_creditor: Creditor

    def apply(self, state: GameState) -> GameState:
        p = state.player(self.card)
        assert p is not None
        return state.with_player(p.with_debt(self.new_debt, self.new_creditor))

    def inverse(self) -> Event:
        return DebtChanged(
            self.card, self.new_debt, self.old_debt, self.new_creditor, self.old_creditor
        )


@dataclass(frozen=True, slots=True)
class PlayerBankrupt(Event):
    kind: ClassVar[str] = "bankrupt"
    card: int
    bankrupt: bool = True

    def apply(self, state: GameState) -> GameState:
        p = state.player(self.card)
        assert p is not None
        return state.with_player(p.with_bankrupt(self.bankrupt))

    def inverse(self) -> Event:
        return replace(self, bankrupt=not self.bankrupt)


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    winner: int | None
    ranking: tuple[int, ...]
    ended: bool = True

    def apply(self, state: GameState) -> GameState:
        if self.ended:
            return replace(state, game_over=True, winner=self.winner, ranking=self.ranking)
        return replace(state, game_over=False, winner=None, ranking=())

    def inverse(self) -> Event:
        return replace(self, ended=not self.ended)

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "ranking": list(self.ranking),
            "ended": self.ended,
            "kind": self.kind,
        }


_KINDS: dict[str, type[Event]] = {
    cls.kind: cls
    for cls in (
        PlayerJoined,
        MoneyMoved,
        PropertyChanged,
        JailChanged,
        DebtChanged,
        PlayerBankrupt,
        GameEnded,
    )
}


def register_events(*classes: type[Event]) -> None:
    """Let :func:`event_from_dict` read a ruleset's own event kinds (each kind once)."""
    for cls in classes:
        register_once(_KINDS, cls.kind, cls, "event kind")


def event_from_dict(raw: dict[str, Any]) -> Event:
    """Read one stored event (any schema version this code wrote)."""
    data = dict(raw)
    cls = _KINDS[data.pop("kind")]
    if cls is GameEnded:
        data["ranking"] = tuple(data["ranking"])
    return cls(**data)


def apply(state: GameState, events: Iterable[Event]) -> GameState:
    """Apply *events* in order. Trusted: the rules checked them when they were decided."""
    for event in events:
        state = event.apply(state)
    return state


def invert(events: Iterable[Event]) -> list[Event]:
    """The events that undo *events* (inverses in reverse order)."""
    return [e.inverse() for e in reversed(list(events))]
