"""The classic rules' refusals that the unit shows a screen of its own for, typed so that the
unit knows them by their class, not by their reason key (docs/classic.md §3.4, §3.2).

They stay refusals: nothing is committed and the reason key is the one every refusal has (its
words on the LCD, the script's transcript). A payment larger than the payer's cash is the core's
:class:`bank.engine.errors.NotEnoughMoney`. Imports the core's errors.
"""

from __future__ import annotations

from bank.engine.errors import RuleError


class LateClaim(RuleError):
    """A rent claimed after the deadline the unit's own rolls show (`Trop tard`)."""


class FirstLap(RuleError):
    """A purchase or a bid before the player passed GO, under ``variants.no_buy_first_lap``."""
