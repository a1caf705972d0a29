"""What ``ultibank --help`` and ``ultibank tap`` import: only what they use (issue 20).

Each command runs in a fresh interpreter, which reports the modules loaded when the command
returns. ``--help`` loads no ruleset, settings, logging or control code; ``tap`` and
``press`` talk to a control socket (a stand-in daemon here) with the control client and the
settings alone: no ruleset, journal, engine, driver, logging or dataclasses. How fast that is
is measured by the benchmarks, never asserted here.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: runs ``main(argv)`` and prints the loaded modules as JSON on the last line of stderr
PROBE = """
import json, sys
from bank.app.cli import main
try:
    status = main(sys.argv[1:])
finally:
    sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
sys.exit(status)
"""

#: never needed to show the help or to send a line to a daemon
HEAVY = (
    "bank.rulesets",
    "bank.services.journal",
    "bank.engine.game",
    "bank.engine.state",
    "bank.unit.shell",
    "bank.app.runtime",
    "board_assets",
    "drivers",
    "firmware_sim",
    "sqlite3",
    "dataclasses",
    "logging",
    "tomllib",
)


def modules_after(*argv: str, env: dict[str, str] | None = None) -> tuple[str, set[str]]:
    """The command's standard output and the modules loaded once it returned."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
        env=env,
    )
    assert out.returncode == 0, out.stderr
    line = out.stderr.rsplit("MODULES ", 1)[1]
    return out.stdout, set(json.loads(line))


def loaded(modules: set[str], prefix: str) -> bool:
    return any(m == prefix or m.startswith(prefix + ".") for m in modules)


def test_help_lists_every_command_and_loads_no_ruleset() -> None:
    stdout, modules = modules_after("--help")
    for command in ("run", "emulate", "script", "tap", "press", "history", "write-card"):
        assert f"    {command}" in stdout
    assert "typing" not in modules
    for heavy in (*HEAVY, "bank.services.settings", "bank.services.control", "shutil"):
        assert not loaded(modules, heavy), f"`ultibank --help` imported {heavy}"


def test_a_command_help_shows_its_own_options() -> None:
    stdout, _ = modules_after("tap", "--help")
    assert "--socket" in stdout and "--data-dir" in stdout


class StandInDaemon:
    """A control socket that answers every line ``{"ok": true, "output": [line]}``."""

    def __init__(self, path: Path) -> None:
        self.lines: list[str] = []
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(os.fspath(path))
        self.server.listen(4)
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with conn, conn.makefile("rb") as stream:
                for raw in stream:
                    line = raw.decode().strip()
                    self.lines.append(line)
                    conn.sendall(json.dumps({"ok": True, "output": [line]}).encode() + b"\n")

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[tuple[Path, StandInDaemon]]:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    stand_in = StandInDaemon(data / "control.sock")
    yield data, stand_in
    stand_in.close()


@pytest.mark.parametrize(
    "argv",
    [
        ["tap", "prop:16", "bank:1"],
        ["press", "ok"],
        ["hold", "cancel", "5"],
        ["state"],
        ["key", "150"],
        ["roll", "3", "4"],
        ["info", "table"],
    ],
)
def test_a_client_command_loads_only_the_control_client(
    daemon: tuple[Path, StandInDaemon], argv: list[str], tmp_path: Path
) -> None:
    data, stand_in = daemon
    # no configuration file: the defaults and the flags only
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}
    stdout, modules = modules_after(*argv, "--data-dir", str(data), env=env)
    sent = stand_in.lines
    assert sent and sent[0].split()[0] == argv[0]
    assert stdout.split("\n")[0] == sent[0]
    assert "bank.services.control_client" in modules
    for heavy in (*HEAVY, "bank.services.control", "bank.engine.config"):
        assert not loaded(modules, heavy), f"`ultibank {argv[0]}` imported {heavy}"


def test_a_client_command_still_checks_the_configuration_file(
    daemon: tuple[Path, StandInDaemon], tmp_path: Path
) -> None:
    """A ruleset's table in the file loads that ruleset to check it, as before."""
    data, stand_in = daemon
    config = tmp_path / "config.toml"
    config.write_text("[classic]\nno_such_key = 1\n")
    out = subprocess.run(
        [sys.executable, "-m", "bank.cli", "tap", "prop:1", "--data-dir", str(data),
         "--config", str(config)],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip
    assert out.returncode == 2
    assert "no_such_key" in out.stderr and out.stderr.count("\n") == 1
    assert stand_in.lines == []
