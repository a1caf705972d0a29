"""The LCD shows what the screen model says: digits, icons, token, level, countdown, text."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bank.unit.io import Icon, Screen
from board_assets import load_edition
from firmware_sim import dotfont
from firmware_sim.icons import PICTOGRAM_TOKENS as TOKENS
from firmware_sim.lcd import GLASS, LcdLayout, LcdRenderer
from firmware_sim.pg import IS_CE, PYGAME_VERSION, pygame

from .lcdread import any_lit, read_amount, read_text_row, read_two

GOLDEN_DIR = Path(__file__).parent / "golden"
GOLDEN_PYGAME = "2.5.8"
REGENERATE = os.environ.get("UB_REGEN_GOLDEN") == "1"

SCREENS = {
    "balance_1500_car": Screen(name="balance", lines=("Voiture", "Solde"), amount=1500,
                               token="car"),
    "property_16_level2": Screen(
        name="property",
        lines=("Place de la Bourse", "Loyer 280 M€"),
        amount=280,
        number=16,
        token="boat",
        level=2,
        colour="#f2c80f",
    ),
    "auction_countdown": Screen(
        name="auction",
        lines=("Enchères #11", "✓ +20"),
        amount=240,
        number=11,
        countdown=7,
        icons=frozenset({Icon.AUCTION}),
    ),
    "error": Screen(name="error", lines=("Carte inconnue",), icons=frozenset({Icon.ERROR})),
    "game_over": Screen(
        name="game_over",
        lines=("Victoire !", "1 Jet 4210  2 Auto 0"),
        amount=4210,
        token="jet",
        icons=frozenset({Icon.TROPHY}),
    ),
}  # fmt: skip


def rgb(surf: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surf, "RGB")


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_golden_image(renderer: LcdRenderer, name: str) -> None:
    surf = renderer.render(SCREENS[name])
    path = GOLDEN_DIR / f"{name}.png"
    if REGENERATE:
        GOLDEN_DIR.mkdir(exist_ok=True)
        pygame.image.save(surf, str(path))
    if not IS_CE or PYGAME_VERSION != GOLDEN_PYGAME:
        pytest.skip(
            f"golden images are drawn with pygame-ce {GOLDEN_PYGAME}; this is "
            f"{'pygame-ce' if IS_CE else 'pygame'} {PYGAME_VERSION}, whose polygons differ"
        )
    assert path.exists(), f"no golden image {path}: run with UB_REGEN_GOLDEN=1"
    golden = pygame.image.load(str(path))
    assert golden.get_size() == surf.get_size()
    got, want = rgb(surf), rgb(golden)
    if got != want:
        diff = sum(1 for a, b in zip(got[::3], want[::3], strict=True) if a != b)
        pytest.fail(f"{name}: about {diff} pixels differ from {path.name}")


def test_rendering_is_a_pure_function_of_the_screen(renderer: LcdRenderer) -> None:
    first = {
        name: hashlib.sha256(rgb(renderer.render(s))).hexdigest() for name, s in SCREENS.items()
    }
    fresh = LcdRenderer(currency="M€")  # an empty cache draws the same pixels
    for name, screen in reversed(list(SCREENS.items())):
        assert hashlib.sha256(rgb(fresh.render(screen))).hexdigest() == first[name]
        assert hashlib.sha256(rgb(renderer.render(screen))).hexdigest() == first[name]


@pytest.mark.parametrize(
    "amount", [0, 7, 20, 1500, -1500, 99999, -99999, 12345, 67890, -3, 40, 1000, None]
)
def test_amount_digits_read_back(renderer: LcdRenderer, amount: int | None) -> None:
    surf = renderer.render(Screen(name="t", amount=amount))
    assert read_amount(surf, renderer.layout) == amount


def test_an_amount_too_wide_shows_dashes_not_a_wrong_number(renderer: LcdRenderer) -> None:
    surf = renderer.render(Screen(name="t", amount=123456))
    with pytest.raises(ValueError):  # "-----" is no number: nothing misleading is shown
        read_amount(surf, renderer.layout)


@pytest.mark.parametrize("number", [1, 9, 10, 16, 22, None])
def test_property_number_reads_back(renderer: LcdRenderer, number: int | None) -> None:
    lay = renderer.layout
    surf = renderer.render(Screen(name="t", number=number))
    assert read_two(surf, lay.small, [lay.number_cell(0), lay.number_cell(1)]) == number


@pytest.mark.parametrize("seconds", [10, 7, 1, 0, None])
def test_countdown_reads_back(renderer: LcdRenderer, seconds: int | None) -> None:
    lay = renderer.layout
    surf = renderer.render(Screen(name="t", countdown=seconds))
    assert read_two(surf, lay.tiny, [lay.countdown_cell(0), lay.countdown_cell(1)]) == seconds


@pytest.mark.parametrize("icons", [frozenset(), frozenset(Icon)] + [frozenset({i}) for i in Icon])
def test_exactly_the_screens_icons_are_lit(renderer: LcdRenderer, icons: frozenset[Icon]) -> None:
    surf = renderer.render(Screen(name="t", icons=icons))
    lit = {icon for icon, rect in renderer.layout.icon_rects.items() if any_lit(surf, rect)}
    assert lit == set(icons)


@pytest.mark.parametrize("token", [*TOKENS, None])
def test_only_the_owners_token_is_lit(renderer: LcdRenderer, token: str | None) -> None:
    surf = renderer.render(Screen(name="t", token=token))
    lit = {t for t, rect in renderer.layout.token_rects.items() if any_lit(surf, rect)}
    assert lit == ({token} if token else set())


@pytest.mark.parametrize("level", [None, 1, 2, 3, 4, 5])
def test_level_bar(renderer: LcdRenderer, level: int | None) -> None:
    surf = renderer.render(Screen(name="t", level=level))
    lit = [any_lit(surf, rect) for rect in renderer.layout.level_rects]
    assert lit == [level is not None and i < level for i in range(5)]


def test_text_rows_read_back_centred(renderer: LcdRenderer) -> None:
    lay = renderer.layout
    surf = renderer.render(Screen(name="t", lines=("Place de la Bourse", "Loyer 280 M€")))
    rows = [read_text_row(surf, lay, r) for r in range(lay.text_rows)]
    assert rows == ["Place de la Bourse".center(25), "Loyer 280 M€".center(25), " " * 25]


def test_long_text_wraps_and_marks_the_cut(renderer: LcdRenderer) -> None:
    lay = renderer.layout
    words = "Toutes les propriétés possédées de cette couleur montent d'un niveau ce tour"
    surf = renderer.render(Screen(name="t", lines=(words,)))
    rows = [read_text_row(surf, lay, r).strip() for r in range(lay.text_rows)]
    assert rows[0] == "Toutes les propriétés"
    assert rows[1] == "possédées de cette"
    assert rows[2].endswith("…")
    assert " ".join(rows)[:-1] in words


def test_off_is_blank_glass(renderer: LcdRenderer) -> None:
    surf = renderer.render(Screen(name="off", off=True, amount=1500, icons=frozenset(Icon)))
    colours = {tuple(surf.get_at((x, y)))[:3] for x in range(0, 480, 7) for y in range(0, 272, 7)}
    assert colours == {GLASS}


def test_ghosts_are_visible_on_an_empty_screen(renderer: LcdRenderer) -> None:
    surf = renderer.render(Screen(name="idle"))
    lay = renderer.layout
    assert read_amount(surf, lay) is None  # all segments are there, none lit
    assert read_text_row(surf, lay, 0) == " " * 25


def test_every_character_of_the_editions_has_a_glyph() -> None:
    for name in ("ultime-fr", "ultimate-uk"):
        ed = load_edition(name)
        texts = [p.name for p in ed.properties] + [e.title for e in ed.events]
        texts += [e.text for e in ed.events] + [g.name for g in ed.groups] + [ed.currency]
        for text in texts:
            missing = {c for c in dotfont.fold(text) if c not in dotfont.GLYPHS}
            assert not missing, f"{name}: no glyph for {missing} in {text!r}"


def test_glyphs_are_distinct_and_accents_fold() -> None:
    seen: dict[tuple[int, ...], str] = {}
    for ch, g in dotfont.GLYPHS.items():
        assert g not in seen, f"{ch!r} and {seen[g]!r} look the same"
        seen[g] = ch
    assert dotfont.fold("Ñandú Œuvre «x» – ’") == "Nandu OEuvre <x> - '"
    assert dotfont.fold("Élysées") == "Élysées"
    assert dotfont.glyph("\u4e00") == dotfont.UNKNOWN


def test_layout_elements_stay_on_the_glass() -> None:
    lay = LcdLayout()
    w, h = lay.size
    rects = [*lay.icon_rects.values(), *lay.token_rects.values(), *lay.level_rects, lay.sign]
    for x, y, rw, rh in rects:
        assert x >= 0 and x + rw <= w and y >= 0 and y + rh <= h
    last = lay.amount_cell(4)
    assert last[0] + lay.big.cell_width <= w
    tx, ty = lay.text_row(lay.text_rows - 1)
    assert tx + lay.text_cols * 6 * lay.text_pitch <= w + lay.text_pitch
    assert ty + 7 * lay.text_pitch <= h


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=80), max_size=5))
def test_wrapped_text_always_fits_the_glass(lines: list[str]) -> None:
    rows = dotfont.wrap(lines, 25, 3)
    assert len(rows) <= 3
    assert all(len(r) <= 25 for r in rows)
    text = "".join(dotfont.fold("".join(line.splitlines())) for line in lines)
    if len(rows) < 3 or not rows[-1].endswith("…"):
        # nothing was cut: every non-blank character is shown, in order
        assert "".join(rows).replace(" ", "") == text.replace(" ", "")
