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

import dataclasses
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, cast, overload

from bank import rulesets as _rulesets  # each ruleset's commands, events and outcomes
from bank.engine.commands import Command, command_from_dict
from bank.engine.errors import BankError, RuleError
from bank.engine.events import SCHEMA_VERSION, Event, apply, event_from_dict
from bank.engine.ruleset import (
    ENGINE_CODEC,
    Outcome,
    OutcomeCodec,
    OutcomeError,
    Ruleset,
    Undone,
)
from bank.engine.ruleset import _same as _stored_as_is  # the codec's reader of a plain field
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
    "derive_undone",
    "encode",
    "last_undo_group",
    "outcome_of",
    "record_text",
    "undone_by",
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
            codec = _codec(self.ruleset)
            try:
                # an upcaster may read the command the outcome was decided for
                self._outcome = codec.decode(self.stored_outcome, self.command.to_dict())
            except (OutcomeError, KeyError, TypeError, ValueError) as err:
                where = f"journal record {self.number}" if self.number else "a journal record"
                raise RecordError(f"{where} has an outcome that cannot be read: {err}") from err
        return self._outcome

    @property
    def stores_outcome(self) -> bool:
        """Whether the record was written with its outcome (schema 3 on), an undo only when
        it holds one: an undo journalled before its outcome (:class:`Undone`) was has its
        outcome derived when read (:func:`outcome_of`)."""
        if self.schema < OUTCOME_SCHEMA:
            return False
        return self.stored_outcome is not None or self.command.name != "undo"

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
        if codec is None and isinstance(outcome, Undone):
            codec = ENGINE_CODEC  # the core's own kind, for rules that store none of theirs
        if codec is None:
            raise _no_codec(ruleset, outcome)
        record["outcome"] = codec.encode(outcome)
    record["undo_group"] = undo_group  # last, as in every schema
    return record


def _no_codec(ruleset: str, outcome: Outcome) -> RecordError:
    return RecordError(
        f"the {ruleset!r} rules gave an outcome ({outcome.kind}) but declare no "
        "outcome codec (RulesetSpec.outcomes): nothing was journalled"
    )


# ---------------------------------------------------------------------- the record as text
#
# The journal stores a record as its JSON text (compact separators, ASCII only, no NaN).
# :func:`record_text` writes that text straight from the command, events and outcome,
# character for character what the journal's encoder makes of :func:`encode`'s dict, without
# building the dicts: each command, event and outcome class gets a function made once from its
# fields (as ``dataclasses`` makes ``__init__``) that writes an int, a flag, None and a string
# itself and hands any other value to the JSON encoder. A class that writes its own dict
# (``to_dict`` overridden) is written through that dict.


def _not_json(value: object) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _make_json_text() -> Callable[[Any], str]:
    """The JSON text of any value as the journal writes it inside a record: the C encoder
    made once with the journal's options, or the json module's own encoder without it."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
    # (markers, default, encoder, indent, key_separator, item_separator, sort_keys, skipkeys,
    #  allow_nan)
    chunks = make(
        None, _not_json, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, False
    )
    join = "".join

    def json_text(value: Any) -> str:
        return join(chunks(value, 0))

    return json_text


_json_text: Final = _make_json_text()
_quoted: Final = json.encoder.encode_basestring_ascii


def _value_text(value: Any) -> str:
    """The JSON text of a value stored as it is."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):  # a str subclass (an enum) is written as its string
        return _quoted(value)
    return _json_text(value)


#: one value written inside an f-string of the functions made below (*x*: its name; *slow*:
#: the function that writes what is no int, string, flag or None): an int is formatted by the
#: f-string itself
_INLINE: Final = (
    "(ints({x}) or int_text({x})) if type({x}) is int "
    "else (strs({x}) or str_text({x})) if type({x}) is str else 'null' if {x} is None "
    "else 'true' if {x} is True else 'false' if {x} is False else {slow}({x})"
)

#: the texts of the ints and strings written so far, up to this many of each (a game writes
#: the same few card and property numbers, amounts and reasons over and over: looking one up
#: costs half of writing it)
_KEPT: Final = 4096
_INT_TEXTS: Final[dict[int, str]] = {}
_STR_TEXTS: Final[dict[str, str]] = {}


def _int_text(value: int) -> str:
    text = int.__repr__(value)  # what the JSON encoder writes of an int
    if len(_INT_TEXTS) < _KEPT:
        _INT_TEXTS[value] = text
    return text


def _str_text(value: str) -> str:
    text: str = _quoted(value)
    if len(_STR_TEXTS) < _KEPT:
        _STR_TEXTS[value] = text
    return text


def _check_names(cls: type, names: Iterable[str]) -> None:
    for name in names:
        if not name.isidentifier():  # never for a dataclass field; no code made of it
            raise OutcomeError(f"{cls.__name__} has a field named {name!r}")


def _made(
    names: Sequence[str], pieces: Sequence[str], scope: dict[str, Any], nested: bool = False
) -> Callable[[Any], str]:
    """A function ``write(value)`` that reads the fields *names* of its argument (``a0``,
    ``a1``...) and returns the f-string of *pieces*; *nested*: within braces, the first
    piece's comma left out."""
    lines = ["def write(value):"]
    lines += [f"    a{i} = value.{name}" for i, name in enumerate(names)]
    text = f'f"{"".join(pieces)}"'
    lines.append(f'    return "{{" + {text}[1:] + "}}"' if nested else f"    return {text}")
    scope.update(
        ints=_INT_TEXTS.get,
        int_text=_int_text,
        strs=_STR_TEXTS.get,
        str_text=_str_text,
        text=_value_text,
    )
    exec("\n".join(lines), scope)  # the source is made from a dataclass's field names
    return cast("Callable[[Any], str]", scope["write"])


def _dict_writer(cls: type, last: str, own: Callable[..., Any]) -> Callable[[Any], str]:
    """The text of ``to_dict()`` of an instance of *cls*: its fields in order, then *last*
    (an event's ``kind``, a command's ``name``), as :func:`bank.engine.values.dict_maker`
    makes it; through the dict itself when *cls* overrides *own*, its base's ``to_dict``."""
    names = [f.name for f in dataclasses.fields(cls)]
    if getattr(cls, "to_dict", None) is not own or last in names:
        return lambda value: _json_text(value.to_dict())
    _check_names(cls, names)
    scope: dict[str, Any] = {}
    pieces = []
    for i, name in enumerate(names):
        scope[f"k{i}"] = ("{" if i == 0 else ",") + _quoted(name) + ":"
        pieces.append(f"{{k{i}}}{{{_INLINE.format(x=f'a{i}', slow='text')}}}")
    last_value = _value_text(getattr(cls, last))
    scope["tail"] = ("," if names else "{") + _quoted(last) + ":" + last_value + "}"
    pieces.append("{tail}")
    return _made(names, pieces, scope)


class _Writers(dict[type, Callable[[Any], str]]):
    """Each class's text writer, made the first time one of its instances is written."""

    def __init__(self, make: Callable[[type], Callable[[Any], str]]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, cls: type) -> Callable[[Any], str]:
        writer = self[cls] = self.make(cls)
        return writer


_COMMAND_TEXTS: Final = _Writers(lambda cls: _dict_writer(cls, "name", Command.to_dict))
_EVENT_TEXTS: Final = _Writers(lambda cls: _dict_writer(cls, "kind", Event.to_dict))


class _OutcomeTexts:
    """The text of what an :class:`OutcomeCodec` stores of an outcome (``codec.encode``) and
    of the values in its fields (the codec's ``_plain``), written by functions made once per
    class from the codec's own layout of its fields: default values left out, a field the
    codec stores as it is written so, any other as the codec turns it into plain values."""

    def __init__(self, codec: OutcomeCodec) -> None:
        self.codec = codec
        self.outcomes = _Writers(lambda cls: self._writer(cls, True))
        self.nested = _Writers(lambda cls: self._writer(cls, False))

    def plain(self, item: Any) -> str:
        """The text of ``codec._plain(item)``."""
        writer = self.nested.get(type(item))  # a dataclass (no outcome) written before
        if writer is not None:
            return writer(item)
        if item is None or isinstance(item, int | str | float):
            return _value_text(item)
        cls = type(item)
        if cls is tuple or cls is list:
            return "[" + ",".join([self.plain(x) for x in item]) + "]"
        if isinstance(item, Outcome):
            return self.outcomes[cls](item)
        if dataclasses.is_dataclass(item) and not isinstance(item, type | tuple | list):
            return self.nested[cls](item)
        return _json_text(self.codec._plain(item))  # raises OutcomeError as the codec does

    def _writer(self, cls: type, kind: bool) -> Callable[[Any], str]:
        layout = self.codec._layout(cls)
        names = [name for name, _, _ in layout]
        _check_names(cls, names)
        scope: dict[str, Any] = {"plain": self.plain, "nested": self.nested.get}
        pieces = []
        if kind:
            head = '{"k":' + _value_text(cast("type[Outcome]", cls).kind)
            version = cast("type[Outcome]", cls).version
            if version != 1:
                head += ',"v":' + _value_text(version)
            scope["head"] = head
            pieces.append("{head}")
        for i, (name, default, convert) in enumerate(layout):
            scope[f"k{i}"] = "," + _quoted(name) + ":"
            x = f"a{i}"
            if convert is _stored_as_is:
                value = _INLINE.format(x=x, slow="text")
            else:  # one the codec turns into plain values (a dataclass, an outcome, a tuple)
                value = f"(nested(type({x})) or plain)({x})"
            if default is dataclasses.MISSING:
                pieces.append(f"{{k{i}}}{{{value}}}")
            else:  # left out when equal to its default
                scope[f"d{i}"] = default
                pieces.append(f"{{'' if a{i} == d{i} else k{i} + ({value})}}")
        if kind:
            pieces.append("}}")
        return _made(names, pieces, scope, nested=not kind)


class _OutcomeCodecs(dict[OutcomeCodec, _OutcomeTexts]):
    def __missing__(self, codec: OutcomeCodec) -> _OutcomeTexts:
        texts = self[codec] = _OutcomeTexts(codec)
        return texts


_OUTCOME_TEXTS: Final = _OutcomeCodecs()
#: the beginning of a record's text, up to its command, by ruleset and edition
_HEADS: Final[dict[tuple[str, str], str]] = {}


def record_text(
    command: Command,
    events: Iterable[Event],
    undo_group: int | None,
    edition: str,
    ruleset: str = LEGACY_RULESET,
    outcome: Outcome | None = None,
) -> str:
    """The JSON text the journal stores for :func:`encode`'s record (same arguments, here
    positional too: a call with keywords costs more), character for character, written
    without the dicts. Raises what :func:`encode` raises, and TypeError or ValueError for a
    value that is not JSON (the journal's encoder refuses it: write such a record through
    :func:`encode` to be told how)."""
    head = _HEADS.get((ruleset, edition))
    if head is None:
        head = _HEADS[(ruleset, edition)] = (
            f'{{"v":{SCHEMA_VERSION},"ruleset":{_value_text(ruleset)},'
            f'"edition":{_value_text(edition)},"command":'
        )
    texts = _EVENT_TEXTS
    if type(events) is tuple and len(events) == 1:  # most transactions
        event = events[0]
        written = texts[type(event)](event)
    else:
        written = ",".join([texts[type(e)](e) for e in events])
    group = undo_group if type(undo_group) is int else _value_text(undo_group)
    cmd = _COMMAND_TEXTS[type(command)](command)
    if outcome is None:
        return f'{head}{cmd},"events":[{written}],"undo_group":{group}}}'
    codec = _rulesets.find(ruleset).outcomes
    if codec is None and isinstance(outcome, Undone):
        codec = ENGINE_CODEC
    if codec is None:
        raise _no_codec(ruleset, outcome)
    out = _OUTCOME_TEXTS[codec].outcomes[type(outcome)](outcome)
    return f'{head}{cmd},"events":[{written}],"outcome":{out},"undo_group":{group}}}'


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


def _codec(ruleset: str) -> OutcomeCodec:
    """The outcome codec of the rules *ruleset* (the core's own, for its :class:`Undone`, when
    the rules store no outcomes)."""
    return _rulesets.find(ruleset).outcomes or ENGINE_CODEC


def undone_by(records: Sequence[Record], index: int) -> list[int]:
    """The indices of the records the undo at *index* cancelled, first one first: the undo
    group of the last undoable record before it (the transaction, then the steps that joined
    it; the commands it replayed, which belong to no group, are not among them). Empty when
    none is found (a journal cut short)."""
    last = index - 1
    while last >= 0 and records[last].undo_group is None:
        last -= 1
    if last < 0:
        return []
    group = records[last].undo_group
    found = []
    for k in range(last, -1, -1):
        other = records[k].undo_group
        if other == group:
            found.append(k)
        elif other is not None:
            break
        if records[k].number and records[k].number <= (group or 0):
            break
    return found[::-1]


def outcome_of(
    record: Record, before: GameState, rules: Ruleset | None, edition: Edition | None = None
) -> Outcome | None:
    """The outcome of *record*, which started from the state *before*: the journalled one,
    or for a record older than schema 3 the one the upcaster of version 0 derives with
    *rules* (the record's ruleset; None: not derived) and *edition*; an undo written without
    its outcome gets it from :func:`derive_undone` (with *edition*)."""
    if record.stores_outcome:
        return record.outcome
    if record.name == "undo":
        return derive_undone(record, before, edition)
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
    An undo's is :func:`derive_undone`'s.
    """
    if record.name == "undo":
        return derive_undone(record, before, edition)
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


def derive_undone(
    record: Record,
    before: GameState,
    edition: Edition | None = None,
    undone: Sequence[Outcome] = (),
) -> Undone:
    """The upcaster of an undo journalled without its outcome (every undo written before the
    :class:`Undone` kind, whatever its schema): the outcomes of the records it undid when the
    reader has them (*undone*: a reader that reads the game in order, :func:`undone_by`),
    else what it undid as its events show it.

    An undo's events are the undone transactions' events, inverted (then the commands it
    replayed, decided again); the ruleset's codec reads the undone transactions' outcomes
    from them (:attr:`bank.engine.ruleset.OutcomeCodec.undone_from_events`, given *edition*).
    Without that reading the undo says only that it undid something (no outcomes). This is
    the only place an undo's outcome is worked out from events: every undo journalled since
    stores the outcomes the rules gave the transactions it cancelled.
    """
    if undone:
        return Undone(tuple(undone))
    codec = _rulesets.find(record.ruleset).outcomes
    read = codec.undone_from_events if codec is not None else None
    if read is None or edition is None:
        return Undone()
    try:
        told = read(edition, record, before, apply(before, record.events))
    except (KeyError, IndexError, TypeError, ValueError):  # events that do not fit the state
        told = ()
    return Undone(tuple(told))
