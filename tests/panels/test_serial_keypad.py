"""The serial front panel's protocol version 2 over a real pseudo-terminal pair: the keypad
(feature bit 0x20, key ids 10-20), compatibility with version 1 both ways, and classic and
Ultime games played from the simulated firmware into a real daemon and unit."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bank.app.runtime import Runtime
from bank.app.script import parse_script
from bank.services.settings import load_settings
from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    Icon,
    KeyPressed,
    KeyReleased,
    PanelStatus,
)
from drivers import panel_protocol as pp
from drivers.serial_panel import SerialPanel
from firmware_sim.panel_firmware import PanelFirmware
from tests.panels.conftest import DEED, FAST, FakeClock, Inbox, connected, wait_until
from tests.support.pty_pair import PtyPair


def keys(inbox: Inbox) -> list[tuple[str, str]]:
    return [
        (type(i).__name__, i.key) for i in inbox.items if isinstance(i, KeyPressed | KeyReleased)
    ]


@contextlib.contextmanager
def link(
    cable: PtyPair,
    inbox: Inbox,
    clock: FakeClock,
    *,
    host_version: int = pp.PROTOCOL_VERSION,
    **firmware: Any,
) -> Iterator[tuple[SerialPanel, PanelFirmware]]:
    """The bank's side (speaking up to *host_version*) and a firmware, linked and connected."""
    fw = PanelFirmware(cable.panel_path, ack_timeout=0.05, **firmware)
    fw.start()
    panel = SerialPanel(cable.host_path, clock=clock, max_version=host_version, **FAST)
    panel.start(inbox)
    try:
        wait_until(lambda: connected(inbox), what="the link")
        yield panel, fw
    finally:
        panel.close()
        fw.stop()


def test_a_keypad_panel_sends_its_digits_and_back_as_keys(
    cable: PtyPair, inbox: Inbox, clock: FakeClock
) -> None:
    with link(cable, inbox, clock, keypad=True) as (panel, fw):
        assert panel.version == 2 and panel.keypad
        assert "keypad" in inbox.of(PanelStatus)[-1].detail  # type: ignore[union-attr]
        clock.now = 50.0
        fw.key("15")
        fw.key("back")
        wait_until(lambda: len(keys(inbox)) == 6, what="three keys")
        assert keys(inbox) == [
            ("KeyPressed", "1"),
            ("KeyReleased", "1"),
            ("KeyPressed", "5"),
            ("KeyReleased", "5"),
            ("KeyPressed", "back"),
            ("KeyReleased", "back"),
        ]
        assert {i.at for i in inbox.items if isinstance(i, KeyPressed | KeyReleased)} == {50.0}
        fw.press(Button.OK)  # the three buttons keep their ids
        fw.release(Button.OK)
        wait_until(lambda: inbox.of(ButtonReleased), what="the button")
        assert [i.button for i in inbox.of(ButtonPressed)] == [Button.OK]  # type: ignore[attr-defined]


def test_an_old_panel_keeps_working_with_the_new_bank(
    cable: PtyPair, inbox: Inbox, clock: FakeClock
) -> None:
    """A version 1 panel decodes only version 1 screens: the bank sends it those."""
    with link(cable, inbox, clock, version=1) as (panel, fw):
        assert panel.version == 1 and not panel.keypad
        assert fw.version == 1
        panel.show(DEED)
        wait_until(lambda: fw.screen == DEED, what="the deed on the old panel")
        assert fw.stats["malformed"] == 0
        assert fw.lcd_lines[0] == "#12 wheelba L5 #####"  # the 20x4 layout (charlcd)
        fw.press(Button.MENU)
        fw.release(Button.MENU)
        wait_until(lambda: inbox.of(ButtonReleased), what="the button")
        assert [type(i).__name__ for i in inbox.items if not isinstance(i, PanelStatus)] == [
            "ButtonPressed",
            "ButtonReleased",
        ]


def test_a_keypad_panel_on_an_old_bank_plays_with_its_three_buttons(
    cable: PtyPair, inbox: Inbox, clock: FakeClock
) -> None:
    """The bank speaks only version 1: the panel answers at 1 without the keypad bit, its
    keypad is dead (nothing sent, nothing refused) and its buttons and screens work."""
    with link(cable, inbox, clock, host_version=1, keypad=True) as (panel, fw):
        assert fw.version == 1 and not fw.hello.has(pp.Feature.KEYPAD)
        assert panel.version == 1 and not panel.keypad
        fw.key("5")
        assert fw.stats["keys_unsent"] == 2  # its press and release
        panel.show(DEED)
        wait_until(lambda: fw.screen == DEED, what="a version 1 screen")
        fw.press(Button.OK)
        fw.release(Button.OK)
        wait_until(lambda: inbox.of(ButtonReleased), what="the button")
        assert keys(inbox) == []
        assert panel.stats["malformed"] == 0 and fw.stats["refused"] == 0


def _button_frame(seq: int, code: int, state: int = 1) -> bytes:
    return pp.encode_frame(pp.Frame(pp.MsgType.BUTTON, seq, bytes((code, state))))


@pytest.mark.parametrize("version", [1, 2])
def test_key_ids_from_a_panel_without_the_keypad_bit_are_refused_with_a_log_line(
    cable: PtyPair,
    inbox: Inbox,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
    version: int,
) -> None:
    caplog.set_level(logging.WARNING, logger="ultibank.panel.serial")
    with link(cable, inbox, clock, version=version) as (panel, fw):
        fw.send_raw(_button_frame(90, 12) + _button_frame(91, 12, 0))  # "2" down and up
        fw.press(Button.MENU)  # a clean frame behind them: they were handled first
        wait_until(lambda: inbox.of(ButtonPressed), what="the clean press")
        assert keys(inbox) == []
        assert panel.stats["malformed"] == 2 and panel.connected
        refusals = [r.getMessage() for r in caplog.records if "refused BUTTON" in r.getMessage()]
        assert len(refusals) == 2
        assert "key id 12 from a panel that did not announce a keypad" in refusals[0]


def test_unknown_and_corrupted_key_frames_are_never_acted_upon(
    cable: PtyPair, inbox: Inbox, clock: FakeClock
) -> None:
    with link(cable, inbox, clock, keypad=True) as (panel, fw):
        # ids past ⌫ and below the digits, and a state that is neither up nor down
        fw.send_raw(_button_frame(80, 21) + _button_frame(81, 9) + _button_frame(82, 15, 2))
        fw.corrupt_next(1, "flip", resend=False)  # "7" down, spoiled on the wire
        fw.corrupt_next(1, "truncate", resend=False)  # "7" up, cut short
        fw.key("7")
        fw.key("8")
        wait_until(lambda: len(keys(inbox)) == 2, what="the clean key")
        assert keys(inbox) == [("KeyPressed", "8"), ("KeyReleased", "8")]
        assert panel.stats["malformed"] == 3
        assert panel.stats["crc"] + panel.stats["cobs"] + panel.stats["too_short"] == 2
        assert panel.connected


def test_a_rebooted_keypad_panel_shakes_hands_again(
    cable: PtyPair, inbox: Inbox, clock: FakeClock
) -> None:
    with link(cable, inbox, clock, keypad=True) as (panel, fw):
        panel.show(DEED)
        wait_until(lambda: fw.screen == DEED, what="the screen")
        fw.reboot()
        assert fw.version == 1  # until it hears the bank again
        wait_until(lambda: fw.screen == DEED, what="the screen re-sent")
        wait_until(lambda: fw.version == 2 and panel.keypad, what="version 2 again")
        fw.key("4")
        wait_until(lambda: len(keys(inbox)) == 2, what="the key after the reboot")
        assert keys(inbox) == [("KeyPressed", "4"), ("KeyReleased", "4")]
        assert panel.stats["panel_restarts"] == 1


def test_a_key_held_as_the_cable_is_pulled_is_not_typed(
    cable: PtyPair, inbox: Inbox, clock: FakeClock
) -> None:
    with link(cable, inbox, clock, keypad=True) as (_panel, fw):
        fw.press_key("9")
        wait_until(lambda: keys(inbox), what="the key down")
        cable.kill()
        wait_until(lambda: not connected(inbox), what="the loss")
        assert keys(inbox) == [("KeyPressed", "9")]  # a key acts when released: never


def test_the_keypad_must_be_a_key() -> None:
    fw = PanelFirmware("/dev/null-not-opened", keypad=True)
    with pytest.raises(ValueError, match="0-9 or back"):
        fw.press_key("#")


# ---------------------------------------------------------------- a real daemon and unit


@contextlib.contextmanager
def bank_with_panel(
    tmp_path: Path, cable: PtyPair, edition: str, **firmware: Any
) -> Iterator[tuple[Runtime, PanelFirmware]]:
    """A running bank (journal, unit, daemon loop) with the serial panel and its firmware."""
    fw = PanelFirmware(cable.panel_path, ack_timeout=0.05, **firmware)
    fw.start()
    settings = load_settings(
        None, [f'game.data_dir="{tmp_path / "data"}"', f'game.edition="{edition}"']
    )
    rt = Runtime(settings)
    try:
        rt.add_panel(SerialPanel(cable.host_path, clock=rt.clock, **FAST))
        rt.start(control=False)
        shows(fw, "new_game")  # no game yet: tap the bank cards
        yield rt, fw
    finally:
        rt.stop()
        fw.stop()


def tap(rt: Runtime, card: str) -> None:
    """A card on the reader (the panel has no reader of its own)."""
    for action in parse_script(f"tap {card}", "test"):
        rt.perform(action)


def click(fw: PanelFirmware, button: Button) -> None:
    fw.press(button)
    fw.release(button)


def shows(fw: PanelFirmware, name: str, *words: str) -> None:
    """Wait until the panel shows screen *name* with *words* in its lines."""

    def there() -> bool:
        s = fw.screen
        return s is not None and s.name == name and all(w in " / ".join(s.lines) for w in words)

    wait_until(there, what=f"{name} {words} on the panel (it shows {fw.screen})")


def balance(rt: Runtime, card: int) -> int:
    def read() -> int:
        player = rt.game.state.player(card)
        assert player is not None
        return player.balance

    result: int = rt.daemon.call(read)
    return result


def start_classic_game(rt: Runtime, fw: PanelFirmware) -> None:
    tap(rt, "bank:1")
    tap(rt, "bank:2")
    click(fw, Button.OK)
    shows(fw, "game_started", "2 joueurs")


def test_a_keypad_panel_plays_a_classic_entry_and_menu(tmp_path: Path, cable: PtyPair) -> None:
    with bank_with_panel(tmp_path, cable, "classic-fr", keypad=True) as (rt, fw):
        start_classic_game(rt, fw)
        click(fw, Button.MENU)
        shows(fw, "menu", "Départ +200")
        fw.key("5")  # a digit jumps to its item
        shows(fw, "menu", "Payer la banque")
        tap(rt, "bank:1")
        shows(fw, "entry", "Montant ?")
        fw.key("159")
        shows(fw, "entry", "159")
        fw.key("back")  # ⌫
        shows(fw, "entry", "15 ")
        fw.key("0")
        shows(fw, "entry", "150")
        click(fw, Button.OK)  # ✓
        shows(fw, "paid", "chien −150", "Solde 1350")
        assert balance(rt, 1) == 1350
        assert fw.lcd_lines[2].rstrip() == "Solde 1350 E"  # the 20x4 LCD (€ folded)
        click(fw, Button.MENU)
        fw.key("11")  # two digits: item 11
        shows(fw, "menu", "Dés")
        assert fw.screen is not None and fw.screen.number == 11
        assert fw.screen.icons == frozenset({Icon.DICE})
        tap(rt, "bank:2")
        shows(fw, "dice", "voiture :")


def test_an_old_panel_plays_classic_with_the_three_button_entry(
    tmp_path: Path, cable: PtyPair
) -> None:
    with bank_with_panel(tmp_path, cable, "classic-fr", version=1) as (rt, fw):
        start_classic_game(rt, fw)
        for _ in range(5):
            click(fw, Button.MENU)
        shows(fw, "menu", "Payer la banque")
        tap(rt, "bank:1")
        shows(fw, "entry", "valider")
        for press in ("menu", "menu", "ok", "menu", "ok"):  # +100, then +50: 150
            click(fw, Button(press))
        shows(fw, "entry", "150", "+50")
        for _ in range(5):  # +20, +10, +5, +1, valider
            click(fw, Button.MENU)
        shows(fw, "entry", "150", "valider")
        click(fw, Button.OK)
        shows(fw, "paid", "Solde 1350")
        assert balance(rt, 1) == 1350


def test_an_old_panel_still_plays_ultime(tmp_path: Path, cable: PtyPair) -> None:
    with bank_with_panel(tmp_path, cable, "ultime-fr", version=1) as (rt, fw):
        tap(rt, "bank:1")
        tap(rt, "bank:2")
        click(fw, Button.OK)
        shows(fw, "game_started")
        tap(rt, "prop:16")
        tap(rt, "bank:2")  # bank card 2 buys Place de la Bourse
        shows(fw, "bought", "Achat 260")
        click(fw, Button.MENU)  # GO
        shows(fw, "menu")
        assert fw.screen is not None and fw.screen.icons == frozenset({Icon.GO})
        tap(rt, "bank:1")
        shows(fw, "go", "+200")
        assert balance(rt, 2) == balance(rt, 1) - 200 - 260


# ---------------------------------------------------------------- `ultibank run`


def test_ultibank_run_plays_a_classic_edition_on_a_serial_keypad_panel(
    tmp_path: Path, cable: PtyPair
) -> None:
    """The daemon as a user starts it: classic-fr, the serial panel, cards through its control
    socket (the simulated reader); the keypad types item 6 and the amount."""
    import os
    import signal
    import subprocess
    import sys

    from bank.services.control import send_lines

    root = Path(__file__).resolve().parents[2]
    data = tmp_path / "data"
    env = dict(os.environ, ULTIBANK_DATA_DIR=str(data), PYTHONPATH=str(root))
    fw = PanelFirmware(cable.panel_path, ack_timeout=0.05, keypad=True)
    fw.start()
    cmd = [sys.executable, "-m", "bank.cli", "run", "--edition", "classic-fr", "--reader", "sim"]
    proc = subprocess.Popen(
        [*cmd, "--panel", f"serial:{cable.host_path}"],
        cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        wait_until(
            lambda: proc.poll() is not None or (fw.screen is not None and fw.version == 2),
            timeout=20,
            what="the daemon's first screen",
        )
        assert proc.poll() is None, proc.communicate()[1]
        shows(fw, "new_game")

        def control(*lines: str) -> list[dict[str, Any]]:
            return list(send_lines(data / "control.sock", list(lines), timeout=30))

        wait_until(lambda: _answers(control), timeout=20, what="the control socket")
        control("tap bank:1", "tap bank:2")
        click(fw, Button.OK)
        shows(fw, "game_started")
        click(fw, Button.MENU)
        fw.key("6")
        shows(fw, "menu", "Recevoir")
        control("tap bank:2")
        fw.key("75")
        shows(fw, "entry", "75")
        click(fw, Button.OK)
        shows(fw, "received", "voiture +75", "1575")
        (answer,) = control("state")
        players = answer["state"]["players"]
        assert [p["balance"] for p in players] == [1500, 1575]
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
        fw.stop()
    assert proc.returncode == 0, err


def _answers(control: Any) -> bool:
    try:
        control("state")
    except ConnectionError:
        return False
    return True


def test_the_manual_panel_on_a_missing_port_says_so_in_one_line(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    missing = tmp_path / "no-such-tty"
    done = subprocess.run(
        [sys.executable, "-m", "firmware_sim.panel_firmware", str(missing), "--keypad"],
        cwd=root, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        check=False,
    )  # fmt: skip
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"python -m firmware_sim.panel_firmware: cannot open {missing}")
