"""``ultibank --help`` from the cached text (bank/app/cached_help.py): the same bytes as the
parser prints, for ``--help``, ``-h`` and the bare command, in any terminal of 80 columns or
more (the help is never wider), and the parser itself in a narrower one (issue 20)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bank.app import cached_help, helpgen
from tests.support.probe import PROBE

ROOT = Path(__file__).resolve().parents[2]


def run(module: str, *argv: str, columns: int) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    env = {**os.environ, "COLUMNS": str(columns)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module), *argv],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False, env=env,
    )  # fmt: skip
    text, _, modules = out.stderr.rpartition("\nMODULES ")
    out.stderr = text
    return out, set(json.loads(modules))


def test_the_cached_help_is_what_the_parser_prints() -> None:
    """Fails after a change to a command or its help until `python -m bank.app.helpgen` runs."""
    assert helpgen.parser_help(80) == cached_help.HELP
    assert cached_help.WIDTH == 78
    on_disk = helpgen.TARGET.read_text(encoding="utf-8")
    assert on_disk == helpgen.module_text(), "run: python -m bank.app.helpgen"
    assert helpgen.main(["--check"]) == 0


def test_the_check_says_when_the_cached_text_is_stale(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    stale = tmp_path / "cached_help.py"
    stale.write_text(helpgen.module_text().replace("run ", "rn ", 1), encoding="utf-8")
    monkeypatch.setattr(helpgen, "TARGET", stale)
    assert helpgen.main(["--check"]) == 1
    assert "python -m bank.app.helpgen" in capsys.readouterr().out
    assert helpgen.main([]) == 0
    assert stale.read_text(encoding="utf-8") == helpgen.module_text()


@pytest.mark.parametrize("argv", [["--help"], ["-h"], []])
def test_the_help_lines_print_the_parsers_text_without_the_parser(argv: list[str]) -> None:
    full, _ = run("cli", *argv, columns=80)
    quick, modules = run("quick", *argv, columns=80)
    assert full.returncode == quick.returncode == 0
    assert quick.stdout == full.stdout and quick.stdout.startswith("usage: ultibank")
    assert quick.stderr == full.stderr == ""
    for heavy in ("argparse", "bank.app.cli", "pathlib", "bank.services", "typing"):
        assert heavy not in modules, f"`ultibank {' '.join(argv)}` imported {heavy}"


@pytest.mark.parametrize("columns", [80, 120, 300])
def test_a_wide_terminal_gets_the_cached_text(columns: int) -> None:
    """The help is never wider than 80 columns: the cached text serves every wider terminal."""
    full, _ = run("cli", "--help", columns=columns)
    quick, modules = run("quick", "--help", columns=columns)
    assert quick.stdout == full.stdout == cached_help.HELP
    assert "argparse" not in modules


def test_a_narrower_terminal_is_left_to_the_parser() -> None:
    full, _ = run("cli", "--help", columns=60)
    quick, modules = run("quick", "--help", columns=60)
    assert quick.stdout == full.stdout != cached_help.HELP
    assert max(map(len, quick.stdout.splitlines()[:2])) <= 60  # the usage, wrapped for 60
    assert "argparse" in modules
