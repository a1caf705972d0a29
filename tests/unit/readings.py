"""Helpers for the tests that trace the project's settled readings (docs/readings.md) through
the unit: a tap script run by ``ultibank script`` gives its transcript and its state file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bank.cli import main

#: two players registered, the game started: dog (1) and racecar (2)
P2 = "tap bank:1\ntap bank:2\npress ok\n"
#: three players: dog, racecar, tophat
P3 = "tap bank:1\ntap bank:2\ntap bank:3\npress ok\n"


def roll(card: int | None) -> str:
    """The dice gesture (menu item 11) for *card*, or anonymous (✓) for None."""
    return "press menu\nkey 11\n" + (f"tap bank:{card}\n" if card else "press ok\n")


def item(n: int, card: int, amount: int | None = None) -> str:
    """Menu item *n* applied to *card* (then *amount* typed and ✓, for items 5 and 6)."""
    text = f"press menu\nkey {n}\ntap bank:{card}\n"
    return text + (f"key {amount}\npress ok\n" if amount is not None else "")


class Table:
    """Runs scripts into fresh data directories under one test's tmp_path."""

    def __init__(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.tmp = tmp_path
        self.capsys = capsys
        self.runs = 0

    def play(
        self, text: str, edition: str = "classic-fr", *args: str, data: Path | None = None
    ) -> tuple[list[str], dict[str, Any]]:
        """(transcript lines, state file) of ``ultibank script`` on *text*."""
        self.runs += 1
        where = self.tmp / f"run{self.runs}"
        where.mkdir(parents=True, exist_ok=True)
        script = where / "game.tap"
        script.write_text(text, encoding="utf-8")
        argv = ["script", str(script), "--edition", edition, *args, "--state", "-"]
        argv += ["--data-dir", str(data or where / "d")]
        assert main(argv) == 0, self.capsys.readouterr().err
        captured = self.capsys.readouterr()
        return captured.err.splitlines(), json.loads(captured.out)


def player(state: dict[str, Any], card: int) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in state["players"] if p["card"] == card)
    return found


def deed(state: dict[str, Any], number: int) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in state["properties"] if p["number"] == number)
    return found


def balances(state: dict[str, Any]) -> list[int]:
    return [p["balance"] for p in state["players"]]


def screens(transcript: list[str], name: str | None = None) -> list[str]:
    """The screen lines of *transcript* (of screen *name* only, when given), without times."""
    out = []
    for line in transcript:
        parts = line.split(None, 2)
        is_screen = len(parts) == 3 and parts[1] == "screen"
        if is_screen and (name is None or parts[2].split(None, 1)[0] == name):
            out.append(parts[2])
    return out


def cues(transcript: list[str]) -> list[str]:
    return [line.split()[2] for line in transcript if line.split()[1:2] == ["cue"]]


def after(transcript: list[str], marker: str) -> list[str]:
    """The transcript lines after the first line that contains *marker*."""
    for i, line in enumerate(transcript):
        if marker in line:
            return transcript[i + 1 :]
    raise AssertionError(f"{marker!r} is not in the transcript")
