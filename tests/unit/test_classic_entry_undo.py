"""Entry that cannot hurt (issue 17, point 5).

A typed amount longer than the entry allows is refused with the error cue and the digits kept
for ⌫, never cut to its first six digits; a transaction that opens a debt (a wrong amount typed
at `Payer la banque`) can be undone once, and the debt goes with it.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

from bank.script import run_script

START = "tap bank:1\ntap bank:2\npress ok\n"


def play(tmp: Path, body: str) -> tuple[list[str], dict[str, object]]:
    script = tmp / "t.tap"
    script.write_text(START + body, encoding="utf-8")
    out = io.StringIO()
    state = tmp / "state.json"
    code = run_script(script, "classic-fr", tmp / "data", state, out=out)
    assert code == 0, out.getvalue()
    lines = [line.split(None, 1)[1] for line in out.getvalue().splitlines() if line.strip()]
    return lines, json.loads(state.read_text(encoding="utf-8"))


def _player(state: dict[str, object], card: int) -> dict[str, object]:
    players = state["players"]
    assert isinstance(players, list)
    return next(p for p in players if p["card"] == card)


def test_a_seventh_digit_is_refused_never_cut_and_the_debt_it_opened_can_be_undone(
    tmp_path: Path,
) -> None:
    lines, state = play(
        tmp_path,
        "press menu\nkey 5\ntap bank:2\nkey 1234567\npress ok\nhold ok+cancel 5.5\n",
    )
    at = lines.index("screen entry 123456 {keypad} | Montant ? / 123456  ✓ valider")
    assert lines[at + 1 : at + 3] == [
        "cue error",
        "screen error {error} | Refusé / 6 chiffres au plus",
    ]
    # ✓ pays what the screen showed (123 456: a debt of 121 956), then undo takes it all back
    assert any(line.startswith("screen debt [racecar] 121956") for line in lines)
    assert "screen undo {undo} | Annulé / Dernière opération" in lines
    racecar = _player(state, 2)
    assert racecar["balance"] == 1500 and racecar["debt"] == 0
    assert state["undo_available"] is False  # once


def test_the_digits_kept_after_a_refusal_are_taken_back_with_back(tmp_path: Path) -> None:
    lines, state = play(
        tmp_path,
        "press menu\nkey 5\ntap bank:2\nkey 1234567\nkey back\nkey back\nkey back\npress ok\n",
    )
    assert "screen entry 123 {keypad} | Montant ? / 123  ✓ valider" in lines
    assert _player(state, 2)["balance"] == 1500 - 123


def test_a_seventh_digit_of_a_bid_is_refused_too(tmp_path: Path) -> None:
    lines, _ = play(tmp_path, "tap deed:1\npress menu\npress ok\nkey 1234567\nkey back\n")
    at = next(i for i, line in enumerate(lines) if line.endswith("/ > 123456"))
    assert lines[at + 1 : at + 3] == [
        "cue error",
        "screen error {error} | Refusé / 6 chiffres au plus",
    ]
    assert lines[at + 3].endswith("/ > 12345")


def test_undo_during_a_debt_stays_refused_once_something_was_done_about_it(
    tmp_path: Path,
) -> None:
    """Only the transaction that opened the debt, before anything else, is undone with it."""
    lines, state = play(
        tmp_path,
        "tap deed:1\ntap bank:2\n"  # racecar buys Belleville (60)
        "press menu\nkey 5\ntap bank:2\nkey 1500\npress ok\n"  # a debt of 60
        "press menu\nkey 9\ntap bank:2\ntap deed:1\npress ok\n"  # a mortgage for it (30)
        "hold ok+cancel 5.5\n",
    )
    assert lines[-2:] == ["cue error", "screen error {error} | Refusé / Dette d'abord"]
    racecar = _player(state, 2)
    assert racecar["debt"] == 30 and racecar["balance"] == 0  # nothing was undone
