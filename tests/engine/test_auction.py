"""Timed auctions on an injected clock."""

from __future__ import annotations

import pytest

from bank.engine.auction import AuctionOutcome
from bank.engine.commands import Land
from bank.engine.errors import NotEnoughMoney, RuleError
from bank.engine.game import Game
from bank.rulesets.ultime.commands import GoToJail
from bank.rulesets.ultime.config import RulesConfig
from board_assets import Edition

from .conftest import bal, owner_level


def test_button_bids_in_steps_of_20_and_sale(game: Game) -> None:
    a = game.new_auction(11, now=0.0)
    assert a.outcome(0.0) is AuctionOutcome.WAITING
    a.start(0.0)
    assert a.bid(1.0) == 20 and a.bid(2.0) == 40
    assert a.outcome(11.9) is AuctionOutcome.RUNNING  # countdown restarted at 2.0
    assert a.outcome(12.0) is AuctionOutcome.SOLD
    with pytest.raises(RuleError):
        a.sale()  # anonymous: the winner must tap
    game.execute(a.sale(1))
    assert owner_level(game, 11) == (1, 1) and bal(game, 1) == 1460


def test_no_bid_cancels(game: Game) -> None:
    a = game.new_auction(11, now=5.0)
    a.start(5.0)
    assert a.outcome(15.0) is AuctionOutcome.CANCELLED


def test_cancel_only_before_any_bid(game: Game) -> None:
    a = game.new_auction(11, 0.0)
    a.start(0.0)
    a.bid(1.0)
    with pytest.raises(RuleError):
        a.cancel()


def test_named_bid_checks_balance_and_jail(game: Game) -> None:
    for n in (22, 21, 20, 19):
        game.execute(Land(1, n))  # 130 left
    game.execute(GoToJail(3))
    a = game.new_auction(11, 0.0)
    a.update_state(game.state)
    a.start(0.0)
    for t in range(1, 7):
        a.bid(float(t), card=1)  # up to 120
    with pytest.raises(NotEnoughMoney):
        a.bid(7.0, card=1)  # 140 > 130
    with pytest.raises(RuleError, match="jail"):
        a.bid(7.0, card=3)
    a.bid(7.5, card=2)
    assert a.bidder == 2 and a.price == 140
    game.execute(a.sale())
    assert owner_level(game, 11) == (2, 1) and bal(game, 2) == 1360


def test_winner_who_cannot_pay_is_refused(game: Game) -> None:
    a = game.new_auction(11, 0.0)
    a.start(0.0)
    for t in range(80):
        a.bid(float(t) / 10)
    assert a.price == 1600
    with pytest.raises(NotEnoughMoney):
        game.execute(a.sale(1))
    assert owner_level(game, 11) == (None, None)


def test_jailed_winner_refused(game: Game) -> None:
    game.execute(GoToJail(2))
    a = game.new_auction(11, 0.0)
    a.start(0.0)
    a.bid(0.5)
    with pytest.raises(RuleError, match="jail"):
        game.execute(a.sale(2))


def test_bid_after_the_countdown_is_refused(game: Game) -> None:
    a = game.new_auction(11, 0.0)
    a.start(0.0)
    a.bid(9.0)
    with pytest.raises(RuleError):
        a.bid(19.0)


def test_countdown_is_configurable(edition: Edition) -> None:
    g = Game(edition, RulesConfig(auction_seconds=3.0))
    g.start([1, 2])
    a = g.new_auction(4, 0.0)
    a.start(0.0)
    assert a.remaining(1.0) == 2.0 and a.expired(3.0)


def test_owned_property_cannot_be_auctioned(game: Game) -> None:
    game.execute(Land(1, 11))
    with pytest.raises(RuleError):
        game.new_auction(11, 0.0)
