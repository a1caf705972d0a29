"""Panel conformance: every panel backend gets the same screen model and the same button, and
must show the screen's words and amount and post the same unit inputs.

Backends: the terminal view (on a real pseudo-terminal), the serial panel (the simulated
firmware at the other end of a socat pty pair), the GPIO panel (gpiozero's mock pin factory and
an in-memory HD44780), the simulated panel, and the pygame emulator (a real surface on SDL's
dummy driver, read back from its pixels). A new backend adds one adapter here. Classic mode
(docs/classic.md §5.6): the backends in ``KEYPADS`` also show a classic screen and post the keypad's
keys (the serial panel at protocol version 2, ``serial-keypad``); the terminal view and the
GPIO box (with its 3x4 keypad on electrically wired mock pins) also show the edition's labels
and the deed's layout and post the same keypad keys.
"""

from __future__ import annotations

import os
import re

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import contextlib
import pty
import select
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar, Protocol

import pytest

from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardRanges,
    CardTapped,
    Icon,
    Input,
    KeyPressed,
    KeyReleased,
    PanelStatus,
    Screen,
)
from drivers.charlcd import Labels
from tests.panels.conftest import wait_until
from tests.support.fakes import FakeClock

SCREEN = Screen("balance", lines=("Joueur 3",), token="boat", amount=1500)
WORDS = "Joueur 3"
AMOUNT = 1500


class Adapter(Protocol):
    """One backend, driven from the outside: eyes on what it shows, a finger on its buttons."""

    clock: FakeClock
    inputs: list[Input]

    def show(self, screen: Screen) -> None: ...

    def shown_text(self) -> str:
        """Everything the panel shows now, as text a person reads off it."""
        ...

    def click(self, button: Button) -> None:
        """Press and release *button* the way a player does on this backend."""
        ...


def _card_inputs(inputs: list[Input]) -> list[tuple[str, CardId | None]]:
    return [
        (type(i).__name__, i.card if isinstance(i, CardTapped) else None)
        for i in inputs
        if isinstance(i, CardTapped | CardLifted)
    ]


def _key_inputs(inputs: list[Input]) -> list[tuple[str, str]]:
    return [(type(i).__name__, i.key) for i in inputs if isinstance(i, KeyPressed | KeyReleased)]


def _button_inputs(inputs: list[Input]) -> list[tuple[str, Button]]:
    return [
        (type(i).__name__, i.button)
        for i in inputs
        if isinstance(i, ButtonPressed | ButtonReleased)
    ]


def _key_inputs(inputs: list[Input]) -> list[tuple[str, str]]:
    return [(type(i).__name__, i.key) for i in inputs if isinstance(i, KeyPressed | KeyReleased)]


def _classic_fr() -> tuple[CardRanges, Labels]:
    """The cards and labels the wiring gives a panel for a classic-fr game."""
    from bank.app.runtime import panel_labels
    from board_assets import load_edition

    edition = load_edition("classic-fr")
    return CardRanges.of(edition), panel_labels(edition, "fr")


# ---------------------------------------------------------------------- adapters


class SimAdapter:
    def __init__(self, clock: FakeClock) -> None:
        from drivers.sim import SimPanel

        self.clock = clock
        self.inputs: list[Input] = []
        self.panel = SimPanel(clock)
        self.panel.start(self.inputs.append)

    def show(self, screen: Screen) -> None:
        self.panel.show(screen)

    def shown_text(self) -> str:
        screen = self.panel.last_screen
        return "" if screen is None else screen.text()

    def click(self, button: Button) -> None:
        self.panel.press(button)
        self.panel.release(button)

    def close(self) -> None:
        self.panel.close()


class TerminalAdapter:
    """The terminal view with its keyboard and screen on a real pseudo-terminal."""

    KEYS: ClassVar[dict[Button, bytes]] = {Button.OK: b"o", Button.MENU: b"m", Button.CANCEL: b"x"}
    #: classic mode's card letters (docs/classic.md §5.6)
    LETTERS: ClassVar[dict[str, str]] = {"bank": "b", "deed": "d", "chance": "c", "chest": "k"}

    def __init__(self, clock: FakeClock, classic: bool = False) -> None:
        from drivers.terminal_panel import TerminalPanel

        self.clock = clock
        self.inputs: list[Input] = []
        self.classic = classic
        self.master, slave = pty.openpty()
        self._in = os.fdopen(os.dup(slave), "r", encoding="utf-8", errors="replace")
        self._out = os.fdopen(slave, "w", encoding="utf-8")
        cards, labels = _classic_fr() if classic else (None, None)
        self.panel = TerminalPanel(
            self._in, self._out, clock=clock, bell=False, cards=cards, labels=labels
        )
        self.panel.start(self.inputs.append)
        self.seen = b""

    def show(self, screen: Screen) -> None:
        self.panel.show(screen)
        wait_until(lambda: self._pump() and b"+----" in self.seen, what="the terminal's box")

    def _pump(self) -> bool:
        while select.select([self.master], [], [], 0.05)[0]:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                break
            if not chunk:
                break
            self.seen += chunk
        return True

    def shown_text(self) -> str:
        """The last box drawn (the terminal scrolls: earlier boxes stay above it)."""
        self._pump()
        text = self.seen.decode("utf-8", errors="replace")
        # a box is its contents between two border lines "+----...----+"
        parts = re.split(r"\+-{8,}\+", text)
        return parts[-2] if len(parts) >= 3 else parts[-1]

    def click(self, button: Button) -> None:
        os.write(self.master, self.KEYS[button])
        wait_until(lambda: len(_button_inputs(self.inputs)) >= 2, what="the key's inputs")

    def tap(self, card: CardId) -> None:
        if self.classic:
            end = "" if card.kind == "bank" else "\n"  # a bank card is one digit: no Enter
            os.write(self.master, f"{self.LETTERS[card.kind]}{card.number}{end}".encode())
        else:
            os.write(self.master, f"{card.kind[0]}{card.number}\n".encode())
        wait_until(lambda: len(_card_inputs(self.inputs)) >= 2, what="the typed card")

    def key(self, key: str) -> None:
        os.write(self.master, b"\x7f" if key == "back" else key.encode())
        wait_until(lambda: len(_key_inputs(self.inputs)) >= 2, what="the keypad key")

    def close(self) -> None:
        self.panel.close()
        for f in (self._in, self._out):
            with contextlib.suppress(OSError):
                f.close()
        os.close(self.master)


class GpioAdapter:
    """Buttons on gpiozero's mock pins, the screen on an in-memory HD44780."""

    PINS: ClassVar[dict[Button, int]] = {Button.OK: 17, Button.MENU: 27, Button.CANCEL: 22}
    #: the keypad of the example wiring (docs/classic.md §5.6), in classic mode
    ROWS: ClassVar[list[int]] = [5, 6, 13, 19]
    COLS: ClassVar[list[int]] = [26, 16, 20]

    def __init__(self, clock: FakeClock, classic: bool = False) -> None:
        from gpiozero.pins.mock import MockFactory

        from drivers.gpio_panel import GpioPanel, LcdConfig
        from tests.panels.fake_hd44780 import FakeHD44780
        from tests.panels.matrix_keypad import KeypadWiring, MatrixPin

        self.clock = clock
        self.inputs: list[Input] = []
        self.factory = MockFactory(pin_class=MatrixPin)
        self.lcds: list[FakeHD44780] = []
        self.wiring = KeypadWiring(self.factory, self.ROWS, self.COLS)

        def lcd(cfg: LcdConfig) -> FakeHD44780:
            self.lcds.append(FakeHD44780(cfg.cols, cfg.rows))
            return self.lcds[-1]

        keypad = (tuple(self.ROWS), tuple(self.COLS)) if classic else ((), ())
        self.panel = GpioPanel(
            lcd=LcdConfig(cols=20, rows=4),
            clock=clock,
            pin_factory=self.factory,
            lcd_factory=lcd,
            pause=lambda seconds: False,
            bounce_time=None,
            keypad_rows=keypad[0],
            keypad_cols=keypad[1],
            labels=_classic_fr()[1] if classic else None,
        )
        self.panel.start(self.inputs.append)

    def show(self, screen: Screen) -> None:
        self.panel.show(screen)

    def shown_text(self) -> str:
        return "\n".join(self.lcds[-1].lines())

    def click(self, button: Button) -> None:
        pin = self.factory.pin(self.PINS[button])
        pin.drive_low()  # the button shorts the pulled-up pin to ground
        pin.drive_high()

    def key(self, key: str) -> None:
        printed = "*" if key == "back" else key
        self.wiring.press(printed)
        wait_until(lambda: len(_key_inputs(self.inputs)) >= 1, what="the key down")
        self.wiring.release(printed)
        wait_until(lambda: len(_key_inputs(self.inputs)) >= 2, what="the key up")

    def close(self) -> None:
        self.panel.close()
        self.factory.reset()


class SerialAdapter:
    """The serial panel, and the simulated firmware at the other end of a pty pair."""

    def __init__(self, clock: FakeClock, tmp: Path, keypad: bool = False) -> None:
        from drivers.serial_panel import SerialPanel
        from firmware_sim.panel_firmware import PanelFirmware
        from tests.support.pty_pair import make_pair

        self.clock = clock
        self.inputs: list[Input] = []
        self.cable = make_pair(tmp)
        self.firmware = PanelFirmware(self.cable.panel_path, ack_timeout=0.05, keypad=keypad)
        self.firmware.start()
        self.panel = SerialPanel(
            self.cable.host_path, clock=clock, ack_timeout=0.1, ping_interval=0.3
        )
        self.panel.start(self.inputs.append)
        wait_until(
            lambda: any(isinstance(i, PanelStatus) and i.connected for i in self.inputs),
            what="the serial link",
        )

    def show(self, screen: Screen) -> None:
        self.panel.show(screen)
        wait_until(lambda: self.firmware.screen == screen, what="the firmware's LCD")

    def shown_text(self) -> str:
        return "\n".join(self.firmware.lcd_lines)

    def click(self, button: Button) -> None:
        self.firmware.press(button)
        self.firmware.release(button)
        wait_until(lambda: len(_button_inputs(self.inputs)) >= 2, what="the button frames")

    def key(self, key: str) -> None:
        self.firmware.key(key)
        wait_until(lambda: len(_key_inputs(self.inputs)) >= 2, what="the key frames")

    def close(self) -> None:
        self.panel.close()
        self.firmware.stop()
        self.cable.close()


class EmulatorAdapter:
    """The pygame window on SDL's dummy driver; the LCD read back from its pixels."""

    def __init__(self, clock: FakeClock) -> None:
        from firmware_sim.emulator import PygamePanel
        from firmware_sim.sounds import RecordingPlayer

        self.clock = clock
        self.inputs: list[Input] = []
        self.panel = PygamePanel("ultime-fr", clock=clock, player=RecordingPlayer())
        self.panel.start(self.inputs.append)
        self.panel.open()
        self.panel.step()

    def show(self, screen: Screen) -> None:
        self.panel.show(screen)
        self.panel.step()

    def shown_text(self) -> str:
        from firmware_sim.lcd import LcdLayout
        from tests.firmware_sim.lcdread import any_lit, read_amount, read_text_row

        surface = self.panel.lcd_surface()
        lay = LcdLayout()
        if not any_lit(surface, (0, 0, *surface.get_size())):
            return ""  # blank glass: the unit is off
        amount = read_amount(surface, lay)
        rows = [read_text_row(surface, lay, r) for r in range(lay.text_rows)]
        return "\n".join([str(amount), *rows])

    def click(self, button: Button) -> None:
        from firmware_sim import layout as L

        self._click(L.BUTTON_CENTRES[button])

    def tap(self, card: CardId) -> None:
        from board_assets import load_edition
        from firmware_sim import layout as L

        (spot,) = [
            s
            for s in L.card_hotspots(load_edition("ultime-fr"))
            if isinstance(s.action, L.TapCard) and s.action.card == card
        ]
        self._click(spot.centre)

    def _click(self, pos: tuple[int, int]) -> None:
        from firmware_sim.pg import pygame

        for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))
            self.panel.step()

    def close(self) -> None:
        self.panel.close()


BACKENDS: dict[str, Callable[[FakeClock, Path], object]] = {
    "sim": lambda clock, tmp: SimAdapter(clock),
    "terminal": lambda clock, tmp: TerminalAdapter(clock),
    "gpio": lambda clock, tmp: GpioAdapter(clock),
    "serial": lambda clock, tmp: SerialAdapter(clock, tmp),
    # protocol version 2 with the classic keypad: the same conformance, and the keys below
    "serial-keypad": lambda clock, tmp: SerialAdapter(clock, tmp, keypad=True),
    "emulator": lambda clock, tmp: EmulatorAdapter(clock),
}


def _opened(make: Callable[[FakeClock, Path], object], tmp: Path) -> Iterator[Any]:
    """An adapter made on a fresh clock, closed after the test."""
    adapter = make(FakeClock(), tmp)
    try:
        yield adapter
    finally:
        adapter.close()  # type: ignore[attr-defined]


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Adapter]:
    yield from _opened(BACKENDS[request.param], tmp_path)


def test_a_screen_shows_its_words_and_amount(backend: Adapter) -> None:
    backend.show(SCREEN)
    text = backend.shown_text()
    assert WORDS in text and str(AMOUNT) in text, text


def test_a_later_screen_replaces_the_earlier_one(backend: Adapter) -> None:
    backend.show(SCREEN)
    backend.show(Screen("balance", lines=("Joueur 4",), token="jet", amount=950))
    deadline = time.monotonic() + 5
    while "Joueur 4" not in backend.shown_text() and time.monotonic() < deadline:
        time.sleep(0.01)
    text = backend.shown_text()
    assert "Joueur 4" in text and "950" in text and "Joueur 3" not in text, text


@pytest.mark.parametrize("button", list(Button))
def test_a_button_click_is_pressed_then_released(backend: Adapter, button: Button) -> None:
    backend.click(button)
    assert _button_inputs(backend.inputs) == [
        ("ButtonPressed", button),
        ("ButtonReleased", button),
    ]


def test_button_inputs_carry_the_panels_clock(backend: Adapter) -> None:
    backend.clock.now = 1234.5
    backend.click(Button.OK)
    stamps = {i.at for i in backend.inputs if isinstance(i, ButtonPressed | ButtonReleased)}
    assert stamps == {1234.5}


def test_the_screen_off_shows_nothing_of_the_last_one(backend: Adapter) -> None:
    backend.show(SCREEN)
    backend.show(Screen("off", off=True))
    deadline = time.monotonic() + 5
    while WORDS in backend.shown_text() and time.monotonic() < deadline:
        time.sleep(0.01)
    text = backend.shown_text()
    assert WORDS not in text and str(AMOUNT) not in text, text


#: the backends a player can tap a card on (the others leave cards to a reader)
TAPPERS = ("emulator", "terminal")


class Tapper(Adapter, Protocol):
    def tap(self, card: CardId) -> None:
        """Tap *card* the way a player does on this backend (typed, clicked)."""
        ...


@pytest.fixture(params=TAPPERS)
def tapper(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Tapper]:
    yield from _opened(BACKENDS[request.param], tmp_path)


@pytest.mark.parametrize("card", ["bank:2", "prop:16", "event:23"])
def test_a_card_tapped_on_the_panel_is_tapped_then_lifted(tapper: Tapper, card: str) -> None:
    cid = CardId.parse(card)
    tapper.tap(cid)
    assert _card_inputs(tapper.inputs) == [("CardTapped", cid), ("CardLifted", None)]


# ---------------------------------------------------------------------- classic mode

#: a classic screen: a deed with its hotel, colour, mortgage icon and an 8-seat token label
CLASSIC_SCREEN = Screen(
    "deed",
    lines=("12 Av. Mozart", "brouette loyer 750"),
    amount=750,
    number=12,
    token="wheelbarrow",
    level=5,
    icons=frozenset({Icon.MORTGAGE}),
    colour="#d93a96",
)
CLASSIC_WORDS = ("12 Av. Mozart", "brouette loyer 750")
#: the panels that play classic with the edition's labels (docs/classic.md §5.6)
CLASSIC_BACKENDS: dict[str, Callable[[FakeClock], object]] = {
    "terminal": lambda clock: TerminalAdapter(clock, classic=True),
    "gpio": lambda clock: GpioAdapter(clock, classic=True),
}


class Keypad(Adapter, Protocol):
    def key(self, key: str) -> None:
        """Press and release keypad *key* (``0``-``9``, ``back``) the way a player does."""
        ...


#: the backends with the classic keypad (docs/classic.md §5.6)
KEYPADS = ("serial-keypad",)


@pytest.fixture(params=KEYPADS)
def keypad(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Keypad]:
    yield from _opened(BACKENDS[request.param], tmp_path)


def test_a_classic_screen_shows_its_words_and_amount(keypad: Keypad) -> None:
    keypad.show(CLASSIC_SCREEN)
    text = keypad.shown_text()
    assert all(w in text for w in CLASSIC_WORDS) and "750" in text, text


@pytest.mark.parametrize("key", ["0", "7", "9", "back"])
def test_a_keypad_key_is_pressed_then_released_beside_the_buttons(keypad: Keypad, key: str) -> None:
    keypad.clock.now = 77.0
    keypad.key(key)
    keypad.click(Button.MENU)
    assert _key_inputs(keypad.inputs) == [("KeyPressed", key), ("KeyReleased", key)]
    assert _button_inputs(keypad.inputs) == [
        ("ButtonPressed", Button.MENU),
        ("ButtonReleased", Button.MENU),
    ]
    stamps = {i.at for i in keypad.inputs if isinstance(i, KeyPressed | KeyReleased)}
    assert stamps == {77.0}


@pytest.fixture(params=sorted(CLASSIC_BACKENDS))
def classic(request: pytest.FixtureRequest) -> Iterator[Keypad]:
    adapter = CLASSIC_BACKENDS[request.param](FakeClock())
    try:
        yield adapter  # type: ignore[misc]
    finally:
        adapter.close()  # type: ignore[attr-defined]


def test_a_classic_balance_shows_the_editions_label_and_the_amount(classic: Keypad) -> None:
    classic.show(Screen("balance", ("chien", "1238 € · 1 carte(s)"), token="dog", amount=1238))
    text = classic.shown_text()
    assert "chien" in text and "1238" in text and "1 carte(s)" in text, text
    assert "dog" not in text


def test_a_deed_shows_its_owner_buildings_and_rent(classic: Keypad) -> None:
    deed = Screen(
        "deed", ("12 Av. Mozart", "chien loyer 200 €"), number=12, token="dog", level=2,
        amount=200,
    )  # fmt: skip
    classic.show(deed)
    text = classic.shown_text()
    assert "12 Av. Mozart" in text and "chien  2 maisons" in text and "Loyer 200" in text, text


def test_the_pot_icon_is_a_word_in_the_games_language(classic: Keypad) -> None:
    classic.show(
        Screen(
            "pot", ("chien +300 (parc)", "Solde 1800 €"), token="dog", amount=300,
            icons=frozenset({Icon.POT}),
        )
    )  # fmt: skip
    text = classic.shown_text()
    assert "PARC" in text and "300" in text and "chien +300 (parc)" in text, text


@pytest.mark.parametrize("button", list(Button))
def test_a_classic_button_click_is_pressed_then_released(classic: Keypad, button: Button) -> None:
    classic.click(button)
    assert _button_inputs(classic.inputs) == [
        ("ButtonPressed", button),
        ("ButtonReleased", button),
    ]


@pytest.mark.parametrize("key", ["0", "7", "back"])
def test_a_keypad_key_is_pressed_then_released(classic: Keypad, key: str) -> None:
    classic.clock.now = 77.0
    classic.key(key)
    assert _key_inputs(classic.inputs) == [("KeyPressed", key), ("KeyReleased", key)]
    assert {i.at for i in classic.inputs if isinstance(i, KeyPressed | KeyReleased)} == {77.0}


@pytest.mark.parametrize("card", ["bank:2", "bank:8", "deed:12", "chance:3", "chest:16"])
def test_a_classic_card_typed_on_the_terminal_is_tapped_then_lifted(card: str) -> None:
    adapter = TerminalAdapter(FakeClock(), classic=True)
    try:
        cid = CardId.parse(card)
        adapter.tap(cid)
        assert _card_inputs(adapter.inputs) == [("CardTapped", cid), ("CardLifted", None)]
    finally:
        adapter.close()
