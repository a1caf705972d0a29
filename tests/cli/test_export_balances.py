"""Issue 19.8: the CSV export has one row per transaction with each player's balance after
it, in columns a spreadsheet reads as numbers."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def ultibank(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "bank.cli", *args],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT), TZ="UTC"),
    )  # fmt: skip
    return done.stdout


def test_each_row_carries_every_players_balance_after_it(tmp_path: Path) -> None:
    data = tmp_path / "data"
    script = tmp_path / "g.tap"
    # three players; dog buys 1 (60), racecar pays dog's rent on it (2), tophat receives 150
    script.write_text(
        "tap bank:1\ntap bank:2\ntap bank:3\npress ok\n"
        "tap deed:1\ntap bank:1\n"
        "tap deed:1\ntap bank:2\n"
        "press menu\nkey 6\ntap bank:3\nkey 150\npress ok\n"
    )
    state = json.loads(ultibank("script", str(script), "--edition", "classic-fr", "--data-dir",
                                str(data), "--state", "-"))  # fmt: skip
    text = ultibank("history", "export", "1", "--csv", "--data-dir", str(data))
    rows = list(csv.DictReader(io.StringIO(text)))
    columns = ["balance 1:dog", "balance 2:racecar", "balance 3:tophat"]
    assert list(rows[0])[-3:] == columns
    assert [r["command"] for r in rows] == ["new_game", "visit", "visit", "receive_bank"]
    assert [[int(r[c]) for c in columns] for r in rows] == [
        [1500, 1500, 1500],
        [1440, 1500, 1500],
        [1442, 1498, 1500],
        [1442, 1498, 1650],
    ]
    final = {f"balance {p['card']}:{p['token']}": p["balance"] for p in state["players"]}
    assert {c: int(rows[-1][c]) for c in columns} == final


def test_every_export_carries_the_words_and_the_typed_outcome(tmp_path: Path) -> None:
    """Issue 18: beside the words (``text``), the ``outcome`` column holds what the rules
    said each transaction did, as journalled: an Ultime game here (the classic one:
    tests/cli/test_history_classic.py), played to its end."""
    data = tmp_path / "data"
    ultibank("script", "docs/example-game.tap", "--data-dir", str(data))
    table = ultibank("history", "export", "1", "--csv", "--lang", "en", "--data-dir", str(data))
    rows = list(csv.DictReader(io.StringIO(table)))
    assert list(rows[0])[7:10] == ["events", "text", "outcome"]
    assert rows[0]["text"] == "New game: car, helicopter, boat"
    assert json.loads(rows[0]["outcome"]) == {
        "k": "started",
        "v": 2,
        "happened": {},
        "cards": [1, 2, 3],
    }
    bought = json.loads(rows[1]["outcome"])
    assert (bought["k"], bought["card"], bought["number"], bought["price"]) == (
        "bought",
        1,
        22,
        400,
    )
    assert rows[1]["text"].startswith("car lands on #22 ")
    last = json.loads(rows[-1]["outcome"])  # the rent that bankrupts the boat ends the game
    assert last["k"] == "rent_paid" and last["bankrupt"] == 3 and last["happened"]["game_over"]
    plain = json.loads(ultibank("history", "export", "1", "--json", "--data-dir", str(data)))
    assert [r["outcome"] for r in plain] == [json.loads(r["outcome"]) for r in rows]
