"""Issue 19.2, everyone's money in the emulator window: six players, the `I` key shows every
player's cash a page at a time (asked again: the next page, the last wrapping to the first)
and `S` the ranking, read back dot by dot from the glass; and a deed's whole name and the
interest question's long words on the glass's 25 cells (issue 19.1) through the window."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bank.unit.io import Button
from firmware_sim.dotfont import fold
from firmware_sim.lcd import LcdLayout
from firmware_sim.pg import pygame

from .lcdread import read_text_row
from .test_classic_window import ClassicTable


@pytest.fixture
def six(tmp_path: Path) -> Iterator[ClassicTable]:
    t = ClassicTable(tmp_path / "data")
    try:
        for n in range(1, 7):
            t.card("bank", n)
        t.button(Button.OK)
        yield t
    finally:
        t.close()


def _glass(t: ClassicTable) -> list[str]:
    """The glass's text rows that show something, read from its pixels."""
    surf, lay = t.panel.lcd_surface(), LcdLayout()
    rows = [read_text_row(surf, lay, r).strip() for r in range(lay.text_rows)]
    return [r for r in rows if r]


def test_the_i_key_pages_through_every_players_cash(six: ClassicTable) -> None:
    pages = []
    for _ in range(3):
        six.key(pygame.K_i, "i")
        pages.append(_glass(six))
    first = [fold("chie 1500 voit 1500"), fold("chap 1500 bate 1500")]
    assert pages == [first, [fold("fer 1500 dé 1500")], first]


def test_the_s_key_pages_through_the_ranking(six: ClassicTable) -> None:
    pages = []
    for _ in range(4):
        six.key(pygame.K_s, "s")
        pages.append(_glass(six))
    assert [p[0] for p in pages] == [f"Classement {n}/3" for n in (1, 2, 3, 1)]
    assert [p[1] for p in pages[:3]] == [
        "1.chien 2.voiture",
        "3.chapeau 4.bateau",
        fold("5.fer 6.dé"),
    ]


def test_the_glass_shows_a_long_street_name_whole(six: ClassicTable) -> None:
    six.card("deed", 27)
    assert _glass(six)[0] == fold("27 Av. des Champs-Élysées")
    assert six.panel.screen.lines[0] == "27 Av. Champs-Élys."  # the 20-cell line of the LCDs
