"""Small helpers for the engine's frozen dataclasses. Imports only the standard library."""

from __future__ import annotations

from dataclasses import fields

_FIELDS: dict[type, tuple[str, ...]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """The dataclass field names of *cls*, cached: cheaper than ``dataclasses.asdict``."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))
    return names
