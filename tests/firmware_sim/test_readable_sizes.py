"""Issue 19.7: every word the window writes is readable on a 1280 x 800 and on a 1024 x 600
screen (where the window shows its canvas at 0.75): the tray's labels (`chaussure`), the card
on the reader, the status line, the help's two columns; and the reader pad's words keep clear
of its NFC waves at both sizes. Drawn through a real pygame surface (SDL's dummy driver)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from bank.unit.io import Screen
from firmware_sim import layout as L
from firmware_sim.emulator import MIN_LABEL_SIZE, MIN_SHOWN_SIZE, PygamePanel
from firmware_sim.pg import pygame
from firmware_sim.sounds import RecordingPlayer

from .trays import labels_of, window_spots

SCREENS = [(1280, 800), (1024, 600)]
DEED = Screen(name="deed", lines=("12 Avenue Mozart", "chien loyer 200 €"), amount=200,
              number=12, token="dog", level=2, colour="#f28c28")  # fmt: skip


@dataclass(frozen=True)
class Written:
    text: str
    size: int
    rect: pygame.Rect  # on the canvas


class Recorder(PygamePanel):
    """The window, noting every label it writes."""

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)  # type: ignore[arg-type]
        self.written: list[Written] = []

    def _label(
        self,
        text: str,
        pos: tuple[int, int],
        size: int,
        colour: tuple[int, int, int],
        *,
        bold: bool = False,
        anchor: str = "topleft",
    ) -> None:
        w, h = self._font(size, bold).size(text)
        rect = pygame.Rect(0, 0, w, h)
        setattr(rect, anchor, pos)
        self.written.append(Written(text, size, rect))
        super()._label(text, pos, size, colour, bold=bold, anchor=anchor)


@pytest.fixture
def quit_display() -> Iterator[None]:
    yield
    pygame.display.quit()


def _open(edition: str, screen: tuple[int, int]) -> Recorder:
    panel = Recorder(
        edition, player=RecordingPlayer(), screen_size=screen, labels=labels_of(edition)
    )
    panel.open()
    panel.show(DEED)
    panel.step()
    return panel


def _redraw(panel: Recorder) -> None:
    panel._dirty = panel._full = True
    panel.step()


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("edition", ["classic-fr", "classic-uk", "ultime-fr", "mega-fr",
                                     "starwars-ep2-fr"])  # fmt: skip
def test_every_word_is_readable_on_both_screens(
    edition: str, screen: tuple[int, int], quit_display: None
) -> None:
    panel = _open(edition, screen)
    scale = panel.view.scale
    assert panel.window.get_size()[0] <= screen[0] and panel.window.get_size()[1] <= screen[1]
    cards = [s for s in window_spots(panel.edition) if isinstance(s.action, L.TapCard)]
    pad = pygame.Rect(panel._reader_rect)
    face = pygame.Rect(0, 0, 150, 92)  # the card as it lies on the reader
    face.center = pad.center
    seen: list[Written] = []
    for spot in cards:  # its hover line, then the card itself big on the reader
        assert isinstance(spot.action, L.TapCard)
        panel._hover = spot
        panel._on_reader = spot.action.card
        seen += panel.written
        panel.written = []
        _redraw(panel)
        on_card = [w for w in panel.written if pad.contains(w.rect)]
        assert on_card, spot
        for i, w in enumerate(on_card):  # on the card, each word clear of the others
            assert face.contains(w.rect), (spot.action.card, w)
            assert not any(w.rect.colliderect(o.rect) for o in on_card[i + 1 :]), (
                spot.action.card, [o.text for o in on_card])  # fmt: skip
        card = spot.action.card
        if card.kind in ("prop", "deed"):  # the name sits on the card's colour band
            band = panel._prop_colour[card.number]
            for w in on_card:
                if w.text != str(card.number):
                    r = w.rect.inflate(2, 2)  # just around the words: the band
                    for corner in (r.topleft, (r.right - 1, r.top), (r.left, r.bottom - 1),
                                   (r.right - 1, r.bottom - 1)):  # fmt: skip
                        assert panel.canvas.get_at(corner) == band, (card, w.text, corner)
    panel.written = seen + panel.written
    panel._hover = None
    panel._on_reader = None
    panel._help = True  # the help, over the window
    _redraw(panel)
    texts = {w.text for w in panel.written}
    assert len(texts) > len(cards)  # the tray, the reader's cards and the help were written
    small = sorted({(w.size, w.text) for w in panel.written if w.size < MIN_LABEL_SIZE})
    assert not small, f"written under {MIN_LABEL_SIZE} px: {small[:5]}"
    shown = min(w.size for w in panel.written) * scale
    assert shown >= MIN_SHOWN_SIZE, f"{shown:.1f} px on a {screen} screen"
    # nothing written beyond the canvas, nor beyond the help's half it belongs to
    canvas = pygame.Rect((0, 0), L.WINDOW_SIZE)
    assert all(canvas.contains(w.rect) for w in panel.written), [
        w for w in panel.written if not canvas.contains(w.rect)
    ]


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("edition", ["classic-fr", "classic-uk", "ultime-fr"])
def test_the_reader_words_keep_clear_of_the_waves(
    edition: str, screen: tuple[int, int], quit_display: None
) -> None:
    panel = _open(edition, screen)
    pad = pygame.Rect(panel._reader_rect)
    cx, cy = pad.center
    waves = pygame.Rect(cx - 60 - 38, cy - 38, 38 + 38, 76)  # the three arcs' box
    words = [w for w in panel.written if pad.contains(w.rect)]
    assert words, "the reader pad says nothing"
    assert " ".join(w.text for w in words) == panel._say("reader")
    view = panel.view
    for w in words:
        assert not w.rect.colliderect(waves), (w.text, w.rect, waves)
        # the same on the screen, where the canvas is scaled
        on_screen = pygame.Rect(view.to_window(w.rect.topleft), (0, 0))
        on_screen.union_ip(pygame.Rect(view.to_window(w.rect.bottomright), (0, 0)))
        waves_shown = pygame.Rect(view.to_window(waves.topleft), (0, 0))
        waves_shown.union_ip(pygame.Rect(view.to_window(waves.bottomright), (0, 0)))
        assert not on_screen.colliderect(waves_shown)
        assert w.size * view.scale >= MIN_SHOWN_SIZE
