"""Whole games replayed through each real stack, from the tag on the reader to the state file.

The reference examples of docs/scripts.md run with every tap made by laying a tag (carrying the
card's NDEF record) on a virtual reader: through the real pcscd with vsmartcard-vpcd, and
through nfcpy's real udp driver. The final state must be the one the script contract gives.

Classic games (issue 12) too: ``stack_classic.tap`` (purchases, rent, a build session through
the menu and the keypad, Chance and Community Chest tags, a mortgage, a utility's typed dice
total, jail and the unit's dice, a trade of a mortgaged deed and its interest, and tags of the
other ruleset, which the unit refuses as cards of another edition) and the two examples of
docs/classic.md §8.5 end in the very state file `ultibank script` writes for the same lines.
"""

from __future__ import annotations

import io
import json
import tempfile
from pathlib import Path

import pytest

from bank.script import run_script
from drivers.identity import type2_ndef_tlv
from tests.support.pcscd import PLAIN_PORT, PLAIN_READER, Pcscd, wait_card_state
from tests.support.stack_games import StackGame
from tests.support.udp_tag_sim import UdpTagSim
from tests.support.vpcd_card import VirtualNtag

EXAMPLES = Path(__file__).resolve().parents[1] / "scripts"
CLASSIC_GAME = Path(__file__).resolve().parent / "stack_classic.tap"
CLASSIC_EXAMPLES = Path(__file__).resolve().parents[1] / "rulesets" / "classic_examples"
OTHER_EDITION = "screen error {error} | Carte d'une autre / édition"
GAMES = ["01_first_moves", "03_debt"]
CONTRACT = ("edition", "game_over", "winner", "undo_available", "properties")
PLAYER_KEYS = ("card", "token", "balance", "jailed", "debt", "bankrupt")


def assert_state(state: dict[str, object], expected_file: Path) -> None:
    expected = json.loads(expected_file.read_text())
    for key in CONTRACT:
        assert state[key] == expected[key], key
    players = [{k: p[k] for k in PLAYER_KEYS} for p in state["players"]]  # type: ignore[attr-defined]
    assert players == expected["players"]


@pytest.fixture
def pcscd(pcscd_daemon: Pcscd) -> None:
    """The worker's private pcscd (tests/conftest.py), running."""
    if not pcscd_daemon.running:
        pcscd_daemon.start()


def scripted_state(script: Path, edition: str, tmp_path: Path) -> dict[str, object]:
    """The state file `ultibank script SCRIPT --edition EDITION --state FILE` writes (for a
    new game: a data directory of its own)."""
    data = Path(tempfile.mkdtemp(prefix="scripted-", dir=tmp_path))
    out = data / "state.json"
    assert run_script(script, edition, data, out, io.StringIO()) == 0
    state: dict[str, object] = json.loads(out.read_text())
    return state


def pcsc_game(tmp_path: Path, edition: str = "ultime-fr") -> StackGame:
    """A unit reading the real pcscd's vpcd reader, tags laid as virtual NTAG215s."""
    reader = f"{PLAIN_READER} 00 00"
    wait_card_state(reader, present=False)
    on_reader: list[VirtualNtag] = []

    def place(uid: str, ndef: bytes) -> None:
        card = VirtualNtag(uid, ndef=ndef, port=PLAIN_PORT)
        card.insert()
        on_reader.append(card)

    def lift() -> None:
        on_reader.pop().remove()

    return StackGame(tmp_path / "live", f"pcsc:{reader}", place, lift, edition)


@pytest.mark.pcscd
@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_whole_game_through_pcscd(pcscd: None, tmp_path: Path, name: str) -> None:
    game = pcsc_game(tmp_path)
    try:
        game.play((EXAMPLES / f"{name}.tap").read_text())
        assert_state(game.state(), EXAMPLES / f"{name}.state.json")
    finally:
        game.close()


@pytest.mark.pcscd
@pytest.mark.slow
def test_a_classic_game_through_pcscd(pcscd: None, tmp_path: Path) -> None:
    game = pcsc_game(tmp_path, "classic-fr")
    try:
        game.play(CLASSIC_GAME.read_text())
        assert game.state_file() == scripted_state(CLASSIC_GAME, "classic-fr", tmp_path)
        # the Ultime property and event tags: the error cue and "card of another edition"
        assert game.screens().count(OTHER_EDITION) == 2
        assert game.cues().count("error") == 2
    finally:
        game.close()


def nfcpy_game(sim: UdpTagSim, tmp_path: Path, edition: str = "ultime-fr") -> StackGame:
    """A unit reading nfcpy's udp driver, tags laid on the strict UDP tag simulator."""

    def place(uid: str, ndef: bytes) -> None:
        sim.place(uid, type2_ndef_tlv(ndef))

    return StackGame(tmp_path / "live", sim.path, place, sim.lift, edition)


@pytest.mark.nfcpy
@pytest.mark.parametrize("name", [*GAMES, "02_auction"])
def test_whole_game_through_nfcpy(tmp_path: Path, name: str) -> None:
    with UdpTagSim() as sim:
        game = nfcpy_game(sim, tmp_path)
        try:
            game.play((EXAMPLES / f"{name}.tap").read_text())
            assert_state(game.state(), EXAMPLES / f"{name}.state.json")
        finally:
            game.close()


@pytest.mark.nfcpy
@pytest.mark.parametrize(
    "script",
    [
        CLASSIC_GAME,
        CLASSIC_EXAMPLES / "01_classic_first_game.tap",
        CLASSIC_EXAMPLES / "02_classic_jail_trade.tap",
    ],
    ids=lambda p: p.stem,
)
def test_a_classic_game_through_nfcpy(tmp_path: Path, script: Path) -> None:
    with UdpTagSim() as sim:
        game = nfcpy_game(sim, tmp_path, "classic-fr")
        try:
            game.play(script.read_text())
            live = game.state_file()
            if script == CLASSIC_GAME:
                assert game.screens().count(OTHER_EDITION) == 2
        finally:
            game.close()
    assert live == scripted_state(script, "classic-fr", tmp_path)
    expected = script.with_suffix(".state.json")
    if expected.exists():  # the examples' own state files (docs/classic.md §8.5), key for key
        assert live == json.loads(expected.read_text())
