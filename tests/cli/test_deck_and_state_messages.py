"""A malformed deck given to ``run`` and ``--state`` into a missing directory: one line, no
traceback, a non-zero exit (issue 9 item 9)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _ultibank(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bank.cli", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=home,
        env={"HOME": str(home), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )


def _one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    return line


def test_run_with_a_malformed_deck_says_where(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    deck.write_text('[cards]\n"04A1B2C3D4E5F6" = "prop:16"\n"zz" = "prop:1"\n')
    line = _one_line(
        _ultibank("run", "--data-dir", str(tmp_path), "--deck", str(deck), home=tmp_path)
    )
    assert line == f"ultibank: {deck}:3: malformed UID key 'zz': not a hex UID: 'zz'"


def test_run_with_a_malformed_default_deck_says_where(tmp_path: Path) -> None:
    (tmp_path / "deck.toml").write_text("[cards\n")
    line = _one_line(_ultibank("run", "--data-dir", str(tmp_path), home=tmp_path))
    assert line.startswith(f"ultibank: {tmp_path / 'deck.toml'}: not valid TOML")


def test_script_state_into_a_missing_directory_is_refused_before_playing(tmp_path: Path) -> None:
    script = tmp_path / "game.tap"
    script.write_text("tap bank:1\ntap bank:2\npress ok\n")
    state = tmp_path / "missing" / "state.json"
    done = _ultibank("script", str(script), "--state", str(state), home=tmp_path)
    assert _one_line(done) == f"--state {state}: no directory {state.parent}"
    assert done.returncode == 2 and done.stdout == ""  # nothing was played
