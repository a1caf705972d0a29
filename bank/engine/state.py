"""The game state: immutable values, rebuilt from the journal at start.

Imports only ``board_assets``, :mod:`bank.engine.values` and the standard library. States are
frozen: applying an event returns a new state (see :mod:`bank.engine.events`), so comparing two
states is exact.

The core state is what every ruleset shares: players and their money, jail and debts, who owns
each property and at which level, the end of the game. What only one ruleset tracks lives in
its *extension* (a frozen value of the ruleset's own, :class:`StateExtension`), which the
ruleset's events replace; :func:`register_extension` names the empty extension of a ruleset so
that :meth:`GameState.empty` starts every game of that ruleset with it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bank.engine.values import frozen_maker, frozen_replacer
from board_assets import Edition

#: A creditor: a bank card number, or None for the bank.
Creditor = int | None


@dataclass(frozen=True, slots=True)
class PlayerState:
    card: int
    token: str
    balance: int
    jailed: bool = False
    debt: int = 0
    creditor: Creditor = None
    bankrupt: bool = False

    # Each built by ``frozen_replacer`` or ``frozen_maker`` (bank.engine.values), not
    # ``dataclasses.replace``, which checks more than it copies: every money event does this.

    def with_balance(self, balance: int) -> PlayerState:
        """This player with *balance*."""
        return player_with_balance(self, balance)

    def with_jailed(self, jailed: bool) -> PlayerState:
        """This player in jail (*jailed*) or out of it."""
        return _player_jailed(self, jailed)

    def with_debt(self, debt: int, creditor: Creditor) -> PlayerState:
        """This player owing *debt* to *creditor*."""
        return _new_player(
            self.card, self.token, self.balance, self.jailed, debt, creditor, self.bankrupt
        )

    def with_bankrupt(self, bankrupt: bool) -> PlayerState:
        """This player bankrupt (*bankrupt*) or back in the game."""
        return _player_bankrupt(self, bankrupt)


@dataclass(frozen=True, slots=True)
class PropertyState:
    number: int
    owner: int | None = None
    level: int | None = None


class StateExtension(Protocol):
    """What one ruleset adds to the state: a frozen, comparable value."""

    def to_json(self) -> dict[str, Any]:
        """Its keys of the state file, in their order (after ``properties``)."""
        ...


#: ruleset name -> its empty extension (see :func:`register_extension`)
_EXTENSIONS: dict[str, Callable[[], StateExtension]] = {}


def register_extension(ruleset: str, empty: Callable[[], StateExtension]) -> None:
    """Every new game of *ruleset* starts with ``empty()`` as its state extension."""
    _EXTENSIONS[ruleset] = empty


def extension_types(ruleset: str | None = None) -> list[type]:
    """The classes of the state extension of *ruleset* (None: of every registered ruleset),
    for snapshots."""
    return [
        type(empty())
        for name, empty in sorted(_EXTENSIONS.items())
        if ruleset is None or name == ruleset
    ]


@dataclass(frozen=True, slots=True)
class GameState:
    edition: str
    players: tuple[PlayerState, ...] = ()
    properties: tuple[PropertyState, ...] = ()
    #: the ruleset's own part of the state (None: the ruleset keeps nothing of its own)
    extension: StateExtension | None = None
    game_over: bool = False
    winner: int | None = None
    #: bank card numbers from first to last place, once the game is over
    ranking: tuple[int, ...] = ()

    @classmethod
    def empty(cls, edition: Edition) -> GameState:
        """A state with no players and every property unowned."""
        empty = _EXTENSIONS.get(edition.ruleset)
        return cls(
            edition=edition.id,
            properties=tuple(PropertyState(p.number) for p in edition.properties),
            extension=empty() if empty is not None else None,
        )

    @property
    def started(self) -> bool:
        return bool(self.players)

    def player(self, card: int) -> PlayerState | None:
        """The registered player of bank card *card*, or None."""
        for p in self.players:
            if p.card == card:
                return p
        return None

    def prop(self, number: int) -> PropertyState:
        return self.properties[number - 1]

    def owned_by(self, card: int) -> tuple[int, ...]:
        """Numbers of the properties *card* owns."""
        return tuple(p.number for p in self.properties if p.owner == card)

    def debtor(self) -> PlayerState | None:
        """The player settling a debt, if any (at most one at a time)."""
        for p in self.players:
            if p.debt > 0:
                return p
        return None

    # Each built by ``frozen_replacer`` (bank.engine.values): the other fields copied in one
    # straight line of code, not ``dataclasses.replace``, which checks more than it copies (a
    # resume does this for every event).

    def with_player(self, player: PlayerState) -> GameState:
        card = player.card
        players = tuple([player if p.card == card else p for p in self.players])
        return state_with_players(self, players)

    def with_players(self, players: tuple[PlayerState, ...]) -> GameState:
        """This state with *players* (every player, in order)."""
        return state_with_players(self, players)

    def with_property(self, prop: PropertyState) -> GameState:
        props = list(self.properties)
        props[prop.number - 1] = prop
        return _state_properties(self, tuple(props))

    def with_extension(self, extension: StateExtension) -> GameState:
        return _state_extension(self, extension)

    def to_json(self) -> dict[str, Any]:
        """The state file of docs/scripts.md (extra keys allowed)."""
        return {
            "edition": self.edition,
            "game_over": self.game_over,
            "winner": self.winner,
            "players": [
                {
                    "card": p.card,
                    "token": p.token,
                    "balance": p.balance,
                    "jailed": p.jailed,
                    "debt": p.debt,
                    "bankrupt": p.bankrupt,
                    "creditor": p.creditor if p.debt else None,
                }
                for p in self.players
            ],
            "properties": [
                {"number": p.number, "owner": p.owner, "level": p.level} for p in self.properties
            ],
            **(self.extension.to_json() if self.extension is not None else {}),
            "ranking": list(self.ranking),
        }


#: ``state.with_players(players)`` and ``player.with_balance(balance)`` as functions, one call
#: less for every money event (``MoneyMoved.apply``)
state_with_players = frozen_replacer(GameState, "players")
player_with_balance = frozen_replacer(PlayerState, "balance")
_state_properties = frozen_replacer(GameState, "properties")
_state_extension = frozen_replacer(GameState, "extension")
_new_player = frozen_maker(PlayerState)
_player_jailed = frozen_replacer(PlayerState, "jailed")
_player_bankrupt = frozen_replacer(PlayerState, "bankrupt")
#: ``PropertyState(number, owner, level)``, cheaper (see ``frozen_maker``)
new_property = frozen_maker(PropertyState)
