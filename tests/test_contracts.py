"""The import rules of docs/architecture.md, as import-linter contracts (``.importlinter``).

``make test`` runs ``lint-imports``; these tests run it too, then break each kind of rule on
purpose in a copy of the tree and check that the contract guarding it fails. Every contract of
``.importlinter`` has at least one such break (``test_every_contract_has_a_break``).
"""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bank", "drivers", "firmware_sim", "board_assets", "bench")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def contract_names() -> dict[str, str]:
    """Each contract's id in ``.importlinter`` -> its name, as lint-imports reports it."""
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter", encoding="utf-8")
    prefix = "importlinter:contract:"
    return {
        section.removeprefix(prefix): config[section]["name"]
        for section in config.sections()
        if section.startswith(prefix)
    }


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    """Run the contracts on *tree* (its packages first on the path, whatever is installed)."""
    env = dict(os.environ, PYTHONPATH=str(tree), COLUMNS="200")
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def contract_lines(output: str) -> dict[str, str]:
    """Each contract's name -> KEPT or BROKEN, from the summary."""
    verdicts = {}
    for line in output.splitlines():
        for verdict in ("KEPT", "BROKEN"):
            if f" {verdict}" in line:
                verdicts[line.split(f" {verdict}")[0].strip()] = verdict
    return verdicts


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the project's packages and contracts."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=ignore)
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    return tmp_path


def add_line(path: Path, line: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    path.write_text(old + "\n" + line + "\n", encoding="utf-8")


def test_the_contracts_hold() -> None:
    out = lint_imports(ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    verdicts = contract_lines(out.stdout)
    assert len(verdicts) == len(contract_names()) and set(verdicts.values()) == {"KEPT"}, out.stdout


def test_an_unchanged_copy_holds_too(tree: Path) -> None:
    out = lint_imports(tree)
    assert out.returncode == 0, out.stdout + out.stderr


def _ruleset(tree: Path, name: str, body: str = "") -> None:
    add_line(tree / "bank" / "rulesets" / "__init__.py", '"""The registry."""')
    add_line(tree / "bank" / "rulesets" / name / "__init__.py", body or f'"""{name}."""')
    add_line(
        tree / "bank" / "rulesets" / name / "rules.py", "from bank.engine.state import GameState"
    )


BREAKS = {
    # the loop issue 11 found: the core wiring drivers, drivers reading the unit
    "the core imports a driver": (
        "bank/services/daemon.py",
        "from drivers.deck import simulated_deck",
        "Only the wiring imports the drivers and the emulator",
    ),
    "the core imports the wiring": (
        "bank/engine/game.py",
        "import bank.app.runtime",
        "Only the bench and the compatibility entry points import the wiring",
    ),
    "the core imports the wiring under its old name": (
        "bank/views/web.py",
        "from bank.runtime import Runtime",
        "Only the bench and the compatibility entry points import the wiring",
    ),
    "a driver imports the rules": (
        "drivers/base.py",
        "from bank.engine.game import Game",
        "The drivers and the emulator know the unit's inputs, outputs and words, never a rule",
    ),
    "the emulator imports the game": (
        "firmware_sim/layout.py",
        "import bank.engine.game",
        "The drivers and the emulator know the unit's inputs, outputs and words, never a rule",
    ),
    "a driver imports the emulator": (
        "drivers/sim.py",
        "import firmware_sim.emulator",
        "The wiring sits above the emulator, which sits above the drivers",
    ),
    "the engine reads the clock": (
        "bank/engine/events.py",
        "import time",
        "The engine, the rulesets and the unit's behaviour are pure",
    ),
    "the unit's screens import pygame": (
        "bank/unit/text.py",
        "import pygame",
        "The engine, the rulesets and the unit's behaviour are pure",
    ),
    "the journal imports the game": (
        "bank/services/journal.py",
        "import bank.engine.game",
        "The journal imports the engine's event types and the standard library only",
    ),
    "the edition loader imports the bank": (
        "board_assets/__init__.py",
        "import bank.engine.state",
        "board_assets is data and its loader: it imports nothing of the project",
    ),
    "tap scripts import the emulator's stack": (
        "bank/app/script.py",
        "import serial",
        "Tap scripts run without any optional stack",
    ),
    # the inside of bank/ (contracts "engine-layers" and "bank-layers"), one break across
    # each boundary, bottom up
    "the engine's vocabulary imports an engine type": (
        "bank/engine/values.py",
        "import bank.engine.commands",
        "Inside the engine: the game and its records over the shared types, over the values",
    ),
    "an engine type imports the game": (
        "bank/engine/events.py",
        "import bank.engine.records",
        "Inside the engine: the game and its records over the shared types, over the values",
    ),
    "the engine imports the unit shell": (
        "bank/engine/records.py",
        "import bank.unit.shell",
        "Inside bank/, one folder a layer: the wiring, the views, the services, the unit shell",
    ),
    "the unit shell imports a service": (
        "bank/unit/screens.py",
        "import bank.services.datadir",
        "Inside bank/, one folder a layer: the wiring, the views, the services, the unit shell",
    ),
    "a service imports a view": (
        "bank/services/daemon.py",
        "import bank.views.history",
        "Inside bank/, one folder a layer: the wiring, the views, the services, the unit shell",
    ),
    "a view imports the wiring": (
        "bank/views/history.py",
        "import bank.app.resume",
        "Inside bank/, one folder a layer: the wiring, the views, the services, the unit shell",
    ),
    "a ruleset imports a view": (
        "bank/rulesets/ultime/text.py",
        "import bank.views.speech",
        "A ruleset builds on the unit shell, the game and the engine's types",
    ),
    "a ruleset imports a service": (
        "bank/rulesets/classic/edition.py",
        "from bank.services.datadir import DataDirError",
        "A ruleset builds on the unit shell, the game and the engine's types",
    ),
}

#: the contracts broken by the tests below BREAKS (they need a ruleset package of their own)
BROKEN_ELSEWHERE = ("registry", "rulesets")


def test_every_contract_has_a_break() -> None:
    """A contract added to ``.importlinter`` without a break here would never be seen failing."""
    names = contract_names()
    broken = {prefix for _path, _line, prefix in BREAKS.values()}
    for key in BROKEN_ELSEWHERE:
        broken.add(names[key])
    missing = [key for key, name in names.items() if not any(name.startswith(p) for p in broken)]
    assert not missing, f"contracts no test breaks: {missing}"


@pytest.mark.parametrize("case", sorted(BREAKS))
def test_breaking_a_rule_breaks_its_contract(tree: Path, case: str) -> None:
    path, line, contract = BREAKS[case]
    add_line(tree / path, line)
    out = lint_imports(tree)
    assert out.returncode != 0, out.stdout
    broken = [name for name, v in contract_lines(out.stdout).items() if v == "BROKEN"]
    assert any(name.startswith(contract) for name in broken), out.stdout
    assert line.split()[1] in out.stdout  # the report names the import that broke it


def test_a_ruleset_importing_another_breaks_the_contracts(tree: Path) -> None:
    _ruleset(tree, "alpha")
    _ruleset(tree, "beta", "from bank.rulesets.alpha.rules import GameState")
    out = lint_imports(tree)
    assert out.returncode != 0, out.stdout
    verdicts = contract_lines(out.stdout)
    assert verdicts["Rulesets do not import each other"] == "BROKEN", out.stdout


def test_the_core_importing_a_ruleset_directly_breaks_the_contracts(tree: Path) -> None:
    _ruleset(tree, "alpha")
    add_line(tree / "bank" / "engine" / "game.py", "import bank.rulesets.alpha.rules")
    out = lint_imports(tree)
    assert out.returncode != 0, out.stdout
    verdicts = contract_lines(out.stdout)
    name = "The core reaches a ruleset only through the registry (bank.rulesets)"
    assert verdicts[name] == "BROKEN", out.stdout


def test_rulesets_that_import_only_the_core_keep_the_contracts(tree: Path) -> None:
    _ruleset(tree, "alpha")
    _ruleset(tree, "beta")
    out = lint_imports(tree)
    assert out.returncode == 0, out.stdout + out.stderr
