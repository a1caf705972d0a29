"""The virtual clock of tap scripts against float rounding: whatever the time an auction
starts, its countdown shows 10 s down to 1 s once each and ends 10 s after the last bid."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from bank.script import run_script


@pytest.mark.parametrize("start", ["6.1", "6.6", "9.6", "10.6", "12.35", "0"])
def test_the_countdown_shows_ten_seconds_whatever_the_start_time(
    start: str, tmp_path: Path
) -> None:
    script = tmp_path / "a.tap"
    script.write_text(
        f"tap bank:1\ntap bank:2\npress ok\nwait {start}\ntap prop:1\npress menu\npress ok\n"
        "press ok\nwait 10\ntap bank:2\n",
        encoding="utf-8",
    )
    out = io.StringIO()
    assert run_script(script, out=out) == 0
    lines = out.getvalue().splitlines()
    shown = [
        int(m.group(1)) for ln in lines if (m := re.search(r"screen auction #1 \d+ (\d+)s", ln))
    ]
    assert shown == [10, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]  # start, the bid, then one a second
    assert sum("cue auction_tick" in ln for ln in lines) == 9
    end = f"{float(start) + 10:8.3f} cue hammer"
    assert end in lines
    assert any("screen sold #1 [helicopter] L1 20" in ln for ln in lines)
