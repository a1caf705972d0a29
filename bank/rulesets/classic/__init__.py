"""The classic ruleset: the bank of every classic Monopoly box (docs/classic.md).

The classic edition schema (:mod:`.edition`), the configuration with every **decision** of
§3/§6 (:mod:`.config`), the state extension and its events (:mod:`.state`), the commands
(:mod:`.commands`), the pure rules engine (the package :mod:`.rules`, one module per family of
commands) with its typed outcomes (:mod:`.outcomes`) and questions (:mod:`.questions`), Méga
and Star Wars as variants of classic chosen once from the edition (:mod:`.variant`, over
:mod:`.mega` and :mod:`.force`), the unit's classic mode (the package :mod:`.unit`, one module
per family of gestures) with its screens (:mod:`.screen_lines`, :mod:`.screens_play`,
:mod:`.screens`) and texts (:mod:`.text`),
and the §8.4 state file (:mod:`.statefile`).
The registry (:mod:`bank.rulesets`) finds this package by ``RULESET``.
Imports the core and its own modules.
"""

from __future__ import annotations

from typing import Any

from bank.engine.errors import BankError
from bank.engine.ruleset import OutcomeCodec
from bank.rulesets import RulesetSpec
from bank.rulesets.classic import outcomes as _outcomes
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.edition import check_edition, third_die_names
from bank.rulesets.classic.rules import ClassicRulesEngine
from bank.rulesets.classic.state import ClassicState
from board_assets import Edition


def _rules(edition: Edition, config: Any) -> ClassicRulesEngine:
    if config is not None and not isinstance(config, ClassicConfig):
        raise BankError(f"the classic rules take a ClassicConfig, not {type(config).__name__}")
    return ClassicRulesEngine(edition, config)


def _unit(game: Any, config: Any) -> object:
    # imported here: the unit imports the game, which imports this registry
    from bank.rulesets.classic.unit import ClassicUnit

    return ClassicUnit(game, config)


def _state_file(rules: Any, state: Any, undo_available: bool) -> dict[str, Any]:
    from bank.rulesets.classic.statefile import state_file

    return state_file(rules, state, undo_available)


def _labels(edition: Edition, lang: str) -> Any:
    from bank.rulesets.classic.panel import panel_labels

    return panel_labels(edition, lang)


def _board(edition: Edition) -> dict[str, Any]:
    from bank.rulesets.classic.panel import board

    return board(edition)


def _narrator(edition: Edition, lang: str, say_money: Any) -> Any:
    # imported when words are first wanted
    from bank.rulesets.classic.narrate import narrator

    return narrator(edition, lang, say_money)


def _from_events(edition: Edition, record: Any, before: Any, after: Any) -> Any:
    from bank.rulesets.classic.upcast import from_events

    return from_events(edition, record, before, after)


def _table_view(sheet: dict[str, Any], data: dict[str, Any], step: Any) -> None:
    from bank.rulesets.classic.panel import table_view

    table_view(sheet, data, step)


def _deck_sheet(edition: Edition) -> Any:
    from bank.rulesets.classic.panel import deck_sheet

    return deck_sheet(edition)


def _token_labels() -> Any:
    from bank.rulesets.classic.narrate_words import TOKEN_LABELS

    return TOKEN_LABELS


RULESET = RulesetSpec(
    name="classic",
    rules=_rules,
    unit=_unit,
    config=ClassicConfig.from_mapping,
    schema=check_edition,
    empty_state=ClassicState,
    state_file=_state_file,
    config_tables=("classic", "variants", "mega", "starwars"),
    seed_key=("classic", "dice_seed"),
    third_die=third_die_names,
    on_panels=True,  # every panel plays it: emulator, terminal, serial v2, GPIO, readers
    outcomes=OutcomeCodec.of_module(
        _outcomes, upcasters=_outcomes.UPCASTERS, from_events=_from_events
    ),
    narrator=_narrator,
    token_labels=_token_labels,
    labels=_labels,
    board=_board,
    table_view=_table_view,
    deck_sheet=_deck_sheet,
)
