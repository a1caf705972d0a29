"""Compatibility: ``bank.cli`` is now :mod:`bank.app.cli` (``python -m bank.cli`` still works).

A package rather than a ``cli.py`` file, so that git still sees the old file as moved to
``bank/app/cli.py`` and carries edits made elsewhere to ``bank/cli.py`` over when merging.
"""

from __future__ import annotations

from typing import Any

from bank.app import cli as _moved


def __getattr__(name: str) -> Any:
    return getattr(_moved, name)
