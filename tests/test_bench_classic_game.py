"""The workload of ``python -m bench classic``: a seeded generator of whole classic games
(``bench/classic_game.py``). The same seed gives the same script; ``ultibank script`` replays
it to the very transcript the generator saw; the game plays every kind of gesture the issue
names; the edition is a parameter."""

from __future__ import annotations

from pathlib import Path

import pytest

from bank.cli import main
from bench.classic_game import classic_game

#: a screen for each kind of gesture: registration, purchase, rent, auction, build, sell,
#: mortgage, lift, trade, interest question, card, jail, dice, GO, tax, debt, bankruptcy
KINDS = [
    "game_started",
    "bought",
    "rent",
    "sold",
    "built",
    "building_sold",
    "mortgaged",
    "lifted",
    "traded",
    "interest",
    "card_done",
    "jail",
    "jail_out",
    "dice",
    "go",
    "tax",
    "debt",
    "debt_settled",
    "bankrupt",
]


@pytest.fixture(scope="module")
def game() -> object:
    return classic_game(2, 2000)


def test_the_same_seed_gives_the_same_script() -> None:
    a, b, c = classic_game(5, 300), classic_game(5, 300), classic_game(6, 300)
    assert a.lines == b.lines and a.gestures == 300
    assert a.lines != c.lines


def test_a_whole_game_plays_every_kind_of_gesture(game: object) -> None:
    from bench.classic_game import ClassicGame

    assert isinstance(game, ClassicGame)
    assert game.gestures == 2000
    missing = [k for k in KINDS if not game.screens[k]]
    assert not missing, missing
    assert game.eliminated >= 1 and not game.over  # bankruptcies, and the game goes on
    assert game.refusals <= 0.01 * game.gestures  # gestures a table would make, not noise


def test_ultibank_script_replays_the_generated_game_exactly(
    game: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bench.classic_game import ClassicGame

    assert isinstance(game, ClassicGame)
    path = tmp_path / "game.tap"
    path.write_text(game.script(), encoding="utf-8")
    argv = ["script", str(path), "--edition", "classic-fr", "--data-dir", str(tmp_path / "d")]
    assert main(argv) == 0
    assert capsys.readouterr().out == game.transcript


@pytest.mark.parametrize(
    ("edition", "players"),
    [("classic-uk", 8), ("starwars-ep2-fr", 8), ("one-piece-fr", 6), ("mega-fr", 8)],
)
def test_the_edition_is_a_parameter(edition: str, players: int) -> None:
    got = classic_game(3, 400, edition, players)
    assert got.gestures == 400 and got.screens["new_game"] == players
    assert got.screens["bought"] and got.screens["rent"]
    assert f"--edition {edition}" in got.script()


def test_a_long_game_reaches_the_transactions_asked(tmp_path: Path) -> None:
    got = classic_game(4, edition="classic-fr", data_dir=tmp_path, transactions=600)
    assert got.transactions >= 600 and not got.over
    assert any(tmp_path.iterdir())  # the stored game's journal


def test_the_command_writes_a_script(tmp_path: Path) -> None:
    from bench.classic_game import main as generate

    out = tmp_path / "g.tap"
    assert generate(["--seed", "7", "--gestures", "120", "-o", str(out)]) == 0
    lines = [ln for ln in out.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    assert len(lines) == 120 and lines[:2] == ["tap bank:1", "tap bank:2"]


@pytest.mark.parametrize(("edition", "players"), [("classic-fr", 8), ("ultime-fr", 4)])
def test_the_tap_figure_times_one_durable_go_per_tap(
    tmp_path: Path, edition: str, players: int
) -> None:
    """What ``bench classic`` times: M then a bank card, each tap one durable +200."""
    from bench.bench_classic import _GoTable

    table = _GoTable(tmp_path, edition, players)
    try:
        before = [p.balance for p in table.rt.game.state.players]
        for _ in range(players):
            assert table.tap() > 0
        after = [p.balance for p in table.rt.game.state.players]
    finally:
        table.close()
    assert [a - b for a, b in zip(after, before, strict=True)] == [200] * players


def test_a_mega_game_builds_under_the_majority_rule_and_replays_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The Méga workload of `python -m bench classic` (issue 13): the generator builds with
    all lots of a group but one (§7.2), raises money from depots and lots of other players'
    built groups, and `ultibank script` replays it to the transcript the generator saw."""
    mega = classic_game(1, 2000, "mega-fr", 8)
    assert mega.gestures == 2000 and mega.screens["built"] and mega.screens["building_sold"]
    assert mega.eliminated >= 1 and mega.refusals <= 0.01 * mega.gestures
    path = tmp_path / "mega.tap"
    path.write_text(mega.script(), encoding="utf-8")
    argv = ["script", str(path), "--edition", "mega-fr", "--data-dir", str(tmp_path / "d")]
    assert main(argv) == 0
    assert capsys.readouterr().out == mega.transcript
