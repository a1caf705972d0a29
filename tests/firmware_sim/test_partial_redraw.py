"""The window draws only what changed (issue 20), and the picture stays the one a whole frame
draws: after every step of a session of clicks, keys, hovers and screens, the window is
compared pixel for pixel with the same state drawn whole."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bank.unit.io import Button, CardId, Icon, Screen
from firmware_sim import layout as L
from firmware_sim.emulator import PygamePanel
from firmware_sim.pg import pygame
from firmware_sim.sounds import RecordingPlayer

from .conftest import FakeClock

PROPERTY = Screen(
    name="property", lines=("Rue de la Paix",), amount=250, number=22, token="boat", level=2,
    colour="#1d3c8f", icons=frozenset({Icon.AUCTION}),
)  # fmt: skip


def whole_frame(panel: PygamePanel) -> bytes:
    """The picture of the panel's present state, drawn whole (then the panel goes on)."""
    panel._full = panel._dirty = True
    panel.step()
    assert panel.last_rects == [panel.canvas.get_rect()]
    return pygame.image.tobytes(panel.canvas, "RGB")


class Session:
    """A panel and the inputs of a user, checking each frame against a whole one."""

    def __init__(self, edition: str, size: tuple[int, int] | None = None) -> None:
        self.panel = PygamePanel(
            edition, clock=FakeClock(), player=RecordingPlayer(), screen_size=None
        )
        self.panel.start(lambda item: None)
        self.panel.open()
        if size is not None:
            self.panel._window = pygame.display.set_mode(size, pygame.RESIZABLE)
        self.panel.step()
        pygame.event.clear()
        self.partial_frames = 0
        #: what the last frame of the session drew and showed (before the check's whole frame)
        self.rects: list[pygame.Rect] = []
        self.shown: list[pygame.Rect] = []

    def post(self, event: pygame.event.Event) -> None:
        pygame.event.post(event)
        self.check()

    def check(self) -> None:
        """One step; if it drew, its picture must be the whole frame's."""
        frames = self.panel.frames
        self.panel.step()
        if self.panel.frames == frames:
            return
        whole = self.panel.canvas.get_rect()
        self.rects = list(self.panel.last_rects)
        self.shown = list(self.panel.shown_rects)
        if self.rects != [whole]:
            self.partial_frames += 1
            drawn = sum(r.w * r.h for r in self.panel.last_rects)
            assert drawn < whole.w * whole.h // 4, self.panel.last_rects
        got = pygame.image.tobytes(self.panel.canvas, "RGB")
        shown = pygame.image.tobytes(self.panel.window, "RGB")
        want = whole_frame(self.panel)
        assert got == want, "a frame drawn in parts differs from the whole frame"
        if self.panel.canvas is not self.panel.window:
            assert shown == pygame.image.tobytes(self.panel.window, "RGB")

    def move(self, pos: tuple[int, int]) -> None:
        self.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))

    def click(self, pos: tuple[int, int], button: int = 1) -> None:
        self.move(pos)
        self.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
        self.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))

    def key(self, key: int, char: str = "") -> None:
        self.post(pygame.event.Event(pygame.KEYDOWN, key=key, unicode=char, mod=0, scancode=0))
        self.post(pygame.event.Event(pygame.KEYUP, key=key, unicode="", mod=0))

    def show(self, screen: Screen) -> None:
        self.panel.show(screen)
        self.check()

    def close(self) -> None:
        self.panel.close()


@pytest.fixture
def ultime() -> Iterator[Session]:
    s = Session("ultime-fr")
    yield s
    s.close()


def test_a_click_on_a_card_draws_the_card_the_reader_and_the_status_only(
    ultime: Session,
) -> None:
    spot = next(s for s in ultime.panel._spots if isinstance(s.action, L.TapCard))
    ultime.move(spot.centre)
    ultime.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.centre, button=1))
    rects = ultime.rects
    assert any(r.colliderect(pygame.Rect(spot.rect)) for r in rects)
    assert any(r.contains(pygame.Rect(L.READER_RECT)) for r in rects)
    assert not any(r.colliderect(pygame.Rect(L.LCD_POS, (10, 10))) for r in rects)
    ultime.show(PROPERTY)  # the daemon's answer: the LCD and the lamp
    assert ultime.rects and all(r.colliderect(pygame.Rect(L.UNIT_RECT)) for r in ultime.rects)
    assert ultime.partial_frames >= 3


def test_an_ultime_session_drawn_in_parts_matches_whole_frames(ultime: Session) -> None:
    for spot in ultime.panel._spots:  # hover every card and button, click each
        ultime.click(spot.centre)
    ultime.show(PROPERTY)
    ultime.show(Screen(name="balance", amount=1500, token="car"))
    ultime.show(Screen(name="off", off=True))
    # a right click latches a button (its ring), a second one frees it
    ok = next(s for s in ultime.panel._spots if s.action == L.PressButton(Button.OK))
    ultime.click(ok.centre, button=3)
    ultime.click(ok.centre, button=3)
    for key, char in ((pygame.K_RETURN, "\r"), (pygame.K_1, "1"), (pygame.K_p, "p")):
        ultime.key(key, char)
    ultime.key(pygame.K_F1)  # the help over everything: whole frames, then back
    ultime.key(pygame.K_F1)
    ultime.move((5, 5))  # off every spot
    assert ultime.partial_frames > 40


@pytest.mark.parametrize("edition", ["classic-fr", "starwars-ep2-fr"])
def test_a_classic_session_drawn_in_parts_matches_whole_frames(edition: str) -> None:
    s = Session(edition)
    try:
        for spot in s.panel._spots:  # the keypad, the buttons, bank cards, deeds, decks
            s.click(spot.centre)
        s.show(Screen(name="deed", amount=14, number=12, token="dog", colour="#d93a96"))
        s.panel._tap(CardId("bank", 1))  # a card left on the reader
        s.check()
        assert s.partial_frames > 40
    finally:
        s.close()


def test_a_window_larger_than_the_picture_shows_the_parts_in_place() -> None:
    s = Session("ultime-fr", size=(L.WINDOW_SIZE[0] + 100, L.WINDOW_SIZE[1] + 60))
    try:
        assert s.panel.canvas is not s.panel.window
        offset = s.panel.view.offset
        for spot in s.panel._spots[:8]:
            x, y = spot.centre
            s.click((x + offset[0], y + offset[1]))
        assert s.partial_frames > 5
    finally:
        s.close()


def test_redraw_full_draws_every_frame_whole(clock: FakeClock) -> None:
    panel = PygamePanel("ultime-fr", clock=clock, player=RecordingPlayer(), redraw="full")
    panel.start(lambda item: None)
    try:
        panel.step()
        panel.show(PROPERTY)
        panel.step()
        assert panel.last_rects == [panel.canvas.get_rect()]
    finally:
        panel.close()
    with pytest.raises(ValueError, match="redraw"):
        PygamePanel("ultime-fr", clock=clock, player=RecordingPlayer(), redraw="some")


@pytest.mark.parametrize("size", [(840, 518), (1000, 600), (641, 397)])
def test_a_scaled_window_shows_the_same_pixels_after_a_partial_update(
    size: tuple[int, int],
) -> None:
    """A window smaller than the picture (a small screen, a window made smaller) rescales and
    shows only the tiles a change touches; what it shows is, pixel for pixel, what a whole
    frame scaled and shown from the same state gives."""
    s = Session("ultime-fr", size=size)
    try:
        view = s.panel.view
        assert view.scale < 1.0
        window = s.panel.window.get_rect()
        for spot in s.panel._spots[:12]:
            s.click(view.to_window(spot.centre))
            shown = s.shown
            assert shown and all(window.contains(r) for r in shown)
            assert sum(r.w * r.h for r in shown) < window.w * window.h // 3, shown
        s.show(PROPERTY)
        s.show(Screen(name="balance", amount=1500, token="car"))
        s.key(pygame.K_F1)  # the help (whole frames), then back to parts
        s.key(pygame.K_F1)
        s.show(Screen(name="balance", amount=27, token="car"))
        assert s.partial_frames > 20
    finally:
        s.close()
