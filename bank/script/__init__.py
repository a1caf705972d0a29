"""Compatibility: ``bank.script`` is now :mod:`bank.app.script`.

``python -m bank.script FILE`` (docs/unit.md) still runs a tap script. A package rather than a
``script.py`` file, so that git still sees the old file as moved to ``bank/app/script.py``.
"""

from __future__ import annotations

from typing import Any

from bank.app import script as _moved


def __getattr__(name: str) -> Any:
    return getattr(_moved, name)
