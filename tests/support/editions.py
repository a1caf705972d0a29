"""House editions for tests: a shipped file's text under an id of its own."""

from __future__ import annotations

import re


def house_copy(text: str) -> str:
    """*text* (a shipped edition file) with ``[edition] id`` made a house edition's: a copy
    may not claim a shipped edition's id (it would resume as the shipped one)."""
    return re.sub(r'(?m)^id = "([^"]+)"$', r'id = "\1-maison"', text, count=1)
