"""The Pi box in Méga and Star Wars II (issue 13): its character LCD (RPLCD on a modelled
HD44780) shows what the terminal and the serial panel show, through drivers/charlcd.py, with
the edition's labels; the keypad on gpiozero's mock pins types into a real Méga unit."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from bank.app.runtime import panel_labels
from bank.unit.io import Button, Input
from board_assets import load_edition
from drivers.gpio_panel import GpioPanel, LcdConfig
from tests.panels.conftest import FakeClock, Inbox
from tests.panels.fake_hd44780 import FakeHD44780
from tests.panels.matrix_keypad import KeypadWiring, MatrixPin
from tests.panels.mega_screens import skyscraper_deed
from tests.panels.test_classic_gpio import COLS, ROWS, ClassicBox, keypad_panel, press


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory(pin_class=MatrixPin)
    yield f
    f.reset()


def box_with_keypad(
    factory: MockFactory, edition: str
) -> tuple[GpioPanel, list[FakeHD44780], ClassicBox, Callable[[str], None]]:
    """The GPIO panel (20x4 LCD, the keypad on mock pins, the edition's labels) in front of a
    unit of *edition*, started; and a finger for the keypad (``type_("7")``)."""
    labels = panel_labels(load_edition(edition), "fr")
    panel, lcds = keypad_panel(factory, labels=labels)
    wiring = KeypadWiring(factory, ROWS, COLS)
    box = ClassicBox(panel, edition)
    relay = Inbox()

    def post(item: Input) -> None:
        box.post(item)
        relay(item)

    panel.start(post)
    return panel, lcds, box, lambda key: press(wiring, relay, key)


def test_a_mega_game_on_the_box_lcd_and_keypad(factory: MockFactory) -> None:
    """mega-fr: a station bought, its depot built through menu item 7 typed on the keypad (the
    LCD: `DEPOT`, `Depot -100`), the deed check `chien  depot` / `Loyer 50 E`, the Birthday
    Gift typed as 1 5 (`Cadeau +100`, then `Solde 2300 E`)."""
    panel, lcds, box, type_ = box_with_keypad(factory, "mega-fr")
    try:
        box.tap("bank:1")
        box.tap("bank:2")
        box.click(Button.OK)
        assert lcds[-1].lines()[2].rstrip() == "2 joueurs, 2500 E"
        box.tap("deed:4")
        assert lcds[-1].lines() == [
            "4 Gare Montparnasse ",
            "a vendre            ",
            "Prix 200 E          ",
            "carte achat, M ench.",
        ]
        box.tap("bank:1")
        box.click(Button.MENU)
        type_("7")
        assert "Construire" in [row.rstrip() for row in lcds[-1].lines()]
        box.tap("bank:1")
        box.tap("deed:4")
        assert [row.rstrip() for row in lcds[-1].lines()] == [
            "#4          L0 \x01\x01\x01\x01\x01",
            "DEPOT            100",
            "4 Gare Montparnasse",
            "Depot -100",
        ]
        type_("#")  # ✓ ends the session
        box.tap("deed:4")
        assert lcds[-1].lines() == [
            "4 Gare Montparnasse ",
            "chien  depot        ",
            "Loyer 50 E          ",
            "carte paie le loyer ",
        ]
        box.click(Button.CANCEL)
        box.click(Button.MENU)
        type_("1")
        type_("5")
        assert [row.rstrip() for row in lcds[-1].lines()] == [
            "#15",
            "Cadeau +100",
            "M suivant - carte",
            "",
        ]
        box.tap("bank:1")
        assert [row.rstrip() for row in lcds[-1].lines()[1:3]] == ["chien +100", "Solde 2300 E"]
    finally:
        panel.close()
    assert box.balance(1) == 2500 - 200 - 100 + 100


@pytest.mark.parametrize(
    ("cols", "rows", "want"),
    [
        (20, 4, ["35 Bleu fonce 1", "chien  gratte-ciel", "Loyer 2500 E", "carte paie le loyer"]),
        (16, 2, ["35 Bleu fonce 1", "chien loy 2500 E"]),
    ],
)
def test_a_skyscraper_deed_on_both_lcd_sizes(
    factory: MockFactory, cols: int, rows: int, want: list[str]
) -> None:
    lcds: list[FakeHD44780] = []

    def lcd(cfg: LcdConfig) -> FakeHD44780:
        lcds.append(FakeHD44780(cfg.cols, cfg.rows))
        return lcds[-1]

    panel = GpioPanel(
        lcd=LcdConfig(cols=cols, rows=rows),
        clock=FakeClock(),
        pin_factory=factory,
        lcd_factory=lcd,
        labels=panel_labels(load_edition("mega-fr"), "fr"),
    )
    panel.start(Inbox())
    try:
        panel.show(skyscraper_deed("Bleu foncé 1", "chien", "loyer 2500 €"))
        assert [row.rstrip() for row in lcds[-1].lines()] == want
    finally:
        panel.close()


def test_a_star_wars_force_battle_on_the_box_lcd(factory: MockFactory) -> None:
    """starwars-ep2-fr: Dooku loses the Force battle (menu item 14 typed on the keypad, the
    face picked with 1 and #): the status row names him and the Force, the lines his loss."""
    panel, lcds, box, type_ = box_with_keypad(factory, "starwars-ep2-fr")
    try:
        box.tap("bank:1")
        box.tap("bank:6")
        box.click(Button.OK)
        box.click(Button.MENU)
        type_("1")
        type_("4")
        assert [row.rstrip() for row in lcds[-1].lines()] == [
            "#14",
            "FORCE",
            "Force",
            "M suivant - carte",
        ]
        box.tap("bank:6")
        type_("1")
        type_("#")
        assert [row.rstrip() for row in lcds[-1].lines()] == [
            "Dooku            200",
            "FORCE",
            "Vaincu par la Force",
            "Dooku -200",
        ]
    finally:
        panel.close()
    assert box.balance(6) == 1300
