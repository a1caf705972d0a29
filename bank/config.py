"""Configuration of the rules: every **decision** of ULTIME.md, with its documented default.

Imports only the standard library.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from bank.errors import BankError


def shown(value: Any, limit: int = 40) -> str:
    """*value* as written in a message, cut short when it is long (a 400-digit number)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True, slots=True)
class NumberRange:
    """The numbers a configuration value may take: finite, within ``low..high``."""

    low: float
    high: float
    #: a whole number (a pin, a port, a size), else any number (seconds)
    whole: bool = False
    unit: str = ""

    def allowed(self) -> str:
        what = "a whole number" if self.whole else "a number"
        unit = f" {self.unit}" if self.unit else ""
        return f"{what} from {self.low:g} to {self.high:g}{unit}"

    def check(self, value: Any) -> int | float:
        """*value* if it is in range (a float key turns an integer into a float); else ValueError
        whose text says what is allowed."""
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(self.allowed())
        if self.whole and not isinstance(value, int):
            raise ValueError(self.allowed())
        # compare before converting: float() of a 400-digit integer overflows
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(self.allowed())
        if not self.low <= value <= self.high:
            raise ValueError(self.allowed())
        return value if self.whole else float(value)


#: the range of each number of :class:`RulesConfig`
RULES_RANGES: dict[str, NumberRange] = {
    # 0 or nan never ends an auction; an hour is already no auction at all
    "auction_seconds": NumberRange(1, 300, unit="seconds"),
}


class WinnerRule(Enum):
    """How the winner is chosen at the end of the game."""

    MONEY = "money"  # most money; a tie goes to the highest property value (French rules)
    NET_WORTH = "net_worth"  # money plus the purchase price of properties (UK rules)


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """The rules' decisions. Defaults are those of ULTIME.md."""

    #: seconds the auction countdown runs, restarted at each bid (**decision**: 10)
    auction_seconds: float = 10.0
    #: a visitor on a jailed player's property pays nothing and the level stays (**decision**)
    jailed_owner_collects: bool = False
    #: when properties given up overshoot a debt, the bank pays the change back (**decision**)
    debt_change_from_bank: bool = True
    #: a bankrupt player's properties go to the creditor player, else to the bank (**decision**)
    bankrupt_assets_to_creditor: bool = True
    #: undo after a settled debt cancels the payment and every property given up (**decision**)
    undo_settled_debt_whole: bool = True
    winner_rule: WinnerRule = WinnerRule.MONEY

    @classmethod
    def from_mapping(cls, raw: dict[str, Any]) -> RulesConfig:
        """Build from a TOML table, refusing unknown keys and wrong types."""
        known = {f.name: f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in known:
                raise BankError(f"unknown rules setting {key!r}; known: {', '.join(known)}")
            default = getattr(cls(), key)
            if isinstance(default, WinnerRule):
                try:
                    kwargs[key] = WinnerRule(value)
                except ValueError as err:
                    choices = ", ".join(w.value for w in WinnerRule)
                    raise BankError(
                        f"rules.{key} = {shown(value)}: expected one of {choices}"
                    ) from err
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise BankError(f"rules.{key} = {shown(value)}: expected true or false")
                kwargs[key] = value
            else:
                try:
                    kwargs[key] = RULES_RANGES[key].check(value)
                except ValueError as err:
                    raise BankError(f"rules.{key} = {shown(value)}: expected {err}") from err
        return cls(**kwargs)


@dataclass(frozen=True, slots=True)
class UnitConfig:
    """Timings and language of the unit's behaviour."""

    #: seconds before a check screen returns to idle
    idle_seconds: float = 10.0
    #: seconds to hold ✓+X (undo) or X alone (reset) (**decision**: 5)
    hold_seconds: float = 5.0
    #: language of the LCD texts: one of bank.unit.text.LANGUAGES; None means the edition's
    language: str | None = None
