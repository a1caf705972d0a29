"""Trades between two players (§3.11): deeds, cash and jail cards in one transaction.

Imports the core, this package's modules and the mixin below it in the engine's chain.
"""

from __future__ import annotations

from bank.engine.errors import NotEnoughMoney, RuleError
from bank.engine.ruleset import Decision
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.rules.mortgages import MortgageRules
from bank.rulesets.classic.rules.tx import _Tx
from bank.rulesets.classic.state import classic


class TradeRules(MortgageRules):
    """Decides trades."""

    def _trade(self, tx: _Tx, cfg: ClassicConfig, cmd: c.Trade) -> Decision:
        state = tx.state
        a, b = cmd.first, cmd.second
        self._player(state, a)
        self._player(state, b)
        if a == b:
            raise RuleError("a trade needs two players", "same player")
        if not (
            cmd.deeds_first or cmd.deeds_second or cmd.cash or cmd.cards_first or cmd.cards_second
        ):
            raise RuleError("the offer is empty", "empty trade")
        given = (*cmd.deeds_first, *cmd.deeds_second)
        if len(set(given)) != len(given):
            raise RuleError("a deed appears twice", "deed twice")
        for giver, deeds in ((a, cmd.deeds_first), (b, cmd.deeds_second)):
            for n in deeds:
                deed = self._street_of(state, giver, n)
                if any(state.prop(m).level for m in self.ed.group(deed.group)):
                    raise RuleError("a deed of a group with buildings", "buildings on group")
                if n in classic(state).depots:  # E9: a station carrying its depot
                    raise RuleError("a station with its depot", "depot on station")
        ext = classic(state)
        for giver, decks in ((a, cmd.cards_first), (b, cmd.cards_second)):
            held = list(ext.cards_of(giver))
            for deck in decks:
                if deck not in held:
                    raise RuleError(f"player {giver} has no {deck} jail card", "no jail card")
                held.remove(deck)
        if cmd.cash < 0 or (cmd.cash and cmd.cash_from not in (a, b)):
            raise RuleError("the cash needs its payer", "cash payer")
        if cmd.cash and tx.balance(cmd.cash_from or a) < cmd.cash:
            raise NotEnoughMoney("the payer has not the cash", "not enough money")
        for taker, deeds in ((b, cmd.deeds_first), (a, cmd.deeds_second)):
            for n in deeds:
                tx.owner(taker, n, 0)
        for giver, taker, decks in ((a, b, cmd.cards_first), (b, a, cmd.cards_second)):
            for deck in decks:
                self._drop_jail_card(tx, giver, deck)
                tx.set_field("jail_cards", (*tx.ext.jail_cards, (taker, deck)))
        if cmd.cash:
            payer = cmd.cash_from or a
            tx.move(payer, b if payer == a else a, cmd.cash, "trade")
        received = sorted(n for n in given if n in ext.mortgaged)
        if received:
            tx.set_field("interest_due", (*tx.ext.interest_due, *received))
        cash_from = (cmd.cash_from or a) if cmd.cash else None
        return tx.decision(o.Traded(a, cmd.cash, b, tuple(received), given, cash_from))
