"""The emulator window's geometry and its one table of controls.

What a click, a key and the help overlay do comes from the same data: :func:`shortcuts` maps
keys to :data:`Action` values, and :func:`hotspots` maps window areas (the three buttons and the
cards of the tray: the edition's bank cards, properties and event cards) to the same actions.
The window code only dispatches actions.

A game whose ruleset lays out its own tray (a :class:`bank.unit.io.Tray`: the classic games,
docs/classic.md §5.6) gets the keypad window: :func:`keypad_shortcuts` (the keypad digits,
F2-F9 for the bank cards, ``/`` and a typed card, the letters the ruleset's vocabulary gives)
and :func:`hotspots` with a 3 x 4 keypad beside the buttons and the ruleset's tray (8 bank
cards, the cards it lays out in columns, one per group, and the decks it puts on the table),
laid out from the edition's data so that a bigger board (Méga) fits the same tray.

Imports pygame (through :mod:`firmware_sim.pg`), ``bank.unit.io``, ``bank.unit.text``,
``board_assets``, :mod:`firmware_sim.words` and the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bank.unit.io import BANK, Button, CardId, CardRanges, Labels, LetterKey, Tray
from bank.unit.text import token_name
from board_assets import Edition, load_edition
from firmware_sim.lcd import LCD_SIZE
from firmware_sim.pg import pygame
from firmware_sim.words import say

#: The window's design size: everything is laid out on a canvas of this size, which is shown
#: as it is when the screen is big enough, and scaled to the window otherwise.
WINDOW_SIZE = (1120, 690)
#: Room left around the window when it is fitted to a screen (title bar, panels, docks):
#: 78 pixels of height let a 1366 x 768 laptop (the commonest) show the picture unscaled, a
#: frame costing a tenth of a millisecond there rather than the 3 ms of scaling it by 0.997
SCREEN_MARGIN = (40, 78)
UNIT_RECT = (20, 20, 540, 650)
LCD_POS = (50, 92)
BEZEL_MARGIN = 14
READER_RECT = (140, 404, 300, 112)
BUTTON_RADIUS = 42
BUTTON_CENTRES: dict[Button, tuple[int, int]] = {
    Button.OK: (160, 596),
    Button.MENU: (290, 596),
    Button.CANCEL: (420, 596),
}
TRAY_X = 590
TRAY_W = 510
BANK_Y = 44
BANK_CARD = (118, 70)
PROPS_Y = 150
PROP_CARD = (58, 62)
EVENTS_Y = 380
EVENT_CARD = (58, 44)
GAP = 6
STATUS_RECT = (TRAY_X, 540, TRAY_W, 62)
#: How long the gestures of the U and R keys hold their buttons (the unit wants 5 s).
HOLD_SECONDS = 5.5

# The keypad window's layout: the buttons move left to make room for the keypad.
KEYPAD_BUTTON_CENTRES: dict[Button, tuple[int, int]] = {
    Button.OK: (96, 596),
    Button.MENU: (206, 596),
    Button.CANCEL: (316, 596),
}
KEYPAD_READER_RECT = (40, 404, 316, 112)
KEYPAD_ORIGIN = (380, 392)
KEY_SIZE = (52, 56)
KEY_GAP = 8
#: the keypad's keys, row by row: ``back`` is ⌫, ``ok`` the second ✓
KEYPAD_ROWS = (("1", "2", "3"), ("4", "5", "6"), ("7", "8", "9"), ("back", "0", "ok"))
TRAY_BANK_Y = 44
TRAY_BANK_H = 62
TRAY_COLUMNS_Y = 144
COLUMN_CARD = (58, 62)  # at most; a bigger board gets smaller cards
#: with decks on the table: the columns end here and the decks follow, 8 cards a row
TRAY_COLUMNS_END = 330
TRAY_DECK_Y = (360, 456)
DECK_CARD_H = 28
DECK_PER_ROW = 8
KEYPAD_STATUS_RECT = (TRAY_X, 528, TRAY_W, 72)


@dataclass(frozen=True, slots=True)
class View:
    """How the canvas (:data:`WINDOW_SIZE`) is shown in a window: scaled by *scale*, its top
    left corner at *offset*, centred, with the table colour around it."""

    scale: float = 1.0
    offset: tuple[int, int] = (0, 0)

    @classmethod
    def fit(cls, window: tuple[int, int]) -> View:
        """The largest view of the whole canvas that fits *window* (never enlarged)."""
        cw, ch = WINDOW_SIZE
        scale = min(1.0, window[0] / cw, window[1] / ch)
        if scale >= 1.0:
            return cls(1.0, ((window[0] - cw) // 2, (window[1] - ch) // 2))
        w, h = round(cw * scale), round(ch * scale)
        return cls(scale, ((window[0] - w) // 2, (window[1] - h) // 2))

    @property
    def size(self) -> tuple[int, int]:
        """The canvas's size on the screen."""
        return round(WINDOW_SIZE[0] * self.scale), round(WINDOW_SIZE[1] * self.scale)

    def to_canvas(self, pos: tuple[int, int]) -> tuple[int, int]:
        """A window position (a click) as a canvas position."""
        x, y = pos
        return int((x - self.offset[0]) / self.scale), int((y - self.offset[1]) / self.scale)

    def to_window(self, pos: tuple[int, int]) -> tuple[int, int]:
        """A canvas position (a card's centre) as a window position."""
        x, y = pos
        return round(x * self.scale) + self.offset[0], round(y * self.scale) + self.offset[1]


def window_size_for(screen: tuple[int, int] | None) -> tuple[int, int]:
    """The window size to open on a screen of *screen* pixels: the design size when it fits
    with :data:`SCREEN_MARGIN` to spare, else the canvas scaled down to fit."""
    if screen is None:
        return WINDOW_SIZE
    room = (max(1, screen[0] - SCREEN_MARGIN[0]), max(1, screen[1] - SCREEN_MARGIN[1]))
    return View.fit(room).size if View.fit(room).scale < 1.0 else WINDOW_SIZE


@dataclass(frozen=True, slots=True)
class PressButton:
    """Press a button while the key or mouse button is down."""

    button: Button


@dataclass(frozen=True, slots=True)
class TapCard:
    """Put a card on the reader while the key or mouse button is down."""

    card: CardId


@dataclass(frozen=True, slots=True)
class StartEntry:
    """Begin typing a card number (P for properties, E for events)."""

    kind: str


@dataclass(frozen=True, slots=True)
class HoldGesture:
    """Press *buttons* together and release them after *seconds*."""

    buttons: tuple[Button, ...]
    seconds: float


@dataclass(frozen=True, slots=True)
class PressKey:
    """Press a keypad key (``0``-``9``, ``back`` for ⌫) while the key or mouse button is down."""

    key: str


@dataclass(frozen=True, slots=True)
class BackKey:
    """Backspace in the keypad window: ⌫ while an entry is open on the LCD, else X."""


@dataclass(frozen=True, slots=True)
class AskInfo:
    """Ask the unit an info screen (``table``, ``turn``, ...): the computer game's keys."""

    name: str


@dataclass(frozen=True, slots=True)
class AskMenu:
    """Ask the unit a menu item (D: 11, H: 7 ...): what M and the item's digits do."""

    item: int


@dataclass(frozen=True, slots=True)
class ToggleHelp:
    """Show or hide the help overlay."""


@dataclass(frozen=True, slots=True)
class Screenshot:
    """Save the window as a PNG in the current directory."""


Action = (
    PressButton
    | TapCard
    | StartEntry
    | HoldGesture
    | ToggleHelp
    | Screenshot
    | PressKey
    | BackKey
    | AskInfo
    | AskMenu
)


@dataclass(frozen=True, slots=True)
class Shortcut:
    """Keys that trigger *action*: pygame key codes (layout-mapped), typed characters, or
    scancodes (physical positions: the digit row, whatever the keyboard layout).

    *label* and *help* are message ids of :mod:`firmware_sim.words` (formatted with *fields*);
    *plain_label* is a label that is the same in every language (a digit). *mods* is
    ``"shift"`` or ``"ctrl"`` for a key that means something else with that modifier (Shift+V,
    Ctrl+R); *listed* False keeps a shortcut out of the help (the 2nd to 10th digit: one row
    says them all)."""

    label: str
    help: str
    action: Action
    keys: tuple[int, ...] = ()
    chars: tuple[str, ...] = ()
    scancodes: tuple[int, ...] = ()
    fields: tuple[tuple[str, object], ...] = ()
    plain_label: str = ""
    mods: str = ""
    listed: bool = True
    #: what the shortcut does, written already (the ruleset's words, in the game's language)
    plain_help: str = ""

    def texts(self, lang: str) -> tuple[str, str]:
        """The help overlay's row for this shortcut in *lang*: (keys, what they do)."""
        fields = dict(self.fields)
        if "token" in fields:
            fields["token"] = token_name(lang, str(fields["token"]))
        label = self.plain_label or say(lang, self.label)
        return label, self.plain_help or say(lang, self.help, **fields)


def shortcuts(cards: CardRanges) -> tuple[Shortcut, ...]:
    """The keyboard's controls for a game with *cards* (one digit key per bank card, up to 9)."""
    return (
        Shortcut("key.ok", "help.ok", PressButton(Button.OK),
                 keys=(pygame.K_RETURN, pygame.K_KP_ENTER)),
        Shortcut("key.menu", "help.menu", PressButton(Button.MENU), keys=(pygame.K_m,)),
        Shortcut("key.cancel", "help.cancel", PressButton(Button.CANCEL),
                 keys=(pygame.K_ESCAPE, pygame.K_BACKSPACE)),
        *(
            Shortcut(
                "",
                "help.bank",
                TapCard(CardId("bank", n)),
                keys=(getattr(pygame, f"K_{n}"), getattr(pygame, f"K_KP{n}")),
                chars=(str(n),),
                scancodes=(getattr(pygame, f"KSCAN_{n}"),),
                fields=(("n", n), ("token", cards.token(n))),
                plain_label=str(n),
            )
            for n in range(1, min(cards.bank, 9) + 1)
        ),
        Shortcut("key.prop", "help.prop", StartEntry("prop"), keys=(pygame.K_p,),
                 fields=(("count", cards.count("prop")),)),
        Shortcut("key.event", "help.event", StartEntry("event"), keys=(pygame.K_e,),
                 fields=(("count", cards.count("event")),)),
        Shortcut("key.undo", "help.undo", HoldGesture((Button.OK, Button.CANCEL), HOLD_SECONDS),
                 keys=(pygame.K_u,), fields=(("seconds", f"{HOLD_SECONDS:g}"),)),
        Shortcut("key.reset", "help.reset", HoldGesture((Button.CANCEL,), HOLD_SECONDS),
                 keys=(pygame.K_r,), fields=(("seconds", f"{HOLD_SECONDS:g}"),)),
        Shortcut("key.help", "help.help", ToggleHelp(), keys=(pygame.K_F1,), chars=("?",)),
        Shortcut("key.shot", "help.shot", Screenshot(), keys=(pygame.K_F12,)),
    )  # fmt: skip


def _letter(key: LetterKey) -> Shortcut:
    """A letter of the ruleset's vocabulary as a window shortcut."""
    action: Action
    if key.info:
        action = AskInfo(key.info)
    elif key.menu:
        action = AskMenu(key.menu)
    else:
        action = PressButton(key.button or Button.OK)
    return Shortcut("", "", action, keys=(getattr(pygame, f"K_{key.letter}"),),
                    mods="shift" if key.shift else "", listed=key.listed,
                    plain_label=key.label or key.letter.upper(), plain_help=key.words)  # fmt: skip


def keypad_shortcuts(cards: CardRanges, labels: Labels | None = None) -> tuple[Shortcut, ...]:
    """The keypad window's keys: the keypad digits on both digit rows, F2-F9 for the bank
    cards, ``/`` and a typed card, and the letters of the ruleset's vocabulary (*labels*)."""
    labels = labels or Labels()
    undo = HoldGesture((Button.OK, Button.CANCEL), HOLD_SECONDS)
    seconds = f"{HOLD_SECONDS:g}"
    seats = min(cards.bank, 8)
    words = labels.words
    early = tuple(_letter(k) for k in labels.window_keys if k.early)
    late = tuple(_letter(k) for k in labels.window_keys if not k.early)
    return (
        Shortcut("key.pad.ok", "help.pad.ok", PressButton(Button.OK),
                 keys=(pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)),
        Shortcut("key.pad.cancel", "help.cancel", PressButton(Button.CANCEL),
                 keys=(pygame.K_ESCAPE,)),
        Shortcut("key.pad.back", "help.pad.back", BackKey(), keys=(pygame.K_BACKSPACE,)),
        Shortcut("key.menu", "help.menu", PressButton(Button.MENU), keys=(pygame.K_m,)),
        *(
            Shortcut("", "help.pad.digits", PressKey(str(d)),
                     keys=(getattr(pygame, f"K_{d}"), getattr(pygame, f"K_KP{d}")),
                     chars=(str(d),), scancodes=(getattr(pygame, f"KSCAN_{d}"),),
                     plain_label="0-9", listed=d == 0)
            for d in range(10)
        ),
        *(
            Shortcut("", "help.pad.bank", TapCard(CardId(BANK, n)),
                     keys=(getattr(pygame, f"K_F{n + 1}"),), plain_label=f"F2-F{seats + 1}",
                     fields=(("last", seats),), listed=n == 1)
            for n in range(1, seats + 1)
        ),
        Shortcut("key.typed", "help.typed", StartEntry("card"), keys=(pygame.K_KP_DIVIDE,),
                 chars=("/",), plain_label=words.get("typed.key", ""),
                 plain_help=words.get("typed.help", "")),
        *early,
        Shortcut("key.undo", "help.undo", undo, keys=(pygame.K_u,),
                 fields=(("seconds", seconds),)),
        Shortcut("key.pad.reset", "help.reset", HoldGesture((Button.CANCEL,), HOLD_SECONDS),
                 keys=(pygame.K_r,), mods="ctrl", fields=(("seconds", seconds),)),
        Shortcut("key.help", "help.help", ToggleHelp(), keys=(pygame.K_F1,), chars=("?",)),
        Shortcut("key.shot", "help.shot", Screenshot(), keys=(pygame.K_F12,)),
        *late,
    )  # fmt: skip


#: the controls for the default edition (the emulator builds its own edition's)
SHORTCUTS: tuple[Shortcut, ...] = shortcuts(CardRanges.of(load_edition()))

#: What the mouse does, for the help overlay: (gesture, what it does) message ids.
MOUSE_HELP: tuple[tuple[str, str], ...] = (
    ("mouse.card", "help.mouse.card"),
    ("mouse.button", "help.mouse.button"),
    ("mouse.latch", "help.mouse.latch"),
)


def shortcut_for_key(
    key: int,
    char: str,
    scancode: int = 0,
    table: tuple[Shortcut, ...] = SHORTCUTS,
    mod: int = 0,
) -> Shortcut | None:
    """The shortcut of *table* bound to key code *key*, typed character *char* or *scancode*;
    with modifiers *mod*, a shortcut naming that modifier (Ctrl+R) before the plain key's."""
    held = "ctrl" if mod & pygame.KMOD_CTRL else "shift" if mod & pygame.KMOD_SHIFT else ""
    if held:
        for sc in table:
            if sc.mods == held and key in sc.keys:
                return sc
    for sc in table:
        if not sc.mods and key in sc.keys:
            return sc
    if char:
        for sc in table:
            if not sc.mods and char in sc.chars:
                return sc
    if scancode:
        for sc in table:
            if not sc.mods and scancode in sc.scancodes:
                return sc
    return None


#: The digit row by physical position (an AZERTY "1" key sends "&" unshifted).
DIGIT_SCANCODES = {getattr(pygame, f"KSCAN_{d}"): str(d) for d in range(10)}
DIGIT_KEYS = {getattr(pygame, f"K_{d}"): str(d) for d in range(10)} | {
    getattr(pygame, f"K_KP{d}"): str(d) for d in range(10)
}


def digit_of(key: int, char: str, scancode: int = 0) -> str | None:
    """The digit a key press means while a card number is typed, if any."""
    if key in DIGIT_KEYS:
        return DIGIT_KEYS[key]
    if len(char) == 1 and char.isdigit():
        return char
    return DIGIT_SCANCODES.get(scancode)


_TYPED = re.compile(r"^([a-z])(\d{1,3})$")


def typed_card(
    text: str, cards: CardRanges, letters: Mapping[str, str] | None = None
) -> CardId | None:
    """The card a ``/`` entry names (``b5``, a letter of the ruleset's vocabulary and a number:
    ``d12``, ``c3``, or ``deed:12``), if the game has it. *letters*: the vocabulary's letter
    of each card kind (:attr:`Labels.keys`); ``b`` is a bank card's."""
    kinds = {"b": BANK, **(letters or {})}
    t = text.strip().lower()
    m = _TYPED.match(t)
    try:
        if m is None or m[1] not in kinds:
            return CardId.parse(t, cards)
        card = CardId(kinds[m[1]], int(m[2]))
    except ValueError:
        return None
    return card if cards.fits(card) else None


def help_rows(lang: str = "en", table: tuple[Shortcut, ...] = SHORTCUTS) -> list[tuple[str, str]]:
    """The rows of the help overlay in *lang*: (keys or mouse gesture, what it does)."""
    rows = [sc.texts(lang) for sc in table if sc.listed]
    return rows + [(say(lang, gesture), say(lang, what)) for gesture, what in MOUSE_HELP]


@dataclass(frozen=True, slots=True)
class Hotspot:
    """A clickable area: a rectangle, or the circle inscribed in it."""

    rect: tuple[int, int, int, int]
    action: PressButton | TapCard | PressKey
    round: bool = False

    def contains(self, pos: tuple[int, int]) -> bool:
        x, y, w, h = self.rect
        if self.round:
            cx, cy, r = x + w / 2, y + h / 2, w / 2
            return (pos[0] - cx) ** 2 + (pos[1] - cy) ** 2 <= r * r
        return x <= pos[0] < x + w and y <= pos[1] < y + h

    @property
    def centre(self) -> tuple[int, int]:
        x, y, w, h = self.rect
        return x + w // 2, y + h // 2


def bezel_rect() -> tuple[int, int, int, int]:
    """The dark frame around the LCD glass."""
    m = BEZEL_MARGIN
    return LCD_POS[0] - m, LCD_POS[1] - m, LCD_SIZE[0] + 2 * m, LCD_SIZE[1] + 2 * m


def button_hotspots(keypad: bool = False) -> list[Hotspot]:
    """The three round buttons (moved left in the keypad window, for the keypad)."""
    r = BUTTON_RADIUS
    centres = KEYPAD_BUTTON_CENTRES if keypad else BUTTON_CENTRES
    return [
        Hotspot((cx - r, cy - r, 2 * r, 2 * r), PressButton(b), round=True)
        for b, (cx, cy) in centres.items()
    ]


def keypad_hotspots() -> list[Hotspot]:
    """The keypad window's 3 x 4 keypad: ``1 2 3 / 4 5 6 / 7 8 9 / ⌫ 0 ✓``."""
    x0, y0 = KEYPAD_ORIGIN
    w, h = KEY_SIZE
    return [
        Hotspot(
            (x0 + col * (w + KEY_GAP), y0 + row * (h + KEY_GAP), w, h),
            PressButton(Button.OK) if key == "ok" else PressKey(key),
        )
        for row, keys in enumerate(KEYPAD_ROWS)
        for col, key in enumerate(keys)
    ]


def column_rects(
    columns: Sequence[int], top: int, bottom: int
) -> list[list[tuple[int, int, int, int]]]:
    """The places of the cards in the tray's columns: *columns* gives each column's count; the
    cards shrink to fit the tray's width and the height from *top* to *bottom*."""
    if not columns:
        return []
    n, rows = len(columns), max(columns)
    w = min(COLUMN_CARD[0], (TRAY_W - GAP * (n - 1)) // n)
    h = min(COLUMN_CARD[1], (bottom - top - GAP * (rows - 1)) // rows)
    return [
        [(TRAY_X + col * (w + GAP), top + row * (h + GAP), w, h) for row in range(count)]
        for col, count in enumerate(columns)
    ]


def deck_rects(count: int, top: int) -> list[tuple[int, int, int, int]]:
    """The places of a deck's *count* cards on the tray, :data:`DECK_PER_ROW` a row."""
    w = (TRAY_W - GAP * (DECK_PER_ROW - 1)) // DECK_PER_ROW
    h = DECK_CARD_H
    return [
        (TRAY_X + (i % DECK_PER_ROW) * (w + GAP), top + (i // DECK_PER_ROW) * (h + GAP), w, h)
        for i in range(count)
    ]


def tray_card_hotspots(edition: Edition, tray: Tray) -> list[Hotspot]:
    """A ruleset's tray: the 8 bank cards, the cards of the tray's columns (one column per
    group), then the cards of each deck on the table."""
    cards = CardRanges.of(edition)
    seats = cards.bank
    bw = (TRAY_W - GAP * (seats - 1)) // max(seats, 1)
    spots = [
        Hotspot((TRAY_X + (n - 1) * (bw + GAP), TRAY_BANK_Y, bw, TRAY_BANK_H),
                TapCard(CardId("bank", n)))
        for n in range(1, seats + 1)
    ]  # fmt: skip
    columns = tray.columns
    decks = tray.decks
    bottom = TRAY_COLUMNS_END if decks else KEYPAD_STATUS_RECT[1] - 16
    for members, rects in zip(
        columns, column_rects([len(m) for m in columns], TRAY_COLUMNS_Y, bottom), strict=True
    ):
        spots += [
            Hotspot(r, TapCard(CardId(tray.column_kind, n)))
            for n, r in zip(members, rects, strict=True)
        ]
    for kind, top in zip(decks, TRAY_DECK_Y, strict=False):
        rects = deck_rects(cards.count(kind), top)
        spots += [Hotspot(r, TapCard(CardId(kind, i + 1))) for i, r in enumerate(rects)]
    return spots


def card_hotspots(edition: Edition) -> list[Hotspot]:
    """The cards of the tray: bank cards, then properties in one column per colour group,
    then event cards."""
    spots: list[Hotspot] = []
    cards = CardRanges.of(edition)
    # four bank cards at full width; more share the tray's width (eight seats fit)
    bw = min(BANK_CARD[0], (TRAY_W - 8 * (cards.bank - 1)) // max(cards.bank, 1))
    bh = BANK_CARD[1]
    for n in range(1, cards.bank + 1):
        x = TRAY_X + (n - 1) * (bw + 8)
        spots.append(Hotspot((x, BANK_Y, bw, bh), TapCard(CardId("bank", n))))
    pw, ph = PROP_CARD
    for col, group in enumerate(edition.groups):
        for row, number in enumerate(edition.group_members(group.id)):
            x = TRAY_X + col * (pw + GAP)
            y = PROPS_Y + row * (ph + GAP)
            spots.append(Hotspot((x, y, pw, ph), TapCard(CardId("prop", number))))
    ew, eh = EVENT_CARD
    for i in range(cards.count("event")):
        x = TRAY_X + (i % 8) * (ew + GAP)
        y = EVENTS_Y + (i // 8) * (eh + GAP)
        spots.append(Hotspot((x, y, ew, eh), TapCard(CardId("event", i + 1))))
    return spots


def hotspots(edition: Edition, tray: Tray | None = None) -> list[Hotspot]:
    """Every clickable area of the window: the keypad window's when the ruleset lays out its
    own *tray* (the keypad window), else the window's own tray of the edition's cards."""
    if tray is not None:
        return button_hotspots(True) + keypad_hotspots() + tray_card_hotspots(edition, tray)
    return button_hotspots() + card_hotspots(edition)


def hotspot_at(spots: list[Hotspot], pos: tuple[int, int]) -> Hotspot | None:
    """The hotspot under *pos*, if any."""
    for spot in spots:
        if spot.contains(pos):
            return spot
    return None
