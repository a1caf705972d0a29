"""A ruleset that hands back the state after its events (``Decision.state``, which spares the
core applying them a second time) hands back exactly what applying them gives, over random
Ultime and classic games."""

from __future__ import annotations

import random

import pytest

from bank.engine.commands import NewGame
from bank.engine.errors import BankError
from bank.engine.events import apply
from bank.engine.game import Game
from bank.rulesets.classic.commands import ReceiveBank
from board_assets import load_edition
from tests.rulesets.classic_support import random_classic_command
from tests.support.crash_game import next_command


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("edition", ["ultime-fr", "classic-fr", "mega-fr"])
def test_the_decided_state_is_the_applied_state(edition: str, seed: int) -> None:
    rnd = random.Random(seed)
    game = Game(load_edition(edition))
    classic = game.ruleset_name == "classic"
    game.execute(NewGame((1, 2, 3, 4) if classic else (1, 2, 3)))
    if classic:
        for card in (1, 2, 3, 4):
            game.execute(ReceiveBank(card, 3000))
    checked = 0
    for _ in range(300):
        if game.state.game_over:
            break
        command = random_classic_command(rnd, game) if classic else next_command(rnd, game.state)
        try:
            decision = game.ruleset.decide(game.state, command)
        except BankError:
            continue
        if decision.question is not None:  # the table must answer first: nothing to commit
            continue
        assert decision.state is not None
        assert decision.state == apply(game.state, decision.events)
        checked += 1
        game.execute(command)
    assert checked > 20
