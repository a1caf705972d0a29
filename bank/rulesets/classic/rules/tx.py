"""One classic transaction's events, applied to a working copy as they are emitted, with the
debt rules (§3.12) in one place: a payment the player must make takes all their cash and
leaves the rest as a debt; every amount a debtor receives goes to the creditor first.

Imports the core's events and state and this package's state.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bank.engine.events import DebtChanged, Event, MoneyMoved, PropertyChanged
from bank.engine.ruleset import Decision
from bank.engine.state import Creditor, GameState
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.state import ClassicSet, ClassicState, classic


class _Tx:
    """The events of one transaction, applied to a working state as they are emitted."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        #: the state the transaction started from (whose debt was open then)
        self.start = state
        self.events: list[Event] = []

    @property
    def ext(self) -> ClassicState:
        return classic(self.state)

    def emit(self, event: Event) -> None:
        self.state = event.apply(self.state)
        self.events.append(event)

    def set_field(self, name: str, new: Any) -> None:
        old = getattr(self.ext, name)
        if old != new:
            self.emit(ClassicSet(name, old, new))

    def balance(self, card: int) -> int:
        p = self.state.player(card)
        assert p is not None
        return p.balance

    def move(self, payer: int | None, payee: int | None, amount: int, reason: str) -> None:
        """Money from *payer* to *payee* (None: the bank); a payee in debt pays it first."""
        if amount <= 0:
            return
        self.emit(MoneyMoved(payer, payee, amount, reason))
        if payee is not None:
            self.settle(payee)

    def to_pot(self, amount: int) -> None:
        if amount > 0:
            self.set_field("pot", self.ext.pot + amount)

    def must_pay(
        self, payer: int, creditor: Creditor, amount: int, reason: str, pot: bool = False
    ) -> int:
        """A payment the player must make: what they lack becomes a debt (§3.12)."""
        pay = min(self.balance(payer), amount)
        self.move(payer, creditor, pay, reason)
        if pot and creditor is None:
            self.to_pot(pay)
        rest = amount - pay
        if rest:
            p = self.state.player(payer)
            assert p is not None
            to_pot = pot and creditor is None
            if p.debt and (p.creditor != creditor or (payer in self.ext.pot_debts) != to_pot):
                # a second creditor: that debt waits behind the one being settled (C22)
                self.set_field("queued", (*self.ext.queued, (payer, creditor, rest, to_pot)))
                return rest
            self.emit(DebtChanged(payer, p.debt, p.debt + rest, p.creditor, creditor))
            if payer not in self.ext.debts:
                self.set_field("debts", (*self.ext.debts, payer))
            if to_pot and payer not in self.ext.pot_debts:
                self.set_field("pot_debts", (*self.ext.pot_debts, payer))
        return rest

    def first_paid(self, since: int = 0) -> o.Payment | None:
        """The first money this transaction moved after its first *since* events (what a
        card's outcome says it paid), or None."""
        for e in self.events[since:]:
            if isinstance(e, MoneyMoved):
                return o.Payment(e.payer, e.payee, e.amount, e.reason)
        return None

    def settle(self, card: int) -> None:
        """Pay *card*'s debt from its cash, as far as it goes; a paid debt makes way for the
        next one the player owes another creditor (C22)."""
        p = self.state.player(card)
        assert p is not None
        if not p.debt or p.balance <= 0:
            return
        pay = min(p.balance, p.debt)
        left = p.debt - pay
        to_pot = card in self.ext.pot_debts
        self.emit(DebtChanged(card, p.debt, left, p.creditor, p.creditor if left else None))
        self.move(card, p.creditor, pay, "debt")
        if to_pot and p.creditor is None:
            self.to_pot(pay)
        if not left:
            self.set_field("pot_debts", tuple(d for d in self.ext.pot_debts if d != card))
            waiting = next((q for q in self.ext.queued if q[0] == card), None)
            if waiting is None:
                self.set_field("debts", tuple(d for d in self.ext.debts if d != card))
                return
            queued = list(self.ext.queued)
            queued.remove(waiting)
            self.set_field("queued", tuple(queued))
            _, creditor, amount, pot = waiting
            self.emit(DebtChanged(card, 0, amount, None, creditor))
            if pot:
                self.set_field("pot_debts", (*self.ext.pot_debts, card))
            self.settle(card)

    def owner(self, card: int, number: int, level: int) -> None:
        prop = self.state.prop(number)
        self.emit(PropertyChanged(number, prop.owner, card, prop.level, level))

    def level(self, number: int, level: int | None) -> None:
        prop = self.state.prop(number)
        self.emit(PropertyChanged(number, prop.owner, prop.owner, prop.level, level))

    def decision(self, outcome: o.ClassicOutcome) -> Decision:
        """The events and *outcome*, which says whether the transaction paid off the debt
        open when it started, leaving none (a bankruptcy ends a debt, it does not settle it)."""
        debtor = self.start.debtor()
        if (
            debtor is not None
            and self.state.debtor() is None
            and not isinstance(outcome, o.Bankrupt)
        ):
            outcome = replace(outcome, debt_settled=debtor.card)
        return Decision(tuple(self.events), outcome, self.state)
