"""The time-limited game (docs/classic.md §3.14, variants.time_limit_minutes) through the unit: the
game ends when the unit's running time reaches the limit, at the next moment nothing is in
progress (READINGS C9), and never without the variant."""

from __future__ import annotations

import io
import json
from pathlib import Path

from bank.script import run_script

START = "tap bank:1\ntap bank:6\npress ok\n"


def play(tmp: Path, body: str, minutes: int = 1) -> tuple[str, dict[str, object]]:
    tmp.mkdir(parents=True, exist_ok=True)
    script = tmp / "t.tap"
    script.write_text(START + body, encoding="utf-8")
    out = io.StringIO()
    sets = (("variants", "time_limit_minutes", minutes),) if minutes else ()
    state = tmp / "state.json"
    code = run_script(script, "starwars-ep2-fr", tmp / "d", state, out, err=out, ruleset_sets=sets)
    assert code == 0, out.getvalue()
    return out.getvalue(), json.loads(state.read_text(encoding="utf-8"))


def test_an_idle_unit_ends_the_game_when_the_limit_is_reached(tmp_path: Path) -> None:
    transcript, state = play(tmp_path, "wait 59\n")
    assert not state["game_over"]
    transcript, state = play(tmp_path / "b", "wait 61\n")
    assert state["game_over"] and state["ranking"] == [1, 6]
    assert "  60.000 screen game_over" in transcript


def test_the_limit_waits_for_a_debt_to_be_settled(tmp_path: Path) -> None:
    body = (
        "tap deed:3\ntap bank:6\n"  # Dooku buys a station
        "press menu\nkey 5\ntap bank:6\nkey 1400\npress ok\n"  # 100 short: a debt
        "wait 90\n"  # the limit passes during the debt
        "press menu\nkey 9\ntap bank:6\ntap deed:3\n"  # mortgage +100: the debt is paid
    )
    transcript, state = play(tmp_path, body)
    assert state["game_over"]
    assert "game_over" not in transcript.split("  90.000")[0]
    assert "  90.000 screen game_over" in transcript


def test_without_the_variant_the_game_goes_on(tmp_path: Path) -> None:
    _, state = play(tmp_path, "wait 100000\n", minutes=0)
    assert not state["game_over"]


def test_after_the_limit_and_a_power_cut_the_undo_is_refused(tmp_path: Path) -> None:
    """READINGS C9 and C12: the limit passes during a deed's question, ends the game as soon as
    the unit is idle again, and a power cut brings back a finished game: the undo held after
    it is refused (``Partie finie``) and the purchase before the end stays."""
    body = (
        "wait 50\ntap deed:3\ntap bank:6\n"  # Dooku buys deed 3
        "wait 5\ntap deed:5\nwait 10\n"  # the limit passes while deed 5 asks for a buyer
        "power off\nwait 30\npower on\nhold ok+cancel 5\n"
    )
    transcript, state = play(tmp_path, body)
    assert state["game_over"] and not state["undo_available"]
    assert "  65.000 screen game_over" in transcript
    assert transcript.rstrip().endswith("Refusé / Partie finie"), transcript
    properties = state["properties"]
    assert isinstance(properties, list)
    assert properties[2]["owner"] == 6
