"""A 5×9 dot-matrix font of our own, and its renderer with faint "ghost" dots.

The glyph table is plain data (9 rows of 5 dots per character: 7 rows down to the baseline and
2 rows under it for the descenders, as the 5×10 mode of character LCDs), drawn for this project
in the spirit of those LCDs: capitals, lower case whose ``g j p q y`` (and ``ç Ç , ;``) reach
below the baseline, digits, punctuation, the French accented letters, ``€``, ``£``, ``₥`` and
``฿``. :func:`fold` maps any other text onto the
table (accents stripped, typographic quotes and dashes simplified), so every string renders.

Imports pygame (through :mod:`firmware_sim.pg`) and the standard library only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

from firmware_sim.pg import pygame

COLS = 5
#: rows of a cell: the rows down to the baseline, then the descender rows under it
ROWS = 9
BASELINE_ROWS = 7
DESCENDER_ROWS = ROWS - BASELINE_ROWS
#: A glyph is :data:`ROWS` rows; each row is an int whose bit 4 is the leftmost dot.
Glyph = tuple[int, ...]


def _g(rows: str) -> Glyph:
    """Parse 7 whitespace-separated rows of ``#`` (lit) and ``.`` (dark) down to the baseline,
    or 9 rows with the descender's two."""
    parts = rows.split()
    if len(parts) not in (BASELINE_ROWS, ROWS) or any(
        len(p) != COLS or set(p) - {"#", "."} for p in parts
    ):
        raise ValueError(f"bad glyph rows: {rows!r}")
    values = [sum(1 << (COLS - 1 - i) for i, c in enumerate(p) if c == "#") for p in parts]
    return tuple(values + [0] * (ROWS - len(values)))


# fmt: off
_TABLE: dict[str, str] = {
    " ": "..... ..... ..... ..... ..... ..... .....",
    "0": ".###. #...# #..## #.#.# ##..# #...# .###.",
    "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
    "2": ".###. #...# ....# ...#. ..#.. .#... #####",
    "3": "##### ...#. ..#.. ...#. ....# #...# .###.",
    "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
    "5": "##### #.... ####. ....# ....# #...# .###.",
    "6": "..##. .#... #.... ####. #...# #...# .###.",
    "7": "##### ....# ...#. ..#.. .#... .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# .###.",
    "9": ".###. #...# #...# .#### ....# ...#. .##..",
    "A": ".###. #...# #...# ##### #...# #...# #...#",
    "B": "####. #...# #...# ####. #...# #...# ####.",
    "C": ".###. #...# #.... #.... #.... #...# .###.",
    "D": "###.. #..#. #...# #...# #...# #..#. ###..",
    "E": "##### #.... #.... ####. #.... #.... #####",
    "F": "##### #.... #.... ####. #.... #.... #....",
    "G": ".###. #...# #.... #.### #...# #...# .####",
    "H": "#...# #...# #...# ##### #...# #...# #...#",
    "I": ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
    "J": "..### ...#. ...#. ...#. ...#. #..#. .##..",
    "K": "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
    "L": "#.... #.... #.... #.... #.... #.... #####",
    "M": "#...# ##.## #.#.# #.#.# #...# #...# #...#",
    "N": "#...# #...# ##..# #.#.# #..## #...# #...#",
    "O": ".###. #...# #...# #...# #...# #...# .###.",
    "P": "####. #...# #...# ####. #.... #.... #....",
    "Q": ".###. #...# #...# #...# #.#.# #..#. .##.#",
    "R": "####. #...# #...# ####. #.#.. #..#. #...#",
    "S": ".#### #.... #.... .###. ....# ....# ####.",
    "T": "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "U": "#...# #...# #...# #...# #...# #...# .###.",
    "V": "#...# #...# #...# #...# #...# .#.#. ..#..",
    "W": "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
    "X": "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
    "Y": "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
    "Z": "##### ....# ...#. ..#.. .#... #.... #####",
    "a": "..... ..... .###. ....# .#### #...# .####",
    "b": "#.... #.... #.##. ##..# #...# #...# ####.",
    "c": "..... ..... .###. #.... #.... #...# .###.",
    "d": "....# ....# .##.# #..## #...# #...# .####",
    "e": "..... ..... .###. #...# ##### #.... .###.",
    "f": "..##. .#..# .#... ###.. .#... .#... .#...",
    "g": "..... ..... .#### #...# #...# #...# .#### ....# .###.",
    "h": "#.... #.... #.##. ##..# #...# #...# #...#",
    "i": "..#.. ..... .##.. ..#.. ..#.. ..#.. .###.",
    "j": "...#. ..... ..##. ...#. ...#. ...#. ...#. #..#. .##..",
    "k": "#.... #.... #..#. #.#.. ##... #.#.. #..#.",
    "l": ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
    "m": "..... ..... ##.#. #.#.# #.#.# #...# #...#",
    "n": "..... ..... #.##. ##..# #...# #...# #...#",
    "o": "..... ..... .###. #...# #...# #...# .###.",
    "p": "..... ..... ####. #...# #...# #...# ####. #.... #....",
    "q": "..... ..... .#### #...# #...# #...# .#### ....# ....#",
    "r": "..... ..... #.##. ##..# #.... #.... #....",
    "s": "..... ..... .###. #.... .###. ....# ####.",
    "t": ".#... .#... ###.. .#... .#... .#..# ..##.",
    "u": "..... ..... #...# #...# #...# #..## .##.#",
    "v": "..... ..... #...# #...# #...# .#.#. ..#..",
    "w": "..... ..... #...# #...# #.#.# #.#.# .#.#.",
    "x": "..... ..... #...# .#.#. ..#.. .#.#. #...#",
    "y": "..... ..... #...# #...# #...# #...# .#### ....# .###.",
    "z": "..... ..... ##### ...#. ..#.. .#... #####",
    # French accented letters; capitals are one row shorter to leave room for the accent.
    "É": "...#. ##### #.... ####. #.... #.... #####",
    "È": ".#... ##### #.... ####. #.... #.... #####",
    "Ê": "..#.. ##### #.... ####. #.... #.... #####",
    "Ë": ".#.#. ##### #.... ####. #.... #.... #####",
    "À": ".#... .###. #...# #...# ##### #...# #...#",
    "Â": "..#.. .###. #...# #...# ##### #...# #...#",
    "Ç": ".###. #...# #.... #.... #.... #...# .###. ..#.. .##..",
    "Î": "..#.. .###. ..#.. ..#.. ..#.. ..#.. .###.",
    "Ï": ".#.#. .###. ..#.. ..#.. ..#.. ..#.. .###.",
    "Ô": "..#.. .###. #...# #...# #...# #...# .###.",
    "Ù": ".#... #...# #...# #...# #...# #...# .###.",
    "Û": "..#.. #...# #...# #...# #...# #...# .###.",
    "Ü": ".#.#. #...# #...# #...# #...# #...# .###.",
    "é": "...#. ..#.. .###. #...# ##### #.... .###.",
    "è": ".#... ..#.. .###. #...# ##### #.... .###.",
    "ê": "..#.. .#.#. .###. #...# ##### #.... .###.",
    "ë": ".#.#. ..... .###. #...# ##### #.... .###.",
    "à": ".#... ..#.. .###. ....# .#### #...# .####",
    "â": "..#.. .#.#. .###. ....# .#### #...# .####",
    "ç": "..... ..... .###. #.... #.... #...# .###. ..#.. .##..",
    "î": "..#.. .#.#. ..... .##.. ..#.. ..#.. .###.",
    "ï": ".#.#. ..... .##.. ..#.. ..#.. ..#.. .###.",
    "ô": "..#.. .#.#. .###. #...# #...# #...# .###.",
    "ù": ".#... ..#.. #...# #...# #...# #..## .##.#",
    "û": "..#.. .#.#. #...# #...# #...# #..## .##.#",
    "ü": ".#.#. ..... #...# #...# #...# #..## .##.#",
    # Punctuation and signs.
    "!": "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..",
    '"': ".#.#. .#.#. ..... ..... ..... ..... .....",
    "#": ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.",
    "$": "..#.. .#### #.#.. .###. ..#.# ####. ..#..",
    "%": "##... ##..# ...#. ..#.. .#... #..## ...##",
    "&": ".##.. #..#. #.#.. .#... #.#.# #..#. .##.#",
    "'": "..#.. ..#.. .#... ..... ..... ..... .....",
    "(": "...#. ..#.. .#... .#... .#... ..#.. ...#.",
    ")": ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",
    "*": "..... ..#.. #.#.# .###. #.#.# ..#.. .....",
    "+": "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
    ",": "..... ..... ..... ..... ..... .##.. .##.. ..#.. .#...",
    "-": "..... ..... ..... ##### ..... ..... .....",
    ".": "..... ..... ..... ..... ..... .##.. .##..",
    "/": "..... ....# ...#. ..#.. .#... #.... .....",
    ":": "..... .##.. .##.. ..... ..... .##.. .##..",
    ";": "..... .##.. .##.. ..... ..... .##.. .##.. ..#.. .#...",
    "<": "...#. ..#.. .#... #.... .#... ..#.. ...#.",
    "=": "..... ..... ##### ..... ##### ..... .....",
    ">": ".#... ..#.. ...#. ....# ...#. ..#.. .#...",
    "?": ".###. #...# ....# ...#. ..#.. ..... ..#..",
    "@": ".###. #...# ....# .##.# #.#.# #.#.# .###.",
    "[": ".###. .#... .#... .#... .#... .#... .###.",
    "]": ".###. ...#. ...#. ...#. ...#. ...#. .###.",
    "\\": "..... #.... .#... ..#.. ...#. ....# .....",
    "^": "..#.. .#.#. #...# ..... ..... ..... .....",
    "_": "..... ..... ..... ..... ..... ..... #####",
    "|": "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "°": ".##.. #..#. #..#. .##.. ..... ..... .....",
    "·": "..... ..... ..... ..#.. ..... ..... .....",
    "€": "..### .#... ####. .#... ####. .#... ..###",
    "£": ".##.. #..#. .#... ###.. .#... .#..# #####",
    "₥": "....# ...#. ####. #.#.# #.#.# ##..# #...#",
    "฿": "####. #.#.# #.#.# ####. #.#.# #.#.# ####.",  # One Piece's berry (the baht sign)
    "…": "..... ..... ..... ..... ..... ..... #.#.#",
    "×": "..... #...# .#.#. ..#.. .#.#. #...# .....",
    "✓": "..... ....# ...#. #..#. .##.. ..#.. .....",
    "→": "..... ..#.. ...#. ##### ...#. ..#.. .....",
    "←": "..... ..#.. .#... ##### .#... ..#.. .....",
    "↑": "..#.. .###. #.#.# ..#.. ..#.. ..#.. .....",
    "↓": "..... ..#.. ..#.. ..#.. #.#.# .###. ..#..",
}
# fmt: on

#: What an unknown character (after folding) looks like: a hollow box.
UNKNOWN: Glyph = _g("##### #...# #...# #...# #...# #...# #####")

GLYPHS: dict[str, Glyph] = {ch: _g(rows) for ch, rows in _TABLE.items()}

# Characters with no glyph of their own, written with one or more that have one.
_SUBSTITUTES: dict[str, str] = {
    "\u00a0": " ",  # no-break space
    "\u202f": " ",  # narrow no-break space (French thousands and "12 €")
    "\u2009": " ",
    "\u2018": "'",
    "\u2019": "'",
    "`": "'",
    "´": "'",
    "\u201c": '"',
    "\u201d": '"',
    "«": "<",
    "»": ">",
    "\u2013": "-",
    "\u2014": "-",
    "\u2212": "-",
    "{": "(",
    "}": ")",
    "~": "-",
    "Œ": "OE",
    "œ": "oe",
    "Æ": "AE",
    "æ": "ae",
    "ß": "ss",
    "✔": "✓",
    "✗": "×",
    "✘": "×",
}


def fold(text: str) -> str:
    """Rewrite *text* with characters the glyph table has (accents kept where drawn)."""
    out: list[str] = []
    for ch in text:
        if ch in GLYPHS:
            out.append(ch)
        elif ch in _SUBSTITUTES:
            out.append(_SUBSTITUTES[ch])
        else:
            base = "".join(
                c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)
            )
            out.append(base if base and all(c in GLYPHS for c in base) else ch)
    return "".join(out)


def glyph(ch: str) -> Glyph:
    """The 5×9 glyph of one character (the hollow box if the table has none)."""
    return GLYPHS.get(ch, UNKNOWN)


def lit_dots(g: Glyph) -> Iterable[tuple[int, int]]:
    """The (column, row) of every lit dot of *g*."""
    for row, bits in enumerate(g):
        for col in range(COLS):
            if bits & (1 << (COLS - 1 - col)):
                yield col, row


def wrap(lines: Sequence[str], width: int, rows: int) -> list[str]:
    """Word-wrap each line (a newline also breaks) to *width* characters; keep *rows* rows,
    ending cut text with ``…``."""
    out: list[str] = []
    for line in (part for text in lines for part in text.splitlines() or [""]):
        words = fold(line).split(" ")
        current = ""
        for word in words:
            while len(word) > width:  # a word longer than the row is cut hard
                if current:
                    out.append(current)
                    current = ""
                out.append(word[:width])
                word = word[width:]
            candidate = f"{current} {word}" if current else word
            if len(candidate) <= width:
                current = candidate
            else:
                out.append(current)
                current = word
        out.append(current)
    if len(out) > rows:
        last = out[rows - 1]
        out = [*out[: rows - 1], (last[: width - 1] if len(last) >= width else last) + "…"]
    return out


class DotMatrix:
    """Draws text as 5×9 cells of square dots, every dot of a cell shown lit or ghosted.

    *pitch* is the distance between dot centres in pixels, *dot* the side of a dot; a cell is
    6 pitches wide (5 dots and a gap) and 10 pitches tall (9 rows and a gap), its baseline
    under the seventh row. Glyph surfaces are cached.
    """

    def __init__(
        self,
        pitch: int,
        dot: int,
        on: tuple[int, int, int],
        ghost: tuple[int, int, int] | None,
    ) -> None:
        if not 1 <= dot <= pitch:
            raise ValueError(f"dot size {dot} must be between 1 and the pitch {pitch}")
        self.pitch = pitch
        self.dot = dot
        self.on = on
        self.ghost = ghost
        self._cache: dict[str, pygame.Surface] = {}

    @property
    def cell_width(self) -> int:
        return (COLS + 1) * self.pitch

    @property
    def cell_height(self) -> int:
        return (ROWS + 1) * self.pitch

    def glyph_surface(self, ch: str) -> pygame.Surface:
        """The cached surface of one character: its lit dots over the ghost of all 35."""
        surf = self._cache.get(ch)
        if surf is None:
            surf = pygame.Surface((COLS * self.pitch, ROWS * self.pitch), pygame.SRCALPHA)
            if self.ghost is not None:
                for row in range(ROWS):
                    for col in range(COLS):
                        self._dot(surf, col, row, self.ghost)
            for col, row in lit_dots(glyph(ch)):
                self._dot(surf, col, row, self.on)
            self._cache[ch] = surf
        return surf

    def _dot(self, surf: pygame.Surface, col: int, row: int, colour: tuple[int, int, int]) -> None:
        surf.fill(colour, pygame.Rect(col * self.pitch, row * self.pitch, self.dot, self.dot))

    def text_width(self, text: str) -> int:
        """Width in pixels of *text* (already folded), without the trailing gap."""
        return max(0, len(text) * self.cell_width - self.pitch)

    def draw(self, target: pygame.Surface, text: str, pos: tuple[int, int]) -> None:
        """Draw *text* (already folded) with its top-left dot at *pos*."""
        x, y = pos
        for ch in text:
            target.blit(self.glyph_surface(ch), (x, y))
            x += self.cell_width

    def draw_cells(self, target: pygame.Surface, pos: tuple[int, int], cells: int) -> None:
        """Draw *cells* empty character cells (all dots ghosted), as an unused LCD row shows."""
        self.draw(target, " " * cells, pos)

    def dot_centre(
        self, origin: tuple[int, int], index: int, col: int, row: int
    ) -> tuple[int, int]:
        """Pixel at the centre of dot (*col*, *row*) of character *index* drawn from *origin*."""
        return (
            origin[0] + index * self.cell_width + col * self.pitch + self.dot // 2,
            origin[1] + row * self.pitch + self.dot // 2,
        )
