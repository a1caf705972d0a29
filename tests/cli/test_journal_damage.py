"""Damage found in the journal at open is shown where the players look, until acknowledged.

Issue 17, point 1: a flipped bit in ``journal.sqlite``, a lost write-ahead log, an unreadable
tip, a game ended behind the daemon's back or an older file put back must show on the unit's
screen, in the state's ``journal_loss``/``journal_damage``, in ``history`` and on the web view
until a person sends ``acknowledge damage``; an emptied journal beside a tip that names
transactions is refused, never replaced by a new game.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bank.engine.errors import CorruptJournal
from bank.runtime import Runtime
from bank.services.journal import Journal
from bank.services.settings import load_settings
from tests.support.fakes import FakeClock

START = ("tap bank:1", "tap bank:2", "press ok")


def _runtime(data: Path) -> Runtime:
    rt = Runtime(load_settings(None, [f'game.data_dir="{data}"']))
    rt.start(control=False)
    return rt


@pytest.fixture
def stopping() -> Iterator[list[Runtime]]:
    made: list[Runtime] = []
    yield made
    for rt in made:
        rt.stop()


def _play(data: Path, stopping: list[Runtime], go: int) -> dict[str, Any]:
    rt = _runtime(data)
    stopping.append(rt)
    for line in (*START, *(["press menu", "tap bank:1"] * go)):
        assert rt.handle_line(line)["ok"], line
    state = rt.state()
    rt.stop()
    stopping.remove(rt)
    return state


def _balance(state: dict[str, Any], card: int) -> int:
    return int(next(p["balance"] for p in state["players"] if p["card"] == card))


def _flip_in_main_file(path: Path, needle: bytes) -> None:
    raw = bytearray(path.read_bytes())
    at = raw.find(needle)
    assert at >= 0, f"{needle!r} not in {path}"
    raw[at + len(needle) - 1] ^= 0x01  # one bit of one digit of one amount
    path.write_bytes(bytes(raw))


@pytest.mark.parametrize("snapshot", [False, True], ids=["replayed", "from a snapshot"])
def test_a_bit_flipped_in_the_main_file_is_shown_everywhere_until_acknowledged(
    tmp_path: Path, stopping: list[Runtime], snapshot: bool
) -> None:
    """Without a snapshot (a journal an older ultibank wrote) the damaged record and those
    after it are set aside and counted as lost; with the snapshot the clean stop wrote after
    them, the game resumes whole from it (it holds what the damaged record did) and the
    damage is shown all the same, without a count."""
    data = tmp_path / "data"
    played = _play(data, stopping, 12)  # the start, then 12 times GO: 13 transactions
    assert _balance(played, 1) == 1500 + 12 * 200
    journal = data / "journal.sqlite"
    with Journal(journal) as j:
        seqs = [e.seq for e in j.entries()]
    assert not Path(f"{journal}-wal").exists() or Path(f"{journal}-wal").stat().st_size == 0
    # the 6th transaction's record: its sequence number in its payload is unique enough
    with sqlite3.connect(journal) as db:
        payload = db.execute("SELECT payload FROM records WHERE seq = ?", (seqs[5],)).fetchone()[0]
        if not snapshot:
            db.execute("DELETE FROM snapshots")
    db.close()
    _flip_in_main_file(journal, payload[-40:].encode())

    rt = _runtime(data)
    stopping.append(rt)
    state = rt.state()
    lost = 13 - 5
    if snapshot:
        shown = "Journal abîmé : pertes possibles, vérifiez les soldes"
        assert _balance(state, 1) == 1500 + 12 * 200  # nothing set aside
        assert state["journal_loss"] and "before the snapshot" in state["journal_loss"][0]
    else:
        shown = f"Journal abîmé : {lost} opérations perdues"
        assert state["journal_loss"] and "quarantine table" in state["journal_loss"][0]
    assert state["journal_damage"] == shown
    screen = str(state["screen"])
    assert screen.startswith("damage") and "Journal abîmé" in screen
    assert snapshot or f"{lost} opér" in screen
    # play goes on (the damage is the idle screen, not a fault)
    out = rt.handle_line("press menu")["output"] + rt.handle_line("tap bank:1")["output"]
    assert "cue kaching" in out, out
    # the web view says it too
    from bank.views.web import _SnapshotBuilder

    snap = rt.daemon.call(_SnapshotBuilder(rt).snapshot)
    assert snap["journal_damage"] == shown
    rt.stop()
    stopping.remove(rt)

    # a restart does not forget it: nobody acknowledged it yet
    rt = _runtime(data)
    stopping.append(rt)
    assert rt.state()["journal_damage"] == shown
    answer = rt.handle_line("acknowledge   Damage")
    assert answer["ok"] and any(line.startswith("screen idle") for line in answer["output"])
    state = rt.state()
    assert state["journal_loss"] == [] and state["journal_damage"] is None
    assert str(state["screen"]).startswith("idle")
    rt.stop()
    stopping.remove(rt)
    rt = _runtime(data)
    stopping.append(rt)
    assert rt.state()["journal_damage"] is None  # acknowledged for good
    assert rt.handle_line("acknowledge damage") == {"ok": True, "output": []}


@pytest.mark.parametrize("how", ["zero", "blank"])
def test_an_emptied_journal_beside_its_tip_is_refused_never_replaced(
    tmp_path: Path, how: str
) -> None:
    path = tmp_path / "journal.sqlite"
    clock = FakeClock(1_700_000_000.0)
    with Journal(path, clock=clock) as j:
        j.new_game({"edition": "ultime-fr"})
        for i in range(7):
            j.append({"i": i})
    tip = Path(f"{path}.tip")
    before = tip.read_bytes()
    if how == "zero":
        os.truncate(path, 0)
    else:  # an empty SQLite database written over it
        path.unlink()
        sqlite3.connect(path).execute("VACUUM").connection.close()
    with pytest.raises(CorruptJournal) as caught:
        Journal(path, clock=clock)
    message = str(caught.value)
    assert "\n" not in message and "transaction 7" in message and "emptied" in message
    assert tip.read_bytes() == before  # the proof is kept
    aside = list(tmp_path.glob("journal.sqlite.empty-*"))
    assert len(aside) == 1, "the emptied file is kept aside"
    # a second start is refused the same way: no new game over the lost one
    with pytest.raises(CorruptJournal, match="emptied"):
        Journal(path, clock=clock)
    assert tip.read_bytes() == before
    # what the message says: the tip moved aside, a new journal starts
    tip.rename(tmp_path / "journal.sqlite.tip.old")
    with Journal(path, clock=clock) as j:
        assert j.current_game is None and j.loss == []


def test_a_game_ended_behind_the_daemons_back_is_resumed_and_shown(
    tmp_path: Path, stopping: list[Runtime]
) -> None:
    data = tmp_path / "data"
    played = _play(data, stopping, 3)
    with sqlite3.connect(data / "journal.sqlite") as db:
        db.execute("UPDATE games SET ended = 1 WHERE ended IS NULL")
    db.close()
    rt = _runtime(data)
    stopping.append(rt)
    state = rt.state()
    assert state["players"] == played["players"]  # resumed, not archived in silence
    assert state["journal_damage"] and "ended outside ultibank" in state["journal_loss"][0]


def test_an_older_main_file_put_back_is_shown(tmp_path: Path, stopping: list[Runtime]) -> None:
    data = tmp_path / "data"
    _play(data, stopping, 2)
    old = tmp_path / "old.sqlite"
    shutil.copy(data / "journal.sqlite", old)
    rt = _runtime(data)
    stopping.append(rt)
    for line in ["press menu", "tap bank:1"] * 4:
        assert rt.handle_line(line)["ok"]
    rt.stop()
    stopping.remove(rt)
    shutil.copy(old, data / "journal.sqlite")
    rt = _runtime(data)
    stopping.append(rt)
    state = rt.state()
    assert state["journal_damage"] == "Journal abîmé : 4 opérations perdues"
    assert str(state["screen"]).startswith("damage")


def test_a_garbage_tip_is_shown_as_possible_loss(tmp_path: Path, stopping: list[Runtime]) -> None:
    data = tmp_path / "data"
    _play(data, stopping, 2)
    (data / "journal.sqlite.tip").write_bytes(b"garbage" * 20)
    rt = _runtime(data)
    stopping.append(rt)
    state = rt.state()
    assert state["journal_damage"] == "Journal abîmé : pertes possibles, vérifiez les soldes"
    assert "Vérifiez les soldes" in str(state["screen"])


def test_an_archived_game_that_lost_its_last_records_is_shown(tmp_path: Path) -> None:
    """An older file put back beside a newer write-ahead log can lose an archived game's last
    records: the tip (which follows the current game) cannot see it; the reset that archived
    the game noted how it ended, and the next open compares."""
    path = tmp_path / "journal.sqlite"
    clock = FakeClock(1_700_000_000.0)
    with Journal(path, clock=clock) as j:
        j.new_game({"edition": "ultime-fr"})
        for i in range(16):
            j.append({"i": i})
        j.new_game({"edition": "ultime-fr"})
        for i in range(3):
            j.append({"i": i})
    with sqlite3.connect(path) as db:  # what the older copy holds of game 1: its first 5
        db.execute("DELETE FROM records WHERE game = 1 AND seq > 5")
    db.close()
    with Journal(path, clock=clock) as j:
        assert j.lost == 11 and "archived game 1 had 16" in j.loss[0]
        assert [e.seq for e in j.entries()] == [17, 18, 19]  # the current game goes on
    with Journal(path, clock=clock) as j:
        assert j.lost == 11 and len(j.damage()) == 1  # said once, kept until acknowledged
        j.acknowledge_damage()
    with Journal(path, clock=clock) as j:
        assert j.loss == []


def test_history_says_unacknowledged_damage(tmp_path: Path, stopping: list[Runtime]) -> None:
    from bank.app.cli import main

    data = tmp_path / "data"
    _play(data, stopping, 2)
    (data / "journal.sqlite.tip").write_bytes(b"garbage" * 20)
    rt = _runtime(data)  # finds it, keeps it
    rt.stop()
    import contextlib
    import io

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        assert main(["history", "--data-dir", str(data)]) == 0
    assert "JOURNAL DAMAGE" in err.getvalue() and "not acknowledged yet" in err.getvalue()


def test_a_garbage_tip_with_a_lost_wal_is_shown(tmp_path: Path) -> None:
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[2]
    path = tmp_path / "journal.sqlite"
    code = (
        "import os, sys\nfrom bank.services.journal import Journal\nj = Journal(sys.argv[1])\n"
        "j.new_game({})\nfor i in range(9):\n    j.append({'i': i})\nos._exit(0)\n"
    )
    subprocess.run([sys.executable, "-c", code, str(path)], cwd=repo, check=True,
                   env={**os.environ, "PYTHONPATH": str(repo)})  # fmt: skip
    Path(f"{path}-wal").unlink()
    Path(f"{path}.tip").write_bytes(b"\xff" * 128)
    with Journal(path) as j:
        assert j.loss and j.lost is None  # cannot be counted, but shown, not only logged
    with Journal(path) as j:
        assert j.loss  # until acknowledged


def test_damage_is_acknowledged_on_the_unit_by_holding_m_and_ok(
    tmp_path: Path, stopping: list[Runtime]
) -> None:
    data = tmp_path / "data"
    _play(data, stopping, 2)
    (data / "journal.sqlite.tip").write_bytes(b"garbage" * 20)
    rt = Runtime(load_settings(None, [f'game.data_dir="{data}"', "unit.hold_seconds=0.3"]))
    stopping.append(rt)
    rt.start(control=False)
    assert str(rt.state()["screen"]).startswith("damage")
    # a short press of the chord does nothing to it; M + ✓ held does
    rt.handle_line("press menu")
    rt.handle_line("press cancel")
    assert rt.state()["journal_damage"] is not None
    answer = rt.handle_line("hold menu+ok 0.5")
    assert answer["ok"] and any(line.startswith("screen idle") for line in answer["output"])
    state = rt.state()
    assert state["journal_damage"] is None and state["journal_loss"] == []
    rt.stop()
    stopping.remove(rt)
    with Journal(data / "journal.sqlite") as j:
        assert j.loss == []  # kept as acknowledged in the journal


def test_a_tap_script_on_a_damaged_journal_shows_it_and_can_acknowledge_it(
    tmp_path: Path, stopping: list[Runtime]
) -> None:
    import io

    from bank.script import run_script

    data = tmp_path / "data"
    _play(data, stopping, 2)
    (data / "journal.sqlite.tip").write_bytes(b"garbage" * 20)
    script = tmp_path / "ack.tap"
    script.write_text("hold menu+ok 5.5\n", encoding="utf-8")
    out = io.StringIO()
    assert run_script(script, data_dir=data, out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[1].endswith("cue error"), lines
    assert "screen damage" in lines[2] and "Vérifiez les soldes" in lines[2], lines
    assert lines[-1].split(None, 1)[1].startswith("screen idle"), lines
    with Journal(data / "journal.sqlite") as j:
        assert j.loss == []
