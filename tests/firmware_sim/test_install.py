"""Without pygame or without a display, the emulator says so clearly instead of crashing."""

from __future__ import annotations

import os
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
