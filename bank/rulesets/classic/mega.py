"""The Méga rules (docs/classic.md §7.2 and the Méga rows of §2-§3) over the classic engine.

An edition with ``[classic] mega = true`` plays the classic rules with these differences,
which the engine (:mod:`.rules`) asks this module about:

- **building** (§3.7): houses and hotels with all lots of a group but one (the majority
  rule); even building among the lots the builder owns; a **skyscraper** (level 6) on a
  group owned whole with a hotel on every lot, returning the hotel to the bank; a **train
  depot** on any owned, unmortgaged station (``mega.depot_cost``, sells back for half);
- **rent** (§3.3): an unimproved street earns ×2 with all lots but one, ×3 with all (a
  mortgaged lot cancels it only with ``classic.double_rent_with_mortgaged_lot = false``);
  a station ×2 with its depot; three utilities × ``mega.utility_three_multiplier``;
- **mortgage** (§3.9): refused while a lot of the group *the owner holds* carries a
  building, or while the station carries a depot; a depot's station cannot be traded (E9);
- the **Birthday Gift** (menu item 15): the edition's gift from the bank (:class:`BirthdayGift`).

The speed die is the unit's third die (``third_die`` in the edition; :mod:`.rules` rolls it).
Imports the core, this package's commands, config, edition and state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from bank.engine.commands import Command, register_commands
from bank.engine.errors import NotEnoughMoney, RuleError
from bank.engine.state import GameState
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.edition import ClassicEdition, Deed
from bank.rulesets.classic.questions import QuestionAsked, SellWholeGroup
from bank.rulesets.classic.state import classic

if TYPE_CHECKING:  # the engine imports this module
    from bank.engine.ruleset import Decision
    from bank.rulesets.classic.rules import ClassicRulesEngine
    from bank.rulesets.classic.rules.building import BuildingRules
    from bank.rulesets.classic.rules.core import RulesCore
    from bank.rulesets.classic.rules.tx import _Tx

#: the core level of a lot with a skyscraper (§2.5: 6)
SKYSCRAPER = 6
#: the core level of a lot with a hotel
HOTEL = 5


@dataclass(frozen=True, slots=True)
class BirthdayGift(Command):
    """Méga's Birthday Gift space (menu item 15): *card* receives the gift from the bank."""

    name: ClassVar[str] = "birthday_gift"
    card: int


register_commands(BirthdayGift)


def skyscraper_cost(deed: Deed, cfg: ClassicConfig) -> int:
    """A skyscraper's price: the deed's house price, or ``mega.skyscraper_cost``."""
    cost = cfg.mega.skyscraper_cost
    return deed.house if cost == "house" else int(cost)


def owned_lots(state: GameState, ed: ClassicEdition, deed: Deed, card: int) -> list[int]:
    """The lots of *deed*'s group that *card* owns."""
    return [n for n in ed.group(deed.group) if state.prop(n).owner == card]


def street_factor(
    state: GameState, ed: ClassicEdition, number: int, owner: int, cfg: ClassicConfig
) -> int:
    """What an unimproved Méga street's base rent is multiplied by: ×2 with all lots but
    one, ×3 with all (§3.3)."""
    deed = ed.deed(number)
    group = ed.group(deed.group)
    owned = len(owned_lots(state, ed, deed, owner))
    double = cfg.classic.double_rent_with_mortgaged_lot
    if double is False and any(n in classic(state).mortgaged for n in group):
        return 1  # E11: any mortgaged lot of the group cancels the multiplier
    if owned == len(group):
        return 3
    if owned == len(group) - 1:
        return 2
    return 1


def utility_multiplier(deed: Deed, owned: int, cfg: ClassicConfig) -> int:
    """× 4 / × 10 with one or two utilities, × ``mega.utility_three_multiplier`` with three."""
    if owned >= 3:
        return cfg.mega.utility_three_multiplier
    return deed.rents[owned - 1]


def station_rent(state: GameState, deed: Deed, owned: int) -> int:
    """A station's rent, ×2 when it carries a depot."""
    rent = deed.rents[owned - 1]
    return rent * 2 if deed.number in classic(state).depots else rent


def mortgage_blocked(state: GameState, ed: ClassicEdition, deed: Deed, card: int) -> str | None:
    """Why *card* may not mortgage *deed* in Méga (§3.9), or None."""
    if deed.number in classic(state).depots:
        return "depot on station"
    if any(state.prop(n).level for n in owned_lots(state, ed, deed, card)):
        return "buildings on group"
    return None


def must_lift(state: GameState, ed: ClassicEdition, number: int, owner: int) -> bool:
    """§3.10, Méga: a new owner with buildings on the deed's group must lift its mortgage."""
    deed = ed.deed(number)
    return deed.kind == "street" and any(
        state.prop(n).level for n in owned_lots(state, ed, deed, owner) if n != number
    )


def building_value(engine: RulesCore, state: GameState, number: int, cfg: ClassicConfig) -> int:
    """What the buildings on deed *number* cost (§3.14, E10): a skyscraper counts the hotel
    and the houses it replaced; a depot its price."""
    deed = engine.ed.deed(number)
    level = state.prop(number).level or 0
    value = 0
    if level == SKYSCRAPER:
        value = engine.steps(HOTEL, cfg) * deed.house + skyscraper_cost(deed, cfg)
    elif level:
        value = engine.steps(level, cfg) * deed.house
    if number in classic(state).depots:
        value += cfg.mega.depot_cost
    return value


# ---------------------------------------------------------------- building and selling


def build(engine: BuildingRules, tx: _Tx, cfg: ClassicConfig, card: int, number: int) -> Decision:
    """One building on deed *number* for *card* (§3.7, Méga)."""
    state = tx.state
    ed = engine.ed
    deed = ed.deed(number)
    ext = classic(state)
    stock = cfg.classic.building_stock
    if deed.kind == "station":
        if number in ext.depots:
            raise RuleError("this station has its depot", "depot already")
        if number in ext.mortgaged:
            raise RuleError("a mortgaged station takes no depot", "group mortgaged")
        if stock and ext.depot_stock < 1:
            raise RuleError("the bank has no depot left", "no depot left")
        cost = cfg.mega.depot_cost
        _afford(tx, card, cost)
        tx.move(card, None, cost, "building")
        tx.set_field("depot_stock", ext.depot_stock - 1)
        tx.set_field("depots", tuple(sorted((*ext.depots, number))))
        return tx.decision(o.Built(card, cost, number, False, "depot"))
    if deed.kind != "street":
        raise RuleError(f"a {deed.kind} takes no houses", "no houses here")
    group = ed.group(deed.group)
    mine = owned_lots(state, ed, deed, card)
    if len(mine) < len(group) - 1:
        raise RuleError("all lots of the group but one are needed to build", "group incomplete")
    if any(n in ext.mortgaged for n in mine):
        raise RuleError("a lot of the group is mortgaged", "group mortgaged")
    level = state.prop(number).level or 0
    if level == SKYSCRAPER:
        raise RuleError("this lot has a skyscraper", "skyscraper already")
    steps = engine.steps(level, cfg)
    if any(engine.steps(state.prop(n).level, cfg) < steps for n in mine):
        raise RuleError("build evenly: another lot has fewer buildings", "build evenly")
    if level == HOTEL:
        if len(mine) < len(group):
            raise RuleError("a skyscraper needs the whole group", "group incomplete")
        if stock and ext.skyscrapers < 1:
            raise RuleError("the bank has no skyscraper left", "no skyscraper left")
        cost = skyscraper_cost(deed, cfg)
        _afford(tx, card, cost)
        tx.move(card, None, cost, "building")
        tx.set_field("skyscrapers", ext.skyscrapers - 1)
        tx.set_field("hotels", ext.hotels + 1)
        tx.level(number, SKYSCRAPER)
        return tx.decision(o.Built(card, cost, number, False, "skyscraper"))
    return engine.build_house_or_hotel(tx, cfg, card, number, level)


def sell_depot(tx: _Tx, cfg: ClassicConfig, card: int, number: int) -> Decision:
    """A depot sold back for half its price (§2.5)."""
    ext = tx.ext
    if number not in ext.depots:
        raise RuleError("no building on this lot", "no building")
    refund = cfg.mega.depot_cost // 2
    tx.set_field("depots", tuple(n for n in ext.depots if n != number))
    tx.set_field("depot_stock", ext.depot_stock + 1)
    tx.move(None, card, refund, "building sold")
    return tx.decision(o.BuildingSold(card, refund, number, False, "depot"))


def sell_skyscraper(tx: _Tx, deed: Deed, cfg: ClassicConfig, card: int, number: int) -> Decision:
    """A skyscraper sold back for half: the lot keeps a hotel from the bank (§3.8)."""
    ext = tx.ext
    if cfg.classic.building_stock and ext.hotels < 1:
        raise QuestionAsked(SellWholeGroup(number, "hotel"))
    refund = skyscraper_cost(deed, cfg) // 2
    tx.set_field("skyscrapers", ext.skyscrapers + 1)
    tx.set_field("hotels", ext.hotels - 1)
    tx.level(number, HOTEL)
    tx.move(None, card, refund, "building sold")
    return tx.decision(o.BuildingSold(card, refund, number, False, "skyscraper"))


def gift(engine: ClassicRulesEngine, tx: _Tx, cfg: ClassicConfig, cmd: BirthdayGift) -> Decision:
    """Menu item 15: the Birthday Gift space pays the edition's gift (§7.2)."""
    amount = engine.variant.birthday_gift()
    if amount is None:
        raise RuleError("this edition has no Birthday Gift space", "unknown action")
    engine.check_player(tx.state, cmd.card)
    tx.move(None, cmd.card, amount, "gift")
    return tx.decision(o.Gift(cmd.card, amount))


def _afford(tx: _Tx, card: int, cost: int) -> None:
    if tx.balance(card) < cost:
        raise NotEnoughMoney(f"player {card} cannot pay {cost}", "not enough money")
