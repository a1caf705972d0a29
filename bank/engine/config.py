"""Configuration shared by every ruleset: the unit shell's timings and language, and the
helpers that check a configuration number (:mod:`bank.engine.ranges`, re-exported here).

A ruleset's own decisions live in its package (the Ultime ones in
:mod:`bank.rulesets.ultime.config`). Imports only the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass

from bank.engine.ranges import NumberRange, shown

__all__ = ["NumberRange", "UnitConfig", "shown"]


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
    #: (the classic unit, docs/classic.md §5.2; ``unit.entry_seconds``)
    entry_seconds: float = 30.0
    #: seconds a trade offer may wait for the partner's answer before it is dropped
    #: (the classic unit, §5.3; ``unit.trade_seconds``)
    trade_seconds: float = 60.0
    #: seconds to hold M alone (speech on/off) or ✓ alone (say the last sentence again)
    speech_hold_seconds: float = 3.0
    #: the classic menu's info items 17 (every player's cash) and 18 (the ranking), for a box
    #: with three buttons and no keypad (``unit.info_items``); off: the menu holds the rules'
    #: items only (docs/classic.md §5.4)
    info_items: bool = False
    #: whether the unit speaks when it starts (the ``[speech] say`` setting is not ``off``)
    speech: bool = False
