"""The two example games of docs/classic.md §8.5, driven through the classic rules engine.

The scripts (``classic_examples/*.tap``, copied from ``classic/`` beside the spec) need the
unit's classic mode, which is not built yet; here the same sequence of gestures is given to
the engine as the commands the unit will send, and the §8.4 state file the engine gives must
equal the example's state file, key for key (money, owners, houses, mortgages, the dice, the
recorded configuration).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bank.engine.auction import AuctionOutcome
from bank.engine.commands import Land
from bank.engine.game import Game, Transaction
from bank.rulesets.classic import commands as c
from bank.rulesets.classic.outcomes import ClassicOutcome, Rolled
from bank.rulesets.classic.rules import ClassicRulesEngine
from bank.rulesets.classic.statefile import state_file
from bank.services.journal import Journal
from board_assets import load_edition
from tests.support.fakes import MemoryJournal

#: the two examples of docs/classic.md §8.5, copied unchanged: each
#: ``.tap`` script and the state file it must produce
EXAMPLES = Path(__file__).with_name("classic_examples")


def expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.state.json").read_text("utf-8"))
    return data


def amount(tx: Transaction) -> int:
    """The amount the rules said the transaction moved."""
    assert isinstance(tx.outcome, ClassicOutcome)
    return tx.outcome.amount


def file_of(game: Game) -> dict[str, Any]:
    assert isinstance(game.ruleset, ClassicRulesEngine)
    return state_file(game.ruleset, game.state, game.undo_available)


def test_example_01_first_game() -> None:
    journal = MemoryJournal()
    game = Game(load_edition("classic-fr"), journal=journal)
    game.start([1, 2, 3])
    game.execute(Land(1, 1))  # dog buys Boulevard de Belleville
    game.execute(Land(1, 2))  # and Rue Lecourbe: the brown group
    rent = game.execute(Land(2, 2))  # racecar pays 4 x 2
    assert amount(rent) == 8
    for number in (1, 2, 1):
        game.execute(c.Build(1, number))
    assert amount(game.execute(Land(3, 2))) == 20
    repairs = game.execute(c.PlayCard("chance", 9, 1))
    assert amount(repairs) == 75
    game.execute(Land(2, 3))  # Gare Montparnasse
    game.execute(c.Mortgage(2, 3))
    game.execute(Land(3, 8))  # Compagnie d'électricité
    assert amount(game.execute(c.Visit(2, 8, dice=7))) == 28
    auction = game.new_auction(28, 100.0)
    auction.start(100.0)
    assert auction.bid(101.0, 2) == 10
    assert auction.bid_amount(102.0, 3, 150) == 150
    assert auction.outcome(112.5) is AuctionOutcome.SOLD
    game.execute(auction.sale())
    assert file_of(game) == expected("01_classic_first_game")
    assert Game(game.edition, journal=journal).state == game.state


def test_example_02_jail_and_trade(tmp_path: Path) -> None:
    """Played on the SQLite journal: the classic state reads back from its JSON records."""
    journal = Journal(tmp_path / "journal.sqlite")
    game = Game(load_edition("classic-fr"), journal=journal)
    game.start([1, 2])
    game.execute(Land(1, 12))
    game.execute(c.Mortgage(1, 12))
    game.execute(c.GoToJail(2))
    for dice in ((1, 2), (3, 4)):
        game.execute(c.RollDice(2, dice))
        assert game.state.player(2).jailed  # type: ignore[union-attr]
    third = game.execute(c.RollDice(2, (5, 6)))  # the third failure: the fee, and out
    assert third.outcome == Rolled(2, 11, (5, 6), 0, "fee")
    assert game.state.player(2).balance == 1450  # type: ignore[union-attr]
    game.execute(c.Trade(1, 2, deeds_first=(12,), cash=100, cash_from=2))
    assert not game.undo_available  # the interest question is open
    game.execute(c.AnswerInterest(12, lift=False))
    assert file_of(game) == expected("02_classic_jail_trade")
    journal.close()
    with Journal(tmp_path / "journal.sqlite") as reopened:
        again = Game(game.edition, journal=reopened)
        assert again.state == game.state and again.undo_available
