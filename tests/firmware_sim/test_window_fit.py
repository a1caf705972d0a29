"""The window fits small screens and resizes; it speaks the game's language; it answers at once."""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator

import pytest

from bank.unit.io import ButtonPressed, CardId, CardTapped, Input
from firmware_sim import layout as L
from firmware_sim.emulator import PygamePanel
from firmware_sim.pg import pygame
from firmware_sim.sounds import RecordingPlayer

from .conftest import FakeClock
from .trays import window_spots


def _panel(clock: FakeClock, inputs: list[Input], **kw: object) -> PygamePanel:
    panel = PygamePanel(kw.pop("edition", "ultime-fr"), clock=clock, player=RecordingPlayer(),
                        **kw)  # type: ignore[arg-type]  # fmt: skip
    panel.start(inputs.append)
    panel.open()
    panel.step()
    pygame.event.clear()
    return panel


@pytest.fixture
def inputs() -> Iterator[list[Input]]:
    yield []
    pygame.display.quit()


def _click(panel: PygamePanel, pos: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    panel.step()


def _every_spot_clickable(panel: PygamePanel, inputs: list[Input]) -> None:
    width, height = panel.window.get_size()
    for spot in window_spots(panel.edition):
        x, y, w, h = spot.rect
        for corner in ((x, y), (x + w - 1, y + h - 1)):
            wx, wy = panel.view.to_window(corner)
            assert 0 <= wx < width and 0 <= wy < height, (spot, (wx, wy), (width, height))
        inputs.clear()
        _click(panel, panel.view.to_window(spot.centre))
        match spot.action:
            case L.TapCard(card):
                assert isinstance(inputs[0], CardTapped) and inputs[0].card == card, spot
            case L.PressButton(button):
                assert inputs[0] == ButtonPressed(1000.0, button), spot


@pytest.mark.parametrize("screen", [(1024, 768), (800, 600), (640, 480)])
def test_the_window_fits_a_small_screen_and_every_card_is_clickable(
    clock: FakeClock, inputs: list[Input], screen: tuple[int, int]
) -> None:
    panel = _panel(clock, inputs, screen_size=screen)
    width, height = panel.window.get_size()
    assert width <= screen[0] and height <= screen[1]
    assert panel.view.scale < 1.0
    assert panel.window.get_flags() & pygame.RESIZABLE
    _every_spot_clickable(panel, inputs)


@pytest.mark.parametrize("screen", [(1920, 1080), (1366, 768)])
def test_a_screen_big_enough_gets_the_design_size(
    clock: FakeClock, inputs: list[Input], screen: tuple[int, int]
) -> None:
    """A 1366 x 768 laptop too: a picture scaled by 0.997 would cost a whole-canvas scaling
    at every frame."""
    panel = _panel(clock, inputs, screen_size=screen)
    assert panel.window.get_size() == L.WINDOW_SIZE and panel.view == L.View(1.0, (0, 0))


@pytest.mark.parametrize("size", [(800, 500), (1000, 800), (1400, 700)])
def test_resizing_the_window_lays_it_out_again(
    clock: FakeClock, inputs: list[Input], size: tuple[int, int]
) -> None:
    panel = _panel(clock, inputs)
    assert panel.window.get_size() == L.WINDOW_SIZE
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        pygame.Window.from_display_module().size = size  # what the user's drag does
    panel.step()
    assert panel.window.get_size() == size
    _every_spot_clickable(panel, inputs)
    # the scaled picture is the canvas: the LCD's glass shows where the view puts it
    lcd = panel.view.to_window((L.LCD_POS[0] + 240, L.LCD_POS[1] + 4))
    glass = (157, 170, 136)
    assert all(abs(a - b) <= 12 for a, b in zip(panel.window.get_at(lcd)[:3], glass, strict=True))


def test_the_window_speaks_the_units_language(clock: FakeClock, inputs: list[Input]) -> None:
    fr = _panel(clock, inputs)
    assert fr.status_text == "F1 ou ? pour l'aide"
    assert ("Entrée", "bouton OK, la coche (gardez la touche pour garder le bouton)") in (
        L.help_rows(fr.language)
    )
    event6 = next(s for s in window_spots(fr.edition) if s.action == L.TapCard(CardId("event", 6)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=event6.centre, rel=(0, 0),
                                         buttons=(0, 0, 0)))  # fmt: skip
    fr.step()
    # the effect in the project's words, not the card's title (Maison hantée)
    assert fr.status_text == "événement 6 : Échange de terrains"
    fr.close()
    en = _panel(clock, inputs, language="en")
    assert en.status_text == "F1 or ? for help"
    en.close()
    uk = _panel(clock, inputs, edition="ultimate-uk")
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=event6.centre, rel=(0, 0),
                                         buttons=(0, 0, 0)))  # fmt: skip
    uk.step()
    assert uk.status_text == "event 6: Swap properties"  # not "Haunted House"


def test_a_click_is_answered_without_waiting_for_a_poll(clock: FakeClock) -> None:
    """With a poll period of 100 s, a click still reaches the daemon while the window sleeps."""
    got = threading.Event()
    panel = PygamePanel("ultime-fr", clock=clock, sound=False, fps=0.01)
    panel.start(lambda item: got.set() if isinstance(item, CardTapped) else None)
    seen: list[bool] = []
    spot = next(s for s in window_spots(panel.edition) if s.action == L.TapCard(CardId("bank", 2)))

    def user() -> None:
        try:
            while panel.frames == 0:  # the window is up and asleep
                threading.Event().wait(0.01)
            threading.Event().wait(0.3)
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.centre,
                                                 button=1))  # fmt: skip
            seen.append(got.wait(5))
        finally:
            panel.close()

    worker = threading.Thread(target=user)
    worker.start()
    panel.run_ui(threading.Event())
    worker.join(10)
    assert seen == [True]


def test_the_dummy_driver_is_woken_by_an_event_watch(clock: FakeClock, inputs: list[Input]) -> None:
    panel = _panel(clock, inputs)
    assert panel.wait_mode == "watch"


def test_an_event_card_on_the_reader_shows_its_effect(
    clock: FakeClock, inputs: list[Input]
) -> None:
    panel = _panel(clock, inputs)
    spot = next(s for s in window_spots(panel.edition) if s.action == L.TapCard(CardId("event", 6)))
    reader = pygame.Rect(L.READER_RECT)
    before = pygame.image.tobytes(panel.canvas.subsurface(reader), "RGB")
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.centre, button=1))
    panel.step()
    # the card's face on the pad carries a line of dark text between its "?" and its number
    face = pygame.Rect(0, 0, 150, 92)
    face.center = reader.center
    band = panel.canvas.subsurface(pygame.Rect(face.x + 10, face.y + 28, face.w - 20, 12))
    dark = sum(1 for x in range(band.get_width()) for y in range(band.get_height())
               if sum(band.get_at((x, y))[:3]) < 200)  # fmt: skip
    assert dark > 40
    assert pygame.image.tobytes(panel.canvas.subsurface(reader), "RGB") != before
