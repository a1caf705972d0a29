"""Fixtures of the emulator tests: SDL's dummy drivers, a virtual clock, a panel that records,
and Xvfb servers (one of each size per test process, shared by its tests in turn)."""

from __future__ import annotations

import os

# SDL reads these when a subsystem starts; set them before anything opens a window or a mixer.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import select
import shutil
import subprocess
from collections.abc import Iterator

import pytest

from bank.unit.io import Input
from firmware_sim.emulator import PygamePanel
from firmware_sim.lcd import LcdRenderer
from firmware_sim.pg import pygame
from firmware_sim.sounds import RecordingPlayer
from tests.support.fakes import FakeClock


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(scope="session")
def renderer() -> LcdRenderer:
    pygame.display.init()
    return LcdRenderer(currency="M€")


class PanelRig:
    """A panel on the dummy driver with its posted inputs and played cues recorded."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.inputs: list[Input] = []
        self.player = RecordingPlayer()
        self.quits = 0
        self.panel = PygamePanel(
            "ultime-fr", clock=clock, player=self.player, on_quit=self._on_quit
        )
        self.panel.start(self.inputs.append)
        self.panel.open()
        self.panel.step()
        pygame.event.clear()

    def _on_quit(self) -> None:
        self.quits += 1

    def key(self, key: int, char: str = "", up: bool = True, scancode: int = 0) -> None:
        """Press (and by default release) a key, one frame each."""
        down = pygame.event.Event(pygame.KEYDOWN, key=key, unicode=char, mod=0, scancode=scancode)
        pygame.event.post(down)
        self.panel.step()
        if up:
            self.key_up(key)

    def key_up(self, key: int) -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=key, unicode="", mod=0))
        self.panel.step()

    def mouse_down(self, pos: tuple[int, int], button: int = 1) -> None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
        self.panel.step()

    def mouse_up(self, pos: tuple[int, int], button: int = 1) -> None:
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
        self.panel.step()

    def click(self, pos: tuple[int, int], button: int = 1) -> None:
        self.mouse_down(pos, button)
        self.mouse_up(pos, button)

    def take(self) -> list[Input]:
        """The inputs posted since the last call."""
        out, self.inputs[:] = list(self.inputs), []
        return out


@pytest.fixture
def rig(clock: FakeClock) -> Iterator[PanelRig]:
    rig = PanelRig(clock)
    yield rig
    rig.panel.close()


# ---------------------------------------------------------------------- a real X server

SCREEN = (1280, 800)
#: program -> the Debian package that brings it
TOOLS = {"Xvfb": "xvfb", "xdotool": "xdotool", "import": "imagemagick"}


def _need(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        packages = " ".join(TOOLS[t] for t in missing)
        if os.environ.get("CI"):
            pytest.fail(f"CI must have {', '.join(missing)}: apt-get install {packages}")
        pytest.skip(f"not installed: {', '.join(missing)} (apt-get install {packages})")


@pytest.fixture(scope="session")
def xdisplay() -> Iterator[str]:
    """An Xvfb server for the worker's tests, one after the other (each test's window closes
    with it); its display number is read from -displayfd, no fixed :99, so workers never
    share one."""
    yield from _xvfb(SCREEN)


@pytest.fixture(scope="session")
def small_xdisplay() -> Iterator[str]:
    """An Xvfb server with a 1024x768 screen, smaller than the window's design size."""
    yield from _xvfb((1024, 768))


def _xvfb(screen: tuple[int, int]) -> Iterator[str]:
    _need("Xvfb", "xdotool")
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{screen[0]}x{screen[1]}x24",
         "-nolisten", "tcp"],
        pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(write_fd)
    try:
        ready, _, _ = select.select([read_fd], [], [], 10)
        assert ready, "Xvfb did not start within 10 s"
        number = os.read(read_fd, 32).decode().strip()
        assert number.isdigit(), f"Xvfb -displayfd gave {number!r}"
        yield f":{number}"
    finally:
        os.close(read_fd)
        proc.terminate()
        proc.wait(10)
