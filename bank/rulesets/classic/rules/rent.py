"""Rent (§3.3): what a deed charges now, and the rent the unit previews on a deed's screen.

Imports the core, this package's modules and the mixin below it in the engine's chain.
"""

from __future__ import annotations

from bank.engine.state import GameState
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.rules.core import RulesCore
from bank.rulesets.classic.state import classic


class RentRules(RulesCore):
    """Works out rent."""

    def rent_shown(self, state: GameState, number: int) -> int | None:
        """The rent a deed's screen previews: what deed *number* charges now under the game's
        configuration; None when unowned or a utility (its rent waits for the dice)."""
        if state.prop(number).owner is None or self.ed.deed(number).kind == "utility":
            return None
        return self.rent(state, number, None, self.settings(state))

    def rent(self, state: GameState, number: int, dice: int | None, cfg: ClassicConfig) -> int:
        """The rent deed *number* charges now (§3.3); a utility needs *dice*."""
        return self.rent_and_basis(state, number, dice, cfg)[0]

    def rent_and_basis(
        self, state: GameState, number: int, dice: int | None, cfg: ClassicConfig
    ) -> tuple[int, o.RentBasis | None]:
        """:meth:`rent`, with what it was worked out from (None: no rent)."""
        deed = self.ed.deed(number)
        prop = state.prop(number)
        ext = classic(state)
        owner = prop.owner
        if owner is None or number in ext.mortgaged:
            return 0, None
        owned = len([n for n in self.ed.group(deed.group) if state.prop(n).owner == owner])
        if deed.kind == "station":
            depot = number in ext.depots
            return self.variant.station_rent(state, deed, owned), o.RentBasis(
                "station", owned, depot=depot
            )
        if deed.kind == "utility":
            assert dice is not None
            times = self.variant.utility_multiplier(deed, owned, cfg)
            return times * dice, o.RentBasis("utility", owned, dice=dice, times=times)
        if prop.level:
            return deed.rents[prop.level], o.RentBasis("street", owned, level=prop.level)
        factor = self.variant.street_factor(state, number, owner, owned, cfg)
        return deed.rents[0] * factor, o.RentBasis("street", owned, factor=factor)
