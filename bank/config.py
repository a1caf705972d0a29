"""Configuration shared by every ruleset: the unit shell's timings and language, and the
helpers that check a configuration number.

A ruleset's own decisions live in its package (the Ultime ones in
:mod:`bank.rulesets.ultime.config`). Imports only the standard library.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


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


@dataclass(frozen=True, slots=True)
class UnitConfig:
    """Timings and language of the unit's behaviour."""

    #: seconds before a check screen returns to idle
    idle_seconds: float = 10.0
    #: seconds to hold ✓+X (undo) or X alone (reset) (**decision**: 5)
    hold_seconds: float = 5.0
    #: language of the LCD texts: one of bank.unit.text.LANGUAGES; None means the edition's
    language: str | None = None
    #: seconds an amount entry or a pick may be left without a key before it is abandoned
    #: (the classic unit, CLASSIC.md §5.2; ``unit.entry_seconds``)
    entry_seconds: float = 30.0
    #: seconds a trade offer may wait for the partner's answer before it is dropped
    #: (the classic unit, §5.3; ``unit.trade_seconds``)
    trade_seconds: float = 60.0
    #: seconds to hold M alone (speech on/off) or ✓ alone (say the last sentence again)
    speech_hold_seconds: float = 3.0
    #: whether the unit speaks when it starts (the ``[speech] say`` setting is not ``off``)
    speech: bool = False
