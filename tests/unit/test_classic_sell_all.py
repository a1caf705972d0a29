"""The building shortage (docs/classic.md §3.8 decision, READINGS C6): breaking a hotel the bank's
stock cannot take apart asks `Plus de maisons : tout vendre ? ✓`; ✓ sells every building of
the group at half price, X cancels that tap and the session goes on."""

from __future__ import annotations

import io
import json
from pathlib import Path

from bank.script import run_script
from board_assets import EDITIONS_DIR
from tests.support.editions import house_copy

#: a house edition whose bank holds 8 houses, so two groups can empty it
SETUP = """tap bank:1
tap bank:2
press ok
tap deed:1
tap bank:1
tap deed:2
tap bank:1
tap deed:4
tap bank:1
tap deed:5
tap bank:1
tap deed:6
tap bank:1
press menu
key 7
tap bank:1
tap deed:1
tap deed:2
tap deed:1
tap deed:2
tap deed:1
tap deed:2
tap deed:1
tap deed:2
tap deed:1
tap deed:2
tap deed:4
tap deed:5
tap deed:6
tap deed:4
tap deed:5
tap deed:6
tap deed:4
tap deed:5
press ok
press menu
key 8
tap bank:1
tap deed:1
"""


def play(tmp: Path, body: str, lang: str = "fr") -> tuple[str, dict[str, object]]:
    edition = "classic-fr" if lang == "fr" else "classic-uk"
    text = house_copy((EDITIONS_DIR / f"{edition}.toml").read_text(encoding="utf-8"))
    assert "\nhouses = 32\n" in text
    house = tmp / "maison.toml"
    house.write_text(text.replace("\nhouses = 32\n", "\nhouses = 8\n", 1), encoding="utf-8")
    script = tmp / "t.tap"
    script.write_text(SETUP + body, encoding="utf-8")
    out = io.StringIO()
    state = tmp / "state.json"
    code = run_script(script, str(house), tmp / "d", state, out, err=out)
    assert code == 0, out.getvalue()
    return out.getvalue(), json.loads(state.read_text(encoding="utf-8"))


def _lots(state: dict[str, object]) -> dict[int, object]:
    deeds = state["properties"]
    assert isinstance(deeds, list)
    return {d["number"]: d["level"] for d in deeds if d["number"] in (1, 2, 4, 5, 6)}


def test_the_shortage_asks_and_ok_sells_the_whole_group(tmp_path: Path) -> None:
    transcript, state = play(tmp_path, "press ok\n")
    assert "screen sell_all" in transcript and "Plus de maisons : / tout vendre ? ✓" in transcript
    assert _lots(state) == {1: 0, 2: 0, 4: 3, 5: 3, 6: 2}
    # 1500 - 120 - 320 (deeds) - 8 * 50 - 2 * 50 (brown) - 8 * 50 (light blue) = 160;
    # the brown group back at half: 2 hotels with their 4 houses each = 10 * 25 = 250
    assert state["players"][0]["balance"] == 160 + 250


def test_cancel_drops_that_tap_and_the_session_goes_on(tmp_path: Path) -> None:
    transcript, state = play(tmp_path, "press cancel\ntap deed:4\npress ok\n")
    assert "screen sell_all" in transcript
    after = transcript.split("screen sell_all")[1]
    assert "screen session" in after.splitlines()[1] or "screen session" in after
    # the hotels stay; a house sold on Rue de Vaugirard (+25): the session went on
    assert _lots(state) == {1: 5, 2: 5, 4: 2, 5: 3, 6: 2}
    assert state["players"][0]["balance"] == 160 + 25


def test_the_question_in_english(tmp_path: Path) -> None:
    transcript, _ = play(tmp_path, "press ok\n", lang="en")
    assert "No houses left: / sell all? ✓" in transcript
