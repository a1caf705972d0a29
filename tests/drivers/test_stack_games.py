"""Whole games replayed through each real stack, from the tag on the reader to the state file.

The reference examples of SCRIPTS.md run with every tap made by laying a tag (carrying the
card's NDEF record) on a virtual reader: through the real pcscd with vsmartcard-vpcd, and
through nfcpy's real udp driver. The final state must be the one the script contract gives.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from drivers.identity import type2_ndef_tlv
from tests.support.pcscd import (
    PLAIN_PORT,
    PLAIN_READER,
    PcscdUnavailable,
    pcscd_session,
    skip_or_fail,
    wait_card_state,
)
from tests.support.stack_games import StackGame
from tests.support.udp_tag_sim import UdpTagSim
from tests.support.vpcd_card import VirtualNtag

EXAMPLES = Path(__file__).resolve().parents[1] / "scripts"
GAMES = ["01_first_moves", "03_debt"]
CONTRACT = ("edition", "game_over", "winner", "undo_available", "properties")
PLAYER_KEYS = ("card", "token", "balance", "jailed", "debt", "bankrupt")


def assert_state(state: dict[str, object], expected_file: Path) -> None:
    expected = json.loads(expected_file.read_text())
    for key in CONTRACT:
        assert state[key] == expected[key], key
    players = [{k: p[k] for k in PLAYER_KEYS} for p in state["players"]]  # type: ignore[attr-defined]
    assert players == expected["players"]


@pytest.fixture(scope="module")
def pcscd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(pcscd_session(tmp_path_factory.mktemp("pcscd")))
        except PcscdUnavailable as err:
            skip_or_fail(str(err))
        yield


@pytest.mark.pcscd
@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_whole_game_through_pcscd(pcscd: None, tmp_path: Path, name: str) -> None:
    reader = f"{PLAIN_READER} 00 00"
    wait_card_state(reader, present=False)
    on_reader: list[VirtualNtag] = []

    def place(uid: str, ndef: bytes) -> None:
        card = VirtualNtag(uid, ndef=ndef, port=PLAIN_PORT)
        card.insert()
        on_reader.append(card)

    def lift() -> None:
        on_reader.pop().remove()

    game = StackGame(tmp_path, f"pcsc:{reader}", place, lift)
    try:
        game.play((EXAMPLES / f"{name}.tap").read_text())
        assert_state(game.state(), EXAMPLES / f"{name}.state.json")
    finally:
        game.close()


@pytest.mark.nfcpy
@pytest.mark.parametrize("name", [*GAMES, "02_auction"])
def test_whole_game_through_nfcpy(tmp_path: Path, name: str) -> None:
    with UdpTagSim() as sim:
        game = StackGame(
            tmp_path, sim.path, lambda uid, ndef: sim.place(uid, type2_ndef_tlv(ndef)), sim.lift
        )
        try:
            game.play((EXAMPLES / f"{name}.tap").read_text())
            assert_state(game.state(), EXAMPLES / f"{name}.state.json")
        finally:
            game.close()
