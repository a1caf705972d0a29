"""``ultibank history``: list stored games, show one game's transactions, export them, back up.

Reads the journal only, and never writes it: the file is opened read-only (an SQLite
``mode=ro`` URI, without taking the journal's lock), so it works beside a running daemon; in
WAL mode a reader sees every committed transaction and never blocks the writer.
``history backup FILE`` copies the journal through SQLite's backup API, which is safe while
the daemon writes. Problems the journal found (acknowledged transactions missing, a
quarantined bad tail) are repeated on standard error by every ``history`` command.

A game's transactions are said in words by its ruleset's narrator (which says each record's
journalled outcome: :func:`bank.views.narrate.narrator_for`), in French or English (``--lang``;
default: the unit's language, else the edition's): the exports add them as a ``text`` column,
and ``show`` prints them for a classic game (an Ultime game's ``show`` lines are what they
always were: ``describe``, the record as stored). The exports also carry each record's
outcome, as its ruleset's codec stores it (``outcome``: derived once for a record older than
outcomes). Imports the bank.
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
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from bank import rulesets
from bank.engine.errors import BankError
from bank.engine.events import DebtChanged, GameEnded, MoneyMoved, PropertyChanged, apply
from bank.engine.records import LEGACY_RULESET, Record, decode, decode_entries, outcome_of
from bank.engine.ruleset import Ruleset
from bank.engine.state import GameState
from bank.services.datadir import open_data_dir, write_output
from bank.services.journal import APPLICATION_ID, GameInfo, Journal, StoredRecord, backup_journal
from bank.services.settings import Settings
from bank.unit.text import printable
from bank.views.narrate import has_words, narrator_for
from board_assets import Edition, EditionError, load_edition

JOURNAL_NAME = "journal.sqlite"


def _when(ts: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(ts)) if ts else "-"


def describe(record: Record | Mapping[str, Any]) -> str:
    """One line a player would understand for a stored transaction."""
    if not isinstance(record, Record):
        record = decode(record)
    moves = []
    for e in record.events:
        if isinstance(e, MoneyMoved):
            payer = "bank" if e.payer is None else f"card {e.payer}"
            payee = "bank" if e.payee is None else f"card {e.payee}"
            moves.append(f"{payer} → {payee} {e.amount} ({e.reason})")
        elif isinstance(e, PropertyChanged) and e.old_owner != e.new_owner:
            who = "bank" if e.new_owner is None else f"card {e.new_owner}"
            moves.append(f"prop {e.number} → {who}")
        elif isinstance(e, DebtChanged) and e.new_debt:
            moves.append(f"card {e.card} owes {e.new_debt}")
        elif isinstance(e, GameEnded) and e.ended:
            moves.append(f"game over, winner card {e.winner}")
    args = " ".join(f"{k}={v}" for k, v in record.arguments().items())
    text = f"{record.name} {args}".strip()
    return text + (": " + "; ".join(moves) if moves else "")


def narrate(records: Iterable[Record], edition: Edition, lang: str) -> list[tuple[str, str]]:
    """Each record's sentence and what it moved (a classic game, replayed from its start)."""
    narrator = narrator_for(edition, lang)
    state = GameState.empty(edition)
    out = []
    for record in records:
        out.append(narrator.words(record, state))
        state = apply(state, record.events)
    return out


def outcomes(records: Iterable[Record], edition: Edition | None) -> list[dict[str, Any] | None]:
    """Each record's outcome in the stored form of its ruleset's codec (``{"k": "bought",
    ...}``), as this ultibank reads it: the journalled one upcast to its kind's newest version,
    or for a record older than outcomes the one derived from the state it started from (the
    game replayed from its start; none without the game's *edition*). None: no outcome (an
    undo, a ruleset that stores none)."""
    out: list[dict[str, Any] | None] = []
    state = GameState.empty(edition) if edition is not None else None
    rules: dict[str, Ruleset] = {}
    for record in records:
        codec = rulesets.find(record.ruleset).outcomes
        done = record.outcome if record.stores_outcome else None
        if not record.stores_outcome and state is not None and edition is not None:
            if record.ruleset not in rules:
                rules[record.ruleset] = rulesets.find(record.ruleset).rules(edition, None)
            done = outcome_of(record, state, rules[record.ruleset], edition)
        out.append(codec.encode(done) if codec is not None and done is not None else None)
        if state is not None:
            state = apply(state, record.events)
    return out


def export_rows(
    entries: Iterable[StoredRecord],
    words: list[tuple[str, str]] | None = None,
    told: list[dict[str, Any] | None] | None = None,
) -> list[dict[str, Any]]:
    """Flat rows for CSV/JSON export; with *words*, a ``text`` column too, and with *told*
    (:func:`outcomes`), an ``outcome`` column."""
    rows = []
    for i, record in enumerate(decode_entries(entries)):
        args = record.arguments()
        row = {
            "seq": record.seq,
            "time": _when(record.at),
            "timestamp": record.at,
            "command": record.name,
            "card": args.get("card"),
            "number": args.get("number"),
            "summary": describe(record),
            "events": record.event_dicts(),
        }
        if words is not None:
            title, detail = words[i]
            row["text"] = f"{title} — {detail}" if detail else title
        if told is not None:
            row["outcome"] = told[i]
        rows.append(row)
    return rows


def _words_for(
    records: list[Record], settings: Settings, lang: str | None
) -> list[tuple[str, str]] | None:
    """A game's transactions in words; None when its ruleset has none or its edition cannot be
    read."""
    if not records or not has_words(records[0].ruleset):
        return None
    edition = _edition(records[0].edition, settings)
    if edition is None:
        return None
    unit_lang = settings.unit().language
    return narrate(records, edition, lang or unit_lang or edition.language)


def balances_after(
    records: list[Record], edition: Edition | None
) -> tuple[list[str], list[dict[str, int]]]:
    """Each player's balance after each record: the CSV columns (``balance 1:dog``, every
    player the game ever had) and one row of cells per record (a player not yet registered
    has no cell). No columns when the game's edition cannot be read."""
    if edition is None:
        return [], []
    state = GameState.empty(edition)
    rows: list[dict[str, int]] = []
    for record in records:
        state = apply(state, record.events)
        rows.append({f"balance {p.card}:{p.token}": p.balance for p in state.players})
    return list(dict.fromkeys(c for row in rows for c in row)), rows


def _edition_of(records: list[Record], settings: Settings) -> Edition | None:
    """The edition a game was played in (a first-format record names none: the configured)."""
    named = next((r.edition for r in records if r.edition is not None), None)
    if named is not None:
        return _edition(named, settings)
    try:
        return load_edition(settings.edition)
    except EditionError:
        return None


def _edition(edition_id: str | None, settings: Settings) -> Edition | None:
    """The game's edition: the configured one when it is that edition (a house edition file),
    else the shipped one of that name; None when neither can be read (then no words)."""
    if edition_id is None:
        return None
    try:
        configured = load_edition(settings.edition)
        if configured.id == edition_id:
            return configured
        return load_edition(edition_id)
    except EditionError as err:
        logging.getLogger(__name__).info("no words for edition %s: %s", edition_id, err)
        return None


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

    def _record_damage(self, lost: int | None, what: str) -> None:
        """A reader writes nothing: the finding is said (``history`` repeats it on stderr), and
        the daemon keeps it when it next opens the journal."""
        from bank.services.journal import Damage

        self.loss.append(what)
        self._damage.append(Damage(0, time.time(), lost, what))

    def _ended_outside(self, game_id: int) -> None:
        message = (
            f"game {game_id} is marked ended outside ultibank; the daemon resumes it and shows "
            f"the damage when it next opens the journal"
        )
        self.recovery.append(message)
        logging.getLogger(__name__).warning("journal: %s", message)

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
    for record in decode_entries(journal.entries(game.id)):
        for event in record.events:
            if isinstance(event, GameEnded):
                over = event.ended
    return "finished" if over else "current"


def _warn_problems(journal: Journal) -> None:
    """Every problem the journal ever found, once each, on standard error; the damage no person
    has acknowledged yet first, loudly."""
    for damage in journal.damage():
        print(
            f"ultibank: JOURNAL DAMAGE found {_when(damage.found)}, not acknowledged yet: "
            f"{damage.what}",
            file=sys.stderr,
        )
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
    # the data directory's door: nothing is read through a link another user planted
    open_data_dir(settings.data_dir, bool(settings.get("game", "strict_modes")), create=False)
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
                seed = g.meta.get("seed")  # a classic game's dice seed (READINGS D1)
                dice = f"  seed {seed}" if isinstance(seed, int) else ""
                line = (
                    f"{g.id:4d}  {_when(g.started)}  {status:8s}  {g.records:5d} transactions"
                    f"  {edition} {players}".rstrip()
                    + dice
                )
                print(printable(line), file=out)
            return 0
        number = _game_number(args.game, args.action)
        if number not in {g.id for g in games}:
            raise BankError(f"there is no game {number}; stored games: {[g.id for g in games]}")
        entries = list(journal.entries(number))
    records = decode_entries(entries)
    words = _words_for(records, settings, getattr(args, "lang", None))
    if args.action == "show":
        # an Ultime game's lines are the records as stored, as they always were
        plain = words is None or records[0].ruleset == LEGACY_RULESET
        for i, record in enumerate(records):
            if plain or words is None:
                text = describe(record)
            else:
                title, detail = words[i]
                text = f"{title} — {detail}" if detail else title
            print(f"{record.seq:5d}  {_when(record.at)}  {printable(text)}", file=out)
        return 0
    edition = _edition_of(records, settings)
    rows = export_rows(entries, words, outcomes(records, edition))
    if args.csv:
        buf = io.StringIO()
        fields = ["seq", "time", "timestamp", "command", "card", "number", "summary", "events"]
        if words is not None:
            fields.append("text")
        fields.append("outcome")
        columns, balances = balances_after(records, edition)
        writer = csv.DictWriter(buf, fieldnames=fields + columns)
        writer.writeheader()
        for i, row in enumerate(rows):
            told = row["outcome"]
            cells = {
                **row,
                "events": json.dumps(row["events"], ensure_ascii=False),
                "outcome": "" if told is None else json.dumps(told, ensure_ascii=False),
            }
            writer.writerow({**cells, **(balances[i] if balances else {})})
        text = buf.getvalue()
    else:
        text = json.dumps(rows, indent=2, ensure_ascii=False) + "\n"
    if args.output:
        write_output(Path(args.output), text)
    else:
        out.write(text)
    return 0
