"""Tap scripts run one after another on the same data directory, as docs/scripts.md describes:
the second one continues the stored game (its edition, a debt being settled), and a script
file written with a byte-order mark reads like any other."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bank.engine.errors import BankError
from bank.script import run_script


def run(tmp: Path, name: str, text: str, data: Path | None, **kw: object) -> dict[str, object]:
    script = tmp / f"{name}.tap"
    script.write_text(text, encoding="utf-8")
    state_file = tmp / f"{name}.json"
    out = io.StringIO()
    assert run_script(script, data_dir=data, state_out=state_file, out=out, **kw) == 0  # type: ignore[arg-type]
    state = json.loads(state_file.read_text(encoding="utf-8"))
    assert isinstance(state, dict)
    state["transcript"] = out.getvalue()
    return state


def test_a_second_script_without_edition_continues_a_uk_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    first = "tap bank:1\ntap bank:2\npress ok\ntap prop:22\ntap bank:2\n"
    run(tmp_path, "first", first, data, edition="ultimate-uk")
    state = run(tmp_path, "second", "tap prop:22\ntap bank:1\n", data)
    assert state["edition"] == "ultimate-uk"
    assert "Mayfair" in str(state["transcript"])
    players = state["players"]
    assert isinstance(players, list)
    # car pays the level-1 rent of Mayfair (300) to helicopter, then level 2
    assert [p["balance"] for p in players] == [1200, 1100 + 300]
    assert state["properties"][21] == {"number": 22, "owner": 2, "level": 2}  # type: ignore[index]


def test_an_explicit_other_edition_on_a_stored_game_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "data"
    run(tmp_path, "first", "tap bank:1\ntap bank:2\npress ok\n", data, edition="ultimate-uk")
    script = tmp_path / "fr.tap"
    script.write_text("tap bank:1\n", encoding="utf-8")
    with pytest.raises(BankError, match="edition 'ultimate-uk'"):
        run_script(script, edition="ultime-fr", data_dir=data, out=io.StringIO())


def test_without_a_stored_game_the_default_edition_is_french(tmp_path: Path) -> None:
    state = run(tmp_path, "fresh", "tap bank:1\ntap bank:2\npress ok\n", tmp_path / "data")
    assert state["edition"] == "ultime-fr"


def test_a_debt_left_by_one_script_is_settled_by_the_next(tmp_path: Path) -> None:
    data = tmp_path / "data"
    scripts = Path(__file__).resolve().parents[1] / "scripts"
    lines = (scripts / "03_debt.tap").read_text(encoding="utf-8").splitlines()
    first = "\n".join(ln for ln in lines if "gives" not in ln) + "\n"
    state = run(tmp_path, "first", first, data)
    assert state["players"][1]["debt"] == 360  # type: ignore[index]
    state = run(tmp_path, "second", "tap bank:1\ntap prop:18\ntap prop:3\n", data)
    assert "screen debt [helicopter] 360" in str(state["transcript"])
    assert "Réglez la dette" in str(state["transcript"])  # the bank card is refused meanwhile
    expected = json.loads((scripts / "03_debt.state.json").read_text(encoding="utf-8"))
    for key in ("players", "properties", "undo_available"):
        mine = state[key]
        if isinstance(mine, list):
            mine = [
                {k: item[k] for k in ref} for item, ref in zip(mine, expected[key], strict=True)
            ]
        assert mine == expected[key], key


def test_a_script_with_a_byte_order_mark_runs(tmp_path: Path) -> None:
    script = tmp_path / "bom.tap"
    script.write_bytes("\ufefftap bank:1\ntap bank:2\npress ok\n".encode())
    state_file = tmp_path / "bom.json"
    assert run_script(script, state_out=state_file, out=io.StringIO()) == 0
    state = json.loads(state_file.read_text(encoding="utf-8"))
    assert [p["card"] for p in state["players"]] == [1, 2]
