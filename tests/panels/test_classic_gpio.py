"""The Pi box in classic mode: the optional 3x4 matrix keypad on gpiozero's mock pins, wired
electrically (tests/panels/matrix_keypad.py), typing into a real classic unit; its pins checked
against the buttons, the buzzer, I2C and the UART; the settings keys."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from bank.app.runtime import panel_labels
from bank.engine.game import Game
from bank.services.settings import DEFAULTS, SettingsError, load_settings
from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardTapped,
    Input,
    KeyPressed,
    KeyReleased,
    PlayCue,
    ShowScreen,
)
from bank.unit.shell import build_unit
from board_assets import load_edition
from drivers.base import PanelError
from drivers.gpio_panel import GpioPanel, GpioPins, LcdConfig
from tests.panels.conftest import FakeClock, Inbox, wait_until
from tests.panels.fake_hd44780 import FakeHD44780
from tests.panels.matrix_keypad import KeypadWiring, MatrixPin

ROOT = Path(__file__).resolve().parents[2]
ROWS = [5, 6, 13, 19]
#: the panel's fake clock stands still at this time; the box's own gestures use it too
NOW = 1000.0
COLS = [26, 16, 20]


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory(pin_class=MatrixPin)
    yield f
    f.reset()


def keypad_panel(factory: MockFactory, **kw: object) -> tuple[GpioPanel, list[FakeHD44780]]:
    lcds: list[FakeHD44780] = []

    def lcd(cfg: LcdConfig) -> FakeHD44780:
        lcds.append(FakeHD44780(cfg.cols, cfg.rows))
        return lcds[-1]

    panel = GpioPanel(
        lcd=LcdConfig(),
        clock=FakeClock(),
        pin_factory=factory,
        lcd_factory=lcd,
        pause=lambda seconds: False,
        bounce_time=None,
        keypad_rows=tuple(ROWS),
        keypad_cols=tuple(COLS),
        **kw,  # type: ignore[arg-type]
    )
    return panel, lcds


def press(wiring: KeypadWiring, inbox: Inbox, key: str) -> None:
    """Press and release *key* as a finger does: long enough for the scanner to see both."""
    before = len(inbox.items)
    wiring.press(key)
    wait_until(lambda: len(inbox.items) >= before + 1, what=f"key {key} down")
    wiring.release(key)
    wait_until(lambda: len(inbox.items) >= before + 2, what=f"key {key} up")


def test_each_key_of_the_matrix_posts_its_input(factory: MockFactory) -> None:
    inbox = Inbox()
    panel, _ = keypad_panel(factory)
    wiring = KeypadWiring(factory, ROWS, COLS)
    panel.start(inbox)
    try:
        for key in "1234567890*":
            press(wiring, inbox, key)
        press(wiring, inbox, "#")
    finally:
        panel.close()
    keys = [*"1234567890", "back"]
    want: list[Input] = []
    for key in keys:
        want += [KeyPressed(1000.0, key), KeyReleased(1000.0, key)]
    want += [ButtonPressed(1000.0, Button.OK), ButtonReleased(1000.0, Button.OK)]
    assert inbox.items == want


def test_two_keys_of_one_column_are_told_apart_without_a_short(factory: MockFactory) -> None:
    """The scan drives one row at a time, so 2 and 5 (same column) are two keys; the row off
    its turn is an input, so the two pressed keys never join a low output to a high one."""
    inbox = Inbox()
    panel, _ = keypad_panel(factory)
    wiring = KeypadWiring(factory, ROWS, COLS)
    panel.start(inbox)
    try:
        wiring.press("2")
        wiring.press("5")
        wait_until(lambda: len(inbox.of(KeyPressed)) == 2, what="both keys down")
        wiring.release("2")
        wiring.release("5")
        wait_until(lambda: len(inbox.of(KeyReleased)) == 2, what="both keys up")
    finally:
        panel.close()
    assert {i.key for i in inbox.of(KeyPressed)} == {"2", "5"}  # type: ignore[attr-defined]
    assert wiring.shorts == []


class ClassicBox:
    """A classic unit behind the GPIO panel: what the panel posts goes to the unit, what the
    unit shows goes back to the LCD (the daemon's loop, in a few lines)."""

    def __init__(self, panel: GpioPanel, edition: str = "classic-fr") -> None:
        self.game = Game(load_edition(edition))
        self.unit = build_unit(self.game)
        self.panel = panel
        self.screens: list[str] = []
        self._lock = threading.Lock()
        self._out(self.unit.power_on(NOW))

    def post(self, item: Input) -> None:
        with self._lock:
            self._out(self.unit.handle(item))

    def tap(self, card: str) -> None:
        self.post(CardTapped(NOW, CardId.parse(card), "UID"))
        self.post(CardLifted(NOW, "UID"))

    def click(self, button: Button) -> None:
        self.post(ButtonPressed(NOW, button))
        self.post(ButtonReleased(NOW, button))

    def _out(self, outputs: list[object]) -> None:
        for out in outputs:
            if isinstance(out, ShowScreen):
                self.screens.append(out.screen.name)
                self.panel.show(out.screen)
            elif isinstance(out, PlayCue):
                self.panel.play(out.cue)

    def balance(self, card: int) -> int:
        player = self.game.state.player(card)
        assert player is not None
        return player.balance


def test_the_keypad_types_an_amount_into_a_classic_entry(factory: MockFactory) -> None:
    """Menu item 6 (receive from the bank) for voiture: 1 5 5 ⌫ 0 then # (✓) pays 150, and
    the 20x4 LCD showed the entry as it was typed, in the edition's words."""
    labels = panel_labels(load_edition("classic-fr"), "fr")
    panel, lcds = keypad_panel(factory, labels=labels)
    wiring = KeypadWiring(factory, ROWS, COLS)
    box = ClassicBox(panel)
    seen: list[str] = []

    def post(item: Input) -> None:
        box.post(item)
        seen.append("\n".join(lcds[-1].lines()))

    relay = Inbox()
    panel.start(lambda item: (post(item), relay(item)))
    try:
        box.tap("bank:1")
        box.tap("bank:2")
        box.click(Button.OK)
        box.click(Button.MENU)
        press(wiring, relay, "6")  # the menu's digit shortcut
        box.tap("bank:2")
        for key in "155*0":
            press(wiring, relay, key)
        assert lcds[-1].lines()[:3] == [
            "CLAVIER" + " " * 10 + "150",  # the keypad icon: an entry is open
            "Montant ?" + " " * 11,
            "150  \x03 valider" + " " * 6,
        ]
        press(wiring, relay, "#")
    finally:
        panel.close()
    assert box.balance(2) == 1650 and box.balance(1) == 1500
    assert any("Recevoir banque" in s for s in seen)
    assert seen[-1].splitlines() == [
        "voiture" + " " * 10 + "150",
        "voiture +150" + " " * 8,
        "Solde 1650 E" + " " * 8,
        " " * 20,
    ]


def test_without_keypad_pins_the_box_has_no_keypad(factory: MockFactory) -> None:
    panel = GpioPanel.from_config(DEFAULTS["panel"])
    assert panel.keypad_pins == ((), ())
    raw = {**DEFAULTS["panel"], "gpio_keypad_rows": ROWS, "gpio_keypad_cols": COLS}
    assert GpioPanel.from_config(raw).keypad_pins == (tuple(ROWS), tuple(COLS))


@pytest.mark.parametrize(
    ("rows", "cols", "message"),
    [
        ([5, 6, 13, 17], COLS, "panel.gpio_keypad_rows: GPIO17 is already the ✓ button's"),
        (ROWS, [26, 16, 27], "panel.gpio_keypad_cols: GPIO27 is already the M button's"),
        (ROWS, [26, 16, 18], "panel.gpio_keypad_cols: GPIO18 is already the buzzer's"),
        ([2, 6, 13, 19], COLS, "panel.gpio_keypad_rows: GPIO2 is already I2C SDA's"),
        (ROWS, [26, 16, 14], "panel.gpio_keypad_cols: GPIO14 is already UART TXD's"),
        (ROWS, [26, 16, 19], "panel.gpio_keypad_cols: GPIO19 is already keypad row's"),
        (ROWS, [], "a 3x4 keypad needs 4 row pins and 3 column pins, not 4 and 0"),
    ],
)
def test_keypad_pins_that_clash_are_refused_in_one_line(
    rows: list[int], cols: list[int], message: str
) -> None:
    raw = {**DEFAULTS["panel"], "gpio_keypad_rows": rows, "gpio_keypad_cols": cols}
    with pytest.raises(PanelError) as err:
        GpioPanel.from_config(raw)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_the_i2c_pins_are_free_for_a_keypad_on_a_box_without_lcd() -> None:
    raw = {
        **DEFAULTS["panel"],
        "lcd_rows": 0,
        "gpio_keypad_rows": [2, 3, 13, 19],
        "gpio_keypad_cols": COLS,
    }
    assert GpioPanel.from_config(raw).keypad_pins == ((2, 3, 13, 19), tuple(COLS))
    pins = GpioPins(ok=5)
    with pytest.raises(PanelError, match="GPIO5 is already the ✓ button's"):
        GpioPanel(pins, lcd=None, keypad_rows=tuple(ROWS), keypad_cols=tuple(COLS))


def test_the_keypad_settings_keys_are_checked() -> None:
    s = load_settings(
        overrides=["panel.gpio_keypad_rows=[5, 6, 13, 19]", "panel.gpio_keypad_cols=[26, 16, 20]"]
    )
    assert s.get("panel", "gpio_keypad_rows") == ROWS
    assert s.get("panel", "gpio_keypad_cols") == COLS
    assert load_settings().get("panel", "gpio_keypad_rows") == []
    for bad in ("[5, 6]", "[5, 5, 6, 7]", "[5, 6, 13, 28]", '"5,6,13,19"', "[true, 6, 13, 19]"):
        with pytest.raises(SettingsError, match=r"panel\.gpio_keypad_rows = .*4 distinct BCM"):
            load_settings(overrides=[f"panel.gpio_keypad_rows={bad}"])


def test_run_plays_a_classic_edition_on_the_gpio_box(tmp_path: Path) -> None:
    """`ultibank run --panel gpio --edition classic-fr` starts (gpiozero's mock pins, no LCD,
    the example keypad) and stops cleanly on SIGTERM; the serial panel is still refused."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "GPIOZERO_PIN_FACTORY": "mock"}
    argv = [
        sys.executable, "-m", "bank.cli", "run", "--panel", "gpio", "--edition", "classic-fr",
        "--reader", "sim", "--data-dir", str(tmp_path / "d"), "--set", "panel.lcd_rows=0",
        "--set", "panel.gpio_buzzer=-1",  # the mock pins have no PWM for a tonal buzzer
        "--set", "panel.gpio_keypad_rows=[5, 6, 13, 19]",
        "--set", "panel.gpio_keypad_cols=[26, 16, 20]",
    ]  # fmt: skip
    proc = subprocess.Popen(
        argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.startswith("ultibank running:") and "panels: gpio" in line, line
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    clash = subprocess.run(
        [*argv, "--set", "panel.gpio_keypad_cols=[26, 16, 17]"],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
        check=False,
    )  # fmt: skip
    assert clash.returncode != 0
    assert clash.stderr.strip().splitlines() == [
        "ultibank: panel.gpio_keypad_cols: GPIO17 is already the ✓ button's; choose a free BCM pin"
    ]


def test_the_box_lcd_speaks_the_games_language(factory: MockFactory) -> None:
    """The wiring gives the GPIO panel the edition's labels: its status row names the token
    and the icons in the game's language, as the terminal does (an Ultime game too)."""
    from bank.app.runtime import make_panel
    from bank.unit.io import Icon, Screen

    labels = panel_labels(load_edition("ultime-fr"), "fr")
    made = make_panel("gpio", load_settings(), lambda: 0.0, lambda: None, "fr", None, labels)
    assert isinstance(made, GpioPanel) and made.labels is labels
    panel, lcds = keypad_panel(factory, labels=labels)
    panel.start(Inbox())
    try:
        panel.show(
            Screen("balance", ("Joueur 1",), token="car", amount=1700, icons=frozenset({Icon.GO}))
        )
        assert lcds[-1].lines()[:2] == ["voiture" + " " * 9 + "1700", "DEPART" + " " * 14]
    finally:
        panel.close()
