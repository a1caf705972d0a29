"""The journal's file layout (format 2): a game's records found by their run of sequence
numbers, one page written a commit, format-1 journals converted by a writer and read as they
are by a reader, and the tip file updated by each commit."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from bank.services.journal import FILE_FORMAT, Journal, _link, _read_tip, _seed
from bank.views.history import ReadOnlyJournal
from tests.support.fakes import FakeClock

ROOT = Path(__file__).resolve().parent.parent
V1 = ROOT / "tests" / "fixtures" / "journal_v1" / "journal.sqlite"

_FORMAT_1 = """
CREATE TABLE games (id INTEGER PRIMARY KEY, started REAL NOT NULL, ended REAL, meta TEXT NOT NULL);
CREATE TABLE records (seq INTEGER PRIMARY KEY, game INTEGER NOT NULL REFERENCES games(id),
    at REAL NOT NULL, version INTEGER NOT NULL, payload TEXT NOT NULL, chain BLOB NOT NULL);
CREATE INDEX records_by_game ON records(game, seq);
CREATE TABLE quarantine (id INTEGER PRIMARY KEY, seq, game, at, version, payload, chain,
    reason TEXT NOT NULL, found REAL NOT NULL);
PRAGMA application_id=1433171010;
PRAGMA user_version=1;
"""


def _layout(path: Path) -> tuple[int, list[str], list[tuple[int, int | None]]]:
    with sqlite3.connect(path) as db:
        fmt = db.execute("PRAGMA user_version").fetchone()[0]
        indexes = [r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type='index'")]
        columns = {r[1] for r in db.execute("PRAGMA table_info(games)")}
        firsts = (
            db.execute("SELECT id, first_seq FROM games ORDER BY id").fetchall()
            if "first_seq" in columns
            else []
        )
    db.close()
    return fmt, [i for i in indexes if not i.startswith("sqlite_autoindex")], firsts


def _everything(journal: Journal) -> list[tuple[object, ...]]:
    return [
        (g.id, g.records, e.seq, e.at, e.version, e.record)
        for g in journal.games()
        for e in journal.entries(g.id)
    ]


def test_a_new_journal_has_no_index_and_numbers_each_game_from_its_first_seq(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path, clock=FakeClock(1.0)) as j:
        j.new_game({})
        for i in range(5):
            j.append({"i": i})
        j.new_game({})  # game 2 starts at seq 6
        j.append({"i": 5})
        j.new_game({})  # game 3 has no record yet
        assert [(g.id, g.records) for g in j.games()] == [(1, 5), (2, 1), (3, 0)]
        assert [e.seq for e in j.entries(1)] == [1, 2, 3, 4, 5]
        assert [e.seq for e in j.entries(2)] == [6]
        assert list(j.entries(3)) == []
    assert _layout(path) == (FILE_FORMAT, [], [(1, 1), (2, 6), (3, 7)])


def test_a_commit_writes_one_page_of_the_write_ahead_log(tmp_path: Path) -> None:
    """The records table alone takes a row: each append adds one WAL frame (a few more when
    a leaf page fills), where an index on (game, seq) made every commit write two."""
    path = tmp_path / "journal.sqlite"
    wal = Path(f"{path}-wal")
    with Journal(path) as j:
        j.new_game({})
        j.append({"i": 0})
        page = j._db().execute("PRAGMA page_size").fetchone()[0]
        before = wal.stat().st_size
        appends = 60
        for i in range(appends):
            j.append({"i": i, "pad": "x" * 200})
        frames = (wal.stat().st_size - before) // (page + 24)
    assert appends <= frames < appends * 1.3, frames


def test_a_format_1_journal_reads_the_same_before_and_after_a_writer_converts_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "journal.sqlite"
    shutil.copy(V1, path)
    assert _layout(path)[:2] == (1, ["records_by_game"])
    with ReadOnlyJournal(path) as reader:  # a reader converts nothing
        before = _everything(reader)
    assert _layout(path)[:2] == (1, ["records_by_game"])
    with Journal(path) as writer:
        assert _everything(writer) == before
        assert writer.recovery == [] and writer.loss == []
    fmt, indexes, firsts = _layout(path)
    assert (fmt, indexes) == (FILE_FORMAT, [])
    game_2 = [int(str(e[2])) for e in before if e[0] == 2]
    assert firsts == [(1, 1), (2, min(game_2))]  # each game from its first record
    with ReadOnlyJournal(path) as reader:
        assert _everything(reader) == before
    with Journal(path) as writer:  # the game goes on; a new one is numbered on
        last = writer.append({"after": "conversion"})
        writer.new_game({})
        writer.append({"next": "game"})
        assert [e.seq for e in writer.entries(2)][-1] == last
        assert [e.record for e in writer.entries()] == [{"next": "game"}]
    assert _layout(path)[2][-1] == (3, last + 1)


def _format_1_journal(path: Path, rows: list[tuple[int, int]]) -> None:
    """A format-1 journal (with its index) holding *rows* (seq, game), each chained."""
    db = sqlite3.connect(path, isolation_level=None)
    db.executescript(_FORMAT_1)
    db.execute("PRAGMA journal_mode=WAL")
    for game in sorted({g for _, g in rows}):
        db.execute("INSERT INTO games (id, started, meta) VALUES (?, 1.0, '{}')", (game,))
    heads: dict[int, bytes] = {}
    for seq, game in rows:
        payload = f'{{"seq":{seq}}}'
        head = _link(heads.get(game, _seed(game)), seq, game, 1.0, 1, payload)
        heads[game] = head
        db.execute("INSERT INTO records VALUES (?, ?, 1.0, 1, ?, ?)", (seq, game, payload, head))
    db.close()


def test_a_journal_whose_games_interleave_keeps_its_index_and_reads_right(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Only an edit can interleave two games' records: such a file is not converted (its
    games could not be read as runs of sequence numbers) and is read through its index."""
    path = tmp_path / "journal.sqlite"
    _format_1_journal(path, [(1, 1), (2, 2), (3, 1), (4, 2)])
    with Journal(path) as j:
        assert [e.seq for e in j.entries(1)] == [1, 3]
        assert [e.seq for e in j.entries(2)] == [2, 4]
        seq = j.append({"more": 1})
        assert [e.seq for e in j.entries()] == [2, 4, seq]
        assert j.recovery == []
    assert _layout(path)[:2] == (1, ["records_by_game"])
    assert "interleave" in caplog.text


def test_each_commit_updates_the_tip_file_at_once(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    with Journal(path) as j:
        j.new_game({})
        for i in range(3):
            seq = j.append({"i": i})
            tip = _read_tip(j.tip_path)  # another reader of the file sees each commit's tip
            assert tip is not None and (tip.seq, tip.game) == (seq, 1)
            assert tip.chain == j._head
    assert Path(f"{path}.tip").stat().st_size == 128
    with Journal(path) as j:
        assert j.recovery == [] and j.loss == []


def test_a_tip_file_cut_short_while_open_is_written_again(tmp_path: Path) -> None:
    """Someone empties the open tip file: the next commit writes its slot again (no crash)."""
    path = tmp_path / "journal.sqlite"
    with Journal(path) as j:
        j.new_game({})
        j.append({"i": 0})
        os.truncate(j.tip_path, 0)
        seq = j.append({"i": 1})
        tip = _read_tip(j.tip_path)
        assert tip is not None and tip.seq == seq
