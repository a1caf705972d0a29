"""Tests of bank.services.journal: durability, resume, chain verification, quarantine,
games, locking."""

from __future__ import annotations

import json
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bank.engine.errors import BankError, CorruptJournal, JournalError
from bank.engine.events import SCHEMA_VERSION
from bank.services.journal import (
    BadRecord,
    Journal,
    JournalAccess,
    JournalFull,
    JournalLocked,
    UnknownSchema,
    _translate_os,
    backup_journal,
)
from tests.support.fakes import FakeClock

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_700_000_000.0)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "journal.sqlite"


def record(i: int) -> dict[str, object]:
    """A record shaped like the game layer's: a command and its events."""
    return {
        "command": {"name": "land", "card": 1 + i % 4, "number": 1 + i % 22},
        "events": [{"kind": "money", "payer": 1 + i % 4, "payee": None, "amount": 100 + i}],
        "undo_group": i,
        "kind": "transaction",
    }


def fill(path: Path, clock: FakeClock, n: int, meta: dict[str, object] | None = None) -> None:
    with Journal(path, clock=clock) as j:
        j.new_game(meta or {"edition": "fr"})
        for i in range(n):
            j.append(record(i))
            clock.advance(1)


# -- append, read back, persistence ------------------------------------------------------


def test_append_returns_increasing_seqs_and_reads_back_in_order(path: Path, clock: FakeClock):
    with Journal(path, clock=clock) as j:
        game = j.new_game({"edition": "fr", "players": [1, 2]})
        seqs = []
        for i in range(5):
            seqs.append(j.append(record(i)))
            clock.advance(2.5)
        assert seqs == [1, 2, 3, 4, 5]
        got = list(j.entries())
    assert [r.record for r in got] == [record(i) for i in range(5)]
    assert [r.seq for r in got] == seqs
    assert {r.game_id for r in got} == {game}
    assert [r.at for r in got] == [1_700_000_000.0 + 2.5 * i for i in range(5)]
    assert {r.version for r in got} == {SCHEMA_VERSION}


def test_entries_after_a_seq_catch_a_reader_up(path: Path, clock: FakeClock):
    with Journal(path, clock=clock) as j:
        for i in range(4):
            j.append(record(i))
        assert [e.record for e in j.entries(after=2)] == [record(2), record(3)]
        assert list(j.entries(after=j.last_seq)) == []
        j.new_game({})
        j.append(record(9))
        assert [e.record for e in j.entries(after=2)] == [record(9)]  # seqs are global


def test_records_survive_close_and_reopen(path: Path, clock: FakeClock):
    fill(path, clock, 20)
    with Journal(path, clock=clock) as j:
        assert j.recovery == []
        assert [r.record for r in j.entries()] == [record(i) for i in range(20)]
        assert j.append(record(20)) == 21
    with Journal(path, clock=clock) as j:
        assert [r.record["undo_group"] for r in j.entries()] == list(range(21))


def test_append_many_is_one_commit_with_consecutive_seqs(path: Path, clock: FakeClock):
    with Journal(path, clock=clock) as j:
        j.new_game({})
        assert j.append_many([record(0), record(1), record(2)]) == [1, 2, 3]
        assert j.append(record(3)) == 4
    with Journal(path) as j:
        assert [r.seq for r in j.entries()] == [1, 2, 3, 4]


def test_records_yields_the_plain_records_the_game_layer_stored(path: Path):
    fill(path, FakeClock(), 3)
    with Journal(path) as j:
        assert list(j.records()) == [record(0), record(1), record(2)]
        assert list(j.records(1)) == [record(0), record(1), record(2)]


def test_fresh_journal_has_no_game_until_the_first_append_opens_one(path: Path, clock: FakeClock):
    with Journal(path, clock=clock) as j:
        assert j.current_game is None
        assert list(j.records()) == []
        assert j.games() == []
        with pytest.raises(JournalError, match="new_game"):
            j.update_meta({"edition": "fr"})
        assert j.append(record(0)) == 1
        assert j.current_game == 1
        assert [(g.id, g.started, g.records, g.meta) for g in j.games()] == [(1, clock.now, 1, {})]


def test_unserialisable_record_is_refused_and_nothing_written(path: Path):
    with Journal(path) as j:
        j.new_game({})
        j.append(record(0))
        with pytest.raises(BadRecord, match="JSON") as info:
            j.append({"when": object()})
        assert isinstance(info.value, TypeError)
        assert isinstance(info.value, BankError)
        with pytest.raises(BadRecord, match="dict"):
            j.append([1, 2])  # type: ignore[arg-type]
        assert j.append(record(1)) == 2
    with Journal(path) as j:
        assert [r.seq for r in j.entries()] == [1, 2]


def test_a_record_is_stored_as_the_same_json_text_whatever_the_path(path: Path):
    """The append of one record (the encoder made once) and of many store the text
    ``json.dumps`` writes, non-ASCII escaped; NaN, infinity and a loop are refused."""
    odd = {"name": "hélico €", "n": -3, "f": 0.1, "big": 10**30, "t": True, "z": None,
           "nested": [{"a": [1, 2.5, "\u0000\n\"q\""]}, []], "e": {}}  # fmt: skip
    expected = json.dumps(odd, separators=(",", ":"), allow_nan=False)
    with Journal(path) as j:
        j.new_game({})
        j.append(odd)
        j.append_many([odd, odd])
        for bad in ({"x": float("nan")}, {"x": float("inf")}):
            with pytest.raises(BadRecord, match="JSON"):
                j.append(bad)
            with pytest.raises(BadRecord, match="JSON"):
                j.append_many([record(9), bad])
        loop: dict[str, object] = {}
        loop["self"] = loop
        with pytest.raises(BadRecord, match="JSON"):
            j.append(loop)
        assert j.append(record(1)) == 4
    conn = sqlite3.connect(path)
    stored = [row[0] for row in conn.execute("SELECT payload FROM records ORDER BY seq")]
    conn.close()
    assert stored[:3] == [expected] * 3
    with Journal(path) as j:
        assert [r.record for r in j.entries()][:3] == [odd] * 3


def test_a_row_with_a_valid_checksum_but_broken_json_is_refused(path: Path):
    from bank.services.journal import _link, _seed

    Journal(path).close()
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("INSERT INTO games (id, started, meta) VALUES (1, 0.0, '{}')")
        chain = _link(_seed(1), 1, 1, 5.0, SCHEMA_VERSION, "{oops")
        conn.execute(
            "INSERT INTO records VALUES (1, 1, 5.0, ?, '{oops', ?)", (SCHEMA_VERSION, chain)
        )
    conn.close()
    with Journal(path) as j, pytest.raises(CorruptJournal, match="record 1 is not valid JSON"):
        j.records()


def test_parent_directories_are_created(tmp_path: Path):
    deep = tmp_path / "a" / "b" / "c" / "journal.sqlite"
    with Journal(deep) as j:
        j.new_game({})
        j.append(record(0))
    assert deep.is_file()


def test_closed_journal_says_so(path: Path):
    j = Journal(path)
    j.close()
    j.close()
    with pytest.raises(JournalError, match="closed"):
        j.games()


# -- games: reset archives, old games stay readable ----------------------------------------


def test_new_game_archives_the_current_one_and_old_games_stay_readable(
    path: Path, clock: FakeClock
):
    fill(path, clock, 3, {"edition": "fr", "players": [1, 2, 3]})
    with Journal(path, clock=clock) as j:
        first = j.current_game
        clock.advance(60)
        end_of_first = clock.now
        second = j.new_game({"edition": "uk", "players": [1, 2]})
        assert second != first
        assert list(j.entries()) == []
        j.append({"command": {"name": "new_game", "cards": [1, 2]}, "events": []})
    with Journal(path, clock=clock) as j:
        assert j.current_game == second
        games = j.games()
        assert [g.id for g in games] == [first, second]
        old, new = games
        assert old.archived and old.ended == end_of_first
        assert old.records == 3 and old.meta == {"edition": "fr", "players": [1, 2, 3]}
        assert not new.archived and new.records == 1 and new.meta["edition"] == "uk"
        assert [r.record for r in j.entries(first)] == [record(i) for i in range(3)]
        assert [r.record["command"]["name"] for r in j.entries()] == ["new_game"]


def test_update_meta_merges_into_the_current_game(path: Path):
    with Journal(path) as j:
        gid = j.new_game({"edition": "fr"})
        j.update_meta({"players": [1, 4]})
        assert j.game(gid).meta == {"edition": "fr", "players": [1, 4]}
        with pytest.raises(JournalError, match="no game 99"):
            j.game(99)


# -- chain verification and quarantine ------------------------------------------------------


def edit(path: Path, sql: str, *args: object) -> None:
    """Change the journal file behind the journal's back, as a disk fault or a person might."""
    conn = sqlite3.connect(path)
    with conn:
        assert conn.execute(sql, args).rowcount >= 1
    conn.close()


def test_payload_edited_in_place_is_quarantined_with_everything_after_it(
    path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
):
    fill(path, clock, 10)
    edit(path, "UPDATE records SET payload = replace(payload, '105', '905') WHERE seq = 6")
    with caplog.at_level(logging.WARNING, logger="bank.services.journal"), Journal(path) as j:
        got = list(j.entries())
        assert [r.record for r in got] == [record(i) for i in range(5)]
        assert len(j.recovery) == 1
        assert "record 6" in j.recovery[0] and "quarantine" in j.recovery[0]
        assert "record 6" in caplog.text
        quarantined = j.quarantine()
        assert [q.seq for q in quarantined] == [6, 7, 8, 9, 10]
        assert '"amount":905' in str(quarantined[0].payload)
        # the journal goes on from the last good record, without reusing quarantined numbers
        assert j.append(record(99)) == 11
    with Journal(path) as j:
        assert j.recovery == []
        assert [r.seq for r in j.entries()] == [1, 2, 3, 4, 5, 11]


@pytest.mark.parametrize(
    ("sql", "first_bad", "kept"),
    [
        ("DELETE FROM records WHERE seq = 4", 5, [1, 2, 3]),
        ("UPDATE records SET at = at + 1 WHERE seq = 7", 7, [1, 2, 3, 4, 5, 6]),
        ("UPDATE records SET version = 0 WHERE seq = 2", 2, [1]),
        ("UPDATE records SET chain = zeroblob(16) WHERE seq = 9", 9, [1, 2, 3, 4, 5, 6, 7, 8]),
        ("UPDATE records SET payload = CAST(payload AS BLOB) WHERE seq = 1", 1, []),
    ],
)
def test_any_change_breaks_the_chain_at_that_record(
    path: Path, clock: FakeClock, sql: str, first_bad: int, kept: list[int]
):
    fill(path, clock, 10)
    edit(path, sql)
    with Journal(path) as j:
        assert [r.seq for r in j.entries()] == kept
        assert f"record {first_bad} " in j.recovery[0]


def test_a_damaged_archived_game_is_caught_when_it_is_read(path: Path, clock: FakeClock):
    fill(path, clock, 4)
    with Journal(path, clock=clock) as j:
        j.new_game({})
        j.append(record(0))
    edit(path, "UPDATE records SET payload = replace(payload, '103', '1') WHERE seq = 4")
    with Journal(path) as j:
        assert j.recovery == []  # the current game is sound
        assert [r.seq for r in j.entries(1)] == [1, 2, 3]
        assert "game 1: record 4" in j.recovery[0]
        assert [r.seq for r in j.entries()] == [5]


def test_a_file_cut_short_by_a_byte_loses_only_what_the_chain_cannot_vouch_for(
    path: Path, clock: FakeClock
):
    fill(path, clock, 300)
    data = path.read_bytes()
    path.write_bytes(data[:-1])
    try:
        j = Journal(path)
    except CorruptJournal:
        return  # SQLite itself noticed; that is an acceptable outcome too
    with j:
        got = [r.seq for r in j.entries()]
        assert got == list(range(1, len(got) + 1))
        assert [r.record for r in j.entries()] == [record(i) for i in range(len(got))]
        if len(got) < 300:
            assert j.recovery


# -- corruption beyond repair, foreign and future files ------------------------------------


@pytest.mark.parametrize("cut", [50, 4096, "half"])
def test_truncated_file_is_refused_with_advice(path: Path, clock: FakeClock, cut: object):
    fill(path, clock, 500)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 if cut == "half" else int(str(cut))])
    with pytest.raises(CorruptJournal) as info:
        Journal(path)
    message = str(info.value)
    assert str(path) in message and "Move it aside" in message
    assert isinstance(info.value, OSError)


def test_garbage_file_is_refused_and_a_new_journal_can_start_after_moving_it(path: Path):
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a database at all\n" * 300)
    with pytest.raises(CorruptJournal, match="not a database"):
        Journal(path)
    path.rename(path.with_name("journal.sqlite.damaged"))  # what the message says to do
    with Journal(path) as j:  # the failed open released its lock
        assert j.games() == []


def test_foreign_sqlite_database_is_refused(path: Path):
    path.parent.mkdir(parents=True)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(CorruptJournal, match="not an ultibank journal"):
        Journal(path)


def test_record_of_a_future_schema_version_is_refused(path: Path):
    with Journal(path) as j:
        j.new_game({})
        j.append(record(0))
        j.append(record(1), version=SCHEMA_VERSION + 1)
    with Journal(path) as j, pytest.raises(UnknownSchema, match="newer") as info:
        j.entries()
    assert isinstance(info.value, JournalError)
    assert f"version {SCHEMA_VERSION + 1}" in str(info.value)


def test_file_of_a_future_format_is_refused(path: Path):
    Journal(path).close()
    edit_conn = sqlite3.connect(path)
    edit_conn.execute("PRAGMA user_version = 99")
    edit_conn.close()
    with pytest.raises(UnknownSchema, match="newer ultibank"):
        Journal(path)


# -- exclusive use ------------------------------------------------------------------------


def test_second_opener_in_the_same_process_is_refused(path: Path):
    with Journal(path) as first:
        first.new_game({})
        with pytest.raises(JournalLocked, match="another ultibank") as info:
            Journal(path)
        assert f"pid {os.getpid()}" in str(info.value)
        first.append(record(0))
    with Journal(path) as again:
        assert len(list(again.entries())) == 1


def test_second_process_is_refused(path: Path):
    code = (
        "import sys\n"
        "from bank.services.journal import Journal, JournalLocked\n"
        "try:\n"
        "    Journal(sys.argv[1])\n"
        "except JournalLocked as err:\n"
        "    print(err)\n"
        "    sys.exit(3)\n"
    )
    with Journal(path):
        done = subprocess.run(
            [sys.executable, "-c", code, str(path)],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
    assert done.returncode == 3, done.stderr
    assert "another ultibank" in done.stdout and str(path.parent) in done.stdout


def test_sqlite_lock_held_by_another_program_is_reported(path: Path):
    Journal(path).close()
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        with Journal(path) as j, pytest.raises(JournalLocked, match="another ultibank"):
            j.new_game({})
    finally:
        other.execute("ROLLBACK")
        other.close()


# -- file-system errors -------------------------------------------------------------------


def test_disk_full_refuses_the_transaction_and_keeps_the_journal_sound(path: Path):
    with Journal(path) as j:
        j.new_game({})
        j.append(record(0))
        # cap the file size to play a full disk (the cap is not persistent)
        j._db().execute("PRAGMA max_page_count = 12")
        big = {"blob": "x" * 3000}
        acknowledged = 1
        with pytest.raises(JournalFull, match="full"):
            for _ in range(100):
                j.append(big)
                acknowledged += 1
        assert j.last_seq == acknowledged
    with Journal(path) as j:
        assert j.recovery == []
        assert [r.seq for r in j.entries()] == list(range(1, acknowledged + 1))


def test_parent_that_is_a_file_is_a_clear_error(tmp_path: Path):
    (tmp_path / "data").write_text("I am a file")
    with pytest.raises(JournalError, match="opening the journal"):
        Journal(tmp_path / "data" / "journal.sqlite")


def test_permission_denied_message_says_what_to_fix():
    err = _translate_os(PermissionError(13, "Permission denied"), Path("/x/j.sqlite"), "opening")
    assert isinstance(err, JournalAccess)
    assert "/x/j.sqlite" in str(err) and "writable" in str(err)


# -- crash safety -------------------------------------------------------------------------

CHILD = """
import sys
from bank.services.journal import Journal
j = Journal(sys.argv[1])
if j.current_game is None:
    j.new_game({"test": "crash"})
n = sum(1 for _ in j.entries())
print("ready", n, flush=True)
while True:
    seq = j.append({"i": n, "pad": "x" * (n % 500)})
    n += 1
    print("committed", seq, flush=True)
"""


def test_sigkill_at_random_moments_loses_no_acknowledged_record(path: Path):
    rng = random.Random(20261129)
    printed: list[int] = []
    for _round in range(6):
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        assert child.stdout is not None
        try:
            ready = child.stdout.readline()
            assert ready.startswith("ready"), child.stderr.read() if child.stderr else ""
            target = rng.randint(1, 400)
            deadline = time.monotonic() + 60
            seen = 0
            while seen < target:
                line = child.stdout.readline()
                assert line, f"child died: {child.stderr.read() if child.stderr else ''}"
                if line.startswith("committed "):
                    printed.append(int(line.split()[1]))
                    seen += 1
                assert time.monotonic() < deadline
            os.kill(child.pid, signal.SIGKILL)
            rest, _ = child.communicate(timeout=30)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
        assert child.returncode == -signal.SIGKILL
        # every complete "committed N" line the child got out before it died
        for line in (line for line in rest.splitlines(keepends=True) if line.endswith("\n")):
            if line.startswith("committed "):
                printed.append(int(line.split()[1]))
        with Journal(path) as j:
            assert j.recovery == [] and j.loss == []  # the tip never cries wolf after a kill
            got = list(j.entries())
        seqs = [r.seq for r in got]
        assert seqs == list(range(1, len(seqs) + 1)), "records must be a gap-free prefix"
        assert [r.record["i"] for r in got] == list(range(len(got)))
        assert max(printed, default=0) <= len(seqs)
        assert set(printed) <= set(seqs)


# -- the tip: lost acknowledged transactions are reported --------------------------------

KILLED_AFTER_APPENDS = """
import os, sys
from bank.services.journal import Journal
j = Journal(sys.argv[1])
for i in range(int(sys.argv[2])):
    j.append({"i": i})
os._exit(0)  # like a power cut: no close, no checkpoint; the WAL holds the records
"""


def _killed_after(path: Path, n: int) -> None:
    subprocess.run(
        [sys.executable, "-c", KILLED_AFTER_APPENDS, str(path), str(n)],
        cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)}, check=True,
    )  # fmt: skip


def test_a_deleted_wal_is_reported_until_acknowledged_and_its_seqs_never_reused(path: Path):
    _killed_after(path, 12)
    Path(f"{path}-wal").unlink()
    with Journal(path) as j:
        assert len(j.loss) == 1 and "12 acknowledged transaction(s) are missing" in j.loss[0]
        assert j.lost == 12
        assert j.append({"after": True}) == 13
    with Journal(path) as j:
        assert len(j.loss) == 1 and j.lost == 12  # still shown: no one acknowledged it
        assert j.acknowledge_damage() == 1
        assert j.loss == [] and j.lost == 0
    with Journal(path) as j:
        assert j.loss == [] and j.damage() == []  # acknowledged once, for good ...
        lost = [q for q in j.quarantine() if q.reason.startswith("lost:")]
        assert len(lost) == 1 and lost[0].seq == 12  # ... and kept in the file for `history`
        assert [e.seq for e in j.entries()] == [13]


def test_a_clean_close_leaves_the_main_file_complete(path: Path, clock: FakeClock, tmp_path: Path):
    fill(path, clock, 20)
    wal = Path(f"{path}-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    alone = tmp_path / "alone" / "journal.sqlite"
    alone.parent.mkdir()
    alone.write_bytes(path.read_bytes())  # journal.sqlite only, as a careless backup would
    with Journal(alone) as j:
        assert len(list(j.records())) == 20 and j.loss == []


def test_a_torn_tip_slot_is_no_false_alarm_and_an_unreadable_tip_is_said(path: Path):
    _killed_after(path, 5)
    tip = Path(f"{path}.tip")
    raw = bytearray(tip.read_bytes())
    raw[70] ^= 0xFF  # one of the two slots
    tip.write_bytes(bytes(raw))
    with Journal(path) as j:
        assert j.loss == [] and j.recovery == []
    tip.write_bytes(b"garbage" * 20)
    with Journal(path) as j:
        # the loss cannot be counted, but it is damage all the same: shown until acknowledged
        assert "unreadable" in j.recovery[0] and "unreadable" in j.loss[0] and j.lost is None


def test_a_tip_that_is_a_symlink_is_refused_and_its_target_untouched(path: Path, tmp_path: Path):
    target = tmp_path / "precious"
    target.write_text("keep me")
    path.parent.mkdir(parents=True)
    Path(f"{path}.tip").symlink_to(target)
    with pytest.raises(JournalAccess, match="symbolic link"):
        Journal(path)
    assert target.read_text() == "keep me"


def test_a_journal_moved_aside_starts_a_new_one_without_a_false_alarm(path: Path, clock: FakeClock):
    fill(path, clock, 5)
    path.rename(path.with_name("journal.sqlite.old"))
    with Journal(path) as j:
        assert j.loss == [] and j.last_seq == 0


def test_a_backup_refuses_what_is_not_a_journal_and_the_journal_itself(
    path: Path, clock: FakeClock, tmp_path: Path
):
    fill(path, clock, 3)
    with pytest.raises(JournalError, match="journal itself"):
        backup_journal(path, path, overwrite=True)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(JournalError, match="not an ultibank journal"):
        backup_journal(other, tmp_path / "copy.sqlite")
    assert not (tmp_path / "copy.sqlite").exists()
    assert backup_journal(path, tmp_path / "copy.sqlite") == (1, 3)


# -- with the game layer ------------------------------------------------------------------


def test_a_game_resumes_from_the_journal_exactly_and_reset_archives_it(path: Path):
    from bank.engine.commands import Land
    from bank.engine.game import Game
    from bank.rulesets.ultime.commands import PassGo
    from board_assets import load_edition

    edition = load_edition()
    with Journal(path) as j:
        game = Game(edition, journal=j)
        game.start([1, 2, 3])
        game.execute(Land(1, 3))
        game.execute(PassGo(2))
        game.execute(Land(2, 3))
        live = game.state
    with Journal(path) as j:
        resumed = Game(edition, journal=j)
        assert resumed.state == live
        assert resumed.seq == 4
        resumed.reset({"players": [1, 2, 3]})
    with Journal(path) as j:
        assert Game(edition, journal=j).state == type(live).empty(edition)
        old, new = j.games()
        assert old.archived and old.records == 4
        assert new.meta == {"edition": edition.id, "players": [1, 2, 3]}
        assert len(list(j.records(old.id))) == 4


def test_a_reader_beside_the_writer_neither_writes_the_tip_nor_checkpoints(
    path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
):
    """``ultibank history`` beside a running daemon: the reader must leave the writer's tip
    file and write-ahead log alone (the tip is the writer's to check: read by a reader it can
    be ahead of the reader's snapshot and look like a loss)."""
    from bank.views.history import ReadOnlyJournal

    with Journal(path, clock=clock) as writer:
        writer.new_game({"edition": "fr"})
        for i in range(5):
            writer.append(record(i))
        tip = Path(f"{path}.tip")
        wal = Path(f"{path}-wal")
        before, wal_size = tip.read_bytes(), wal.stat().st_size
        with caplog.at_level(logging.WARNING), ReadOnlyJournal(path) as reader:
            assert reader.loss == [] and len(list(reader.records())) == 5
            assert tip.read_bytes() == before
        assert tip.read_bytes() == before
        assert wal.stat().st_size == wal_size > 0
        assert not [r for r in caplog.records if "checkpoint" in r.getMessage()]
        writer.append(record(5))
    with Journal(path) as j:
        assert j.loss == [] and len(list(j.records())) == 6
