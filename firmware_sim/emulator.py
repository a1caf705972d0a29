"""The pygame window of the emulated unit: a :class:`drivers.base.Panel` backend.

The window shows the unit (LCD, reader pad, the buttons ✓ M X) and a tray of the 49 cards.
When the ruleset's vocabulary lays out its own tray (the classic editions, docs/classic.md §5.6)
it shows the keypad window: a 3 x 4 keypad beside the buttons, a tray of 8 bank cards, the
ruleset's cards in columns by group (their hover lines) and its decks, with the letters the
vocabulary gives (:func:`layout.keypad_shortcuts`).
Clicks and keys become the unit's inputs (:class:`ButtonPressed`, :class:`CardTapped`, ...),
posted through the callback given to :meth:`PygamePanel.start`; screens and cues come back
through :meth:`PygamePanel.show` and :meth:`PygamePanel.play`. The window contains no rule.

Threading: ``show``, ``play`` and ``close`` may be called from any thread; they queue work
for the pygame thread and wake it. Every pygame call happens in the thread that runs
:meth:`PygamePanel.run_ui` (the main thread) or :meth:`PygamePanel.step` (tests).
The window is redrawn only when something changed. Between frames the pygame thread sleeps
until an input, a screen or a timer needs it (:class:`firmware_sim.sdlwait.EventWaiter`), so
a click is answered at once and an idle window costs next to nothing.

Imports pygame (through :mod:`firmware_sim.pg`), the emulator's modules, ``bank.unit.io``,
``drivers.base``, ``board_assets`` and the standard library.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardRanges,
    CardTapped,
    Cue,
    InfoAsked,
    Input,
    KeyPressed,
    KeyReleased,
    Labels,
    MenuAsked,
    Screen,
)
from bank.unit.text import event_effect, language_of, money, token_name
from board_assets import Edition, load_edition
from drivers.base import PanelError
from firmware_sim import layout as L
from firmware_sim.dotfont import DotMatrix
from firmware_sim.icons import PICTOGRAM_TOKENS, token_surface
from firmware_sim.lcd import BEZEL, GLASS, ON, LcdRenderer
from firmware_sim.pg import pygame
from firmware_sim.sdlwait import NO_SYSTEM_INPUT, EventWaiter
from firmware_sim.sounds import NullPlayer, SoundPlayer, open_player
from firmware_sim.tray import TrayView
from firmware_sim.words import say

log = logging.getLogger(__name__)

READER_NAME = "emulator"
#: How long the window waits for the daemon's answer to an input before drawing the input
#: alone (seconds): one frame then shows the press and its answer. The daemon answers within
#: a millisecond on a quiet machine; on a busy one its thread may wait some milliseconds for a
#: core, and an answer missing the wait costs a frame more and, on X11, a wake-up by way of
#: the X server (30 s of clicks on Xvfb, three runs each, load average 3 to 7: 18 of 630
#: clicks over 5 ms with 3 ms of grace, 9 of 632 with 10 ms). An input the daemon does not
#: answer (a release) is drawn at most this late, under a sixtieth of a second.
ANSWER_GRACE = 0.010
OFF_SCREEN = Screen(name="off", off=True)
#: A window smaller than the picture shows it scaled, in square tiles of this many canvas
#: pixels: a frame rescales only the tiles its changes touch (a card, a digit of the LCD:
#: some tenths of a millisecond) rather than the whole canvas (over 3 ms), and a whole frame
#: scales every tile the same way, so both leave the same pixels on the screen.
SCALE_TILE = 64
#: the distance between two lines of a label written on two (pixels)
LINE_STEP = 18

TABLE = (30, 58, 48)
BODY = (236, 233, 226)
BODY_EDGE = (196, 192, 184)
INK = (34, 34, 38)
PALE_INK = (235, 235, 230)
BUTTON_COLOURS = {
    Button.OK: (46, 160, 80),
    Button.MENU: (120, 124, 132),
    Button.CANCEL: (208, 52, 52),
}
BANK_COLOUR = (24, 36, 68)
EVENT_COLOUR = (240, 150, 40)
HOVER = (255, 255, 255)
#: the smallest font size of any words in the window (canvas pixels): 12 pixels still on the
#: smallest screen the window fits (1024 x 600, where the canvas is shown at 0.75); a longer
#: label is written on two lines or shortened rather than smaller (issue 19)
MIN_LABEL_SIZE = 16
#: a bank card's label is this much narrower than the card (pixels)
BANK_LABEL_MARGIN = 6
#: the smallest font size as the screen shows it (window pixels), on every screen size
MIN_SHOWN_SIZE = 12
#: the reader pad's words ("posez une carte ici")
READER_INK = (130, 126, 118)
KEY_COLOUR = (70, 74, 82)


def display_available() -> bool:
    """True if a window can be opened (an X11/Wayland display, or an explicit SDL driver).

    With DISPLAY or WAYLAND_DISPLAY set but no server answering, SDL falls back to its
    ``offscreen`` driver without a word: a window nobody sees, that loads the OpenGL stack
    (EGL and Mesa, some 90 MB). That is no display either, unless the driver was asked for."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    explicit = driver in ("dummy", "offscreen", "kmsdrm")
    if not explicit and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    was_on = pygame.display.get_init()
    try:
        pygame.display.init()
        if not driver and pygame.display.get_driver() in NO_SYSTEM_INPUT:
            return False
        return pygame.display.get_num_displays() > 0
    except pygame.error:
        return False
    finally:
        if not was_on:
            pygame.display.quit()


@dataclass(frozen=True, slots=True)
class _Shot:
    path: Path
    done: threading.Event
    failed: list[str] = field(default_factory=list)  # why it could not be saved


@dataclass(frozen=True, slots=True)
class _Part:
    """One piece of the picture drawn over the background: what it looks like now (*state*,
    compared frame to frame), where it draws (*rect*, on the canvas: it never draws outside)
    and how (*draw*, onto ``_target``)."""

    rect: pygame.Rect
    state: Callable[[], object]
    draw: Callable[[], None]
    #: the pieces of *rect* that changed since the last frame, when the part can tell
    areas: Callable[[], list[pygame.Rect]] | None = None


@dataclass(frozen=True, slots=True, eq=False)
class _Tile:
    """One square of a scaled window's picture: the canvas's *source* rectangle, scaled
    smooth onto the *shown* rectangle of the scaled picture (through subsurfaces made once)."""

    source: pygame.Rect
    shown: pygame.Rect
    src: pygame.Surface
    dst: pygame.Surface

    def scale(self) -> None:
        pygame.transform.smoothscale(self.src, self.shown.size, self.dst)


def _tiles(canvas: pygame.Surface, scaled: pygame.Surface) -> list[list[_Tile]]:
    """The canvas cut in squares of :data:`SCALE_TILE` pixels, each with its place on the
    *scaled* picture, where scaling the whole canvas to that size would put it (so that the
    tiles cover it without a gap). A tile too small to show any pixel is left out."""
    width, height = canvas.get_size()
    xs = [*range(0, width, SCALE_TILE), width]
    ys = [*range(0, height, SCALE_TILE), height]
    sw, sh = scaled.get_size()
    sx = [x * sw // width for x in xs]  # as the whole canvas scaled to (sw, sh) maps them
    sy = [y * sh // height for y in ys]
    rows = []
    for j in range(len(ys) - 1):
        row = []
        for i in range(len(xs) - 1):
            source = pygame.Rect(xs[i], ys[j], xs[i + 1] - xs[i], ys[j + 1] - ys[j])
            shown = pygame.Rect(sx[i], sy[j], sx[i + 1] - sx[i], sy[j + 1] - sy[j])
            if shown.w > 0 and shown.h > 0:
                row.append(
                    _Tile(source, shown, canvas.subsurface(source), scaled.subsurface(shown))
                )
        if row:
            rows.append(row)
    return rows


def _touching(tiles: list[list[_Tile]], rect: pygame.Rect) -> list[_Tile]:
    """The tiles whose canvas square overlaps *rect*."""
    top, bottom = rect.top, rect.bottom
    rows = [row for row in tiles if row[0].source.top < bottom and row[0].source.bottom > top]
    return [t for row in rows for t in row if t.source.colliderect(rect)]


@dataclass(slots=True)
class _Timer:
    due: float
    button: Button
    source: str


class PygamePanel:
    """The unit in a pygame window: a :class:`drivers.base.Panel`.

    *clock* timestamps the inputs (give the daemon's clock); *on_quit* is called when the
    window is closed or the process gets SIGTERM; *player* overrides the sound player (the
    default opens the mixer, or stays silent without a sound card). *language* is the unit's
    (``fr``, ``en``; default the edition's): the tray, status line and help speak it.
    *screen_size* is the screen the window must fit (default: the display's desktop; the
    dummy and offscreen drivers have none, so the window opens at its design size).
    *event_wait* ``"poll"``
    makes the window poll its events *fps* times a second instead of sleeping until one comes
    (the old behaviour, kept for the benchmark's comparison). *redraw* ``"changed"`` (the
    default) draws and shows only the parts of the picture that changed (the LCD, a pressed
    button or key, a hovered card, the status line); ``"full"`` draws and shows the whole
    window at every frame (the old behaviour, kept for the benchmark's comparison). Both
    leave the same picture.
    """

    def __init__(
        self,
        edition: Edition | str = "ultime-fr",
        *,
        clock: Callable[[], float] = time.monotonic,
        on_quit: Callable[[], None] | None = None,
        player: SoundPlayer | None = None,
        sound: bool = True,
        fps: float = 30.0,
        title: str = "ultibank - emulated unit",
        event_wait: str = "auto",
        language: str | None = None,
        screen_size: tuple[int, int] | None = None,
        redraw: str = "changed",
        labels: Labels | None = None,
    ) -> None:
        self.edition = load_edition(edition) if isinstance(edition, str) else edition
        #: the window's language: the unit's (give it), else the edition's
        self.language = language_of(language, self.edition.language)
        self._screen_size = screen_size
        self._view = L.View()
        self._laid_out_for: tuple[int, int] = (0, 0)
        self._canvas: pygame.Surface | None = None
        self._scaled: pygame.Surface | None = None
        self._background: pygame.Surface | None = None
        self._target: pygame.Surface = pygame.Surface((1, 1))
        self.clock = clock
        self.on_quit = on_quit
        self.fps = fps
        self.title = title
        self._player = player
        self._sound = sound
        self._post: Callable[[Input], None] | None = None
        self._posted = 0  # inputs sent to the daemon so far
        self._inbox: queue.SimpleQueue[Screen | Cue | _Shot] = queue.SimpleQueue()
        self._waiter = EventWaiter(1.0 / fps, prefer=event_wait)
        self._closing = threading.Event()
        self._ui_thread: int | None = None
        self._window: pygame.Surface | None = None
        #: the edition's cards: the tray, the keys and the typed numbers follow them
        self._cards = CardRanges.of(self.edition)
        #: the tray and hover lines the ruleset lays out (the keypad window); None: the
        #: window's own tray of bank, property and event cards
        self.tray_view = TrayView.of(labels, self._cards)
        tokens = self.tray_view.tokens if self.tray_view is not None else None
        self._lcd = LcdRenderer(
            currency=self.edition.currency,
            token_labels=tokens,
            title=labels.title if labels is not None and tokens is not None else None,
            art=labels.icons if labels is not None else (),
        )
        #: the ruleset's vocabulary (its typed cards' letters, its words)
        self._labels = labels or Labels(self.language)
        self._shortcuts = (
            L.keypad_shortcuts(self._cards, labels)
            if self.tray_view is not None
            else L.shortcuts(self._cards)
        )
        self._reader_rect = L.KEYPAD_READER_RECT if self.tray_view else L.READER_RECT
        self._status_rect = L.KEYPAD_STATUS_RECT if self.tray_view else L.STATUS_RECT
        self._spots = L.hotspots(self.edition, self.tray_view.tray if self.tray_view else None)
        self._prop_colour = {
            p.number: pygame.Color(self.edition.group(p.group).colour)
            for p in self.edition.properties
        }
        self.screen = OFF_SCREEN
        self._lcd_surface = self._lcd.render(self.screen)
        self._lcd_version = 0  # one more for each LCD rendered
        # Each button is down while any source holds it: a key, the mouse, a latch, a gesture.
        self._holders: dict[Button, set[str]] = {b: set() for b in Button}
        self._keys_down: dict[str, set[str]] = {}  # keypad key -> who holds it
        self._key_actions: dict[int, L.Action] = {}
        self._mouse_action: L.Action | None = None
        self._timers: list[_Timer] = []
        self._on_reader: CardId | None = None
        self._entry: tuple[str, str] | None = None  # (kind, digits typed so far)
        self._message = ""
        self._hover: L.Hotspot | None = None
        self._help = False
        self._dirty = True
        #: the next frame redraws the whole canvas (first frame, resize, expose, help)
        self._full = True
        if redraw not in ("changed", "full"):
            raise ValueError(f"redraw must be 'changed' or 'full', not {redraw!r}")
        self._redraw = redraw
        self._parts = self._make_parts()
        self._drawn_states: list[object] = []
        self._help_drawn = False
        self._quit = False
        #: frames drawn, the screen the last one showed and when (``time.perf_counter``)
        self.frames = 0
        self.drawn: Screen | None = None
        self.drawn_at = 0.0
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        #: the rectangles of the canvas the last frame drew (the whole canvas for a full one)
        self.last_rects: list[pygame.Rect] = []
        #: the rectangles of the window the last frame put on the screen
        self.shown_rects: list[pygame.Rect] = []
        #: a scaled window's picture in tiles, row by row (:func:`_tiles`); empty unscaled
        self._tiles: list[list[_Tile]] = []

    # ------------------------------------------------------------ Panel protocol

    def start(self, post: Callable[[Input], None]) -> None:
        """Post inputs through *post* from now on."""
        self._post = post

    def show(self, screen: Screen) -> None:
        """Show *screen* (any thread)."""
        self._inbox.put(screen)
        self._waiter.wake()

    def play(self, cue: Cue) -> None:
        """Play *cue* (any thread)."""
        self._inbox.put(cue)
        self._waiter.wake()

    def close(self) -> None:
        """Close the window; from another thread, ask the pygame thread to do it."""
        self._closing.set()
        self._waiter.wake()
        if self._ui_thread == threading.get_ident():
            self._shutdown()
        # Otherwise the pygame thread shuts down when it sees the flag; if no window was ever
        # opened, there is nothing to shut.

    # ------------------------------------------------------------ the pygame thread

    def open(self) -> None:
        """Open the window and the sound (in the thread that will run the UI)."""
        if self._window is not None:
            return
        self._ui_thread = threading.get_ident()
        try:
            pygame.display.init()
            _native_framebuffer()
            pygame.font.init()
            pygame.display.set_caption(self.title)
            pygame.display.set_icon(_window_icon())
            size = L.window_size_for(self._screen_size or _desktop_size())
            self._window = pygame.display.set_mode(size, pygame.RESIZABLE)
        except pygame.error as err:
            raise PanelError(f"cannot open the emulator window: {err}") from err
        self._waiter.attach()
        self._relayout()
        if self._player is None:
            self._player = open_player() if self._sound else NullPlayer("disabled")
        self._dirty = self._full = True

    @property
    def wait_mode(self) -> str:
        """How the pygame thread sleeps between frames: ``block``, ``watch`` or ``poll``."""
        return self._waiter.mode

    @property
    def video_driver(self) -> str:
        """The SDL video driver the open window runs on (``x11``, ``wayland``, ``dummy``...)."""
        return str(pygame.display.get_driver()) if pygame.display.get_init() else ""

    @property
    def player(self) -> SoundPlayer | None:
        return self._player

    @property
    def window(self) -> pygame.Surface:
        """The window's surface, as the screen shows it."""
        if self._window is None:
            raise PanelError("the emulator window is not open")
        return self._window

    @property
    def canvas(self) -> pygame.Surface:
        """The picture at its design size (:data:`layout.WINDOW_SIZE`), before any scaling."""
        return self._canvas if self._canvas is not None else self.window

    @property
    def view(self) -> L.View:
        """How the canvas sits in the window (scale and offset)."""
        return self._view

    def _say(self, key: str, **fields: object) -> str:
        return say(self.language, key, **fields)

    def step(self, answer_grace: float = 0.0) -> bool:
        """Run one frame: queued work, events, timers, redraw if needed.

        With *answer_grace*, an input sent to the daemon waits that long at most for the
        daemon's answer, so that one frame shows both (the daemon answers most inputs within
        a millisecond, and a frame can cost more than that on a slow X server); without it,
        it never blocks. Returns False once the panel should stop (closed, or the window
        was closed).
        """
        self.open()
        self._drain_inbox()
        posted = self._posted
        for event in pygame.event.get():
            self._handle(event)
        if answer_grace > 0 and self._posted != posted and self._inbox.empty():
            self._waiter.wait_woken(answer_grace)
            self._drain_inbox()
        self._run_timers()
        if self._dirty and self._window is not None:
            self._draw()
        return not (self._quit or self._closing.is_set())

    def run_ui(self, stop: threading.Event | None = None) -> None:
        """Run the window until *stop* is set, :meth:`close` is called or the window closes."""
        try:
            self.open()
            while self.step(ANSWER_GRACE) and not (stop is not None and stop.is_set()):
                self._waiter.wait(self._next_wait())
        finally:
            self._shutdown()

    def _next_wait(self) -> float | None:
        """Seconds until the next timer is due; None without timers."""
        if not self._timers:
            return None
        return max(0.0, min(t.due for t in self._timers) - self.clock())

    def _shutdown(self) -> None:
        if self._player is not None:
            self._player.close()
        if self._window is not None:
            self._window = None
            self._waiter.detach()
            pygame.display.quit()

    def save_screenshot(self, path: str | Path, timeout: float = 5.0) -> Path:
        """Write the window as a PNG (any thread; waits for the pygame thread)."""
        path = Path(path)
        mine = self._ui_thread == threading.get_ident()
        # With no window yet, only the main thread (the one that will run the UI) may open it
        # here: another thread opening it would race the pygame thread about to start.
        if mine or (
            self._ui_thread is None and threading.current_thread() is threading.main_thread()
        ):
            self.open()
            self._drain_inbox()
            self._draw()
            pygame.image.save(self.canvas, str(path))
            return path
        shot = _Shot(path, threading.Event())
        self._inbox.put(shot)
        self._waiter.wake()
        if not shot.done.wait(timeout):
            raise PanelError(f"the emulator did not save {path} within {timeout} s")
        if shot.failed:
            raise PanelError(shot.failed[0])
        return path

    # ------------------------------------------------------------ inputs

    def _emit(self, item: Input) -> None:
        if self._post is None:
            log.debug("no daemon yet, dropped %s", item)
            return
        self._posted += 1
        self._post(item)

    def _hold(self, button: Button, source: str) -> None:
        holders = self._holders[button]
        if not holders:
            self._emit(ButtonPressed(self.clock(), button))
        holders.add(source)
        self._dirty = True

    def _unhold(self, button: Button, source: str) -> None:
        holders = self._holders[button]
        if source not in holders:
            return
        holders.discard(source)
        if not holders:
            self._emit(ButtonReleased(self.clock(), button))
        self._dirty = True

    def _tap(self, card: CardId) -> None:
        if self._on_reader is not None:
            self._lift()
        self._on_reader = card
        self._emit(CardTapped(self.clock(), card, uid="", reader=READER_NAME))
        self._dirty = True

    def _lift(self) -> None:
        if self._on_reader is None:
            return
        self._on_reader = None
        self._emit(CardLifted(self.clock(), uid="", reader=READER_NAME))
        self._dirty = True

    def _press_key(self, key: str, source: str) -> None:
        holders = self._keys_down.setdefault(key, set())
        if not holders:
            self._emit(KeyPressed(self.clock(), key))
        holders.add(source)
        self._dirty = True

    def _release_key(self, key: str, source: str) -> None:
        holders = self._keys_down.get(key, set())
        if source not in holders:
            return
        holders.discard(source)
        if not holders:
            self._emit(KeyReleased(self.clock(), key))
        self._dirty = True

    def _resolve(self, action: L.Action) -> L.Action:
        """What *action* does now: Backspace is ⌫ while an entry is open on the LCD, else X."""
        if isinstance(action, L.BackKey):
            view = self.tray_view
            if view is not None and self.screen.name in view.tray.entry_screens:
                return L.PressKey("back")
            return L.PressButton(Button.CANCEL)
        return action

    def _begin(self, action: L.Action, source: str) -> None:
        """Start *action* (key or mouse button down)."""
        match action:
            case L.PressButton(button):
                self._hold(button, source)
            case L.PressKey(key):
                self._press_key(key, source)
            case L.AskInfo(name):
                self._emit(InfoAsked(self.clock(), name))
            case L.AskMenu(item):
                self._emit(MenuAsked(self.clock(), item))
            case L.TapCard(card):
                self._tap(card)
            case L.StartEntry(kind):
                self._entry = (kind, "")
                self._message = ""
                self._dirty = True
            case L.HoldGesture(buttons, seconds):
                for button in buttons:
                    self._hold(button, "gesture")
                for button in buttons:
                    self._timers.append(_Timer(self.clock() + seconds, button, "gesture"))
                held = " + ".join(_SYMBOL[b] for b in buttons)
                self._message = self._say("status.holding", buttons=held)
            case L.ToggleHelp():
                self._help = not self._help
                self._dirty = True
            case L.Screenshot():
                name = time.strftime("ultibank-emulator-%Y%m%d-%H%M%S.png")
                self.save_screenshot(name)
                self._message = self._say("status.saved", name=name)
                self._dirty = True

    def _end(self, action: L.Action, source: str) -> None:
        """Finish *action* (key or mouse button up)."""
        match action:
            case L.PressButton(button):
                self._unhold(button, source)
            case L.PressKey(key):
                self._release_key(key, source)
            case L.TapCard():
                self._lift()
            case _:
                pass

    def _run_timers(self) -> None:
        now = self.clock()
        due = [t for t in self._timers if t.due <= now]
        if not due:
            return
        self._timers = [t for t in self._timers if t.due > now]
        for timer in due:
            self._unhold(timer.button, timer.source)
        if not self._timers:
            self._message = ""

    def _handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self._quit = True
            if self.on_quit is not None:
                self.on_quit()
        elif event.type == pygame.KEYDOWN:
            self._key_down(
                event.key,
                getattr(event, "unicode", ""),
                getattr(event, "scancode", 0),
                getattr(event, "mod", 0),
            )
        elif event.type == pygame.KEYUP:
            action = self._key_actions.pop(event.key, None)
            if action is not None:
                self._end(action, f"key:{event.key}")
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self._mouse_down(self._view.to_canvas(event.pos), event.button)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            if self._mouse_action is not None:
                self._end(self._mouse_action, "mouse")
                self._mouse_action = None
        elif event.type == pygame.MOUSEMOTION:
            spot = L.hotspot_at(self._spots, self._view.to_canvas(event.pos))
            if spot != self._hover:
                self._hover = spot
                self._dirty = True
        elif event.type == pygame.WINDOWFOCUSLOST:
            # keys released while another window has the focus would never come back up
            for key, action in list(self._key_actions.items()):
                self._end(action, f"key:{key}")
            self._key_actions.clear()
        elif event.type in (
            pygame.WINDOWEXPOSED,
            pygame.VIDEOEXPOSE,
            pygame.VIDEORESIZE,
            pygame.WINDOWSIZECHANGED,
        ):
            # a resize is laid out again when the frame is drawn; either way, all of it
            self._dirty = self._full = True

    def _key_down(self, key: int, char: str, scancode: int = 0, mod: int = 0) -> None:
        if key in self._key_actions:  # a repeat of a key already down
            return
        if self._entry is not None:
            if self._entry[0] == "card":
                self._card_entry_key(key, char, scancode)
            else:
                self._entry_key(key, char, scancode)
            return
        if self._help:  # any key closes the help, and does nothing else
            self._help = False
            self._dirty = True
            return
        shortcut = L.shortcut_for_key(key, char, scancode, self._shortcuts, mod)
        if shortcut is None:
            return
        action = self._resolve(shortcut.action)
        self._key_actions[key] = action
        self._begin(action, f"key:{key}")

    def _card_entry_key(self, key: int, char: str, scancode: int) -> None:
        """A key while a ``/`` card is typed (``b5``, the vocabulary's letters: ``d12``, ``c3``;
        or ``deed:12``)."""
        assert self._entry is not None
        kind, text = self._entry
        digit = L.digit_of(key, char, scancode)
        if key == pygame.K_BACKSPACE:
            self._entry = (kind, text[:-1])
        elif key == pygame.K_ESCAPE:
            self._entry = None
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._entry = None
            card = L.typed_card(text, self._cards, self._labels.keys)
            if card is not None:
                self._tap(card)
                self._lift()
            elif text:
                self._message = self._say("status.no_typed", text=text)
        elif len(text) < 12:
            if digit is not None:
                self._entry = (kind, text + digit)
            elif len(char) == 1 and (char.isalpha() or char == ":"):
                self._entry = (kind, text + char.lower())
        self._dirty = True

    def _entry_key(self, key: int, char: str, scancode: int) -> None:
        assert self._entry is not None
        kind, digits = self._entry
        digit = L.digit_of(key, char, scancode)
        if digit is not None:
            if len(digits) < 2:
                self._entry = (kind, digits + digit)
        elif key == pygame.K_BACKSPACE:
            self._entry = (kind, digits[:-1])
        elif key == pygame.K_ESCAPE:
            self._entry = None
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._entry = None
            if digits:
                number = int(digits)
                if 1 <= number <= self._cards.count(kind):
                    self._tap(CardId(kind, number))
                    self._lift()
                else:
                    self._message = self._say(
                        "status.no_card", kind=self._say(f"kind.{kind}"), n=number
                    )
        self._dirty = True

    def _mouse_down(self, pos: tuple[int, int], mouse_button: int) -> None:
        if self._help:
            self._help = False
            self._dirty = True
            return
        spot = L.hotspot_at(self._spots, pos)
        if spot is None:
            return
        if mouse_button == 1:
            if self._mouse_action is not None:
                self._end(self._mouse_action, "mouse")
            self._mouse_action = self._resolve(spot.action)
            self._begin(self._mouse_action, "mouse")
        elif mouse_button == 3 and isinstance(spot.action, L.PressButton):
            button = spot.action.button
            if "latch" in self._holders[button]:
                self._unhold(button, "latch")
            else:
                self._hold(button, "latch")

    # ------------------------------------------------------------ outputs

    def _drain_inbox(self) -> None:
        while True:
            try:
                item = self._inbox.get_nowait()
            except queue.Empty:
                return
            if isinstance(item, Screen):
                if item != self.screen:
                    self.screen = item
                    self._lcd_surface = self._lcd.render(item)
                    self._lcd_version += 1
                    self._dirty = True
            elif isinstance(item, Cue):
                if self._player is not None:
                    self._player.play(item)
            else:
                try:
                    self._draw()
                    pygame.image.save(self.canvas, str(item.path))
                except pygame.error as err:  # a bad path: the caller says so, the window goes on
                    item.failed.append(str(err))
                finally:
                    item.done.set()

    # ------------------------------------------------------------ drawing

    def _font(self, size: int, bold: bool = False) -> pygame.font.Font:
        key = (size, bold)
        font = self._fonts.get(key)
        if font is None:
            font = pygame.font.Font(None, size)
            font.set_bold(bold)
            self._fonts[key] = font
        return font

    def _label(
        self,
        text: str,
        pos: tuple[int, int],
        size: int,
        colour: tuple[int, int, int],
        *,
        bold: bool = False,
        anchor: str = "topleft",
    ) -> None:
        surf = self._font(size, bold).render(text, True, colour)
        rect = surf.get_rect(**{anchor: pos})
        self._target.blit(surf, rect)

    def _relayout(self) -> None:
        """Fit the canvas to the window's current size (at open and after a resize)."""
        size = self.window.get_size()
        self._view = L.View.fit(size)
        self._laid_out_for = size
        self._tiles = []
        if size == L.WINDOW_SIZE:
            self._canvas = self.window  # drawn in place: no copy, no scaling
            self._scaled = None
        else:
            if self._canvas is None or self._canvas is self._window:
                self._canvas = pygame.Surface(L.WINDOW_SIZE).convert()
            scaled = self._view.scale < 1.0
            self._scaled = pygame.Surface(self._view.size).convert() if scaled else None
            if self._scaled is not None:
                self._tiles = _tiles(self._canvas, self._scaled)
        self._dirty = self._full = True

    def _draw(self) -> None:
        """Draw and show a frame: the parts that changed since the last one, or all of it."""
        if self.window.get_size() != self._laid_out_for:
            self._relayout()
        canvas = self.canvas
        if self._background is None:
            self._background = self._draw_background()
        self._target = canvas
        states = [part.state() for part in self._parts]
        full = (
            self._full
            or self._redraw == "full"
            or self._help
            or self._help_drawn
            or len(states) != len(self._drawn_states)
        )
        if full:
            rects = [canvas.get_rect()]
            canvas.blit(self._background, (0, 0))
            for part in self._parts:
                part.draw()
            if self._help:
                self._draw_help()
        else:
            rects = []
            for part, now, before in zip(self._parts, states, self._drawn_states, strict=True):
                if now != before:
                    rects.extend(part.areas() if part.areas is not None else [part.rect])
            for rect in rects:
                # the background there, then every part over it, in the order of a full frame
                canvas.set_clip(rect)
                canvas.blit(self._background, rect, area=rect)
                for part in self._parts:
                    if part.rect.colliderect(rect):
                        part.draw()
            canvas.set_clip(None)
        self._show(rects, full)
        self._drawn_states = states
        self._help_drawn = self._help
        self._full = False
        self.last_rects = rects
        self.drawn = self.screen
        self.drawn_at = time.perf_counter()
        self.frames += 1
        self._dirty = False

    def _show(self, rects: list[pygame.Rect], full: bool) -> None:
        """Put the drawn *rects* of the canvas on the screen."""
        canvas = self.canvas
        if canvas is self._window:
            self.shown_rects = list(rects)
            if full:
                pygame.display.flip()
            elif rects:
                pygame.display.update(rects)
            return
        win = self.window
        offset = self._view.offset
        if full:
            win.fill(TABLE)
            if self._scaled is not None:
                for row in self._tiles:
                    for tile in row:
                        tile.scale()
                win.blit(self._scaled, offset)
            else:
                win.blit(canvas, offset)
            self.shown_rects = [win.get_rect()]
            pygame.display.flip()
            return
        if self._scaled is not None:
            # Each changed rectangle rescales the tiles it touches, as a whole frame scales
            # them (tile by tile), so the pixels are the same; then that part is shown.
            done: set[_Tile] = set()
            areas = []
            for rect in rects:
                touched = _touching(self._tiles, rect)
                if not touched:
                    continue
                for tile in touched:
                    if tile not in done:
                        tile.scale()
                        done.add(tile)
                area = touched[0].shown.unionall([t.shown for t in touched])
                areas.append(area)
            shown = [area.move(offset) for area in areas]
            for area, there in zip(areas, shown, strict=True):
                win.blit(self._scaled, there, area=area)
        else:
            shown = [rect.move(offset) for rect in rects]
            for rect, there in zip(rects, shown, strict=True):
                win.blit(canvas, there, area=rect)
        self.shown_rects = shown
        if shown:
            pygame.display.update(shown)

    def _make_parts(self) -> list[_Part]:
        """The parts over the background, in the order a frame draws them."""
        parts: list[_Part] = []
        ux, uy, uw, _ = L.UNIT_RECT
        lamp = pygame.Rect(ux + uw - 120, uy + 28, 88, 18)
        parts.append(_Part(lamp, lambda: tuple(_lamp_colour(self.screen)), self._draw_lamp))
        lcd = pygame.Rect(L.LCD_POS, self._lcd_surface.get_size())
        parts.append(_Part(lcd, lambda: self._lcd_version, self._draw_lcd, self._lcd_areas))
        reader = pygame.Rect(self._reader_rect)
        parts.append(_Part(reader, lambda: self._on_reader, self._draw_reader))
        r = L.BUTTON_RADIUS
        for spot in L.button_hotspots(self.tray_view is not None):
            assert isinstance(spot.action, L.PressButton)
            button = spot.action.button
            cx, cy = spot.centre
            # the pressed face moves 3 px down; the latch ring is 6 px out, 3 px wide
            rect = pygame.Rect(cx - r - 8, cy - r - 8, 2 * r + 16, 2 * r + 20)
            parts.append(
                _Part(rect, partial(self._button_state, spot, button),
                      partial(self._draw_button, spot, button))
            )  # fmt: skip
        if self.tray_view is not None:
            for spot in L.keypad_hotspots():
                rect = pygame.Rect(spot.rect)
                rect = rect.union(rect.move(0, 4)).inflate(2, 2)
                parts.append(
                    _Part(rect, partial(self._key_state, spot), partial(self._draw_key, spot))
                )
        for spot in self._spots:
            if isinstance(spot.action, L.TapCard):
                rect = pygame.Rect(spot.rect)
                rect = rect.union(rect.move(2, 3)).inflate(6, 6)
                parts.append(
                    _Part(rect, partial(self._card_state, spot),
                          partial(self._draw_tray_card, spot))
                )  # fmt: skip
        status = pygame.Rect(self._status_rect)
        parts.append(_Part(status, self._status_text, self._draw_status))
        return parts

    def _button_state(self, spot: L.Hotspot, button: Button) -> object:
        holders = self._holders[button]
        return (bool(holders), self._hover == spot, "latch" in holders)

    def _key_state(self, spot: L.Hotspot) -> object:
        action = spot.action
        if isinstance(action, L.PressKey):
            down = bool(self._keys_down.get(action.key))
        else:
            down = bool(self._holders[Button.OK])
        return (down, self._hover is spot)

    def _card_state(self, spot: L.Hotspot) -> object:
        assert isinstance(spot.action, L.TapCard)
        return (spot.action.card == self._on_reader, self._hover is spot)

    def _draw_background(self) -> pygame.Surface:
        """What never changes while the window is open: the table, the unit's body, the tray."""
        bg = pygame.Surface(L.WINDOW_SIZE).convert()
        self._target = bg
        bg.fill(TABLE)
        pygame.draw.rect(bg, BODY_EDGE, pygame.Rect(L.UNIT_RECT).move(0, 5), border_radius=34)
        pygame.draw.rect(bg, BODY, pygame.Rect(L.UNIT_RECT), border_radius=34)
        ux, uy, _, _ = L.UNIT_RECT
        self._label("ULTIBANK", (ux + 32, uy + 26), 30, INK, bold=True)
        pygame.draw.rect(bg, BEZEL, pygame.Rect(L.bezel_rect()), border_radius=10)
        for text, y in self._tray_titles():
            self._label(text, (L.TRAY_X, y - 22), 20, PALE_INK, bold=True)
        for spot in self._spots:
            if isinstance(spot.action, L.TapCard):
                rect = pygame.Rect(spot.rect)
                pygame.draw.rect(bg, (18, 36, 30), rect.move(2, 3), border_radius=6)
                self._draw_card_face(rect, spot.action.card)
        status = pygame.Rect(self._status_rect)
        self._label(self._say("hint"), (status.x, status.bottom + 12), 18, (150, 180, 165))
        return bg

    def _tray_titles(self) -> list[tuple[str, int]]:
        """The tray's headings and the top of what each heads."""
        if self.tray_view is None:
            return [
                (self._say("tray.bank"), L.BANK_Y),
                (self._say("tray.props"), L.PROPS_Y),
                (self._say("tray.events"), L.EVENTS_Y),
            ]
        titles = [
            (self._say("tray.bank"), L.TRAY_BANK_Y),
            (self.tray_view.tray.column_title, L.TRAY_COLUMNS_Y),
        ]
        for deck, y in zip(self.tray_view.tray.decks, L.TRAY_DECK_Y, strict=False):
            titles.append((self.tray_view.deck_name(deck).upper(), y))
        return titles

    def _draw_lamp(self) -> None:
        """The group light: a coloured lamp showing the current property's group."""
        win = self._target
        ux, uy, uw, _ = L.UNIT_RECT
        lamp = pygame.Rect(ux + uw - 120, uy + 28, 88, 18)
        pygame.draw.rect(win, _lamp_colour(self.screen), lamp, border_radius=9)
        pygame.draw.rect(win, BODY_EDGE, lamp, width=2, border_radius=9)

    def _lcd_areas(self) -> list[pygame.Rect]:
        """The pieces of the glass that changed since the last frame (a digit, a text row)."""
        return [r.move(L.LCD_POS) for r in self._lcd.changed_rects(self.drawn, self.screen)]

    def _draw_lcd(self) -> None:
        self._target.blit(self._lcd_surface, L.LCD_POS)

    def _draw_key(self, spot: L.Hotspot) -> None:
        """One key of the keypad: a digit, ⌫ or the second ✓."""
        win = self._target
        action = spot.action
        if isinstance(action, L.PressKey):
            down = bool(self._keys_down.get(action.key))
            base = pygame.Color(KEY_COLOUR)
        else:
            down = bool(self._holders[Button.OK])
            base = pygame.Color(BUTTON_COLOURS[Button.OK])
        rect = pygame.Rect(spot.rect)
        pygame.draw.rect(win, base.lerp((0, 0, 0), 0.45), rect.move(0, 4), border_radius=9)
        face = rect.move(0, 3) if down else rect
        pygame.draw.rect(win, base.lerp((0, 0, 0), 0.3) if down else base, face, border_radius=9)
        if self._hover is spot and not down:
            pygame.draw.rect(win, HOVER, face, width=2, border_radius=9)
        cx, cy = face.center
        if isinstance(action, L.PressKey) and action.key != "back":
            self._label(action.key, (cx, cy + 1), 40, PALE_INK, bold=True, anchor="center")
        elif isinstance(action, L.PressKey):  # ⌫: a left-pointing key outline with a cross
            outline = [(cx - 17, cy), (cx - 7, cy - 10), (cx + 16, cy - 10), (cx + 16, cy + 10),
                       (cx - 7, cy + 10)]  # fmt: skip
            pygame.draw.polygon(win, PALE_INK, outline, width=3)
            pygame.draw.line(win, PALE_INK, (cx - 2, cy - 5), (cx + 8, cy + 5), width=3)
            pygame.draw.line(win, PALE_INK, (cx - 2, cy + 5), (cx + 8, cy - 5), width=3)
        else:
            pygame.draw.lines(win, PALE_INK, False, [(cx - 12, cy + 1), (cx - 4, cy + 10),
                                                     (cx + 13, cy - 10)], width=6)  # fmt: skip

    def _draw_reader(self) -> None:
        win = self._target
        rect = pygame.Rect(self._reader_rect)
        pygame.draw.rect(win, (222, 219, 211), rect, border_radius=18)
        pygame.draw.rect(win, BODY_EDGE, rect, width=2, border_radius=18)
        cx, cy = rect.center
        card = self._on_reader
        if card is None:
            for r in (14, 26, 38):
                arc = pygame.Rect(cx - 60 - r, cy - r, 2 * r, 2 * r)
                pygame.draw.arc(win, (150, 146, 138), arc, -0.9, 0.9, width=4)
            # the words right of the waves, on two lines when one would reach them (issue 19)
            left = cx - 60 + 38 + 12
            room = rect.right - 12 - left
            words = self._say("reader").split()
            lines = [" ".join(words)]
            if self._font(22).size(lines[0])[0] > room and len(words) > 1:
                half = max(1, len(words) // 2)
                lines = [" ".join(words[:half]), " ".join(words[half:])]
            top = cy - 11 * len(lines)
            for i, line in enumerate(lines):
                self._label(line, (left, top + 22 * i), 22, READER_INK)
        else:
            face = pygame.Rect(0, 0, 150, 92)
            face.center = (cx, cy)
            self._draw_card_face(face, card, big=True)

    def _draw_button(self, spot: L.Hotspot, button: Button) -> None:
        win = self._target
        cx, cy = spot.centre
        r = L.BUTTON_RADIUS
        down = bool(self._holders[button])
        base = pygame.Color(BUTTON_COLOURS[button])
        face = base if not down else base.lerp((0, 0, 0), 0.3)
        pygame.draw.circle(win, BODY_EDGE, (cx, cy + 5), r + 3)
        offset = 3 if down else 0
        pygame.draw.circle(win, base.lerp((0, 0, 0), 0.45), (cx, cy + 4), r)
        pygame.draw.circle(win, face, (cx, cy + offset), r)
        if self._hover == spot and not down:
            pygame.draw.circle(win, HOVER, (cx, cy + offset), r, width=2)
        if "latch" in self._holders[button]:
            pygame.draw.circle(win, (255, 230, 80), (cx, cy + offset), r + 6, width=3)
        cy += offset
        if button is Button.OK:
            pygame.draw.lines(win, PALE_INK, False, [(cx - 16, cy + 1), (cx - 5, cy + 13),
                                                     (cx + 17, cy - 13)], width=8)  # fmt: skip
        elif button is Button.CANCEL:
            pygame.draw.line(win, PALE_INK, (cx - 13, cy - 13), (cx + 13, cy + 13), width=8)
            pygame.draw.line(win, PALE_INK, (cx - 13, cy + 13), (cx + 13, cy - 13), width=8)
        else:
            self._label("M", (cx, cy + 2), 56, PALE_INK, bold=True, anchor="center")

    def _draw_card_face(self, rect: pygame.Rect, card: CardId, *, big: bool = False) -> None:
        win = self._target
        if self.tray_view is not None:
            self._draw_tray_face(rect, card, big)
        elif card.kind == "bank":
            pygame.draw.rect(win, BANK_COLOUR, rect, border_radius=8)
            pygame.draw.rect(win, (200, 170, 70), rect.inflate(-8, -8), width=1, border_radius=6)
            token = self._cards.token(card.number)
            if token in PICTOGRAM_TOKENS:  # the glass's pictogram; another token: its name only
                pic = token_surface(token, PALE_INK)
                size = (pic.get_width() * 3 // 2, pic.get_height() * 3 // 2)
                pic = pygame.transform.scale(pic, size)
                win.blit(pic, pic.get_rect(midleft=(rect.x + 10, rect.centery + 2)))
            self._label(str(card.number), (rect.right - 10, rect.y + 6), 34, (230, 200, 90),
                        bold=True, anchor="topright")  # fmt: skip
            self._label(token_name(self.language, token), (rect.right - 9, rect.bottom - 6), 17,
                        PALE_INK, anchor="bottomright")  # fmt: skip
        elif card.kind == "prop":
            colour = self._prop_colour[card.number]
            pygame.draw.rect(win, (250, 248, 240), rect, border_radius=5)
            band = pygame.Rect(rect.x + 3, rect.y + 3, rect.w - 6, rect.h // 3)
            name = self.edition.prop(card.number).name if big else ""
            number_y = rect.y + rect.h * 2 // 3 + 2
            if big and len(self._wrapped(name, band.w - 6, 16)[0]) > 1:
                band.h = 2 * LINE_STEP + 6  # a long name: a band tall enough for two lines
                number_y = (band.bottom + rect.bottom) // 2 + 1
            pygame.draw.rect(win, colour, band, border_radius=3)
            self._label(str(card.number), (rect.centerx, number_y), 40 if big else 30, INK,
                        bold=True, anchor="center")  # fmt: skip
            if big:
                self._lines(name, band.center, band.w - 6, 16, _ink_on(colour))
        else:
            pygame.draw.rect(win, EVENT_COLOUR, rect, border_radius=5)
            pygame.draw.rect(win, (255, 230, 190), rect.inflate(-6, -6), width=1, border_radius=4)
            self._label("?", (rect.x + 6, rect.y + 3), 28 if big else 22, INK, bold=True)
            self._label(str(card.number), (rect.right - 6, rect.bottom - 3),
                        40 if big else 28, INK, bold=True, anchor="bottomright")  # fmt: skip
            if big:  # what the card does, in the project's words (never its printed title)
                effect = event_effect(self.language, self.edition.event(card.number).kind)
                self._lines(effect, (rect.centerx, rect.y + 40), rect.w - 12, 16, INK)

    def readable(self, text: str, width: int, size: int) -> tuple[str, int]:
        """*text* and a font size up to *size* that write it within *width* pixels, never
        under :data:`MIN_LABEL_SIZE`: a label too long for that is shortened with a dot
        (``chaussure`` -> ``chauss.``) rather than written tiny (issue 19)."""
        fitted = self._fitted(text, width, size)
        if self._font(fitted).size(text)[0] <= width and fitted >= MIN_LABEL_SIZE:
            return text, fitted
        for n in range(len(text) - 1, 1, -1):
            short = text[:n].rstrip() + "."
            if self._font(MIN_LABEL_SIZE).size(short)[0] <= width:
                return short, self._fitted(short, width, size)
        return text[:2], MIN_LABEL_SIZE

    def _fitted(self, text: str, width: int, size: int) -> int:
        """The largest font size up to *size* that writes *text* within *width* pixels."""
        while size > MIN_LABEL_SIZE and self._font(size).size(text)[0] > width:
            size -= 1
        return size

    def _wrapped(self, text: str, width: int, size: int) -> tuple[list[str], int]:
        """*text* (a newline breaks it) as lines within *width* pixels at a font size up to
        *size* and never under :data:`MIN_LABEL_SIZE`: one line if it fits, else words on two
        lines, else each line shortened with a dot."""
        parts = text.split("\n")
        if len(parts) == 1:
            fitted = self._fitted(text, width, size)
            if self._font(fitted).size(text)[0] <= width:
                return [text], fitted
            words = text.split()
            splits: list[tuple[str, str]] = [
                (" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))
            ]
            if splits:  # the most even cut
                font = self._font(MIN_LABEL_SIZE)

                def longer(cut: tuple[str, str]) -> int:
                    return max(font.size(cut[0])[0], font.size(cut[1])[0])

                best = min(splits, key=longer)
                parts = [best[0], best[1]]
        fitted = min(self._fitted(p, width, size) for p in parts)
        lines = [self.readable(p, width, fitted)[0] for p in parts]
        return lines, min(self.readable(p, width, fitted)[1] for p in parts)

    def _lines(
        self, text: str, centre: tuple[int, int], width: int, size: int,
        colour: tuple[int, int, int],
    ) -> None:  # fmt: skip
        """Write *text* centred on *centre*, on one or two lines (:meth:`_wrapped`)."""
        lines, size = self._wrapped(text, width, size)
        top = centre[1] - LINE_STEP * (len(lines) - 1) // 2
        for i, line in enumerate(lines):
            self._label(line, (centre[0], top + LINE_STEP * i), size, colour, anchor="center")

    def _draw_tray_face(self, rect: pygame.Rect, card: CardId, big: bool) -> None:
        """A card of the ruleset's tray: a bank card with its label, a card of the columns (a
        property's), a deck's card."""
        win, view = self._target, self.tray_view
        assert view is not None
        if card.kind == "bank":
            pygame.draw.rect(win, BANK_COLOUR, rect, border_radius=8)
            pygame.draw.rect(win, (200, 170, 70), rect.inflate(-8, -8), width=1, border_radius=6)
            self._label(str(card.number), (rect.right - 8, rect.y + 5), 34 if big else 30,
                        (230, 200, 90), bold=True, anchor="topright")  # fmt: skip
            side = view.mark(card.number)
            if side is not None:  # a mark (Star Wars: the character's side), a coloured disc
                self._draw_mark(rect, view.tray.mark_colours.get(side), big)
            label, size = self.readable(view.seat_label(card.number),
                                        rect.w - BANK_LABEL_MARGIN, 24 if big else 18)  # fmt: skip
            self._label(label, (rect.centerx, rect.bottom - 7), size, PALE_INK,
                        anchor="midbottom")  # fmt: skip
        elif card.kind == view.tray.column_kind:
            colour = self._prop_colour[card.number]
            pygame.draw.rect(win, (250, 248, 240), rect, border_radius=5)
            band = pygame.Rect(rect.x + 3, rect.y + 3, rect.w - 6, max(8, rect.h // 3))
            name = view.name(card) if big else ""
            lines = self._wrapped(name, band.w - 6, 16)[0] if big else []
            if len(lines) > 1:  # a long name: a band tall enough for its two lines
                band.h = 2 * LINE_STEP + 6
            pygame.draw.rect(win, colour, band, border_radius=3)
            number_y = (band.bottom + rect.bottom) // 2 + 1
            self._label(str(card.number), (rect.centerx, number_y), 40 if big else 26, INK,
                        bold=True, anchor="center")  # fmt: skip
            if big:
                self._lines(name, band.center, band.w - 6, 16, _ink_on(colour))
        else:
            colour = pygame.Color(view.tray.colours.get(card.kind) or EVENT_COLOUR)
            pygame.draw.rect(win, colour, rect, border_radius=5)
            pygame.draw.rect(win, (255, 240, 220), rect.inflate(-6, -6), width=1, border_radius=4)
            self._label("?", (rect.x + 6, rect.y + 3), 28 if big else 22, INK, bold=True)
            self._label(str(card.number), (rect.right - 6, rect.bottom - 2), 40 if big else 26,
                        INK, bold=True, anchor="bottomright")  # fmt: skip
            if big:
                deck = view.deck_name(card.kind)
                title = view.name(card)
                text = "\n".join(t for t in (deck, title) if t)
                self._lines(text, (rect.centerx, rect.y + 42), rect.w - 12, 16, INK)

    def _draw_mark(self, rect: pygame.Rect, colours: tuple[str, str] | None, big: bool) -> None:
        """A bank card's mark in its top left corner: a disc in a ring of the tray's colours
        (Star Wars: a light-blue disc with its glow, a red disc in a dark ring)."""
        if colours is None:
            return
        r = 11 if big else 8
        centre = (rect.x + 6 + r, rect.y + 6 + r)
        glow, core = colours
        pygame.draw.circle(self._target, pygame.Color(glow), centre, r)
        pygame.draw.circle(self._target, pygame.Color(core), centre, r - 3)

    def _draw_tray_card(self, spot: L.Hotspot) -> None:
        """What changes on the tray at a card: its empty place while it is on the reader, the
        hover."""
        assert isinstance(spot.action, L.TapCard)
        win = self._target
        rect = pygame.Rect(spot.rect)
        if spot.action.card == self._on_reader:
            pygame.draw.rect(win, TABLE, rect.union(rect.move(2, 3)))
            pygame.draw.rect(win, (20, 40, 32), rect, border_radius=6)
            pygame.draw.rect(win, (90, 120, 100), rect, width=1, border_radius=6)
        elif self._hover is spot:
            pygame.draw.rect(win, HOVER, rect.inflate(4, 4), width=2, border_radius=7)

    def _status_text(self) -> str:
        if self._entry is not None:
            kind, digits = self._entry
            if kind == "card":
                typing = self._labels.words.get("typed.status")
                return (
                    typing.format(digits=digits)
                    if typing
                    else self._say("status.typing.card", digits=digits)
                )
            return self._say("status.typing", kind=self._say(f"kind.{kind}"), digits=digits)
        if self._message:
            return self._message
        spot = self._hover
        if spot is not None and isinstance(spot.action, L.TapCard):
            return self._describe(spot.action.card)
        if spot is not None and isinstance(spot.action, L.PressButton):
            return self._say("status.button", button=_SYMBOL[spot.action.button])
        if spot is not None and isinstance(spot.action, L.PressKey):
            key = spot.action.key
            return self._say("status.key", k=self._say("key.back") if key == "back" else key)
        if self._on_reader is not None:
            return self._say("status.on_reader", card=self._describe(self._on_reader))
        return self._say("status.help")

    def _describe(self, card: CardId) -> str:
        """What the status line says of *card* (a card of the ruleset's tray: its hover lines)."""
        if self.tray_view is not None:
            return "\n".join(self.tray_view.describe(card))
        if card.kind == "bank":
            token = token_name(self.language, self._cards.token(card.number))
            return self._say("describe.bank", n=card.number, token=token)
        if card.kind == "prop":
            p = self.edition.prop(card.number)
            group = self.edition.group(p.group).name
            return self._say("describe.prop", n=p.number, name=p.name, group=group,
                             price=money(p.price, self.edition.currency))  # fmt: skip
        e = self.edition.event(card.number)
        return self._say("describe.event", n=e.id, effect=event_effect(self.language, e.kind))

    def _draw_status(self) -> None:
        rect = pygame.Rect(self._status_rect)
        pygame.draw.rect(self._target, (20, 40, 33), rect, border_radius=8)
        lines = self._status_text().split("\n")
        step = rect.h // (len(lines) + 1)
        for i, text in enumerate(lines):
            size = 22
            while size > MIN_LABEL_SIZE and self._font(size).size(text)[0] > rect.w - 24:
                size -= 1
            y = rect.centery if len(lines) == 1 else rect.y + step * (i + 1)
            self._label(text, (rect.x + 12, y), size, PALE_INK, anchor="midleft")

    def _draw_help(self) -> None:
        win = self._target
        shade = pygame.Surface(win.get_size(), pygame.SRCALPHA)
        shade.fill((8, 14, 12, 232))
        win.blit(shade, (0, 0))
        rows = L.help_rows(self.language, self._shortcuts)
        x, y = 80, 60
        self._label(self._say("help.title"), (x, y), 34, PALE_INK, bold=True)
        y += 50
        if len(rows) <= 16:
            for keys, what in rows:
                self._label(keys, (x, y), 24, (250, 210, 90), bold=True)
                self._label(what, (x + 240, y), 24, PALE_INK)
                y += 30
        else:  # the keypad window's keys: two columns, each as wide as its longest keys
            x, half = 30, (len(rows) + 1) // 2
            bottom = y
            for col in range(2):
                part = rows[col * half : (col + 1) * half]
                left = x + col * 545
                width = max(self._font(20, True).size(keys)[0] for keys, _ in part) + 14
                cy = y
                for keys, what in part:
                    self._label(keys, (left, cy), 20, (250, 210, 90), bold=True)
                    # a long line goes on two rather than shrinking (issue 19)
                    lines, size = self._wrapped(what, 530 - width, 20)
                    for i, line in enumerate(lines):
                        self._label(line, (left + width, cy + 2 + LINE_STEP * i), size, PALE_INK)
                    cy += 30 + LINE_STEP * (len(lines) - 1)
                bottom = max(bottom, cy)
            y = bottom
        self._label(self._say("help.close"), (x, y + 16), 20, (170, 170, 170))

    # ------------------------------------------------------------ for tests and the CLI

    @property
    def held_buttons(self) -> frozenset[Button]:
        """The buttons currently down."""
        return frozenset(b for b, holders in self._holders.items() if holders)

    @property
    def help_visible(self) -> bool:
        return self._help

    @property
    def status_text(self) -> str:
        """The line under the tray (typed number, hovered card, messages)."""
        return self._status_text()

    def lcd_surface(self) -> pygame.Surface:
        """The LCD as last rendered."""
        return self._lcd_surface


_SYMBOL = {Button.OK: "OK", Button.MENU: "M", Button.CANCEL: "X"}


def _native_framebuffer() -> None:
    """On X11, show the window's surface with X's own images (MIT-SHM), not through an OpenGL
    texture: SDL's default there loads the OpenGL stack (Mesa's llvmpipe on a machine without
    a GPU, some 90 MB resident) and uploads and presents the whole window for any change,
    where X puts just the changed rectangles. Set before the window's surface is made; a
    value in the environment (``SDL_FRAMEBUFFER_ACCELERATION``) wins. Other drivers (Wayland
    has no framebuffer of its own in SDL 2) keep SDL's choice."""
    if pygame.display.get_driver() == "x11":
        os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")


def _desktop_size() -> tuple[int, int] | None:
    """The size of the screen the window opens on; None for drivers without a screen."""
    if pygame.display.get_driver() in NO_SYSTEM_INPUT:
        return None
    sizes = pygame.display.get_desktop_sizes()
    return sizes[0] if sizes else None


def _lamp_colour(screen: Screen) -> pygame.Color:
    """The group lamp's colour: the screen's group colour, or unlit."""
    unlit = pygame.Color(200, 197, 190)
    if screen.off or not screen.colour:
        return unlit
    try:
        return pygame.Color(screen.colour)
    except ValueError:  # not a colour: leave the lamp dark rather than stop the window
        log.warning("screen %r has a colour pygame cannot read: %r", screen.name, screen.colour)
        return unlit


def _window_icon() -> pygame.Surface:
    """A small LCD showing the mill sign, for the window manager."""
    icon = pygame.Surface((32, 32))
    icon.fill(BEZEL)
    pygame.draw.rect(icon, GLASS, pygame.Rect(3, 6, 26, 20))
    DotMatrix(pitch=2, dot=2, on=ON, ghost=None).draw(icon, "₥", (11, 9))
    return icon


def _ink_on(colour: pygame.Color) -> tuple[int, int, int]:
    """Black or white, whichever reads better on *colour*."""
    luma = 0.299 * colour.r + 0.587 * colour.g + 0.114 * colour.b
    return INK if luma > 140 else PALE_INK
