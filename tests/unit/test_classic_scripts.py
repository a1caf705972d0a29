"""The classic tap scripts (docs/classic.md §8) through ``ultibank script``: the spec's two examples
give their state files exactly, and each scenario of ``tests/scripts/classic/`` (one per menu
item, per entry kind, power cuts, cards of the other ruleset) gives its transcript and state.

A scenario's command-line options are on its ``# args:`` line. After an intended change of
behaviour, rewrite the expected files with ``ULTIBANK_WRITE_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

import pytest

from bank.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scripts" / "classic"
EXAMPLES = ROOT / "tests" / "rulesets" / "classic_examples"
WRITE = os.environ.get("ULTIBANK_WRITE_GOLDEN") == "1"
ALL = sorted(SCENARIOS.glob("*.tap"))


def args_of(path: Path) -> list[str]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# args:"):
            return shlex.split(line.removeprefix("# args:"))
    raise AssertionError(f"{path.name} has no '# args:' line")


def run(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """(transcript, state file) of ``ultibank script PATH ARGS --state -``."""
    argv = ["script", str(path), *args_of(path), "--data-dir", str(tmp_path / "d")]
    assert main([*argv, "--state", "-"]) == 0, capsys.readouterr().err
    captured = capsys.readouterr()
    return captured.err, captured.out


@pytest.mark.parametrize("name", ["01_classic_first_game", "02_classic_jail_trade"])
def test_the_spec_examples_give_their_state_files_exactly(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = EXAMPLES / f"{name}.tap"
    argv = ["script", str(script), "--edition", "classic-fr", "--state", "-"]
    assert main([*argv, "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    want = (EXAMPLES / f"{name}.state.json").read_text(encoding="utf-8")
    assert json.loads(out) == json.loads(want)
    assert out == want  # byte for byte: one player and one deed a line, as the spec writes it


def test_every_menu_item_and_entry_kind_has_a_scenario() -> None:
    stems = {p.stem for p in ALL}
    for item in (
        "m01",
        "m02",
        "m03_m04",
        "m05_m06",
        "m07",
        "m08",
        "m09",
        "m10",
        "m11",
        "m12",
        "m13",
        "m16",
    ):
        assert any(s.startswith(item) for s in stems), item
    assert {"m05_m06_keypad_entry", "m05_m06_button_entry", "p_power_cuts"} <= stems


def test_every_mega_rule_has_a_scenario_in_both_mega_editions() -> None:
    """Issue 13: a scenario per Méga rule (§7.2), in mega-fr and in mega-uk."""
    stems = {p.stem for p in ALL}
    for rule in (
        "speed_die",
        "triples",
        "majority_build",
        "rent_x3",
        "skyscraper",
        "depot",
        "utilities",
        "gift_notes",
        "auction_space",
        "must_lift",
    ):
        assert {f"mega_{rule}", f"mega_{rule}_uk"} <= stems, rule
        for stem, edition in ((f"mega_{rule}", "mega-fr"), (f"mega_{rule}_uk", "mega-uk")):
            assert args_of(SCENARIOS / f"{stem}.tap") == ["--edition", edition], stem


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_scenario_transcript_and_state(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    transcript, state = run(path, tmp_path, capsys)
    want_transcript = path.with_suffix(".expect")
    want_state = path.with_suffix(".state.json")
    if WRITE:
        want_transcript.write_text(transcript, encoding="utf-8")
        want_state.write_text(state, encoding="utf-8")
    assert transcript == want_transcript.read_text(encoding="utf-8")
    assert state == want_state.read_text(encoding="utf-8")


# ---------------------------------------------------------------- behaviour, spelled out


def play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *args: str
) -> tuple[list[str], dict[str, Any]]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    script = tmp_path / "game.tap"
    script.write_text(text, encoding="utf-8")
    argv = ["script", str(script), "--edition", "classic-fr", *args, "--state", "-"]
    assert main([*argv, "--data-dir", str(tmp_path / "d")]) == 0, capsys.readouterr().err
    captured = capsys.readouterr()
    state: dict[str, Any] = json.loads(captured.out)
    return captured.err.splitlines(), state


def balances(state: dict[str, Any]) -> list[int]:
    return [p["balance"] for p in state["players"]]


START = "tap bank:1\ntap bank:2\npress ok\n"


def test_keypad_and_buttons_enter_the_same_amount(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, typed = play(
        tmp_path / "a", capsys, START + "press menu\nkey 5\ntap bank:1\nkey 150\npress ok\n"
    )
    buttons = "press menu\n" * 2 + "press ok\n" + "press menu\npress ok\n" + "press menu\n" * 5
    _, counted = play(
        tmp_path / "b", capsys, START + "press menu\nkey 5\ntap bank:1\n" + buttons + "press ok\n"
    )
    assert balances(typed) == balances(counted) == [1350, 1500]


def test_a_second_digit_makes_item_11_and_an_unknown_pair_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines, state = play(tmp_path, capsys, START + "press menu\nkey 9\nkey 1\ntap bank:1\n")
    assert any("cue error" in line for line in lines)
    assert state["players"][0]["balance"] == 1500  # item 9 kept: a session, nothing paid
    lines, state = play(
        tmp_path / "b", capsys, START + "roll 3 4\npress menu\nkey 1\nkey 1\ntap bank:1\n"
    )
    assert state["last_roll"] == {"card": 1, "dice": [3, 4], "third": None, "doubles": 0}
    assert any(line.endswith("screen dice [dog] | chien : 3 + 4 = 7") for line in lines)


def test_the_seed_and_the_variants_are_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, state = play(tmp_path, capsys, START, "--seed", "42", "--set", "variants.free_parking=taxes")
    assert state["config"]["classic"]["dice_seed"] == 42
    assert state["config"]["variants"]["free_parking"] == "taxes"


def test_the_seed_decides_the_units_dice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roll = START + "press menu\nkey 11\ntap bank:1\n"
    rolls = {
        seed: play(tmp_path / str(seed), capsys, roll, "--seed", str(seed))[1]["last_roll"]
        for seed in range(6)
    }
    assert len({tuple(r["dice"]) for r in rolls.values()}) > 1
    again = play(tmp_path / "again", capsys, roll, "--seed", "3")[1]["last_roll"]
    assert again == rolls[3]


def test_a_wrong_variant_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "game.tap"
    script.write_text(START, encoding="utf-8")
    argv = ["script", str(script), "--edition", "classic-fr", "--set", "variants.nope=1"]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nope" in err[0]


@pytest.mark.parametrize(
    ("line", "edition", "message"),
    [
        ("tap deed:29", "classic-fr", "deed cards run 1..28, not 29"),
        ("tap bank:9", "classic-fr", "bank cards run 1..8, not 9"),
        ("tap chance:17", "ultime-fr", "chance cards run 1..16, not 17"),
        ("roll 7 1", "classic-fr", "each die is 1 to 6"),
        ("roll 1 2 bus", "classic-fr", "no third die"),
        ("key 1a", "classic-fr", "key DIGITS"),
        ("info weather", "classic-fr", "no info screen"),
    ],
)
def test_a_line_that_does_not_parse_stops_with_file_line(
    line: str, edition: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "bad.tap"
    script.write_text(START + line + "\n", encoding="utf-8")
    assert main(["script", str(script), "--edition", edition]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{script}:4: ") and message in err


def test_a_power_cut_keeps_the_interest_question_and_drops_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = SCENARIOS / "p_power_cuts.tap"
    transcript, state_text = run(path, tmp_path, capsys)
    state = json.loads(state_text)
    lines = transcript.splitlines()
    # the build session did not survive: the tap after the cut is a check (one house only)
    assert state["properties"][0]["houses"] == 1 and state["properties"][1]["houses"] == 0
    # the entry (12) was not paid, the auction (racecar's 10) did not sell deed 5
    assert state["properties"][4]["owner"] is None
    # the trade of Belleville never happened; Avenue Mozart went to racecar, kept mortgaged
    assert state["properties"][0]["owner"] == 1
    assert (
        state["properties"][11] | {"owner": 2, "mortgaged": True, "interest_due": False}
        == (state["properties"][11])
    )
    ons = [i for i, line in enumerate(lines) if "screen off" in line]
    assert len(ons) == 5
    # after the last cut the interest question is the first screen
    after = [line for line in lines[ons[-1] + 1 :] if " screen " in line]
    assert "screen interest #12" in after[0] and "✓garder 9 M lever 99" in after[0]
    assert balances(state) == [1500 - 60 - 60 - 50 - 180 + 90, 1500 - 9]


def test_on_a_stored_game_the_recorded_variants_win_and_it_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "d"
    first = tmp_path / "first.tap"
    first.write_text(START, encoding="utf-8")
    assert main(["script", str(first), "--edition", "classic-fr", "--data-dir", str(data)]) == 0
    capsys.readouterr()
    more = tmp_path / "more.tap"
    more.write_text("press menu\nkey 3\ntap bank:1\n", encoding="utf-8")
    argv = ["script", str(more), "--data-dir", str(data), "--state", "-"]
    assert main([*argv, "--set", "variants.free_parking=taxes", "--seed", "9"]) == 0
    captured = capsys.readouterr()
    state = json.loads(captured.out)
    assert state["edition"] == "classic-fr"  # the stored game goes on in its own edition
    assert state["config"]["variants"]["free_parking"] == "off"
    assert state["config"]["classic"]["dice_seed"] == 0
    assert state["pot"] == 0 and state["players"][0]["balance"] == 1300
    assert "the stored game keeps the classic and variants values" in captured.err
