"""The emulator draws the tray its ruleset's vocabulary gives it, and knows no ruleset itself.

``python -m bank.app.window`` opens the window on its own with the edition's ruleset's panel
vocabulary (a classic edition: the keypad window, the deeds in columns); ``python -m
firmware_sim`` alone has none and shows its own tray. On SDL's dummy driver, with screenshots.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bank.unit.io import CardId, Labels, Tray
from board_assets import load_edition
from drivers.sim import VirtualClock
from firmware_sim import layout as L
from firmware_sim.emulator import PygamePanel
from firmware_sim.pg import pygame
from firmware_sim.sounds import RecordingPlayer

from .trays import labels_of

ROOT = Path(__file__).resolve().parents[2]
DEED_FACE = (250, 248, 240)


def _window(module: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run(
        [sys.executable, "-m", module, "--no-sound", "--seconds", "0", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
        stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip


def test_the_window_entry_draws_the_rulesets_tray(tmp_path: Path) -> None:
    shot = tmp_path / "classic.png"
    done = _window("bank.app.window", tmp_path, "--edition", "classic-fr", "--hover", "deed:12",
                   "--screenshot", str(shot))  # fmt: skip
    assert done.returncode == 0, done.stderr
    tray = labels_of("classic-fr").tray
    assert tray is not None
    pygame.display.init()
    picture = pygame.image.load(str(shot))
    ed = load_edition("classic-fr")
    for n in (1, 12, 28):
        x, y, _, h = next(s.rect for s in L.hotspots(ed, tray)
                          if s.action == L.TapCard(CardId("deed", n)))  # fmt: skip
        assert tuple(picture.get_at((x + 5, y + h - 5)))[:3] == DEED_FACE, n


def test_the_tray_is_the_vocabularys_not_the_editions() -> None:
    """A made-up tray on an Ultime edition: the window lays out what the tray says (two
    columns of property cards under the keypad window), and hovering a card says its line."""
    ed = load_edition("ultime-fr")
    tray = Tray(
        "prop", ((1, 2, 3), (4, 5)), (),
        hover={CardId("prop", 4): ("quatre",)}, names={CardId("prop", 4): "Quatre"},
        marks={1: "dark"},
    )  # fmt: skip
    spots = [s for s in L.hotspots(ed, tray) if isinstance(s.action, L.TapCard)]
    assert [str(s.action.card) for s in spots if s.action.card.kind != "bank"] == [
        "prop:1", "prop:2", "prop:3", "prop:4", "prop:5",
    ]  # fmt: skip
    panel = PygamePanel(ed, clock=VirtualClock(1000.0), player=RecordingPlayer(),
                        labels=Labels("fr", tray=tray))  # fmt: skip
    try:
        assert panel.tray_view is not None
        assert panel.tray_view.describe(CardId("prop", 4)) == ("quatre",)
        assert panel.tray_view.describe(CardId("prop", 5)) == ("prop:5",)
        assert panel.tray_view.mark(1) == "dark" and panel.tray_view.mark(2) is None
    finally:
        pygame.display.quit()
    assert PygamePanel(ed, clock=VirtualClock(1000.0), player=RecordingPlayer()).tray_view is None
