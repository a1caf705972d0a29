"""The emulator's glass shows the keypad icon (docs/classic.md §5.5) in the classic icon block while
a number entry is open, read back from the LCD's pixels of a real pygame surface."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest

from bank.unit.io import Button, Icon
from firmware_sim.lcd import ICON_ORDER, TOP_ICONS, LcdLayout

from .lcdread import any_lit
from .test_classic_window import ClassicTable, _lines

LAY = LcdLayout()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[ClassicTable]:
    t = ClassicTable(tmp_path / "data", "classic-fr")
    yield t
    t.close()


def _keypad_lit(t: ClassicTable) -> bool:
    return any_lit(t.panel.lcd_surface(), LAY.icon_rects[Icon.KEYPAD])


def test_the_keypad_icon_has_its_place_in_the_classic_block() -> None:
    assert Icon.KEYPAD in ICON_ORDER[TOP_ICONS:]
    rect = pygame.Rect(LAY.icon_rects[Icon.KEYPAD])
    assert pygame.Rect((0, 0), LAY.size).contains(rect)
    others = [pygame.Rect(LAY.icon_rects[i]) for i in ICON_ORDER if i is not Icon.KEYPAD]
    assert not any(rect.colliderect(o) for o in others)


def test_the_glass_lights_the_keypad_while_an_amount_and_a_pick_are_typed(
    table: ClassicTable,
) -> None:
    t = table
    t.card("bank", 1)
    t.card("bank", 2)
    t.button(Button.OK)
    assert not _keypad_lit(t)
    t.button(Button.MENU)
    assert _lines(t.keypad("6")) == "Recevoir banque / M suivant · carte"
    assert not _keypad_lit(t)  # the menu is not an entry
    t.card("bank", 2)
    assert _lines(t.keypad("150")) == "Montant ? / 150  ✓ valider"
    assert _keypad_lit(t)
    assert t.button(Button.OK).name == "received"
    assert not _keypad_lit(t)
    # a card by the menu (item 12): its deck and its number are picks, lit until chosen
    t.button(Button.MENU)
    t.keypad("12")
    assert not _keypad_lit(t)
    assert _lines(t.button(Button.OK)) == "Quel paquet ? / Chance"
    assert _keypad_lit(t)
    t.button(Button.MENU)
    t.button(Button.OK)
    assert _lines(t.keypad("9")) == "Numéro de carte ? / 9"
    assert _keypad_lit(t)
    assert t.button(Button.OK).name == "card"
    assert not _keypad_lit(t)
