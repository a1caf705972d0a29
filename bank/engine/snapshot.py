"""Snapshots of a game: the whole state (and what undo needs) as one JSON text.

A snapshot lets a resume start from the state after transaction *n* and replay only the
records after it, instead of the whole game (``docs/journal.md``). It is a *generic*
serialisation: every frozen dataclass of the state is written field by field, by name, so a
field a ruleset adds to its state extension round-trips without this module knowing of it.
Only the classes of the state tree are ever built back (the core's state, player and property
values and each ruleset's registered extension, and any dataclass they hold); a snapshot naming
another class is refused, never imported.

:data:`STATE_VERSION` names the shape of the state this code writes: the core's version number
and a fingerprint of every state class's field names. A snapshot written by code with another
shape is not read (the game is replayed whole and a new snapshot written). Imports the engine's
state and event types and the standard library only.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, Final

from bank.engine.commands import Command, command_from_dict
from bank.engine.events import Event, event_from_dict
from bank.engine.state import GameState, PlayerState, PropertyState, extension_types

__all__ = [
    "SNAPSHOT_EVERY",
    "GameSnapshot",
    "SnapshotError",
    "dump",
    "load",
    "state_version",
]

#: bump when the meaning of a state field changes without its name changing
CORE_STATE_VERSION: Final = 1
#: a snapshot every this many transactions (and at a clean stop): a resume replays fewer
SNAPSHOT_EVERY: Final = 250
#: bump when the snapshot's own layout (not the state's) changes
_LAYOUT: Final = 4

_TUPLE: Final = "()"
_FROZENSET: Final = "{}"
_CLASS: Final = "@"


class SnapshotError(ValueError):
    """A snapshot that cannot be written or read back; the game is replayed instead."""


@dataclass(frozen=True, slots=True)
class GameSnapshot:
    """What a game holds after transaction *count*: the state and its undo bookkeeping."""

    count: int
    state: GameState
    undo_events: tuple[Event, ...]
    undo_group: int | None
    group_had_debt: bool
    ruleset: str
    #: what happened after the undo group's first transaction (``Game``'s undo trail): a
    #: command replayed by an undo with its events, or None with a joining transaction's
    trail: tuple[tuple[Command | None, tuple[Event, ...]], ...] = ()
    #: the last undo group's transaction opened the debt being settled (``Game``)
    group_opened_debt: bool = False
    #: the outcomes of the undo group's transactions, first one first, as the ruleset's
    #: outcome codec stores them (what an undo says it undid: ``Game``'s ``Undone``)
    undo_outcomes: tuple[Mapping[str, Any], ...] = ()


def _classes(ruleset: str | None = None) -> dict[str, type]:
    """The classes a snapshot may build, by qualified name (of *ruleset*'s games; None: of
    every loaded ruleset's)."""
    found: dict[str, type] = {}
    todo: list[type] = [GameState, PlayerState, PropertyState, *extension_types(ruleset)]
    while todo:
        cls = todo.pop()
        name = f"{cls.__module__}.{cls.__qualname__}"
        if name in found:
            continue
        found[name] = cls
    return found


def _nested_class(name: str) -> type | None:
    """A dataclass of the bank's own (already loaded) modules held inside the state."""
    module_name, _, qualname = name.rpartition(".")
    module = sys.modules.get(module_name) if module_name.startswith("bank.") else None
    cls = getattr(module, qualname, None) if module is not None else None
    return cls if isinstance(cls, type) and is_dataclass(cls) else None


def state_version(ruleset: str | None = None) -> str:
    """The shape of the state this code writes for a game of *ruleset*: version number and
    field-name fingerprint of the core's state and that ruleset's extension (None: every
    loaded ruleset's; the registry loads a ruleset only when it is asked for, so a game's
    snapshot names the shape of its own ruleset's state only)."""
    h = hashlib.blake2b(digest_size=8)
    for name, cls in sorted(_classes(ruleset).items()):
        h.update(name.encode())
        for f in fields(cls):
            h.update(b"|" + f.name.encode())
        h.update(b"\n")
    return f"{CORE_STATE_VERSION}.{_LAYOUT}-{h.hexdigest()}"


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, tuple):
        return {_TUPLE: [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, frozenset):
        return {_FROZENSET: sorted((_encode(v) for v in value), key=repr)}
    if is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        return {
            _CLASS: f"{cls.__module__}.{cls.__qualname__}",
            "f": {f.name: _encode(getattr(value, f.name)) for f in fields(value)},
        }
    raise SnapshotError(f"a state value of type {type(value).__name__} cannot be snapshotted")


def _decode(raw: Any, classes: dict[str, type]) -> Any:
    if raw is None or isinstance(raw, (bool, int, float, str)):
        return raw
    if isinstance(raw, list):
        return [_decode(v, classes) for v in raw]
    if isinstance(raw, dict):
        if _TUPLE in raw:
            return tuple(_decode(v, classes) for v in raw[_TUPLE])
        if _FROZENSET in raw:
            return frozenset(_decode(v, classes) for v in raw[_FROZENSET])
        cls = classes.get(str(raw.get(_CLASS))) or _nested_class(str(raw.get(_CLASS)))
        if cls is None:
            raise SnapshotError(f"a snapshot names an unknown state class {raw.get(_CLASS)!r}")
        values = {k: _decode(v, classes) for k, v in raw["f"].items()}
        try:
            return cls(**values)
        except TypeError as err:
            raise SnapshotError(f"a snapshot's {cls.__qualname__} does not fit: {err}") from err
    raise SnapshotError(f"a snapshot holds a value of type {type(raw).__name__}")


def dump(snapshot: GameSnapshot) -> str:
    """The snapshot as one JSON text (keys in a fixed order, no spaces)."""
    body = {
        "count": snapshot.count,
        "ruleset": snapshot.ruleset,
        "state": _encode(snapshot.state),
        "undo_events": [e.to_dict() for e in snapshot.undo_events],
        "undo_group": snapshot.undo_group,
        "group_had_debt": snapshot.group_had_debt,
        "trail": [
            [command.to_dict() if command is not None else None, [e.to_dict() for e in events]]
            for command, events in snapshot.trail
        ],
        "group_opened_debt": snapshot.group_opened_debt,
        "undo_outcomes": [dict(raw) for raw in snapshot.undo_outcomes],
    }
    try:
        return json.dumps(body, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as err:
        raise SnapshotError(f"the state cannot be written as JSON: {err}") from err


def load(text: str) -> GameSnapshot:
    """Read back what :func:`dump` wrote; SnapshotError if it does not fit this code."""
    try:
        body = json.loads(text)
        state = _decode(body["state"], _classes())
        if not isinstance(state, GameState):
            raise SnapshotError("a snapshot's state is not a game state")
        group = body["undo_group"]
        return GameSnapshot(
            count=int(body["count"]),
            state=state,
            undo_events=tuple(map(event_from_dict, _dicts(body["undo_events"]))),
            undo_group=int(group) if group is not None else None,
            group_had_debt=bool(body["group_had_debt"]),
            ruleset=str(body["ruleset"]),
            trail=tuple(
                (
                    command_from_dict(command) if command is not None else None,
                    tuple(map(event_from_dict, _dicts(events))),
                )
                for command, events in body["trail"]
            ),
            group_opened_debt=bool(body["group_opened_debt"]),
            undo_outcomes=tuple(_dicts(body["undo_outcomes"])),
        )
    except SnapshotError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise SnapshotError(f"a snapshot cannot be read: {err!r}") from err


def _dicts(items: Iterable[Any]) -> list[dict[str, Any]]:
    out = []
    for item in items:
        if not isinstance(item, dict):
            raise SnapshotError("a snapshot's undo events are not objects")
        out.append(item)
    return out
