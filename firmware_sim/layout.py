"""The emulator window's geometry and its one table of controls.

What a click, a key and the help overlay do comes from the same data: :func:`shortcuts` maps
keys to :data:`Action` values, and :func:`hotspots` maps window areas (the three buttons and the
cards of the tray: the edition's bank cards, properties and event cards) to the same actions.
The window code only dispatches actions.

Imports pygame (through :mod:`firmware_sim.pg`), ``bank.unit.io``, ``bank.unit.text``,
``board_assets``, :mod:`firmware_sim.words` and the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass

from bank.unit.io import Button, CardId, CardRanges
from bank.unit.text import token_name
from board_assets import Edition, load_edition
from firmware_sim.lcd import LCD_SIZE
from firmware_sim.pg import pygame
from firmware_sim.words import say

#: The window's design size: everything is laid out on a canvas of this size, which is shown
#: as it is when the screen is big enough, and scaled to the window otherwise.
WINDOW_SIZE = (1120, 690)
#: Room left around the window when it is fitted to a screen (title bar, panels, docks).
SCREEN_MARGIN = (40, 80)
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
class ToggleHelp:
    """Show or hide the help overlay."""


@dataclass(frozen=True, slots=True)
class Screenshot:
    """Save the window as a PNG in the current directory."""


Action = PressButton | TapCard | StartEntry | HoldGesture | ToggleHelp | Screenshot


@dataclass(frozen=True, slots=True)
class Shortcut:
    """Keys that trigger *action*: pygame key codes (layout-mapped), typed characters, or
    scancodes (physical positions: the digit row, whatever the keyboard layout).

    *label* and *help* are message ids of :mod:`firmware_sim.words` (formatted with *fields*);
    *plain_label* is a label that is the same in every language (a digit)."""

    label: str
    help: str
    action: Action
    keys: tuple[int, ...] = ()
    chars: tuple[str, ...] = ()
    scancodes: tuple[int, ...] = ()
    fields: tuple[tuple[str, object], ...] = ()
    plain_label: str = ""

    def texts(self, lang: str) -> tuple[str, str]:
        """The help overlay's row for this shortcut in *lang*: (keys, what they do)."""
        fields = dict(self.fields)
        if "token" in fields:
            fields["token"] = token_name(lang, str(fields["token"]))
        label = self.plain_label or say(lang, self.label)
        return label, say(lang, self.help, **fields)


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
                 fields=(("count", cards.prop),)),
        Shortcut("key.event", "help.event", StartEntry("event"), keys=(pygame.K_e,),
                 fields=(("count", cards.event),)),
        Shortcut("key.undo", "help.undo", HoldGesture((Button.OK, Button.CANCEL), HOLD_SECONDS),
                 keys=(pygame.K_u,), fields=(("seconds", f"{HOLD_SECONDS:g}"),)),
        Shortcut("key.reset", "help.reset", HoldGesture((Button.CANCEL,), HOLD_SECONDS),
                 keys=(pygame.K_r,), fields=(("seconds", f"{HOLD_SECONDS:g}"),)),
        Shortcut("key.help", "help.help", ToggleHelp(), keys=(pygame.K_F1,), chars=("?",)),
        Shortcut("key.shot", "help.shot", Screenshot(), keys=(pygame.K_F12,)),
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
    key: int, char: str, scancode: int = 0, table: tuple[Shortcut, ...] = SHORTCUTS
) -> Shortcut | None:
    """The shortcut of *table* bound to key code *key*, typed character *char* or *scancode*."""
    for sc in table:
        if key in sc.keys:
            return sc
    if char:
        for sc in table:
            if char in sc.chars:
                return sc
    if scancode:
        for sc in table:
            if scancode in sc.scancodes:
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


def help_rows(lang: str = "en", table: tuple[Shortcut, ...] = SHORTCUTS) -> list[tuple[str, str]]:
    """The rows of the help overlay in *lang*: (keys or mouse gesture, what it does)."""
    rows = [sc.texts(lang) for sc in table]
    return rows + [(say(lang, gesture), say(lang, what)) for gesture, what in MOUSE_HELP]


@dataclass(frozen=True, slots=True)
class Hotspot:
    """A clickable area: a rectangle, or the circle inscribed in it."""

    rect: tuple[int, int, int, int]
    action: PressButton | TapCard
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


def button_hotspots() -> list[Hotspot]:
    """The three round buttons."""
    r = BUTTON_RADIUS
    return [
        Hotspot((cx - r, cy - r, 2 * r, 2 * r), PressButton(b), round=True)
        for b, (cx, cy) in BUTTON_CENTRES.items()
    ]


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
    for i in range(cards.event):
        x = TRAY_X + (i % 8) * (ew + GAP)
        y = EVENTS_Y + (i // 8) * (eh + GAP)
        spots.append(Hotspot((x, y, ew, eh), TapCard(CardId("event", i + 1))))
    return spots


def hotspots(edition: Edition) -> list[Hotspot]:
    """Every clickable area of the window."""
    return button_hotspots() + card_hotspots(edition)


def hotspot_at(spots: list[Hotspot], pos: tuple[int, int]) -> Hotspot | None:
    """The hotspot under *pos*, if any."""
    for spot in spots:
        if spot.contains(pos):
            return spot
    return None
