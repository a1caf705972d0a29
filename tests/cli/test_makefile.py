"""`make run` installs the package once: a second run starts the unit without pip.

The Makefile is run for real in a copy of the project's root, with a stand-in virtual
environment whose ``python`` and ``ultibank`` only record that they ran, so the test checks
make's decisions (what is out of date) in a second, not pip's work.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

RECORDER = """#!/bin/sh
echo "$(basename "$0") $*" >> "{log}"
"""


def _make(project: Path, *targets: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", *targets],
        cwd=project, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, Path]:
    if shutil.which("make") is None:
        pytest.skip("no make on this machine")
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy2(ROOT / name, tmp_path / name)
    log = tmp_path / "ran.log"
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    for tool in ("python", "ultibank"):
        path = bin_dir / tool
        path.write_text(RECORDER.format(log=log))
        path.chmod(0o755)
    return tmp_path, log


def test_a_second_make_run_installs_nothing(project: tuple[Path, Path]) -> None:
    root, log = project
    first = _make(root, "run")
    assert log.read_text().splitlines() == [
        "python -m pip install --quiet -e .[emu]",
        "ultibank emulate",
    ]
    log.unlink()
    second = _make(root, "run")
    assert log.read_text().splitlines() == ["ultibank emulate"]  # no pip
    assert second.stdout == "" and second.stderr == ""  # nothing but the unit
    assert "pip install" in first.stdout
    # a changed pyproject.toml (new dependencies) installs again
    later = os.stat(root / ".venv" / ".installed-run").st_mtime + 5
    os.utime(root / "pyproject.toml", (later, later))
    log.unlink()
    _make(root, "run")
    assert log.read_text().splitlines()[0] == "python -m pip install --quiet -e .[emu]"


def test_the_dev_install_counts_for_make_run(project: tuple[Path, Path]) -> None:
    """`make test` then `make run`: the dev install has the emulator already."""
    root, _ = project
    dry = _make(root, "-n", "venv-dev").stdout
    assert "pip install --quiet -e '.[emu,nfc,pcsc,serial,pi,web,dev]'" in dry
    assert "touch .venv/.installed-dev .venv/.installed-run" in dry
    (root / ".venv" / ".installed-dev").touch()
    (root / ".venv" / ".installed-run").touch()
    assert "pip" not in _make(root, "-n", "run").stdout
    assert "pip" not in _make(root, "-n", "venv-dev").stdout


def test_make_run_takes_an_edition(project: tuple[Path, Path]) -> None:
    """`make run EDITION=classic-fr` (issue 19): the emulator of that edition; NEW_GAME=1
    asks for a new game rather than the stored one."""
    root, log = project
    (root / ".venv" / ".installed-run").touch()
    _make(root, "run", "EDITION=classic-fr")
    _make(root, "run", "EDITION=mega-fr", "NEW_GAME=1")
    _make(root, "run")
    assert log.read_text().splitlines() == [
        "ultibank emulate --edition classic-fr",
        "ultibank emulate --edition mega-fr --new-game",
        "ultibank emulate",
    ]


@pytest.mark.slow
def test_the_editable_install_prints_no_setuptools_warning(tmp_path: Path) -> None:
    """The first `make run` printed a 12-line "Editable installation" BuildBackendWarning
    (issue 19): the packages at the root are a plain .pth install, said in no words."""
    import sys

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-deps", "-e",
         str(ROOT)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if "Location 'file:" not in line]
    assert not any("Warning" in line or "!!" in line for line in said), "\n".join(said)
    found = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import bank, board_assets; print(bank.__file__)"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, check=True,
    )  # fmt: skip
    assert found.stdout.strip() == str(ROOT / "bank" / "__init__.py")
