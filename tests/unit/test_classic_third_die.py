"""The unit's third die (docs/classic.md §3.15, §8.2, §8.4; READINGS D1, E1, E2, E13), through
``ultibank script``: an edition declares the die's six faces (``[classic] third_die``), a
``roll A B T`` line fixes it, the transcript's dice line and the state file's ``last_roll``
show it. The edition here is classic-fr with Méga's speed die added, so that these tests pin
the plumbing whatever the Méga rules do with the faces.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bank.cli import main
from bank.rulesets.classic.rules import die
from board_assets import EDITIONS_DIR
from tests.support.editions import house_copy

SPEED = '["1", "2", "3", "mr", "mr", "bus"]'
START = "tap bank:1\ntap bank:2\npress ok\n"
ROLL_DOG = "press menu\nkey 11\ntap bank:1\n"


def speed_edition(tmp_path: Path, in_jail: bool = False) -> Path:
    """classic-fr with a speed die (a house edition, as a user would write one)."""
    text = house_copy((EDITIONS_DIR / "classic-fr.toml").read_text(encoding="utf-8"))
    extra = f"third_die = {SPEED}\nthird_die_in_jail = {'true' if in_jail else 'false'}\n"
    text = text.replace("[classic]\n", "[classic]\n" + extra, 1)
    path = tmp_path / "speedy.toml"
    path.write_text(text, encoding="utf-8")
    return path


def play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], edition: str, text: str, *args: str
) -> tuple[list[str], dict[str, Any]]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    script = tmp_path / "game.tap"
    script.write_text(text, encoding="utf-8")
    argv = ["script", str(script), "--edition", edition, *args, "--state", "-"]
    assert main([*argv, "--data-dir", str(tmp_path / "d")]) == 0, capsys.readouterr().err
    captured = capsys.readouterr()
    return captured.err.splitlines(), json.loads(captured.out)


def dice_lines(transcript: list[str]) -> list[str]:
    return [line.split(" | ", 1)[1] for line in transcript if " screen dice" in line]


def test_a_number_on_the_third_die_adds_to_the_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edition = str(speed_edition(tmp_path))
    transcript, state = play(tmp_path, capsys, edition, START + "roll 3 4 2\n" + ROLL_DOG)
    assert dice_lines(transcript) == ["chien : 3+4+2=9"]
    assert state["last_roll"] == {"card": 1, "dice": [3, 4], "third": 2, "doubles": 0}


@pytest.mark.parametrize(
    ("face", "shown"),
    [("mr", "chien : 1 + 2 = 3 / M. Monopoly"), ("bus", "chien : 1 + 2 = 3 / Bus")],
)
def test_a_symbol_on_the_third_die_is_named_and_recorded(
    face: str, shown: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edition = str(speed_edition(tmp_path))
    transcript, state = play(tmp_path, capsys, edition, START + f"roll 1 2 {face}\n" + ROLL_DOG)
    assert dice_lines(transcript) == [shown]
    assert state["last_roll"]["third"] == face


def test_a_double_with_a_symbol_says_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edition = str(speed_edition(tmp_path))
    transcript, state = play(tmp_path, capsys, edition, START + "roll 5 5 bus\n" + ROLL_DOG)
    assert dice_lines(transcript) == ["chien : 5 + 5 = 10 / double · Bus"]
    assert state["last_roll"]["doubles"] == 1


def test_a_triple_is_no_double_and_ends_a_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edition = str(speed_edition(tmp_path))
    rolls = "roll 1 1 mr\nroll 2 2 bus\nroll 3 3 3\n" + ROLL_DOG * 3
    transcript, state = play(tmp_path, capsys, edition, START + rolls)
    assert dice_lines(transcript)[-1] == "chien : 3+3+3=9 / Triple !"
    assert state["last_roll"] == {"card": 1, "dice": [3, 3], "third": 3, "doubles": 0}
    assert not state["players"][0]["jailed"]  # a triple after two doubles: no jail (§7.2)
    # and the row starts again: two more doubles do not jail
    more = rolls + "roll 4 4 1\nroll 5 5 2\n" + ROLL_DOG * 2
    _, state = play(tmp_path / "more", capsys, edition, START + more)
    assert state["last_roll"]["doubles"] == 2 and not state["players"][0]["jailed"]


def test_without_a_roll_line_the_third_die_comes_from_the_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edition = str(speed_edition(tmp_path))
    _, state = play(tmp_path, capsys, edition, START + ROLL_DOG, "--seed", "11")
    faces = ["1", "2", "3", "mr", "mr", "bus"]
    want = faces[die(11, 1, 2) - 1]
    assert state["last_roll"]["dice"] == [die(11, 1, 0), die(11, 1, 1)]
    assert state["last_roll"]["third"] == (int(want) if want.isdigit() else want)


def test_a_jailed_roller_rolls_the_white_dice_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edition = str(speed_edition(tmp_path))
    jail = "press menu\nkey 2\ntap bank:1\n"
    transcript, state = play(tmp_path, capsys, edition, START + jail + "roll 1 2 3\n" + ROLL_DOG)
    assert dice_lines(transcript) == ["chien : 1 + 2 = 3 / Pas de double (1/3)"]
    assert state["last_roll"]["third"] is None  # E1: the queued T is lost
    # an edition whose third die rolls in jail too (Star Wars) keeps it
    (tmp_path / "j").mkdir()
    edition = str(speed_edition(tmp_path / "j", in_jail=True))
    _, state = play(tmp_path / "j", capsys, edition, START + jail + "roll 1 2 3\n" + ROLL_DOG)
    assert state["last_roll"]["third"] == 3


@pytest.mark.parametrize(
    ("edition", "line", "message"),
    [
        ("classic-fr", "roll 1 2 3", "this edition has no third die"),
        ("speedy", "roll 1 2 light", "the third die has no face 'light'"),
        ("speedy", "roll 1 2 4", "the third die has no face '4'"),
        ("speedy", "roll 1 7 mr", "each die is 1 to 6"),
        ("speedy", "roll 1", "expected `roll A B T` or `roll A B`"),
    ],
)
def test_a_third_die_the_edition_does_not_have_is_a_parse_error(
    edition: str, line: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if edition == "speedy":
        edition = str(speed_edition(tmp_path))
    script = tmp_path / "bad.tap"
    script.write_text(START + line + "\n", encoding="utf-8")
    assert main(["script", str(script), "--edition", edition, "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{script}:4: ") and message in err
    assert "Traceback" not in err


def test_the_edition_refuses_a_third_die_that_is_not_six_known_faces(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = speed_edition(tmp_path)
    path.write_text(path.read_text(encoding="utf-8").replace(SPEED, '["1", "2", "x"]'), "utf-8")
    script = tmp_path / "ok.tap"
    script.write_text(START, encoding="utf-8")
    assert main(["script", str(script), "--edition", str(path), "--data-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "classic.third_die: expected the 6 faces of the die" in err
    assert "Traceback" not in err


def test_mega_rolls_the_speed_die_unless_the_game_says_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = START + "roll 2 3 bus\n" + ROLL_DOG
    transcript, state = play(tmp_path / "on", capsys, "mega-uk", text)
    assert dice_lines(transcript) == ["dog: 2 + 3 = 5 / Bus"]
    transcript, state = play(
        tmp_path / "off", capsys, "mega-uk", text, "--set", "mega.speed_die=false"
    )
    assert dice_lines(transcript) == ["dog: 2 + 3 = 5"]
    assert state["last_roll"]["third"] is None


def test_a_wrong_mega_key_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "ok.tap"
    script.write_text(START, encoding="utf-8")
    argv = ["script", str(script), "--edition", "mega-fr", "--data-dir", str(tmp_path)]
    assert main([*argv, "--set", "mega.depot_cost=-5"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "mega.depot_cost" in err
    assert "Traceback" not in err
