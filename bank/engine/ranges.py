"""The check of a configuration number (:class:`NumberRange`) and how a value is shown in a
message (:func:`shown`).

Apart from :mod:`bank.engine.config` so that reading the configuration file (``ultibank tap`` reads
it at every start) imports neither ``dataclasses`` nor ``typing``. Imports only ``math``.
"""

from __future__ import annotations

import math

TYPE_CHECKING = False  # mypy reads this name as typing's flag; typing is not imported at start
if TYPE_CHECKING:
    from typing import Any


def shown(value: Any, limit: int = 40) -> str:
    """*value* as written in a message, cut short when it is long (a 400-digit number)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class NumberRange:
    """The numbers a configuration value may take: finite, within ``low..high``; *whole*: a
    whole number (a pin, a port, a size), else any number (seconds). Immutable."""

    __slots__ = ("high", "low", "unit", "whole")

    low: float
    high: float
    whole: bool
    unit: str

    def __init__(self, low: float, high: float, whole: bool = False, unit: str = "") -> None:
        for name, value in (("low", low), ("high", high), ("whole", whole), ("unit", unit)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"NumberRange is immutable: cannot set {name}")

    def _key(self) -> tuple[float, float, bool, str]:
        return (self.low, self.high, self.whole, self.unit)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NumberRange):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"NumberRange(low={self.low!r}, high={self.high!r}, whole={self.whole!r}, "
            f"unit={self.unit!r})"
        )

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
