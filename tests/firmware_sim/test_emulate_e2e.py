"""``ultibank emulate`` in a real window on Xvfb: clicks on cards and ✓ change the game (an
Ultime game, and a classic one by mouse and keys).

The whole product as a laptop user runs it: the pygame window, the unit, the game and its
journal. xdotool clicks bank cards 1 and 2, then ✓ (a new game), then property 16 and bank
card 1 (a purchase); the running daemon's control socket shows the game changed.
(``--screenshot`` ends the run once the file is written: tests/cli/test_cli.py.)
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bank.unit.io import Button, CardId
from board_assets import load_edition
from firmware_sim import layout as L

from .conftest import _need
from .test_xvfb import ROOT
from .trays import window_spots

pytestmark = pytest.mark.xvfb


def _xdotool(env: dict[str, str], *args: str) -> str:
    out = subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True, timeout=20)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def _state(env: dict[str, str]) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-m", "bank.cli", "state"], env=env, cwd=ROOT, capture_output=True,
        text=True, timeout=30,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    state: dict[str, object] = json.loads(out.stdout)
    return state


def _until(predicate, what: str, timeout: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)  # polling a real process with a deadline


def test_clicks_in_the_emulator_window_play_the_game(xdisplay: str, tmp_path: Path) -> None:
    _need("Xvfb", "xdotool")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    env.update(
        DISPLAY=xdisplay, SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT),
        ULTIBANK_DATA_DIR=str(tmp_path / "data"),
    )  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "bank.cli", "emulate"],
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        _until(lambda: (tmp_path / "data" / "control.sock").exists(), "the daemon")
        wid = _xdotool(
            env, "search", "--sync", "--onlyvisible", "--classname", "ubemu"
        ).splitlines()[-1]
        spots = window_spots(load_edition("ultime-fr"))

        def click_card(card: CardId) -> None:
            spot = next(s for s in spots if s.action == L.TapCard(card))
            _xdotool(env, "mousemove", "--window", wid, *map(str, spot.centre), "click", "1")

        def click_ok() -> None:
            x, y = L.BUTTON_CENTRES[Button.OK]
            _xdotool(env, "mousemove", "--window", wid, str(x), str(y), "click", "1")

        click_card(CardId("bank", 1))
        click_card(CardId("bank", 2))
        click_ok()
        _until(lambda: len(_state(env)["players"]) == 2, "the new game")  # type: ignore[arg-type]
        click_card(CardId("prop", 16))
        click_card(CardId("bank", 1))

        def bought() -> bool:
            props = _state(env)["properties"]
            return props[15] == {"number": 16, "owner": 1, "level": 1}  # type: ignore[index]

        _until(bought, "the purchase of property 16")
        state = _state(env)
        assert [p["balance"] for p in state["players"]] == [1240, 1500]  # type: ignore[attr-defined]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
    # the purchase is in the journal: a script on the same data dir continues that game
    cont = tmp_path / "cont.tap"
    cont.write_text("tap bank:2\n")
    out = subprocess.run(
        [sys.executable, "-m", "bank.cli", "script", str(cont), "--data-dir",
         str(tmp_path / "data"), "--state", "-"],
        cwd=ROOT, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert '"number": 16, "owner": 1, "level": 1' in out.stdout


def test_a_classic_game_in_the_emulator_window_by_mouse_and_keys(
    xdisplay: str,
    tmp_path: Path,
) -> None:
    """``ultibank emulate --edition classic-fr`` as a new user runs it: xdotool clicks the bank
    cards, ✓, a deed and the keypad, and types the classic keys (``/d3``, F3); the running
    daemon's state shows the purchases and the dice rolled through M 1 1 on the keypad."""
    _need("Xvfb", "xdotool")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    env.update(
        DISPLAY=xdisplay, SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT),
        ULTIBANK_DATA_DIR=str(tmp_path / "data"),
    )  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "bank.cli", "emulate", "--edition", "classic-fr",
         "--set", "classic.dice_seed=0"],  # a fixed seed: each new game draws one (D1)
        env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        _until(lambda: (tmp_path / "data" / "control.sock").exists(), "the daemon")
        wid = _xdotool(
            env, "search", "--sync", "--onlyvisible", "--classname", "ubemu"
        ).splitlines()[-1]
        spots = window_spots(load_edition("classic-fr"))

        def click(action: L.Action) -> None:
            spot = next(s for s in spots if s.action == action)
            _xdotool(env, "mousemove", "--window", wid, *map(str, spot.centre), "click", "1")

        def keys(*names: str) -> None:
            _xdotool(env, "windowfocus", "--sync", wid)
            _xdotool(env, "key", "--window", wid, "--delay", "60", *names)

        click(L.TapCard(CardId("bank", 1)))
        click(L.TapCard(CardId("bank", 2)))
        click(L.PressButton(Button.OK))
        _until(lambda: len(_state(env)["players"]) == 2, "the new game")  # type: ignore[arg-type]
        click(L.TapCard(CardId("deed", 1)))
        click(L.TapCard(CardId("bank", 1)))  # dog buys Boulevard de Belleville
        keys("slash", "d", "3", "Return", "F3")  # racecar buys Gare Montparnasse

        def owners() -> list[object]:
            props = _state(env)["properties"]
            return [p["owner"] for p in props[:3]]  # type: ignore[index]

        _until(lambda: owners() == [1, None, 2], "the two purchases")
        # M then 1 1 on the keypad: the dice; then dog's card rolls for dog
        click(L.PressButton(Button.MENU))
        click(L.PressKey("1"))
        click(L.PressKey("1"))
        click(L.TapCard(CardId("bank", 1)))
        want = "dice [dog] | chien : 1 + 1 = 2 / double"  # the dice seed 0's first roll
        _until(lambda: _state(env)["screen"] == want, "the dice on the LCD")
        state = _state(env)
        assert [p["balance"] for p in state["players"]] == [1440, 1300]  # type: ignore[attr-defined]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
