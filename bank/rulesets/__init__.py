"""The ruleset registry: which games the bank can play, one line per ruleset.

Where a ruleset lives
    One package per ruleset, ``bank/rulesets/<name>/``, holding everything only that game
    knows: its rules (``decide`` -> events + outcome), its state extension and events, its own
    commands, its configuration (its decisions, the ``[rules]`` table), its edition schema,
    its unit behaviour (steps and gestures over the core's unit shell), its screens and texts.
    The package's ``__init__`` defines ``RULESET``, a :class:`RulesetSpec`.

What the core gives it
    Players and money, properties with an owner and a level, jail and debts, the end of the
    game (:mod:`bank.state`, :mod:`bank.events`); the shared commands (new game, land, auction
    sale, give up a property, undo; :mod:`bank.commands`); the game with its journal and undo
    groups (:mod:`bank.game`); the auction timer, which asks the ruleset for its step,
    countdown and who may bid (:mod:`bank.auction`); card identities whose kinds and ranges
    come from the edition (:mod:`bank.unit.io`); the unit shell: buttons, holds, timeouts,
    power, reader and panel status, the screen model (:mod:`bank.unit.shell`); the daemon, the
    control socket and the tap-script runner, which build games and units through this
    registry. An edition file names its ruleset (``[edition] ruleset = "ultime"``, the default
    when absent).

How to add one
    Write the package (its rules implement :class:`bank.ruleset.Ruleset`, its unit subclasses
    :class:`bank.unit.shell.UnitShell`), add its line to :data:`RULESETS`, and give it edition
    files that say ``ruleset = "<name>"``. No file of another ruleset changes. Run the ruleset
    conformance suite (``tests/rulesets/test_conformance.py``): it runs every registered
    ruleset through replay, undo and a money audit. ``tests/support/toy/`` is the
    smallest complete example ("two players, one property, pay 1 to land"), registered from
    the tests with :func:`register`.

Imports the engine's value types, ``board_assets`` and each registered ruleset package.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bank.errors import BankError
from bank.ruleset import Ruleset
from bank.state import StateExtension, register_extension
from board_assets import Edition, check_schema, register_schema

#: name -> the package that defines its ``RULESET``: adding a ruleset adds one line here
RULESETS: dict[str, str] = {
    "ultime": "bank.rulesets.ultime",
    "classic": "bank.rulesets.classic",
}


@dataclass(frozen=True, slots=True)
class RulesetSpec:
    """What the core needs to build games of one ruleset."""

    name: str
    #: the rules of an edition, with the ruleset's configuration (None: its defaults)
    rules: Callable[[Edition, Any], Ruleset]
    #: ``unit(game, unit_config)``: the unit behaviour over a game, a
    #: :class:`bank.unit.shell.UnitShell` (built by :func:`bank.unit.shell.build_unit`; typed
    #: loosely here so that the registry stays below the game and the unit)
    unit: Callable[[Any, Any], object]
    #: the ruleset's configuration from the ``[rules]`` table (refuses unknown keys)
    config: Callable[[dict[str, Any]], object]
    #: checks the raw edition file (see :func:`board_assets.register_schema`)
    schema: Callable[[Mapping[str, Any]], None]
    #: the empty state extension of a new game (None: the ruleset keeps nothing of its own)
    empty_state: Callable[[], StateExtension] | None = None
    #: ``state_file(rules, state, undo_available)``: the tap scripts' state file of a game of
    #: this ruleset (None: the core's, docs/scripts.md)
    state_file: Callable[[Any, Any, bool], dict[str, Any]] | None = None
    #: the configuration tables besides ``[rules]`` that ``--set TABLE.KEY=V`` may name for
    #: this ruleset (given to :attr:`config` as sub-tables)
    config_tables: tuple[str, ...] = ()
    #: where ``--seed`` goes in the configuration: (table, key); None: the ruleset has no dice
    seed_key: tuple[str, str] | None = None
    #: ``third_die(edition)``: the values a script's ``roll A B T`` may give for T (docs/classic.md
    #: §8.2); None, or an empty tuple for an edition: no third die (T is a parse error)
    third_die: Callable[[Edition], tuple[str, ...]] | None = None
    #: which panels can play it: True every one; else the panel kinds that can (``pygame``,
    #: ``terminal``, ``serial``, ``gpio``, and ``reader`` for card readers; False: none yet):
    #: ``run`` and ``emulate`` refuse its editions on the others and say how to play them
    on_panels: bool | tuple[str, ...] = True


_SPECS: dict[str, RulesetSpec] = {}


def register(spec: RulesetSpec) -> None:
    """Make *spec* playable: its edition schema and state extension are registered too."""
    _SPECS[spec.name] = spec
    register_schema(spec.name, spec.schema)
    if spec.empty_state is not None:
        register_extension(spec.name, spec.empty_state)


def unregister(name: str) -> None:
    """Forget a ruleset registered with :func:`register` (tests' toy rulesets)."""
    if name in RULESETS:
        raise BankError(f"ruleset {name!r} is built in")
    _SPECS.pop(name, None)


def config_tables() -> frozenset[str]:
    """Every configuration table a registered ruleset reads besides ``[rules]``."""
    return frozenset(t for spec in _SPECS.values() for t in spec.config_tables)


def names() -> list[str]:
    """The rulesets that can be played now."""
    return sorted(_SPECS)


def find(name: str) -> RulesetSpec:
    """The ruleset called *name*; BankError naming the known ones otherwise."""
    spec = _SPECS.get(name)
    if spec is None:
        raise BankError(f"unknown ruleset {name!r}; known: {', '.join(names())}", "no ruleset")
    return spec


def for_edition(edition: Edition) -> RulesetSpec:
    """The ruleset an edition is played with, once its schema has checked the edition."""
    spec = find(edition.ruleset)
    check_schema(edition, spec.schema)
    return spec


def _load(module: str) -> None:
    spec = importlib.import_module(module).RULESET
    assert isinstance(spec, RulesetSpec), module
    register(spec)


for _module in RULESETS.values():
    _load(_module)
