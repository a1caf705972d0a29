"""The Ultime ruleset: Monopoly Électronique Ultime / Ultimate Banking (docs/ultime.md).

Everything only this game knows lives here: the rules (:mod:`.rules`, deciding events and
:mod:`.outcomes`), the state extension and its events (:mod:`.events`), the M menu's and event
cards' commands (:mod:`.commands`), the ULTIME decisions (:mod:`.config`), the edition schema
(:mod:`.edition`), the unit behaviour (:mod:`.unit`: steps and gestures over the core's shell),
its screens (:mod:`.screens`) and texts (:mod:`.text`). The registry (:mod:`bank.rulesets`)
finds it by ``RULESET``.
Imports the core and its own modules; the unit behaviour is imported when a unit is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bank.engine.errors import BankError
from bank.engine.ruleset import OutcomeCodec
from bank.rulesets import RulesetSpec
from bank.rulesets.ultime import outcomes as _outcomes
from bank.rulesets.ultime import text as _texts  # noqa: F401  (registers the Ultime texts)
from bank.rulesets.ultime.config import RulesConfig
from bank.rulesets.ultime.edition import check_edition
from bank.rulesets.ultime.events import UltimeState
from bank.rulesets.ultime.rules import UltimeRules
from board_assets import Edition

if TYPE_CHECKING:
    from bank.engine.config import UnitConfig
    from bank.engine.game import Game
    from bank.unit.shell import UnitShell


def _rules(edition: Edition, config: Any) -> UltimeRules:
    if config is not None and not isinstance(config, RulesConfig):
        raise BankError(f"the Ultime rules take a RulesConfig, not {type(config).__name__}")
    return UltimeRules(edition, config)


def _unit(game: Game, config: UnitConfig | None) -> UnitShell:
    # imported here: the unit imports the game, which imports this registry
    from bank.rulesets.ultime.unit import Unit

    return Unit(game, config)


def _narrator(edition: Edition, lang: str, say_money: Any) -> Any:
    # imported when words are first wanted
    from bank.rulesets.ultime.narrate import narrator

    return narrator(edition, lang, say_money)


def _from_events(edition: Edition, record: Any, before: Any, after: Any) -> Any:
    from bank.rulesets.ultime.upcast import from_events

    return from_events(edition, record, before, after)


def _token_labels() -> Any:
    from bank.rulesets.ultime.narrate import TOKEN_LABELS

    return TOKEN_LABELS


RULESET = RulesetSpec(
    name="ultime",
    rules=_rules,
    unit=_unit,
    config=RulesConfig.from_mapping,
    schema=check_edition,
    empty_state=UltimeState,
    outcomes=OutcomeCodec.of_module(
        _outcomes,
        upcasters=_outcomes.UPCASTERS,
        command_upcasters=_outcomes.COMMAND_UPCASTERS,
        from_events=_from_events,
    ),
    narrator=_narrator,
    token_labels=_token_labels,
)
