"""Issue 19.4, the evening after: `emulate` and `run` without --edition go on with the stored
game in its own edition and say so; another edition needs --new-game, which archives the
stored game (still in `ultibank history`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path) -> dict[str, str]:
    hidden = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    env = {k: v for k, v in os.environ.items() if k not in hidden}
    env.update(
        HOME=str(tmp_path / "home"),
        XDG_CONFIG_HOME=str(tmp_path / "home" / ".config"),
        ULTIBANK_DATA_DIR=str(tmp_path / "data"),
        PYTHONPATH=str(ROOT),
    )
    return env


def ultibank(env: dict[str, str], *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bank.cli", *args],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=60, check=False,
        input=stdin,
    )  # fmt: skip


def _yesterday(tmp_path: Path, env: dict[str, str]) -> None:
    """Yesterday's classic-fr game of three players, in the data directory."""
    script = tmp_path / "yesterday.tap"
    script.write_text("tap bank:1\ntap bank:2\ntap bank:3\npress ok\ntap deed:1\ntap bank:2\n")
    done = ultibank(env, "script", str(script), "--edition", "classic-fr", "--data-dir",
                    env["ULTIBANK_DATA_DIR"])  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_emulate_without_an_edition_resumes_the_stored_classic_game(tmp_path: Path) -> None:
    env = _env(tmp_path)
    _yesterday(tmp_path, env)
    # the terminal view, typed on a real pipe: q quits
    done = ultibank(env, "emulate", "--terminal", stdin="q\n")
    assert done.returncode == 0, done.stderr
    assert "ultibank: Partie reprise · classic-fr · 3 joueurs" in done.stderr.splitlines()
    assert "Refusé" not in done.stdout  # nothing refused: the game goes on
    # the LCD says it too, until the next touch
    assert "|Partie reprise      |\n|3 joueurs           |" in done.stdout
    history = ultibank(env, "history").stdout
    assert "current" in history and "classic-fr" in history and "archived" not in history


def test_another_edition_asks_for_new_game_then_archives(tmp_path: Path) -> None:
    env = _env(tmp_path)
    _yesterday(tmp_path, env)
    refused = ultibank(env, "emulate", "--terminal", "--edition", "ultime-fr", stdin="q\n")
    assert refused.returncode == 2
    (line,) = refused.stderr.strip().splitlines()
    assert line.startswith("ultibank: this data directory holds a game of edition 'classic-fr'")
    assert "add --new-game to start a new game of ultime-fr" in line
    fresh = ultibank(env, "emulate", "--terminal", "--edition", "ultime-fr", "--new-game",
                     stdin="q\n")  # fmt: skip
    assert fresh.returncode == 0, fresh.stderr
    assert "ultibank: Nouvelle partie · ultime-fr (partie archivée)" in fresh.stderr
    history = ultibank(env, "history").stdout.splitlines()
    assert "archived" in history[0] and "classic-fr" in history[0]
    assert "current" in history[1] and "ultime-fr" in history[1]
    # the next evening without --edition: yesterday's Ultime game (empty) is no resume
    again = ultibank(env, "emulate", "--terminal", stdin="q\n")
    assert again.returncode == 0 and "Partie reprise" not in again.stderr


def test_run_without_an_edition_resumes_the_stored_game(tmp_path: Path) -> None:
    """The daemon: the resumed edition is read back with `ultibank state`, then it stops."""
    import signal
    import time

    env = _env(tmp_path)
    _yesterday(tmp_path, env)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bank.cli", "run", "--panel", "sim", "--reader", "sim"],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    sock = tmp_path / "data" / "control.sock"
    deadline = time.monotonic() + 20
    try:
        while not sock.exists():
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < deadline
            time.sleep(0.05)
        state = ultibank(env, "state")
        assert '"edition": "classic-fr"' in state.stdout
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    assert "ultibank: Partie reprise · classic-fr · 3 joueurs" in err
