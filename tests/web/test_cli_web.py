"""``ultibank run --web`` end to end: the startup line, the page, taps, the game-over PNG."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.web.conftest import http, need_matplotlib

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bank.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("command", ["run", "emulate"])
def test_the_web_view_options_are_offered(command: str) -> None:
    out = _cli(command, "--help", env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    for option in ("--web", "--web-host", "--web-port"):
        assert option in out.stdout, (command, option)


@contextmanager
def daemon(
    data: Path, *extra: str, web: tuple[str, ...] = ("--web", "--web-port", "0")
) -> Iterator[tuple[subprocess.Popen[str], str, dict[str, str]]]:
    """``ultibank run --web`` in the background; yields it, its web line and its environment."""
    env = dict(os.environ, ULTIBANK_DATA_DIR=str(data))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bank.cli",
            "run",
            "--reader",
            "sim",
            "--panel",
            "sim",
            *web,
            *extra,
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr is not None
        deadline = time.monotonic() + 30
        line = ""
        while not line.startswith("ultibank: web view"):
            if time.monotonic() > deadline or proc.poll() is not None:
                raise AssertionError(f"no web view line; exit {proc.poll()}: {line}")
            line = proc.stderr.readline()
        yield proc, line, env
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate(5)
            raise AssertionError(f"SIGTERM: still running after 30 s: {err[-2000:]}") from None


def _port(line: str) -> int:
    match = re.search(r":(\d+)\b", line)
    assert match, line
    return int(match.group(1))


def test_run_web_serves_the_game_on_loopback(tmp_path: Path) -> None:
    with daemon(tmp_path / "data") as (_, line, env):
        assert "read-only" in line and "127.0.0.1" in line and "EXPOSED" not in line
        url = f"http://127.0.0.1:{_port(line)}/"
        for card in ("bank:1", "bank:2"):
            assert _cli("tap", card, env=env).returncode == 0
        assert _cli("press", "ok", env=env).returncode == 0
        assert _cli("tap", "prop:22", env=env).returncode == 0
        assert _cli("tap", "bank:1", env=env).returncode == 0
        status, body, _ = http(url + "state")
        assert status == 200
        state = json.loads(body)
        assert [p["balance"] for p in state["players"]] == [1100, 1500]
        assert http(url + "state", "POST")[0] == 405


def test_run_web_exposed_says_so(tmp_path: Path) -> None:
    with daemon(tmp_path / "data", "--web-host", "0.0.0.0") as (_, line, _env):
        assert "EXPOSED" in line and "read-only" in line


def test_web_turned_on_by_the_configuration(tmp_path: Path) -> None:
    web = ("--set", "web.enabled=true", "--set", "web.port=0")
    with daemon(tmp_path / "data", web=web) as (_, line, _env):
        assert "read-only" in line and "127.0.0.1" in line
        assert http(f"http://127.0.0.1:{_port(line)}/state")[0] == 200


def test_game_over_writes_the_chart_beside_the_journal(tmp_path: Path) -> None:
    need_matplotlib()
    data = tmp_path / "data"
    with daemon(data) as (_, _line, env):
        for line in ("tap bank:1", "tap bank:2", "press ok", "tap prop:22", "tap bank:1",
                     "tap prop:21", "tap bank:1", *["tap prop:22", "tap bank:2"] * 3):  # fmt: skip
            verb, what = line.split()
            assert _cli(verb, what, env=env).returncode == 0, line
        deadline = time.monotonic() + 30
        while not list(data.glob("wealth-game-*.png")):
            assert time.monotonic() < deadline, "no chart beside the journal"
            time.sleep(0.05)  # a real process draws it
    (chart,) = data.glob("wealth-game-*.png")
    assert chart.read_bytes()[:4] == b"\x89PNG"
    assert (data / "journal.sqlite").exists()
