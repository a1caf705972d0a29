"""The classic rules engine, one test per rule of docs/classic.md §3 (named after its section)."""

from __future__ import annotations

import hashlib
from dataclasses import replace

import pytest

from bank.engine.commands import AuctionSale, Land, NewGame, Undo
from bank.engine.errors import BankError, GameOver, InDebt, NotEnoughMoney, RuleError, UndoRefused
from bank.engine.game import Game, Transaction
from bank.rulesets import find
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.rules import die, interest
from bank.rulesets.classic.statefile import state_file
from board_assets import load_edition
from tests.support.fakes import MemoryJournal

from .classic_support import balance, balances, ext, new_game, outcome, replayed, rules, run


def poor(game: Game, card: int, keep: int) -> None:
    """Leave *card* with *keep* (paid to the bank through menu item 5)."""
    run(game, c.PayBank(card, balance(game, card) - keep))


# ---------------------------------------------------------------- §3.1 players and money


def test_3_1_new_game_seats_2_to_8_with_the_start_balance() -> None:
    game = new_game(8)
    assert balances(game) == [1500] * 8
    assert [p.token for p in game.state.players][:3] == ["dog", "racecar", "tophat"]
    for cards in ((1,), (1, 2, 3, 4, 5, 6, 7, 8, 9), (1, 1)):
        fresh = Game(load_edition("classic-fr"))
        with pytest.raises(RuleError):
            fresh.start(cards)
    one_piece = Game(load_edition("one-piece-fr"))
    with pytest.raises(RuleError):
        one_piece.start(range(1, 8))


def test_3_1_variants_are_recorded_with_the_game_and_win_over_a_later_configuration() -> None:
    game = new_game(2, variants={"free_parking": "taxes"})
    run(game, c.PayTax(1, 4))
    assert ext(game).pot == 200
    later = Game(game.edition, ClassicConfig(), journal=game.journal)
    assert later.state == game.state
    run(later, c.PayTax(2, 38))
    assert ext(later).pot == 300  # the recorded "taxes", not the default "off"


def test_3_1_a_chosen_payment_is_refused_when_short_a_due_one_makes_a_debt() -> None:
    game = new_game()
    poor(game, 1, 50)
    before = game.state
    with pytest.raises(NotEnoughMoney):
        game.execute(Land(1, 1))
    assert game.state == before
    run(game, Land(2, 28))
    run(game, Land(1, 28))  # rent 50: exactly what dog has
    assert balance(game, 1) == 0 and game.state.player(1).debt == 0  # type: ignore[union-attr]
    run(game, c.PayTax(1, 4))
    assert game.state.player(1).debt == 200  # type: ignore[union-attr]


# ---------------------------------------------------------------- §3.2 buying and auctions


def test_3_2_purchase_at_the_printed_price() -> None:
    game = new_game()
    tx = run(game, Land(1, 28))
    assert isinstance(outcome(tx), o.Bought) and balance(game, 1) == 1100
    assert game.state.prop(28).owner == 1 and game.state.prop(28).level == 0
    assert outcome(run(game, Land(1, 27))) == o.Bought(1, 350, 27, completed_group=True)


def test_3_2_first_lap_variant_refuses_purchase_and_bid_before_go() -> None:
    game = new_game(variants={"no_buy_first_lap": True})
    with pytest.raises(RuleError, match="not passed GO"):
        game.execute(Land(1, 1))
    with pytest.raises(RuleError):
        rules(game).check_bid(game.state, 1, 10)
    run(game, c.PassGo(1))
    run(game, Land(1, 1))
    assert game.state.prop(1).owner == 1


def test_3_2_auction_step_bids_within_cash_and_a_jailed_bidder() -> None:
    game = new_game()
    assert rules(game).auction_terms() == (10, 10.0)
    run(game, c.GoToJail(2))
    auction = game.new_auction(5, 0.0)
    auction.start(0.0)
    auction.bid(1.0, 2)  # a jailed player may bid (S1)
    poor(game, 1, 40)
    auction.update_state(game.state)
    with pytest.raises(NotEnoughMoney):
        auction.bid_amount(2.0, 1, 50)
    with pytest.raises(RuleError, match="beat"):
        auction.bid_amount(2.0, 2, 10)
    run(game, auction.sale())
    assert game.state.prop(5).owner == 2 and balance(game, 2) == 1490


def test_3_2_no_auction_of_an_unbought_deed_in_the_computer_games_variant() -> None:
    game = new_game(variants={"auction_unbought": False})
    with pytest.raises(RuleError, match="stays unowned"):
        game.execute(AuctionSale(1, 28, 100))
    run(game, c.SeriesSale(1, 28, 100))  # the bankruptcy series still sells
    assert game.state.prop(28).owner == 1


def test_3_2_binding_bids_beyond_cash_make_a_debt_to_the_bank() -> None:
    game = new_game(classic={"bids_within_cash": False})
    poor(game, 1, 100)
    rules(game).check_bid(game.state, 1, 300)
    run(game, AuctionSale(1, 28, 300))
    assert game.state.player(1).debt == 200 and game.state.player(1).creditor is None  # type: ignore[union-attr]


# ---------------------------------------------------------------- §3.3 rent


def test_3_3_rent_base_doubled_for_the_whole_group_not_with_a_mortgaged_lot() -> None:
    game = new_game()
    run(game, Land(1, 1))
    assert outcome(run(game, Land(2, 1))).amount == 2
    run(game, Land(1, 2))
    assert outcome(run(game, Land(2, 1))).amount == 4
    run(game, c.Mortgage(1, 2))
    assert outcome(run(game, Land(2, 1))).amount == 2  # classic-fr: no double (§1.2)
    assert outcome(run(game, Land(2, 2))) == o.NoRent(2, 0, 2, "mortgaged")


def test_3_3_double_rent_with_a_mortgaged_lot_when_configured() -> None:
    game = new_game(classic={"double_rent_with_mortgaged_lot": True})
    run(game, Land(1, 1), Land(1, 2), c.Mortgage(1, 2))
    assert outcome(run(game, Land(2, 1))).amount == 4


def test_3_3_rent_with_houses_and_a_hotel() -> None:
    game = new_game()
    run(game, Land(1, 1), Land(1, 2), c.Build(1, 1))
    assert outcome(run(game, Land(2, 1))).amount == 10
    for number in (2, 1, 2, 1, 2, 1, 2, 1):
        run(game, c.Build(1, number))
    assert game.state.prop(1).level == 5 and game.state.prop(2).level == 4
    assert outcome(run(game, Land(2, 1))).amount == 250
    assert outcome(run(game, Land(2, 2))).amount == 320


def test_3_3_stations_count_every_station_owned_mortgaged_or_not() -> None:
    game = new_game()
    rents = []
    for number in (3, 11, 18, 26):
        run(game, Land(1, number))
        rents.append(outcome(run(game, Land(2, 3))).amount)
    assert rents == [25, 50, 100, 200]
    run(game, c.Mortgage(1, 26))
    assert outcome(run(game, Land(2, 3))).amount == 200


def test_3_3_utilities_from_a_dice_total() -> None:
    game = new_game()
    run(game, Land(1, 8))
    assert outcome(run(game, c.Visit(2, 8, dice=7))).amount == 28
    run(game, Land(1, 21))
    assert outcome(run(game, c.Visit(2, 8, dice=7))).amount == 70
    with pytest.raises(RuleError, match="dice total"):
        game.execute(Land(2, 21))
    run(game, c.RollDice(2, (3, 4)))
    assert outcome(run(game, Land(2, 21))).amount == 70  # the visitor's own last roll
    with pytest.raises(RuleError):
        game.execute(c.Visit(2, 8, dice=13))


def test_3_3_own_deed_and_jailed_owner() -> None:
    game = new_game()
    run(game, Land(1, 1))
    assert outcome(run(game, Land(1, 1))) == o.Own(1, 0, 1)
    run(game, c.GoToJail(1))
    assert outcome(run(game, Land(2, 1))).amount == 2  # a jailed owner collects
    house = new_game(variants={"jailed_owner_no_rent": True})
    run(house, Land(1, 1), c.GoToJail(1))
    assert outcome(run(house, Land(2, 1))) == o.NoRent(2, 0, 1, "owner in jail")
    assert balance(house, 2) == 1500


# ---------------------------------------------------------------- §3.4 claiming rent


def test_3_4_claim_deadline_from_the_units_rolls() -> None:
    game = new_game(3)
    run(game, Land(1, 1))
    run(game, c.RollDice(2, (1, 2)), c.RollDice(None, (1, 2)), c.RollDice(1, (1, 3)))
    run(game, Land(2, 1))  # one other player rolled since: still in time
    run(game, c.RollDice(3, (2, 3)))
    with pytest.raises(RuleError, match="too late"):
        game.execute(Land(2, 1))
    assert outcome(run(game, Land(3, 1))).amount == 2  # tophat's own window is open
    nxt = new_game(3, classic={"rent_claim_deadline": "next_roll"})
    run(nxt, Land(1, 1), c.RollDice(2, (1, 2)), c.RollDice(1, (1, 3)))
    with pytest.raises(RuleError, match="too late"):
        nxt.execute(Land(2, 1))
    auto = new_game(3, variants={"auto_rent": True})
    run(auto, Land(1, 1), c.RollDice(2, (1, 2)), c.RollDice(1, (1, 3)), c.RollDice(3, (1, 3)))
    run(auto, Land(2, 1))


# ---------------------------------------------------------------- §3.5 GO, taxes, Free Parking


def test_3_5_go_salary_and_double_salary_on_go() -> None:
    game = new_game(variants={"double_go": True})
    run(game, c.PassGo(1), c.PassGo(2, exact=True))
    assert balances(game) == [1700, 1900] and ext(game).passed_go == (1, 2)
    plain = new_game()
    run(plain, c.PassGo(1, exact=True))
    assert balance(plain, 1) == 1700


def test_3_5_taxes_and_the_free_parking_pot() -> None:
    game = new_game()
    run(game, c.PayTax(1, 4), c.PayTax(2, 38))
    assert balances(game) == [1300, 1400] and ext(game).pot == 0
    with pytest.raises(RuleError):
        game.execute(c.CollectPot(1))
    with pytest.raises(RuleError):
        game.execute(c.PayTax(1, 5))
    pot = new_game(variants={"free_parking": "taxes", "free_parking_seed": 500})
    assert ext(pot).pot == 500
    run(pot, c.PayTax(1, 4), c.PayBank(2, 30))
    assert ext(pot).pot == 700  # a fine is not a tax
    run(pot, c.CollectPot(2))
    assert balance(pot, 2) == 1500 - 30 + 700 and ext(pot).pot == 500
    fines = new_game(variants={"free_parking": "taxes_and_fines"})
    run(fines, c.PayBank(2, 30), c.GoToJail(1), c.LeaveJail(1, "fee"))
    assert ext(fines).pot == 80


def test_3_5_a_debt_for_a_pot_payment_goes_into_the_pot() -> None:
    game = new_game(variants={"free_parking": "taxes"})
    run(game, Land(1, 1))
    poor(game, 1, 50)
    run(game, c.PayTax(1, 4))
    assert ext(game).pot == 50
    run(game, c.Mortgage(1, 1, for_debt=True))
    assert ext(game).pot == 80 and game.state.player(1).debt == 120  # type: ignore[union-attr]


# ---------------------------------------------------------------- §3.6 jail


def test_3_6_jail_fee_card_and_double() -> None:
    game = new_game()
    run(game, c.GoToJail(1))
    with pytest.raises(RuleError):
        game.execute(c.GoToJail(1))
    run(game, c.LeaveJail(1, "fee"))
    assert balance(game, 1) == 1450 and not game.state.player(1).jailed  # type: ignore[union-attr]
    with pytest.raises(RuleError):
        game.execute(c.LeaveJail(1, "fee"))
    run(game, c.PlayCard("chest", 5, 1), c.GoToJail(1))
    assert ext(game).jail_cards == ((1, "chest"),)
    run(game, c.LeaveJail(1, "card"))
    assert ext(game).jail_cards == () and not game.state.player(1).jailed  # type: ignore[union-attr]
    run(game, c.GoToJail(2))
    with pytest.raises(RuleError):
        game.execute(c.LeaveJail(2, "card"))
    poor(game, 2, 10)
    with pytest.raises(NotEnoughMoney):
        game.execute(c.LeaveJail(2, "fee"))
    run(game, c.LeaveJail(2, "double"))


def test_3_6_tries_on_the_units_dice() -> None:
    game = new_game()
    run(game, c.GoToJail(1), c.RollDice(1, (1, 2)))
    assert ext(game).tries(1) == 1
    run(game, c.RollDice(1, (4, 4)))
    assert not game.state.player(1).jailed and ext(game).tries(1) == 0  # type: ignore[union-attr]
    assert ext(game).row is None  # a jailed roller's double starts no row (A12)


# ---------------------------------------------------------------- §3.7 building


def own_brown(game: Game) -> None:
    run(game, Land(1, 1), Land(1, 2))


def test_3_3_the_rent_says_what_it_was_worked_out_from() -> None:
    """The outcome of a rent carries its basis (journalled as version 2 of ``rent``): the
    words of the history read it there, not from the state the rent started from."""
    game = new_game()
    own_brown(game)
    run(game, Land(1, 3), Land(1, 11), Land(1, 8))
    street = outcome(run(game, c.Visit(2, 1)))
    assert isinstance(street, o.RentPaid) and street.amount == 4
    assert street.basis == o.RentBasis("street", 2, factor=2)  # the whole group: doubled
    stations = outcome(run(game, c.Visit(2, 11)))
    assert isinstance(stations, o.RentPaid) and stations.basis == o.RentBasis("station", 2)
    power = outcome(run(game, c.Visit(2, 8, dice=7)))
    assert isinstance(power, o.RentPaid) and power.amount == 28
    assert power.basis == o.RentBasis("utility", 1, dice=7, times=4)
    run(game, c.Build(1, 1), c.Build(1, 2), c.Build(1, 1))
    houses = outcome(run(game, c.Visit(2, 1)))
    assert isinstance(houses, o.RentPaid) and houses.basis == o.RentBasis("street", 2, level=2)
    codec = find("classic").outcomes
    assert codec is not None
    stored = codec.encode(houses)
    assert stored["v"] == 2 and stored["basis"] == {"deed": "street", "owned": 2, "level": 2}
    assert codec.decode(stored) == houses
    old = {k: v for k, v in stored.items() if k not in ("v", "basis")}  # as version 1 stored it
    assert codec.decode(old) == replace(houses, basis=None)


def test_3_7_building_needs_the_whole_unmortgaged_group_and_even_building() -> None:
    game = new_game()
    run(game, Land(1, 1))
    with pytest.raises(RuleError, match="whole group"):
        game.execute(c.Build(1, 1))
    run(game, Land(1, 2), c.Mortgage(1, 2))
    with pytest.raises(RuleError, match="mortgaged"):
        game.execute(c.Build(1, 1))
    run(game, c.Mortgage(1, 2), c.Build(1, 1))
    with pytest.raises(RuleError, match="evenly"):
        game.execute(c.Build(1, 1))
    run(game, Land(1, 3))
    with pytest.raises(RuleError, match="no houses"):
        game.execute(c.Build(1, 3))
    with pytest.raises(RuleError, match="does not own"):
        game.execute(c.Build(2, 2))
    assert balance(game, 1) == 1500 - 120 + 30 - 33 - 50 - 200


def test_3_7_hotel_returns_four_houses_and_the_stock_limits() -> None:
    game = new_game()
    run(game, c.ReceiveBank(1, 20000))
    for number in (1, 2, 4, 5, 6, 7, 9, 10):
        run(game, Land(1, number))
    lots = (1, 2, 4, 5, 6, 7, 9, 10)
    for _ in range(4):
        for number in lots:
            run(game, c.Build(1, number))
    assert ext(game).houses == 0
    run(game, Land(1, 12), Land(1, 13), Land(1, 14))
    with pytest.raises(RuleError, match="no house left"):
        game.execute(c.Build(1, 12))
    run(game, c.Build(1, 1))  # a hotel: the four houses go back
    assert game.state.prop(1).level == 5 and (ext(game).houses, ext(game).hotels) == (4, 11)
    unlimited = new_game(classic={"building_stock": False})
    own_brown(unlimited)
    run(unlimited, c.Build(1, 1))


def test_3_7_building_is_a_chosen_payment_and_waits_for_a_debt() -> None:
    game = new_game()
    own_brown(game)
    poor(game, 1, 40)
    with pytest.raises(NotEnoughMoney):
        game.execute(c.Build(1, 1))
    run(game, c.PayTax(1, 4))
    with pytest.raises(InDebt):
        game.execute(c.Build(1, 1))


def test_3_7_fast_game_hotel_after_three_houses() -> None:
    game = new_game(variants={"fast_game": True})
    own_brown(game)
    for number in (1, 2, 1, 2, 1, 2, 1):
        run(game, c.Build(1, number))
    assert game.state.prop(1).level == 5 and ext(game).houses == 32 - 3


# ---------------------------------------------------------------- §3.8 selling buildings


def test_3_8_selling_half_price_evenly_and_a_hotel_into_houses() -> None:
    game = new_game()
    own_brown(game)
    for number in (1, 2, 1, 2, 1, 2, 1, 2, 1):
        run(game, c.Build(1, number))
    before = balance(game, 1)
    with pytest.raises(RuleError, match="evenly"):
        game.execute(c.SellBuilding(1, 2))
    run(game, c.SellBuilding(1, 1))
    assert game.state.prop(1).level == 4 and balance(game, 1) == before + 25
    assert (ext(game).houses, ext(game).hotels) == (24, 12)
    run(game, c.SellBuilding(1, 2, whole_group=True))
    assert game.state.prop(1).level == 0 and game.state.prop(2).level == 0
    assert balance(game, 1) == before + 25 + 8 * 25 and ext(game).houses == 32


def test_3_8_a_hotel_the_stock_cannot_break_asks_to_sell_the_group() -> None:
    game = new_game()
    run(game, c.ReceiveBank(1, 20000))
    for number in (1, 2, 4, 5, 6, 7, 9, 10, 12, 13, 14):
        run(game, Land(1, number))
    for _ in range(4):
        for number in (1, 2):
            run(game, c.Build(1, number))
    run(game, c.Build(1, 1), c.Build(1, 2))  # two hotels: their 8 houses go back
    for _ in range(4):
        for number in (4, 5, 6, 7, 9, 10):
            run(game, c.Build(1, number))
    for _ in range(2):
        for number in (12, 13, 14):
            run(game, c.Build(1, number))
    assert (ext(game).houses, ext(game).hotels) == (2, 10)
    with pytest.raises(RuleError, match="whole group"):
        game.execute(c.SellBuilding(1, 1))
    before = balance(game, 1)
    run(game, c.SellBuilding(1, 1, whole_group=True))
    assert (ext(game).houses, ext(game).hotels) == (2, 12)
    assert balance(game, 1) == before + 2 * 5 * 25


# ---------------------------------------------------------------- §3.9 mortgages


def test_3_9_mortgage_half_price_and_lift_plus_ten_percent_rounded_up() -> None:
    game = new_game()
    run(game, Land(1, 8), c.Mortgage(1, 8))
    assert balance(game, 1) == 1500 - 150 + 75
    run(game, c.Mortgage(1, 8))
    assert balance(game, 1) == 1500 - 150 + 75 - 83
    assert interest(75) == 8 and interest(175) == 18 and interest(75, "down") == 7
    run(game, Land(1, 1), Land(1, 2), c.Build(1, 1))
    with pytest.raises(RuleError, match="buildings"):
        game.execute(c.Mortgage(1, 2))
    run(game, Land(2, 28), c.Mortgage(2, 28))
    poor(game, 2, 100)
    with pytest.raises(NotEnoughMoney):
        game.execute(c.Mortgage(2, 28))


# ---------------------------------------------------------------- §3.10 a deed changes hands


def test_3_10_interest_question_keep_or_lift_blocks_everything_else() -> None:
    game = new_game()
    run(game, Land(1, 12), Land(1, 28), c.Mortgage(1, 12), c.Mortgage(1, 28))
    run(game, c.Trade(1, 2, deeds_first=(12, 28)))
    assert ext(game).interest_due == (12, 28)
    with pytest.raises(RuleError, match="interest"):
        game.execute(c.PassGo(1))
    with pytest.raises(UndoRefused):
        game.execute(Undo())
    with pytest.raises(RuleError):
        game.execute(c.AnswerInterest(28, lift=False))  # one deed after the other
    run(game, c.AnswerInterest(12, lift=False), c.AnswerInterest(28, lift=True))
    assert balance(game, 2) == 1500 - 9 - 220
    assert ext(game).mortgaged == (12,) and ext(game).interest_due == ()
    run(game, Undo())  # the trade and its answers are one transaction (A5)
    assert game.state.prop(12).owner == 1 and balance(game, 2) == 1500


# ---------------------------------------------------------------- §3.11 trades


def test_3_11_trade_deeds_cash_and_jail_cards() -> None:
    game = new_game()
    run(game, Land(1, 1), Land(2, 28), c.PlayCard("chance", 8, 1))
    run(game, c.Trade(1, 2, (1,), (28,), 100, 1, ("chance",), ()))
    assert game.state.prop(1).owner == 2 and game.state.prop(28).owner == 1
    assert ext(game).jail_cards == ((2, "chance"),)
    assert balances(game) == [1500 - 60 - 100, 1500 - 400 + 100]
    run(game, c.Trade(2, 1, cash=50, cash_from=2))  # a gift
    with pytest.raises(RuleError, match="empty"):
        game.execute(c.Trade(1, 2))
    with pytest.raises(NotEnoughMoney):
        game.execute(c.Trade(1, 2, cash=9999, cash_from=1))
    with pytest.raises(RuleError, match="does not own"):
        game.execute(c.Trade(1, 2, deeds_first=(1,)))


def test_3_11_no_deed_of_a_group_with_buildings() -> None:
    game = new_game()
    own_brown(game)
    run(game, c.Build(1, 1))
    with pytest.raises(RuleError, match="buildings"):
        game.execute(c.Trade(1, 2, deeds_first=(2,), cash=100, cash_from=2))


# ---------------------------------------------------------------- §3.12 debt


def test_3_12_a_debt_takes_the_cash_and_what_is_raised_goes_to_the_creditor() -> None:
    game = new_game()
    run(game, Land(2, 28), Land(1, 1), Land(1, 2), c.Build(1, 1), c.Build(1, 2))
    poor(game, 1, 10)
    run(game, Land(2, 1), Land(1, 28))  # dog has 10 + 10 of rent; owes 50
    assert game.state.player(1).debt == 30 and game.state.player(1).creditor == 2  # type: ignore[union-attr]
    for refused in (c.PassGo(1), Land(1, 4), c.Mortgage(1, 1), c.RollDice(1)):
        with pytest.raises(InDebt):
            game.execute(refused)
    with pytest.raises(RuleError, match="can still be paid"):
        game.execute(c.DeclareBankruptcy(1))
    run(game, c.SellBuilding(1, 1, for_debt=True))
    assert game.state.player(1).debt == 5 and balance(game, 1) == 0  # type: ignore[union-attr]
    run(game, c.SellBuilding(1, 2, for_debt=True))
    assert game.state.player(1).debt == 0 and balance(game, 1) == 20  # type: ignore[union-attr]
    assert ext(game).debts == () and balance(game, 2) == 1500 - 400 - 10 + 50
    run(game, Undo())  # the rent and everything done to settle it
    assert game.state.prop(1).level == 1 and balance(game, 1) == 20


def test_3_12_the_outcome_says_which_transaction_settled_the_debt() -> None:
    """The unit's `Dette réglée` is the rules' word: the outcome of the transaction that paid
    the debt off names the debtor (journalled as version 2 of its kind); a payment that
    leaves some of it owed, or a transaction with no debt open, says none."""
    game = new_game()
    run(game, Land(2, 28), Land(1, 1), Land(1, 2), c.Build(1, 1))
    assert outcome(run(game, c.Build(1, 2))).debt_settled is None  # no debt open
    poor(game, 1, 10)
    run(game, Land(2, 1), Land(1, 28))  # dog owes 30 to the car
    part = outcome(run(game, c.SellBuilding(1, 1, for_debt=True)))
    assert part.debt_settled is None and game.state.player(1).debt  # type: ignore[union-attr]
    done = outcome(run(game, c.SellBuilding(1, 2, for_debt=True)))
    assert isinstance(done, o.BuildingSold) and done.debt_settled == 1
    codec = find("classic").outcomes
    assert codec is not None
    stored = codec.encode(done)
    assert (stored["v"], stored["debt_settled"]) == (2, 1)
    assert codec.decode(stored) == done
    # a version-1 record, written before the rules said it, reads as settling none
    old = {k: v for k, v in stored.items() if k not in ("v", "debt_settled")}
    assert codec.decode(old) == replace(done, debt_settled=None)


def test_3_12_several_debts_settled_in_the_order_they_arose_and_3_14_the_last_one_wins() -> None:
    game = new_game(3)
    poor(game, 2, 4)
    poor(game, 3, 6)
    run(game, c.PlayCard("chest", 9, 1))  # birthday: 10 from each
    assert ext(game).debts == (2, 3) and balance(game, 1) == 1510
    with pytest.raises(InDebt):
        game.execute(Land(1, 1))
    with pytest.raises(RuleError, match="not the debtor"):
        game.execute(c.DeclareBankruptcy(3))
    assert outcome(run(game, c.DeclareBankruptcy(2))) == o.Bankrupt(2, 6, 1, (), False)
    assert not game.state.game_over
    tx = run(game, c.DeclareBankruptcy(3))
    assert outcome(tx) == o.Bankrupt(3, 4, 1, (), True) and game.state.game_over
    assert game.state.winner == 1 and game.state.ranking == (1, 3, 2)
    assert ext(game).eliminated == (2, 3)
    with pytest.raises(GameOver):
        game.execute(c.PassGo(1))


# ---------------------------------------------------------------- §3.13 bankruptcy


def dog_ruined_by_racecar(game: Game) -> None:
    """dog: brown with a house, Avenue Mozart mortgaged, a jail card, no cash; racecar
    charges 200 on the Rue de la Paix with a house."""
    run(game, Land(1, 1), Land(1, 2), Land(1, 12), c.Mortgage(1, 12), c.Build(1, 1))
    run(game, c.PlayCard("chest", 5, 1))
    run(game, Land(2, 27), Land(2, 28), c.Build(2, 28))
    poor(game, 1, 0)
    run(game, Land(1, 28))


def test_3_13_bankruptcy_to_a_player_hands_everything_over() -> None:
    game = new_game(3)
    dog_ruined_by_racecar(game)
    assert game.state.player(1).debt == 200  # type: ignore[union-attr]
    cfg = rules(game).settings(game.state)
    assert rules(game).liquidation(game.state, 1, cfg) == 25 + 30 + 30
    racecar = balance(game, 2)
    run(game, c.DeclareBankruptcy(1))
    assert balance(game, 2) == racecar + 25  # the house sold at half went to the creditor
    assert all(game.state.prop(n).owner == 2 for n in (1, 2, 12))
    assert game.state.prop(1).level == 0 and ext(game).houses == 32 - 1
    assert ext(game).jail_cards == ((2, "chest"),) and ext(game).interest_due == (12,)
    run(game, c.AnswerInterest(12, lift=True))
    assert balance(game, 2) == racecar + 25 - 99 and ext(game).mortgaged == ()


def test_3_13_bankruptcy_to_the_bank_returns_the_deeds_for_the_auction_series() -> None:
    game = new_game(3)
    run(game, Land(1, 1), Land(1, 2), Land(1, 12), c.Mortgage(1, 12), c.Build(1, 1))
    run(game, c.PlayCard("chance", 8, 1))
    poor(game, 1, 0)
    run(game, c.PayBank(1, 500))
    tx = run(game, c.DeclareBankruptcy(1))
    assert outcome(tx) == o.Bankrupt(1, 500, None, (1, 2, 12), False)
    assert all(game.state.prop(n).owner is None for n in (1, 2, 12))
    assert ext(game).mortgaged == () and ext(game).jail_cards == () and ext(game).houses == 32
    p = game.state.player(1)
    assert p is not None and p.bankrupt and p.balance == 0 and p.debt == 0
    with pytest.raises(RuleError):
        game.execute(c.PassGo(1))
    with pytest.raises(UndoRefused):
        game.execute(Undo())
    run(game, c.SeriesSale(2, 12, 10))  # the series sells them as any auction, for good
    assert game.state.prop(12).owner == 2 and not game.undo_available
    ret = new_game(3, classic={"bankrupt_to_bank": "return"})
    run(ret, Land(1, 1))
    poor(ret, 1, 0)
    run(ret, c.PayBank(1, 500))
    assert outcome(run(ret, c.DeclareBankruptcy(1))) == o.Bankrupt(1, 500, None, (), False)


def test_3_13_a_game_ending_bankruptcy_asks_no_interest_question() -> None:
    game = new_game(2)
    run(game, Land(1, 12), c.Mortgage(1, 12), Land(2, 28))
    poor(game, 1, 0)
    run(game, Land(1, 28), c.DeclareBankruptcy(1))
    assert game.state.game_over and game.state.winner == 2
    assert game.state.prop(12).owner == 2 and ext(game).interest_due == ()  # A8


# ---------------------------------------------------------------- §3.14 end of the game


def test_3_14_fast_game_ends_at_the_second_bankruptcy_ranked_by_worth() -> None:
    game = new_game(4, variants={"fast_game": True})
    run(game, Land(3, 28), c.Mortgage(3, 28))  # tophat: 1300 cash, worth 1300 + 200
    run(game, Land(4, 1))  # ship: 1440 cash, worth 1500
    for card in (1, 2):
        poor(game, card, 0)
        run(game, c.PayBank(card, 10), c.DeclareBankruptcy(card))
    assert game.state.game_over
    assert game.state.ranking == (4, 3, 2, 1)  # equal worth: more cash first, then 2 then 1
    cfg = rules(game).settings(game.state)
    assert [rules(game).worth(game.state, n, cfg) for n in (3, 4)] == [1500, 1500]


# ---------------------------------------------------------------- §3.15 the unit's dice


def test_3_15_dice_are_a_function_of_the_seed_and_the_roll_number() -> None:
    def reference(seed: int, k: int, i: int) -> int:  # docs/readings.md D1, as printed
        return (
            1 + int.from_bytes(hashlib.sha256(f"{seed}:{k}:{i}".encode()).digest()[:8], "big") % 6
        )

    assert [die(7, k, i) for k in (1, 2) for i in (0, 1)] == [
        reference(7, k, i) for k in (1, 2) for i in (0, 1)
    ]
    game = new_game(classic={"dice_seed": 7})
    run(game, c.RollDice(1), c.RollDice(None))
    assert ext(game).last_roll == (None, die(7, 2, 0), die(7, 2, 1), 0) and ext(game).rolls == 2
    assert replayed(game).state == game.state


def test_3_15_three_doubles_in_a_row_send_to_jail() -> None:
    game = new_game()
    run(game, c.RollDice(1, (2, 2)), c.RollDice(None, (1, 2)), c.RollDice(1, (3, 3)))
    assert ext(game).row == (1, 2)  # an anonymous roll does not break the row
    assert outcome(run(game, c.RollDice(1, (5, 5)))) == o.Rolled(1, 10, (5, 5), 3, "three doubles")
    assert game.state.player(1).jailed and ext(game).last_roll == (1, 5, 5, 3)  # type: ignore[union-attr]
    run(game, c.LeaveJail(1, "double"), c.RollDice(1, (2, 2)), c.RollDice(2, (1, 2)))
    assert ext(game).row is None  # another card's roll breaks it
    run(game, c.RollDice(1, (4, 4), pick=True))
    assert ext(game).last_roll == (1, 4, 4, 0)


# ---------------------------------------------------------------- §3.16 undo


def test_3_16_undo_restores_and_skips_over_rolls() -> None:
    game = new_game()
    run(game, Land(1, 1))
    run(game, c.RollDice(2, (1, 1)), c.RollDice(2, (2, 2)), c.RollDice(2, (3, 3)))
    assert game.undo_available
    run(game, Undo())
    assert game.state.prop(1).owner is None and balance(game, 1) == 1500
    assert game.state.player(2).jailed and ext(game).rolls == 3  # type: ignore[union-attr]
    with pytest.raises(UndoRefused):
        game.execute(Undo())
    run(game, c.PlayCard("chance", 16, 1), Undo())  # a card can be undone
    assert balance(game, 1) == 1500
    assert replayed(game).state == game.state


def test_3_16_undoing_a_jailing_after_a_try_frees_the_player_for_good() -> None:
    game = new_game()
    run(game, c.GoToJail(2), c.RollDice(2, (1, 2)), Undo())
    assert not game.state.player(2).jailed  # type: ignore[union-attr]
    assert state_file(rules(game), game.state, False)["players"][1]["jail_tries"] == 0
    run(game, c.GoToJail(2))
    assert ext(game).tries(2) == 0  # a new stay starts with no try counted


def test_3_16_a_debt_opened_by_a_roll_leaves_nothing_to_undo() -> None:
    game = new_game()
    run(game, Land(1, 1), Land(1, 2), c.GoToJail(1))
    poor(game, 1, 0)
    run(game, Land(2, 3))  # a transaction before the rolls
    for dice in ((1, 2), (1, 3), (1, 4)):
        run(game, c.RollDice(1, dice))  # the third failure charges the fee: a debt of 50
    assert game.state.player(1).debt == 50 and not game.state.player(1).jailed  # type: ignore[union-attr]
    run(game, c.Mortgage(1, 1, for_debt=True), c.Mortgage(1, 2, for_debt=True))
    assert game.state.player(1).debt == 0 and balance(game, 1) == 10  # type: ignore[union-attr]
    with pytest.raises(UndoRefused):
        game.execute(Undo())  # A4: the fee was part of the roll
    assert replayed(game).state == game.state


def test_3_16_undo_after_a_settled_debt_when_configured_not_to() -> None:
    config = ClassicConfig(undo_settled_debt_whole=False)
    game = Game(load_edition("classic-fr"), config, journal=MemoryJournal())
    game.start([1, 2])
    run(game, Land(2, 28), Land(1, 1), Land(1, 2))
    poor(game, 1, 0)
    run(game, Land(1, 28))  # 50 owed
    run(game, c.Mortgage(1, 1, for_debt=True), c.Mortgage(1, 2, for_debt=True))
    assert game.state.player(1).debt == 0 and balance(game, 1) == 10  # type: ignore[union-attr]
    with pytest.raises(UndoRefused, match="settled"):
        game.execute(Undo())


def test_the_core_land_and_refusals_leave_the_state_untouched() -> None:
    game = new_game()
    before = game.state
    for bad in (Land(9, 1), Land(1, 29), NewGame((1, 2)), c.PlayCard("chance", 17, 1)):
        with pytest.raises(BankError):
            game.execute(bad)
    assert game.state == before


def test_3_14_time_limit_ends_the_game_ranked_by_worth() -> None:
    with pytest.raises(RuleError, match="no time limit"):
        new_game(3).execute(c.TimeUp())
    timed = new_game(3, variants={"time_limit_minutes": 90})
    run(timed, Land(2, 28), c.PayTax(1, 38))
    run(timed, c.TimeUp())  # worth 1400, 1500 (1100 cash), 1500 (1500 cash)
    assert timed.state.game_over and timed.state.ranking == (3, 2, 1)
    busy = new_game(3, variants={"time_limit_minutes": 90})
    poor(busy, 3, 0)
    run(busy, c.PayTax(3, 4))
    with pytest.raises(InDebt):
        busy.execute(c.TimeUp())


def drawn_number(tx: Transaction) -> int:
    drawn = outcome(tx)
    assert isinstance(drawn, o.Drawn)
    return drawn.number


def test_4_1_virtual_decks_draw_the_seeded_order_and_a_held_jail_card_is_out() -> None:
    game = new_game(classic={"dice_seed": 3}, variants={"virtual_decks": True})
    order = sorted(range(1, 17), key=lambda n: hashlib.sha256(f"3:chance:{n}".encode()).digest())
    assert ext(game).deck("chance") == tuple(order)
    drawn = [drawn_number(run(game, c.DrawCard("chance"))) for _ in range(16)]
    assert drawn == order  # each drawn card went under: a whole round gives the order back
    assert ext(game).deck("chance") == tuple(order)
    run(game, c.PlayCard("chance", 8, 1))  # the jail card is held: it leaves the deck
    rest = tuple(n for n in order if n != 8)
    assert ext(game).deck("chance") == rest
    again = [drawn_number(run(game, c.DrawCard("chance"))) for _ in range(15)]
    assert list(again) == list(rest)
    run(game, c.GoToJail(1), c.LeaveJail(1, "card"))  # used: under the deck
    assert ext(game).deck("chance") == (*rest, 8)
    run(game, Land(1, 1), Undo())  # undo skips over the draws
    assert ext(game).deck("chance") == (*rest, 8)
    assert replayed(game).state == game.state
    with pytest.raises(RuleError):
        new_game().execute(c.DrawCard("chance"))


# ---------------------------------------------------------------- §6 configuration


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"classic": {"rent_claim_deadline": "never"}}, r"classic\.rent_claim_deadline: 'never'"),
        ({"classic": {"bids_within_cash": "yes"}}, r"classic\.bids_within_cash: expected true"),
        ({"classic": {"auction_step": 0}}, r"classic\.auction_step: expected a whole number 1"),
        ({"variants": {"fast_game_end_after": 3}}, r"variants\.fast_game_end_after"),
        ({"variants": {"free_parking": True}}, r"variants\.free_parking: True is not one of"),
        ({"variants": {"jackpot": True}}, r"unknown setting 'variants\.jackpot'"),
        ({"classic": 3}, r"classic: expected a table"),
        ({"winner_rule": "money"}, r"unknown rules setting 'winner_rule' for classic"),
        ({"auction_seconds": -1}, r"rules\.auction_seconds: expected a positive number"),
    ],
)
def test_6_a_wrong_setting_is_refused_naming_table_and_key(
    raw: dict[str, object], message: str
) -> None:
    with pytest.raises(BankError, match=message):
        ClassicConfig.from_mapping(raw)


def test_6_auction_step_interest_rounding_and_the_first_bankruptcy_ending_a_fast_game() -> None:
    game = new_game(classic={"auction_step": 25, "interest_rounding": "down"})
    assert rules(game).auction_terms() == (25, 10.0)
    auction = game.new_auction(8, 0.0)
    auction.start(0.0)
    assert auction.bid(1.0, 1) == 25 and auction.bid(2.0) == 50
    run(game, Land(1, 8), c.Mortgage(1, 8), c.Mortgage(1, 8))
    assert balance(game, 1) == 1500 - 150 + 75 - 82  # 10 % of 75 rounded down
    fast = new_game(3, variants={"fast_game": True, "fast_game_end_after": 1})
    poor(fast, 2, 0)
    run(fast, c.PayBank(2, 10), c.DeclareBankruptcy(2))
    assert fast.state.game_over and fast.state.ranking == (1, 3, 2)
