"""Timed auctions, on an injected clock: the timer every ruleset shares.

An auction is a step in progress, not a transaction: nothing is journalled until the sale
(:class:`bank.engine.commands.AuctionSale`), which the game validates like any command. Time is
whatever float the caller passes as *now* (monotonic seconds or a script's virtual clock).
The ruleset says what a step is, how long the countdown runs and who may bid
(:meth:`bank.engine.ruleset.Ruleset.check_bid`). Imports the engine's value types only.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from bank.engine.commands import AuctionSale
from bank.engine.errors import NotEnoughMoney, RuleError
from bank.engine.state import GameState


class AuctionOutcome(Enum):
    WAITING = "waiting"  # not started (the auction icon shows; ✓ starts it)
    RUNNING = "running"
    SOLD = "sold"  # countdown over with a bid: the winner pays
    CANCELLED = "cancelled"  # countdown over with no bid, or X before any bid


class Auction:
    """One auction of an unowned property. Bids rise by *step* from 0."""

    def __init__(
        self,
        number: int,
        step: int,
        seconds: float,
        state: GameState,
        check_bid: Callable[[GameState, int, int], None] | None = None,
    ) -> None:
        """*check_bid(state, card, price)* refuses a named bid (default: money and seat)."""
        if state.prop(number).owner is not None:
            raise RuleError(
                f"property {number} is owned: only a free property is auctioned", "already owned"
            )
        self.number = number
        self.step = step
        self.seconds = seconds
        self._state = state
        self._check_bid = check_bid or can_pay_bid
        self.price = 0
        self.bids = 0
        #: the card of the last bid when it was made by tapping; None for a button bid
        self.bidder: int | None = None
        self.started = False
        self.cancelled = False
        self.deadline: float | None = None

    def update_state(self, state: GameState) -> None:
        """Balances and jail status used to check named bids."""
        self._state = state

    def start(self, now: float) -> None:
        """Start the countdown."""
        if self.started:
            raise RuleError("the auction is already running", "already running")
        self.started = True
        self.deadline = now + self.seconds

    def bid(self, now: float, card: int | None = None) -> int:
        """Raise by one step: anonymous (button, *card* None) or in *card*'s name."""
        return self._place(now, card, self.price + self.step)

    def bid_amount(self, now: float, card: int, price: int) -> int:
        """A typed bid: *card* bids *price*, at least 1 more than the current bid."""
        return self._place(now, card, price)

    def _place(self, now: float, card: int | None, price: int) -> int:
        if not self.started or self.cancelled:
            raise RuleError("the auction has not started", "not started")
        if self.expired(now):
            raise RuleError("the auction is over", "auction over")
        if price <= self.price:
            raise RuleError(f"a bid must beat {self.price}", "bid too low", price=self.price)
        if card is not None:
            self._check_bid(self._state, card, price)
        self.price = price
        self.bids += 1
        self.bidder = card
        self.deadline = now + self.seconds
        return price

    def cancel(self) -> None:
        """X before any bid."""
        if self.bids:
            raise RuleError("a bid was made: the auction cannot be cancelled", "bids made")
        self.cancelled = True

    def remaining(self, now: float) -> float:
        if self.deadline is None:
            return self.seconds
        return max(0.0, self.deadline - now)

    def expired(self, now: float) -> bool:
        return self.deadline is not None and now >= self.deadline

    def outcome(self, now: float) -> AuctionOutcome:
        if self.cancelled:
            return AuctionOutcome.CANCELLED
        if not self.started:
            return AuctionOutcome.WAITING
        if not self.expired(now):
            return AuctionOutcome.RUNNING
        return AuctionOutcome.SOLD if self.bids else AuctionOutcome.CANCELLED

    def sale(self, card: int | None = None) -> AuctionSale:
        """The command that completes the sale to *card* (default: the named last bidder)."""
        winner = card if card is not None else self.bidder
        if winner is None:
            raise RuleError("the last bidder must tap their bank card", "tap winner's card")
        if self.bidder is not None and winner != self.bidder:
            raise RuleError(f"player {self.bidder} made the last bid", "not the winner")
        if not self.bids:
            raise RuleError("no bid was made", "no bid")
        return AuctionSale(winner, self.number, self.price)


def can_pay_bid(state: GameState, card: int, price: int) -> None:
    """The shared check of a named bid: a player of the game who has *price*."""
    player = state.player(card)
    if player is None or player.bankrupt:
        raise RuleError(f"bank card {card} is not in this game", "card not in game")
    if player.balance < price:
        raise NotEnoughMoney(
            f"player {card} has {player.balance}, cannot bid {price}", "not enough money"
        )
