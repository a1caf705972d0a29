"""Mortgages (§3.10): mortgaging and lifting, and the interest question a traded mortgaged
deed opens.

Imports the core, this package's modules and the mixin below it in the engine's chain.
"""

from __future__ import annotations

from bank.engine.errors import NotEnoughMoney, RuleError
from bank.engine.ruleset import Decision
from bank.engine.state import GameState
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.rules.building import BuildingRules
from bank.rulesets.classic.rules.tx import _Tx
from bank.rulesets.classic.state import classic


def interest(mortgage: int, rounding: str = "up") -> int:
    """10 % of a mortgage, rounded up (§3.1) or down."""
    return -(-mortgage // 10) if rounding == "up" else mortgage // 10


class MortgageRules(BuildingRules):
    """Decides mortgaging, lifting and the interest question."""

    def interest_terms(self, state: GameState, number: int) -> tuple[int, int]:
        """The interest question on deed *number* (§3.10): what keeping the mortgage costs
        (the interest) and what lifting it costs (the mortgage and the interest)."""
        mortgage = self.ed.deed(number).mortgage
        keep = interest(mortgage, self.settings(state).classic.interest_rounding)
        return keep, mortgage + keep

    def must_lift(self, state: GameState, number: int) -> bool:
        """Whether the interest question on deed *number* can only be answered by lifting
        (Méga: buildings stand on its group, §7.2)."""
        owner = state.prop(number).owner
        return owner is not None and self.variant.must_lift(state, number, owner)

    def _mortgage(self, tx: _Tx, cfg: ClassicConfig, cmd: c.Mortgage) -> Decision:
        state = tx.state
        self._player(state, cmd.card)
        deed = self._street_of(state, cmd.card, cmd.number)
        ext = classic(state)
        if cmd.number in ext.mortgaged:
            if cmd.for_debt:
                raise RuleError("lifting a mortgage raises no money", "settle the debt")
            cost = deed.mortgage + interest(deed.mortgage, cfg.classic.interest_rounding)
            if tx.balance(cmd.card) < cost:
                raise NotEnoughMoney(f"player {cmd.card} cannot pay {cost}", "not enough money")
            tx.move(cmd.card, None, cost, "lift")
            tx.set_field("mortgaged", tuple(n for n in ext.mortgaged if n != cmd.number))
            return tx.decision(o.Lifted(cmd.card, cost, cmd.number))
        self.variant.check_mortgage(state, deed, cmd.card)
        tx.set_field("mortgaged", tuple(sorted((*ext.mortgaged, cmd.number))))
        tx.move(None, cmd.card, deed.mortgage, "mortgage")
        return tx.decision(o.Mortgaged(cmd.card, deed.mortgage, cmd.number))

    def _interest(self, tx: _Tx, cfg: ClassicConfig, cmd: c.AnswerInterest) -> Decision:
        ext = tx.ext
        if not ext.interest_due or ext.interest_due[0] != cmd.number:
            raise RuleError(f"deed {cmd.number} has no interest question now", "no question")
        owner = tx.state.prop(cmd.number).owner
        assert owner is not None
        deed = self.ed.deed(cmd.number)
        amount = interest(deed.mortgage, cfg.classic.interest_rounding)
        if not cmd.lift and self.variant.must_lift(tx.state, cmd.number, owner):
            raise RuleError("buildings on the group: the mortgage must be lifted", "must lift")
        tx.set_field("interest_due", ext.interest_due[1:])
        if cmd.lift:
            amount += deed.mortgage
            tx.set_field("mortgaged", tuple(n for n in ext.mortgaged if n != cmd.number))
        owed = tx.must_pay(owner, None, amount, "interest")
        return tx.decision(o.InterestAnswered(owner, amount, cmd.number, cmd.lift, owed))
