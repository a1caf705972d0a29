"""``ultibank history``: list stored games, show one game's transactions, export them, back up.

Reads the journal only, and never writes it: the file is opened read-only (an SQLite
``mode=ro`` URI, without taking the journal's lock), so it works beside a running daemon; in
WAL mode a reader sees every committed transaction and never blocks the writer.
``history backup FILE`` copies the journal through SQLite's backup API, which is safe while
the daemon writes. Problems the journal found (acknowledged transactions missing, a
quarantined bad tail) are repeated on standard error by every ``history`` command. Imports
the bank.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import logging
import sqlite3
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bank.errors import BankError
from bank.journal import APPLICATION_ID, GameInfo, Journal, StoredRecord, backup_journal
from bank.settings import Settings

JOURNAL_NAME = "journal.sqlite"


def _when(ts: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ts)) if ts else "-"


def describe(record: dict[str, Any]) -> str:
    """One line a player would understand for a stored transaction."""
    cmd = dict(record.get("command", {}))
    name = cmd.pop("name", "?")
    moves = []
    for e in record.get("events", []):
        if e.get("kind") == "money":
            payer = "bank" if e["payer"] is None else f"card {e['payer']}"
            payee = "bank" if e["payee"] is None else f"card {e['payee']}"
            moves.append(f"{payer} → {payee} {e['amount']} ({e.get('reason', '')})")
        elif e.get("kind") == "property" and e["old_owner"] != e["new_owner"]:
            who = "bank" if e["new_owner"] is None else f"card {e['new_owner']}"
            moves.append(f"prop {e['number']} → {who}")
        elif e.get("kind") == "debt" and e["new_debt"]:
            moves.append(f"card {e['card']} owes {e['new_debt']}")
        elif e.get("kind") == "game_ended" and e.get("ended", True):
            moves.append(f"game over, winner card {e['winner']}")
    args = " ".join(f"{k}={v}" for k, v in cmd.items())
    text = f"{name} {args}".strip()
    return text + (": " + "; ".join(moves) if moves else "")


def export_rows(entries: Iterable[StoredRecord]) -> list[dict[str, Any]]:
    """Flat rows for CSV/JSON export."""
    rows = []
    for entry in entries:
        cmd = entry.record.get("command", {})
        rows.append(
            {
                "seq": entry.seq,
                "time": _when(entry.at),
                "timestamp": entry.at,
                "command": cmd.get("name"),
                "card": cmd.get("card"),
                "number": cmd.get("number"),
                "summary": describe(entry.record),
                "events": entry.record.get("events", []),
            }
        )
    return rows


class ReadOnlyJournal(Journal):
    """A journal opened for reading beside the daemon that writes it.

    It takes no lock and opens the file with SQLite's ``mode=ro``: it cannot create, repair
    or write anything. A damaged tail the daemon would set aside is reported in
    :attr:`recovery` and left in place.
    """

    def _lock(self) -> None:
        """No lock: the daemon's lock keeps writers out, and readers are welcome."""

    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(
                f"{self.path.absolute().as_uri()}?mode=ro",
                uri=True,
                timeout=5.0,
                isolation_level=None,
            )
            conn.execute("PRAGMA query_only=ON")
        except sqlite3.Error as err:
            raise BankError(f"cannot read the journal {self.path}: {err}") from err
        return conn

    def _prepare(self) -> None:
        """Refuse a file that is not an ultibank journal; never create or convert one."""
        try:
            app_id = self._db().execute("PRAGMA application_id").fetchone()[0]
        except sqlite3.Error as err:
            raise BankError(f"cannot read the journal {self.path}: {err}") from err
        if app_id == 0:
            raise BankError(f"no games stored yet in {self.path.parent} (the journal is empty)")
        if app_id != APPLICATION_ID:
            raise BankError(f"{self.path} is an SQLite database, but not an ultibank journal")

    def _open_tip(self, existed: bool) -> None:
        """Leave the tip file to the daemon: it is checked (and rewritten) only by the journal's
        writer. Read here, it could be ahead of this reader's snapshot by the commits made since,
        and look like a loss; a loss the writer found is kept in the quarantine table, which
        every ``history`` command repeats."""

    def checkpoint(self) -> None:
        """A reader never checkpoints (the daemon does, when idle and at a clean stop)."""

    def _quarantine(self, game_id: int, good: int, seq: int, why: str) -> None:
        message = (
            f"game {game_id}: record {seq} {why}; the daemon sets it and the records after it "
            f"aside when it next opens the journal"
        )
        self.recovery.append(message)
        logging.getLogger(__name__).warning("journal: %s", message)


def _open(settings: Settings) -> Journal:
    path = settings.data_dir / JOURNAL_NAME
    if not path.exists():
        raise BankError(f"no games stored in {settings.data_dir} (no {JOURNAL_NAME})")
    return ReadOnlyJournal(path)


def game_status(journal: Journal, game: GameInfo) -> str:
    """``archived`` after a reset, ``finished`` at game over before one, else ``current``."""
    if game.archived:
        return "archived"
    over = False
    for entry in journal.entries(game.id):
        for event in entry.record.get("events", []):
            if event.get("kind") == "game_ended":
                over = bool(event.get("ended", True))
    return "finished" if over else "current"


def _warn_problems(journal: Journal) -> None:
    """Every problem the journal ever found, once each, on standard error."""
    seen: set[str] = set()
    for row in journal.quarantine():
        if row.reason not in seen:
            seen.add(row.reason)
            print(
                f"ultibank: journal problem found {_when(row.found)}: {row.reason}", file=sys.stderr
            )


def _backup(args: argparse.Namespace, settings: Settings) -> int:
    if not args.game:
        raise BankError("`history backup` needs a file to write, e.g. `history backup game.sqlite`")
    dest = Path(args.game).expanduser()
    games, records = backup_journal(settings.data_dir / JOURNAL_NAME, dest, args.overwrite)
    print(f"backed up {games} game(s), {records} transaction(s) to {dest}")
    return 0


def _game_number(text: str | None, action: str) -> int:
    if text is None:
        raise BankError(f"`history {action}` needs a game number (see `history list`)")
    try:
        return int(text)
    except ValueError:
        raise BankError(f"`history {action}`: {text!r} is not a game number") from None


def cmd_history(args: argparse.Namespace, settings: Settings) -> int:
    """List games, show/export one, or back the journal up."""
    if args.action == "backup":
        return _backup(args, settings)
    out = sys.stdout
    if args.action != "export" and (args.output or args.csv or args.json):
        raise BankError("--output, --csv and --json go with `history export N`")
    with _open(settings) as journal:
        _warn_problems(journal)
        games = journal.games()
        if args.action == "list":
            if not games:
                print("no games stored yet", file=out)
            for g in games:
                status = game_status(journal, g)
                players = g.meta.get("players", "")
                edition = g.meta.get("edition", "")
                print(
                    f"{g.id:4d}  {_when(g.started)}  {status:8s}  {g.records:5d} transactions"
                    f"  {edition} {players}".rstrip(),
                    file=out,
                )
            return 0
        number = _game_number(args.game, args.action)
        if number not in {g.id for g in games}:
            raise BankError(f"there is no game {number}; stored games: {[g.id for g in games]}")
        entries = list(journal.entries(number))
    if args.action == "show":
        for e in entries:
            print(f"{e.seq:5d}  {_when(e.at)}  {describe(e.record)}", file=out)
        return 0
    rows = export_rows(entries)
    if args.csv:
        buf = io.StringIO()
        fields = ["seq", "time", "timestamp", "command", "card", "number", "summary", "events"]
        writer = csv.DictWriter(buf, fieldnames=fields)
        writer.writeheader()
        for row in rows:
            writer.writerow({**row, "events": json.dumps(row["events"], ensure_ascii=False)})
        text = buf.getvalue()
    else:
        text = json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        out.write(text)
    return 0
