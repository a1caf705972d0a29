"""Small helpers for the engine's frozen dataclasses. Imports only the standard library."""

from __future__ import annotations

from dataclasses import fields
from typing import TypeVar

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
