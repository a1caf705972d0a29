"""Buildings (§3.8): building evenly within the bank's stock, selling back, a whole group's
buildings returned.

Imports the core, this package's modules and the mixin below it in the engine's chain.
"""

from __future__ import annotations

from typing import Any

from bank.engine.errors import NotEnoughMoney, RuleError
from bank.engine.ruleset import Decision
from bank.engine.state import GameState
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import mega
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic import questions as q
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.rules.core import HOTEL
from bank.rulesets.classic.rules.landing import LandingRules
from bank.rulesets.classic.rules.tx import _Tx
from bank.rulesets.classic.state import classic


class BuildingRules(LandingRules):
    """Decides building and selling back (items 7, 8)."""

    def _street_of(self, state: GameState, card: int, number: int) -> Any:
        deed = self._deed(number)
        if state.prop(number).owner != card:
            raise RuleError(f"player {card} does not own deed {number}", "not your property")
        return deed

    def _build(self, tx: _Tx, cfg: ClassicConfig, cmd: c.Build) -> Decision:
        state = tx.state
        self._player(state, cmd.card)
        self._street_of(state, cmd.card, cmd.number)
        return self.variant.build(self, tx, cfg, cmd.card, cmd.number)

    def build_on_group(self, tx: _Tx, cfg: ClassicConfig, card: int, number: int) -> Decision:
        """Classic building (§3.7): the whole group owned and unmortgaged, built evenly."""
        state = tx.state
        deed = self.ed.deed(number)
        if deed.kind != "street":
            raise RuleError(f"a {deed.kind} takes no houses", "no houses here")
        group = self.ed.group(deed.group)
        if any(state.prop(n).owner != card for n in group):
            raise RuleError("the whole group is needed to build", "group incomplete")
        ext = classic(state)
        if any(n in ext.mortgaged for n in group):
            raise RuleError("a lot of the group is mortgaged", "group mortgaged")
        level = state.prop(number).level or 0
        if level == HOTEL:
            raise RuleError("this lot has a hotel", "hotel already")
        mine = self.steps(level, cfg)
        if any(self.steps(state.prop(n).level, cfg) < mine for n in group):
            raise RuleError("build evenly: another lot has fewer buildings", "build evenly")
        return self.build_house_or_hotel(tx, cfg, card, number, level)

    def build_house_or_hotel(
        self, tx: _Tx, cfg: ClassicConfig, card: int, number: int, level: int
    ) -> Decision:
        """The next house (or the hotel) on lot *number*, once the group rules allow it."""
        deed = self.ed.deed(number)
        ext = tx.ext
        hotel = self.steps(level, cfg) == self.hotel_after(cfg)
        stock = cfg.classic.building_stock
        if stock and hotel and ext.hotels < 1:
            raise RuleError("the bank has no hotel left", "no hotel left")
        if stock and not hotel and ext.houses < 1:
            raise RuleError("the bank has no house left", "no house left")
        if tx.balance(card) < deed.house:
            raise NotEnoughMoney(f"player {card} cannot pay {deed.house}", "not enough money")
        tx.move(card, None, deed.house, "building")
        if hotel:
            tx.set_field("hotels", ext.hotels - 1)
            tx.set_field("houses", ext.houses + level)
            tx.level(number, HOTEL)
        else:
            tx.set_field("houses", ext.houses - 1)
            tx.level(number, level + 1)
        return tx.decision(o.Built(card, deed.house, number, hotel))

    def _sell(self, tx: _Tx, cfg: ClassicConfig, cmd: c.SellBuilding) -> Decision:
        state = tx.state
        self._player(state, cmd.card)
        self._street_of(state, cmd.card, cmd.number)
        return self.variant.sell(self, tx, cfg, cmd)

    def sell_back(self, tx: _Tx, cfg: ClassicConfig, cmd: c.SellBuilding) -> Decision:
        """A building on lot *cmd.number* (or the whole group's) sold back for half (§3.8)."""
        state = tx.state
        deed = self.ed.deed(cmd.number)
        level = state.prop(cmd.number).level or 0
        if not level:
            raise RuleError("no building on this lot", "no building")
        ext = classic(state)
        group = [n for n in self.ed.group(deed.group) if state.prop(n).owner == cmd.card]
        half = deed.house // 2
        if cmd.whole_group:
            refund = 0
            for n in group:
                refund += self.building_value(tx.state, n, cfg) // 2
                self._return_buildings(tx, n)
            tx.move(None, cmd.card, refund, "building sold")
            return tx.decision(o.BuildingSold(cmd.card, refund, cmd.number, True))
        mine = self.steps(level, cfg)
        if any(self.steps(state.prop(n).level, cfg) > mine for n in group):
            raise RuleError("sell evenly: another lot has more buildings", "sell evenly")
        if level == mega.SKYSCRAPER:
            return mega.sell_skyscraper(tx, deed, cfg, cmd.card, cmd.number)
        if level == HOTEL:
            houses = self.hotel_after(cfg)
            if cfg.classic.building_stock and ext.houses < houses:
                raise q.QuestionAsked(q.SellWholeGroup(cmd.number))
            tx.set_field("hotels", ext.hotels + 1)
            tx.set_field("houses", ext.houses - houses)
            tx.level(cmd.number, houses)
        else:
            tx.set_field("houses", ext.houses + 1)
            tx.level(cmd.number, level - 1)
        tx.move(None, cmd.card, half, "building sold")
        return tx.decision(o.BuildingSold(cmd.card, half, cmd.number, False))

    def _return_buildings(self, tx: _Tx, number: int) -> None:
        """Every building on lot *number* back to the bank's stock (a sale of the whole
        group, a bankruptcy): the lot is left bare."""
        lot = tx.state.prop(number).level or 0
        if lot == mega.SKYSCRAPER:
            tx.set_field("skyscrapers", tx.ext.skyscrapers + 1)
        elif lot == HOTEL:
            tx.set_field("hotels", tx.ext.hotels + 1)
        elif lot:
            tx.set_field("houses", tx.ext.houses + lot)
        if lot:
            tx.level(number, 0)
        if number in tx.ext.depots:
            tx.set_field("depots", tuple(n for n in tx.ext.depots if n != number))
            tx.set_field("depot_stock", tx.ext.depot_stock + 1)
