"""The classic game's variants, the python-chess way: one object chosen once from the edition.

:class:`ClassicVariant` plays the plain classic rules; :class:`MegaVariant` (an edition with
``[classic] mega = true``, docs/classic.md §7.2) and :class:`StarWarsVariant` (an edition with
``sides``, §6.3) override the few methods where their game differs, and the rules engine, the
unit and the panel vocabulary ask the variant instead of testing the edition's ``mega`` and
``sides`` flags. An edition with both gets :class:`MegaStarWarsVariant`. The Méga rules
themselves live in :mod:`.mega`, the Force in :mod:`.force`. Imports this package's config,
edition, Méga, Force and state modules, and the unit's texts (for the menu's words).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bank.engine.errors import RuleError
from bank.engine.state import GameState
from bank.rulesets.classic import force, mega
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.edition import ClassicEdition, Deed
from bank.rulesets.classic.state import classic
from bank.unit.text import say

if TYPE_CHECKING:  # the engine imports this module
    from bank.engine.ruleset import Decision
    from bank.rulesets.classic import commands as c
    from bank.rulesets.classic.rules.building import BuildingRules
    from bank.rulesets.classic.rules.core import RulesCore
    from bank.rulesets.classic.rules.tx import _Tx

#: the amount entry's steps after ``valider`` (§5.2): the banknotes, largest first
NOTES: Final = (500, 100, 50, 20, 10, 5, 1)
#: Méga's banknotes start at 1000 (§5.2)
MEGA_NOTES: Final = (1000, *NOTES)


class ClassicVariant:
    """The plain classic game (and the base every variant overrides a few methods of)."""

    name = "classic"
    #: the bank's banknotes, largest first, the amount entry steps through (§5.2)
    notes: tuple[int, ...] = NOTES
    #: whether the board has Méga's Auction space (an auction with every deed owned says so)
    auction_space = False

    def __init__(self, ed: ClassicEdition) -> None:
        self.ed = ed

    # ------------------------------------------------------------ the menu

    def menu_items(self) -> tuple[int, ...]:
        """The menu items this variant adds to the classic ones (§5.4)."""
        return ()

    def menu_words(self, lang: str) -> dict[int, str]:
        """What the panels write for the variant's own menu items, in *lang*."""
        # the classic texts, registered when first asked for (not when the engine is imported)
        from bank.rulesets.classic import text as _texts  # noqa: F401

        return {}

    def birthday_gift(self) -> int | None:
        """What the Birthday Gift space pays (menu item 15), None without one."""
        return None

    def side_of(self, card: int) -> str | None:
        """Bank card *card*'s side in the Force (``light``, ``dark``), None without sides."""
        return None

    # ------------------------------------------------------------ the panels' words

    def rent_words(self, kind: str) -> str:
        """The key of the panels' words for the rents of a deed of *kind* (``street``,
        ``station``, ``utility``) on the emulator's tray."""
        return kind

    def costs_words(self) -> str:
        """The key of the panels' words for a street's building and mortgage costs."""
        return "costs"

    def buildings(self) -> tuple[str, ...]:
        """The buildings the web page draws besides houses and hotels (none)."""
        return ()

    # ------------------------------------------------------------ dice

    def third_faces(self, cfg: ClassicConfig) -> tuple[str, ...]:
        """The faces of the unit's third die in this game (empty: two dice only)."""
        return force.die_faces(cfg, self.ed)

    # ------------------------------------------------------------ rent (§3.3)

    def station_rent(self, state: GameState, deed: Deed, owned: int) -> int:
        """A station's rent with *owned* stations of its owner."""
        return deed.rents[owned - 1]

    def utility_multiplier(self, deed: Deed, owned: int, cfg: ClassicConfig) -> int:
        """What the dice are multiplied by on a utility, with *owned* utilities."""
        return deed.rents[owned - 1]

    def street_factor(
        self, state: GameState, number: int, owner: int, owned: int, cfg: ClassicConfig
    ) -> int:
        """What an unimproved street's base rent is multiplied by: 2 with the whole group (a
        mortgaged lot cancels it unless ``double_rent_with_mortgaged_lot``), else 1."""
        deed = self.ed.deed(number)
        group = self.ed.group(deed.group)
        double = cfg.classic.double_rent_with_mortgaged_lot
        if double is None:
            double = self.ed.double_rent_with_mortgaged_lot
        whole = owned == len(group)
        if whole and (double or not any(n in classic(state).mortgaged for n in group)):
            return 2
        return 1

    # ------------------------------------------------------------ buildings (§3.7, §3.8)

    def building_value(
        self, engine: RulesCore, state: GameState, number: int, cfg: ClassicConfig
    ) -> int:
        """What the buildings on deed *number* cost (§3.14)."""
        return engine.steps(state.prop(number).level, cfg) * self.ed.deed(number).house

    def build(
        self, engine: BuildingRules, tx: _Tx, cfg: ClassicConfig, card: int, number: int
    ) -> Decision:
        """The next building on deed *number* (the whole group, built evenly)."""
        return engine.build_on_group(tx, cfg, card, number)

    def sell(
        self, engine: BuildingRules, tx: _Tx, cfg: ClassicConfig, cmd: c.SellBuilding
    ) -> Decision:
        """A building (or the whole group's) sold back for half."""
        return engine.sell_back(tx, cfg, cmd)

    # ------------------------------------------------------------ mortgages (§3.9, §3.10)

    def check_mortgage(self, state: GameState, deed: Deed, card: int) -> None:
        """Refuse mortgaging *deed* while buildings stand on its group."""
        if any(state.prop(n).level for n in self.ed.group(deed.group)):
            raise RuleError("a lot of the group carries buildings", "buildings on group")

    def must_lift(self, state: GameState, number: int, owner: int) -> bool:
        """Whether the interest question on deed *number* can only be answered by lifting."""
        return False


class MegaVariant(ClassicVariant):
    """The Méga game (§7.2): a skyscraper, train depots, the majority rule, the speed die,
    the Birthday Gift space, the 1000 note."""

    name = "mega"
    notes = MEGA_NOTES
    auction_space = True

    def menu_items(self) -> tuple[int, ...]:
        return (*super().menu_items(), 15)

    def menu_words(self, lang: str) -> dict[int, str]:
        gift = say(lang, "c.menu.gift", amount=self.ed.birthday_gift)
        return {**super().menu_words(lang), 15: gift}

    def rent_words(self, kind: str) -> str:
        # §7.2: the skyscraper's rent, a depot doubling its station's
        return f"{kind}.mega" if kind in ("street", "station") else kind

    def costs_words(self) -> str:
        return "costs.mega"

    def buildings(self) -> tuple[str, ...]:
        return ("skyscraper", "depot")

    def birthday_gift(self) -> int | None:
        return self.ed.birthday_gift

    def third_faces(self, cfg: ClassicConfig) -> tuple[str, ...]:
        return super().third_faces(cfg) if cfg.mega.speed_die else ()

    def station_rent(self, state: GameState, deed: Deed, owned: int) -> int:
        return mega.station_rent(state, deed, owned)

    def utility_multiplier(self, deed: Deed, owned: int, cfg: ClassicConfig) -> int:
        return mega.utility_multiplier(deed, owned, cfg)

    def street_factor(
        self, state: GameState, number: int, owner: int, owned: int, cfg: ClassicConfig
    ) -> int:
        return mega.street_factor(state, self.ed, number, owner, cfg)

    def building_value(
        self, engine: RulesCore, state: GameState, number: int, cfg: ClassicConfig
    ) -> int:
        return mega.building_value(engine, state, number, cfg)

    def build(
        self, engine: BuildingRules, tx: _Tx, cfg: ClassicConfig, card: int, number: int
    ) -> Decision:
        return mega.build(engine, tx, cfg, card, number)

    def sell(
        self, engine: BuildingRules, tx: _Tx, cfg: ClassicConfig, cmd: c.SellBuilding
    ) -> Decision:
        if self.ed.deed(cmd.number).kind == "station" and not cmd.whole_group:
            return mega.sell_depot(tx, cfg, cmd.card, cmd.number)
        return super().sell(engine, tx, cfg, cmd)

    def check_mortgage(self, state: GameState, deed: Deed, card: int) -> None:
        blocked = mega.mortgage_blocked(state, self.ed, deed, card)
        if blocked:
            raise RuleError("buildings stand on the group or its depot", blocked)

    def must_lift(self, state: GameState, number: int, owner: int) -> bool:
        return mega.must_lift(state, self.ed, number, owner)


class StarWarsVariant(ClassicVariant):
    """The Star Wars game (§6.3): each bank card on a side of the Force, the Force battle."""

    name = "starwars"

    def menu_items(self) -> tuple[int, ...]:
        return (*super().menu_items(), 14)

    def menu_words(self, lang: str) -> dict[int, str]:
        return {**super().menu_words(lang), 14: say(lang, "c.menu.14")}

    def side_of(self, card: int) -> str | None:
        sides = self.ed.sides
        return sides[card - 1] if 1 <= card <= len(sides) else None


class MegaStarWarsVariant(MegaVariant, StarWarsVariant):
    """An edition with both Méga's rules and the Force's sides."""

    name = "mega-starwars"


def variant_of(ed: ClassicEdition) -> ClassicVariant:
    """The variant *ed* plays, chosen once from its ``mega`` and ``sides``."""
    if ed.mega and ed.sides:
        return MegaStarWarsVariant(ed)
    if ed.mega:
        return MegaVariant(ed)
    if ed.sides:
        return StarWarsVariant(ed)
    return ClassicVariant(ed)
