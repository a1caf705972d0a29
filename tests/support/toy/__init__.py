"""The toy ruleset, written only for tests: two players, one property, pay 1 to land.

It is the smallest complete ruleset, and the proof that the seam holds: it plugs into the core
through the registry (:func:`bank.rulesets.register`, called by :func:`install`) and its own
edition file (``toy.toml``, ``ruleset = "toy"``), and runs through ``ultibank script``, the
journal, undo and power cycles without a line of the Ultime package. It imports the core only.

Rules: a new game registers exactly the edition's two bank cards. Landing on the free property
buys it at its price; landing on another player's property pays its owner 1; a player who
cannot pay goes bankrupt and the game ends. Landing on one's own property does nothing.
Unit: tap the property, then the bank card of the player who landed; a bank card alone shows
its balance.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from bank import rulesets
from bank.engine.auction import can_pay_bid
from bank.engine.commands import Command, Land, NewGame
from bank.engine.config import UnitConfig
from bank.engine.errors import BankError, GameOver, NotEnoughMoney, RuleError
from bank.engine.events import (
    GameEnded,
    MoneyMoved,
    PlayerBankrupt,
    PlayerJoined,
    PropertyChanged,
)
from bank.engine.game import Game, Transaction
from bank.engine.ruleset import Decision, Outcome, OutcomeCodec
from bank.engine.state import GameState
from bank.unit.io import Button, CardId, Cue, Screen
from bank.unit.shell import Idle, UnitShell
from board_assets import Edition

EDITION_FILE = Path(__file__).with_name("toy.toml")
SCRIPT = Path(__file__).with_name("game.tap")
NAME = "toy"


@dataclass(frozen=True, slots=True)
class Started(Outcome):
    kind: ClassVar[str] = "toy_started"


@dataclass(frozen=True, slots=True)
class Bought(Outcome):
    kind: ClassVar[str] = "toy_bought"
    card: int
    price: int


@dataclass(frozen=True, slots=True)
class Paid(Outcome):
    kind: ClassVar[str] = "toy_paid"
    payer: int
    owner: int
    amount: int


@dataclass(frozen=True, slots=True)
class Stayed(Outcome):
    kind: ClassVar[str] = "toy_stayed"


class ToyRules:
    """Decides the toy's commands (the core's NewGame and Land; nothing else)."""

    name = NAME

    def __init__(self, edition: Edition, config: Any = None) -> None:
        if config is not None:
            raise BankError("the toy rules take no configuration")
        self.edition = edition
        self.config: object = None

    def decide(self, state: GameState, command: Command) -> Decision:
        if isinstance(command, NewGame):
            return self._new_game(state, command)
        if not state.started:
            raise RuleError("no game in progress", "no game")
        if state.game_over:
            raise GameOver("the game is over", "game over")
        if isinstance(command, Land):
            return self._land(state, command)
        raise RuleError(f"the toy game has no {command.name}", "unknown action")

    def _new_game(self, state: GameState, cmd: NewGame) -> Decision:
        if state.started and not state.game_over:
            raise RuleError("a game is already in progress", "game on")
        k = self.edition.constants
        if sorted(cmd.cards) != list(range(1, k.max_players + 1)):
            raise RuleError(f"the toy game needs bank cards 1 to {k.max_players}", "card twice")
        events = tuple(PlayerJoined(c, k.tokens[c - 1], k.start_balance) for c in cmd.cards)
        return Decision(events, Started())

    def _land(self, state: GameState, cmd: Land) -> Decision:
        player = state.player(cmd.card)
        if player is None:
            raise RuleError(f"bank card {cmd.card} is not in this game", "card not in game")
        if not 1 <= cmd.number <= len(self.edition.properties):
            raise RuleError(f"there is no property {cmd.number}", "no such property")
        prop = state.prop(cmd.number)
        if prop.owner is None:
            price = self.edition.prop(cmd.number).price
            if player.balance < price:
                raise NotEnoughMoney(f"player {cmd.card} cannot pay {price}", "not enough money")
            events = (
                MoneyMoved(cmd.card, None, price, "purchase"),
                PropertyChanged(cmd.number, None, cmd.card, None, 1),
            )
            return Decision(events, Bought(cmd.card, price))
        if prop.owner == cmd.card:
            return Decision((), Stayed())
        if player.balance < 1:
            winner = prop.owner
            ranking = (winner, cmd.card)
            return Decision(
                (PlayerBankrupt(cmd.card), GameEnded(winner, ranking)), Paid(cmd.card, winner, 0)
            )
        rent = MoneyMoved(cmd.card, prop.owner, 1, "rent")
        return Decision((rent,), Paid(cmd.card, prop.owner, 1))

    def joins_undo_group(self, command: Command) -> bool:
        return False

    def undo_after_settled_debt(self) -> bool:
        return False

    def auction_terms(self) -> tuple[int, float]:
        return self.edition.constants.auction_step, 5.0

    def check_bid(self, state: GameState, card: int, price: int) -> None:
        can_pay_bid(state, card, price)


@dataclass(frozen=True, slots=True)
class Landing:
    """The property was tapped: waiting for the bank card of the player who landed."""

    number: int
    expires: float


class ToyUnit(UnitShell):
    """The toy's gestures over the core's shell: property then bank card lands."""

    def _step_deadline(self) -> float | None:
        if isinstance(self.step, Landing):
            return self.step.expires
        return super()._step_deadline()

    def _on_button(self, button: Button) -> None:
        if isinstance(self.step, Landing):
            self._to_idle()
        else:
            super()._on_button(button)

    def _step_tap(self, card: CardId) -> None:
        step = self.step
        if isinstance(step, Idle):
            if card.kind == "prop":
                self.step = Landing(card.number, self._now + self.config.idle_seconds)
                self._show(Screen("toy_property", ("The Spot", "Tap a bank card"), number=1))
            elif card.kind == "bank" and (player := self._state.player(card.number)):
                self.step = Idle(self._now + self.config.idle_seconds)
                self._show(self.screens.balance(self._state, player))
            else:
                self._refuse("err.not_player")
        elif isinstance(step, Landing) and card.kind == "bank":
            tx = self._execute(Land(card.number, step.number))
            if tx is not None:
                self.step = Idle()
                self._after(tx, self._result(tx))
        else:
            super()._step_tap(card)

    def _result(self, tx: Transaction) -> Screen:
        done = tx.outcome
        if isinstance(done, Bought):
            return Screen("toy_bought", (f"Bought {done.price}",), amount=done.price)
        if isinstance(done, Paid):
            return Screen("toy_paid", (f"Paid {done.amount}",), amount=done.amount)
        return Screen("toy_stayed", ("Home",))

    def _cues(self, tx: Transaction) -> list[Cue]:
        done = tx.outcome
        if isinstance(done, Bought | Paid) and (not isinstance(done, Paid) or done.amount):
            return [Cue.KACHING]
        return []


def _unit(game: Game, config: UnitConfig | None) -> UnitShell:
    return ToyUnit(game, config)


def _config(raw: dict[str, Any]) -> object:
    if raw:
        raise BankError(f"the toy rules have no settings: {', '.join(raw)}")
    return None


def _schema(raw: Any) -> None:
    """The toy's edition schema: one property, no event cards."""
    from board_assets import EditionError

    if len(raw.get("properties", ())) != 1:
        raise EditionError("properties: the toy game has exactly one property")
    if raw.get("events"):
        raise EditionError("events: the toy game has no event cards")


RULESET = rulesets.RulesetSpec(
    name=NAME,
    rules=ToyRules,
    unit=_unit,
    config=_config,
    schema=_schema,
    outcomes=OutcomeCodec([Started, Bought, Paid, Stayed]),
)


def install() -> None:
    """Register the toy ruleset (the test-only registration hook)."""
    rulesets.register(RULESET)


def uninstall() -> None:
    rulesets.unregister(NAME)
