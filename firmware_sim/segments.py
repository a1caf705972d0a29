"""Code-drawn seven-segment digits, slanted like LCD glass, with ghost segments.

Segments are named the usual way: ``a`` top, ``b`` top right, ``c`` bottom right, ``d``
bottom, ``e`` bottom left, ``f`` top left, ``g`` middle. Each segment is a hexagon; every
segment of a cell is always drawn, lit ones in the "on" colour and the others in the faint
ghost colour, as an unpowered LCD segment still shows. Cell surfaces are cached per character.

Imports pygame (through :mod:`firmware_sim.pg`) and the standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_sim.pg import pygame

SEGMENT_NAMES = "abcdefg"

#: Which segments each character lights.
SEGMENTS: dict[str, str] = {
    "0": "abcdef",
    "1": "bc",
    "2": "abdeg",
    "3": "abcdg",
    "4": "bcfg",
    "5": "acdfg",
    "6": "acdefg",
    "7": "abc",
    "8": "abcdefg",
    "9": "abcdfg",
    "-": "g",
    " ": "",
}

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class SegmentGeometry:
    """The size of one digit cell: *height* and *width* of the upright digit, stroke, slant."""

    height: int
    width: int
    thickness: int
    gap: int = 1
    slant: float = 0.08  # horizontal shift per pixel of height: LCD digits lean right

    @property
    def cell_width(self) -> int:
        """Width of the cell's surface, slant included."""
        return self.width + round(self.height * self.slant) + 1

    def _shear(self, points: list[Point]) -> list[Point]:
        return [(x + (self.height - y) * self.slant, y) for x, y in points]

    def polygon(self, segment: str) -> list[Point]:
        """The hexagon of *segment* in the cell's coordinates."""
        h = self.thickness / 2
        g = self.gap
        left, right = h, self.width - h
        top, mid, bottom = h, self.height / 2, self.height - h

        def horizontal(yc: float) -> list[Point]:
            x0, x1 = left + g, right - g
            return [(x0, yc), (x0 + h, yc - h), (x1 - h, yc - h), (x1, yc), (x1 - h, yc + h),
                    (x0 + h, yc + h)]  # fmt: skip

        def vertical(xc: float, y0: float, y1: float) -> list[Point]:
            y0, y1 = y0 + g, y1 - g
            return [(xc, y0), (xc + h, y0 + h), (xc + h, y1 - h), (xc, y1), (xc - h, y1 - h),
                    (xc - h, y0 + h)]  # fmt: skip

        shapes = {
            "a": horizontal(top),
            "b": vertical(right, top, mid),
            "c": vertical(right, mid, bottom),
            "d": horizontal(bottom),
            "e": vertical(left, mid, bottom),
            "f": vertical(left, top, mid),
            "g": horizontal(mid),
        }
        if segment not in shapes:
            raise ValueError(f"no segment {segment!r}: segments are a to g")
        return self._shear(shapes[segment])

    def centre(self, segment: str) -> tuple[int, int]:
        """A pixel well inside *segment*, for tests that read the glass back."""
        pts = self.polygon(segment)
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        return int((min(xs) + max(xs)) / 2), int((min(ys) + max(ys)) / 2)


class SevenSegment:
    """Draws characters of :data:`SEGMENTS` as seven-segment cells, caching each cell."""

    def __init__(
        self,
        geometry: SegmentGeometry,
        on: tuple[int, int, int],
        ghost: tuple[int, int, int] | None,
    ) -> None:
        self.geometry = geometry
        self.on = on
        self.ghost = ghost
        self._cache: dict[str, pygame.Surface] = {}

    def cell(self, ch: str) -> pygame.Surface:
        """The cached surface of one character's cell."""
        surf = self._cache.get(ch)
        if surf is None:
            if ch not in SEGMENTS:
                raise ValueError(f"a seven-segment cell cannot show {ch!r}")
            geo = self.geometry
            surf = pygame.Surface((geo.cell_width, geo.height + 1), pygame.SRCALPHA)
            lit = SEGMENTS[ch]
            for name in SEGMENT_NAMES:
                colour = self.on if name in lit else self.ghost
                if colour is not None:
                    pygame.draw.polygon(surf, colour, geo.polygon(name))
            self._cache[ch] = surf
        return surf

    def draw(self, target: pygame.Surface, text: str, pos: tuple[int, int], spacing: int) -> None:
        """Draw one cell per character of *text*, *spacing* pixels apart, from *pos*."""
        x, y = pos
        for ch in text:
            target.blit(self.cell(ch), (x, y))
            x += self.geometry.cell_width + spacing

    def width(self, cells: int, spacing: int) -> int:
        """Width of *cells* cells drawn *spacing* apart."""
        return cells * self.geometry.cell_width + max(0, cells - 1) * spacing


def digits_text(value: int | None, cells: int) -> str:
    """*value* right-aligned in *cells* cells (blank if None, dashes if it does not fit)."""
    if value is None:
        return " " * cells
    text = str(abs(value))
    if len(text) > cells:
        return "-" * cells
    return text.rjust(cells)
