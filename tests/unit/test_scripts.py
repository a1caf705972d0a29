"""Tap scripts: the docs/scripts.md examples, one scenario per gesture and per event card, parsing,
power cycles and a whole game."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from bank.engine.errors import ScriptError
from bank.script import parse_script, run_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "scripts"
EXAMPLE_GAME = ROOT / "docs" / "example-game.tap"
PLAYER_KEYS = ("card", "token", "balance", "jailed", "debt", "bankrupt")


def contract(state: dict[str, object]) -> dict[str, object]:
    """The keys docs/scripts.md fixes (extra keys are allowed and not compared)."""
    players = state["players"]
    props = state["properties"]
    assert isinstance(players, list) and isinstance(props, list)
    return {
        "edition": state["edition"],
        "game_over": state["game_over"],
        "winner": state["winner"],
        "undo_available": state["undo_available"],
        "players": [{k: p[k] for k in PLAYER_KEYS} for p in players],
        "properties": [{k: p[k] for k in ("number", "owner", "level")} for p in props],
    }


def run(path: Path, tmp: Path, data_dir: Path | None = None) -> tuple[dict[str, object], str]:
    out = io.StringIO()
    state_file = tmp / f"{path.stem}.state.out.json"
    assert run_script(path, data_dir=data_dir, state_out=state_file, out=out) == 0
    return json.loads(state_file.read_text(encoding="utf-8")), out.getvalue()


def assert_in_order(transcript: str, expected: list[str]) -> None:
    lines = transcript.splitlines()
    at = 0
    for want in expected:
        for i in range(at, len(lines)):
            if want in lines[i]:
                at = i + 1
                break
        else:
            pytest.fail(f"not found after line {at} of the transcript: {want!r}\n{transcript}")


TAPS = sorted(SCRIPTS.glob("*.tap"))


def test_every_gesture_and_every_event_card_has_a_scenario() -> None:
    names = {p.stem for p in TAPS}
    events = {int(m.group(1)) for n in names if (m := re.match(r"e(\d\d)_", n))}
    assert events == set(range(1, 24))
    assert len([n for n in names if n.startswith("g")]) >= 18
    assert {"01_first_moves", "02_auction", "03_debt"} <= names


@pytest.mark.parametrize("path", TAPS, ids=[p.stem for p in TAPS])
def test_scenario(path: Path, tmp_path: Path) -> None:
    state, transcript = run(path, tmp_path)
    expected = json.loads(path.with_suffix(".state.json").read_text(encoding="utf-8"))
    assert contract(state) == contract(expected)
    expect_file = path.with_suffix(".expect")
    if expect_file.exists():
        wanted = [ln.strip() for ln in expect_file.read_text(encoding="utf-8").splitlines()]
        assert_in_order(transcript, [w for w in wanted if w and not w.startswith("#")])
    for line in transcript.splitlines():
        assert re.match(r"^ *\d+\.\d{3} (screen|cue) \S", line), line


def test_the_example_game_ends_with_a_bankruptcy_and_a_winner(tmp_path: Path) -> None:
    state, transcript = run(EXAMPLE_GAME, tmp_path)
    expected = json.loads((SCRIPTS / "example_game.state.json").read_text(encoding="utf-8"))
    assert contract(state) == contract(expected)
    assert state["game_over"] is True and state["winner"] == 1
    assert_in_order(transcript, ["screen game_over [car] 3370 {trophy}", "cue game_over"])


def _with_power_cycles(text: str) -> str:
    """The same script with a power cycle at every gesture boundary (each blank line)."""
    out = []
    for line in text.splitlines():
        out.append(line)
        if not line.strip():
            out += ["power off", "power on"]
    return "\n".join(out) + "\n"


def test_power_cycles_between_gestures_change_nothing(tmp_path: Path) -> None:
    plain, _ = run(EXAMPLE_GAME, tmp_path)
    cycled_script = tmp_path / "cycled.tap"
    cycled_script.write_text(_with_power_cycles(EXAMPLE_GAME.read_text(encoding="utf-8")))
    cycled, transcript = run(cycled_script, tmp_path)
    assert transcript.count("screen off") >= 20
    assert cycled == plain


def test_a_second_script_on_the_same_data_dir_continues_the_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    text = EXAMPLE_GAME.read_text(encoding="utf-8")
    cut = text.index("# Event: car's Champs")
    first, second = tmp_path / "first.tap", tmp_path / "second.tap"
    first.write_text(text[:cut])
    second.write_text(text[cut:])
    run(first, tmp_path, data)
    state, _ = run(second, tmp_path, data)
    whole, _ = run(EXAMPLE_GAME, tmp_path)
    assert state == whole


def test_power_cycle_with_every_line_of_a_debt_flow(tmp_path: Path) -> None:
    """Power cycles between every line while a debt is settled: the debt comes back each time."""
    lines = (SCRIPTS / "03_debt.tap").read_text(encoding="utf-8").splitlines()
    debt_starts = max(i for i, ln in enumerate(lines) if ln.startswith("tap bank:2"))
    cycled = lines[: debt_starts + 1]
    for line in lines[debt_starts + 1 :]:
        cycled += ["power off", "power on", line]
    script = tmp_path / "debt.tap"
    script.write_text("\n".join(cycled) + "\n")
    state, transcript = run(script, tmp_path)
    plain, _ = run(SCRIPTS / "03_debt.tap", tmp_path)
    assert contract(state) == contract(plain)
    assert transcript.count("screen debt [helicopter] 360") == 2


# ---------------------------------------------------------------- parsing and the command


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("jump 3", "unknown action 'jump'"),
        ("tap card:3", "not a card name"),
        ("tap bank:5", "bank cards run 1..4"),
        ("tap prop:0", "prop cards run 1..22"),
        ("tap event:24", "event cards run 1..23"),
        ("tap bank:dog", "not a card number"),
        ("tap uid:XYZ", "not a hex UID"),
        ("tap", "expected `tap"),
        ("press start", "no button 'start'"),
        ("hold menu+cancel 5", "cannot hold 'menu+cancel'"),
        ("hold menu+cancel 5", "cannot hold 'menu+cancel'"),
        ("hold cancel", "expected `hold"),
        ("hold cancel -1", "positive"),
        ("wait soon", "not a number of seconds"),
        ("wait -2", "non-negative"),
        ("wait nan", "non-negative"),
        ("power up", "power off or power on"),
    ],
)
def test_a_line_that_does_not_parse_exits_2_naming_file_and_line(
    line: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "bad.tap"
    script.write_text(f"tap bank:1\n# fine\n\n{line}   # a comment\ntap bank:2\n")
    out = io.StringIO()
    assert run_script(script, out=out) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{script}:4: ")
    assert message in err
    assert out.getvalue() == ""  # nothing ran


def test_parse_accepts_the_whole_language() -> None:
    actions = parse_script(
        "tap bank:1\ntap bank:car\ntap prop:22\ntap event:23\ntap uid:04:a1:b2:c3\n"
        "press ok\npress menu\npress cancel\nhold cancel 5\nhold ok+cancel 5.5\n"
        "wait 0.25\npower off\npower on\nreader lost\nreader back\npanel lost\npanel back\n"
    )
    assert [a.verb for a in actions] == (
        ["tap"] * 5
        + ["press"] * 3
        + ["hold"] * 2
        + ["wait", "power", "power"]
        + ["reader"] * 2
        + ["panel"] * 2
    )
    assert actions[4].uid == "04A1B2C3"
    assert parse_script("tap uid:abc")[0].uid == "ABC"  # an odd UID is only unknown
    with pytest.raises(ScriptError):
        parse_script("tap bank:9", "x.tap")


def test_unreadable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_script(tmp_path / "missing.tap", out=io.StringIO()) == 2
    assert "cannot read" in capsys.readouterr().err


def test_state_to_stdout_and_english_edition(tmp_path: Path) -> None:
    script = tmp_path / "uk.tap"
    script.write_text("tap bank:1\ntap bank:2\npress ok\ntap prop:22\ntap bank:2\n")
    out, err = io.StringIO(), io.StringIO()
    assert run_script(script, edition="ultimate-uk", state_out="-", out=out, err=err) == 0
    assert "screen bought #22 [helicopter] L1 400 | Mayfair / Bought 400 ₥" in err.getvalue()
    state = json.loads(out.getvalue())  # standard output is the state file alone
    assert state["edition"] == "ultimate-uk"
    assert state["properties"][21] == {"number": 22, "owner": 2, "level": 1}


def test_unknown_edition_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "a.tap"
    script.write_text("tap bank:1\n")
    assert run_script(script, edition="monopoly-moon", out=io.StringIO()) == 2
    said = capsys.readouterr().err
    assert "unknown edition" in said
    # the edition is at fault, not the script: FILE: is for the script's own lines (docs/scripts.md)
    assert said.startswith("ultibank: ") and "a.tap" not in said, said


def test_the_journal_replays_to_the_live_state(tmp_path: Path) -> None:
    """What the script reports is what the journal holds (re-opened by a later power-on)."""
    from bank.engine.game import Game
    from bank.services.journal import Journal
    from board_assets import load_edition

    data = tmp_path / "data"
    state, _ = run(SCRIPTS / "03_debt.tap", tmp_path, data)
    with Journal(data / "journal.sqlite") as journal:
        game = Game(load_edition("ultime-fr"), journal=journal)
        replayed = game.state.to_json()
        replayed["undo_available"] = game.undo_available
    assert contract(replayed) == contract(state)
