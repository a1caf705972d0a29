"""Without pygame or without a display, the emulator says so clearly instead of crashing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    full.update(PYTHONPATH=str(ROOT), **env)
    return subprocess.run(
        [sys.executable, *args], env=full, cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_missing_pygame_is_an_import_error_that_says_how_to_install() -> None:
    code = (
        "import sys\n"
        "sys.modules['pygame'] = None  # as if pygame-ce were not installed\n"
        "try:\n"
        "    import firmware_sim.emulator\n"
        "except ImportError as err:\n"
        "    print(err.name, '|', err)\n"
    )
    proc = _run(["-c", code], {})
    assert proc.returncode == 0, proc.stderr
    name, message = proc.stdout.strip().split(" | ")
    assert name == "pygame"
    assert "pip install 'ultibank[emu]'" in message


def test_no_display_is_reported_by_the_standalone_window() -> None:
    env = {"DISPLAY": "", "WAYLAND_DISPLAY": "", "SDL_AUDIODRIVER": "dummy"}
    proc = _run(["-m", "firmware_sim", "--no-sound"], env)
    assert proc.returncode == 2
    assert "no display" in proc.stderr


_SIGTERM_CHILD = """
import threading
from firmware_sim.emulator import PygamePanel
panel = PygamePanel(sound=False, on_quit=lambda: print("on_quit", flush=True))
panel.start(lambda item: None)
panel.open()
print("ready", flush=True)
panel.run_ui(threading.Event())
print("run_ui returned", flush=True)
"""


def test_sigterm_becomes_on_quit_through_sdl() -> None:
    # No Python handler for SIGTERM here: SDL's own handler turns it into a QUIT event.
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    env.update(PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    proc = subprocess.Popen(
        [sys.executable, "-c", _SIGTERM_CHILD], env=env, cwd=ROOT, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        assert out.split() == ["on_quit", "run_ui", "returned"]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
