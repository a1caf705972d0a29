"""`ultibank run` with a classic edition and a real reader (nfcpy's udp driver): the daemon
as a user starts it, tags known by the deck file's UIDs or by their NDEF record, and tags of
the other ruleset (issue 12, items 3 and 5).

One deck file holds the tags of both boxes (an Ultime property enrolled beside the classic
deeds): in a classic game the Ultime tag gets the error cue and `Carte d'une autre édition`,
whether the deck or its record names it, and the step stays. The control socket takes the
classic lines too (`tap deed:12`, `key 7`).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bank.services.control import send_lines
from bank.unit.io import CardId
from drivers.deck import Deck
from drivers.identity import encode_card_record, type2_ndef_tlv
from tests.cli.test_cli import _start_daemon, _stop
from tests.support.udp_tag_sim import EMPTY_NDEF, UdpTagSim

pytestmark = pytest.mark.nfcpy

ROOT = Path(__file__).resolve().parents[2]
ULTIME_TAG = "04AAAAAAAAAA16"  # enrolled as prop:16 (the Ultime box), no record
DEED12_TAG = "04BBBBBBBBBB12"  # enrolled as deed:12, no record
OTHER_EDITION = "error {error} | Carte d'une autre / édition"


@pytest.fixture
def sim() -> Iterator[UdpTagSim]:
    with UdpTagSim() as s:
        yield s


def _line(sock: Path, line: str) -> dict[str, Any]:
    (answer,) = send_lines(sock, [line], timeout=20)
    assert answer.get("ok"), answer
    return answer


def _screen(sock: Path) -> str:
    return str(_line(sock, "state")["state"]["screen"])


def _wait_screen(sock: Path, wanted: str, timeout: float = 10.0) -> str:
    deadline = time.monotonic() + timeout
    while (screen := _screen(sock)) != wanted and not screen.startswith(wanted):
        assert time.monotonic() < deadline, f"screen {screen!r}, waited for {wanted!r}"
        time.sleep(0.05)
    return screen


def test_run_plays_a_classic_game_from_tags_and_refuses_the_other_rulesets(
    sim: UdpTagSim, tmp_path: Path
) -> None:
    deck = tmp_path / "deck.toml"
    Deck({ULTIME_TAG: CardId("prop", 16), DEED12_TAG: CardId("deed", 12)}).save(deck)
    data, sock = tmp_path / "data", tmp_path / "data" / "control.sock"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    argv = ["--edition", "classic-fr", "--reader", sim.path, "--panel", "sim", "--deck",
            str(deck), "--data-dir", str(data)]  # fmt: skip
    proc = _start_daemon(argv, env, sock)

    def lay(uid: str, card: CardId | None, wanted: str) -> str:
        sim.place(uid, type2_ndef_tlv(encode_card_record(card)) if card else EMPTY_NDEF)
        try:
            return _wait_screen(sock, wanted)
        finally:
            sim.lift()
            time.sleep(0.3)  # off the reader longer than its re-arm: the next lay is a tap

    try:
        # bank cards written with `ultibank write-card` (their record), no deck entry
        lay("04CCCCCCCCCC01", CardId("bank", 1), "new_game [dog]")
        lay("04CCCCCCCCCC02", CardId("bank", 2), "new_game [racecar]")
        _line(sock, "press ok")
        _wait_screen(sock, "game_started")
        lay(DEED12_TAG, None, "deed #12 180 | 12 Avenue Mozart / Prix 180 €")
        # the Ultime property (known by the deck) and an Ultime event (by its record): refused
        lay(ULTIME_TAG, None, OTHER_EDITION)
        lay("04DDDDDDDDDD03", CardId("event", 3), OTHER_EDITION)
        # the deed still waits for its buyer
        out = _line(sock, "tap bank:1")["output"]
        assert any("bought #12 [dog]" in line for line in out), out
        # the control socket takes the classic lines: the other ruleset's card, the keypad
        out = _line(sock, "tap prop:3")["output"]
        assert f"screen {OTHER_EDITION}" in out and "cue error" in out
        _line(sock, "press menu")
        out = _line(sock, "key 11")["output"]
        assert any(line.startswith("screen menu #11") for line in out), out
        _line(sock, "press cancel")
        state = _line(sock, "state")["state"]
        balances = {p["token"]: p["balance"] for p in state["players"]}
        assert balances == {"dog": 1500 - 180, "racecar": 1500}
    finally:
        _stop(proc)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
