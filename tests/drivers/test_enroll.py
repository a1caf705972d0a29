"""Enrolment through the real supervised, debounced reader path, driven by the simulated reader."""

from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from bank.unit.io import CardId
from drivers.base import ReaderError
from drivers.deck import load_deck
from drivers.enroll import enroll, plan, write_card
from drivers.sim import SimReader


def _run_enroll(
    reader: SimReader, deck: Path, only: list[str], lines: list[str]
) -> threading.Thread:
    kwargs = {"only": only, "say": lines.append, "card_timeout": 10.0, "rearm_s": 0.0}
    t = threading.Thread(target=enroll, args=(reader, deck), kwargs=kwargs, daemon=True)
    t.start()
    return t


def _wait_for(lines: list[str], text: str, timeout: float = 5.0) -> None:
    import time

    deadline = time.monotonic() + timeout
    while not any(text in line for line in lines):
        assert time.monotonic() < deadline, f"never saw {text!r} in {lines}"
        time.sleep(0.01)


def test_enroll_records_each_tag_and_refuses_a_tag_used_twice(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    reader = SimReader()
    lines: list[str] = []
    t = _run_enroll(reader, deck, ["bank:1", "prop:16"], lines)
    _wait_for(lines, "tap bank card 1 (car)")
    assert reader.wait_running()
    reader.tap("uid:04AAAAAAAAAA01")
    _wait_for(lines, "tap property card 16")
    reader.tap("uid:04AAAAAAAAAA01")  # the same sticker again: refused
    _wait_for(lines, "already bank card 1")
    reader.tap("uid:04AAAAAAAAAA16")
    t.join(10)
    assert not t.is_alive()
    saved = load_deck(deck)
    assert saved.card_for("04AAAAAAAAAA01") == CardId("bank", 1)
    assert saved.card_for("04AAAAAAAAAA16") == CardId("prop", 16)
    assert plan(saved, ["bank:1", "prop:16", "event:7"]) == [CardId("event", 7)]


def test_interrupted_enrolment_keeps_progress(tmp_path: Path) -> None:
    deck = tmp_path / "deck.toml"
    reader = SimReader()
    lines: list[str] = []
    t = _run_enroll(reader, deck, ["bank:2", "bank:3"], lines)
    _wait_for(lines, "tap bank card 2")
    assert reader.wait_running()
    reader.tap("uid:04BBBBBBBBBB02")
    _wait_for(lines, "tap bank card 3")
    assert load_deck(deck).card_for("04BBBBBBBBBB02") == CardId("bank", 2)
    reader.tap("uid:04BBBBBBBBBB03")
    t.join(10)
    assert len(load_deck(deck)) == 2


def test_enrolment_prompts_on_the_lcd_with_cues(tmp_path: Path) -> None:
    from bank.unit.io import Cue
    from drivers.sim import SimPanel

    deck = tmp_path / "deck.toml"
    reader, panel = SimReader(), SimPanel()
    lines: list[str] = []
    kwargs = {"only": ["bank:4", "prop:7"], "say": lines.append, "card_timeout": 10.0,
              "rearm_s": 0.0, "panels": [panel]}  # fmt: skip
    t = threading.Thread(target=enroll, args=(reader, deck), kwargs=kwargs, daemon=True)
    t.start()
    _wait_for(lines, "tap bank card 4")
    assert reader.wait_running()
    assert (
        panel.screens[-1].lines == ("Tap bank card 4", "1/2") and panel.screens[-1].token == "jet"
    )
    reader.tap("uid:04CCCCCCCCCC04")
    _wait_for(lines, "tap property card 7")
    assert panel.screens[-1].number == 7
    reader.tap("uid:04CCCCCCCCCC04")  # used already
    _wait_for(lines, "already bank card 4")
    reader.tap("uid:04CCCCCCCCCC07")
    t.join(10)
    assert [c for c in panel.cues] == [Cue.READ, Cue.ERROR, Cue.READ, Cue.KACHING]
    assert panel.screens[-1].lines == ("Deck complete", "2 cards")


def test_enrolment_does_not_call_the_tags_it_enrolls_unknown(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every tag is unknown while it is being enrolled: telling the player to run
    ``ultibank enroll`` from inside ``ultibank enroll`` is noise."""
    reader = SimReader()
    lines: list[str] = []
    with caplog.at_level(logging.INFO):
        t = _run_enroll(reader, tmp_path / "deck.toml", ["bank:1"], lines)
        _wait_for(lines, "tap bank card 1")
        assert reader.wait_running()
        reader.tap("uid:04DDDDDDDDDD01")
        t.join(10)
    assert any("bank card 1 (car) = 04DDDDDDDDDD01" in line for line in lines), lines
    assert not [r.getMessage() for r in caplog.records if "unknown card" in r.getMessage()]


def test_write_card_through_a_reader_that_cannot_write_asks_for_no_tag() -> None:
    """`ultibank write-card prop:1 --reader sim` said "lay a blank tag on the reader" and then,
    on the next line, that it cannot write through sim: the refusal comes alone."""
    said: list[str] = []
    with pytest.raises(ReaderError, match="cannot write tags through 'sim'"):
        write_card("sim", "prop:1", say=said.append)
    assert said == []
