"""The classic game's time limit (docs/classic.md §3.14, ``variants.time_limit_minutes``): the
unit's running time in this game (power-off time does not count), and the game's end when the
limit passes while nothing is in progress (READINGS C9).

Imports the unit's families, steps and the classic commands.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bank.rulesets.classic import commands as c
from bank.rulesets.classic.unit.family import Family
from bank.unit.shell import Idle

if TYPE_CHECKING:
    from bank.rulesets.classic.unit.core import ClassicUnit


class TimeLimit(Family):
    """The game's running time and its end at the time limit."""

    def __init__(self, unit: ClassicUnit) -> None:
        super().__init__(unit)
        #: seconds run before the unit was last switched on, and when that was (None: off)
        self._ran_before = 0.0
        self._on_since: float | None = None

    def restart(self) -> None:
        """Registration: the next game's clock starts now."""
        self._ran_before, self._on_since = 0.0, self._now

    def switched_on(self, at: float) -> None:
        self._on_since = max(self._now, at)

    def switched_off(self, at: float) -> None:
        if self._on_since is not None:
            self._ran_before += max(self._now, at) - self._on_since
            self._on_since = None

    def running_seconds(self) -> float:
        """How long the unit has run in this game (power-off time does not count)."""
        on = 0.0 if self._on_since is None else self._now - self._on_since
        return self._ran_before + on

    def over_at(self) -> float | None:
        """When ``variants.time_limit_minutes`` ends the game, while nothing is in progress
        (no debt, question, auction, entry, menu, session, check screen or card step: C9)."""
        step = self.step
        if self._on_since is None or not isinstance(step, Idle) or step.revert_at is not None:
            return None
        s = self._state
        if not s.started or s.game_over:
            return None
        minutes = self._rules.settings(s).variants.time_limit_minutes
        if not minutes:
            return None
        return self._on_since + max(0.0, minutes * 60 - self._ran_before)

    def time_up(self) -> None:
        tx = self._execute(c.TimeUp())
        if tx is not None:
            self.step = Idle()
            self._after(tx, self._step_screen())
