"""Character LCD layout: what a 20x4 or 16x2 HD44780 shows for a screen."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bank.unit.io import Icon, Screen
from drivers import charlcd


def test_fold_to_the_a00_rom() -> None:
    assert charlcd.fold("Hôtel Défense à 200€") == "Hotel Defense a 200E"
    assert charlcd.fold("C:\\~") == "C:/-"
    assert charlcd.fold("OK ✓") == "OK \x03"
    assert charlcd.fold("OK ✓", glyphs=False) == "OK v"
    assert charlcd.fold("日") == "?"


def test_full_property_screen_20x4() -> None:
    screen = Screen(
        "property",
        lines=("Rue de la Paix", "Loyer 250"),
        number=22,
        token="jet",
        level=5,
        amount=250,
        icons=frozenset({Icon.JAIL, Icon.GO}),
    )
    assert charlcd.layout(screen, glyphs=False) == (
        "#22 jet     L5 #####",
        "GO JAIL          250",
        "Rue de la Paix      ",
        "Loyer 250           ",
    )


def test_long_text_wraps_on_words_when_there_is_room() -> None:
    screen = Screen("event", lines=("Stop the Presses: every player pays 50",))
    assert charlcd.layout(screen) == (
        "Stop the Presses:   ",
        "every player pays 50",
        " " * 20,
        " " * 20,
    )


def test_text_keeps_a_row_when_status_fills_a_16x2() -> None:
    screen = Screen("x", lines=("one", "two"), amount=5, level=1)
    assert charlcd.layout(screen, 16, 2, glyphs=False) == ("L1 #....       5", "one             ")


def test_off_is_blank_and_an_empty_screen_shows_its_name() -> None:
    assert charlcd.layout(Screen("idle", lines=("x",), off=True), 16, 2) == (" " * 16,) * 2
    assert charlcd.layout(Screen("idle"), 16, 2)[0] == "IDLE            "


def test_countdown_and_reader_lost() -> None:
    screen = Screen("auction", countdown=7, amount=140, icons=frozenset({Icon.READER_LOST}))
    assert charlcd.layout(screen, glyphs=False)[0] == "NO RDR T-7       140"


def test_unsupported_sizes_are_refused() -> None:
    with pytest.raises(ValueError, match="not supported"):
        charlcd.layout(Screen("x"), 20, 6)


@given(
    st.builds(
        Screen,
        name=st.text(max_size=10),
        lines=st.lists(st.text(max_size=50), max_size=5).map(tuple),
        amount=st.none() | st.integers(-(10**9), 10**9),
        number=st.none() | st.integers(0, 99),
        token=st.none() | st.text(max_size=12),
        level=st.none() | st.integers(0, 5),
        icons=st.frozensets(st.sampled_from(list(Icon))),
        countdown=st.none() | st.integers(0, 999),
        off=st.booleans(),
    ),
    st.sampled_from([(16, 2), (20, 4), (20, 2), (40, 4)]),
    st.booleans(),
)
def test_rows_always_fit_the_glass(screen: Screen, size: tuple[int, int], glyphs: bool) -> None:
    cols, rows = size
    out = charlcd.layout(screen, cols, rows, glyphs)
    assert len(out) == rows
    for row in out:
        assert len(row) == cols
        assert all((" " <= ch <= "}" and ch != "\\") or (glyphs and ch < "\x08") for ch in row)
    # a zero amount is said in words on its screen (no rent, nothing paid): a 2-row LCD with
    # no status row gives it no cells of its own; every other amount is always shown whole
    if screen.amount and not screen.off:
        assert str(screen.amount) in "".join(out)
