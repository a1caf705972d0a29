"""Small helpers for the engine's frozen dataclasses. Imports only the standard library."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar, cast

T = TypeVar("T")

_FIELDS: dict[type, tuple[str, ...]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """The dataclass field names of *cls*, cached: cheaper than ``dataclasses.asdict``."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))
    return names


def register_once(table: dict[str, type[T]], name: str, cls: type[T], what: str) -> None:
    """Add *cls* under *name*; ValueError when another class already holds the name."""
    known = table.get(name)
    if known is not None and known is not cls:
        raise ValueError(f"{what} {name!r} is already {known.__qualname__}")
    table[name] = cls


_DICT_MAKERS: dict[tuple[type, str], Callable[[Any], dict[str, Any]]] = {}


def dict_maker(cls: type, last: str, lists: bool = False) -> Callable[[Any], dict[str, Any]]:
    """A function giving an instance of the dataclass *cls* as a dict: its fields in order,
    then the key *last* with the class's attribute of that name (an event's ``kind``, a
    command's ``name``); with *lists*, a tuple field is given as a list.

    Made once per class from its field names, as :mod:`dataclasses` makes ``__init__``: one
    dict display instead of a loop of ``getattr`` (every journalled transaction writes its
    command and events so).
    """
    maker = _DICT_MAKERS.get((cls, last))
    if maker is not None:
        return maker
    names = field_names(cls)
    if not all(name.isidentifier() for name in (*names, last)):
        raise ValueError(f"{cls.__name__} has a field that is not an identifier")
    if lists:
        items = [f"{n!r}: listed(self.{n})" for n in names]
    else:
        items = [f"{n!r}: self.{n}" for n in names]
    items.append(f"{last!r}: tail")
    source = f"def as_dict(self):\n    return {{{', '.join(items)}}}\n"
    scope: dict[str, Any] = {"tail": getattr(cls, last), "listed": _listed}
    exec(source, scope)  # the source is made above from the dataclass's field names
    maker = _DICT_MAKERS[(cls, last)] = cast("Callable[[Any], dict[str, Any]]", scope["as_dict"])
    return maker


def _listed(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value
