"""The web view of a Méga game and of a Star Wars II game: ``mega_table.tap`` and
``starwars_table.tap`` played through ``ultibank script``, then resumed by a real daemon and
played on through its simulated reader; what ``/board.json`` and ``/state`` say of them (the
52-space ring, skyscrapers, depots, the bank's stock, the third die, the sides)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bank.unit.io import Button
from tests.web.conftest import (
    MEGA_SCRIPT,
    STARWARS_SCRIPT,
    Table,
    key,
    start_script_table,
    stop_table,
)


def prop(snap: dict[str, Any], number: int) -> dict[str, Any]:
    found: dict[str, Any] = snap["properties"][number - 1]
    assert found["number"] == number
    return found


def player(snap: dict[str, Any], card: int) -> dict[str, Any]:
    return next(p for p in snap["players"] if p["card"] == card)


@pytest.fixture
def mega_table(tmp_path: Path) -> Iterator[Table]:
    t = start_script_table(tmp_path, MEGA_SCRIPT, "mega-fr")
    try:
        yield t
    finally:
        stop_table(t)


@pytest.fixture
def starwars_table(tmp_path: Path) -> Iterator[Table]:
    t = start_script_table(tmp_path, STARWARS_SCRIPT, "starwars-ep2-fr")
    try:
        yield t
    finally:
        stop_table(t)


# ---------------------------------------------------------------------- Méga


def test_the_mega_board_is_the_52_space_ring_13_a_side(mega_table: Table) -> None:
    status, body, _ = mega_table.get("/board.json")
    board = json.loads(body)
    assert status == 200 and board["ruleset"] == "classic"
    ring = board["ring"]
    assert len(ring) == 52 and len(board["properties"]) == 37
    # the corners every 13 spaces: a quarter of the ring per side
    assert [ring[i] for i in (0, 13, 26, 39)] == ["GO", "JAIL", "FREE_PARKING", "GO_TO_JAIL"]
    assert {"AUCTION", "BUS_TICKET", "BIRTHDAY_GIFT"} <= set(ring)
    assert board["buildings"] == ["skyscraper", "depot"] and board["sides"] == []
    stations = [p["number"] for p in board["properties"] if p["group"] in board["depot_groups"]]
    assert stations == [4, 15, 24, 34]
    assert board["third_die"] == ["1", "2", "3", "mr", "mr", "bus"]
    utilities = [
        p for p in board["properties"] if board["group_kinds"].get(p["group"]) == "utility"
    ]
    assert [p["number"] for p in utilities] == [7, 12, 27]  # the third utility
    assert board["properties"][36]["position"] == 51  # Rue de la Paix, the last space


def test_the_state_shows_skyscrapers_hotels_depots_and_the_banks_stock(
    mega_table: Table,
) -> None:
    snap = mega_table.state()
    # the brown group: a skyscraper on 1 (its hotel went back), hotels on 2 and 3
    one, two, three = (prop(snap, n) for n in (1, 2, 3))
    assert (one["skyscraper"], one["hotel"], one["houses"]) == (True, False, 0)
    assert (two["skyscraper"], two["hotel"], three["hotel"]) == (False, True, True)
    # racecar's depot on Gare Montparnasse, none on Gare de Lyon
    assert (prop(snap, 4)["depot"], prop(snap, 15)["depot"]) == (True, False)
    assert prop(snap, 4)["owner"] == prop(snap, 15)["owner"] == 2
    assert not any(prop(snap, n)["depot"] for n in range(1, 38) if n != 4)
    # the majority rule: a house on three of the four light blues, Rose 1 mortgaged
    assert [prop(snap, n)["houses"] for n in (5, 6, 8, 9)] == [1, 1, 1, 0]
    assert prop(snap, 10)["mortgaged"] is True
    # the third utility is tophat's with the other two
    assert [prop(snap, n)["owner"] for n in (7, 12, 27)] == [3, 3, 3]
    # 32 houses: 12 built, 12 back with the hotels, 3 on the light blues; 12 hotels: 3
    # built, 1 back with the skyscraper; 8 skyscrapers, 4 depots
    assert snap["table"]["bank"] == {"houses": 29, "hotels": 10, "skyscrapers": 7, "depots": 3}
    # the last roll: dog's white dice and the speed die's Mr. Monopoly
    assert snap["table"]["last_roll"] == {"card": 1, "dice": [2, 5], "third": "mr", "doubles": 0}


def test_a_mega_worth_counts_skyscrapers_and_depots(mega_table: Table) -> None:
    snap = mega_table.state()
    dog = player(snap, 1)
    # cash, the three brown deeds at their price, the skyscraper as the hotel and 4 houses it
    # replaced plus its own price (E10), two hotels as 5 steps of 50 each
    buildings = (5 * 50 + 50) + 2 * (5 * 50)
    assert dog["wealth"] == dog["balance"] + (60 + 60 + 80) + buildings
    assert dog["worth"] == (60 + 60 + 80) + buildings
    racecar = player(snap, 2)
    assert racecar["wealth"] == racecar["balance"] + 200 + 200 + 100  # the depot at its cost
    ship = player(snap, 4)  # three light blues with a house each, Rose 1 mortgaged at half
    assert ship["wealth"] == ship["balance"] + 3 * 100 + 3 * 50 + 140 // 2


def test_the_mega_transactions_are_said_in_words(mega_table: Table) -> None:
    titles = [t["title"] for t in mega_table.state()["transactions"]]
    assert titles[0] == "chien lance les dés : 2 + 5 = 7, M. Monopoly"
    assert titles[1] == "bateau reçoit le cadeau d'anniversaire : +100 €"
    assert titles[2] == (
        "chapeau paie 750 € de loyer à chien pour 1 Boulevard de Belleville (gratte-ciel)"
    )
    assert titles[3] == (
        "chapeau paie 100 € de loyer à voiture pour 4 Gare Montparnasse (2 gares, dépôt)"
    )


def test_selling_the_depot_and_the_skyscraper_updates_the_view(mega_table: Table) -> None:
    t = mega_table
    t.press(Button.MENU)
    key(t, "8")
    t.tap("bank:2", "deed:4")  # racecar sells the depot back: +50
    t.press(Button.OK)
    snap = t.state()
    assert prop(snap, 4)["depot"] is False and snap["table"]["bank"]["depots"] == 4
    sold = snap["transactions"][0]["title"]
    assert sold == "voiture vend le dépôt de 4 Gare Montparnasse : +50 €"
    t.press(Button.MENU)
    key(t, "8")
    t.tap("bank:1", "deed:1")  # dog sells the skyscraper: a hotel from the bank again
    t.press(Button.OK)
    snap = t.state()
    assert (prop(snap, 1)["skyscraper"], prop(snap, 1)["hotel"]) == (False, True)
    assert snap["table"]["bank"]["skyscrapers"] == 8 and snap["table"]["bank"]["hotels"] == 9
    assert snap["transactions"][0]["title"] == (
        "chien vend le gratte-ciel de 1 Boulevard de Belleville (reste : un hôtel)"
    )


def test_a_speed_die_number_is_the_last_roll_as_a_number(mega_table: Table) -> None:
    t = mega_table
    t.press(Button.MENU)
    key(t, "11")
    t.tap("bank:3")  # tophat rolls: the dice and the speed die drawn from the seed
    snap = t.state()
    roll = snap["table"]["last_roll"]
    assert roll["card"] == 3
    third = roll["third"]
    assert third in (1, 2, 3, "mr", "bus")
    a, b = roll["dice"]
    words = snap["transactions"][0]["title"]
    if isinstance(third, int):
        assert words.startswith(f"chapeau lance les dés : {a} + {b} + {third} = {a + b + third}")
    else:
        assert words.startswith(f"chapeau lance les dés : {a} + {b} = {a + b}, ")


# ---------------------------------------------------------------------- Star Wars II


def test_the_star_wars_board_carries_the_sides_and_the_force_die(starwars_table: Table) -> None:
    status, body, _ = starwars_table.get("/board.json")
    board = json.loads(body)
    assert status == 200 and board["buildings"] == [] and board["depot_groups"] == []
    assert board["sides"] == ["light"] * 5 + ["dark"] * 3
    assert sorted(set(board["third_die"])) == ["dark", "light", "shift"]


def test_each_character_shows_its_side(starwars_table: Table) -> None:
    snap = starwars_table.state()
    sides = {p["label"]: p["side"] for p in snap["players"]}
    assert sides == {
        "Obi-Wan": "light", "Anakin": "light", "Padmé": "light", "Mace Windu": "light",
        "Clone": "light", "Dooku": "dark", "Jango": "dark", "Droïde": "dark",
    }  # fmt: skip
    assert snap["table"]["last_roll"] == {
        "card": 7,
        "dice": [2, 1],
        "third": "dark",
        "doubles": 0,
    }
    assert player(snap, 2)["balance"] == 1500 - 200  # the Force battle lost
    titles = [t["title"] for t in snap["transactions"]]
    assert titles[0] == "Jango lance les dés : 2 + 1 = 3, dé de Force : carré obscur"
    assert "Mace Windu (côté clair) remporte la bataille de la Force : carré clair" in titles
    assert "Anakin (côté clair) perd la bataille de la Force : bascule, pénalité 200 cr" in titles


def test_a_force_battle_on_the_running_unit_is_said_with_its_side(
    starwars_table: Table,
) -> None:
    t = starwars_table
    t.press(Button.MENU)
    key(t, "14")
    t.tap("bank:7")  # Jango's own roll showed the dark square: his side, won
    snap = t.state()
    assert snap["transactions"][0]["title"] == (
        "Jango (côté obscur) remporte la bataille de la Force : carré obscur"
    )
    assert player(snap, 7)["balance"] == 1500
    t.press(Button.MENU)
    key(t, "14")
    t.tap("bank:5")  # Clone: not the latest roll, the unit asks the face
    key(t, "2")  # carré obscur
    t.press(Button.OK)
    snap = t.state()
    assert snap["transactions"][0]["title"] == (
        "Clone (côté clair) perd la bataille de la Force : carré obscur, pénalité 200 cr"
    )
    assert player(snap, 5)["balance"] == 1475 - 200
