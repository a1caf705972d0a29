"""Landing on a deed (§3.2, §3.4): a purchase, rent or nothing, the claim window, and the sale
at the end of an auction.

Imports the core, this package's modules and the mixin below it in the engine's chain.
"""

from __future__ import annotations

from bank.engine.commands import AuctionSale, Land
from bank.engine.errors import NotEnoughMoney, RuleError
from bank.engine.ruleset import Decision
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.refusals import LateClaim
from bank.rulesets.classic.rules.moves import MoveRules
from bank.rulesets.classic.rules.tx import _Tx
from bank.rulesets.classic.state import ClassicState, classic


class LandingRules(MoveRules):
    """Decides a landing on a deed and an auction's sale."""

    def _land(self, tx: _Tx, cfg: ClassicConfig, cmd: Land) -> Decision:
        return self._visit(tx, cfg, c.Visit(cmd.card, cmd.number))

    def _visit(self, tx: _Tx, cfg: ClassicConfig, cmd: c.Visit, by_card: bool = False) -> Decision:
        self._player(tx.state, cmd.card)
        return tx.decision(self._landing(tx, cfg, cmd.card, cmd.number, cmd.dice, by_card))

    def _landing(
        self, tx: _Tx, cfg: ClassicConfig, card: int, number: int, dice: int | None, by_card: bool
    ) -> o.ClassicOutcome:
        """The landing of *card* on deed *number*: purchase, rent or nothing (§3.2, §3.3)."""
        deed = self._deed(number)
        state = tx.state
        prop = state.prop(number)
        ext = classic(state)
        player = state.player(card)
        assert player is not None
        if prop.owner is None:
            if by_card and cfg.variants.no_buy_first_lap and card not in ext.passed_go:
                # the card is applied; the deed stays unbought, to auction (READINGS E20)
                return o.Short(card, deed.price, number, "first lap")
            self._first_lap(state, cfg, card)
            if player.balance < deed.price:
                if by_card:
                    return o.Short(card, deed.price, number)
                raise NotEnoughMoney(
                    f"player {card} cannot pay {deed.price}", "not enough money", price=deed.price
                )
            tx.move(card, None, deed.price, "purchase")
            tx.owner(card, number, 0)
            group = self.ed.group(deed.group)
            whole = all(tx.state.prop(n).owner == card for n in group)
            return o.Bought(card, deed.price, number, whole)
        if prop.owner == card:
            return o.Own(card, 0, number)
        owner = state.player(prop.owner)
        assert owner is not None
        if number in ext.mortgaged:
            return o.NoRent(card, 0, number, "mortgaged")
        if owner.jailed and cfg.variants.jailed_owner_no_rent:
            return o.NoRent(card, 0, number, "owner in jail")
        if not by_card:
            self._claim_window(ext, cfg, card)
        if deed.kind == "utility" and dice is None:
            last = ext.last_roll
            if last is None or last[0] != card:
                raise RuleError("the dice total is needed for a utility", "dice total needed")
            dice = last[1] + last[2]
        if dice is not None and not 2 <= dice <= 12:
            raise RuleError(f"a dice total runs 2..12, not {dice}", "dice total", value=dice)
        rent, basis = self.rent_and_basis(state, number, dice, cfg)
        owed = tx.must_pay(card, prop.owner, rent, "rent")
        return o.RentPaid(card, rent, number, prop.owner, owed, basis)

    def _claim_window(self, ext: ClassicState, cfg: ClassicConfig, card: int) -> None:
        """§3.4: refuse a claim the unit's own rolls show to be too late."""
        limit = {"second_roll": 2, "next_roll": 1}.get(cfg.classic.rent_claim_deadline)
        if limit is None or cfg.variants.auto_rent or card not in ext.rollers:
            return
        last = len(ext.rollers) - 1 - ext.rollers[::-1].index(card)
        others = {r for r in ext.rollers[last + 1 :] if r is not None and r != card}
        if len(others) >= limit:
            raise LateClaim("the rent was claimed too late", "too late")

    def _auction_sale(self, tx: _Tx, cfg: ClassicConfig, cmd: AuctionSale) -> Decision:
        if not cfg.variants.auction_unbought and not isinstance(cmd, c.SeriesSale):
            raise RuleError("an unbought deed stays unowned in this game", "no auctions")
        self._player(tx.state, cmd.card)
        self._deed(cmd.number)
        if tx.state.prop(cmd.number).owner is not None:
            raise RuleError(f"deed {cmd.number} is owned", "already owned")
        if cmd.price <= 0:
            raise RuleError("no bid was made", "no bid")
        self._first_lap(tx.state, cfg, cmd.card)
        if cfg.classic.bids_within_cash:
            if tx.balance(cmd.card) < cmd.price:
                raise NotEnoughMoney(
                    f"player {cmd.card} cannot pay {cmd.price}", "not enough money"
                )
            tx.move(cmd.card, None, cmd.price, "auction")
        else:
            tx.must_pay(cmd.card, None, cmd.price, "auction")
        tx.owner(cmd.card, cmd.number, 0)
        return tx.decision(o.AuctionWon(cmd.card, cmd.price, cmd.number))
