"""The ruleset registry: which games the bank can play, one line per ruleset.

Where a ruleset lives
    One package per ruleset, ``bank/rulesets/<name>/``, holding everything only that game
    knows: its rules (``decide`` -> events + outcome), its state extension and events, its own
    commands, its configuration (its decisions, the ``[rules]`` table), its edition schema,
    its unit behaviour (steps and gestures over the core's unit shell), its screens and texts.
    The package's ``__init__`` defines ``RULESET``, a :class:`RulesetSpec`.

What the core gives it
    Players and money, properties with an owner and a level, jail and debts, the end of the
    game (:mod:`bank.engine.state`, :mod:`bank.engine.events`); the shared commands (new
    game, land, auction sale, give up a property, undo; :mod:`bank.engine.commands`); the game with
    its journal and undo groups (:mod:`bank.engine.game`); the auction timer, which asks the
    ruleset for its step, countdown and who may bid (:mod:`bank.engine.auction`); card identities
    whose kinds and ranges come from the edition (:mod:`bank.unit.io`); the unit shell: buttons,
    holds, timeouts, power, reader and panel status, the screen model (:mod:`bank.unit.shell`); the
    daemon, the control socket and the tap-script runner, which build games and units through this
    registry. An edition file names its ruleset (``[edition] ruleset = "ultime"``, the default
    when absent).

How to add one
    Write the package (its rules implement :class:`bank.engine.ruleset.Ruleset`, its unit subclasses
    :class:`bank.unit.shell.UnitShell`; rules that give outcomes declare their kinds in
    ``outcomes``, an :class:`bank.engine.ruleset.OutcomeCodec`, so that the journal stores them, and
    its words come from ``narrator``), add its line to :data:`RULESETS`, and give it edition
    files that say ``ruleset = "<name>"``. No file of another ruleset changes. Run the ruleset
    conformance suite (``tests/rulesets/test_conformance.py``): it runs every registered
    ruleset through replay, undo and a money audit. ``tests/support/toy/`` is the
    smallest complete example ("two players, one property, pay 1 to land"), registered from
    the tests with :func:`register`.

Loading
    The registry is lazy: importing the core loads no ruleset. :data:`RULESETS` names each
    built-in ruleset's package by its module path, and :func:`find` imports it the first time a
    game, an edition or a journal record names the ruleset; the package's events, commands,
    edition schema and state extension are registered then. Tests and plug-ins register a
    ruleset of their own with :func:`register` (no file of the bank changes).

Imports the engine's value types and ``board_assets``; a ruleset's package is imported by its
module path only when the ruleset is first asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bank.engine.errors import BankError
from bank.engine.ruleset import OutcomeCodec, Ruleset
from bank.engine.state import StateExtension, register_extension
from board_assets import Edition, check_schema, register_schema, set_schema_finder

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
    #: its outcome kinds as the journal stores them, with their upcasters (None: its rules
    #: give no outcomes; a transaction's outcome is journalled with it, ``bank.engine.records``)
    outcomes: OutcomeCodec | None = None
    #: ``narrator(edition, lang, say_money)``: its transactions in words for the history, the
    #: web view and (given *say_money*, how the voice says an amount) the voice (a
    #: :class:`bank.views.narrate.Narrator`; None: the core's plain one)
    narrator: Callable[[Edition, str, Callable[[int], str] | None], Any] | None = None
    #: ``token_labels()``: its tokens' names by language (``{"dog": {"fr": "chien"}}``)
    token_labels: Callable[[], Mapping[str, Mapping[str, str]]] | None = None
    #: ``labels(edition, lang)``: the ruleset's panel vocabulary for a game of *edition* (a
    #: :class:`bank.unit.io.Labels`: token labels, currency, decks, menu items, the art of its
    #: own icons...), which the wiring hands to every panel; None: the core's (tokens and
    #: currency only)
    labels: Callable[[Edition, str], Any] | None = None
    #: ``board(edition)``: the ruleset's own part of the web page's board (keys added beside
    #: the shared ring, groups and properties); None: nothing more
    board: Callable[[Edition], dict[str, Any]] | None = None
    #: ``table_view(sheet, data, step)``: adds the ruleset's part of the web page's table to
    #: the snapshot *data* (its players' and properties' own fields, and its own key), from
    #: the ruleset's state file *sheet* (see :attr:`state_file`) and the unit's *step* view;
    #: None: nothing more
    table_view: Callable[[dict[str, Any], dict[str, Any], Any], None] | None = None
    #: ``deck_sheet(edition)``: what the printed deck sheet (``ultibank print-deck``) shows of
    #: the ruleset's own cards (a :class:`DeckSheet`); None: the edition's property and event
    #: cards
    deck_sheet: Callable[[Edition], DeckSheet] | None = None


@dataclass(frozen=True, slots=True)
class DeckSheet:
    """What the printed deck sheet shows of one edition's cards, as its ruleset says it."""

    #: the kind of the property cards (``deed``)
    property_kind: str
    #: the currency the prices are printed in
    currency: str
    #: deck kind -> {card number: (title, text)} of the printed cards, in the sheet's order;
    #: a card the edition prints no text for shows the deck's name alone
    decks: Mapping[str, Mapping[int, tuple[str, str]]]


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
    """Every configuration table a ruleset reads besides ``[rules]`` (loads every ruleset)."""
    return frozenset(t for spec in load_all() for t in spec.config_tables)


def names() -> list[str]:
    """The rulesets that can be played: the built-in ones and those registered since."""
    return sorted(set(RULESETS) | set(_SPECS))


def loaded() -> list[str]:
    """The rulesets whose package is loaded now (built-in ones load when first asked for)."""
    return sorted(_SPECS)


def find(name: str) -> RulesetSpec:
    """The ruleset called *name*, its package loaded on first use; BankError naming the known
    ones otherwise."""
    spec = _SPECS.get(name)
    if spec is None and name in RULESETS:
        spec = _load(RULESETS[name])
    if spec is None:
        raise BankError(f"unknown ruleset {name!r}; known: {', '.join(names())}", "no ruleset")
    return spec


def ensure(name: str) -> None:
    """Load the ruleset *name* when it is a built-in one not loaded yet (its event and command
    kinds then decode); a name the registry does not know is left to the caller to refuse."""
    if name not in _SPECS and name in RULESETS and RULESETS[name] not in _LOADING:
        _load(RULESETS[name])


def load_all() -> list[RulesetSpec]:
    """Every ruleset, each built-in one loaded (what ``--set`` and the help list need)."""
    return [find(name) for name in names()]


def for_edition(edition: Edition) -> RulesetSpec:
    """The ruleset an edition is played with, once its schema has checked the edition."""
    spec = find(edition.ruleset)
    check_schema(edition, spec.schema)
    return spec


#: the built-in rulesets being imported now (an edition read while one loads skips it)
_LOADING: set[str] = set()


def _load(module: str) -> RulesetSpec:
    _LOADING.add(module)
    try:
        spec = importlib.import_module(module).RULESET
    finally:
        _LOADING.discard(module)
    assert isinstance(spec, RulesetSpec), module
    register(spec)
    return spec


def _schema_of(name: str) -> Callable[[Mapping[str, Any]], None] | None:
    """The edition loader asks here for the schema of a ruleset it has none for yet."""
    ensure(name)
    spec = _SPECS.get(name)
    return spec.schema if spec is not None else None


set_schema_finder(_schema_of)
