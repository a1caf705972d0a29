"""The ruleset registry is lazy: importing the core loads no ruleset, a game, an edition file
or a journal record loads the one it names, and nothing else (each in a fresh interpreter)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _loaded_after(code: str) -> list[str]:
    """The ruleset packages a fresh interpreter has imported after running *code*."""
    probe = code + (
        "\nimport json, sys\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.count('.') == 2"
        " and m.startswith('bank.rulesets.'))))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    loaded: list[str] = json.loads(out.stdout.splitlines()[-1])
    return loaded


def test_importing_the_core_loads_no_ruleset() -> None:
    code = (
        "import bank.engine.game, bank.engine.records, bank.unit.shell, bank.services.journal,"
        " bank.views.history, bank.views.web"
    )
    assert _loaded_after(code) == []


def test_a_game_loads_its_own_ruleset_only() -> None:
    code = (
        "from bank.engine.game import Game\nfrom board_assets import load_edition\n"
        "Game(load_edition('classic-fr')).start([1, 2])"
    )
    assert _loaded_after(code) == ["bank.rulesets.classic"]


def test_decoding_a_record_loads_the_ruleset_it_names() -> None:
    """A classic record decodes in a process that never built a classic game: its own command
    (``roll``) is known once the record has named its ruleset."""
    code = (
        "from bank.engine.records import decode\n"
        "r = decode({'v': 2, 'ruleset': 'classic', 'edition': 'classic-fr',"
        " 'command': {'name': 'roll', 'card': 1}, 'events': [],"
        " 'undo_group': 1})\n"
        "assert r.command.name == 'roll', r.command"
    )
    assert _loaded_after(code) == ["bank.rulesets.classic"]


def test_the_registry_knows_the_built_in_names_before_loading_them() -> None:
    code = (
        "from bank import rulesets\n"
        "assert rulesets.names() == ['classic', 'ultime'] and rulesets.loaded() == []"
    )
    assert _loaded_after(code) == []
