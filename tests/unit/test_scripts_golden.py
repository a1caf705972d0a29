"""Byte-for-byte guard: every scenario script, the docs/scripts.md examples and the example game
give exactly the transcript and state file they gave before the ruleset seam (issue 11).

``tests/scripts/golden/`` holds what the code wrote for each script (``<stem>.transcript``
and ``<stem>.state.json``), captured on the code before the refactor. A refactor that changes
a single byte a player or an acceptance check sees fails here. After an intended change of
behaviour, rewrite them with ``ULTIBANK_WRITE_GOLDEN=1 pytest tests/unit/test_scripts_golden.py``
and review the diff.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from bank.script import run_script

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "scripts"
GOLDEN = SCRIPTS / "golden"
#: every scenario, plus the example game of docs/ (the docs/scripts.md examples are 01..03)
ALL = [*sorted(SCRIPTS.glob("*.tap")), ROOT / "docs" / "example-game.tap"]
WRITE = os.environ.get("ULTIBANK_WRITE_GOLDEN") == "1"


def test_the_three_scripts_md_examples_are_covered() -> None:
    assert {"01_first_moves", "02_auction", "03_debt"} <= {p.stem for p in ALL}
    assert len(ALL) == len(list(SCRIPTS.glob("*.tap"))) + 1


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_transcript_and_state_are_byte_identical(path: Path, tmp_path: Path) -> None:
    out = io.StringIO()
    state_file = tmp_path / "state.json"
    assert run_script(path, state_out=state_file, out=out) == 0
    transcript = out.getvalue().encode("utf-8")
    state = state_file.read_bytes()
    want_transcript = GOLDEN / f"{path.stem}.transcript"
    want_state = GOLDEN / f"{path.stem}.state.json"
    if WRITE:
        want_transcript.write_bytes(transcript)
        want_state.write_bytes(state)
    assert transcript == want_transcript.read_bytes()
    assert state == want_state.read_bytes()
