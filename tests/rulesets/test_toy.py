"""The toy ruleset ("two players, one property, pay 1 to land") runs through the whole bank.

It plugs in through the registry and its own edition file, and goes through ``ultibank
script``, the journal (a second script continues the game), undo and power cycles, without a
line of the Ultime package: the proof that the ruleset seam holds.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from bank import rulesets
from bank.cli import main
from bank.engine.commands import Land, NewGame
from bank.engine.errors import BankError
from bank.engine.game import Game
from bank.engine.records import decode_entries
from bank.services.journal import Journal
from bank.views.narrate import narrator_for
from board_assets import EditionError, load_edition_file
from tests.support import toy
from tests.support.editions import house_copy

ROOT = Path(__file__).resolve().parents[2]


def ultibank_script(
    tmp: Path, text: str, data: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[dict[str, object], str]:
    script = tmp / "game.tap"
    script.write_text(text, encoding="utf-8")
    state = tmp / "state.json"
    code = main(
        [
            "script",
            str(script),
            "--edition",
            str(toy.EDITION_FILE),
            "--data-dir",
            str(data),
            "--state",
            str(state),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(state.read_text(encoding="utf-8")), out


def balances(state: dict[str, object]) -> dict[int, int]:
    players = state["players"]
    assert isinstance(players, list)
    return {p["card"]: p["balance"] for p in players}


def test_the_toy_game_runs_through_ultibank_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state, transcript = ultibank_script(
        tmp_path, toy.SCRIPT.read_text(encoding="utf-8"), tmp_path / "data", capsys
    )
    assert state["edition"] == "toy"
    # red bought the spot (5 - 3); blue landed on it after a power cycle and paid 1
    assert balances(state) == {1: 5 - 3 + 1, 2: 5 - 1}
    assert state["properties"] == [{"number": 1, "owner": 1, "level": 1}]
    assert "screen toy_bought 3 | Bought 3" in transcript
    assert "screen toy_paid 1 | Paid 1" in transcript
    assert "Tap 2-2 bank cards" in transcript  # the edition says how many players
    assert "screen off" in transcript and "completed_groups" not in json.dumps(state)


def test_the_journal_continues_the_toy_game_and_undo_restores_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    first, _ = ultibank_script(tmp_path, toy.SCRIPT.read_text(encoding="utf-8"), data, capsys)
    # a second script on the same data directory resumes from the journal, then undoes the rent
    second, transcript = ultibank_script(tmp_path, "hold ok+cancel 5\ntap bank:2\n", data, capsys)
    assert "screen undo" in transcript
    assert balances(first) == {1: 5 - 3 + 1, 2: 5 - 1}
    assert balances(second) == {1: 5 - 3, 2: 5}
    with Journal(data / "journal.sqlite") as journal:
        replayed = Game(load_edition_file(toy.EDITION_FILE), journal=journal)
    assert replayed.state.to_json()["players"] == second["players"]


def test_power_cycles_between_every_gesture_change_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain, _ = ultibank_script(
        tmp_path, toy.SCRIPT.read_text(encoding="utf-8"), tmp_path / "a", capsys
    )
    # a power cycle at every gesture boundary (each blank line) abandons no transaction
    cycled = toy.SCRIPT.read_text(encoding="utf-8").replace("\n\n", "\n\npower off\npower on\n")
    state, transcript = ultibank_script(tmp_path, cycled + "\n", tmp_path / "b", capsys)
    assert transcript.count("screen off") > 3
    assert state == plain


def test_a_bankruptcy_ends_the_toy_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    land_blue = "tap prop:1\ntap bank:2\n"
    text = "tap bank:1\ntap bank:2\npress ok\ntap prop:1\ntap bank:1\n" + land_blue * 6
    state, transcript = ultibank_script(tmp_path, text, tmp_path / "data", capsys)
    assert state["game_over"] is True and state["winner"] == 1
    assert "screen game_over" in transcript and "cue game_over" not in transcript


def test_the_toy_edition_names_its_ruleset_and_its_schema_runs(tmp_path: Path) -> None:
    assert load_edition_file(toy.EDITION_FILE).ruleset == "toy"
    bad = tmp_path / "two.toml"
    text = toy.EDITION_FILE.read_text(encoding="utf-8")
    bad.write_text(
        text
        + text[text.index("[[properties]]") :]
        .replace("number = 1", "number = 2")
        .replace("position = 1", "position = 2"),
        encoding="utf-8",
    )
    with pytest.raises(EditionError, match=r"two\.toml: properties: the toy game has exactly one"):
        load_edition_file(bad)


def test_an_edition_of_an_unknown_ruleset_is_refused_when_a_game_is_built(tmp_path: Path) -> None:
    other = tmp_path / "other.toml"
    other.write_text(
        toy.EDITION_FILE.read_text(encoding="utf-8").replace(
            'ruleset = "toy"', 'ruleset = "chess"'
        ),
        encoding="utf-8",
    )
    with pytest.raises(BankError, match=r"unknown ruleset 'chess'; known: .*toy.*ultime"):
        Game(load_edition_file(other))


def test_an_edition_without_a_ruleset_is_ultime() -> None:
    text = (ROOT / "board_assets" / "editions" / "ultime-fr.toml").read_text(encoding="utf-8")
    assert "ruleset" not in text  # the shipped files predate the key, and still load as Ultime
    assert (
        rulesets.for_edition(load_edition_file(ROOT / "board_assets/editions/ultime-fr.toml")).name
        == "ultime"
    )


def test_the_toy_needs_no_line_of_the_ultime_package() -> None:
    """The toy imports the core only: adding a ruleset touches no other ruleset."""
    tree = ast.parse((ROOT / "tests/support/toy/__init__.py").read_text(encoding="utf-8"))
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported and not any(m.startswith("bank.rulesets.ultime") for m in imported)


def test_the_registry_checks_an_edition_against_its_ruleset_before_a_game() -> None:
    """An edition that reached the bank unchecked (here: the toy's file claimed by Ultime) is
    refused by the Ultime schema when a game is built, naming the file and the field."""
    from dataclasses import replace

    claimed = replace(load_edition_file(toy.EDITION_FILE), ruleset="ultime")
    with pytest.raises(
        EditionError, match=r"toy\.toml: constants\.levels: the unit has 5 rent levels, got 1"
    ):
        Game(claimed)


def test_which_special_spaces_a_board_has_is_its_rulesets(tmp_path: Path) -> None:
    """A CHANCE space suits the toy (the shared checks take any name in capitals); the Ultime
    schema knows its six special spaces and refuses it, naming the field."""
    toy_text = toy.EDITION_FILE.read_text(encoding="utf-8")
    chance = tmp_path / "chance.toml"
    chance.write_text(toy_text.replace('ring = ["GO", "P1"]', 'ring = ["GO", "CHANCE", "P1"]')
                      .replace("position = 1", "position = 2"), encoding="utf-8")  # fmt: skip
    assert load_edition_file(chance).constants.ring == ("GO", "CHANCE", "P1")
    ultime = house_copy((ROOT / "board_assets/editions/ultime-fr.toml").read_text(encoding="utf-8"))
    broken = tmp_path / "broken.toml"
    broken.write_text(ultime.replace('ring = ["GO", "P1", "EVENT"', 'ring = ["GO", "P1", "CHANCE"'))
    with pytest.raises(EditionError, match=r"broken\.toml: constants\.ring\[2\]: unknown space"):
        load_edition_file(broken)


def test_the_toy_journals_its_outcomes_and_is_told_in_plain_words(tmp_path: Path) -> None:
    """Its outcomes go into the journal through its own codec; a ruleset without words of its
    own is told by the core's plain narrator (the command and what moved, by card number)."""
    edition = load_edition_file(toy.EDITION_FILE)
    with Journal(tmp_path / "journal.sqlite") as journal:
        game = Game(edition, journal=journal)
        game.execute(NewGame((1, 2)))
        game.execute(Land(1, 1))
        records = decode_entries(journal.entries())
    assert [r.outcome for r in records] == [toy.Started(), toy.Bought(1, 3)]
    narrator = narrator_for(edition, "fr")
    title, detail = narrator.words(records[1], game.state)
    assert (title, detail) == ("land card=1 number=1", "card 1 → bank 3; #1 → card 1")
