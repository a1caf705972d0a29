"""An in-memory HD44780 for tests: RPLCD's own driver logic on top of a modelled controller.

Subclasses ``RPLCD.lcd.BaseCharLCD`` so the production code path (cursor moves, writes,
``create_char``) runs unchanged; the fake decodes the instruction stream into DDRAM and CGRAM
as the chip would. ``lines()`` is what the glass shows (custom glyphs as codes 0..7).
"""

from __future__ import annotations

from RPLCD import common as c
from RPLCD.lcd import BaseCharLCD


class FakeHD44780(BaseCharLCD):  # type: ignore[misc]
    def __init__(self, cols: int = 20, rows: int = 4, fail: bool = False) -> None:
        self.ddram = bytearray(b" " * 0x80)
        self.cgram = bytearray(64)
        self.backlight_enabled = True
        self.fail = fail
        self.data_writes = 0
        self._addr = 0
        self._cg = False
        # RPLCD reads this in its __init__, so it must exist before super().__init__.
        self.data_bus_mode = c.LCD_4BITMODE
        super().__init__(cols=cols, rows=rows, charmap="A00", auto_linebreaks=False)

    def _init_connection(self) -> None:
        if self.fail:
            raise OSError(121, "Remote I/O error")

    def _close_connection(self) -> None:
        pass

    def _send_instruction(self, value: int) -> None:
        if self.fail:
            raise OSError(121, "Remote I/O error")
        if value & c.LCD_SETDDRAMADDR:
            self._addr, self._cg = value & 0x7F, False
        elif value & c.LCD_SETCGRAMADDR:
            self._addr, self._cg = value & 0x3F, True
        elif value == c.LCD_CLEARDISPLAY:
            self.ddram[:] = b" " * 0x80
            self._addr, self._cg = 0, False
        elif value == c.LCD_RETURNHOME:
            self._addr, self._cg = 0, False

    def _send_data(self, value: int) -> None:
        if self.fail:
            raise OSError(121, "Remote I/O error")
        self.data_writes += 1
        if self._cg:
            self.cgram[self._addr] = value
            self._addr = (self._addr + 1) % 64
        else:
            self.ddram[self._addr] = value
            self._addr = (self._addr + 1) % 0x80

    def lines(self) -> list[str]:
        cols, rows = self.lcd.cols, self.lcd.rows
        offsets = [0x00, 0x40, cols, 0x40 + cols][:rows]
        return [self.ddram[o : o + cols].decode("latin-1") for o in offsets]

    def glyph(self, slot: int) -> tuple[int, ...]:
        return tuple(self.cgram[slot * 8 : slot * 8 + 8])
