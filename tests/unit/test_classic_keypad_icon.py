"""The keypad icon of docs/classic.md §5.5 ("an entry is open") over the classic scenarios of
``tests/scripts/classic/``: it lights on every screen shown while a number entry of §5.2 is open
(the amount entry, a pick, an auction bid being typed, the trade's cash typed before a payer's
card closes it) and on no other screen."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from bank.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "tests" / "scripts" / "classic").glob("*.tap"))
#: `   0.000 screen entry 0 {keypad} | Montant ? / 0  ✓ valider`
_SCREEN = re.compile(r"^\s*[\d.]+ screen (?P<name>\S+)(?P<fields>[^|]*?)(?: \| (?P<text>.*))?$")


def _transcript(tap: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    args = next(
        shlex.split(line.removeprefix("# args:"))
        for line in tap.read_text(encoding="utf-8").splitlines()
        if line.startswith("# args:")
    )
    assert main(["script", str(tap), *args, "--data-dir", str(tmp_path / tap.stem)]) == 0
    captured = capsys.readouterr()
    return captured.out + captured.err  # the transcript (stdout without --state -)


def _screens(transcript: str) -> list[tuple[str, set[str], str]]:
    """(name, icons, text) of every screen line."""
    shown = []
    for line in transcript.splitlines():
        m = _SCREEN.match(line)
        if m:
            icons = re.search(r"\{([^}]*)\}", m["fields"])
            shown.append((m["name"], set(icons[1].split(",")) if icons else set(), m["text"] or ""))
    return shown


def _entry_open(name: str, text: str) -> bool:
    """Whether a number entry is open on this screen (what the unit should light)."""
    if name in ("entry", "pick"):
        return True
    if name == "auction":  # a bid being typed shows `> 15` on its second line
        return " / > " in text
    if name == "trade":  # the cash typed, no payer's card yet
        return "qui paie" in text or "who pays" in text
    return False


def test_the_keypad_icon_is_on_the_entry_screens_and_nowhere_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lit: set[str] = set()
    unlit: set[str] = set()
    for tap in SCENARIOS:
        for name, icons, text in _screens(_transcript(tap, tmp_path, capsys)):
            assert ("keypad" in icons) == _entry_open(name, text), (tap.name, name, text)
            (lit if "keypad" in icons else unlit).add(name)
    # every kind of entry came up lit, and the screens around them unlit
    assert lit == {"entry", "pick", "auction", "trade"}
    assert {"idle", "menu", "auction", "trade", "deed", "received", "paid", "dice"} <= unlit


def test_a_typed_bid_keeps_the_keypad_lit_as_the_countdown_ticks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Digits typed in an auction stay the bid the next bank card makes: the tick of the
    countdown shows them (and the keypad icon) until a card bids them."""
    tap = tmp_path / "bid.tap"
    tap.write_text(
        "tap bank:1\ntap bank:2\npress ok\ntap deed:1\npress menu\npress ok\n"
        "key 15\nwait 1\nwait 1\ntap bank:2\nwait 1\n",
        encoding="utf-8",
    )
    assert main(["script", str(tap), "--edition", "classic-fr", "--data-dir", str(tmp_path)]) == 0
    auctions = [(i, t) for n, i, t in _screens(capsys.readouterr().out) if n == "auction"]
    typed = ({"auction", "keypad"}, "Enchère 0 € / > 15")
    assert auctions[-5:] == [
        typed,  # 10 s
        typed,  # 9 s
        typed,  # 8 s
        ({"auction"}, "Enchère 15 € / ✓ ou carte: +10"),  # racecar bid the 15 typed
        ({"auction"}, "Enchère 15 € / ✓ ou carte: +10"),
    ]
