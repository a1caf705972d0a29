"""The state file of a classic game (docs/classic.md §8.4), from the engine's state.

The unit's ``ultibank script --state`` for classic editions (§8) is not built yet; this is the
file it will write, so that the example games of ``classic/`` can be checked against the
engine now. Imports the core state and this package's modules.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from bank.engine.state import GameState
from bank.rulesets.classic.mega import SKYSCRAPER
from bank.rulesets.classic.rules import HOTEL, ClassicRulesEngine
from bank.rulesets.classic.state import classic


def state_file(rules: ClassicRulesEngine, state: GameState, undo_available: bool) -> dict[str, Any]:
    """The §8.4 state file of *state*."""
    ext = classic(state)
    core = state.to_json()  # the docs/scripts.md keys of each player and property, then classic's
    cfg = rules.settings(state)
    tries = dict(ext.jail_tries)
    side_of = rules.variant.side_of
    last = ext.last_roll
    turn = next((r for r in reversed(ext.rollers) if r is not None), None)
    return {
        "edition": state.edition,
        "ruleset": "classic",
        "game_over": state.game_over,
        "winner": state.winner,
        "undo_available": undo_available,
        "players": [
            {
                **entry,
                "jail_cards": list(ext.cards_of(p.card)),
                # an undone "go to jail" may leave a free player's count: shown only in jail
                "jail_tries": tries.get(p.card, 0) if p.jailed else 0,
                "passed_go": p.card in ext.passed_go,
                "side": side_of(p.card),
                "worth": rules.worth(state, p.card, cfg),
            }
            for entry, p in zip(core["players"], state.players, strict=True)
        ],
        "properties": [
            {
                **entry,
                "houses": p.level if p.level and p.level < HOTEL else 0,
                "hotel": p.level == HOTEL,
                "skyscraper": p.level == SKYSCRAPER,
                "depot": p.number in ext.depots,
                "mortgaged": p.number in ext.mortgaged,
                "interest_due": p.number in ext.interest_due,
            }
            for entry, p in zip(core["properties"], state.properties, strict=True)
        ],
        "bank": {
            "houses": ext.houses,
            "hotels": ext.hotels,
            "skyscrapers": ext.skyscrapers,
            "depots": ext.depot_stock,
        },
        "pot": ext.pot,
        "turn": turn,
        "last_roll": (
            None
            if last is None
            else {
                "card": last[0],
                "dice": [last[1], last[2]],
                # E13: the speed die's 1-3 as a number, the other faces as their name
                "third": int(ext.third) if ext.third and ext.third.isdigit() else ext.third,
                "doubles": last[3],
            }
        ),
        "eliminated": list(ext.eliminated),
        "ranking": list(state.ranking),
        "config": {"classic": asdict(cfg.classic), "variants": asdict(cfg.variants)},
    }
