"""An eliminated player's bank card is refused wherever it is tapped (docs/classic.md §3.13: "their
bank card is refused from then on (`Éliminé`)"), before any step opens for it.

Found by the classic unit's state machine (``test_classic_stateful.py``): the card opened a
build session, an amount entry, a trade, a utility's dice pick, showed a balance at idle and
during a debt, and the error came (if at all) only at the last gesture of each.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bank.script import run_script

#: three players; tophat (3) owes the bank more than it has and goes bankrupt; dog (1) owns
#: the Electric Company (deed 8)
START = (
    "tap bank:1\ntap bank:2\ntap bank:3\npress ok\n"
    "tap deed:8\ntap bank:1\n"
    "press menu\nkey 5\ntap bank:3\nkey 999999\npress ok\n"
    "press menu\nkey 16\npress ok\ntap bank:3\n"
)


def run(tmp_path: Path, body: str) -> tuple[list[str], dict[str, object]]:
    script = tmp_path / "t.tap"
    script.write_text(START + body, encoding="utf-8")
    out = io.StringIO()
    state_file = tmp_path / "state.json"
    code = run_script(script, "classic-fr", tmp_path / "d", state_file, out, err=out)
    assert code == 0, out.getvalue()
    state = json.loads(state_file.read_text(encoding="utf-8"))
    assert state["players"][2]["bankrupt"] is True, state["players"][2]
    return out.getvalue().splitlines(), state


@pytest.mark.parametrize(
    ("body", "step"),
    [
        ("", "bankrupt"),  # idle, the bankruptcy still shown: a check of the balance
        ("press menu\nkey 7\n", "menu"),  # build
        ("press menu\nkey 6\n", "menu"),  # receive from the bank: the entry would open
        ("press menu\nkey 10\ntap bank:1\n", "trade"),  # as the trade's second player
        ("tap deed:8\n", "deed"),  # a landing on the utility: the dice pick would open
        ("tap chance:9\n", "card"),  # the drawer of a card
    ],
)
def test_an_eliminated_card_is_refused_and_the_step_stays(
    tmp_path: Path, body: str, step: str
) -> None:
    lines, state = run(tmp_path, body + "tap bank:3\npress ok\n")
    tap = next(i for i in range(len(lines) - 1, -1, -1) if lines[i].endswith("cue read"))
    cue, refusal, *after = lines[tap + 1 :]
    assert cue.endswith("cue error"), lines[tap:]
    assert refusal.endswith("Refusé / Éliminé"), lines[tap:]
    # the step stayed: the ✓ after the refused card is taken by the step that was shown
    shown = [line for line in lines[:tap] if " screen " in line][-1]
    assert f"screen {step}" in shown, shown
    assert all("screen session" not in x and "screen entry" not in x for x in after), after
    players = state["players"]
    assert isinstance(players, list)
    balances = [p["balance"] for p in players]
    assert balances[2] == 0 and balances[1] == 1500, balances


def test_an_eliminated_card_is_refused_during_anothers_debt(tmp_path: Path) -> None:
    """During a debt a player's card shows their balance; an eliminated one is refused."""
    body = "press menu\nkey 5\ntap bank:2\nkey 2000\npress ok\ntap bank:3\ntap bank:1\n"
    lines, _ = run(tmp_path, body)
    assert "screen debt [racecar]" in lines[-7], lines[-7:]
    assert lines[-4].endswith("cue error") and lines[-3].endswith("Refusé / Éliminé"), lines[-7:]
    assert "screen balance [dog]" in lines[-1], lines[-7:]


def test_a_card_never_registered_is_refused_as_before(tmp_path: Path) -> None:
    """Not a player at all: `Carte hors partie`, at idle and on a menu item."""
    lines, _ = run(tmp_path, "tap bank:4\npress menu\nkey 7\ntap bank:4\n")
    refusals = [line for line in lines if line.endswith("Refusé / Carte hors partie")]
    assert len(refusals) == 2, lines[-8:]
    assert "screen menu #7" in lines[-4] and lines[-2].endswith("cue error"), lines[-5:]
