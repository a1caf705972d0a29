"""Reads the emulator's LCD back from its pixels, independently of how it was drawn.

Used by the tests to check that the glass shows what the screen model says: which segments of
each digit are dark, which icons, tokens and level bars are lit, and which characters the dot
matrix spells.
"""

from __future__ import annotations

from firmware_sim.dotfont import COLS, GLYPHS, ROWS, Glyph
from firmware_sim.lcd import GHOST, GLASS, ON, LcdLayout
from firmware_sim.pg import pygame
from firmware_sim.segments import SegmentGeometry

# The seven-segment alphabet, written out here again so that a wrong table in the renderer
# shows up as a wrong reading.
_DIGITS_BY_SEGMENTS = {
    frozenset("abcdef"): "0",
    frozenset("bc"): "1",
    frozenset("abged"): "2",
    frozenset("abgcd"): "3",
    frozenset("fgbc"): "4",
    frozenset("afgcd"): "5",
    frozenset("afgedc"): "6",
    frozenset("abc"): "7",
    frozenset("abcdefg"): "8",
    frozenset("abcdfg"): "9",
    frozenset("g"): "-",
    frozenset(): " ",
}


def state(surf: pygame.Surface, pos: tuple[int, int]) -> str:
    """``on``, ``ghost`` or ``glass`` for the pixel at *pos*; AssertionError for other colours."""
    colour = tuple(surf.get_at(pos))[:3]
    for name, value in (("on", ON), ("ghost", GHOST), ("glass", GLASS)):
        if colour == value:
            return name
    raise AssertionError(f"pixel {pos} is {colour}: neither lit, ghost nor glass")


def read_cell(surf: pygame.Surface, geo: SegmentGeometry, origin: tuple[int, int]) -> str:
    """The character a seven-segment cell at *origin* shows."""
    lit = set()
    for seg in "abcdefg":
        cx, cy = geo.centre(seg)
        s = state(surf, (origin[0] + cx, origin[1] + cy))
        assert s != "glass", f"segment {seg} of the cell at {origin} is missing"
        if s == "on":
            lit.add(seg)
    try:
        return _DIGITS_BY_SEGMENTS[frozenset(lit)]
    except KeyError:
        raise AssertionError(f"segments {sorted(lit)} at {origin} are no digit") from None


def read_amount(surf: pygame.Surface, lay: LcdLayout) -> int | None:
    """The amount shown (None if the five digits are blank)."""
    text = "".join(read_cell(surf, lay.big, lay.amount_cell(i)) for i in range(5)).strip()
    sx, sy, sw, sh = lay.sign
    negative = state(surf, (sx + sw // 2, sy + sh // 2)) == "on"
    if not text:
        assert not negative, "a minus sign without digits"
        return None
    value = int(text)
    return -value if negative else value


def read_two(
    surf: pygame.Surface, geo: SegmentGeometry, cells: list[tuple[int, int]]
) -> int | None:
    text = "".join(read_cell(surf, geo, origin) for origin in cells).strip()
    return int(text) if text else None


def any_lit(surf: pygame.Surface, rect: tuple[int, int, int, int]) -> bool:
    """True if any pixel of *rect* is in the lit colour."""
    x, y, w, h = rect
    return any(
        tuple(surf.get_at((i, j)))[:3] == ON for i in range(x, x + w) for j in range(y, y + h)
    )


_CHAR_BY_GLYPH: dict[Glyph, str] = {}
for _ch, _g in GLYPHS.items():
    _CHAR_BY_GLYPH.setdefault(_g, _ch)


def read_text_row(surf: pygame.Surface, lay: LcdLayout, row: int) -> str:
    """The characters of dot-matrix row *row*, read dot by dot."""
    x0, y0 = lay.text_row(row)
    cell = (COLS + 1) * lay.text_pitch
    out = []
    for i in range(lay.text_cols):
        bits = []
        for r in range(ROWS):
            value = 0
            for c in range(COLS):
                px = x0 + i * cell + c * lay.text_pitch + lay.text_dot // 2
                py = y0 + r * lay.text_pitch + lay.text_dot // 2
                s = state(surf, (px, py))
                assert s != "glass", f"dot ({c},{r}) of cell {i} row {row} is missing"
                if s == "on":
                    value |= 1 << (COLS - 1 - c)
            bits.append(value)
        out.append(_CHAR_BY_GLYPH.get(tuple(bits), "\ufffd"))
    return "".join(out)
