"""``ultibank history``: list stored games, show one game's transactions, export them, back up.

Reads the journal only. A running daemon holds the journal's lock; this command then says so
rather than reading a game that is changing under it. ``history backup FILE`` is the exception:
it copies the journal through SQLite's backup API, which is safe while the daemon writes.
Problems the journal found (acknowledged transactions missing, a quarantined bad tail) are
repeated on standard error by every ``history`` command. Imports the bank.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bank.errors import BankError
from bank.journal import Journal, StoredRecord, backup_journal
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


def _open(settings: Settings) -> Journal:
    path = settings.data_dir / JOURNAL_NAME
    if not path.exists():
        raise BankError(f"no games stored in {settings.data_dir} (no {JOURNAL_NAME})")
    return Journal(path)


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
    with _open(settings) as journal:
        _warn_problems(journal)
        games = journal.games()
        if args.action == "list":
            if not games:
                print("no games stored yet", file=out)
            for g in games:
                status = "archived" if g.archived else "current"
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
