"""The unit's LCD: draws a :class:`bank.unit.io.Screen` as custom segment glass.

The glass has fixed elements, each always visible as a faint ghost and darkened when the screen
model lights it: a row of ten status icons, the property number (two small seven-segment
digits), the amount (a minus sign and five large digits), a five-step level bar, the four
players' tokens, the auction countdown (a clock and two digits), the currency legend and three
rows of 5×7 dot-matrix text. ``Screen.off`` gives blank glass.

A classic game's glass (``token_labels``: docs/classic.md §5.5) has no token pictograms: the token
area writes the player's label (``chien``, up to 8 characters) in small dot-matrix letters.

:meth:`LcdRenderer.render` is a pure function of the screen: the same screen gives the same
pixels. :class:`LcdLayout` says where each element is, so tests can read the glass back.

Imports pygame (through :mod:`firmware_sim.pg`), the emulator's drawing modules and
``bank.unit.io``.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field

from bank.unit.io import Icon, IconArt, Screen, TitleLayout
from firmware_sim.dotfont import DotMatrix, fold, wrap
from firmware_sim.icons import (
    ICON_SIZE,
    PICTOGRAM_TOKENS,
    TOKEN_SIZE,
    art_surface,
    icon_surface,
    token_surface,
)
from firmware_sim.pg import pygame
from firmware_sim.segments import SegmentGeometry, SevenSegment, digits_text

Colour = tuple[int, int, int]

GLASS: Colour = (157, 170, 136)
ON: Colour = (26, 34, 22)
GHOST: Colour = (146, 159, 126)
BEZEL: Colour = (40, 40, 44)

LCD_SIZE = (480, 272)
#: how many text rows :class:`LcdRenderer` keeps drawn (a row is some 45 kB)
ROW_CACHE = 48
AMOUNT_CELLS = 5
TEXT_ROWS = 3
TEXT_COLS = 25
LEVELS = 5
#: Méga's skyscraper (docs/classic.md §5.5): the level after the hotel's 5 bars
SKYSCRAPER_LEVEL = 6
#: how many characters of a player's label the token area writes (docs/classic.md §5.5)
TOKEN_LABEL_CELLS = 8
#: The order of the icons on the glass, left to right.
ICON_ORDER: tuple[Icon, ...] = (
    Icon.GO,
    Icon.JAIL,
    Icon.LOCATION,
    Icon.AUCTION,
    Icon.EVENT,
    Icon.DEBT,
    Icon.UNDO,
    Icon.TROPHY,
    Icon.ERROR,
    Icon.READER_LOST,
    # the classic icons (docs/classic.md §5.5): a smaller 5 x 2 block under the number
    Icon.MORTGAGE,
    Icon.TAX,
    Icon.DICE,
    Icon.TRADE,
    Icon.POT,
    Icon.CARD,
    Icon.SKYSCRAPER,
    Icon.DEPOT,
    Icon.FORCE,
    Icon.KEYPAD,
)
assert set(ICON_ORDER) == set(Icon)
#: how many icons the top row holds at full size
TOP_ICONS = 10

Rect = tuple[int, int, int, int]
_BIG = SegmentGeometry(height=96, width=46, thickness=12, gap=1)
_SMALL = SegmentGeometry(height=52, width=26, thickness=7, gap=1)
_TINY = SegmentGeometry(height=30, width=17, thickness=5, gap=1)


def _rect(x: int, y: int, w: int, h: int) -> Rect:
    return (x, y, w, h)


@dataclass(frozen=True, slots=True)
class LcdLayout:
    """Where every element of the glass is, in the LCD surface's pixels."""

    size: tuple[int, int] = LCD_SIZE
    big: SegmentGeometry = _BIG
    big_spacing: int = 8
    amount_origin: tuple[int, int] = (160, 40)
    sign: Rect = (128, 82, 26, 12)
    small: SegmentGeometry = _SMALL
    small_spacing: int = 5
    number_origin: tuple[int, int] = (40, 56)
    number_legend: tuple[int, int] = (12, 56)
    tiny: SegmentGeometry = _TINY
    tiny_spacing: int = 3
    countdown_origin: tuple[int, int] = (350, 144)
    clock_centre: tuple[int, int] = (333, 159)
    currency_origin: tuple[int, int] = (408, 152)
    icons_origin: tuple[int, int] = (15, 4)
    icon_step: int = 46
    #: the icons after the first ten (the classic ones) in a block of this many columns, at
    #: half size, between the number and the level bars
    small_icon_columns: int = 5
    small_icons_origin: tuple[int, int] = (8, 110)
    small_icon_size: tuple[int, int] = (22, 17)
    small_icon_step: tuple[int, int] = (24, 19)
    levels_origin: tuple[int, int] = (14, 148)
    level_bar_width: int = 14
    level_step: int = 19
    #: Méga's skyscraper: a sixth, taller and narrower bar after the five, drawn only when lit
    #: (with the skyscraper icon), so that the Ultime glass is unchanged
    skyscraper_bar: Rect = (108, 147, 8, 27)
    tokens_origin: tuple[int, int] = (120, 150)
    token_step: int = 46
    #: three rows of 5 x 9 cells (descenders included) under the tokens: a row is 26 pixels
    #: tall (9 dots 3 pixels apart), 3 pixels from the next
    text_origin: tuple[int, int] = (16, 182)
    text_pitch: int = 3
    text_dot: int = 2
    text_row_step: int = 29
    text_rows: int = TEXT_ROWS
    text_cols: int = TEXT_COLS
    #: a ruleset's own icons (its panel vocabulary's art): first in the small block, lit only
    extra_icons: tuple[Icon, ...] = ()
    icon_rects: dict[Icon, Rect] = field(init=False)
    token_rects: dict[str, Rect] = field(init=False)
    level_rects: tuple[Rect, ...] = field(init=False)

    def __post_init__(self) -> None:
        x0, y0 = self.icons_origin
        w, h = ICON_SIZE
        icons = {
            icon: _rect(x0 + i * self.icon_step, y0, w, h)
            for i, icon in enumerate(ICON_ORDER[:TOP_ICONS])
        }
        sx, sy = self.small_icons_origin
        sw, sh = self.small_icon_size
        dx, dy = self.small_icon_step
        small = (*self.extra_icons, *ICON_ORDER[TOP_ICONS:])
        for i, icon in enumerate(dict.fromkeys(small)):
            row, col = divmod(i, self.small_icon_columns)
            icons[icon] = _rect(sx + col * dx, sy + row * dy, sw, sh)
        tx, ty = self.tokens_origin
        tw, th = TOKEN_SIZE
        tokens = {
            t: _rect(tx + i * self.token_step, ty, tw, th) for i, t in enumerate(PICTOGRAM_TOKENS)
        }
        lx, ly = self.levels_origin
        bars = tuple(
            _rect(lx + i * self.level_step, ly + 20 - 5 * i, self.level_bar_width, 6 + 5 * i)
            for i in range(LEVELS)
        )
        object.__setattr__(self, "icon_rects", icons)
        object.__setattr__(self, "token_rects", tokens)
        object.__setattr__(self, "level_rects", bars)

    def amount_cell(self, index: int) -> tuple[int, int]:
        """Top-left of amount digit *index* (0 = leftmost)."""
        x, y = self.amount_origin
        return x + index * (self.big.cell_width + self.big_spacing), y

    def number_cell(self, index: int) -> tuple[int, int]:
        """Top-left of property-number digit *index* (0 = tens)."""
        x, y = self.number_origin
        return x + index * (self.small.cell_width + self.small_spacing), y

    def countdown_cell(self, index: int) -> tuple[int, int]:
        """Top-left of countdown digit *index* (0 = tens)."""
        x, y = self.countdown_origin
        return x + index * (self.tiny.cell_width + self.tiny_spacing), y

    def text_row(self, row: int) -> tuple[int, int]:
        """Top-left dot of text row *row*."""
        x, y = self.text_origin
        return x, y + row * self.text_row_step


def glass_rows(
    screen: Screen, title: TitleLayout | None, cols: int = TEXT_COLS, rows: int = TEXT_ROWS
) -> list[str]:
    """The dot-matrix rows of the glass for *screen*: its lines written for the glass's own
    width when the unit gave them (:attr:`Screen.wide`, issue 19: the whole words the 20 cells
    of a character LCD shorten), else its lines; word-wrapped to *cols*, and under a title
    card of the ruleset's *title* layout the character LCD's hint on the last row."""
    out = wrap(screen.wide or screen.lines, cols, rows)
    hint = title.hint(screen) if title is not None else None
    if hint is not None and len(out) < rows:  # the character LCD's hint row
        out = [*out, *[""] * (rows - 1 - len(out)), fold(hint)]
    return out


class LcdRenderer:
    """Renders screens onto LCD-sized surfaces; keeps its glyph and pictogram caches."""

    def __init__(
        self,
        currency: str = "M€",
        layout: LcdLayout | None = None,
        token_labels: Mapping[str, str] | None = None,
        title: TitleLayout | None = None,
        art: tuple[IconArt, ...] = (),
    ) -> None:
        """*title*: the ruleset's title card layout, for the hint row under a title card (None:
        no hint row). *art*: the ruleset's own icons (its panel vocabulary), drawn from their
        bitmaps in the small block."""
        extra = tuple(a.icon for a in art if a.icon not in ICON_ORDER)
        self.layout = layout or LcdLayout(extra_icons=extra)
        self._art = {a.icon: a for a in art}
        self.title = title
        self.currency = fold(currency)
        #: token -> the label the token area writes (a classic edition); None: pictograms
        self.token_labels = token_labels
        lay = self.layout
        self.big = SevenSegment(lay.big, ON, GHOST)
        self.small = SevenSegment(lay.small, ON, GHOST)
        self.tiny = SevenSegment(lay.tiny, ON, GHOST)
        self.text = DotMatrix(lay.text_pitch, lay.text_dot, ON, GHOST)
        self.legend = DotMatrix(2, 2, ON, None)
        self.legend_ghost = DotMatrix(2, 2, GHOST, None)
        self._icons = {
            (icon, lit): self._icon_surface(icon, ON if lit else GHOST)
            for icon in self.layout.icon_rects
            for lit in (False, True)
        }
        self._tokens = {
            (tok, lit): token_surface(tok, ON if lit else GHOST)
            for tok in PICTOGRAM_TOKENS
            for lit in (False, True)
        }
        #: text -> the drawn row, the most recently used last
        self._rows: OrderedDict[str, pygame.Surface] = OrderedDict()
        #: screen -> its elements, for the last two screens compared (:meth:`changed_rects`)
        self._element_cache: dict[Screen, dict[object, tuple[pygame.Rect, object]]] = {}
        self._blank = self._draw_blank()

    def _draw_blank(self) -> pygame.Surface:
        """The glass with every element ghosted: what a screen with nothing lit shows."""
        surf = pygame.Surface(self.layout.size)
        surf.fill(GLASS)
        self._draw(surf, Screen(name="blank"), everything=True)
        return surf

    def render(self, screen: Screen) -> pygame.Surface:
        """A new LCD-sized surface showing *screen*."""
        if screen.off:
            surf = pygame.Surface(self.layout.size)
            surf.fill(GLASS)
            return surf
        surf = self._blank.copy()
        self._draw(surf, screen)
        return surf

    def changed_rects(self, before: Screen | None, after: Screen) -> list[pygame.Rect]:
        """Where the glass showing *after* differs from the glass showing *before* (None:
        unknown, all of it), element by element: a redraw of these rectangles alone leaves
        the glass as a whole render would."""
        whole = [pygame.Rect((0, 0), self.layout.size)]
        if before is None or before.off or after.off:
            return whole if before != after else []
        old, new = self._elements_of(before), self._elements_of(after)
        rects = [rect for key, (rect, state) in new.items() if old[key][1] != state]
        if len(rects) > 8:  # many small pieces: one rectangle around them
            return [rects[0].unionall(rects[1:])]
        return rects

    def _elements_of(self, screen: Screen) -> dict[object, tuple[pygame.Rect, object]]:
        """:meth:`_elements`, kept for the last screens asked: a frame compares the screen it
        shows with the one the last frame showed, whose elements it worked out then."""
        cache = self._element_cache
        elements = cache.get(screen)
        if elements is None:
            elements = self._elements(screen)
            cache[screen] = elements
            while len(cache) > 2:
                del cache[next(iter(cache))]
        return elements

    def _elements(self, screen: Screen) -> dict[object, tuple[pygame.Rect, object]]:
        """Every element of the glass: where it is and what it shows for *screen*."""
        lay = self.layout
        out: dict[object, tuple[pygame.Rect, object]] = {}
        skyscraper = screen.level is not None and screen.level >= SKYSCRAPER_LEVEL
        icons = screen.icons | {Icon.SKYSCRAPER} if skyscraper else screen.icons
        for icon, rect in lay.icon_rects.items():
            out["icon", icon] = (pygame.Rect(rect), icon in icons)
        if self.token_labels is None:
            for tok, rect in lay.token_rects.items():
                out["token", tok] = (pygame.Rect(rect), tok == screen.token)
        else:
            x, y, _, _ = lay.token_rects[PICTOGRAM_TOKENS[0]]
            area = pygame.Rect(x, y + 4, TOKEN_LABEL_CELLS * self.legend.cell_width,
                               self.legend.cell_height)  # fmt: skip
            label = self.token_labels.get(screen.token, screen.token) if screen.token else ""
            out["label"] = (area, label)
        for i, rect in enumerate(lay.level_rects):
            out["level", i] = (pygame.Rect(rect), screen.level is not None and i < screen.level)
        out["skyscraper"] = (pygame.Rect(lay.skyscraper_bar), skyscraper)
        amount = screen.amount
        out["sign"] = (pygame.Rect(lay.sign), amount is not None and amount < 0)
        big = (lay.big.cell_width, lay.big.height + 1)
        for i, ch in enumerate(digits_text(amount, AMOUNT_CELLS)):
            out["amount", i] = (pygame.Rect(lay.amount_cell(i), big), ch)
        legend = (self.legend.text_width(self.currency) + 2, self.legend.cell_height)
        out["currency"] = (pygame.Rect(lay.currency_origin, legend), amount is not None)
        small = (lay.small.cell_width, lay.small.height + 1)
        for i, ch in enumerate(digits_text(screen.number, 2)):
            out["number", i] = (pygame.Rect(lay.number_cell(i), small), ch)
        legend = (self.legend.text_width("N°") + 2, self.legend.cell_height)
        out["N°"] = (pygame.Rect(lay.number_legend, legend), screen.number is not None)
        tiny = (lay.tiny.cell_width, lay.tiny.height + 1)
        for i, ch in enumerate(digits_text(screen.countdown, 2)):
            out["countdown", i] = (pygame.Rect(lay.countdown_cell(i), tiny), ch)
        cx, cy = lay.clock_centre
        out["clock"] = (pygame.Rect(cx - 13, cy - 13, 27, 27), screen.countdown is not None)
        rows = self._rows_of(screen)
        size = (lay.text_cols * self.text.cell_width, self.text.cell_height)
        for r in range(lay.text_rows):
            out["row", r] = (pygame.Rect(lay.text_row(r), size), rows[r])
        return out

    def _rows_of(self, screen: Screen) -> list[str]:
        """The text rows the glass shows for *screen*, blank ones included."""
        lay = self.layout
        rows = glass_rows(screen, self.title, lay.text_cols, lay.text_rows)
        return [rows[r] if r < len(rows) else "" for r in range(lay.text_rows)]

    def _icon_surface(self, icon: Icon, colour: Colour) -> pygame.Surface:
        """The pictogram of *icon*, scaled to its place on the glass."""
        art = self._art.get(icon) if icon not in ICON_ORDER else None
        surf = art_surface(art.rows, colour) if art is not None else icon_surface(icon, colour)
        size = self.layout.icon_rects[icon][2:]
        if surf.get_size() == size:
            return surf
        if colour == GHOST:  # the small block shows only when lit: the Ultime glass is unchanged
            return pygame.Surface(size, pygame.SRCALPHA)
        # an LCD segment is on or off: the scaled pictogram's half-covered pixels decide
        scaled = pygame.transform.smoothscale(surf, size)
        return pygame.mask.from_surface(scaled, 100).to_surface(
            setcolor=(*colour, 255), unsetcolor=(0, 0, 0, 0)
        )

    def draw(self, target: pygame.Surface, screen: Screen, topleft: tuple[int, int]) -> None:
        """Blit *screen* onto *target* at *topleft*."""
        target.blit(self.render(screen), topleft)

    def _draw(self, surf: pygame.Surface, screen: Screen, *, everything: bool = False) -> None:
        """Draw *screen* on *surf*: over the blank glass (which already shows every element
        ghosted), only what is lit; with *everything*, the ghosted elements too (the blank)."""
        lay = self.layout
        skyscraper = screen.level is not None and screen.level >= SKYSCRAPER_LEVEL
        # level 6 is a skyscraper: 5 bars, the sixth bar and the skyscraper icon (§5.5)
        icons = screen.icons | {Icon.SKYSCRAPER} if skyscraper else screen.icons
        for icon, rect in lay.icon_rects.items():
            if everything or icon in icons:
                surf.blit(self._icons[icon, icon in icons], rect[:2])
        if self.token_labels is None:
            for tok, rect in lay.token_rects.items():
                if everything or tok == screen.token:
                    surf.blit(self._tokens[tok, tok == screen.token], rect[:2])
        elif screen.token:
            label = fold(self.token_labels.get(screen.token, screen.token))[:TOKEN_LABEL_CELLS]
            x, y, _, _ = lay.token_rects[PICTOGRAM_TOKENS[0]]
            self.legend.draw(surf, label, (x, y + 4))
        for i, rect in enumerate(lay.level_rects):
            lit = screen.level is not None and i < screen.level
            if everything or lit:
                surf.fill(ON if lit else GHOST, pygame.Rect(rect))
        if skyscraper:
            surf.fill(ON, pygame.Rect(lay.skyscraper_bar))
        # The amount: a minus sign and five digits, blank cells ghosted as "8".
        amount = screen.amount
        if everything or (amount is not None and amount < 0):
            surf.fill(ON if amount is not None and amount < 0 else GHOST, pygame.Rect(lay.sign))
        for i, ch in enumerate(digits_text(amount, AMOUNT_CELLS)):
            if everything or ch != " ":
                surf.blit(self.big.cell(ch), lay.amount_cell(i))
        if everything or amount is not None:
            legend = self.legend if amount is not None else self.legend_ghost
            legend.draw(surf, self.currency, lay.currency_origin)
        for i, ch in enumerate(digits_text(screen.number, 2)):
            if everything or ch != " ":
                surf.blit(self.small.cell(ch), lay.number_cell(i))
        if everything or screen.number is not None:
            (self.legend if screen.number is not None else self.legend_ghost).draw(
                surf, "N°", lay.number_legend
            )
        countdown = screen.countdown
        for i, ch in enumerate(digits_text(countdown, 2)):
            if everything or ch != " ":
                surf.blit(self.tiny.cell(ch), lay.countdown_cell(i))
        if everything or countdown is not None:
            self._clock(surf, ON if countdown is not None else GHOST)
        for r, text in enumerate(self._rows_of(screen)):
            if everything or text.strip():
                surf.blit(self._row(text.center(lay.text_cols)), lay.text_row(r))

    def _row(self, text: str) -> pygame.Surface:
        """One row of dot-matrix text, ghosted cells included (kept for the next screens)."""
        row = self._rows.get(text)
        if row is not None:
            self._rows.move_to_end(text)
            return row
        dots = self.text
        row = pygame.Surface((len(text) * dots.cell_width, dots.cell_height), pygame.SRCALPHA)
        dots.draw(row, text, (0, 0))
        self._rows[text] = row
        if len(self._rows) > ROW_CACHE:
            self._rows.popitem(last=False)
        return row

    def _clock(self, surf: pygame.Surface, colour: Colour) -> None:
        cx, cy = self.layout.clock_centre
        pygame.draw.circle(surf, colour, (cx, cy), 11, width=3)
        pygame.draw.line(surf, colour, (cx, cy), (cx, cy - 7), width=2)
        pygame.draw.line(surf, colour, (cx, cy), (cx + 5, cy), width=2)
