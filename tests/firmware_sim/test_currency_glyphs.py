"""Issue 19.7: every shipped edition's currency sign is drawn on the emulator's glass (One
Piece's ฿ was a hollow box)."""

from __future__ import annotations

import pytest

from board_assets import edition_names, load_edition
from firmware_sim.dotfont import UNKNOWN, fold, glyph


@pytest.mark.parametrize("name", edition_names())
def test_the_currency_sign_has_a_glyph(name: str) -> None:
    currency = load_edition(name).currency
    for ch in fold(currency):
        assert glyph(ch) != UNKNOWN, f"{name}: {currency!r} draws {ch!r} as a hollow box"


def test_the_berry_is_a_b_with_a_bar() -> None:
    berry, b = glyph("฿"), glyph("B")
    assert berry != b and berry != UNKNOWN
