"""The Raspberry Pi panel: three GPIO buttons, a buzzer, and an HD44780 character LCD on I2C.

==========  ===============================================  ==========================
Part        Default                                          Library
==========  ===============================================  ==========================
✓ button    GPIO17 (pin 11) to GND, internal pull-up         gpiozero ``Button``
M button    GPIO27 (pin 13) to GND                           gpiozero ``Button``
X button    GPIO22 (pin 15) to GND                           gpiozero ``Button``
buzzer      GPIO18 (pin 12), passive piezo (PWM tones)       gpiozero ``TonalBuzzer``
            or an active buzzer (``buzzer="active"``)        gpiozero ``Buzzer``
LCD         20x4 (or 16x2) HD44780 behind a PCF8574 at 0x27  RPLCD ``i2c.CharLCD``
            on /dev/i2c-1 (pins 3 SDA, 5 SCL)
keypad      optional 3x4 matrix (classic games, docs/classic.md   gpiozero
            §5.6): rows on 4 pins, columns on 3 (BCM)        ``GPIODevice`` (rows) and
            ``1 2 3 / 4 5 6 / 7 8 9 / * 0 #``: ``*`` is ⌫,  ``DigitalInputDevice``
            ``#`` is ✓
==========  ===============================================  ==========================

The keypad is scanned: each row in turn is driven low while the columns (inputs with pull-ups)
are read, every :data:`KEYPAD_SCAN_SECONDS`; a key counts once two scans agree. A row off its
turn is a pulled-up input, not an output driven high, so keys pressed together never short two
outputs. Its pins must
be free of the buttons, the buzzer, I2C (BCM 2, 3) and the UART (BCM 14, 15), and of each
other (:func:`check_keypad_pins`).

Buttons post ``ButtonPressed``/``ButtonReleased`` (timestamps from the injected clock); holds
are the daemon's business (press and release times). Each cue plays a short tone pattern in a
player thread, a new cue cutting the previous one short. The screen is laid out by
:mod:`drivers.charlcd`, with CGRAM glyphs for the level bar, and only changed cells are
rewritten (an I2C LCD costs about a millisecond a character).

Imports ``bank.unit.io``, ``drivers.base``, ``drivers.charlcd``, the standard library, and
gpiozero and RPLCD inside the class, so a missing library costs only this backend.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    Cue,
    Input,
    KeyPressed,
    KeyReleased,
    Labels,
    PanelStatus,
    Screen,
)
from drivers import charlcd
from drivers.base import PanelError

log = logging.getLogger("ultibank.panel.gpio")

#: Each cue as (frequency in Hz, seconds); a frequency of 0 is a rest.
PATTERNS: dict[Cue, tuple[tuple[int, float], ...]] = {
    Cue.READ: ((1760, 0.05),),
    Cue.KACHING: ((1319, 0.06), (0, 0.02), (1760, 0.14)),
    Cue.LEVEL_UP: ((880, 0.07), (1109, 0.07), (1319, 0.12)),
    Cue.ERROR: ((294, 0.3),),
    Cue.AUCTION_TICK: ((1047, 0.03),),
    Cue.HAMMER: ((587, 0.08), (0, 0.05), (392, 0.22)),
    Cue.UNDO: ((1319, 0.07), (880, 0.12)),
    Cue.JAIL: ((440, 0.15), (0, 0.05), (330, 0.3)),
    Cue.GAME_OVER: ((784, 0.12), (988, 0.12), (1175, 0.12), (1568, 0.4)),
    Cue.DICE: ((1568, 0.03), (0, 0.03), (1319, 0.03), (0, 0.03), (1760, 0.05)),
}
#: the tone range the TonalBuzzer is built for (all patterns fit)
MID_TONE_HZ = 880
OCTAVES = 2


@dataclass(frozen=True, slots=True)
class GpioPins:
    """BCM pin numbers (or gpiozero pin names); *buzzer* None means no buzzer."""

    ok: int | str = 17
    menu: int | str = 27
    cancel: int | str = 22
    buzzer: int | str | None = 18


#: the 3x4 keypad's keys by row and column: digits and ``back`` (⌫) are keypad keys, ``ok``
#: is ✓ (the ``#`` key)
KEYPAD_KEYS: tuple[tuple[str, ...], ...] = (
    ("1", "2", "3"),
    ("4", "5", "6"),
    ("7", "8", "9"),
    ("back", "0", "ok"),
)
#: seconds between two scans of the keypad (a key counts once two scans agree: 20 ms)
KEYPAD_SCAN_SECONDS = 0.01
#: BCM pins a keypad may not take: I2C-1 (the LCD) and the UART (a serial console, a reader)
RESERVED_PINS = {2: "I2C SDA", 3: "I2C SCL", 14: "UART TXD", 15: "UART RXD"}


def check_keypad_pins(
    rows: tuple[int, ...], cols: tuple[int, ...], pins: GpioPins, lcd: bool = True
) -> None:
    """PanelError in one line when the keypad's pins are not 4 rows and 3 columns (or none),
    or clash with the buttons, the buzzer, I2C (with an LCD), the UART or each other."""
    if not rows and not cols:
        return
    if len(rows) != len(KEYPAD_KEYS) or len(cols) != len(KEYPAD_KEYS[0]):
        raise PanelError(
            "panel.gpio_keypad_rows and panel.gpio_keypad_cols: a 3x4 keypad needs 4 row pins "
            f"and 3 column pins, not {len(rows)} and {len(cols)} (both empty: no keypad)"
        )
    taken: dict[int | str, str] = {
        pin: name
        for pin, name in (
            (pins.ok, "the ✓ button"),
            (pins.menu, "the M button"),
            (pins.cancel, "the X button"),
            (pins.buzzer, "the buzzer"),
        )
        if pin is not None
    }
    for pin, name in RESERVED_PINS.items():
        if lcd or not name.startswith("I2C"):
            taken.setdefault(pin, name)
    for key, pin in [*(("rows", p) for p in rows), *(("cols", p) for p in cols)]:
        if pin in taken:
            raise PanelError(
                f"panel.gpio_keypad_{key}: GPIO{pin} is already {taken[pin]}'s; "
                "choose a free BCM pin"
            )
        taken[pin] = f"keypad {key[:-1]}"


@dataclass(frozen=True, slots=True)
class LcdConfig:
    """An HD44780 behind an I2C port expander (RPLCD ``i2c.CharLCD``)."""

    address: int = 0x27
    port: int = 1
    cols: int = 20
    rows: int = 4
    expander: str = "PCF8574"
    charmap: str = "A00"


DEFAULT_LCD = LcdConfig()


class GpioPanel:
    """The Pi box's face: GPIO buttons, a buzzer and a character LCD."""

    def __init__(
        self,
        pins: GpioPins | None = None,
        lcd: LcdConfig | None = DEFAULT_LCD,
        *,
        buzzer: str = "tonal",
        clock: Callable[[], float] = time.monotonic,
        bounce_time: float | None = 0.02,
        pin_factory: Any = None,
        lcd_factory: Callable[[LcdConfig], Any] | None = None,
        pause: Callable[[float], bool] | None = None,
        name: str = "gpio",
        keypad_rows: tuple[int, ...] = (),
        keypad_cols: tuple[int, ...] = (),
        keypad_scan: float = KEYPAD_SCAN_SECONDS,
        labels: Labels | None = None,
    ) -> None:
        try:
            import gpiozero
        except ImportError as err:
            raise PanelError("the GPIO panel needs gpiozero: pip install 'ultibank[pi]'") from err
        if buzzer not in ("tonal", "active", "none"):
            raise PanelError(f"buzzer must be 'tonal', 'active' or 'none', not {buzzer!r}")
        self._gpiozero: Any = gpiozero
        self.pins = pins or GpioPins()
        check_keypad_pins(keypad_rows, keypad_cols, self.pins, lcd is not None)
        self.keypad_pins = (tuple(keypad_rows), tuple(keypad_cols))
        self._scan_seconds = keypad_scan
        self._keypad: MatrixKeypad | None = None
        self.labels = labels
        self.lcd_config = lcd
        self.name = name
        self._buzzer_kind = buzzer
        self._clock = clock
        self._bounce = bounce_time
        self._pin_factory = pin_factory
        self._lcd_factory = lcd_factory or _rplcd_i2c
        self._interrupt = threading.Event()
        self._pause = pause or self._interrupt.wait
        self._post: Callable[[Input], None] | None = None
        self._buttons: list[Any] = []
        self._buzzer: Any = None
        self._lcd: Any = None
        self._rows: list[str] = []
        self._backlight: bool | None = None
        self._screen: Screen | None = None
        self._cues: queue.Queue[Cue | None] = queue.Queue()
        self._player: threading.Thread | None = None
        self._lock = threading.Lock()
        #: cues whose pattern has finished playing (or was cut short), for diagnostics
        self.cues_played: list[Cue] = []

    @classmethod
    def from_config(
        cls,
        panel: Mapping[str, Any],
        *,
        clock: Callable[[], float] = time.monotonic,
        labels: Labels | None = None,
    ) -> GpioPanel:
        """Build from the ``[panel]`` table (``gpio_ok``... ``lcd_rows``; a negative
        ``gpio_buzzer`` means no buzzer, ``lcd_rows = 0`` no LCD; ``gpio_keypad_rows`` and
        ``gpio_keypad_cols`` the keypad, empty lists for none)."""
        pins = GpioPins(
            ok=panel.get("gpio_ok", 17),
            menu=panel.get("gpio_menu", 27),
            cancel=panel.get("gpio_cancel", 22),
            buzzer=None if int(panel.get("gpio_buzzer", 18)) < 0 else panel.get("gpio_buzzer", 18),
        )
        rows = int(panel.get("lcd_rows", 4))
        lcd = None
        if rows > 0:
            lcd = LcdConfig(
                address=int(panel.get("lcd_address", 0x27)),
                cols=int(panel.get("lcd_cols", 20)),
                rows=rows,
            )
        return cls(
            pins,
            lcd,
            buzzer=str(panel.get("buzzer", "tonal")),
            clock=clock,
            keypad_rows=tuple(int(p) for p in panel.get("gpio_keypad_rows", ())),
            keypad_cols=tuple(int(p) for p in panel.get("gpio_keypad_cols", ())),
            labels=labels,
        )

    # ------------------------------------------------------------ Panel protocol

    def start(self, post: Callable[[Input], None]) -> None:
        """Claim the pins, initialise the LCD, and begin posting button inputs."""
        self._post = post
        gz = self._gpiozero
        try:
            for button, pin in (
                (Button.OK, self.pins.ok),
                (Button.MENU, self.pins.menu),
                (Button.CANCEL, self.pins.cancel),
            ):
                dev = gz.Button(
                    pin, pull_up=True, bounce_time=self._bounce, pin_factory=self._pin_factory
                )
                dev.when_pressed = self._callback(ButtonPressed, button)
                dev.when_released = self._callback(ButtonReleased, button)
                self._buttons.append(dev)
            if self.pins.buzzer is not None and self._buzzer_kind == "tonal":
                self._buzzer = gz.TonalBuzzer(
                    self.pins.buzzer,
                    mid_tone=gz.tones.Tone(frequency=MID_TONE_HZ),
                    octaves=OCTAVES,
                    pin_factory=self._pin_factory,
                )
            elif self.pins.buzzer is not None and self._buzzer_kind == "active":
                self._buzzer = gz.Buzzer(self.pins.buzzer, pin_factory=self._pin_factory)
            rows, cols = self.keypad_pins
            if rows:
                self._keypad = MatrixKeypad(
                    gz, rows, cols, self._key, self._pin_factory, self._scan_seconds
                )
        except gz.BadPinFactory as err:
            self.close()
            raise PanelError(
                "no GPIO pin factory: not a Raspberry Pi, or lgpio is missing "
                "(pip install lgpio); GPIOZERO_PIN_FACTORY=mock gives a dry run"
            ) from err
        except gz.GPIOZeroError as err:
            self.close()
            raise PanelError(f"cannot claim the panel's GPIO pins {self.pins}: {err}") from err
        if self.lcd_config is not None:
            try:
                self._open_lcd()
            except PanelError:
                self.close()
                raise
        if self._buzzer is not None:
            self._player = threading.Thread(target=self._play_loop, name="gpio-buzzer", daemon=True)
            self._player.start()

    def show(self, screen: Screen) -> None:
        """Lay *screen* out on the LCD, rewriting only the cells that changed."""
        with self._lock:
            self._screen = screen
            if self.lcd_config is None:
                return
            try:
                if self._lcd is None:
                    self._open_lcd()
                    self._report(True, "LCD back")
                self._draw(screen)
            except (OSError, PanelError) as err:
                self._drop_lcd()
                self._report(False, f"LCD lost: {err}")

    def play(self, cue: Cue) -> None:
        """Play *cue* on the buzzer (cutting short the one playing); no buzzer, no sound."""
        if self._player is None:
            return
        # Queue first, then interrupt: the player either sees the newer cue waiting or is cut.
        self._cues.put(cue)
        self._interrupt.set()

    def close(self) -> None:
        """Silence the buzzer, blank the LCD and free the pins."""
        if self._keypad is not None:
            self._keypad.close()
            self._keypad = None
        if self._player is not None:
            self._interrupt.set()
            self._cues.put(None)
            self._player.join(timeout=5)
            self._player = None
        for dev in [*self._buttons, self._buzzer]:
            if dev is not None:
                dev.close()
        self._buttons = []
        self._buzzer = None
        if self._lcd is not None:
            try:
                self._lcd.clear()
                self._lcd.close()
            except OSError as err:
                log.info("%s: LCD close failed: %s", self.name, err)
            self._lcd = None

    # ------------------------------------------------------------ eyes

    @property
    def lcd_rows(self) -> tuple[str, ...]:
        """What the driver last wrote to the LCD (glyphs as codes 0..7)."""
        return tuple(self._rows)

    # ------------------------------------------------------------ internals

    def _callback(self, kind: type[ButtonPressed | ButtonReleased], button: Button) -> Any:
        def fire() -> None:
            # Runs on gpiozero's thread; the daemon's post is thread-safe.
            if self._post is not None:
                self._post(kind(self._clock(), button))

        return fire

    def _key(self, key: str, down: bool) -> None:
        """A keypad key went down or up (the scanner's thread): ``#`` is the ✓ button."""
        if self._post is None:
            return
        now = self._clock()
        if key == "ok":
            self._post(ButtonPressed(now, Button.OK) if down else ButtonReleased(now, Button.OK))
        else:
            self._post(KeyPressed(now, key) if down else KeyReleased(now, key))

    def _report(self, connected: bool, detail: str) -> None:
        log.log(logging.INFO if connected else logging.ERROR, "%s: %s", self.name, detail)
        if self._post is not None:
            self._post(PanelStatus(self._clock(), connected, self.name, detail))

    def _open_lcd(self) -> None:
        cfg = self.lcd_config
        assert cfg is not None
        try:
            lcd = self._lcd_factory(cfg)
            for slot, bitmap in charlcd.GLYPHS.items():
                lcd.create_char(slot, bitmap)
            lcd.clear()
        except OSError as err:
            raise PanelError(
                f"no {cfg.cols}x{cfg.rows} LCD at 0x{cfg.address:02x} on /dev/i2c-{cfg.port}: "
                f"{err} (enable I2C with 'raspi-config nonint do_i2c 0', check the address "
                "with 'i2cdetect -y 1', or set panel.lcd_address)"
            ) from err
        self._lcd = lcd
        self._rows = [" " * cfg.cols for _ in range(cfg.rows)]
        self._backlight = None

    def _drop_lcd(self) -> None:
        lcd, self._lcd = self._lcd, None
        if lcd is not None:
            with contextlib.suppress(OSError):
                lcd.close()

    def _draw(self, screen: Screen) -> None:
        cfg = self.lcd_config
        lcd = self._lcd
        assert cfg is not None and lcd is not None
        rows = charlcd.layout(screen, cfg.cols, cfg.rows, glyphs=True, labels=self.labels)
        light = not screen.off
        if light != self._backlight and hasattr(lcd, "backlight_enabled"):
            lcd.backlight_enabled = light
        self._backlight = light
        for r, (old, new) in enumerate(zip(self._rows, rows, strict=True)):
            for start, text in _changed_spans(old, new):
                lcd.cursor_pos = (r, start)
                for ch in text:
                    lcd.write(ord(ch))
            self._rows[r] = new

    def _play_loop(self) -> None:
        while True:
            cue = self._cues.get()
            if cue is None:
                return
            self._interrupt.clear()
            if not self._cues.empty():
                continue  # a newer cue is waiting: skip this one
            cut = False
            for freq, seconds in PATTERNS[cue]:
                self._sound(freq)
                if self._pause(seconds):
                    cut = True
                    break
            self._sound(0)
            self.cues_played.append(cue)
            if cut:
                log.debug("%s: cue %s cut short", self.name, cue.value)

    def _sound(self, freq: int) -> None:
        buzzer = self._buzzer
        if buzzer is None:
            return
        if self._buzzer_kind == "tonal":
            if freq:
                buzzer.play(self._gpiozero.tones.Tone(frequency=freq))
            else:
                buzzer.stop()
        elif freq:
            buzzer.on()
        else:
            buzzer.off()


class MatrixKeypad:
    """A 3x4 matrix keypad scanned in a thread: *on_key(key, down)* for each change."""

    def __init__(
        self,
        gz: Any,
        rows: tuple[int, ...],
        cols: tuple[int, ...],
        on_key: Callable[[str, bool], None],
        pin_factory: Any = None,
        period: float = KEYPAD_SCAN_SECONDS,
    ) -> None:
        self._on_key = on_key
        self._period = period
        self._rows: list[Any] = []
        self._cols: list[Any] = []
        try:
            for pin in rows:
                # a row is an output only for its turn of the scan, driven low; the rest of the
                # time it is a pulled-up input (open drain), so two keys pressed in one column
                # never join a low output to a high one
                self._rows.append(gz.GPIODevice(pin, pin_factory=pin_factory))
                _release(self._rows[-1])
            for pin in cols:
                # a key pressed in the row being scanned pulls its column low: active
                self._cols.append(gz.DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory))
        except Exception:
            self._free()
            raise
        #: keys down as the last two scans agreed, and as the last scan saw them
        self.down: set[str] = set()
        self._seen: set[str] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="gpio-keypad", daemon=True)
        self._thread.start()

    def scan(self) -> set[str]:
        """The keys down now: each row driven low in turn while the columns are read."""
        pressed: set[str] = set()
        for r, row in enumerate(self._rows):
            row.pin.function = "output"
            row.pin.state = 0
            try:
                for c, col in enumerate(self._cols):
                    if col.value:
                        pressed.add(KEYPAD_KEYS[r][c])
            finally:
                _release(row)
        return pressed

    def _loop(self) -> None:
        while not self._stop.wait(self._period):
            try:
                seen = self.scan()
            except Exception as err:  # a pin closed under the scan: the panel is closing
                log.debug("keypad scan stopped: %s", err)
                return
            # a change counts when two scans in a row agree on it (20 ms of debounce)
            pressed = (seen & self._seen) - self.down
            released = self.down - (seen | self._seen)
            self._seen = seen
            for key in sorted(released):  # released before another is pressed
                self.down.discard(key)
                self._on_key(key, False)
            for key in sorted(pressed):
                self.down.add(key)
                self._on_key(key, True)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self._free()

    def _free(self) -> None:
        for dev in [*self._rows, *self._cols]:
            with contextlib.suppress(Exception):
                dev.close()
        self._rows, self._cols = [], []


def _release(row: Any) -> None:
    """A keypad row off its turn: an input with the Pi's pull-up."""
    row.pin.function = "input"
    row.pin.pull = "up"


def _changed_spans(old: str, new: str) -> list[tuple[int, str]]:
    """(column, text) runs where *new* differs from *old* (runs closer than 3 cells merge)."""
    spans: list[tuple[int, str]] = []
    start: int | None = None
    last = -10
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        if a == b:
            continue
        if start is None:
            start = i
        elif i - last > 3:
            spans.append((start, new[start : last + 1]))
            start = i
        last = i
    if start is not None:
        spans.append((start, new[start : last + 1]))
    return spans


def _rplcd_i2c(cfg: LcdConfig) -> Any:
    """The real LCD: RPLCD's I2C driver (needs smbus2 and /dev/i2c-N)."""
    try:
        from RPLCD.i2c import CharLCD
    except ImportError as err:
        raise PanelError(
            "the GPIO panel's LCD needs RPLCD and smbus2: pip install 'ultibank[pi]'"
        ) from err
    return CharLCD(
        cfg.expander,
        cfg.address,
        port=cfg.port,
        cols=cfg.cols,
        rows=cfg.rows,
        charmap=cfg.charmap,
        auto_linebreaks=False,
    )
