"""Lay a :class:`~bank.unit.io.Screen` out on a character LCD (HD44780, 16x2 or 20x4).

Shared by the GPIO panel (RPLCD), the serial panel's firmware (its virtual LCD) and the
terminal panel. The result is plain rows of exactly *cols* characters in the HD44780 A00
character set's ASCII part, plus codes 0..7 for the custom glyphs of :data:`GLYPHS` when
``glyphs=True`` (the caller loads them into CGRAM). Accents are folded (``é`` → ``e``) because
the A00 ROM has none.

Layout, 20x4::

    #16 boat  L3 ■■■□□      number, token, level bar (else the amount, on the right)
    GO JAIL        1500     icons as short words, countdown, amount on the right
    <text line 1>
    <text line 2>

The countdown goes on the icon row (``⏱10``). On 16x2 the two status rows are packed into one.
Imports ``bank.unit.io`` and the standard library only.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from bank.unit.io import Icon, Screen

GLYPH_LEVEL_ON = "\x00"
GLYPH_LEVEL_OFF = "\x01"
GLYPH_CLOCK = "\x02"
GLYPH_CHECK = "\x03"
GLYPH_HOUSE = "\x04"

#: CGRAM slot -> 5x8 bitmap (one int per pixel row, 5 low bits)
GLYPHS: dict[int, tuple[int, ...]] = {
    0: (0b00000, 0b11111, 0b11111, 0b11111, 0b11111, 0b11111, 0b11111, 0b00000),  # level on
    1: (0b00000, 0b11111, 0b10001, 0b10001, 0b10001, 0b10001, 0b11111, 0b00000),  # level off
    2: (0b00000, 0b01110, 0b10101, 0b10111, 0b10001, 0b01110, 0b00000, 0b00000),  # clock
    3: (0b00000, 0b00001, 0b00011, 0b10110, 0b11100, 0b01000, 0b00000, 0b00000),  # check
    4: (0b00100, 0b01110, 0b11111, 0b10001, 0b10101, 0b10101, 0b11111, 0b00000),  # house
}

_ASCII_GLYPH = {
    GLYPH_LEVEL_ON: "#",
    GLYPH_LEVEL_OFF: ".",
    GLYPH_CLOCK: "T",
    GLYPH_CHECK: "v",
    GLYPH_HOUSE: "^",
}

#: short words for icons, in display order (English, the default)
ICON_WORDS: dict[Icon, str] = {
    Icon.ERROR: "ERR",
    Icon.READER_LOST: "NO RDR",
    Icon.GO: "GO",
    Icon.JAIL: "JAIL",
    Icon.LOCATION: "LOC",
    Icon.AUCTION: "AUCT",
    Icon.EVENT: "EVT",
    Icon.DEBT: "DEBT",
    Icon.UNDO: "UNDO",
    Icon.TROPHY: "WIN",
    Icon.MORTGAGE: "MORT",
    Icon.TAX: "TAX",
    Icon.DICE: "DICE",
    Icon.TRADE: "TRADE",
    Icon.POT: "POT",
    Icon.CARD: "CARD",
}

#: the same words in the unit's other languages (one language per game, status row included)
ICON_WORDS_BY_LANG: dict[str, dict[Icon, str]] = {
    "en": ICON_WORDS,
    "fr": {
        Icon.ERROR: "ERR",
        Icon.READER_LOST: "LECTEUR?",
        Icon.GO: "DEPART",
        Icon.JAIL: "PRISON",
        Icon.LOCATION: "LOC",
        Icon.AUCTION: "ENCH",
        Icon.EVENT: "EVT",
        Icon.DEBT: "DETTE",
        Icon.UNDO: "ANNUL",
        Icon.TROPHY: "GAGNE",
    },
}

# Characters the A00 ROM shows differently (0x5C is a yen sign, 0x7E an arrow) or not at all.
_FOLD = {
    "\\": "/",
    "~": "-",
    "✓": GLYPH_CHECK,
    "✔": GLYPH_CHECK,
    "×": "x",
    "✗": "x",
    "€": "E",
    "£": "L",
    "’": "'",
    "‘": "'",
    "“": '"',
    "”": '"',
    "–": "-",
    "—": "-",
    "…": "...",
    "«": '"',
    "»": '"',
    "œ": "oe",
    "Œ": "OE",
    "æ": "ae",
    "ß": "ss",
}


@dataclass(frozen=True, slots=True)
class LcdGeometry:
    """Size of a character LCD."""

    cols: int = 20
    rows: int = 4

    def __post_init__(self) -> None:
        if not (8 <= self.cols <= 40 and 1 <= self.rows <= 4):
            raise ValueError(f"a character LCD of {self.cols}x{self.rows} is not supported")


def fold(text: str, glyphs: bool = True) -> str:
    """*text* in characters an HD44780 (A00 ROM) can show; unknown ones become ``?``."""
    out: list[str] = []
    for ch in text:
        ch = _FOLD.get(ch, ch)
        if len(ch) == 1 and " " <= ch <= "}":
            out.append(ch)
            continue
        if len(ch) > 1:
            out.append(ch)
            continue
        if ch in _ASCII_GLYPH:
            out.append(ch if glyphs else _ASCII_GLYPH[ch])
            continue
        base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
        base = "".join(c for c in base if " " <= c <= "}")
        out.append(base or "?")
    return "".join(out)


def fold_unless(text: str, shows: Callable[[str], bool] | None, glyphs: bool = True) -> str:
    """*text* with the characters *shows* rejects folded (all of them when *shows* is None):
    for displays that can show more than the A00 ROM, such as a UTF-8 terminal."""
    if shows is None:
        return fold(text, glyphs)
    return "".join(ch if ch.isprintable() and shows(ch) else fold(ch, glyphs) for ch in text)


def level_bar(level: int, glyphs: bool = True, cells: int = 5) -> str:
    """A bar of *cells* cells, *level* of them lit."""
    on, off = (GLYPH_LEVEL_ON, GLYPH_LEVEL_OFF) if glyphs else ("#", ".")
    lit = max(0, min(cells, level))
    return on * lit + off * (cells - lit)


def _row(left: str, right: str, cols: int) -> str:
    """*left* and *right* on one row of *cols*; the left part yields when both do not fit."""
    if not right:
        return left[:cols].ljust(cols)
    if len(right) >= cols:
        return right[-cols:]
    room = cols - len(right) - 1 if left else cols - len(right)
    return (left[: max(room, 0)].ljust(max(room, 0)) + (" " if left else "") + right)[:cols]


def _wrap(line: str, cols: int) -> list[str]:
    """Split a text line into rows at word boundaries where possible."""
    rows: list[str] = []
    rest = line.strip()
    while len(rest) > cols:
        cut = rest.rfind(" ", 0, cols + 1)
        if cut <= 0:
            cut = cols
        rows.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    rows.append(rest)
    return rows


def status_parts(
    screen: Screen,
    glyphs: bool = True,
    *,
    lang: str = "en",
    token_label: Callable[[str], str] | None = None,
) -> tuple[str, str, str, str]:
    """The status texts: (number+token, level bar, icons+countdown, amount), the icons' words
    in *lang* and the token as *token_label* names it (its id when not given)."""
    head = []
    if screen.number is not None:
        head.append(f"#{screen.number}")
    if screen.token:
        label = token_label(screen.token) if token_label is not None else screen.token
        head.append(fold(label, glyphs))
    level = ""
    if screen.level is not None:
        level = f"L{screen.level} {level_bar(screen.level, glyphs)}"
    icon_words = ICON_WORDS_BY_LANG.get(lang, ICON_WORDS)
    words = [w for icon, w in icon_words.items() if icon in screen.icons]
    if screen.countdown is not None:
        words.append((GLYPH_CLOCK if glyphs else "T-") + str(screen.countdown))
    amount = "" if screen.amount is None else str(screen.amount)
    return " ".join(head), level, " ".join(words), amount


def layout(
    screen: Screen,
    cols: int = 20,
    rows: int = 4,
    glyphs: bool = True,
    *,
    shows: Callable[[str], bool] | None = None,
    lang: str = "en",
    token_label: Callable[[str], str] | None = None,
) -> tuple[str, ...]:
    """The *rows* rows of *cols* characters an LCD shows for *screen*.

    *shows* tells which characters of the text the display can show as they are (the others
    are folded); by default everything is folded to the A00 ROM. The status row's words are in
    *lang*; *token_label* names a token as the unit does (its id when not given)."""
    LcdGeometry(cols, rows)
    blank = " " * cols
    if screen.off:
        return (blank,) * rows
    head, level, words, amount = status_parts(screen, glyphs, lang=lang, token_label=token_label)
    status: list[str] = []
    if rows >= 3:
        # The amount shares the first row unless the level bar has it.
        pairs = [(head, level), (words, amount)] if level else [(head, amount), (words, "")]
        if not head and not level:
            pairs = [(words, amount)]
        status = [_row(left, right, cols) for left, right in pairs if left or right]
    else:
        left = " ".join(p for p in (head, level, words) if p)
        if left or amount:
            status.append(_row(left, amount, cols))
    text_rows: list[str] = []
    for line in screen.lines:
        text_rows.extend(_wrap(fold_unless(line, shows, glyphs), cols))
    # Text is the message; when rows are short, keep at least one text row.
    if text_rows and len(status) + len(text_rows) > rows:
        status = status[: max(rows - len(text_rows), min(len(status), rows - 1))]
    body = status + text_rows
    body = body[:rows]
    if not body and screen.name:
        body = [fold(screen.name.upper(), glyphs)[:cols]]
    return tuple(r.ljust(cols)[:cols] for r in body) + (blank,) * (rows - len(body))
