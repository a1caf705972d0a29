"""The real window on a real X server (Xvfb): found by class, clicked and typed into by xdotool."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bank.unit.io import Button, CardId
from board_assets import load_edition
from firmware_sim import layout as L
from firmware_sim.lcd import GLASS, LcdRenderer
from firmware_sim.pg import pygame

from .conftest import SCREEN, _need
from .lcdread import read_amount

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.xvfb


class Emulator:
    """``python -m firmware_sim`` under the X server, its printed inputs in a queue."""

    def __init__(self, display: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
        env.update(DISPLAY=display, SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
        self.display = display
        self.env = env
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "firmware_sim", "--no-sound", "--screen", "balance"],
            env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())

    def expect(self, *wanted: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        for want in wanted:
            try:
                got = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                pytest.fail(f"the emulator did not print {want!r} within {timeout} s")
            assert got == want

    def xdotool(self, *args: str) -> str:
        out = subprocess.run(
            ["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=20
        )
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()


def _window(emu: Emulator) -> tuple[str, dict[str, int]]:
    """The emulator's window id (found by its class) and geometry."""
    emu.expect("ready", timeout=20)
    wid = emu.xdotool("search", "--sync", "--classname", "ubemu").splitlines()[0]
    lines = emu.xdotool("getwindowgeometry", "--shell", wid).splitlines()
    geo = {k: int(v) for k, v in (line.split("=", 1) for line in lines)}
    return wid, geo


def _stop(emu: Emulator) -> None:
    if emu.proc.poll() is None:
        emu.proc.kill()
        emu.proc.wait(5)


def test_real_window_takes_clicks_and_keys_and_stops_on_sigterm(xdisplay: str) -> None:
    emu = Emulator(xdisplay)
    try:
        wid, geo = _window(emu)
        assert (geo["WIDTH"], geo["HEIGHT"]) == L.WINDOW_SIZE

        spots = L.hotspots(load_edition("ultime-fr"))
        card = next(s for s in spots if s.action == L.TapCard(CardId("bank", 2)))
        x, y = card.centre
        emu.xdotool("mousemove", "--window", wid, str(x), str(y), "click", "1")
        emu.expect("tap bank:2", "lift")

        x, y = L.BUTTON_CENTRES[Button.OK]
        emu.xdotool("mousemove", "--window", wid, str(x), str(y), "click", "1")
        emu.expect("press ok", "release ok")

        emu.xdotool("key", "--window", wid, "p", "1", "6", "Return")
        emu.expect("tap prop:16", "lift")

        emu.proc.send_signal(signal.SIGTERM)  # as systemctl stop or a closing session does
        assert emu.proc.wait(10) == 0
        assert emu.lines.get(timeout=5).startswith("stopped after")
    finally:
        _stop(emu)


def test_on_a_1024x768_screen_the_window_fits_and_clicks_hit(small_xdisplay: str) -> None:
    emu = Emulator(small_xdisplay)
    try:
        wid, geo = _window(emu)
        assert geo["WIDTH"] <= 1024 and geo["HEIGHT"] <= 768
        assert geo["WIDTH"] < L.WINDOW_SIZE[0]  # scaled down, not cut off
        view = L.View.fit((geo["WIDTH"], geo["HEIGHT"]))
        spots = L.hotspots(load_edition("ultime-fr"))
        # the far right and bottom of the tray: hidden past the screen's edge before
        for card in (CardId("bank", 4), CardId("prop", 22), CardId("event", 23)):
            spot = next(s for s in spots if s.action == L.TapCard(card))
            x, y = view.to_window(spot.centre)
            emu.xdotool("mousemove", "--window", wid, str(x), str(y), "click", "1")
            emu.expect(f"tap {card}", "lift")
        x, y = view.to_window(L.BUTTON_CENTRES[Button.CANCEL])
        emu.xdotool("mousemove", "--window", wid, str(x), str(y), "click", "1")
        emu.expect("press cancel", "release cancel")
    finally:
        _stop(emu)


def test_root_screenshot_shows_the_window(xdisplay: str, tmp_path: Path) -> None:
    _need("import")
    emu = Emulator(xdisplay)
    try:
        _, geo = _window(emu)
        shot = tmp_path / "root.png"
        subprocess.run(
            ["import", "-window", "root", str(shot)], env=emu.env, check=True, timeout=30
        )
        image = pygame.image.load(str(shot))
        assert image.get_size() == SCREEN
        x, y = geo["X"] + L.LCD_POS[0], geo["Y"] + L.LCD_POS[1]
        lcd = image.subsurface(pygame.Rect(x, y, 480, 272))
        assert tuple(lcd.get_at((2, 2)))[:3] == GLASS
        assert read_amount(lcd, LcdRenderer("M€").layout) == 1500  # the balance screen
    finally:
        _stop(emu)
