"""The web view of a classic game: the 8-player game of ``classic_table.tap`` resumed by a real
daemon, then played on through its simulated reader (the interest question, a trade offer,
a debt); what ``/state``, ``/board.json`` and the chart say of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bank.unit.io import Button
from tests.web.conftest import (
    Table,
    key,
    need_matplotlib,
    start_classic_table,
    stop_table,
)


def prop(snap: dict[str, Any], number: int) -> dict[str, Any]:
    found: dict[str, Any] = snap["properties"][number - 1]
    assert found["number"] == number
    return found


def player(snap: dict[str, Any], card: int) -> dict[str, Any]:
    return next(p for p in snap["players"] if p["card"] == card)


def test_the_board_is_the_editions_ring_of_40_with_its_decks_and_taxes(
    classic_table: Table,
) -> None:
    status, body, _ = classic_table.get("/board.json")
    board = json.loads(body)
    assert status == 200 and board["ruleset"] == "classic"
    assert len(board["ring"]) == 40 and len(board["properties"]) == 28
    assert len(board["tokens"]) == 8 and len(board["player_colours"]) == 8
    assert len(set(board["player_colours"].values())) == 8
    assert board["layout"] == "buildings" and board["buildings"] == []
    assert board["space_names"] == {"CHANCE": "Chance", "CHEST": "Caisse de communauté"}
    assert board["taxes"]["4"] == {"name": "Impôts sur le revenu", "amount": 200}
    assert board["properties"][27]["position"] == 39  # Rue de la Paix, the last space


def test_the_state_shows_buildings_mortgages_owners_and_eight_players(
    classic_table: Table,
) -> None:
    snap = classic_table.state()
    assert [p["card"] for p in snap["players"]] == list(range(1, 9))
    labels = [p["label"] for p in snap["players"]]
    assert labels == ["chien", "voiture", "chapeau", "bateau", "fer", "dé", "chaussure", "brouette"]
    # the brown group: a hotel on 1, four houses on 2 (dog's)
    assert (prop(snap, 1)["owner"], prop(snap, 1)["houses"], prop(snap, 1)["hotel"]) == (1, 0, True)
    assert (prop(snap, 2)["owner"], prop(snap, 2)["houses"], prop(snap, 2)["hotel"]) == (
        1,
        4,
        False,
    )
    assert [prop(snap, n)["houses"] for n in (4, 5, 6)] == [2, 1, 1]
    assert prop(snap, 3)["mortgaged"] is True and prop(snap, 3)["owner"] == 5
    assert prop(snap, 28)["owner"] == 4  # traded by wheelbarrow to ship
    assert prop(snap, 7)["owner"] is None
    classic = snap["table"]
    assert classic["pot_on"] is True and classic["pot"] == 200  # the income tax
    assert classic["bank"]["houses"] == 32 - 8 + 4 - 4  # the hotel gave its 4 houses back
    assert classic["bank"]["hotels"] == 11
    boot = player(snap, 7)
    assert boot["jailed"] is True and boot["jail_cards"] == ["chance"]
    # worth as the classic ranking counts it: cash, deeds at price, buildings at cost
    dog = player(snap, 1)
    assert dog["balance"] == 1180  # 1500 - 120 deeds - 9 x 50 buildings + 250 rent
    assert dog["wealth"] == 1180 + 120 + 9 * 50 and dog["worth"] == 120 + 9 * 50
    iron = player(snap, 5)
    assert iron["wealth"] == 1400 + 100  # the mortgaged station at half its price
    state_file = json.loads((Path(classic_table.rt.settings.data_dir) / "state.json").read_text())
    assert [p["wealth"] for p in snap["players"]] == [p["worth"] for p in state_file["players"]]


def test_the_transactions_are_said_in_words(classic_table: Table) -> None:
    snap = classic_table.state()
    titles = [t["title"] for t in snap["transactions"]]
    assert titles[0] == "dé paie 250 € de loyer à chien pour 1 Boulevard de Belleville (hôtel)"
    assert titles[1] == ("Échange : brouette donne 28 Rue de la Paix ; bateau donne 100 €")
    assert "chaussure tire Chance 8 : Libéré de prison" in titles
    assert "dé paie Impôts sur le revenu : 200 €" in titles
    assert "fer hypothèque 3 Gare Montparnasse : +100 €" in titles
    assert snap["transactions"][0]["detail"] == "dé → chien 250 € (loyer)"
    assert snap["transactions"][0]["undoable"] is True


def test_english_words_for_an_english_unit(tmp_path: Path) -> None:
    table = start_classic_table(tmp_path, overrides=['unit.language="en"'])
    try:
        snap = table.state()
        assert player(snap, 2)["label"] == "racing car"
        assert snap["transactions"][0]["title"] == (
            "thimble pays dog 250 € rent for 1 Boulevard de Belleville (hotel)"
        )
    finally:
        stop_table(table)


def test_the_trade_offer_then_the_interest_question_as_the_unit_shows_them(
    classic_table: Table,
) -> None:
    t = classic_table
    t.press(Button.MENU)
    key(t, "10")
    t.tap("bank:5", "bank:3", "deed:3")  # iron offers the mortgaged station to tophat
    t.press(Button.OK)  # ✓ on the deeds panel makes the offer at once (READINGS A10)
    snap = t.state()
    step = snap["step"]
    assert step["kind"] == "trade_offer" and snap["screen"]["name"] == "trade_offer"
    assert (step["first"], step["second"], step["deeds_first"]) == (5, 3, [3])

    t.tap("bank:3")  # tophat accepts: a mortgaged deed changed hands
    snap = t.state()
    assert snap["screen"]["name"] == "interest"
    step = snap["step"]
    assert step == {"kind": "interest", "number": 3, "card": 3, "keep": 10, "lift": 110}
    assert prop(snap, 3)["interest_due"] is True and prop(snap, 3)["owner"] == 3

    t.press(Button.OK)  # keep it mortgaged: 10 % interest
    snap = t.state()
    assert snap["step"] is None and prop(snap, 3)["interest_due"] is False
    assert player(snap, 3)["balance"] == 1410 - 10
    assert snap["transactions"][0]["title"] == (
        "chapeau garde 3 Gare Montparnasse hypothéqué : intérêts 10 €"
    )


def test_a_debt_and_the_auction_of_a_deed(classic_table: Table) -> None:
    t = classic_table
    t.press(Button.MENU)
    key(t, "5")
    t.tap("bank:6")
    key(t, "1200")
    t.press(Button.OK)  # thimble has 1050: pays it all and owes 150 to the bank
    snap = t.state()
    thimble = player(snap, 6)
    assert (thimble["balance"], thimble["debt"], thimble["creditor"]) == (0, 150, None)
    assert snap["transactions"][0]["title"] == "dé paie 1200 € à la banque"
    assert "dé doit 150 €" in snap["transactions"][0]["detail"]


def test_an_auction_shows_in_the_auction_panel(classic_table: Table) -> None:
    t = classic_table
    t.tap("deed:9")
    t.press(Button.MENU)  # the auction icon
    snap = t.state()
    assert snap["auction"]["phase"] == "offer" and snap["auction"]["number"] == 9
    t.press(Button.OK)  # the countdown starts
    t.tap("bank:8")
    snap = t.state()
    auction = snap["auction"]
    assert (auction["phase"], auction["price"], auction["bidder"]) == ("running", 10, 8)


def test_the_chart_of_a_classic_game_draws_its_worth(classic_table: Table) -> None:
    need_matplotlib()
    from bank.views.charts import wealth_series

    _game, _last, records = classic_table.rt.daemon.call(
        lambda: classic_table.web._reader.records()
    )
    series = wealth_series(classic_table.rt.edition, records)
    assert len(series.players) == 8
    snap = classic_table.state()
    assert [p.total[-1] for p in series.players] == [p["wealth"] for p in snap["players"]]
    assert [p.money[-1] for p in series.players] == [p["balance"] for p in snap["players"]]


def test_game_over_ranks_by_worth_and_serves_the_chart(tmp_path: Path) -> None:
    need_matplotlib()
    from tests.web.conftest import start_table

    t = start_table(tmp_path, overrides=['game.edition="classic-fr"'])
    try:
        t.start_game(1, 2)
        t.tap("deed:1", "bank:1")  # dog buys Belleville
        t.press(Button.MENU)
        key(t, "5")
        t.tap("bank:2")
        key(t, "2000")
        t.press(Button.OK)  # racecar pays the bank 2000: 500 owed, nothing to raise it
        t.press(Button.MENU)
        key(t, "16")
        t.press(Button.OK)
        t.tap("bank:2")  # racecar goes bankrupt to the bank: dog wins
        snap = t.state()
        assert snap["game_over"] is True and snap["winner"] == 1 and snap["ranking"] == [1, 2]
        assert player(snap, 1)["wealth"] == 1500  # 1440 cash + Belleville at its price
        assert snap["transactions"][0]["title"] == "voiture fait faillite envers la banque"
        assert "gagnant : chien" in snap["transactions"][0]["detail"]
        status, png, headers = t.get(snap["chart"], timeout=60)
        assert status == 200 and headers["Content-Type"] == "image/png"
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
    finally:
        stop_table(t)


def test_before_the_game_starts_the_page_has_a_board_and_no_classic_block(
    tmp_path: Path,
) -> None:
    from tests.web.conftest import start_table

    t = start_table(tmp_path, overrides=['game.edition="classic-fr"'])
    try:
        snap = t.state()
        assert snap["players"] == [] and "classic" not in snap and snap["transactions"] == []
        t.start_game(*range(1, 9))
        snap = t.state()
        assert len(snap["players"]) == 8 and snap["table"]["pot_on"] is False
        assert snap["transactions"][0]["title"] == (
            "Nouvelle partie : chien, voiture, chapeau, bateau, fer, dé, chaussure, brouette"
        )
    finally:
        stop_table(t)
