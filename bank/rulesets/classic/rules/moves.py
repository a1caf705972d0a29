"""GO, jail and the bank (§3.5, §3.6, §3.7, §3.9): the salary, going to and leaving jail, the
jail cards' place in the virtual decks, taxes, payments to and from the bank, the Free
Parking pot.

Imports the core, this package's modules and the mixin below it in the engine's chain.
"""

from __future__ import annotations

from bank.engine.errors import NotEnoughMoney, RuleError
from bank.engine.events import JailChanged
from bank.engine.ruleset import Decision
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.rules.rent import RentRules
from bank.rulesets.classic.rules.tx import _Tx
from bank.rulesets.classic.state import DeckOut, DeckUnder


class MoveRules(RentRules):
    """Decides GO, jail, taxes, the pot and payments to and from the bank."""

    def _salary(self, tx: _Tx, card: int, double: bool) -> int:
        amount = self.ed.go_salary * (2 if double else 1)
        tx.move(None, card, amount, "go")
        if card not in tx.ext.passed_go:
            tx.set_field("passed_go", tuple(sorted((*tx.ext.passed_go, card))))
        return amount

    def _pass_go(self, tx: _Tx, cfg: ClassicConfig, cmd: c.PassGo) -> Decision:
        self._player(tx.state, cmd.card)
        amount = self._salary(tx, cmd.card, cmd.exact and cfg.variants.double_go)
        return tx.decision(o.Salary(cmd.card, amount))

    def _jail(self, tx: _Tx, card: int) -> None:
        tx.emit(JailChanged(card, True))
        tx.set_field("jail_tries", tuple(t for t in tx.ext.jail_tries if t[0] != card))

    def _free(self, tx: _Tx, card: int) -> None:
        tx.emit(JailChanged(card, False))
        tx.set_field("jail_tries", tuple(t for t in tx.ext.jail_tries if t[0] != card))

    def _go_to_jail(self, tx: _Tx, cfg: ClassicConfig, cmd: c.GoToJail) -> Decision:
        p = self._player(tx.state, cmd.card)
        if p.jailed:
            raise RuleError(f"player {cmd.card} is already in jail", "already in jail")
        self._jail(tx, cmd.card)
        return tx.decision(o.Jailed(cmd.card, 0))

    def _leave_jail(self, tx: _Tx, cfg: ClassicConfig, cmd: c.LeaveJail) -> Decision:
        p = self._player(tx.state, cmd.card)
        if not p.jailed:
            raise RuleError(f"player {cmd.card} is not in jail", "not in jail")
        amount = 0
        if cmd.how == "fee":
            amount = self.ed.jail_fee
            if p.balance < amount:
                raise NotEnoughMoney(f"player {cmd.card} cannot pay {amount}", "not enough money")
            tx.move(cmd.card, None, amount, "jail")
            if self._fines_to_pot(cfg):
                tx.to_pot(amount)
        elif cmd.how == "card":
            held = tx.ext.cards_of(cmd.card)
            deck = cmd.deck or (held[0] if held else None)
            if deck is None or deck not in held:
                raise RuleError(f"player {cmd.card} holds no jail card", "no jail card")
            self._drop_jail_card(tx, cmd.card, deck)
            self._deck_under(tx, deck)  # used: under its deck (§3.6)
        elif cmd.how != "double":
            raise RuleError(f"no way out of jail called {cmd.how!r}", "unknown action")
        self._free(tx, cmd.card)
        return tx.decision(o.LeftJail(cmd.card, amount, cmd.how))

    def jail_card_number(self, deck: str) -> int | None:
        """The number of *deck*'s "Get out of jail free" card in the edition's table."""
        return next(
            (n for (d, n), e in self.ed.cards.items() if d == deck and e.effect == "jail_card"),
            None,
        )

    def _deck_out(self, tx: _Tx, deck: str, number: int) -> None:
        """A jail card now held leaves its virtual deck (nothing without virtual decks)."""
        if number in tx.ext.deck(deck):
            tx.emit(DeckOut(deck, number))

    def _deck_under(self, tx: _Tx, deck: str) -> None:
        """A jail card used or given back goes under its virtual deck (§3.6, §3.13)."""
        number = self.jail_card_number(deck)
        if tx.ext.deck(deck) and number is not None:
            tx.emit(DeckUnder(deck, number))

    def _drop_jail_card(self, tx: _Tx, card: int, deck: str) -> None:
        cards = list(tx.ext.jail_cards)
        cards.remove((card, deck))
        tx.set_field("jail_cards", tuple(cards))

    def _tax(self, tx: _Tx, cfg: ClassicConfig, card: int, position: int) -> int:
        try:
            tax = self.ed.tax_at(position)
        except KeyError:
            raise RuleError(f"there is no tax at {position}", "no such tax") from None
        tx.must_pay(card, None, tax.amount, "tax", pot=cfg.variants.free_parking != "off")
        return tax.amount

    def _pay_tax(self, tx: _Tx, cfg: ClassicConfig, cmd: c.PayTax) -> Decision:
        self._player(tx.state, cmd.card)
        cash = tx.balance(cmd.card)
        amount = self._tax(tx, cfg, cmd.card, cmd.position)
        owed = amount - (cash - tx.balance(cmd.card))
        return tx.decision(o.TaxPaid(cmd.card, amount, cmd.position, owed))

    def _pay_bank(self, tx: _Tx, cfg: ClassicConfig, cmd: c.PayBank) -> Decision:
        self._player(tx.state, cmd.card)
        self._amount(cmd.amount)
        owed = tx.must_pay(cmd.card, None, cmd.amount, "fine", pot=self._fines_to_pot(cfg))
        return tx.decision(o.PaidBank(cmd.card, cmd.amount, owed))

    def _receive_bank(self, tx: _Tx, cfg: ClassicConfig, cmd: c.ReceiveBank) -> Decision:
        self._player(tx.state, cmd.card)
        self._amount(cmd.amount)
        tx.move(None, cmd.card, cmd.amount, "bank")
        return tx.decision(o.Received(cmd.card, cmd.amount))

    def _collect_pot(self, tx: _Tx, cfg: ClassicConfig, cmd: c.CollectPot) -> Decision:
        self._player(tx.state, cmd.card)
        if cfg.variants.free_parking == "off":
            raise RuleError("Free Parking pays nothing in this game", "no pot")
        pot = tx.ext.pot
        tx.move(None, cmd.card, pot, "pot")
        tx.set_field("pot", cfg.variants.free_parking_seed)
        return tx.decision(o.PotCollected(cmd.card, pot))
