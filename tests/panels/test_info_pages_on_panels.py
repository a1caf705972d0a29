"""Issue 19.2, everyone's money on every panel: the `table` (every player's cash) and `scores`
(the whole ranking) info screens, paged, reached through the panels that have no keyboard of
letters: the Pi box (its three GPIO buttons on gpiozero's mock pins, its LCD an in-memory
HD44780 driven through RPLCD) and the serial front panel (the panel protocol over a real
pseudo-terminal pair, the simulated firmware's keypad or three buttons). With
``unit.info_items`` (the box's configuration) they are menu items 17 and 18; ✓ shows a page,
✓ again the next one. The terminal view's keys (i, s) are tested in test_classic_info_pages."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from bank.app.runtime import Runtime, panel_labels
from bank.app.script import parse_script
from bank.engine.config import UnitConfig
from bank.engine.game import Game
from bank.services.settings import load_settings
from bank.unit.io import (
    Button,
    CardId,
    CardLifted,
    CardRanges,
    CardTapped,
    Input,
    PlayCue,
    ShowScreen,
)
from bank.unit.shell import build_unit
from board_assets import load_edition
from drivers.charlcd import fold, squeeze
from drivers.gpio_panel import GpioPanel, LcdConfig
from drivers.serial_panel import SerialPanel
from firmware_sim.panel_firmware import PanelFirmware
from tests.panels.conftest import FAST
from tests.panels.fake_hd44780 import FakeHD44780
from tests.panels.test_serial_keypad import click, shows
from tests.support.fakes import FakeClock
from tests.support.pty_pair import PtyPair

NOW = 1000.0
#: the box's button pins (the defaults: ✓ 17, M 27, X 22)
PINS = {Button.OK: 17, Button.MENU: 27, Button.CANCEL: 22}
#: M presses from idle to item 17 (Soldes) in classic-fr: items 1 to 12, then 17
TO_SOLDES = 13


class InfoBox:
    """A classic unit with ``unit.info_items`` behind the GPIO panel: what the panel posts
    goes to the unit, what the unit shows goes to the panel (the daemon's loop in a few
    lines); bank cards are tapped straight into the unit (the reader)."""

    def __init__(self, panel: GpioPanel, players: int) -> None:
        self.game = Game(load_edition("classic-fr"))
        self.unit = build_unit(self.game, UnitConfig(info_items=True))
        self.panel = panel
        self._lock = threading.Lock()
        self._out(self.unit.power_on(NOW))
        panel.start(self.post)
        for n in range(1, players + 1):
            self.tap(f"bank:{n}")

    def post(self, item: Input) -> None:
        with self._lock:
            self._out(self.unit.handle(item))

    def tap(self, card: str) -> None:
        self.post(CardTapped(NOW, CardId.parse(card), "UID"))
        self.post(CardLifted(NOW, "UID"))

    def _out(self, outputs: Sequence[object]) -> None:
        for out in outputs:
            if isinstance(out, ShowScreen):
                self.panel.show(out.screen)
            elif isinstance(out, PlayCue):
                self.panel.play(out.cue)


def _finger(factory: MockFactory, button: Button) -> None:
    """A finger on one of the box's buttons: the pulled-up pin shorted to ground, let go."""
    factory.pin(PINS[button]).drive_low()
    factory.pin(PINS[button]).drive_high()


#: the two pages of `Soldes` for eight players at 1500, as the unit words them
PAGES = [
    ["chie 1500 voit 1500", "chap 1500 bate 1500"],
    ["fer 1500 dé 1500", "chau 1500 brou 1500"],
]
#: the five pages of `Classement` (the tokens as the unit shortens them, to 8 letters)
RANKING = ["1.chien 2.voiture", "3.chapeau 4.bateau", "5.fer 6.dé", "7.chaussur", "8.brouette"]


@pytest.mark.parametrize("size", [(20, 4), (16, 2)], ids=["20x4", "16x2"])
def test_the_gpio_box_pages_through_eight_players_with_its_three_buttons(
    size: tuple[int, int],
) -> None:
    """Eight players at 1500 each: M thirteen times reaches `Soldes`, ✓ shows the first page
    (four players), ✓ the second (the four others), ✓ the first again; M goes on to
    `Classement`, whose five pages show the eight places; X goes back to idle. Every
    player's cash and every place is read whole on the LCD (squeezed on 16 cells, never cut).
    """
    cols, rows = size
    factory = MockFactory(pin_class=MockPWMPin)  # PWM for the box's tonal buzzer
    lcds: list[FakeHD44780] = []

    def lcd(cfg: LcdConfig) -> FakeHD44780:
        lcds.append(FakeHD44780(cfg.cols, cfg.rows))
        return lcds[-1]

    panel = GpioPanel(
        lcd=LcdConfig(cols=cols, rows=rows),
        clock=FakeClock(),
        pin_factory=factory,
        lcd_factory=lcd,
        pause=lambda seconds: False,
        bounce_time=None,
        labels=panel_labels(load_edition("classic-fr"), "fr"),
    )
    box = InfoBox(panel, 8)
    try:
        _finger(factory, Button.OK)  # the game starts
        for _ in range(TO_SOLDES):
            _finger(factory, Button.MENU)
        glass = lcds[-1]
        assert "Soldes" in "".join(glass.lines())
        seen = []
        for _ in range(3):
            _finger(factory, Button.OK)
            seen.append([row.rstrip() for row in glass.lines() if row.strip()])
        _finger(factory, Button.MENU)
        assert "Classement" in "".join(glass.lines())
        places = []
        for _ in range(5):
            _finger(factory, Button.OK)
            places.append([row.rstrip() for row in glass.lines() if row.strip()])
        _finger(factory, Button.CANCEL)
        assert "Banque Monopoly" in "".join(glass.lines())
    finally:
        panel.close()
        factory.reset()
    want = [[on_lcd(row, cols) for row in page] for page in PAGES]
    assert seen == [*want, want[0]]
    assert [p[-1] for p in places] == [on_lcd(p, cols) for p in RANKING]
    assert [p[0] for p in places] == [f"Classement {n}/5" for n in range(1, 6)]
    assert box.game.state.player(8) is not None


def on_lcd(text: str, cols: int) -> str:
    """*text* as the HD44780's A00 ROM shows it in *cols* cells (accents folded)."""
    return squeeze(fold(text), cols)


@contextlib.contextmanager
def serial_bank(tmp_path: Path, cable: PtyPair, **firmware: Any) -> Iterator[
    tuple[Runtime, PanelFirmware]
]:  # fmt: skip
    """A running classic-fr bank with ``unit.info_items`` and the serial panel's firmware."""
    fw = PanelFirmware(cable.panel_path, ack_timeout=0.05, **firmware)
    fw.start()
    settings = load_settings(
        None,
        [
            f'game.data_dir="{tmp_path / "data"}"',
            'game.edition="classic-fr"',
            "unit.info_items=true",
        ],
    )
    rt = Runtime(settings)
    try:
        rt.add_panel(SerialPanel(cable.host_path, clock=rt.clock, **FAST))
        rt.start(control=False)
        shows(fw, "new_game")
        yield rt, fw
    finally:
        rt.stop()
        fw.stop()


def _rows(fw: PanelFirmware) -> list[str]:
    """The firmware's LCD rows that show something."""
    return [row.rstrip() for row in fw.lcd_lines if row.strip()]


def _eight_players(rt: Runtime, fw: PanelFirmware) -> None:
    cards = CardRanges.of(load_edition("classic-fr"))
    for n in range(1, 9):  # the cards on the reader (the panel has none)
        for action in parse_script(f"tap bank:{n}", "test", cards):
            rt.perform(action)
    click(fw, Button.OK)
    shows(fw, "game_started", "8 joueurs")


def test_the_serial_keypad_panel_reads_everyones_money(tmp_path: Path, cable: PtyPair) -> None:
    """Protocol version 2 with the keypad: M 1 7 opens `Soldes`, ✓ pages through the eight
    players; M 1 8 the ranking; the panel's own 20x4 LCD shows them whole."""
    with serial_bank(tmp_path, cable, keypad=True) as (rt, fw):
        _eight_players(rt, fw)
        click(fw, Button.MENU)
        fw.key("17")
        shows(fw, "menu", "Soldes")
        click(fw, Button.OK)
        shows(fw, "info", "chie 1500 voit 1500", "chap 1500 bate 1500")
        assert _rows(fw) == ["chie 1500 voit 1500",
                                                          "chap 1500 bate 1500"]  # fmt: skip
        click(fw, Button.OK)
        shows(fw, "info", "fer 1500 dé 1500", "chau 1500 brou 1500")
        assert _rows(fw) == ["fer 1500 de 1500",
                                                          "chau 1500 brou 1500"]  # fmt: skip
        click(fw, Button.CANCEL)
        shows(fw, "idle")
        click(fw, Button.MENU)
        fw.key("18")
        shows(fw, "menu", "Classement")
        places = []
        for page in range(1, 6):
            click(fw, Button.OK)
            shows(fw, "info", f"Classement {page}/5")
            places.append(_rows(fw)[-1])
        assert places == [fold(p) for p in RANKING]


def test_the_serial_three_button_panel_steps_to_them(tmp_path: Path, cable: PtyPair) -> None:
    """Protocol version 1, three buttons and no keypad: M thirteen times, then ✓ and ✓."""
    with serial_bank(tmp_path, cable, version=1) as (rt, fw):
        _eight_players(rt, fw)
        for _ in range(TO_SOLDES):
            click(fw, Button.MENU)
        shows(fw, "menu", "Soldes")
        click(fw, Button.OK)
        shows(fw, "info", "chie 1500 voit 1500")
        click(fw, Button.OK)
        shows(fw, "info", "fer 1500 dé 1500", "chau 1500 brou 1500")
        click(fw, Button.MENU)
        shows(fw, "menu", "Classement")
        click(fw, Button.OK)
        shows(fw, "info", "Classement 1/5", "1.chien 2.voiture")
