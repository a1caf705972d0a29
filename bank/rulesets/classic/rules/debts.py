"""Bankruptcy and the end of the game (§3.13, §3.14), the time limit included.

Imports the core, this package's modules and the mixin below it in the engine's chain.
"""

from __future__ import annotations

from bank.engine.errors import RuleError
from bank.engine.events import DebtChanged, GameEnded, JailChanged, PlayerBankrupt, PropertyChanged
from bank.engine.ruleset import Decision
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.rules.cards import CardRules
from bank.rulesets.classic.rules.tx import _Tx
from bank.rulesets.classic.state import classic


class DebtRules(CardRules):
    """Decides bankruptcy, the time limit and the end of the game."""

    def _time_up(self, tx: _Tx, cfg: ClassicConfig, cmd: c.TimeUp) -> Decision:
        if not cfg.variants.time_limit_minutes:
            raise RuleError("this game has no time limit", "no time limit")
        self._end(tx, cfg, force=True)
        return tx.decision(o.TimeOver(tx.state.winner, 0))

    def _bankruptcy(self, tx: _Tx, cfg: ClassicConfig, cmd: c.DeclareBankruptcy) -> Decision:
        ext = tx.ext
        if not ext.debts or ext.debts[0] != cmd.card:
            raise RuleError(f"player {cmd.card} is not the debtor", "not the debtor")
        debtor = tx.state.player(cmd.card)
        assert debtor is not None
        possible = self.liquidation(tx.state, cmd.card, cfg)
        if possible >= self.owed(tx.state, cmd.card):
            raise RuleError("the debt can still be paid", "can still pay", possible=possible)
        creditor = debtor.creditor
        owned = tx.state.owned_by(cmd.card)
        for n in owned:  # the buildings are sold to the bank at half price
            value = self.building_value(tx.state, n, cfg) // 2
            self._return_buildings(tx, n)
            if value:
                tx.move(None, cmd.card, value, "bankruptcy")
        p = tx.state.player(cmd.card)
        assert p is not None
        if p.balance:  # what is left after the sale went to the debt: the rest of the cash
            tx.move(cmd.card, creditor, p.balance, "bankruptcy")
        tx.emit(DebtChanged(cmd.card, p.debt, 0, p.creditor, None))
        tx.set_field("debts", tuple(d for d in tx.ext.debts if d != cmd.card))
        tx.set_field("pot_debts", tuple(d for d in tx.ext.pot_debts if d != cmd.card))
        # the debts the bankrupt still owed other creditors go unpaid (nothing is left); those
        # owed to the bankrupt go to the bank (A18)
        tx.set_field(
            "queued",
            tuple(
                (q[0], None if q[1] == cmd.card else q[1], q[2], q[3])
                for q in tx.ext.queued
                if q[0] != cmd.card
            ),
        )
        held = tx.ext.cards_of(cmd.card)
        kept = tuple(jc for jc in tx.ext.jail_cards if jc[0] != cmd.card)
        received: list[int] = []
        auction: tuple[int, ...] = ()
        if creditor is not None:
            for n in owned:
                tx.owner(creditor, n, 0)
                if n in ext.mortgaged:
                    received.append(n)
            tx.set_field("jail_cards", (*kept, *((creditor, d) for d in held)))
        else:
            for n in owned:
                prop = tx.state.prop(n)
                tx.emit(PropertyChanged(n, prop.owner, None, prop.level, None))
            tx.set_field("mortgaged", tuple(n for n in tx.ext.mortgaged if n not in owned))
            tx.set_field("jail_cards", kept)
            for deck in held:  # back under their decks (§3.13)
                self._deck_under(tx, deck)
            if cfg.classic.bankrupt_to_bank == "auction":
                auction = tuple(sorted(owned))
        if p.jailed:
            tx.emit(JailChanged(cmd.card, False))
        tx.set_field("jail_tries", tuple(t for t in tx.ext.jail_tries if t[0] != cmd.card))
        for other in tx.state.players:  # debts owed to the bankrupt go to the bank (A18)
            if other.debt and other.creditor == cmd.card:
                tx.emit(DebtChanged(other.card, other.debt, other.debt, cmd.card, None))
        tx.emit(PlayerBankrupt(cmd.card))
        tx.set_field("eliminated", (*tx.ext.eliminated, cmd.card))
        ended = self._end(tx, cfg)
        if received and not ended:
            tx.set_field("interest_due", (*tx.ext.interest_due, *sorted(received)))
        if ended:
            auction = ()
        return tx.decision(o.Bankrupt(cmd.card, debtor.debt, creditor, auction, ended))

    def _end(self, tx: _Tx, cfg: ClassicConfig, force: bool = False) -> bool:
        """End the game when it is over (§3.14): the ranking by worth, then the bankrupt."""
        state = tx.state
        active = [p.card for p in state.players if not p.bankrupt]
        out = tuple(reversed(classic(state).eliminated))
        fast = cfg.variants.fast_game and len(out) >= cfg.variants.fast_game_end_after
        if len(active) > 1 and not fast and not force:
            return False
        ranked = sorted(
            active,
            key=lambda card: (-self.worth(state, card, cfg), -tx.balance(card), card),
        )
        ranking = (*ranked, *out)
        tx.emit(GameEnded(ranking[0], ranking))
        tx.set_field("interest_due", ())
        return True
