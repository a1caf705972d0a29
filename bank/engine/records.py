"""Journal records, written and read back through one typed decoder.

The game layer writes one record per transaction (:func:`encode`); the journal stores it as
JSON with the record's schema version. Whatever reads a game back (the game's own replay,
``ultibank history``, the web view, the end-of-game chart) goes through :func:`decode`, which
gives a :class:`Record`: the command and events as the engine's types, the ruleset and schema
version, where the record stands in its game and the undo group it belongs to. No reader parses
the stored dicts itself.

Record format (``docs/journal.md``)::

    {"v": 3, "ruleset": "ultime", "edition": "ultime-fr",
     "command": {...}, "events": [{...}, ...],
     "outcome": {"k": "rent_paid", "number": 3, ...}, "undo_group": 7}

Schema versions (:data:`bank.engine.events.SCHEMA_VERSION` is the newest this code writes):

1. ``v``, ``edition``, ``command``, ``events``, ``undo_group``. No ruleset: every game then
   was an Ultime game, so a version-1 record reads as ``ruleset = "ultime"``.
2. adds ``ruleset``, the rules that decided the transaction.
3. adds ``outcome``: what the rules said the transaction did, in the ruleset's own terms
   (left out when it did nothing worth saying: an undo). Each outcome kind has a version
   of its own and an upcaster chain (:class:`bank.engine.ruleset.OutcomeCodec`).

Every reader that says what happened reads :attr:`Record.outcome`, through
:func:`outcome_of`: an older record (version 1 or 2) has no outcome stored, and its outcome
is derived once, when it is read, by the upcaster of outcome version 0 (:func:`derive_outcome`:
the command decided again by its ruleset on the state it started from, kept only when the
rules give exactly the events stored).

A record newer than this code is refused (the journal already refuses it, naming the upgrade);
a record that does not parse raises :class:`RecordError`, naming its number in the game.
A ruleset's own command and event kinds (the classic ``visit``, ``build``, ``trade``... and
its ``classic`` state event) are read through the same two registries: decoding a record loads
the ruleset it names (:func:`bank.rulesets.ensure`), so a classic record decodes wherever it
is read, not only where a game was built first.
Imports the engine's command and event types, the ruleset registry and the standard library.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, overload

from bank import rulesets as _rulesets  # each ruleset's commands, events and outcomes
from bank.engine.commands import Command, command_from_dict
from bank.engine.errors import BankError, RuleError
from bank.engine.events import SCHEMA_VERSION, Event, apply, event_from_dict
from bank.engine.ruleset import Outcome, OutcomeError, Ruleset
from bank.engine.state import GameState
from board_assets import Edition

__all__ = [
    "LEGACY_RULESET",
    "Record",
    "RecordError",
    "RecordList",
    "StoredEntry",
    "decode",
    "decode_all",
    "decode_entries",
    "derive_outcome",
    "encode",
    "last_undo_group",
    "outcome_of",
]

#: the first schema version whose records store their outcome
OUTCOME_SCHEMA = 3

#: the ruleset of every record written before records named theirs (schema version 1)
LEGACY_RULESET = "ultime"


class RecordError(BankError, ValueError):
    """A journal record that cannot be read as a transaction."""


class StoredEntry(Protocol):
    """What :func:`decode_entries` needs of a journal row
    (:class:`bank.services.journal.StoredRecord`)."""

    @property
    def seq(self) -> int: ...

    @property
    def at(self) -> float: ...

    @property
    def version(self) -> int: ...

    @property
    def record(self) -> dict[str, Any]: ...


@dataclass(slots=True)
class Record:
    """One transaction as read back from the journal (treat it as a value: never changed).

    Not a frozen dataclass: a frozen one costs a call per field to build, and a resume builds
    one per record (about 8 ms more for 10,000 records).
    """

    #: its place in its game, from 1 (0: not known, e.g. a record decoded on its own)
    number: int
    #: the schema version it was written with
    schema: int
    #: the rules that decided it (``"ultime"`` for every version-1 record)
    ruleset: str
    #: the edition's id, when the record names it
    edition: str | None
    command: Command
    events: tuple[Event, ...]
    #: the number of the transaction whose undo group this one belongs to (None: not undoable)
    undo_group: int | None
    #: the journal's sequence number (0: not from a journal)
    seq: int = 0
    #: when it was committed, seconds since the epoch (None: not from a journal)
    at: float | None = None
    #: the outcome as stored (schema 3 on; None: none stored), read by :attr:`outcome`
    stored_outcome: Mapping[str, Any] | None = None
    _outcome: Outcome | None = field(default=None, compare=False, repr=False)

    @property
    def outcome(self) -> Outcome | None:
        """What the rules said the transaction did, as journalled (read through its
        ruleset's outcome codec and upcasters, once). None when none is stored: a
        transaction without one (an undo), or a record older than schema 3, whose outcome
        only :func:`outcome_of` can derive (it needs the state the record started from)."""
        if self._outcome is None and self.stored_outcome is not None:
            codec = _rulesets.find(self.ruleset).outcomes
            if codec is None:
                raise RecordError(f"the {self.ruleset!r} rules store no outcomes")
            try:
                # an upcaster may read the command the outcome was decided for
                self._outcome = codec.decode(self.stored_outcome, self.command.to_dict())
            except (OutcomeError, KeyError, TypeError, ValueError) as err:
                where = f"journal record {self.number}" if self.number else "a journal record"
                raise RecordError(f"{where} has an outcome that cannot be read: {err}") from err
        return self._outcome

    @property
    def stores_outcome(self) -> bool:
        """Whether the record was written with its outcome (schema 3 on)."""
        return self.schema >= OUTCOME_SCHEMA

    @property
    def name(self) -> str:
        """The command's name: ``land``, ``auction_sale``, ``undo``..."""
        return self.command.name

    def arguments(self) -> dict[str, Any]:
        """The command's fields as stored (``{"card": 1, "number": 22}``), without its name."""
        data = self.command.to_dict()
        data.pop("name", None)
        return data

    def event_dicts(self) -> list[dict[str, Any]]:
        """The events as stored (for exports)."""
        return [e.to_dict() for e in self.events]


def encode(
    command: Command,
    events: Iterable[Event],
    undo_group: int | None,
    *,
    edition: str,
    ruleset: str = LEGACY_RULESET,
    outcome: Outcome | None = None,
) -> dict[str, Any]:
    """The record of one transaction, in the newest schema (*outcome* stored through its
    ruleset's codec; left out when there is none)."""
    record = {
        "v": SCHEMA_VERSION,
        "ruleset": ruleset,
        "edition": edition,
        "command": command.to_dict(),
        "events": [e.to_dict() for e in events],
    }
    if outcome is not None:
        codec = _rulesets.find(ruleset).outcomes
        if codec is None:
            raise RecordError(
                f"the {ruleset!r} rules gave an outcome ({outcome.kind}) but declare no "
                "outcome codec (RulesetSpec.outcomes): nothing was journalled"
            )
        record["outcome"] = codec.encode(outcome)
    record["undo_group"] = undo_group  # last, as in every schema
    return record


def decode(
    raw: Mapping[str, Any],
    *,
    number: int = 0,
    seq: int = 0,
    at: float | None = None,
    version: int | None = None,
) -> Record:
    """Read one stored record (any schema version up to :data:`SCHEMA_VERSION`).

    *version* is the journal row's version when there is one (it wins over the record's
    ``v``); *number*, *seq* and *at* say where the record was found.
    """
    where = f"journal record {number}" if number else "a journal record"
    try:
        schema = int(version if version is not None else raw.get("v", 1))
        if schema > SCHEMA_VERSION:
            raise RecordError(
                f"{where} has schema version {schema}, newer than this ultibank reads "
                f"({SCHEMA_VERSION}); upgrade ultibank"
            )
        ruleset = str(raw["ruleset"]) if schema >= 2 else LEGACY_RULESET
        _rulesets.ensure(ruleset)  # its own command and event kinds decode once it is loaded
        edition = raw.get("edition")
        group = raw.get("undo_group")
        # the readers below copy what they are given: no copy here (a replay reads thousands);
        # the outcome is read only when asked for (a replay never asks)
        return Record(
            number,
            schema,
            ruleset,
            str(edition) if edition is not None else None,
            command_from_dict(raw["command"]),
            tuple(map(event_from_dict, raw["events"])),
            int(group) if group is not None else None,
            seq,
            at,
            raw.get("outcome") if schema >= OUTCOME_SCHEMA else None,
        )
    except RecordError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise RecordError(f"{where} cannot be read: {err}") from err


def decode_entries(entries: Iterable[StoredEntry], first: int = 1) -> list[Record]:
    """Decode a game's journal rows in order; the first is transaction number *first*."""
    return [
        decode(e.record, number=n, seq=e.seq, at=float(e.at), version=e.version)
        for n, e in enumerate(entries, start=first)
    ]


class RecordList(Sequence[Record]):
    """A game's journal rows, each decoded the first time it is read (then kept).

    A view that shows the last few transactions of a long game decodes only those.
    """

    def __init__(self, entries: Iterable[StoredEntry] = (), first: int = 1) -> None:
        self._entries: list[StoredEntry] = list(entries)
        self._decoded: dict[int, Record] = {}
        #: the number (1 for a game's first) of the first record held: a window on a long
        #: game's last records numbers them as in the whole game
        self.first = first

    def extended(self, entries: Iterable[StoredEntry], keep: int | None = None) -> RecordList:
        """A list with *entries* after these (the decoded records are shared, not redone);
        with *keep*, only the last *keep* records are kept (a window of constant size)."""
        longer = RecordList(self._entries, self.first)
        longer._entries.extend(entries)
        longer._decoded = dict(self._decoded)
        drop = len(longer._entries) - keep if keep is not None else 0
        if drop > 0:
            del longer._entries[:drop]
            longer._decoded = {i - drop: r for i, r in longer._decoded.items() if i >= drop}
            longer.first += drop
        return longer

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, index: int) -> Record: ...

    @overload
    def __getitem__(self, index: slice) -> list[Record]: ...

    def __getitem__(self, index: int | slice) -> Record | list[Record]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        i = range(len(self))[index]  # negative indices; IndexError past the end
        record = self._decoded.get(i)
        if record is None:
            e = self._entries[i]
            record = decode(
                e.record, number=self.first + i, seq=e.seq, at=float(e.at), version=e.version
            )
            self._decoded[i] = record
        return record

    def __iter__(self) -> Iterator[Record]:
        return (self[i] for i in range(len(self)))


def decode_all(records: Iterable[Record | Mapping[str, Any]], first: int = 1) -> list[Record]:
    """Records as given, decoding the stored ones (a game's records in order)."""
    return [
        r if isinstance(r, Record) else decode(r, number=n)
        for n, r in enumerate(records, start=first)
    ]


def last_undo_group(records: Sequence[Record]) -> range:
    """The indices of the last undo group: what an undo would cancel now, if it is allowed.

    That is the last record and the records before it in the same group (a transaction and the
    properties given up to settle the debt it caused); empty when the last record cannot be
    undone (an undo, an event card, a new game). Whether undo is allowed at all (a debt still
    open, the game over, the settings) is the game's business: ``Game.undo_available``.
    """
    if not records or records[-1].undo_group is None:
        return range(0)
    group = records[-1].undo_group
    start = len(records) - 1
    while start > 0 and records[start - 1].undo_group == group:
        start -= 1
    return range(start, len(records))


def outcome_of(
    record: Record, before: GameState, rules: Ruleset | None, edition: Edition | None = None
) -> Outcome | None:
    """The outcome of *record*, which started from the state *before*: the journalled one,
    or for a record older than schema 3 the one the upcaster of version 0 derives with
    *rules* (the record's ruleset; None: not derived) and *edition*."""
    if record.stores_outcome:
        return record.outcome
    if rules is None:
        return None
    return derive_outcome(record, before, rules, edition)


def derive_outcome(
    record: Record, before: GameState, rules: Ruleset, edition: Edition | None = None
) -> Outcome | None:
    """The upcaster of outcome version 0: the outcome of a record written without one.

    The rules are pure, so the command decided again on the state it started from says
    what it did then; that outcome is kept when the rules give back exactly the events the
    record stores (what the record says always wins). When they do not (rules changed since,
    a dice seed drawn at random), the ruleset's codec may tell the outcome from the events
    (:attr:`bank.engine.ruleset.OutcomeCodec.from_events`, given *edition*); else there is none.
    An undo has no outcome.
    """
    if record.name == "undo":
        return None
    try:
        decision = rules.decide(before, record.command)
    except (RuleError, BankError, KeyError, IndexError, TypeError, ValueError):
        decision = None
    if decision is not None and decision.events == record.events:
        return decision.outcome
    codec = _rulesets.find(record.ruleset).outcomes
    if codec is None or codec.from_events is None or edition is None:
        return None
    after = apply(before, record.events)
    return codec.from_events(edition, record, before, after)
