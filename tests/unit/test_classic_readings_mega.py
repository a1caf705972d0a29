"""The project's settled readings for Méga and Star Wars (docs/readings.md), each checked through
the unit: a tap script run by ``ultibank script``, its state file and its transcript. Prices,
rents and building costs are worked by hand from the Méga deed table (docs/classic.md §2.3: brown
M1, M2 60, M3 80, houses 50; stations 200, depots 100; utilities 150). Each test's docstring
names the readings it settles."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from tests.unit.readings import P2, P3, Table, cues, deed, item, player, roll, screens

MEGA = ["mega-fr", "mega-uk"]


@pytest.fixture
def table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Table:
    return Table(tmp_path, capsys)


def trade(first: int, second: int, *deeds: int, answer: str = "press ok\n") -> str:
    """Item 10: *first* and *second*, the deeds tapped on `Titres`, M to `Résumé`, ✓ (the
    offer), then *answer* (the partner's ✓)."""
    text = f"press menu\nkey 10\ntap bank:{first}\ntap bank:{second}\n"
    text += "".join(f"tap deed:{n}\n" for n in deeds)
    return text + "press menu\npress menu\npress menu\npress ok\n" + answer


def build(card: int, *deeds: int) -> str:
    """A build session of *card*: one tap per building, then ✓."""
    return (
        f"press menu\nkey 7\ntap bank:{card}\n"
        + "".join(f"tap deed:{n}\n" for n in deeds)
        + "press ok\n"
    )


def lancer(presses: int = 11) -> str:
    return "press menu\n" * presses + "press ok\n"


# ---------------------------------------------------------------- E1, E2, E13: the dice


def d1_face(seed: int, k: int, i: int) -> int:
    """Die *i* of roll *k* under *seed*, as READINGS D1 defines it (a face 1-6)."""
    digest = hashlib.sha256(f"{seed}:{k}:{i}".encode()).digest()
    return 1 + int.from_bytes(digest[:8], "big") % 6


#: the speed die's faces 1-6 (D1)
SPEED: tuple[int | str, ...] = (1, 2, 3, "mr", "mr", "bus")


@pytest.mark.parametrize("edition", MEGA)
def test_e1_a_jailed_mega_roller_rolls_the_white_dice_only(table: Table, edition: str) -> None:
    """READINGS E1: in jail, a Méga roll draws no speed die: ``third`` is null and the queued
    `roll 1 2 mr` loses its `mr`: the game's next roll (roll 2, seed 0) gets the speed die
    the seed gives, not `mr`."""
    text = P2 + item(2, 1) + "roll 1 2 mr\n" + roll(1)
    _, state = table.play(text, edition)
    assert state["last_roll"] == {"card": 1, "dice": [1, 2], "third": None, "doubles": 0}
    assert player(state, 1)["jail_tries"] == 1
    _, later = table.play(text + "roll 5 6\n" + roll(2), edition)
    assert later["last_roll"]["dice"] == [5, 6] and later["last_roll"]["card"] == 2
    assert later["last_roll"]["third"] == SPEED[d1_face(0, 2, 2) - 1] != "mr"


@pytest.mark.parametrize("edition", [*MEGA, "starwars-ep2-fr"])
def test_e1_a_lancer_pick_rolls_two_dice_in_every_edition(table: Table, edition: str) -> None:
    """READINGS E1: `lancer` at a utility rolls two dice, whatever the edition: no third die
    (the queued third face is dropped); the rent is 4 × the two dice (4 × 5 = 20)."""
    utility = 7 if edition.startswith("mega") else 8
    third = "mr" if edition.startswith("mega") else "light"
    text = P2 + f"tap deed:{utility}\ntap bank:2\nroll 2 3 {third}\n"
    text += f"tap deed:{utility}\ntap bank:1\n" + lancer()
    _, state = table.play(text, edition)
    assert state["last_roll"] == {"card": 1, "dice": [2, 3], "third": None, "doubles": 0}
    start = 2500 if edition.startswith("mega") else 1500
    assert player(state, 1)["balance"] == start - 20
    assert player(state, 2)["balance"] == start - 150 + 20


def test_e1_star_wars_rolls_its_three_dice_for_a_jailed_card(table: Table) -> None:
    """READINGS E1: a jailed Star Wars card rolls the white, the black and the Force die."""
    text = P2 + item(2, 1) + "roll 1 2 light\n" + roll(1)
    _, state = table.play(text, "starwars-ep2-fr")
    assert state["last_roll"] == {"card": 1, "dice": [1, 2], "third": "light", "doubles": 0}


@pytest.mark.parametrize("edition", MEGA)
def test_e2_a_triple_ends_a_row_of_doubles(table: Table, edition: str) -> None:
    """READINGS E2: double, double, then a triple (3-3-3): no jail, the row ends (``doubles``
    0); two more doubles make a row of 2, still free."""
    text = P2 + "roll 1 1 3\nroll 2 2 1\nroll 3 3 3\n" + roll(1) * 3
    _, triple = table.play(text, edition)
    assert triple["last_roll"] == {"card": 1, "dice": [3, 3], "third": 3, "doubles": 0}
    assert player(triple, 1)["jailed"] is False
    _, state = table.play(text + "roll 4 4 1\nroll 5 5 2\n" + roll(1) * 2, edition)
    assert state["last_roll"]["doubles"] == 2 and player(state, 1)["jailed"] is False


@pytest.mark.parametrize(
    ("edition", "line", "third"),
    [
        ("mega-fr", "roll 1 2 3", 3),
        ("mega-uk", "roll 1 2 1", 1),
        ("mega-fr", "roll 1 2 mr", "mr"),
        ("mega-uk", "roll 1 2 bus", "bus"),
        ("starwars-ep2-fr", "roll 1 2 light", "light"),
        ("starwars-ep2-fr", "roll 1 2 dark", "dark"),
        ("starwars-ep2-fr", "roll 1 2 shift", "shift"),
    ],
)
def test_e13_the_third_die_in_last_roll(
    table: Table, edition: str, line: str, third: int | str
) -> None:
    """READINGS E13: ``last_roll.third`` is an integer for the speed die's 1-3 and a string
    for ``mr``, ``bus`` and the Force faces."""
    _, state = table.play(P2 + line + "\n" + roll(1), edition)
    assert state["last_roll"]["third"] == third
    assert type(state["last_roll"]["third"]) is type(third)


# ---------------------------------------------------------------- E8, E9: trades


@pytest.mark.parametrize("edition", MEGA)
def test_e8_a_deed_whose_group_carries_anothers_building_is_refused_in_a_trade(
    table: Table, edition: str
) -> None:
    """READINGS E8: dog builds a house on M1 (he holds 2 of the 3 browns); racecar's M3 carries
    nothing but its group does, so racecar cannot trade M3 to tophat."""
    text = P3 + "tap deed:1\ntap bank:1\ntap deed:2\ntap bank:1\ntap deed:3\ntap bank:2\n"
    text += build(1, 1)  # a house on M1: dog 2500 - 120 - 50 = 2330
    text += trade(2, 3, 3) + "press cancel\npress cancel\n"
    transcript, state = table.play(text, edition)
    assert "error" in cues(transcript)
    assert deed(state, 3)["owner"] == 2 and deed(state, 1)["houses"] == 1
    assert [p["balance"] for p in state["players"]] == [2330, 2420, 2500]


@pytest.mark.parametrize("edition", MEGA)
def test_e8_the_must_lift_is_reached_through_a_bankruptcy(table: Table, edition: str) -> None:
    """READINGS E8: racecar, bankrupt to dog, hands over his mortgaged M3; dog has a house on
    the group, so he must lift it: ✓ (keep) is refused, M lifts it for 40 + 4 = 44."""
    text = P3 + "tap deed:1\ntap bank:1\ntap deed:2\ntap bank:1\ntap deed:3\ntap bank:2\n"
    text += build(1, 1)  # dog 2330
    text += "press menu\nkey 9\ntap bank:2\ntap deed:3\npress ok\n"  # racecar 2420 + 40
    text += item(5, 2, 2460)  # racecar 0
    text += "tap deed:1\ntap bank:2\n"  # rent of 1 house on M1: 10, owed to dog
    text += "press menu\nkey 16\npress ok\ntap bank:2\n"  # nothing left to raise: bankrupt
    _, asked = table.play(text, edition)
    assert player(asked, 2)["bankrupt"] is True and deed(asked, 3)["owner"] == 1
    assert deed(asked, 3)["interest_due"] is True
    transcript, kept = table.play(text + "press ok\n", edition)
    assert deed(kept, 3)["interest_due"] is True and cues(transcript)[-1] == "error"
    _, state = table.play(text + "press ok\npress menu\n", edition)
    m3 = deed(state, 3)
    assert m3["owner"] == 1 and m3["mortgaged"] is False and m3["interest_due"] is False
    assert player(state, 1)["balance"] == 2330 - 44


@pytest.mark.parametrize("edition", MEGA)
def test_e9_depots_and_trades(table: Table, edition: str) -> None:
    """READINGS E9: a station carrying a depot is refused in a trade, another station of the
    same owner is traded; a depot is refused on a mortgaged station; dog's depot on M4 does
    not make racecar's mortgaged M24, traded to dog, a must-lift: ✓ keeps it for 10."""
    text = P2 + "tap deed:4\ntap bank:1\ntap deed:15\ntap bank:1\n"  # dog 2100
    text += build(1, 4)  # the depot on M4: dog 2000
    text += trade(1, 2, 4) + "press cancel\npress cancel\n"  # refused
    _, refused = table.play(text, edition)
    assert deed(refused, 4)["owner"] == 1 and deed(refused, 4)["depot"] is True
    text += trade(1, 2, 15)  # the other station: a gift to racecar
    text += "tap deed:24\ntap bank:2\npress menu\nkey 9\ntap bank:2\ntap deed:24\npress ok\n"
    text += build(2, 24)  # racecar 2500 - 200 + 100 = 2400; no depot on a mortgaged station
    _, before = table.play(text, edition)
    assert deed(before, 15)["owner"] == 2 and deed(before, 24)["depot"] is False
    assert player(before, 2)["balance"] == 2400
    text += trade(2, 1, 24) + "press ok\n"  # ✓ at the interest question: keep, 10
    _, state = table.play(text, edition)
    m24 = deed(state, 24)
    assert m24["owner"] == 1 and m24["mortgaged"] is True and m24["interest_due"] is False
    assert player(state, 1)["balance"] == 1990 and player(state, 2)["balance"] == 2400


# ---------------------------------------------------------------- E10, E11: values and rents

#: dog buys the three browns (200), a hotel on each (5 × 50 each) and a skyscraper on M1 (50)
BROWNS = "tap deed:1\ntap bank:1\ntap deed:2\ntap bank:1\ntap deed:3\ntap bank:1\n" + build(
    1, *([1, 2, 3] * 5), 1
)
SKYSCRAPER = P2 + BROWNS


@pytest.mark.parametrize("edition", MEGA)
def test_e10_e13_a_skyscraper_counts_its_whole_chain(table: Table, edition: str) -> None:
    """READINGS E10, E13: a lot with a skyscraper is worth 6 × the house price (the houses,
    the hotel, the skyscraper): dog's worth is 1500 cash + 200 of deeds + 300 + 250 + 250 =
    2500. The lot shows level 6, skyscraper true, hotel false, houses 0."""
    _, state = table.play(SKYSCRAPER, edition)
    dog = player(state, 1)
    assert dog["balance"] == 2500 - 200 - 3 * 250 - 50 == 1500
    assert dog["worth"] == 2500
    m1 = deed(state, 1)
    assert (m1["level"], m1["skyscraper"], m1["hotel"], m1["houses"]) == (6, True, False, 0)
    assert deed(state, 2)["level"] == 5 and deed(state, 2)["hotel"] is True
    assert state["bank"]["houses"] == 32 and state["bank"]["hotels"] == 10
    assert state["bank"]["skyscrapers"] == 7


@pytest.mark.parametrize("edition", MEGA)
def test_e10_in_the_fast_game_a_skyscraper_counts_five_buildings(
    table: Table, edition: str
) -> None:
    """READINGS E10: in the fast game a hotel replaces 3 houses, so a skyscraper lot is worth
    5 × the house price: dog's worth is still his 2500 (1650 cash, 200 of deeds, 250 + 200 +
    200 of buildings); 3 houses per hotel went back to the bank."""
    text = P2 + "tap deed:1\ntap bank:1\ntap deed:2\ntap bank:1\ntap deed:3\ntap bank:1\n"
    text += build(1, *([1, 2, 3] * 4), 1)
    _, state = table.play(text, edition, "--set", "variants.fast_game=true")
    dog = player(state, 1)
    assert dog["balance"] == 2500 - 200 - 3 * 4 * 50 - 50 == 1650
    assert dog["worth"] == 2500 and deed(state, 1)["level"] == 6
    assert state["bank"]["houses"] == 32 and state["bank"]["skyscrapers"] == 7


@pytest.mark.parametrize("edition", MEGA)
def test_e10_encore_possible_counts_the_chain_at_half(table: Table, edition: str) -> None:
    """READINGS E10: in a debt, `Encore possible` counts the skyscraper lot's 6 buildings at
    half (150), the hotels' 5 (125 each) and the mortgages (30 + 30 + 40): 500."""
    transcript, state = table.play(SKYSCRAPER + item(5, 1, 1600), edition)
    assert player(state, 1)["debt"] == 100
    debt = screens(transcript, "debt")[-1]
    assert "500" in debt.split("|", 1)[1], debt


@pytest.mark.parametrize("edition", MEGA)
def test_e10_the_bankruptcy_sale_counts_the_chain_at_half(table: Table, edition: str) -> None:
    """READINGS E10: dog (no cash, the brown chain) owes racecar 1400 (M37 with 3 houses):
    more than the 500 he could raise, so he goes bankrupt; his buildings are sold to the bank
    at half, the skyscraper lot's whole chain too: 150 + 125 + 125 = 400 go to racecar
    (550 after buying M36, M37 and 6 houses at 200), who gets the browns unmortgaged."""
    text = P3 + BROWNS + item(5, 1, 1500)  # dog 0
    text += "tap deed:36\ntap bank:2\ntap deed:37\ntap bank:2\n" + build(2, *([36, 37] * 3))
    text += "tap deed:37\ntap bank:1\n"  # 1400 owed to racecar
    _, owing = table.play(text, edition)
    assert player(owing, 1)["debt"] == 1400 and player(owing, 2)["balance"] == 550
    _, state = table.play(text + "press menu\nkey 16\npress ok\ntap bank:1\n", edition)
    assert player(state, 1)["bankrupt"] is True and player(state, 2)["balance"] == 950
    assert [deed(state, n)["owner"] for n in (1, 2, 3)] == [2, 2, 2]
    assert [deed(state, n)["level"] for n in (1, 2, 3)] == [0, 0, 0]
    assert state["bank"]["houses"] == 26 and state["bank"]["hotels"] == 12
    assert state["bank"]["skyscrapers"] == 8


@pytest.mark.parametrize(("setting", "rent"), [("false", 2), ("true", 4)])
@pytest.mark.parametrize("edition", MEGA)
def test_e11_a_mortgaged_lot_of_the_group_cancels_the_multiplier(
    table: Table, edition: str, setting: str, rent: int
) -> None:
    """READINGS E11: dog holds M1 and M2 (×2 with all but one lot); racecar's M3 is
    mortgaged. With ``double_rent_with_mortgaged_lot = false`` tophat pays M1's base 2; with
    the Méga default (true) he pays 4."""
    text = P3 + "tap deed:1\ntap bank:1\ntap deed:2\ntap bank:1\ntap deed:3\ntap bank:2\n"
    text += "press menu\nkey 9\ntap bank:2\ntap deed:3\npress ok\n"
    text += "tap deed:1\ntap bank:3\n"
    args = ("--set", f"classic.double_rent_with_mortgaged_lot={setting}")
    _, state = table.play(text, edition, *args)
    assert player(state, 3)["balance"] == 2500 - rent
    assert player(state, 1)["balance"] == 2500 - 120 + rent


# ---------------------------------------------------------------- E12: the cards


@pytest.mark.parametrize("edition", MEGA)
def test_e12_the_card_icon_offers_the_card_numbers_not_the_generic_effects(
    table: Table, edition: str
) -> None:
    """READINGS E12: in Méga the card icon goes to the stand-in deck's numbers: Chance 14 (the
    dividend, +50), never to the generic effects."""
    text = P2 + "press menu\nkey 12\npress ok\npress ok\nkey 14\npress ok\ntap bank:1\n"
    transcript, state = table.play(text, edition)
    assert player(state, 1)["balance"] == 2550
    assert not any("G1" in s for s in screens(transcript, "pick"))


@pytest.mark.parametrize(("presses", "number"), [(0, 4), (1, 19)])
@pytest.mark.parametrize("edition", MEGA)
def test_e12_back_three_lists_the_mega_spaces_in_order(
    table: Table, edition: str, presses: int, number: int
) -> None:
    """READINGS E12: Chance 6 (back three) offers, in §4.6's order, Gare Montparnasse (M4, from
    space 9), then New Jersey (M19, from 28), then the Caisse: the chosen deed is landed on and
    bought for 200."""
    text = P2 + "tap chance:6\ntap bank:1\n" + "press menu\n" * presses + "press ok\n"
    _, state = table.play(text, edition)
    assert deed(state, number)["owner"] == 1 and player(state, 1)["balance"] == 2300


@pytest.mark.parametrize("edition", MEGA)
def test_e12_the_nearest_station_lists_the_mega_stations_in_order(
    table: Table, edition: str
) -> None:
    """READINGS E12: with ``chest14 = nearest_station``, the options are M4 (from 2), M24
    (from 22), M34 (from 43): M then ✓ lands on M24, bought for 200."""
    text = P2 + "tap chest:14\ntap bank:1\npress menu\npress ok\n"
    _, state = table.play(text, edition, "--set", "classic.chest14=nearest_station")
    assert deed(state, 24)["owner"] == 1 and player(state, 1)["balance"] == 2300
    text = P2 + "tap chest:14\ntap bank:1\npress menu\npress menu\npress ok\n"
    _, third = table.play(text, edition, "--set", "classic.chest14=nearest_station")
    assert deed(third, 34)["owner"] == 1
