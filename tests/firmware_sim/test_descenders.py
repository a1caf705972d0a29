"""Issue 19.7: the glass's dot-matrix letters g j p q y reach below the baseline (the glass
read `New 9ame` and `Ban9ue MonoPoly`), read from the pixels of a real rendered LCD."""

from __future__ import annotations

import pytest

from bank.unit.io import Screen
from firmware_sim.dotfont import BASELINE_ROWS, COLS, ROWS
from firmware_sim.lcd import ON, LcdRenderer
from firmware_sim.pg import pygame

from .lcdread import read_text_row


def _lit_rows(surf: pygame.Surface, renderer: LcdRenderer, row: int, cell: int) -> set[int]:
    """The dot rows of character *cell* of text row *row* that have a lit dot."""
    lay = renderer.layout
    x0, y0 = lay.text_row(row)
    step = (COLS + 1) * lay.text_pitch
    lit = set()
    for r in range(ROWS):
        for c in range(COLS):
            px = x0 + cell * step + c * lay.text_pitch + lay.text_dot // 2
            py = y0 + r * lay.text_pitch + lay.text_dot // 2
            if tuple(surf.get_at((px, py)))[:3] == ON:
                lit.add(r)
    return lit


@pytest.mark.parametrize("text", ["gjpqy", "New game", "Banque MonoPoly", "Ça, va ; ç"])
def test_descenders_are_lit_below_the_baseline(text: str) -> None:
    renderer = LcdRenderer(currency="M€")
    surf = renderer.render(Screen(name="t", lines=(text,)))
    assert read_text_row(surf, renderer.layout, 0).strip() == text
    start = text.center(renderer.layout.text_cols).index(text)  # the row is centred
    below = set(range(BASELINE_ROWS, ROWS))
    for i, ch in enumerate(text):
        lit = _lit_rows(surf, renderer, 0, start + i)
        if ch in "gjpqyçÇ,;":
            assert lit & below, f"{ch!r} has no dot under the baseline"
            assert BASELINE_ROWS - 1 in lit or ch in ",;", f"{ch!r} does not sit on the baseline"
        else:
            assert not lit & below, f"{ch!r} reaches under the baseline"


def test_g_is_no_nine_and_q_is_no_nine_either() -> None:
    renderer = LcdRenderer(currency="M€")
    surf = renderer.render(Screen(name="t", lines=("g9q",)))
    start = "g9q".center(renderer.layout.text_cols).index("g9q")
    g, nine, q = (_lit_rows(surf, renderer, 0, start + i) for i in range(3))
    assert max(nine) == BASELINE_ROWS - 1  # a digit stands on the baseline
    assert max(g) == max(q) == ROWS - 1  # the letters hang under it


def test_the_three_rows_keep_apart() -> None:
    """Taller cells, still three rows on the glass, a blank pixel row between them."""
    renderer = LcdRenderer(currency="M€")
    lay = renderer.layout
    surf = renderer.render(Screen(name="t", lines=("ygjpq" * 5, "ÉÊÀ" * 8, "yyy")))
    bottom = lay.text_row(lay.text_rows - 1)[1] + (ROWS - 1) * lay.text_pitch + lay.text_dot
    assert bottom <= surf.get_height()
    for row in range(lay.text_rows - 1):
        last = lay.text_row(row)[1] + (ROWS - 1) * lay.text_pitch + lay.text_dot
        assert last < lay.text_row(row + 1)[1]
    assert read_text_row(surf, lay, 0) == "ygjpq" * 5
    assert read_text_row(surf, lay, 1).strip() == "ÉÊÀ" * 8
