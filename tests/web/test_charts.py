"""The end-of-game wealth chart: the series replayed from records, the PNG, the missing extra."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bank.engine.commands import Command, Land, NewGame, Undo
from bank.engine.errors import BankError
from bank.engine.game import Game
from bank.rulesets.ultime.commands import PassGo
from bank.views.charts import (
    PLAYER_COLOURS,
    ChartUnavailable,
    render_wealth_png,
    wealth_series,
    write_end_chart,
)
from board_assets import load_edition
from tests.web.conftest import need_matplotlib

EDITION = load_edition("ultime-fr")


def play(*commands: Command) -> list[dict[str, Any]]:
    game = Game(EDITION)
    return [game.execute(c).to_record(EDITION.id) for c in commands]


def test_series_follow_money_and_property_value() -> None:
    records = play(NewGame((1, 2)), Land(1, 22), PassGo(2), Land(2, 22))
    series = wealth_series(EDITION, records)
    assert series.steps == (1, 2, 3, 4)
    car, heli = series.players
    assert (car.token, heli.token) == ("car", "helicopter")
    assert car.money == (1500, 1100, 1100, 1400)  # buys 400, then 300 rent from helicopter
    assert car.total == (1500, 1500, 1500, 1800)  # the property counts at its price
    assert heli.money == (1500, 1500, 1700, 1400)
    assert heli.total == heli.money
    assert not series.game_over and series.winner is None


def test_series_replay_undo() -> None:
    records = play(NewGame((1, 2)), Land(1, 22), Undo())
    car = wealth_series(EDITION, records).players[0]
    assert car.money == (1500, 1100, 1500)
    assert car.total == (1500, 1500, 1500)


def test_bankruptcy_ends_the_series_with_the_winner() -> None:
    commands: list[Command] = [NewGame((1, 2)), Land(1, 22), Land(1, 21)]
    commands += [Land(2, 22)] * 3
    series = wealth_series(EDITION, play(*commands))
    assert series.game_over and series.winner == 1
    assert series.players[1].money[-1] == 0


def _png_size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_png_draws_each_player_in_their_colour(tmp_path: Path) -> None:
    need_matplotlib()
    from PIL import Image

    records = play(NewGame((1, 3)), Land(1, 22), Land(3, 1), PassGo(3))
    png = render_wealth_png(wealth_series(EDITION, records))
    assert _png_size(png) == (800, 450)
    out = write_end_chart(EDITION, records, tmp_path / "sub" / "wealth.png")
    assert out == tmp_path / "sub" / "wealth.png" and out.read_bytes()[:4] == b"\x89PNG"
    assert not list(out.parent.glob("*.tmp"))
    image = Image.open(out).convert("RGB")
    colours = {c for _, c in image.getcolors(maxcolors=1 << 20) or []}

    def rgb(hex_colour: str) -> tuple[int, int, int]:
        return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]

    for card in (1, 3):
        assert rgb(PLAYER_COLOURS[card]) in colours, f"no line in player {card}'s colour"
    assert rgb(PLAYER_COLOURS[2]) not in colours  # card 2 is not playing


def test_without_matplotlib_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)
    series = wealth_series(EDITION, play(NewGame((1, 2))))
    with pytest.raises(ChartUnavailable, match=r"ultibank\[web\]"):
        render_wealth_png(series)


def test_unwritable_destination_is_a_bank_error(tmp_path: Path) -> None:
    need_matplotlib()
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(BankError, match="cannot write the wealth chart"):
        write_end_chart(EDITION, play(NewGame((1, 2))), blocker / "chart.png")


def test_unreadable_record_is_named() -> None:
    with pytest.raises(BankError, match="record 2"):
        wealth_series(EDITION, [*play(NewGame((1, 2))), {"command": {"name": "land"}}])


def test_importing_the_view_does_not_import_matplotlib() -> None:
    code = "import sys, bank.views.charts, bank.views.web; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_chart_words_follow_the_language() -> None:
    need_matplotlib()
    records = play(NewGame((1, 2)), Land(1, 22))
    series = wealth_series(EDITION, records)
    french, english = (render_wealth_png(series, lang=lang) for lang in ("fr", "en"))
    assert french != english  # same lines, other words
    assert render_wealth_png(series, lang="xx") == english  # unknown language: English


def test_a_link_planted_where_the_chart_is_written_is_not_followed(tmp_path: Path) -> None:
    need_matplotlib()
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    target = tmp_path / "data" / "wealth-game-1.png"
    target.parent.mkdir()
    (target.parent / "wealth-game-1.png.tmp").symlink_to(victim)
    with pytest.raises(BankError, match=r"wealth-game-1\.png"):
        write_end_chart(EDITION, play(NewGame((1, 2))), target)
    assert victim.read_text() == "keep me\n"


# ---------------------------------------------------------------------- a classic game


def classic_records(tmp_path: Path) -> list[Any]:
    """The records of ``classic_table.tap``: 8 players, a hotel, houses, a mortgage, a trade."""
    from bank.services.journal import Journal
    from tests.web.conftest import play_classic_script

    play_classic_script(tmp_path)
    with Journal(tmp_path / "journal.sqlite") as journal:
        return list(journal.records())


def test_a_classic_series_follows_the_worth_the_ranking_uses(tmp_path: Path) -> None:
    classic = load_edition("classic-fr")
    series = wealth_series(classic, classic_records(tmp_path))
    assert [p.card for p in series.players] == list(range(1, 9))
    state = json.loads((tmp_path / "state.json").read_text())
    # the last point of each player is the state file's worth (cash, deeds, buildings)
    assert [p.total[-1] for p in series.players] == [p["worth"] for p in state["players"]]
    assert [p.money[-1] for p in series.players] == [p["balance"] for p in state["players"]]
    dog = series.players[0]
    # after the 8 houses (transaction 11): buildings count at cost, deeds at their price
    assert (dog.money[10], dog.total[10]) == (1500 - 120 - 8 * 50, 1500)
    iron = series.players[4]
    assert iron.total[-1] == iron.money[-1] + 100  # a mortgaged station counts half


def test_the_chart_of_eight_players_has_eight_series_apart_in_colour_and_marker(
    tmp_path: Path,
) -> None:
    need_matplotlib()
    from bank.views.charts import PLAYER_MARKERS, wealth_figure

    classic = load_edition("classic-fr")
    series = wealth_series(classic, classic_records(tmp_path))
    fig = wealth_figure(series, lang="fr", worth=True)
    (ax,) = fig.axes
    lines = {line.get_gid(): line for line in ax.get_lines()}
    assert set(lines) == {f"{kind}-{card}" for kind in ("money", "total") for card in range(1, 9)}
    colours = {lines[f"money-{card}"].get_color() for card in range(1, 9)}
    markers = {lines[f"money-{card}"].get_marker() for card in range(1, 9)}
    assert colours == {PLAYER_COLOURS[card] for card in range(1, 9)} and len(colours) == 8
    assert markers == set(PLAYER_MARKERS.values()) and len(markers) == 8
    for p in series.players:  # each line is that player's series (and the last value held)
        assert list(lines[f"money-{p.card}"].get_ydata()) == [*p.money, p.money[-1]]
        assert list(lines[f"total-{p.card}"].get_ydata()) == [*p.total, p.total[-1]]
        assert lines[f"total-{p.card}"].get_linestyle() == "--"
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend[:8] == ["chien", "voiture", "chapeau", "bateau", "fer", "dé", "chaussure",
                          "brouette"]  # fmt: skip
    assert legend[-1] == "valeur (argent, titres, bâtiments)"
    png = render_wealth_png(series, lang="fr", worth=True)
    assert _png_size(png) == (800, 540)  # taller: the legend of 8 players


def test_an_ultime_chart_keeps_its_words_and_size() -> None:
    need_matplotlib()
    from bank.views.charts import wealth_figure

    series = wealth_series(EDITION, play(NewGame((1, 2)), Land(1, 22)))
    fig = wealth_figure(series, lang="en")
    assert [t.get_text() for t in fig.legends[0].get_texts()][-1] == "money + properties"
    assert _png_size(render_wealth_png(series)) == (800, 450)


def test_the_end_chart_of_a_classic_game_is_written(tmp_path: Path) -> None:
    need_matplotlib()
    out = write_end_chart(
        load_edition("classic-fr"), classic_records(tmp_path), tmp_path / "wealth.png", "en"
    )
    assert _png_size(out.read_bytes()) == (800, 540)


def test_a_mega_series_counts_skyscrapers_and_depots_as_the_ranking_does(
    tmp_path: Path,
) -> None:
    """``mega_table.tap``: the brown group built to a skyscraper, a depot on a station."""
    from bank.services.journal import Journal
    from tests.web.conftest import MEGA_SCRIPT, play_script

    play_script(tmp_path, MEGA_SCRIPT, ["--edition", "mega-fr"])
    with Journal(tmp_path / "journal.sqlite") as journal:
        records = list(journal.records())
    mega = load_edition("mega-fr")
    series = wealth_series(mega, records)
    dog, racecar, _tophat, ship = series.players
    # transaction 20, the skyscraper on Belleville: 50 paid, the worth unchanged
    assert dog.money[19] == dog.money[18] - 50 and dog.total[19] == dog.total[18]
    # transaction 23, the depot on Gare Montparnasse: 100 paid, the worth unchanged
    assert racecar.money[22] == racecar.money[21] - 100
    assert racecar.total[22] == racecar.total[21]
    # at the end: cash, deeds at their price, the skyscraper as the hotel and the 4 houses
    # it replaced plus its own price (E10), the two hotels, the depot at its cost
    assert dog.money[-1] == 2500 - 200 - 15 * 50 - 50 + 750
    assert dog.total[-1] == dog.money[-1] + (60 + 60 + 80) + (5 * 50 + 50) + 2 * (5 * 50)
    assert racecar.total[-1] == racecar.money[-1] + 200 + 200 + 100
    assert ship.total[-1] == ship.money[-1] + 3 * 100 + 3 * 50 + 140 // 2
    state = json.loads((tmp_path / "state.json").read_text())
    assert [p.total[-1] for p in series.players] == [p["worth"] for p in state["players"]]
    need_matplotlib()
    png = render_wealth_png(series, lang="fr", worth=True)
    assert _png_size(png) == (800, 450)


# ---------------------------------------------------------------------- what the outcomes mark


def test_the_chart_marks_an_ultime_bankruptcy_and_the_end_from_the_outcome() -> None:
    commands: list[Command] = [NewGame((1, 2)), Land(1, 22), Land(1, 21)]
    commands += [Land(2, 22)] * 3  # the third rent bankrupts the helicopter: game over
    records = play(*commands)
    series = wealth_series(EDITION, records)
    assert [(m.step, m.kind, m.card) for m in series.marks] == [
        (6, "eliminated", 2),
        (6, "game_over", 1),
    ]
    assert records[-1]["outcome"]["bankrupt"] == 2 and records[-1]["outcome"]["v"] == 2
    # the marks are the journalled outcome's word, not the balances': an outcome that says
    # nobody went bankrupt and the game went on draws none
    del records[-1]["outcome"]["bankrupt"]
    records[-1]["outcome"]["happened"]["game_over"] = False
    assert wealth_series(EDITION, records).marks == ()


def _classic_bankruptcies() -> tuple[Any, list[dict[str, Any]]]:
    """A classic game of three where the car and the hat go bankrupt in turn to the dog: the
    first leaves the game, the second ends it."""
    from bank.rulesets.classic import commands as c
    from tests.rulesets.classic_support import balance, new_game, run

    game = new_game(3)
    run(game, c.PayBank(2, balance(game, 2) - 4), c.PayBank(3, balance(game, 3) - 6))
    run(game, c.PlayCard("chest", 9, 1))  # birthday: 10 from each, neither can pay it all
    run(game, c.DeclareBankruptcy(2), c.DeclareBankruptcy(3))
    return game.edition, list(game.journal.records())  # type: ignore[union-attr]


def test_the_chart_marks_each_classic_bankruptcy_and_the_end_from_the_outcomes() -> None:
    edition, records = _classic_bankruptcies()
    series = wealth_series(edition, records)
    n = len(records)
    assert [(m.step, m.kind, m.card) for m in series.marks] == [
        (n - 1, "eliminated", 2),
        (n, "eliminated", 3),
        (n, "game_over", 1),
    ]
    assert series.game_over and series.winner == 1


def test_the_marks_are_drawn_with_their_words(tmp_path: Path) -> None:
    need_matplotlib()
    from bank.views.charts import wealth_figure

    edition, records = _classic_bankruptcies()
    fig = wealth_figure(wealth_series(edition, records), lang="fr", worth=True)
    (ax,) = fig.axes
    lines = {line.get_gid(): line for line in ax.get_lines()}
    assert {"mark-eliminated-2", "mark-eliminated-3", "mark-game_over-1"} <= set(lines)
    assert lines["mark-eliminated-2"].get_color() == PLAYER_COLOURS[2]
    texts = {t.get_gid(): t.get_text() for t in ax.texts}
    assert texts["mark-eliminated-2-label"] == "voiture en faillite"
    assert texts["mark-game_over-1-label"] == "fin de la partie"
    en = wealth_figure(wealth_series(edition, records), lang="en", worth=True)
    assert {t.get_gid(): t.get_text() for t in en.axes[0].texts}["mark-eliminated-3-label"] == (
        "top hat bankrupt"
    )
