"""The Méga rules (docs/classic.md §7.2 and the Méga rows of §2-§4), on the engine, in mega-fr and
mega-uk: the rules the scenarios of ``tests/scripts/classic/mega_*`` do not reach (the ``[mega]``
keys, must-lift, trades, bankruptcy, repairs, the stand-in decks on the 52-space ring, undo).
"""

from __future__ import annotations

import pytest

from bank.engine.commands import Land, Undo
from bank.engine.errors import BankError, RuleError
from bank.engine.game import Game
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.mega import SKYSCRAPER, BirthdayGift
from bank.rulesets.classic.statefile import state_file

from .classic_support import balance, ext, new_game, outcome, replayed, rules, run

MEGA = ["mega-fr", "mega-uk"]
DARK_BLUE = (35, 36, 37)
STATIONS = (4, 15, 24, 34)


def rich(game: Game, *cards: int, amount: int = 20_000) -> None:
    for card in cards:
        run(game, c.ReceiveBank(card, amount))


def own(game: Game, card: int, *deeds: int) -> None:
    for number in deeds:
        run(game, Land(card, number))


def build(game: Game, card: int, *deeds: int) -> None:
    for number in deeds:
        run(game, c.Build(card, number))


def skyscrapers_on_dark_blue(game: Game) -> None:
    """Dog owns dark blue with a skyscraper on 35 and hotels on 36, 37."""
    rich(game, 1)
    own(game, 1, *DARK_BLUE)
    build(game, 1, *(DARK_BLUE * 5), 35)


@pytest.mark.parametrize("edition", MEGA)
def test_the_mega_editions_hold_the_spec_constants(edition: str) -> None:
    game = new_game(8, edition)
    ed = rules(game).ed
    assert [p.balance for p in game.state.players] == [2500] * 8
    assert len(ed.deeds) == 37 and len(ed.ring) == 52 and ed.mega
    assert (ext(game).houses, ext(game).hotels, ext(game).skyscrapers, ext(game).depot_stock) == (
        32,
        12,
        8,
        4,
    )
    assert ed.of_kind("station") == STATIONS and ed.of_kind("utility") == (7, 12, 27)
    assert [ed.ring[p] for p in (14, 32, 47)] == ["AUCTION", "BUS_TICKET", "BIRTHDAY_GIFT"]
    assert ed.third_die == ("1", "2", "3", "mr", "mr", "bus")
    names = {d.number: d.name for d in ed.deeds}
    if edition == "mega-fr":  # the spec's placeholders, never invented names
        assert [names[n] for n in (3, 5, 7, 10, 19, 23, 29, 31, 35)] == [
            "Marron 3",
            "Bleu ciel 1",
            "Compagnie du gaz",
            "Rose 1",
            "Orange 4",
            "Rouge 4",
            "Jaune 4",
            "Vert 2",
            "Bleu foncé 1",
        ]
    else:
        assert names[3] == "Elephant and Castle" and names[37] == "Mayfair"
    assert ed.deed(37).rents == (50, 200, 600, 1400, 1700, 2000, 3000)


def test_mega_speed_die_false_rolls_two_dice() -> None:
    game = new_game(2, "mega-fr", mega={"speed_die": False})
    done = outcome(run(game, c.RollDice(1, (2, 3), third="mr")))
    assert isinstance(done, o.Rolled) and done.third is None and done.amount == 5
    assert state_file(rules(game), game.state, False)["last_roll"]["third"] is None


def test_the_utility_multiplier_with_three_is_a_key() -> None:
    for table, want in (({}, 20 * 7), ({"mega": {"utility_three_multiplier": 10}}, 10 * 7)):
        game = new_game(2, "mega-uk", **table)
        own(game, 1, 7, 12, 27)
        assert outcome(run(game, c.Visit(2, 12, 7))).amount == want


def test_skyscraper_and_depot_costs_are_keys() -> None:
    game = new_game(2, "mega-fr", mega={"skyscraper_cost": 300, "depot_cost": 120})
    skyscrapers_on_dark_blue(game)
    assert balance(game, 1) == 22_500 - 1100 - 15 * 200 - 300
    own(game, 1, 4)
    assert outcome(run(game, c.Build(1, 4))).amount == 120
    assert outcome(run(game, c.SellBuilding(1, 4))).amount == 60
    assert outcome(run(game, c.SellBuilding(1, 35))).amount == 150


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"mega": {"speed": True}}, "unknown setting 'mega.speed'"),
        ({"mega": {"speed_die": "yes"}}, "mega.speed_die: expected true or false"),
        ({"mega": {"utility_three_multiplier": 0}}, "mega.utility_three_multiplier"),
        ({"mega": {"skyscraper_cost": "hotel"}}, 'mega.skyscraper_cost: "house" or'),
        ({"mega": {"depot_cost": 1}}, "mega.depot_cost"),
    ],
)
def test_a_wrong_mega_key_is_refused_naming_it(raw: dict[str, object], message: str) -> None:
    with pytest.raises(BankError, match=message.replace("(", r"\(")):
        ClassicConfig.from_mapping(raw)


def test_the_mega_keys_are_recorded_with_the_game() -> None:
    game = new_game(2, "mega-fr", mega={"utility_three_multiplier": 10})
    later = Game(game.edition, ClassicConfig(), journal=game.journal)
    own(later, 1, 7, 12, 27)
    assert outcome(run(later, c.Visit(2, 7, 5))).amount == 50  # the recorded 10, not 20


def test_a_skyscraper_needs_a_hotel_on_every_lot_and_the_stock() -> None:
    game = new_game(2, "mega-fr", classic={"building_stock": True})
    rich(game, 1)
    own(game, 1, *DARK_BLUE)
    build(game, 1, *(DARK_BLUE * 4), 35, 36)
    with pytest.raises(RuleError, match="build evenly"):
        game.execute(c.Build(1, 35))  # Rue de la Paix has no hotel yet
    build(game, 1, 37, 35, 36, 37)
    assert [game.state.prop(n).level for n in DARK_BLUE] == [SKYSCRAPER] * 3
    assert (ext(game).hotels, ext(game).skyscrapers) == (12, 5)
    with pytest.raises(RuleError, match="skyscraper"):
        game.execute(c.Build(1, 35))
    assert outcome(run(game, Land(2, 37))).amount == 3000


def test_the_last_skyscraper_of_the_bank() -> None:
    game = new_game(2, "mega-fr")
    rich(game, 1, amount=40_000)
    green, brown = (30, 31, 32, 33), (1, 2, 3)
    own(game, 1, *DARK_BLUE, *green, *brown)
    build(game, 1, *(DARK_BLUE * 6), *(green * 6), *(brown * 5), 1)
    assert ext(game).skyscrapers == 0
    with pytest.raises(RuleError, match="no skyscraper left"):
        game.execute(c.Build(1, 2))
    sky = [n for n in (*DARK_BLUE, *green, *brown) if game.state.prop(n).level == SKYSCRAPER]
    assert len(sky) == 8 and ext(game).hotels == 12 - 2


def test_a_depot_blocks_the_mortgage_and_the_trade_of_its_station_only() -> None:
    game = new_game(2, "mega-uk")
    own(game, 1, 4, 15)
    run(game, c.Build(1, 4))
    with pytest.raises(RuleError, match="depot"):
        game.execute(c.Mortgage(1, 4))
    with pytest.raises(RuleError, match="depot"):
        game.execute(c.Trade(1, 2, (4,), (), 0, None, (), ()))
    run(game, c.Trade(1, 2, (15,), (), 0, None, (), ()))  # E9: the other station may go
    run(game, c.Mortgage(2, 15))
    with pytest.raises(RuleError, match="mortgaged"):
        game.execute(c.Build(2, 15))  # E9: no depot on a mortgaged station


def test_the_last_lot_bought_after_building_must_have_its_mortgage_lifted() -> None:
    """§3.10 (Méga): reached through a bankruptcy (E8); a third player keeps the game on."""
    game = new_game(3, "mega-fr")
    rich(game, 1)
    own(game, 1, 1, 2)
    own(game, 2, 3)
    build(game, 1, 1, 2)
    run(game, c.Mortgage(2, 3))
    run(game, c.PayBank(2, balance(game, 2)))
    run(game, Land(2, 1))  # racecar owes dog 10 (one house on Belleville)
    run(game, c.DeclareBankruptcy(2))
    assert ext(game).interest_due == (3,)
    with pytest.raises(RuleError, match="must be lifted"):
        game.execute(c.AnswerInterest(3, lift=False))
    done = outcome(run(game, c.AnswerInterest(3, lift=True)))
    assert done.amount == 40 + 4 and 3 not in ext(game).mortgaged


def test_bankruptcy_to_the_bank_returns_skyscrapers_and_depots_to_the_stock() -> None:
    game = new_game(2, "mega-fr")
    skyscrapers_on_dark_blue(game)
    own(game, 1, 4)
    run(game, c.Build(1, 4))
    assert rules(game).liquidation(game.state, 1, rules(game).settings(game.state)) == (
        (6 * 200 + 2 * 5 * 200) // 2 + 50 + 175 + 175 + 200 + 100
    )  # E10: the skyscraper counts its hotel and houses; the depot half its price
    run(game, c.PayBank(1, balance(game, 1) + 10_000))
    run(game, c.DeclareBankruptcy(1))
    x = ext(game)
    assert (x.houses, x.hotels, x.skyscrapers, x.depot_stock, x.depots) == (32, 12, 8, 4, ())


def test_repairs_count_skyscrapers_and_depots() -> None:
    game = new_game(2, "mega-fr")
    skyscrapers_on_dark_blue(game)
    own(game, 1, 4)
    run(game, c.Build(1, 4))
    before = balance(game, 1)
    run(game, c.PlayCard("chance", 9, 1))  # 25 a house, 100 a hotel, 100 a skyscraper, 25 a depot
    assert before - balance(game, 1) == 100 + 2 * 100 + 25
    before = balance(game, 1)
    run(game, c.PlayCard("chance", 10, 1))  # 40, 115, 115, 25
    assert before - balance(game, 1) == 115 + 2 * 115 + 25


def test_the_stand_in_decks_land_on_the_mega_ring() -> None:
    """§4.6: destinations by name; Chance 6 and the nearest station on the 52 spaces."""
    game = new_game(2, "mega-fr", classic={"chest14": "nearest_station"})
    rich(game, 1)
    assert outcome(run(game, c.PlayCard("chance", 1, 1))).landing.number == 37  # type: ignore[attr-defined]
    # back three from the Chance spaces 9, 28, 46: Gare Montparnasse, New Jersey (M19), a Chest
    landings = []
    for choice in range(3):
        done = outcome(run(game, c.PlayCard("chance", 6, 1, choice=choice)))
        assert isinstance(done, o.CardPlayed)
        landings.append(done.landing.number if done.landing else done.draw)  # type: ignore[attr-defined]
    assert landings == [4, 19, "chest"]
    stations = []
    for choice in range(3):
        done = outcome(run(game, c.PlayCard("chest", 14, 1, choice=choice, passed_go=False)))
        stations.append(done.landing.number)  # type: ignore[attr-defined]
    assert stations == [4, 24, 34]


def test_the_birthday_gift_is_mega_only_and_undone_like_any_payment() -> None:
    game = new_game(2, "mega-uk")
    assert outcome(run(game, BirthdayGift(2))).amount == 100
    assert balance(game, 2) == 2600
    run(game, Undo())
    assert balance(game, 2) == 2500
    classic = new_game(2, "classic-fr")
    with pytest.raises(RuleError):
        classic.execute(BirthdayGift(1))


def test_a_skyscraper_build_and_sale_undo_and_replay() -> None:
    game = new_game(2, "mega-fr")
    skyscrapers_on_dark_blue(game)
    state = game.state
    run(game, c.Build(1, 36))
    run(game, Undo())
    assert game.state == state
    run(game, c.SellBuilding(1, 35))
    assert game.state.prop(35).level == 5 and ext(game).skyscrapers == 8
    assert replayed(game).state == game.state
