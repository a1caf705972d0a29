"""Up to 8 players: the bank cards, tokens and tray of a game come from its edition.

An edition that seats 8 (the toy ruleset's, made 8 seats wide here) registers 8 bank cards, and
every shared contract carries the 8th: card identities and script lines, the terminal panel's
keys, the serial panel's SHOW frame (its token), the emulator's tray and keys. The Ultime
editions keep 2 to 4 players and their four tokens.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from bank.script import run_script
from bank.unit.io import CardId, CardRanges, Screen
from board_assets import EditionError, load_edition, load_edition_file
from drivers.panel_protocol import decode_show, encode_show
from drivers.terminal_panel import KeyReader, Tap
from tests.support import toy

TOKENS = ["red", "blue", "green", "yellow", "orange", "purple", "cyan", "amber"]


def seats(tmp: Path, n: int) -> Path:
    text = toy.EDITION_FILE.read_text(encoding="utf-8")
    text = text.replace("max_players = 2", f"max_players = {n}")
    text = text.replace(
        'tokens = ["red", "blue"]', f"tokens = {json.dumps(TOKENS[:n] + ['x'] * (n - 8))}"
    )
    path = tmp / f"seats{n}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_eight_seat_game_registers_eight_bank_cards(tmp_path: Path) -> None:
    edition = seats(tmp_path, 8)
    script = tmp_path / "eight.tap"
    script.write_text(
        "".join(f"tap bank:{n}\n" for n in range(1, 9))
        + "press ok\n\ntap prop:1\ntap bank:8\n\ntap bank:amber\n"
    )
    out = io.StringIO()
    state_file = tmp_path / "state.json"
    assert run_script(script, edition=str(edition), state_out=state_file, out=out) == 0
    state = json.loads(state_file.read_text(encoding="utf-8"))
    assert [p["token"] for p in state["players"]] == TOKENS
    assert state["properties"][0]["owner"] == 8
    transcript = out.getvalue()
    assert "Player 8: amber" in transcript and "Tap 2-8 bank cards" in transcript
    assert "screen balance [amber] 2" in transcript  # bank:amber names seat 8 by its token


def test_a_script_refuses_a_ninth_seat_and_ultime_a_fifth(tmp_path: Path) -> None:
    eight = CardRanges.of(load_edition_file(seats(tmp_path, 8)))
    assert eight.check(CardId("bank", 8)) == CardId.parse("bank:amber", eight)
    with pytest.raises(ValueError, match=r"bank cards run 1\.\.8, not 9"):
        CardId.parse("bank:9", eight)
    with pytest.raises(ValueError, match=r"bank cards run 1\.\.4, not 5"):
        CardId.parse("bank:5", CardRanges.of(load_edition("ultime-fr")))


def test_editions_seat_at_most_eight(tmp_path: Path) -> None:
    with pytest.raises(EditionError, match=r"constants\.max_players: at most 8, got 9"):
        load_edition_file(seats(tmp_path, 9))


def test_the_terminal_panel_has_a_key_per_seat(tmp_path: Path) -> None:
    eight = KeyReader(cards=CardRanges.of(load_edition_file(seats(tmp_path, 8))))
    assert eight.key("8") == [Tap(CardId("bank", 8))]
    assert "1-8 = bank card" in str(eight.key("?"))
    ultime = KeyReader(cards=CardRanges.of(load_edition("ultime-fr")))
    assert not any(isinstance(a, Tap) for a in ultime.key("8"))  # refused: a 4-seat edition
    assert "1-4 = bank card" in str(ultime.key("?"))
    assert KeyReader().line("p23") != [Tap(CardId("prop", 23))]  # Ultime has 22 properties


def test_the_serial_panel_frame_carries_the_eighth_token() -> None:
    screen = Screen("balance", ("amber", "Balance 2 c"), amount=2, token="amber")
    assert decode_show(encode_show(screen)) == screen


def test_the_emulator_tray_and_keys_follow_the_edition(tmp_path: Path) -> None:
    from firmware_sim import layout

    edition = load_edition_file(seats(tmp_path, 8))
    banks = [s for s in layout.card_hotspots(edition) if getattr(s.action, "card", None)
             and s.action.card.kind == "bank"]  # fmt: skip
    assert len(banks) == 8
    right = max(x + w for (x, _, w, _) in (s.rect for s in banks))
    assert right <= layout.TRAY_X + layout.TRAY_W  # the eighth card stays on the tray
    keys = {c for sc in layout.shortcuts(CardRanges.of(edition)) for c in sc.chars}
    assert {"1", "8"} <= keys
    ultime_keys = {c for sc in layout.shortcuts(CardRanges.of(load_edition())) for c in sc.chars}
    assert "4" in ultime_keys and "8" not in ultime_keys
    assert any("amber" in what for _, what in layout.help_rows("en", layout.shortcuts(
        CardRanges.of(edition))))  # fmt: skip
    ultime = [s for s in layout.card_hotspots(load_edition()) if s.action.card.kind == "bank"]
    assert len(ultime) == 4


def test_an_ultime_unit_refuses_a_card_its_edition_does_not_have() -> None:
    """A fifth bank card (an 8-card deck on a 4-seat Ultime table) is refused as unknown."""
    from tests.unit.harness import Harness, screens_of

    h = Harness()
    h.tap("bank:1")
    h.tap("bank:2")
    h.press("ok")
    for card in ("bank:5", "prop:23", "event:24"):
        refused = screens_of(h.tap(card))
        assert refused[-1].name == "error" and refused[-1].lines == ("Refusé", "Carte inconnue")
    assert [p.card for p in h.game.state.players] == [1, 2]
