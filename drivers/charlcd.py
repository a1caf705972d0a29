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

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace

from bank.unit.io import Icon, Labels, Screen, TitleLayout

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
    Icon.SKYSCRAPER: "SKYSCRAPER",
    Icon.DEPOT: "DEPOT",
    Icon.FORCE: "FORCE",
    Icon.KEYPAD: "KEYPAD",
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
        Icon.MORTGAGE: "HYPO",
        Icon.TAX: "TAXE",
        Icon.DICE: "DES",
        Icon.TRADE: "ECHANGE",
        Icon.POT: "PARC",
        Icon.CARD: "CARTE",
        Icon.SKYSCRAPER: "GRATTE-CIEL",
        Icon.DEPOT: "DEPOT",
        Icon.FORCE: "FORCE",
        Icon.KEYPAD: "CLAVIER",
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
    "−": "-",  # the unit's minus sign: `Dépôt −100`
    "—": "-",
    "…": "...",
    "·": "-",
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
    icon_word: Callable[[Icon], str | None] | None = None,
) -> tuple[str, str, str, str]:
    """The status texts: (number+token, level bar, icons+countdown, amount), the icons' words
    in *lang* and the token as *token_label* names it (its id when not given). An icon the
    panel has no word for is named by *icon_word* (the ruleset's word for it, from its panel
    vocabulary or the bank's icon table), else by its name."""
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
    for icon in sorted(screen.icons - icon_words.keys()):
        said = icon_word(icon) if icon_word is not None else None
        words.append(fold(said or icon.name, glyphs))
    if screen.countdown is not None:
        words.append((GLYPH_CLOCK if glyphs else "T-") + str(screen.countdown))
    amount = "" if screen.amount is None else str(screen.amount)
    return " ".join(head), level, " ".join(words), amount


def squeeze(text: str, cols: int, cut: bool = True) -> str:
    """*text* in *cols* cells, keeping every number: spaces around separators go first, then
    the longest words are shortened (``Construire`` -> ``Cons.``, then to three letters); only
    a text that still does not fit is cut (*cut* False: returned longer than *cols*)."""
    if len(text) <= cols:
        return text
    for old, new in (
        ("  ", " "),
        (" · ", "·"),
        (" - ", "-"),
        (" : ", ": "),
        (" + ", "+"),
        (" = ", "="),
    ):
        text = text.replace(old, new)
    words = text.split(" ")
    while len(" ".join(words)) > cols:
        # the word with the longest run of letters that can still be shortened
        runs = [(_letters(w), i) for i, w in enumerate(words)]
        longest, i = max(((len(r[1]), i) for r, i in runs if len(r[1]) >= 4), default=(0, -1))
        if not longest:
            break
        (head, run, tail), _ = runs[i]
        dot = "." if not tail or tail == "." else ""
        short = run[:4] + dot if len(run) >= 6 and dot else run[:3]
        words[i] = head + short + ("" if tail == "." else tail)
    out = " ".join(words)
    # still too long: a number joins the word before it (`lev 193` -> `lev193`), from the
    # right, before any cut could take its digits
    while len(out) > cols:
        joined = re.sub(r"(?<=[^\W\d]) (?=\d)(?!.*[^\W\d] \d)", "", out, count=1)
        if joined == out:
            break
        out = joined
    # then the spaces go, from the right (`c>100 P0/1` -> `c>100P0/1`), but a space between
    # two digits (two numbers would read as one)
    while len(out) > cols:
        spaces = [m.start() for m in re.finditer(r"(?<!\d) | (?!\d)", out.strip())]
        if not spaces:
            break
        at = len(out) - len(out.lstrip()) + spaces[-1]
        out = out[:at] + out[at + 1 :]
    return out[:cols] if cut else out


def _letters(word: str) -> tuple[str, str, str]:
    """*word* as (what comes before its first run of letters, the run, the rest)."""
    start = next((k for k, c in enumerate(word) if c.isalpha()), len(word))
    end = start
    while end < len(word) and word[end].isalpha():
        end += 1
    return word[:start], word[start:end], word[end:]


def _numbers(text: str) -> list[str]:
    """The numbers written in *text*."""
    return re.findall(r"\d+", text)


def _missing(want: list[str], text: str) -> list[str]:
    """The numbers of *want* that *text* does not show whole (each as many times)."""
    left = list(want)
    for number in _numbers(text):
        if number in left:
            left.remove(number)
    return left


def _numbers_whole(
    screen: Screen,
    body: list[str],
    status: list[str],
    cols: int,
    rows: int,
    folded: Callable[[str], str],
    glyphs: bool = True,
) -> list[str]:
    """*body*, or when it leaves out or cuts a number of the screen's lines, its amount or
    its countdown (issue 19: a 16x2 LCD showed a status row and the first line only, a
    wrapped line pushed the last one off a 20x4), a layout that shows them all: each line
    squeezed on its own row (:func:`squeeze`), under as many status rows as are left, or
    with the amount and the countdown beside the lines (:func:`with_amount`); the one that
    shows the most numbers when none shows them all."""
    want = _numbers(" ".join(screen.lines))
    for number in (screen.amount, screen.countdown):
        # a zero amount is words on the screen (no rent, nothing paid)
        if number and str(abs(number)) not in want:
            want.append(str(abs(number)))
    if not _missing(want, " ".join(body)):
        return body
    lines = [squeeze(folded(line), cols) for line in screen.lines][:rows]
    room = rows - len(lines)
    candidates = [body, status[:room] + lines, with_amount(screen, lines, cols, glyphs)]
    if room and len(status) > room:  # the row with the amount rather than the first one
        candidates += [[r, *lines] for r in status if screen.amount and str(screen.amount) in r]
    return min(candidates, key=lambda c: len(_missing(want, " ".join(c))))


def with_amount(screen: Screen, rows: list[str], cols: int, glyphs: bool = True) -> list[str]:
    """*rows* (a screen's text lines, one a row) with the screen's amount, then its
    countdown (``⏱10``), each on the right of the last row that has room for it (else of the
    last row that squeezing makes room in, never cut), when no row shows it yet: a 2-row LCD
    has no status row for them."""
    extras = []
    if screen.amount and str(abs(screen.amount)) not in _numbers(" ".join(rows)):
        extras.append(str(screen.amount))
    if screen.countdown is not None:
        extras.append((GLYPH_CLOCK if glyphs else "T-") + str(screen.countdown))
    for extra in extras:
        room = cols - len(extra) - 1
        fits = [i for i in range(len(rows)) if len(rows[i].rstrip()) <= room]
        squeezable = [i for i in range(len(rows)) if len(squeeze(rows[i], room, False)) <= room]
        if fits or squeezable:
            at = (fits or squeezable)[-1]
            text = squeeze(rows[at].rstrip(), room)
            rows = [*rows[:at], _row(text, extra, cols), *rows[at + 1 :]]
    return rows


def _title_rows(
    screen: Screen, title: TitleLayout, labels: Labels, fit: Callable[[str], str]
) -> list[str]:
    """A title card on 4 rows (the ruleset's :class:`TitleLayout`): ``12 Av. Mozart`` /
    ``chien  2 maisons`` / ``Loyer 200 €`` / the hint line."""
    lines = [*screen.lines, "", ""]
    level = screen.level or 0
    mortgaged = Icon.MORTGAGE in screen.icons
    if screen.token is None:
        owner, third = title.word("for_sale"), lines[1]
    else:
        if mortgaged:
            building = title.word("mortgaged")
        elif level >= 6:
            building = title.word("skyscraper")
        elif Icon.DEPOT in screen.icons:
            building = title.word("depot")
        elif level >= 5:
            building = title.word("hotel")
        elif level >= 1:
            building = title.word("house" if level == 1 else "houses", n=level)
        else:
            building = title.word("bare")
        owner = f"{labels.token(screen.token)}  {building}"
        rent = screen.amount is not None and not mortgaged
        money = f"{screen.amount} {labels.currency}".rstrip()
        third = title.word("rent", money=money) if rent else lines[1]
    return [fit(r) for r in (lines[0], owner, third, title.hint(screen) or "")]


def layout(
    screen: Screen,
    cols: int = 20,
    rows: int = 4,
    glyphs: bool = True,
    *,
    shows: Callable[[str], bool] | None = None,
    lang: str = "en",
    token_label: Callable[[str], str] | None = None,
    labels: Labels | None = None,
    icon_word: Callable[[Icon], str | None] | None = None,
) -> tuple[str, ...]:
    """The *rows* rows of *cols* characters an LCD shows for *screen*.

    *shows* tells which characters of the text the display can show as they are (the others
    are folded); by default everything is folded to the A00 ROM. The status row's words are in
    *lang*; *token_label* names a token as the unit does (its id when not given). *labels*
    (the edition's names, and how the ruleset's screens are laid out) take the place of *lang*
    and *token_label*."""
    LcdGeometry(cols, rows)
    blank = " " * cols
    if screen.off:
        return (blank,) * rows
    if screen.wide and all(len(line) <= cols for line in screen.wide):
        screen = replace(screen, lines=screen.wide)  # a display as wide as the emulator's
    if labels is not None:
        lang, token_label = labels.lang, labels.token
        if labels.fitted_lines or labels.title is not None:
            screen, done = _fitted_layout(screen, cols, rows, glyphs, shows, labels)
            if done is not None:
                return done
    if labels is not None and icon_word is None:
        icon_word = _art_word(labels)
    head, level, words, amount = status_parts(
        screen, glyphs, lang=lang, token_label=token_label, icon_word=icon_word
    )
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
    kept = status
    if text_rows and len(status) + len(text_rows) > rows:
        kept = status[: max(rows - len(text_rows), min(len(status), rows - 1))]
    body = (kept + text_rows)[:rows]
    if not body and screen.name:
        body = [fold(screen.name.upper(), glyphs)[:cols]]
    folded = lambda t: fold_unless(t, shows, glyphs)  # noqa: E731
    body = _numbers_whole(screen, body, status, cols, rows, folded, glyphs)
    return tuple(r.ljust(cols)[:cols] for r in body) + (blank,) * (rows - len(body))


def _art_word(labels: Labels) -> Callable[[Icon], str | None]:
    """The word of a ruleset's own icon, from its panel vocabulary's art."""

    def word_of(icon: Icon) -> str | None:
        art = labels.art(icon)
        return art.word(labels.lang) if art is not None else None

    return word_of


def _fitted_layout(
    screen: Screen,
    cols: int,
    rows: int,
    glyphs: bool,
    shows: Callable[[str], bool] | None,
    labels: Labels,
) -> tuple[Screen, tuple[str, ...] | None]:
    """The ruleset's own layouts: with *fitted_lines* each text line on one row (the unit
    writes them for 20 cells: squeezed on a narrower glass, never wrapped away) and on a 2-row
    LCD the two text lines rather than a status row; a title card on 4 rows (its *title*).
    Returns the screen with its lines fitted, and its rows when the common layout is not used."""

    def folded(text: str) -> str:
        out = fold_unless(text, shows, glyphs)
        if len(out) > cols and "…" in text:  # the A00 ROM's "..." takes three cells
            out = fold_unless(text.replace("…", "."), shows, glyphs)
        return out

    def fit(text: str) -> str:
        return squeeze(folded(text), cols)

    body: list[str] | None = None
    title = labels.title
    if title is not None and title.shows(screen) and rows >= 4:
        body = _title_rows(screen, title, labels, fit)
    elif not labels.fitted_lines:
        return screen, None
    elif rows <= 2 and len(screen.lines) == 2:
        body = with_amount(screen, [fit(line) for line in screen.lines], cols, glyphs)
    elif rows == 2 and len(screen.lines) == 1:
        line = folded(screen.lines[0])
        if len(squeeze(line, cols, cut=False)) > cols:  # both rows for a line too long for one
            body = _wrap(line, cols)
    if body is None:
        return replace(screen, lines=tuple(fit(line) for line in screen.lines)), None
    padded = tuple(r.ljust(cols)[:cols] for r in body[:rows])
    return screen, padded + (" " * cols,) * (rows - len(padded))
