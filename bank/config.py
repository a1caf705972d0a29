"""Configuration of the unit's shell (timings, language), shared by every ruleset.

A ruleset's own decisions live in its package (the Ultime ones in
:mod:`bank.rulesets.ultime.config`). Imports only the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class UnitConfig:
    """Timings and language of the unit's behaviour."""

    #: seconds before a check screen returns to idle
    idle_seconds: float = 10.0
    #: seconds to hold ✓+X (undo) or X alone (reset) (**decision**: 5)
    hold_seconds: float = 5.0
    #: language of the LCD texts: "fr" or "en"; None means the edition's
    language: str | None = None
