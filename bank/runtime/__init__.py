"""Compatibility: ``bank.runtime`` is now :mod:`bank.app.runtime`.

A package rather than a ``runtime.py`` file, so that git still sees the old file as moved to
``bank/app/runtime.py`` and carries edits made elsewhere to ``bank/runtime.py`` over.
"""

from __future__ import annotations

from typing import Any

from bank.app import runtime as _moved


def __getattr__(name: str) -> Any:
    return getattr(_moved, name)
