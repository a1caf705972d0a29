"""A 3x4 matrix keypad wired to gpiozero's mock pins, for the GPIO panel's tests.

The keypad is modelled electrically: each key is a switch between its row and its column. A
column pin (an input with a pull-up) reads low while a pressed key joins it to a row pin that
the panel drives low; otherwise the pull-up keeps it high. :class:`MatrixPin` tells the wiring
whenever an output pin changes level, so the panel's scanner sees what a real keypad shows it.
"""

from __future__ import annotations

import threading
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin

#: the keys as printed on the keypad, by row and column
LAYOUT = ("123", "456", "789", "*0#")


class MatrixPin(MockPWMPin):  # type: ignore[misc]
    """A mock pin that tells its factory's keypad wiring when its level or function changes
    (a row becomes an output driven low, or goes back to a pulled-up input)."""

    def _change_state(self, value: Any) -> bool:
        changed: bool = super()._change_state(value)
        if changed:
            self._rewire()
        return changed

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        self._rewire()

    def _rewire(self) -> None:
        wiring: KeypadWiring | None = getattr(self.factory, "keypad_wiring", None)
        if wiring is not None and self.info.name in wiring.row_names:
            wiring.update()


class KeypadWiring:
    """The switches of a 3x4 keypad between *rows* and *cols* (BCM numbers) of *factory*."""

    def __init__(self, factory: MockFactory, rows: list[int], cols: list[int]) -> None:
        self.factory = factory
        self.rows = rows
        self.cols = cols
        self.pressed: set[tuple[int, int]] = set()
        self.row_names = {f"GPIO{row}" for row in rows}
        #: pairs of rows that were outputs at opposite levels joined by pressed keys
        self.shorts: list[tuple[int, int]] = []
        self._lock = threading.RLock()
        factory.keypad_wiring = self

    def _where(self, key: str) -> tuple[int, int]:
        for r, keys in enumerate(LAYOUT):
            if key in keys:
                return r, keys.index(key)
        raise ValueError(f"no key {key!r} on a 3x4 keypad")

    def press(self, key: str) -> None:
        with self._lock:
            self.pressed.add(self._where(key))
            self.update()

    def release(self, key: str) -> None:
        with self._lock:
            self.pressed.discard(self._where(key))
            self.update()

    def update(self) -> None:
        """Each column's level: low when a pressed key joins it to a row driven low. Two rows
        driven at opposite levels and joined through one column are a short, recorded."""
        with self._lock:
            for c in range(len(self.cols)):
                levels = {
                    bool(self.factory.pin(row).state)
                    for r, row in enumerate(self.rows)
                    if (r, c) in self.pressed and self.factory.pin(row).function == "output"
                }
                if len(levels) > 1:
                    self.shorts.append((c, len(self.shorts)))
            for c, col in enumerate(self.cols):
                pin = self.factory.pin(col)
                if pin.function != "input":
                    continue
                low = any(
                    (r, c) in self.pressed
                    and self.factory.pin(row).function == "output"
                    and not self.factory.pin(row).state
                    for r, row in enumerate(self.rows)
                )
                if low:
                    pin.drive_low()
                else:
                    pin.drive_high()
