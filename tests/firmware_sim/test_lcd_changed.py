"""The glass redraws only the elements that changed (issue 20): patching the rectangles
:meth:`LcdRenderer.changed_rects` names from the new render onto the old one gives, pixel for
pixel, the new render; and a change of one digit names a small piece of the glass."""

from __future__ import annotations

import itertools

import pytest

from bank.app.runtime import panel_labels
from bank.unit.io import Icon, Screen
from board_assets import load_edition
from firmware_sim.lcd import LCD_SIZE, LcdRenderer
from firmware_sim.pg import pygame

SCREENS = [
    Screen(name="off", off=True),
    Screen(name="idle", lines=("Ultibank", "Tap a bank card")),
    Screen(name="balance", amount=1, token="car"),
    Screen(name="balance", amount=2, token="car"),
    Screen(name="balance", amount=-1500, token="jet", lines=("Jet", "Solde")),
    Screen(
        name="property",
        lines=("Place de la Bourse", "Loyer 280 M€"),
        amount=280,
        number=16,
        token="boat",
        level=2,
        colour="#f2c80f",
    ),
    Screen(
        name="auction",
        lines=("Enchères #11",),
        amount=240,
        number=11,
        countdown=7,
        icons=frozenset({Icon.AUCTION}),
    ),
    Screen(
        name="auction",
        lines=("Enchères #11",),
        amount=260,
        number=11,
        countdown=6,
        icons=frozenset({Icon.AUCTION}),
    ),
    Screen(
        name="deed",
        lines=("12 Avenue Mozart", "chien loyer 200 €"),
        amount=200,
        number=12,
        token="dog",
        level=6,
        icons=frozenset({Icon.MORTGAGE, Icon.KEYPAD}),
    ),
    Screen(name="deed", lines=("12 Avenue Mozart",), number=12, token="hat", level=1),
]


def _rgb(surf: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surf, "RGB")


@pytest.mark.parametrize("classic", [False, True])
def test_patching_the_changed_rects_gives_the_new_glass(classic: bool) -> None:
    labels = {"dog": "chien", "hat": "chapeau", "car": "voiture"} if classic else None
    title = panel_labels(load_edition("classic-fr"), "fr").title if classic else None
    renderer = LcdRenderer(currency="€", token_labels=labels, title=title)
    for before, after in itertools.permutations(SCREENS, 2):
        glass = renderer.render(before)
        new = renderer.render(after)
        rects = renderer.changed_rects(before, after)
        for rect in rects:
            glass.blit(new, rect, area=rect)
        assert _rgb(glass) == _rgb(new), (before, after, rects)
    assert renderer.changed_rects(None, SCREENS[1]) == [pygame.Rect((0, 0), LCD_SIZE)]
    assert renderer.changed_rects(SCREENS[2], SCREENS[2]) == []


def test_one_digit_is_a_small_piece_of_the_glass() -> None:
    renderer = LcdRenderer(currency="M€")
    rects = renderer.changed_rects(SCREENS[2], SCREENS[3])
    area = sum(r.w * r.h for r in rects)
    assert len(rects) == 1 and area < LCD_SIZE[0] * LCD_SIZE[1] // 20
