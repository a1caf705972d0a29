"""Issue 19.7: the reader pad's words (`posez une carte ici`, `tap a card here`) sit right of
the NFC waves and inside the pad, never over them, in the classic and the Ultime window."""

from __future__ import annotations

from pathlib import Path

import pytest

from bank.unit.io import CardId
from firmware_sim import layout as L
from firmware_sim.emulator import READER_INK
from firmware_sim.pg import pygame
from tests.firmware_sim.test_classic_window import ClassicTable


def _ink(surf: pygame.Surface, box: pygame.Rect) -> int:
    """How many pixels of *box* are the reader's ink, exactly."""
    return sum(
        1
        for x in range(box.left, box.right)
        for y in range(box.top, box.bottom)
        if tuple(surf.get_at((x, y)))[:3] == READER_INK
    )


@pytest.mark.parametrize("edition", ["classic-fr", "classic-uk", "ultime-fr"])
def test_the_words_do_not_cover_the_waves(edition: str, tmp_path: Path) -> None:
    table = ClassicTable(tmp_path, edition)
    try:
        table.settle()
        canvas = table.panel.canvas
        pad = pygame.Rect(L.KEYPAD_READER_RECT if edition != "ultime-fr" else L.READER_RECT)
        cx, cy = pad.center
        waves = pygame.Rect(cx - 60 - 38, cy - 38, 38 + 38, 76)  # the three arcs' box
        assert _ink(canvas, waves) == 0
        assert _ink(canvas, pad) > 50  # the words are drawn, in the pad
        outside = pad.inflate(40, 40)
        assert _ink(canvas, outside) == _ink(canvas, pad)  # and nowhere around it
    finally:
        table.close()


@pytest.mark.parametrize("edition", ["classic-fr", "classic-uk", "mega-fr", "starwars-ep2-fr"])
def test_every_bank_card_label_is_readable(edition: str, tmp_path: Path) -> None:
    """`chaussure` was written in a 10-pixel font on its tray card: a label is never under
    15 pixels, shortened with a dot when it must be (`chauss.`)."""
    from firmware_sim.emulator import BANK_LABEL_MARGIN, MIN_LABEL_SIZE

    table = ClassicTable(tmp_path, edition)
    try:
        panel = table.panel
        classic = panel.tray_view
        assert classic is not None
        spot = next(s for s in table.spots if s.action == L.TapCard(CardId("bank", 7)))
        width = pygame.Rect(spot.rect).w - BANK_LABEL_MARGIN
        for seat in range(1, 9):
            label = classic.seat_label(seat)
            text, size = panel.readable(label, width, 18)
            assert size >= MIN_LABEL_SIZE, (label, text, size)
            assert panel._font(size).size(text)[0] <= width
            assert text == label or (text.endswith(".") and label.startswith(text[:-1]))
    finally:
        table.close()
