"""The documented ways in still work after the wiring moved to bank/app/: the ``ultibank``
command, ``python -m bank.script`` (docs/unit.md), ``python -m bank.cli`` and the old import
paths, which forward to the moved modules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "scripts" / "01_first_moves.tap"


def run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(argv), capture_output=True, text=True, cwd=ROOT, timeout=60, check=False
    )


def test_python_m_bank_script_runs_a_tap_script() -> None:
    old = run(sys.executable, "-m", "bank.script", str(SCRIPT))
    new = run(sys.executable, "-m", "bank.app.script", str(SCRIPT))
    assert old.returncode == 0, old.stderr
    assert "screen bought #16 [boat] L1 260" in old.stdout
    assert old.stdout == new.stdout


@pytest.mark.parametrize("module", ["bank.cli", "bank.app.cli"])
def test_python_m_the_command_line(module: str) -> None:
    out = run(sys.executable, "-m", module, "--help")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("usage: ultibank")


def test_the_installed_ultibank_command() -> None:
    exe = Path(sys.executable).with_name("ultibank")
    if not exe.exists():
        pytest.fail(f"no {exe}: install the project (make venv-dev)")
    out = run(str(exe), "script", str(SCRIPT))
    assert out.returncode == 0, out.stderr
    assert "screen bought #16 [boat] L1 260" in out.stdout


def test_the_old_import_paths_are_the_moved_modules() -> None:
    import bank.app.cli
    import bank.app.runtime
    import bank.app.script
    import bank.cli
    import bank.runtime
    import bank.script

    assert bank.runtime.Runtime is bank.app.runtime.Runtime
    assert bank.script.run_script is bank.app.script.run_script
    assert bank.cli.build_parser is bank.app.cli.build_parser
    with pytest.raises(AttributeError):
        bank.runtime.no_such_name  # noqa: B018
