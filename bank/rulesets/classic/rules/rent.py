"""Rent (§3.3): what a deed charges now, and the rent the unit previews on a deed's screen.

Imports the core, this package's modules and the mixin below it in the engine's chain.
"""

from __future__ import annotations

from bank.engine.state import GameState
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
        deed = self.ed.deed(number)
        prop = state.prop(number)
        ext = classic(state)
        owner = prop.owner
        if owner is None or number in ext.mortgaged:
            return 0
        owned = [n for n in self.ed.group(deed.group) if state.prop(n).owner == owner]
        if deed.kind == "station":
            return self.variant.station_rent(state, deed, len(owned))
        if deed.kind == "utility":
            assert dice is not None
            return self.variant.utility_multiplier(deed, len(owned), cfg) * dice
        if prop.level:
            return deed.rents[prop.level]
        return self.variant.street_rent(state, number, owner, len(owned), cfg)
