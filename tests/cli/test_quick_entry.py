"""The ``ultibank`` command's entry point (``bank.app.quick``): a plain ``tap``/``press`` goes
to the daemon without the argument parser, and says and sends exactly what the full command
line says and sends; every other command line goes to the full parser (issue 20)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bank.app.quick import plain_command_line
from tests.cli.test_startup_imports import HEAVY, StandInDaemon, daemon, loaded

__all__ = ["daemon"]  # the fixture, shared with test_startup_imports

ROOT = Path(__file__).resolve().parents[2]

#: runs the entry point (quick or full) and prints the loaded modules on stderr's last line
PROBE = """
import json, sys
from bank.app.{module} import main
try:
    status = main(sys.argv[1:])
finally:
    sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)) + "\\n")
sys.exit(status)
"""


def run(
    module: str, *argv: str, env: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module), *argv],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False, env=env,
    )  # fmt: skip
    text, _, modules = out.stderr.rpartition("\nMODULES ")
    out.stderr = text  # what the command wrote, without the probe's line
    return out, set(json.loads(modules))


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """No configuration file, unless a test writes one."""
    return {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "config")}


@pytest.mark.parametrize(
    ("argv", "plain"),
    [
        (["tap", "bank:1"], ("tap", ["bank:1"], [])),
        (["tap", "prop:16", "bank:1", "--data-dir", "/d"],
         ("tap", ["prop:16", "bank:1"], [("--data-dir", "/d")])),
        (["press", "--socket=/s.sock", "ok"], ("press", ["ok"], [("--socket", "/s.sock")])),
        (["tap", "--data-dir", "/a", "bank:1", "--data-dir", "/b"],
         ("tap", ["bank:1"], [("--data-dir", "/a"), ("--data-dir", "/b")])),
        (["tap"], None),  # no card: the parser's message
        (["tap", "--help"], None),
        (["tap", "-h"], None),
        (["tap", "bank:1", "-v"], None),
        (["tap", "bank:1", "--config", "c.toml"], None),
        (["tap", "bank:1", "--set", "game.strict_modes=false"], None),
        (["tap", "bank:1", "--data"], None),  # an abbreviation: argparse's business
        (["tap", "bank:1", "--data-dir"], None),  # no value
        (["tap", "bank:1", "--data-dir", "--socket", "x"], None),
        (["tap", "bank:1", "--data-dir="], None),
        (["tap", "--", "bank:1"], None),
        (["-v", "tap", "bank:1"], None),
        (["hold", "cancel", "5"], None),
        (["state"], None),
        (["run"], None),
        ([], None),
    ],
)  # fmt: skip
def test_which_command_lines_take_the_short_way(
    argv: list[str], plain: tuple[str, list[str], list[tuple[str, str]]] | None
) -> None:
    assert plain_command_line(argv) == plain


def test_the_command_starts_at_the_short_way() -> None:
    """As declared (an older install keeps its old entry point until it is reinstalled)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"]["ultibank"] == "bank.app.quick:main"


@pytest.mark.parametrize("argv", [["tap", "prop:16", "bank:1"], ["press", "ok"]])
def test_a_plain_tap_sends_and_prints_what_the_full_command_does_without_the_parser(
    daemon: tuple[Path, StandInDaemon], env: dict[str, str], argv: list[str]
) -> None:
    data, stand_in = daemon
    full, _ = run("cli", *argv, "--data-dir", str(data), env=env)
    sent_by_full = list(stand_in.lines)
    stand_in.lines.clear()
    quick, modules = run("quick", *argv, "--data-dir", f"{data}/", env=env)
    assert (quick.returncode, quick.stdout, quick.stderr) == (0, full.stdout, "")
    assert full.returncode == 0 and stand_in.lines == sent_by_full == [
        f"{argv[0]} {what}" for what in argv[1:]
    ]
    for heavy in (*HEAVY, "argparse", "typing", "bank.app.cli", "bank.app.play", "locale"):
        assert not loaded(modules, heavy), f"a plain `ultibank {argv[0]}` imported {heavy}"


def test_no_daemon_is_the_same_one_line_error(tmp_path: Path, env: dict[str, str]) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    full, _ = run("cli", "tap", "bank:1", "--data-dir", str(data), env=env)
    quick, _ = run("quick", "tap", "bank:1", "--data-dir", str(data), env=env)
    assert quick.returncode == full.returncode == 2
    assert quick.stderr == full.stderr
    assert quick.stderr.startswith("ultibank: no ultibank daemon is running here")
    assert quick.stderr.count("\n") == 1 and "--data-dir DIR" in quick.stderr


def test_the_short_way_still_reads_the_configuration_file(
    daemon: tuple[Path, StandInDaemon], env: dict[str, str], tmp_path: Path
) -> None:
    data, stand_in = daemon
    config = tmp_path / "config" / "ultibank" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'[game]\ndata_dir = "{data}"\n')
    quick, _ = run("quick", "tap", "bank:2", env=env)  # the daemon found through the file
    assert quick.returncode == 0, quick.stderr
    assert stand_in.lines == ["tap bank:2"]
    config.write_text("[game]\nno_such_key = 1\n")
    quick, _ = run("quick", "tap", "bank:2", "--data-dir", str(data), env=env)
    assert quick.returncode == 2 and "no_such_key" in quick.stderr
    assert quick.stderr.count("\n") == 1 and stand_in.lines == ["tap bank:2"]


def test_other_command_lines_go_to_the_full_parser(env: dict[str, str]) -> None:
    out, modules = run("quick", "tap", "--help", env=env)
    assert out.returncode == 0 and out.stdout.startswith("usage: ultibank tap")
    assert "argparse" in modules
    out, _ = run("quick", "tap", env=env)
    assert out.returncode == 2
    assert out.stderr.startswith("ultibank: ") and out.stderr.count("\n") == 1
