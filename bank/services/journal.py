"""The journal: the bank's durable record of every transaction, in one SQLite file.

The journal is the truth: the game layer appends one record per transaction and only then
confirms it to the players; at start it replays :meth:`Journal.records` to rebuild the state.

- Each :meth:`Journal.append` is one SQLite commit in WAL mode with ``synchronous=FULL``; the
  sequence number is returned only once the commit is on disk.
- Every row carries a schema version and a checksum chained over the previous row of the same
  game (BLAKE2b of the previous checksum, the row's header and its JSON text). On open the
  current game's chain is verified; the first row that does not follow, and every row after
  it, are moved to the ``quarantine`` table (kept for forensics, never replayed) and reported
  in :attr:`Journal.recovery` and through :mod:`logging`.
- A file that is not an SQLite database, not an ultibank journal, or is damaged beyond a bad
  tail raises :class:`~bank.engine.errors.CorruptJournal`, naming the file and what to do.
- A reset archives the current game and opens a new one (:meth:`Journal.new_game`); archived
  games stay readable (:meth:`Journal.games`, ``records(game_id)``).
- An exclusive ``flock`` on ``<file>.lock`` keeps a second process (a second daemon) out.

Records are opaque JSON-serialisable dicts made by the game layer. Imports the standard
library (``sqlite3``, ``fcntl``, ``hashlib``, ``json``, ``logging``) and ``bank.engine.errors`` and
``bank.engine.events`` (for the record schema version) only.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import struct
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final, cast

from bank.engine.errors import CorruptJournal, JournalError, JournalFull
from bank.engine.events import SCHEMA_VERSION

__all__ = [
    "FILE_FORMAT",
    "BadRecord",
    "Damage",
    "GameInfo",
    "Journal",
    "JournalAccess",
    "JournalFull",
    "JournalLocked",
    "QuarantinedRow",
    "Snapshot",
    "StoredRecord",
    "UnknownSchema",
    "backup_journal",
]

log = logging.getLogger(__name__)

#: layout of the tables, kept in ``PRAGMA user_version``: 2 since a game's records are found
#: by their run of sequence numbers (``games.first_seq``) instead of an index on ``records``
#: (one page written per commit instead of two); a format-1 journal is converted when a
#: writer opens it (:meth:`Journal._convert`), and read as it is by a reader
FILE_FORMAT: Final = 2
#: the format whose records are found through the ``records_by_game`` index
_INDEXED_FORMAT: Final = 1
#: above every sequence number: the end of the current game's run
_NO_END: Final = 1 << 62
#: ``PRAGMA application_id`` of an ultibank journal ("UltB"), so a foreign database is refused
APPLICATION_ID: Final = 0x556C7442
#: how long to wait for an SQLite lock held by another program before giving up (seconds)
BUSY_TIMEOUT: Final = 0.5
_DIGEST_SIZE: Final = 16
#: the tip file beside the journal: the last committed sequence number, game and checksum
TIP_SUFFIX: Final = ".tip"
# One tip slot: magic, generation, seq, game, the record's chain value, a checksum of all that.
# Two slots written in turn (by generation), so a torn write leaves the other one readable.
_TIP_SLOT: Final = struct.Struct("<4sQQQ16s16s")
_TIP_MAGIC: Final = b"UTip"
_TIP_SLOT_SIZE: Final = 64
#: bytes of the pid written in the lock file (a pid, a newline, spaces: wider than any pid)
_PID_WIDTH: Final = 16

# SQLite primary result codes (the low byte of the extended code)
_SQLITE_PERM: Final = 3
_SQLITE_BUSY: Final = 5
_SQLITE_LOCKED: Final = 6
_SQLITE_READONLY: Final = 8
_SQLITE_IOERR: Final = 10
_SQLITE_CORRUPT: Final = 11
_SQLITE_FULL: Final = 13
_SQLITE_CANTOPEN: Final = 14
_SQLITE_AUTH: Final = 23
_SQLITE_NOTADB: Final = 26

_SCHEMA: Final = """
-- first_seq: the sequence number the game's records start from, up to the next game's
-- first_seq (a game's records are one run of sequence numbers: only the newest game is ever
-- written to), so a game is read as a range of the records' primary key, with no index
CREATE TABLE games (
    id        INTEGER PRIMARY KEY,
    started   REAL NOT NULL,
    ended     REAL,
    meta      TEXT NOT NULL,
    first_seq INTEGER
);
CREATE TABLE records (
    seq     INTEGER PRIMARY KEY,
    game    INTEGER NOT NULL REFERENCES games(id),
    at      REAL NOT NULL,
    version INTEGER NOT NULL,
    payload TEXT NOT NULL,
    chain   BLOB NOT NULL
);
-- untyped columns: rows are kept exactly as found, whatever damage they carry
CREATE TABLE quarantine (
    id      INTEGER PRIMARY KEY,
    seq,
    game,
    at,
    version,
    payload,
    chain,
    reason  TEXT NOT NULL,
    found   REAL NOT NULL
);
"""


#: where a game's snapshots are kept (created in older journals when they are next opened;
#: a journal without it reads as one without snapshots)
_SNAPSHOT_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS snapshots (
    game    INTEGER NOT NULL,
    seq     INTEGER NOT NULL,
    count   INTEGER NOT NULL,
    version TEXT NOT NULL,
    at      REAL NOT NULL,
    payload TEXT NOT NULL,
    digest  BLOB NOT NULL,
    PRIMARY KEY (game, seq)
)
"""
#: snapshots kept per game (the newest is used; older ones go)
_SNAPSHOTS_KEPT: Final = 2
#: up to this many records behind a snapshot, the checks it lets a start skip are run at once
#: (a few milliseconds, and their findings show from the start); beyond, in the background
AUDIT_AT_OPEN: Final = 2000


#: damage found at open and not yet acknowledged by a person (created where missing, so a
#: journal written before it existed gains it at its next open; older readers ignore it)
_DAMAGE_TABLE: Final = """
CREATE TABLE IF NOT EXISTS damage (
    id           INTEGER PRIMARY KEY,
    found        REAL NOT NULL,
    lost         INTEGER,
    what         TEXT NOT NULL,
    acknowledged REAL
)
"""


#: how each archived game ended (its records and last checksum), written with the reset that
#: archived it: an older file put back, which lost records of an archived game, is found at
#: open (made where missing, like ``damage``)
_GAME_ENDS_TABLE: Final = """
CREATE TABLE IF NOT EXISTS game_ends (
    game    INTEGER PRIMARY KEY,
    records INTEGER NOT NULL,
    last    INTEGER,
    chain   BLOB
)
"""


class JournalLocked(JournalError):
    """Another process (usually another ultibank) holds the journal."""


class JournalAccess(JournalError):
    """The journal or its directory cannot be created or written (permissions, read-only)."""


class UnknownSchema(JournalError):
    """A record or file written by a newer ultibank than this one."""


class BadRecord(JournalError, TypeError):
    """A record that cannot be stored as JSON; nothing was written."""


@dataclass(frozen=True, slots=True)
class StoredRecord:
    """One journalled transaction as read back: where and when it was stored, and the record."""

    seq: int
    game_id: int
    at: float
    version: int
    record: dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One game of the journal: the current one (``ended`` None) or an archived one."""

    id: int
    started: float
    ended: float | None
    records: int
    meta: dict[str, Any]

    @property
    def archived(self) -> bool:
        """True once a reset has closed this game."""
        return self.ended is not None


@dataclass(frozen=True, slots=True)
class Damage:
    """Damage found when the journal opened, kept in the file until a person acknowledges it.

    *lost* is the number of acknowledged transactions lost (None: it cannot be told, e.g. the
    tip file that would say it was unreadable)."""

    id: int
    found: float
    lost: int | None
    what: str


@dataclass(frozen=True, slots=True)
class QuarantinedRow:
    """A row set aside because its checksum chain broke; kept as found, never replayed."""

    id: int
    seq: object
    game_id: object
    at: object
    version: object
    payload: object
    reason: str
    found: float


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A game's state after record *seq* (its *count*-th), as the game layer wrote it.

    Read back only once its digest, chained over record *seq*'s checksum, checks out.
    """

    game_id: int
    seq: int
    count: int
    version: str
    payload: str


def _snapshot_digest(chain: bytes, game_id: int, seq: int, count: int, version: str,
                     payload: str) -> bytes:  # fmt: skip
    """A snapshot's checksum, chained over the checksum of the record it follows."""
    h = hashlib.blake2b(chain, digest_size=_DIGEST_SIZE, person=b"ultibank-snap")
    h.update(f"|{seq}|{game_id}|{count}|{version}|{payload}".encode())
    return h.digest()


def _seed(game_id: int) -> bytes:
    """The chain value before a game's first record."""
    return hashlib.blake2b(
        f"ultibank-journal|{game_id}".encode(), digest_size=_DIGEST_SIZE
    ).digest()


#: BLAKE2b of nothing yet, copied for each row (cheaper than setting one up per row)
_LINK_HASH: Final = hashlib.blake2b(digest_size=_DIGEST_SIZE)


def _link(prev: bytes, seq: int, game_id: int, at: float, version: int, payload: str) -> bytes:
    """The checksum of one row, chained over the previous row's checksum: BLAKE2b of the
    previous checksum followed by ``|seq|game|at|version|payload``
    (:meth:`Journal.append_text` works it out inline: the two stay the same)."""
    h = _LINK_HASH.copy()
    h.update(prev)
    h.update(f"|{seq}|{game_id}|{at!r}|{version}|{payload}".encode())
    return h.digest()


#: one encoder for every record: ``json.dumps`` with options builds a new one per call
_RECORD_JSON: Final = json.JSONEncoder(separators=(",", ":"), allow_nan=False)


def _not_json(o: object) -> Any:
    raise TypeError(f"Object of type {type(o).__name__} is not JSON serializable")


def _make_record_text() -> Callable[[dict[str, Any]], str]:
    """The record's JSON text, as :data:`_RECORD_JSON` writes it, character for character.

    ``JSONEncoder.encode`` sets up the C encoder again at every call (half its time for a
    transaction's record); the C encoder made once here skips that. Without the C accelerator
    (another interpreter), the encoder's own method. Circular records are not looked for: a
    record is built fresh by the game layer, and one that loops fails with RecursionError,
    refused like any record that is not JSON.
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return _RECORD_JSON.encode
    ascii_text = json.encoder.encode_basestring_ascii
    # (markers, default, encoder, indent, key_separator, item_separator, sort_keys, skipkeys,
    #  allow_nan): the options of _RECORD_JSON
    chunks = make(None, _not_json, ascii_text, None, ":", ",", False, False, False)
    join = "".join

    def record_text(record: dict[str, Any]) -> str:
        return join(chunks(record, 0))

    return record_text


_record_text: Final = _make_record_text()


def _payload(record: dict[str, Any]) -> str:
    """*record* as the JSON text stored; BadRecord if it is not JSON."""
    try:
        return _record_text(record)
    except (TypeError, ValueError, RecursionError) as err:
        raise BadRecord(f"record is not JSON-serialisable ({err}): {record!r:.200}") from err


#: a record's row; the same text every time, so SQLite's statement cache prepares it once
_INSERT_RECORD: Final = (
    "INSERT INTO records (seq, game, at, version, payload, chain) VALUES (?,?,?,?,?,?)"
)


def _game_span(conn: sqlite3.Connection, game_id: int, fmt: int) -> tuple[int, int]:
    """The run of sequence numbers ``[first, end)`` holding *game_id*'s records: from its
    ``first_seq`` to the next game's (the whole range in a journal of the indexed format, or
    for a game that does not say)."""
    if fmt < FILE_FORMAT:
        return 0, _NO_END
    row = conn.execute(
        "SELECT first_seq, (SELECT min(first_seq) FROM games WHERE id > ?1) FROM games "
        "WHERE id = ?1",
        (game_id,),
    ).fetchone()
    if row is None:
        return 0, _NO_END
    first, end = row
    return (
        first if isinstance(first, int) else 0,
        end if isinstance(end, int) else _NO_END,
    )


def _corrupt_message(path: Path, detail: str) -> str:
    return (
        f"the journal {path} is damaged ({detail}). Move it aside (for example rename it to "
        f"{path.name}.damaged) and start ultibank again to begin a new journal; the old games "
        f"stay in the moved file (`sqlite3 {path.name}.damaged .recover` may save more of them)."
    )


def _translate(err: sqlite3.Error, path: Path, doing: str) -> JournalError:
    """Turn an sqlite3 error into the matching :class:`JournalError` with a clear message."""
    code = getattr(err, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in (_SQLITE_BUSY, _SQLITE_LOCKED):
        return JournalLocked(
            f"{doing}: {path} is locked; another ultibank is using this data directory "
            f"({path.parent}). Stop it first."
        )
    if primary == _SQLITE_FULL:
        return JournalFull(
            f"{doing}: the disk holding {path} is full; nothing was recorded. Free some space."
        )
    if primary in (_SQLITE_PERM, _SQLITE_READONLY, _SQLITE_CANTOPEN, _SQLITE_AUTH):
        return JournalAccess(
            f"{doing}: cannot open or write {path} ({err}); check that the data directory "
            f"exists, is writable by this user and is not on a read-only file system."
        )
    if primary in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
        return CorruptJournal(_corrupt_message(path, str(err)))
    if primary == _SQLITE_IOERR:
        return JournalError(f"{doing}: input/output error on {path} ({err}); check the disk.")
    return JournalError(f"{doing}: {path}: {err}")


def _translate_os(err: OSError, path: Path, doing: str) -> JournalError:
    """Turn an OSError from the file system into the matching :class:`JournalError`."""
    if isinstance(err, PermissionError) or err.errno in (errno.EROFS, errno.EACCES):
        return JournalAccess(
            f"{doing}: permission denied for {path} ({err.strerror}); the data directory "
            f"must be writable by this user."
        )
    if err.errno in (errno.ENOSPC, errno.EDQUOT):
        return JournalFull(f"{doing}: the disk holding {path} is full. Free some space.")
    return JournalError(f"{doing}: {path}: {err.strerror or err}")


def _rollback(conn: sqlite3.Connection) -> None:
    """Roll back what is still open: SQLite has already undone a COMMIT that failed (full disk)."""
    if conn.in_transaction:
        conn.execute("ROLLBACK")


@dataclass(frozen=True, slots=True)
class _Tip:
    generation: int
    seq: int
    game: int
    chain: bytes


#: the tip's checksum, personalised once: copying it is cheaper than setting it up per commit
_TIP_HASH: Final = hashlib.blake2b(digest_size=16, person=b"ultibank-tip")
_TIP_BODY: Final = struct.Struct("<4sQQQ16s")
_TIP_PAD: Final = b"\0" * (_TIP_SLOT_SIZE - _TIP_SLOT.size)


def _tip_digest(body: bytes) -> bytes:
    h = _TIP_HASH.copy()
    h.update(body)
    return h.digest()


def _pack_tip(tip: _Tip) -> bytes:
    body = _TIP_BODY.pack(_TIP_MAGIC, tip.generation, tip.seq, tip.game, tip.chain)
    return body + _tip_digest(body) + _TIP_PAD


def _read_tip(path: Path) -> _Tip | None:
    """The newest readable slot of the tip file at *path*, if any (never follows a link)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        raw = os.pread(fd, 2 * _TIP_SLOT_SIZE, 0)
    except OSError:
        return None
    finally:
        os.close(fd)
    slots = [t for t in (_unpack_tip(raw[:64]), _unpack_tip(raw[64:128])) if t is not None]
    return max(slots, key=lambda t: t.generation) if slots else None


def _unpack_tip(raw: bytes) -> _Tip | None:
    if len(raw) < _TIP_SLOT.size:
        return None
    magic, generation, seq, game, chain, digest = _TIP_SLOT.unpack_from(raw)
    if magic != _TIP_MAGIC or digest != _tip_digest(raw[: _TIP_SLOT.size - 16]):
        return None
    return _Tip(generation, seq, game, chain)


class Journal:
    """The durable, checksummed record of every game's transactions.

    Not thread-safe: one daemon loop owns it. ``clock`` gives the time stored with each record
    and game (seconds since the epoch by default).
    """

    def __init__(self, path: str | os.PathLike[str], clock: Callable[[], float] = time.time):
        self.path = Path(path)
        self._clock = clock
        #: problems found and repaired (quarantined tails), human-readable, oldest first
        self.recovery: list[str] = []
        #: damage found at open (this one or an earlier one) that no person has acknowledged
        #: yet: acknowledged transactions missing, a bad tail set aside, an unreadable tip, a
        #: game ended outside ultibank (see :meth:`damage` and :meth:`acknowledge_damage`)
        self.loss: list[str] = []
        self._damage: list[Damage] = []
        self._lock_fd: int | None = None
        self._tip_fd: int | None = None
        self._tip_generation = 0
        self._tip_chain = b""
        self._tip_failing = False
        self._conn: sqlite3.Connection | None = None
        #: the cursor that records transactions, kept (one made per INSERT costs 5 % of it)
        self._cursor: sqlite3.Cursor | None = None
        self._game: int | None = None
        self._head = b""
        self._last_seq = 0
        self._verified: set[int] = set()
        #: the file's layout (FILE_FORMAT, or the indexed format of a journal left as it was)
        self._format = FILE_FORMAT
        #: game -> the run of sequence numbers its records lie in, [first, end)
        self._spans: dict[int, tuple[int, int]] = {}
        #: game -> the seq after which its chain was verified at open (a snapshot covers the rest)
        self._tail_from: dict[int, int] = {}
        self._snapshot: Snapshot | None = None
        self._check_deferred = False
        self._audit_thread: threading.Thread | None = None
        self._audit_found: list[str] = []
        #: seqs of records the audit found damaged (kept in place: a snapshot covers them)
        self._audit_bad: list[int] = []
        self._bad_records: set[int] = set()
        self._audit_stop = threading.Event()
        #: called (in order) by :meth:`close` before the journal closes: a clean stop's snapshot
        self.before_close: list[Callable[[], None]] = []
        self._opened = False
        try:
            existed = self.path.exists() and self.path.stat().st_size > 0
            #: a file was there (perhaps emptied): an empty one is not a new journal
            self._present = self.path.exists()
            self._lock()
            self._conn = self._connect()
            self._prepare()
            self._resume()
            self._open_tip(existed)
            self._check_game_ends()
            self._load_damage()
            self._opened = True
        except BaseException:
            self.close()
            raise

    # -- opening --------------------------------------------------------------------------

    def _lock(self) -> None:
        lock_path = self.path.with_name(self.path.name + ".lock")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # O_NOFOLLOW: a link planted there must not make the bank write into another file
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        except OSError as err:
            if err.errno == errno.ELOOP:
                raise JournalError(
                    f"{lock_path} is a symbolic link: refusing to follow it; remove the link"
                ) from err
            raise _translate_os(err, self.path, "opening the journal") from err
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as err:
            holder = os.read(fd, 32).decode(errors="replace").strip()
            os.close(fd)
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise JournalLocked(
                f"another ultibank{who} is using this data directory ({self.path.parent}): "
                f"{lock_path} is locked. Stop it first; two banks must not share one journal."
            ) from err
        except OSError as err:
            os.close(fd)
            raise _translate_os(err, lock_path, "locking the journal") from err
        self._lock_fd = fd
        try:
            # The pid is only a hint for the message above; the flock is the lock. Written
            # over the old one at a fixed width, never truncated first: a truncation waits
            # for the file system's journal, tens of milliseconds of a resume on a busy disk.
            os.pwrite(fd, f"{os.getpid()}\n".encode().ljust(_PID_WIDTH), 0)
        except OSError as err:
            raise _translate_os(err, lock_path, "locking the journal") from err

    def _connect(self) -> sqlite3.Connection:
        try:
            # One thread at a time uses a journal, but not always the one that opened it: the
            # daemon opens it at start and hands it to its loop thread.
            conn = sqlite3.connect(
                self.path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as err:
            raise _translate(err, self.path, "opening the journal") from err
        return conn

    def _prepare(self) -> None:
        """Check the file is a sound ultibank journal of a known format; create it if empty."""
        conn = self._db()
        try:
            if self._snapshot_waiting():
                # whole-file checks cost time in proportion to the journal: with a snapshot
                # to resume from, they run later (audit), not in the way of the resume
                self._check_deferred = True
            else:
                self._quick_check()
            app_id = conn.execute("PRAGMA application_id").fetchone()[0]
            fmt = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
            if app_id == 0 and fmt == 0 and tables == 0:
                self._refuse_emptied()
                self._create()
            elif app_id != APPLICATION_ID:
                raise CorruptJournal(
                    f"{self.path} is an SQLite database, but not an ultibank journal. Choose "
                    f"another data directory, or move the file aside to start a new journal."
                )
            elif fmt > FILE_FORMAT:
                raise UnknownSchema(
                    f"the journal {self.path} was written by a newer ultibank (file format "
                    f"{fmt}, this one reads up to {FILE_FORMAT}); upgrade ultibank."
                )
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute(_DAMAGE_TABLE)
            conn.execute(_GAME_ENDS_TABLE)
            self._create_snapshots_table()
            if 0 < fmt < FILE_FORMAT:
                self._convert()
        except sqlite3.Error as err:
            raise _translate(err, self.path, "opening the journal") from err

    def _convert(self) -> None:
        """Bring a format-1 journal to this format in one commit: each game's first sequence
        number into ``games.first_seq``, then the ``records_by_game`` index dropped (one page
        less written by every commit from then on). The records are not touched.

        Only a journal whose games each hold one run of sequence numbers (as every ultibank
        writes them) is converted; one whose games interleave (edited by hand) keeps its
        index and format, and is read through the index as before.
        """
        conn = self._db()
        conn.execute("BEGIN IMMEDIATE")
        try:
            columns = {row[1] for row in conn.execute("PRAGMA table_info(games)")}
            if "first_seq" not in columns:
                conn.execute("ALTER TABLE games ADD COLUMN first_seq INTEGER")
            firsts = []
            below = 0  # the highest sequence number of the games before
            runs = True
            for (game_id,) in conn.execute("SELECT id FROM games ORDER BY id").fetchall():
                low, high = conn.execute(
                    "SELECT min(seq), max(seq) FROM records WHERE game = ?", (game_id,)
                ).fetchone()
                if low is not None and low <= below:
                    runs = False
                    break
                firsts.append((below + 1 if low is None else low, game_id))
                below = below if high is None else high
            strays = conn.execute(
                "SELECT 1 FROM records WHERE game NOT IN (SELECT id FROM games) LIMIT 1"
            ).fetchone()
            if runs and strays is None:
                conn.executemany("UPDATE games SET first_seq = ? WHERE id = ?", firsts)
                conn.execute("DROP INDEX IF EXISTS records_by_game")
                conn.execute(f"PRAGMA user_version={FILE_FORMAT}")
                conn.execute("COMMIT")
                log.info("journal %s converted to file format %d", self.path, FILE_FORMAT)
            else:
                conn.execute("ROLLBACK")
                log.warning(
                    "the journal %s has games whose records interleave (edited outside "
                    "ultibank?): it keeps file format %d and its index",
                    self.path,
                    _INDEXED_FORMAT,
                )
        except BaseException:
            _rollback(conn)
            raise

    def _quick_check(self) -> None:
        """SQLite's structural check of the whole file; CorruptJournal if it fails."""
        problems = [row[0] for row in self._db().execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise CorruptJournal(
                _corrupt_message(self.path, "; ".join(str(p) for p in problems[:3]))
            )

    def _create_snapshots_table(self) -> None:
        self._db().execute(_SNAPSHOT_SCHEMA)

    def _refuse_emptied(self) -> None:
        """An empty journal beside a tip that names transactions was emptied or truncated: set
        the file aside (the tip stays, as proof) and refuse, rather than start a new game."""
        set_aside = sorted(self.path.parent.glob(f"{self.path.name}.empty-*"))
        present = getattr(self, "_present", False)
        if not present and not set_aside:
            return  # moved aside (or never made): a new journal, with a new tip
        tip = _read_tip(self.tip_path)
        if tip is None or (tip.seq == 0 and tip.game == 0):
            return
        if self._conn is not None:
            self._conn.close()
            self._conn = self._cursor = None
        if present:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            aside = self.path.with_name(f"{self.path.name}.empty-{stamp}")
            with contextlib.suppress(OSError):
                os.rename(self.path, aside)
        else:  # set aside by an earlier start: still no journal to go on with
            aside = set_aside[-1]
            with contextlib.suppress(OSError):
                os.unlink(self.path)  # the empty file this open made
        raise CorruptJournal(
            f"the journal {self.path} is empty, but {self.tip_path.name} says transaction "
            f"{tip.seq} of game {tip.game} had been committed: it was emptied or truncated. "
            f"Refusing to start a new game over it; the empty file was moved to {aside.name}. "
            f"Put the journal back from a backup, or move {self.tip_path.name} aside to start "
            f"a new journal."
        )

    def _create(self) -> None:
        conn = self._db()
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in (*_SCHEMA.split(";"), _DAMAGE_TABLE, _GAME_ENDS_TABLE):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version={FILE_FORMAT}")
            conn.execute("COMMIT")
        except BaseException:
            _rollback(conn)
            raise
        # journal.sqlite alone now holds the tables: losing the WAL can never make an old
        # journal look like a new, empty one
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def _resume(self) -> None:
        """Find the current game and verify its chain so appends can extend it."""
        conn = self._db()
        try:
            fmt = conn.execute("PRAGMA user_version").fetchone()[0]
            self._format = FILE_FORMAT if fmt >= FILE_FORMAT else _INDEXED_FORMAT
            row = conn.execute(
                "SELECT max(s) FROM (SELECT max(seq) AS s FROM records "
                "UNION ALL SELECT max(seq) FROM quarantine WHERE typeof(seq) = 'integer')"
            ).fetchone()
            self._last_seq = int(row[0] or 0)
            # new_game() ends a game and starts the next in one commit: the last game is
            # never ended by ultibank itself
            row = conn.execute("SELECT id, ended FROM games ORDER BY id DESC LIMIT 1").fetchone()
        except sqlite3.Error as err:
            raise _translate(err, self.path, "reading the journal") from err
        if row is not None:
            self._game = int(row[0])
            if row[1] is not None:
                self._ended_outside(self._game)
            self._head = self._verify_from_snapshot(self._game)

    def _ended_outside(self, game_id: int) -> None:
        """The last game was marked ended behind ultibank's back: resume it, and say so."""
        try:
            self._db().execute("UPDATE games SET ended = NULL WHERE id = ?", (game_id,))
        except sqlite3.Error as err:
            raise _translate(err, self.path, "resuming the current game") from err
        self._record_damage(
            None,
            f"{self.path}: game {game_id} was marked ended outside ultibank (the games table "
            f"was edited); it is resumed. Check the balances with the players.",
        )

    def _verify(
        self, game_id: int, after: int = 0, head: bytes | None = None, before: int = 0
    ) -> bytes:
        """Check *game_id*'s chain, quarantine a bad tail, and return the last good checksum.

        With *after*, only the records after that seq, chained from *head* (the checksum of
        record *after*, which *before* records precede in the game): a snapshot covers the rest.
        """
        try:
            first, end = self._span(game_id)
            rows = self._db().execute(
                "SELECT seq, at, version, payload, chain FROM records "
                "WHERE seq > ? AND seq < ? AND game = ? ORDER BY seq",
                (max(after, first - 1), end, game_id),
            )
            head = _seed(game_id) if head is None else head
            good = before
            bad: tuple[int, str] | None = None
            for seq, at, version, payload, chain in rows:
                try:
                    expected = _link(head, seq, game_id, at, version, payload)
                except (TypeError, AttributeError):
                    expected = b""
                if chain != expected:
                    why = (
                        "does not match its checksum (it was edited or damaged, "
                        "or a record before it is missing)"
                    )
                    bad = (seq, why)
                    break
                head = expected
                good += 1
        except sqlite3.Error as err:
            raise _translate(err, self.path, f"verifying game {game_id}") from err
        if bad is not None:
            self._quarantine(game_id, good, *bad)
        if not after:
            self._verified.add(game_id)
        return head

    def _quarantine(self, game_id: int, good: int, seq: int, why: str) -> None:
        conn = self._db()
        reason = f"game {game_id}: record {seq} {why}; it and the records after it were set aside"
        try:
            end = self._span(game_id)[1]
            conn.execute("BEGIN IMMEDIATE")
            try:
                moved = conn.execute(
                    "INSERT INTO quarantine (seq, game, at, version, payload, chain, reason, found)"
                    " SELECT seq, game, at, version, payload, chain, ?, ? FROM records"
                    " WHERE seq >= ? AND seq < ? AND game = ? ORDER BY seq",
                    (reason, float(self._clock()), seq, end, game_id),
                ).rowcount
                conn.execute(
                    "DELETE FROM records WHERE seq >= ? AND seq < ? AND game = ?",
                    (seq, end, game_id),
                )
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise
        except sqlite3.Error as err:
            raise _translate(err, self.path, f"quarantining a bad tail of game {game_id}") from err
        message = (
            f"{self.path}: game {game_id}: record {seq} {why}. It and the "
            f"{moved - 1} record(s) after it were moved to the quarantine table and not "
            f"replayed; the {good} record(s) before it are intact."
        )
        self.recovery.append(message)
        log.warning("journal recovery: %s", message)
        self._record_damage(moved, message)

    def _check_game_ends(self) -> None:
        """Every archived game still ends as it did when it was archived (two reads by primary
        key a game, whatever the length of the games): an older file put back beside a newer
        write-ahead log can lose an archived game's last records, which no tip would notice.

        Its last record must be there with the checksum it had, and no record after it; only
        a game that fails this is counted, for the message. (A record missing inside an
        archived game breaks its checksum chain, which reading the game verifies.)"""
        conn = self._db()
        try:
            ends = conn.execute(
                "SELECT game, records, last, chain FROM game_ends ORDER BY game"
            ).fetchall()
        except sqlite3.Error as err:
            if "no such table" in str(err):  # a reader on a journal no writer upgraded yet
                return
            raise _translate(err, self.path, "checking the archived games") from err
        for game_id, records, last, chain in ends:
            try:
                first, end = self._span(game_id)
                if last is None:
                    found_chain = None
                    after = conn.execute(
                        "SELECT 1 FROM records WHERE seq >= ? AND seq < ? AND game = ? LIMIT 1",
                        (first, end, game_id),
                    ).fetchone()
                else:
                    found_chain = self._chain_in_game(game_id, last)
                    after = conn.execute(
                        "SELECT 1 FROM records WHERE seq > ? AND seq < ? AND game = ? LIMIT 1",
                        (last, end, game_id),
                    ).fetchone()
                if after is None and (last is None or found_chain == chain):
                    continue
                found = conn.execute(
                    "SELECT count(*) FROM records WHERE seq >= ? AND seq < ? AND game = ?",
                    (first, end, game_id),
                ).fetchone()[0]
            except sqlite3.Error as err:
                raise _translate(err, self.path, "checking the archived games") from err
            if found == records and (last is None or found_chain == chain):
                continue
            if self._known_damage(game_id):
                continue
            missing = max(records - found, 0)
            message = (
                f"{self.path}: archived game {game_id} had {records} transaction(s) when it was "
                f"archived, the journal now holds {found}"
                + ("" if found_chain == chain else " and its last one differs")
                + f". {self.path.name} was replaced by an older copy, or damaged; "
                f"`ultibank history` shows what is left."
            )
            log.error("journal: %s", message)
            self._record_damage(missing or None, message)

    def _known_damage(self, game_id: int) -> bool:
        """Whether archived game *game_id*'s damage is already kept (said once): a finding
        about it, or its bad tail set aside in the quarantine."""
        try:
            row = (
                self._db()
                .execute(
                    "SELECT 1 FROM damage WHERE what LIKE ? "
                    "UNION ALL SELECT 1 FROM quarantine WHERE game = ? LIMIT 1",
                    (f"%archived game {game_id} had %", game_id),
                )
                .fetchone()
            )
        except sqlite3.Error:
            return False
        return row is not None

    # -- damage: kept until a person acknowledges it ------------------------------------------

    def _record_damage(self, lost: int | None, what: str) -> None:
        """Keep one finding in the ``damage`` table; it is shown until acknowledged."""
        found = float(self._clock())
        self.loss.append(what)
        try:
            cursor = self._db().execute(
                "INSERT INTO damage (found, lost, what) VALUES (?, ?, ?)", (found, lost, what)
            )
        except sqlite3.Error as err:
            log.error("could not record the damage in %s: %s", self.path, err)
            self._damage.append(Damage(0, found, lost, what))
            return
        self._damage.append(Damage(int(cursor.lastrowid or 0), found, lost, what))

    def _load_damage(self) -> None:
        """Every finding not yet acknowledged, from this open and the earlier ones."""
        try:
            rows = (
                self._db()
                .execute(
                    "SELECT id, found, lost, what FROM damage WHERE acknowledged IS NULL "
                    "ORDER BY id"
                )
                .fetchall()
            )
        except sqlite3.Error as err:
            if "no such table" in str(err):  # a reader on a journal no writer upgraded yet
                rows = []
            else:
                raise _translate(err, self.path, "reading the journal's damage") from err
        stored = [Damage(int(i), float(f), None if n is None else int(n), str(w))
                  for i, f, n, w in rows]  # fmt: skip
        unsaved = [d for d in self._damage if d.id == 0]  # the disk refused them
        self._damage = stored + unsaved
        self.loss = [d.what for d in self._damage]

    def damage(self) -> list[Damage]:
        """The damage found at open that no person has acknowledged yet, oldest first."""
        return list(self._damage)

    @property
    def lost(self) -> int | None:
        """How many acknowledged transactions the unacknowledged damage lost (0: no damage;
        None: damage whose loss cannot be counted, e.g. an unreadable tip file)."""
        if any(d.lost is None for d in self._damage):
            known = sum(d.lost or 0 for d in self._damage)
            return known or None
        return sum(d.lost or 0 for d in self._damage)

    def acknowledge_damage(self) -> int:
        """A person has seen the damage (and checked the balances): stop showing it. Returns
        how many findings were acknowledged; they stay in the file for ``history``."""
        try:
            cursor = self._db().execute(
                "UPDATE damage SET acknowledged = ? WHERE acknowledged IS NULL",
                (float(self._clock()),),
            )
        except sqlite3.Error as err:
            raise _translate(err, self.path, "acknowledging the journal's damage") from err
        count = max(cursor.rowcount, len(self._damage))
        self._damage = []
        self.loss = []
        return count

    # -- snapshots: resuming without replaying the whole game -------------------------------

    def _snapshot_waiting(self) -> bool:
        """Whether the open game has a snapshot to resume from (looked up, not yet checked)
        covering more records than are checked at once (:data:`AUDIT_AT_OPEN`)."""
        try:
            row = (
                self._db()
                .execute(
                    "SELECT max(count) FROM snapshots WHERE game = (SELECT max(id) FROM games)"
                )
                .fetchone()
            )
        except sqlite3.Error:  # no such table (an older or foreign file), or damage: check all
            return False
        return row is not None and isinstance(row[0], int) and row[0] > AUDIT_AT_OPEN

    def _verify_from_snapshot(self, game_id: int) -> bytes:
        """Verify *game_id*'s chain after its newest sound snapshot (all of it without one)."""
        snap = self._read_snapshot(game_id)
        if snap is None:
            if self._check_deferred:  # the snapshot that deferred the whole-file check is bad
                self._check_deferred = False
                try:
                    self._quick_check()
                except sqlite3.Error as err:
                    raise _translate(err, self.path, "opening the journal") from err
            return self._verify(game_id)
        chain = self._chain_in_game(game_id, snap.seq)
        assert chain is not None  # _read_snapshot checked it
        head = self._verify(game_id, after=snap.seq, head=chain, before=snap.count)
        self._tail_from[game_id] = snap.seq
        self._snapshot = snap
        if snap.count <= AUDIT_AT_OPEN:
            self.audit()  # a short game: what the snapshot covers is checked now
        return head

    def _chain_in_game(self, game_id: int, seq: int) -> bytes | None:
        try:
            row = (
                self._db()
                .execute("SELECT chain FROM records WHERE seq = ? AND game = ?", (seq, game_id))
                .fetchone()
            )
        except sqlite3.Error as err:
            raise _translate(err, self.path, "reading the journal") from err
        return row[0] if row is not None and isinstance(row[0], bytes) else None

    def _read_snapshot(self, game_id: int) -> Snapshot | None:
        """The newest snapshot of *game_id* if it passes its check; a bad one is reported."""
        try:
            row = (
                self._db()
                .execute(
                    "SELECT seq, count, version, payload, digest FROM snapshots WHERE game = ? "
                    "ORDER BY seq DESC LIMIT 1",
                    (game_id,),
                )
                .fetchone()
            )
        except sqlite3.Error:
            return None  # no snapshots table: a journal written before snapshots
        if row is None:
            return None
        seq, count, version, payload, digest = row
        why = None
        try:
            chain = self._chain_in_game(game_id, int(seq))
            if chain is None:
                why = f"the journal holds no record {seq} for it to follow"
            elif digest != _snapshot_digest(chain, game_id, seq, count, version, payload):
                why = "its checksum does not match: it was edited or damaged"
        except (TypeError, ValueError, AttributeError):
            why = "its row is not readable"
        if why is None:
            return Snapshot(game_id, int(seq), int(count), str(version), str(payload))
        self._report_snapshot(game_id, seq, why)
        return None

    def _report_snapshot(self, game_id: int, seq: object, why: str) -> None:
        """A snapshot failed its check: report it, drop it (a new one is written), use none."""
        message = (
            f"{self.path}: game {game_id}: the snapshot after record {seq} failed its check "
            f"({why}); it is not used: the game is replayed from its first record instead, and "
            f"a new snapshot written. No transaction is lost."
        )
        self.recovery.append(message)
        log.warning("journal recovery: %s", message)
        self._record_damage(None, message)
        # a reader cannot delete; the writer drops it at its next open
        with contextlib.suppress(sqlite3.Error):
            self._db().execute("DELETE FROM snapshots WHERE game = ? AND seq = ?", (game_id, seq))

    def snapshot(self) -> Snapshot | None:
        """The current game's newest snapshot that passed its check at open (None: none).

        The records after it were verified at open; :meth:`entries` with ``after=snap.seq``
        gives them.
        """
        snap = self._snapshot
        return snap if snap is not None and snap.game_id == self._game else None

    def forget_snapshot(self) -> None:
        """The game layer cannot use :meth:`snapshot` (its state has another shape): verify the
        whole game now, as a journal without snapshots does (a damaged record and those after
        it are set aside), so that :meth:`records` gives a game that replays."""
        game_id = self._game
        if game_id is None or self._snapshot is None:
            return
        self._snapshot = None
        self.audit()  # let a running audit finish
        self._bad_records.clear()
        self._verified.discard(game_id)
        self._head = self._verify(game_id)

    def save_snapshot(self, count: int, version: str, payload: str) -> None:
        """Store the game layer's snapshot of the current game after its last record.

        *count* is the number of records it covers, *version* the shape of the state it
        holds. Checked against the last record's checksum when read back. Not waited on the
        disk: a snapshot lost to a power cut only makes the next resume replay more.
        """
        game_id = self._current("snapshot")
        conn = self._db()
        try:
            first, end = self._span(game_id)
            row = conn.execute(
                "SELECT seq, chain FROM records WHERE seq >= ? AND seq < ? AND game = ? "
                "ORDER BY seq DESC LIMIT 1",
                (first, end, game_id),
            ).fetchone()
            if row is None or row[1] != self._head:
                raise JournalError(
                    f"cannot snapshot game {game_id} of {self.path}: its last record is not the "
                    f"one this journal wrote last"
                )
            seq = int(row[0])
            digest = _snapshot_digest(self._head, game_id, seq, count, version, payload)
            conn.execute("PRAGMA synchronous=NORMAL")
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.execute(
                        "INSERT OR REPLACE INTO snapshots (game, seq, count, version, at, "
                        "payload, digest) VALUES (?,?,?,?,?,?,?)",
                        (game_id, seq, count, version, float(self._clock()), payload, digest),
                    )
                    conn.execute(
                        "DELETE FROM snapshots WHERE game != ? OR seq NOT IN (SELECT seq FROM "
                        "snapshots WHERE game = ? ORDER BY seq DESC LIMIT ?)",
                        (game_id, game_id, _SNAPSHOTS_KEPT),
                    )
                    conn.execute("COMMIT")
                except BaseException:
                    _rollback(conn)
                    raise
            finally:
                conn.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as err:
            raise _translate(err, self.path, "writing a snapshot") from err
        self._snapshot = Snapshot(game_id, seq, count, version, payload)

    def start_audit(self) -> None:
        """Run the checks a resume from a snapshot left for later in a thread of their own
        (its own read-only connection), so they never hold up the game; :meth:`audit` then
        collects what they found. Does nothing when nothing was left for later."""
        if self._audit_thread is not None or not (self._check_deferred or self._tail_from):
            return
        jobs = (self._check_deferred, dict(self._tail_from))
        thread = threading.Thread(
            target=self._audit_in_thread, args=jobs, name="journal-audit", daemon=True
        )
        self._audit_thread = thread
        thread.start()

    def _audit_in_thread(self, quick: bool, prefixes: dict[int, int]) -> None:
        try:
            conn = sqlite3.connect(
                f"{self.path.absolute().as_uri()}?mode=ro", uri=True, timeout=5.0
            )
        except sqlite3.Error as err:
            self._audit_found = [str(_translate(err, self.path, "checking the journal"))]
            return
        try:
            self._audit_found = self._audit_checks(conn, quick, prefixes, self._audit_stop)
        finally:
            conn.close()

    def audit_ready(self) -> bool:
        """Whether :meth:`audit` has something to give without waiting (or nothing to do)."""
        thread = self._audit_thread
        return thread is None or not thread.is_alive()

    def audit(self) -> list[str]:
        """The checks a resume from a snapshot left for later; returns what they found, once.

        SQLite's whole-file check, and the checksum chain of the current game's records that
        the snapshot covers. A damaged record there is reported (here, in :attr:`recovery` and
        the log) but not set aside: the snapshot, checked against a later checksum, already
        holds what it did, so the game goes on; only its history is damaged. Collects what
        :meth:`start_audit`'s thread found (waiting for it if it still runs), or runs the
        checks now; does nothing the second time.
        """
        thread, self._audit_thread = self._audit_thread, None
        if thread is not None:
            thread.join()
            found, self._audit_found = self._audit_found, []
        elif self._check_deferred or self._tail_from:
            found = self._audit_checks(self._db(), self._check_deferred, dict(self._tail_from))
        else:
            return []
        self._check_deferred = False
        self._verified.update(self._tail_from)
        self._tail_from.clear()
        self._bad_records.update(self._audit_bad)
        self._audit_bad = []
        for message in found:
            self.recovery.append(message)
            log.warning("journal audit: %s", message)
            if not self._damage_recorded(message):  # a record left in place is found again
                self._record_damage(None, message)
        return found

    def _damage_recorded(self, what: str) -> bool:
        """Whether this very finding is in the ``damage`` table already (acknowledged or not)."""
        try:
            row = (
                self._db()
                .execute("SELECT 1 FROM damage WHERE what = ? LIMIT 1", (what,))
                .fetchone()
            )
        except sqlite3.Error:
            return False
        return row is not None

    def _audit_checks(
        self,
        conn: sqlite3.Connection,
        quick: bool,
        prefixes: dict[int, int],
        stop: threading.Event | None = None,
    ) -> list[str]:
        found: list[str] = []
        try:
            if quick:
                problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
                if problems != ["ok"]:
                    detail = "; ".join(str(p) for p in problems[:3])
                    found.append(_corrupt_message(self.path, detail))
            for game_id, upto in prefixes.items():
                found += self._audit_prefix(conn, game_id, upto, stop)
        except sqlite3.Error as err:
            found.append(str(_translate(err, self.path, "checking the journal")))
        return found

    def _audit_prefix(
        self, conn: sqlite3.Connection, game_id: int, upto: int, stop: threading.Event | None
    ) -> list[str]:
        """Verify *game_id*'s chain up to record *upto*; report bad records, move nothing."""
        bad: list[int] = []
        first = _game_span(conn, game_id, self._format)[0]  # this thread's own connection
        rows = conn.execute(
            "SELECT seq, at, version, payload, chain FROM records"
            " WHERE seq >= ? AND seq <= ? AND game = ? ORDER BY seq",
            (first, upto, game_id),
        )
        head = _seed(game_id)
        for seq, at, version, payload, chain in rows:
            try:
                expected = _link(head, seq, game_id, at, version, payload)
            except (TypeError, AttributeError):
                expected = b""
            if chain != expected:
                bad.append(seq)
            head = chain if isinstance(chain, bytes) else b""
            if stop is not None and stop.is_set():
                return []  # the journal is closing: the next start audits again
        if not bad:
            return []
        self._audit_bad.extend(bad)
        listed = ", ".join(map(str, bad[:10])) + (" ..." if len(bad) > 10 else "")
        return [
            f"{self.path}: game {game_id}: {len(bad)} record(s) before the snapshot the game "
            f"resumed from do not match their checksums (damaged or edited: {listed}). The "
            f"game goes on from the snapshot, which holds what they did; their history may "
            f"read wrong."
        ]

    # -- the tip: detecting acknowledged transactions that went missing ---------------------

    @property
    def tip_path(self) -> Path:
        """The tip file: the last committed sequence number, game and checksum."""
        return self.path.with_name(self.path.name + TIP_SUFFIX)

    def _open_tip(self, existed: bool) -> None:
        """Read the tip left by the last run, compare it with the journal, then take it over.

        The tip is written after each commit, without an fsync: it can lag behind the journal
        (a crash before it reached the disk), never run ahead of it, so a tip ahead of the
        journal can only mean acknowledged transactions were lost.
        """
        path = self.tip_path
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as err:
            if err.errno == errno.ELOOP:
                raise JournalAccess(
                    f"{path} is a symbolic link; ultibank does not follow links in its data "
                    f"directory. Remove it and start again."
                ) from err
            raise _translate_os(err, path, "opening the journal's tip file") from err
        self._tip_fd = fd
        try:
            raw = os.pread(fd, 2 * _TIP_SLOT_SIZE, 0)
        except OSError as err:
            raise _translate_os(err, path, "reading the journal's tip file") from err
        slots = [t for t in (_unpack_tip(raw[:64]), _unpack_tip(raw[64:128])) if t is not None]
        tip = max(slots, key=lambda t: t.generation) if slots else None
        self._tip_chain = self._chain_of(self._last_seq) or b""
        if tip is None:
            if raw.strip(b"\0"):
                message = (
                    f"{path} is unreadable, so this start could not check that no acknowledged "
                    f"transaction is missing; it is rewritten now. Check the balances with "
                    f"the players."
                )
                self.recovery.append(message)
                log.warning("journal recovery: %s", message)
                self._record_damage(None, message)
        elif not existed:
            log.warning(
                "%s belongs to a journal that is no longer at %s (moved aside?); a new "
                "journal starts with a new tip",
                path,
                self.path,
            )
        else:
            self._tip_generation = tip.generation
            self._check_tip(tip)
        self._write_tip()

    def _chain_of(self, seq: int) -> bytes | None:
        """The checksum stored with record *seq* (or with its quarantined row), if any."""
        try:
            for table in ("records", "quarantine"):
                row = (
                    self._db()
                    .execute(f"SELECT chain FROM {table} WHERE seq = ? ORDER BY rowid DESC", (seq,))
                    .fetchone()
                )
                if row is not None and isinstance(row[0], bytes):
                    return row[0]
        except sqlite3.Error as err:
            raise _translate(err, self.path, "reading the journal") from err
        return None

    def _check_tip(self, tip: _Tip) -> None:
        """Report (loudly, and in the quarantine table) what the tip says is missing."""
        try:
            row = self._db().execute("SELECT max(id) FROM games").fetchone()
        except sqlite3.Error as err:
            raise _translate(err, self.path, "reading the journal") from err
        last_game = int(row[0] or 0)
        name = self.path.name
        cause = (
            f"The write-ahead log ({name}-wal) was lost or damaged, or {name} was replaced by "
            f"an older copy. The game resumes from what the journal holds; check the balances "
            f"with the players."
        )
        if tip.seq > self._last_seq:
            missing = tip.seq - self._last_seq
            what = (
                f"{missing} acknowledged transaction(s) are missing: the journal ends at "
                f"transaction {self._last_seq}, but transaction {tip.seq} (game {tip.game}) "
                f"had been committed."
            )
        elif tip.game > last_game:
            what = (
                f"an acknowledged reset is missing: game {tip.game} had been started, but the "
                f"journal's last game is {last_game}."
            )
        elif tip.seq > 0 and self._chain_of(tip.seq) != tip.chain:
            what = (
                f"transaction {tip.seq} in the journal is not the one that was committed "
                f"(its checksum differs from the tip's): the journal was replaced or rewritten."
            )
        else:
            return
        message = f"{self.path}: {what} {cause}"
        log.error("journal: %s", message)
        self._record_damage(max(tip.seq - self._last_seq, 0) or None, message)
        # Keep the finding in the file (``ultibank history`` shows it), and never hand out the
        # missing sequence numbers again.
        try:
            self._db().execute(
                "INSERT INTO quarantine (seq, game, at, version, payload, chain, reason, found)"
                " VALUES (?, ?, NULL, NULL, NULL, ?, ?, ?)",
                (tip.seq, tip.game, tip.chain, f"lost: {what}", float(self._clock())),
            )
        except sqlite3.Error as err:
            log.error("could not record the loss in %s: %s", self.path, err)
        if tip.seq > self._last_seq:
            self._last_seq = tip.seq
            self._tip_chain = tip.chain

    def _write_tip(self) -> None:
        """Record the last commit in the tip file: one slot of two, no fsync (see above).

        One ``pwrite`` (about 1.6 µs here). A memory map would save about 1.5 µs of that, but
        a mapped file that someone cuts short makes the next store kill the process with
        SIGBUS; a ``pwrite`` just writes the file again.
        """
        generation = self._tip_generation = self._tip_generation + 1
        fd = self._tip_fd
        if fd is None:
            return
        body = _TIP_BODY.pack(_TIP_MAGIC, generation, self._last_seq, self._game or 0,
                              self._tip_chain)  # fmt: skip
        h = _TIP_HASH.copy()
        h.update(body)
        try:
            os.pwrite(fd, body + h.digest() + _TIP_PAD, (generation & 1) * _TIP_SLOT_SIZE)
        except OSError as err:
            if not self._tip_failing:
                log.warning("cannot update %s: %s", self.tip_path, err)
            self._tip_failing = True
        else:
            if self._tip_failing:
                self._tip_failing = False

    # -- health ---------------------------------------------------------------------------

    def probe(self) -> None:
        """One small real commit that changes nothing; raises what a transaction would meet.

        A unit whose journal failed calls this to learn when it can take transactions again
        (space freed, the disk writable again).
        """
        conn = self._db()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute(f"PRAGMA user_version={self._format}")
                conn.execute("UPDATE games SET meta = meta WHERE id = (SELECT max(id) FROM games)")
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise
        except sqlite3.Error as err:
            raise _translate(err, self.path, "recording a transaction") from err
        self._write_tip()

    def checkpoint(self) -> None:
        """Copy the write-ahead log into ``journal.sqlite`` and empty it.

        Afterwards the main file alone holds every committed transaction. Called when the
        unit goes idle and at a clean stop; costs a few milliseconds.
        """
        try:
            self._db().execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.Error as err:
            raise _translate(err, self.path, "checkpointing the journal") from err

    # -- writing --------------------------------------------------------------------------

    def append(self, record: dict[str, Any], version: int = SCHEMA_VERSION) -> int:
        """Store *record* durably in the current game; return its sequence number once on disk.

        With no game open (a fresh journal), a game with empty details is opened first.
        BadRecord when *record* is not JSON. One autocommitted statement: one durable commit,
        the cheapest SQLite makes (:meth:`append_text`).
        """
        if self._game is None:
            self.new_game({})
        if not isinstance(record, dict):
            raise BadRecord(f"a record must be a dict, not {type(record).__name__}")
        return self.append_text(_payload(record), version)

    def append_text(self, payload: str, version: int = SCHEMA_VERSION) -> int:
        """Store a record given as its JSON text, as :meth:`append` stores the record (same
        row, checksum and tip); return its sequence number once on disk.

        The text is stored as given: it must be what this journal writes of the record's dict,
        character for character (``bank.engine.records.record_text`` writes it so, straight
        from the transaction). A caller that cannot vouch for its record gives the dict to
        :meth:`append`, which refuses one that is not JSON.

        The path of every transaction, so written out in full: the checksum is
        :func:`_link`'s (inlined), then one autocommitted INSERT (one durable commit, the
        cheapest SQLite makes; :meth:`append_many`'s loop and lists are not taken), then the
        tip, after the commit.
        """
        game_id = self._game
        if game_id is None:
            game_id = self.new_game({})
        if type(payload) is not str:
            raise BadRecord(f"a record's text must be a str, not {type(payload).__name__}")
        seq = self._last_seq + 1
        at = self._clock()
        if type(at) is not float:
            at = float(at)
        h = _LINK_HASH.copy()
        h.update(self._head)
        h.update(f"|{seq}|{game_id}|{at!r}|{version}|{payload}".encode())
        head = h.digest()
        conn = self._conn
        if conn is None:
            raise JournalError(f"the journal {self.path} is closed")
        cursor = self._cursor
        if cursor is None or cursor.connection is not conn:
            cursor = self._cursor = conn.cursor()
        try:
            cursor.execute(_INSERT_RECORD, (seq, game_id, at, version, payload, head))
        except sqlite3.Error as err:
            raise _translate(err, self.path, "recording a transaction") from err
        self._head = self._tip_chain = head
        self._last_seq = seq
        self._write_tip()
        return seq

    def append_many(
        self, records: Sequence[dict[str, Any]], version: int = SCHEMA_VERSION
    ) -> list[int]:
        """Store *records* in one atomic, durable commit; return their sequence numbers."""
        game_id = self._game if self._game is not None else self.new_game({})
        rows = []
        head = self._head
        seq = self._last_seq
        at = float(self._clock())
        for record in records:
            if not isinstance(record, dict):
                raise BadRecord(f"a record must be a dict, not {type(record).__name__}")
            payload = _payload(record)
            seq += 1
            head = _link(head, seq, game_id, at, version, payload)
            rows.append((seq, game_id, at, version, payload, head))
        if not rows:
            return []
        conn = self._db()
        try:
            if len(rows) == 1:
                conn.execute(_INSERT_RECORD, rows[0])  # autocommit: one durable commit
            else:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.executemany(_INSERT_RECORD, rows)
                    conn.execute("COMMIT")
                except BaseException:
                    _rollback(conn)
                    raise
        except sqlite3.Error as err:
            raise _translate(err, self.path, "recording a transaction") from err
        self._head = head
        self._last_seq = seq
        self._tip_chain = head
        self._write_tip()
        return [row[0] for row in rows]

    def new_game(self, meta: dict[str, Any] | None = None) -> int:
        """Archive the current game (if any) and open a new one; return the new game's id."""
        meta_text = self._meta_text(meta or {})
        conn = self._db()
        now = float(self._clock())
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                if self._game is not None:  # how the game being archived ends, for later opens
                    first, end = self._span(self._game)
                    conn.execute(
                        "INSERT OR REPLACE INTO game_ends (game, records, last, chain) "
                        "SELECT ?, count(*), max(seq), ? FROM records "
                        "WHERE seq >= ? AND seq < ? AND game = ?",
                        (self._game, self._head, first, end, self._game),
                    )
                conn.execute("UPDATE games SET ended = ? WHERE ended IS NULL", (now,))
                if self._format >= FILE_FORMAT:  # its records are numbered from the next seq
                    cursor = conn.execute(
                        "INSERT INTO games (started, meta, first_seq) VALUES (?, ?, ?)",
                        (now, meta_text, self._last_seq + 1),
                    )
                else:
                    cursor = conn.execute(
                        "INSERT INTO games (started, meta) VALUES (?, ?)", (now, meta_text)
                    )
                conn.execute("COMMIT")
            except BaseException:
                _rollback(conn)
                raise
        except sqlite3.Error as err:
            raise _translate(err, self.path, "starting a new game") from err
        game_id = cursor.lastrowid
        assert game_id is not None
        self._spans.clear()  # the game archived now ends where the new one starts
        self._game = game_id
        self._head = _seed(game_id)
        self._verified.add(game_id)
        self._write_tip()
        return game_id

    def update_meta(self, changes: dict[str, Any]) -> None:
        """Merge *changes* into the current game's meta (edition, players, ...)."""
        game_id = self._current("update")
        try:
            row = self._db().execute("SELECT meta FROM games WHERE id = ?", (game_id,)).fetchone()
        except sqlite3.Error as err:
            raise _translate(err, self.path, "reading the game's details") from err
        if row is None:
            raise JournalError(f"there is no game {game_id} in the journal {self.path}")
        try:
            meta = json.loads(row[0])
        except ValueError as err:
            raise CorruptJournal(
                _corrupt_message(self.path, f"game {game_id} details are not valid JSON")
            ) from err
        text = self._meta_text({**meta, **changes})
        try:
            self._db().execute("UPDATE games SET meta = ? WHERE id = ?", (text, game_id))
        except sqlite3.Error as err:
            raise _translate(err, self.path, "updating the game's details") from err

    # -- reading --------------------------------------------------------------------------

    @property
    def current_game(self) -> int | None:
        """The id of the game being played, or None before the first :meth:`new_game`."""
        return self._game

    @property
    def last_seq(self) -> int:
        """The highest sequence number handed out so far (0 for an empty journal)."""
        return self._last_seq

    def records(self, game_id: int | None = None) -> Iterator[dict[str, Any]]:
        """The records of *game_id* (default: the current game) in order, all checked first."""
        return (entry.record for entry in self.entries(game_id))

    def entries(self, game_id: int | None = None, after: int = 0) -> Iterator[StoredRecord]:
        """Like :meth:`records`, with each record's sequence number, time and schema version.

        Every row is verified and decoded before the first is returned, so a reader never
        applies half of a game whose later rows turn out to be unreadable. With *after*, only
        the records whose sequence number is greater (a reader catching up).
        """
        if game_id is None:
            if self._game is None:
                return iter(())
            game_id = self._game
        if game_id not in self._verified:
            upto = self._tail_from.get(game_id)
            if upto is None:
                self._verify(game_id)
            elif after < upto:
                self.audit()
        try:
            first, end = self._span(game_id)
            rows = (
                self._db()
                .execute(
                    "SELECT seq, at, version, payload FROM records "
                    "WHERE seq > ? AND seq < ? AND game = ? ORDER BY seq",
                    (max(after, first - 1), end, game_id),
                )
                .fetchall()
            )
        except sqlite3.Error as err:
            raise _translate(err, self.path, f"reading game {game_id}") from err
        if self._bad_records:  # damaged, and covered by the snapshot the game resumed from
            rows = [row for row in rows if row[0] not in self._bad_records]
        for seq, _at, version, _payload in rows:
            if version > SCHEMA_VERSION:
                raise UnknownSchema(
                    f"record {seq} of game {game_id} in {self.path} has schema version "
                    f"{version}, newer than this ultibank reads ({SCHEMA_VERSION}); upgrade "
                    f"ultibank to resume this game."
                )
        decoded = self._decode([row[3] for row in rows], [row[0] for row in rows])
        out = [
            StoredRecord(seq, game_id, at, version, record)
            for (seq, at, version, _), record in zip(rows, decoded, strict=True)
        ]
        return iter(out)

    def _decode(self, payloads: list[str], seqs: list[int]) -> list[dict[str, Any]]:
        """Parse the JSON of many rows at once (one parser call is much cheaper than many)."""
        try:
            decoded = json.loads("[" + ",".join(payloads) + "]")
            if len(decoded) == len(payloads) and all(type(r) is dict for r in decoded):
                return cast(list[dict[str, Any]], decoded)
        except ValueError:
            pass
        # Something is off: parse row by row to name the culprit.
        for seq, payload in zip(seqs, payloads, strict=True):
            try:
                record = json.loads(payload)
            except ValueError as err:
                raise CorruptJournal(
                    _corrupt_message(self.path, f"record {seq} is not valid JSON: {err}")
                ) from err
            if type(record) is not dict:
                raise CorruptJournal(
                    _corrupt_message(self.path, f"record {seq} is not a JSON object")
                )
        raise CorruptJournal(_corrupt_message(self.path, "records do not parse as a whole"))

    def games(self) -> list[GameInfo]:
        """Every game in the journal, oldest first, with its number of records."""
        return self._games(None)

    def game(self, game_id: int) -> GameInfo:
        """One game's details; JournalError if there is no such game."""
        found = self._games(game_id)
        if not found:
            raise JournalError(f"there is no game {game_id} in the journal {self.path}")
        return found[0]

    def quarantine(self) -> list[QuarantinedRow]:
        """The rows set aside by recovery, oldest first (forensics only, never replayed)."""
        try:
            rows = self._db().execute(
                "SELECT id, seq, game, at, version, payload, reason, found FROM quarantine "
                "ORDER BY id"
            )
            return [QuarantinedRow(*row) for row in rows]
        except sqlite3.Error as err:
            raise _translate(err, self.path, "reading the quarantine") from err

    def _games(self, game_id: int | None) -> list[GameInfo]:
        where = "" if game_id is None else "WHERE g.id = ?"
        args: tuple[int, ...] = () if game_id is None else (game_id,)
        try:
            conn = self._db()
            rows = conn.execute(
                f"SELECT g.id, g.started, g.ended, g.meta FROM games g {where} ORDER BY g.id",
                args,
            ).fetchall()
            out = []
            for gid, started, ended, meta in rows:
                first, end = self._span(gid)
                count = conn.execute(
                    "SELECT count(*) FROM records WHERE seq >= ? AND seq < ? AND game = ?",
                    (first, end, gid),
                ).fetchone()[0]
                try:
                    meta_dict = json.loads(meta)
                except ValueError as err:
                    raise CorruptJournal(
                        _corrupt_message(self.path, f"game {gid} details are not valid JSON")
                    ) from err
                out.append(GameInfo(gid, started, ended, count, meta_dict))
            return out
        except sqlite3.Error as err:
            raise _translate(err, self.path, "listing the games") from err

    # -- plumbing -------------------------------------------------------------------------

    def _span(self, game_id: int) -> tuple[int, int]:
        """The run of sequence numbers holding *game_id*'s records, ``[first, end)``."""
        span = self._spans.get(game_id)
        if span is None:
            span = self._spans[game_id] = _game_span(self._db(), game_id, self._format)
        return span

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise JournalError(f"the journal {self.path} is closed")
        return self._conn

    def _current(self, doing: str) -> int:
        if self._game is None:
            raise JournalError(
                f"cannot {doing} the journal {self.path}: no game is open; call new_game() first"
            )
        return self._game

    @staticmethod
    def _meta_text(meta: dict[str, Any]) -> str:
        try:
            return json.dumps(meta, separators=(",", ":"), allow_nan=False)
        except (TypeError, ValueError) as err:
            raise BadRecord(
                f"game details are not JSON-serialisable ({err}): {meta!r:.200}"
            ) from err

    def close(self) -> None:
        """Checkpoint, close the database and release the lock; safe to call twice."""
        hooks, self.before_close = self.before_close, []
        if self._opened and self._conn is not None:
            for hook in hooks:
                try:
                    hook()
                except JournalError as err:  # a snapshot is a cache: the journal is complete
                    log.warning("at close: %s", err)
            try:
                self.checkpoint()
            except JournalError as err:  # the WAL keeps the transactions; SQLite retries
                log.warning("no checkpoint at close: %s", err)
        self._audit_stop.set()
        audit, self._audit_thread = self._audit_thread, None
        if audit is not None:
            audit.join()
        conn, self._conn = self._conn, None
        self._cursor = None
        fd, self._lock_fd = self._lock_fd, None
        tip_fd, self._tip_fd = self._tip_fd, None
        try:
            if conn is not None:
                conn.close()
        finally:
            if tip_fd is not None:
                os.close(tip_fd)
            if fd is not None:
                os.close(fd)  # closing the descriptor releases the flock

    def __enter__(self) -> Journal:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._conn is None else f"game {self._game}, seq {self._last_seq}"
        return f"Journal({str(self.path)!r}, {state})"


def backup_journal(source: Path, dest: Path, overwrite: bool = False) -> tuple[int, int]:
    """Copy the journal *source* into *dest* through SQLite's backup API; safe while it runs.

    The copy is one consistent snapshot (every transaction committed when it began), written
    as one self-contained file (no ``-wal``), checked, then moved into place: *dest* never
    holds half a backup. Refuses to replace an existing *dest* unless *overwrite*. Returns the
    number of games and transactions copied.
    """
    dest = Path(dest)
    if not source.is_file():
        raise JournalError(f"there is no journal to back up: {source} does not exist")
    folder = dest.parent
    if not folder.is_dir():
        raise JournalError(f"cannot write the backup {dest}: the directory {folder} does not exist")
    if dest.is_dir():
        raise JournalError(f"cannot write the backup {dest}: it is a directory; name a file")
    if dest.exists() and not overwrite:
        raise JournalError(f"{dest} already exists; choose another name, or add --overwrite")
    if dest.exists() and dest.resolve() == source.resolve():
        raise JournalError(f"{dest} is the journal itself; choose another file")
    # the copy is made in a new private directory beside *dest* (mkdtemp: mode 0700, a name
    # no one else chose), so no link another user plants in *dest*'s folder is followed
    try:
        private = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".partial", dir=folder))
    except OSError as err:
        raise _translate_os(err, dest, "writing the backup") from err
    tmp = private / dest.name
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=5.0)
    except sqlite3.Error as err:
        shutil.rmtree(private, ignore_errors=True)
        raise _translate(err, source, "reading the journal to back it up") from err
    try:
        with contextlib.closing(sqlite3.connect(tmp, isolation_level=None)) as dst:
            if src.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                raise JournalError(f"{source} is not an ultibank journal")
            src.backup(dst)
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            problems = [row[0] for row in dst.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise CorruptJournal(_corrupt_message(source, "; ".join(map(str, problems[:3]))))
            games = int(dst.execute("SELECT count(*) FROM games").fetchone()[0])
            records = int(dst.execute("SELECT count(*) FROM records").fetchone()[0])
        with open(tmp, "rb") as done:
            os.fsync(done.fileno())
        if overwrite:
            os.replace(tmp, dest)
        else:
            try:
                os.link(tmp, dest)  # fails if dest appeared meanwhile: never replaced silently
            except FileExistsError as err:
                raise JournalError(
                    f"{dest} already exists; choose another name, or add --overwrite"
                ) from err
            except OSError:  # a file system without hard links (a FAT USB stick)
                if dest.exists():
                    raise JournalError(
                        f"{dest} already exists; choose another name, or add --overwrite"
                    ) from None
                os.rename(tmp, dest)
    except sqlite3.Error as err:
        raise _translate(err, dest, "writing the backup") from err
    except OSError as err:
        if isinstance(err, JournalError):
            raise
        raise _translate_os(err, dest, "writing the backup") from err
    finally:
        src.close()
        shutil.rmtree(private, ignore_errors=True)
    return games, records
