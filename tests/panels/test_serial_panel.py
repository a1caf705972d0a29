"""The serial panel end to end: the daemon's side and the simulated firmware over a pty pair."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bank.unit.io import Button, ButtonPressed, ButtonReleased, Cue, PanelStatus, Screen
from drivers import panel_protocol as pp
from drivers.base import Panel, PanelError
from drivers.serial_panel import SerialPanel
from firmware_sim.panel_firmware import PanelFirmware
from tests.panels.conftest import BALANCE, FAST, FakeClock, Inbox, connected, wait_until
from tests.support.pty_pair import PtyPair


@pytest.fixture
def panel(cable: PtyPair, clock: FakeClock, inbox: Inbox) -> Iterator[SerialPanel]:
    p = SerialPanel(cable.host_path, clock=clock, **FAST)
    p.start(inbox)
    yield p
    p.close()


def test_serial_panel_follows_the_panel_protocol(panel: SerialPanel) -> None:
    assert isinstance(panel, Panel)


def test_show_reaches_the_firmware_lcd(
    panel: SerialPanel, firmware: PanelFirmware, inbox: Inbox
) -> None:
    wait_until(lambda: connected(inbox), what="the link")
    info = panel.panel_info
    assert info is not None and (info.cols, info.rows) == (20, 4) and info.name == "ultibank-sim"
    panel.show(BALANCE)
    wait_until(lambda: firmware.screen == BALANCE, what="the screen on the panel")
    assert firmware.lcd_lines == (
        "#22 boat    L3 ###..",
        "AUCT T-8         250",
        "Rue de la Paix      ",
        "Loyer 250           ",
    )
    # The HD44780 itself holds CGRAM glyph codes for the level bar.
    assert firmware.lcd_ddram[0].endswith("\x00\x00\x00\x01\x01")


def test_only_the_latest_screen_matters_and_cues_arrive_in_order(
    panel: SerialPanel, firmware: PanelFirmware, inbox: Inbox
) -> None:
    wait_until(lambda: connected(inbox), what="the link")
    for n in range(1, 6):
        panel.show(Screen("balance", amount=n * 100))
    for cue in (Cue.READ, Cue.KACHING, Cue.ERROR):
        panel.play(cue)
    wait_until(lambda: len(firmware.cues) == 3, what="three cues")
    assert firmware.cues == [Cue.READ, Cue.KACHING, Cue.ERROR]
    wait_until(lambda: firmware.screen is not None and firmware.screen.amount == 500)


def test_buttons_arrive_as_inputs_stamped_by_the_clock(
    panel: SerialPanel, firmware: PanelFirmware, inbox: Inbox, clock: FakeClock
) -> None:
    wait_until(lambda: connected(inbox), what="the link")
    clock.now = 1234.5
    firmware.press(Button.CANCEL)
    wait_until(lambda: inbox.of(ButtonPressed), what="the press")
    clock.now = 1239.5
    firmware.release(Button.CANCEL)
    wait_until(lambda: inbox.of(ButtonReleased), what="the release")
    assert inbox.of(ButtonPressed) == [ButtonPressed(1234.5, Button.CANCEL)]
    assert inbox.of(ButtonReleased) == [ButtonReleased(1239.5, Button.CANCEL)]


def test_a_corrupted_button_frame_is_dropped_and_the_clean_resend_counts_once(
    panel: SerialPanel, firmware: PanelFirmware, inbox: Inbox
) -> None:
    wait_until(lambda: connected(inbox), what="the link")
    firmware.corrupt_next(1, "flip")
    firmware.corrupt_next(1, "truncate")
    firmware.press(Button.OK)
    firmware.press(Button.MENU)
    wait_until(lambda: len(inbox.of(ButtonPressed)) == 2, what="both presses")
    assert [p.button for p in inbox.of(ButtonPressed)] == [Button.OK, Button.MENU]  # type: ignore[union-attr]
    faults = panel.stats["crc"] + panel.stats["cobs"] + panel.stats["too_short"]
    assert faults == 2
    # each spoiled frame went unanswered and was sent again (a late ACK may add a resend)
    assert firmware.stats["retries"] >= 2


@pytest.mark.parametrize("how", ["flip", "truncate", "garbage"])
def test_a_corrupted_button_frame_is_never_acted_upon(
    panel: SerialPanel, firmware: PanelFirmware, inbox: Inbox, how: str
) -> None:
    wait_until(lambda: connected(inbox), what="the link")
    firmware.corrupt_next(1, how, resend=False)
    firmware.press(Button.OK)
    # A clean press behind it proves the spoiled one was processed (and dropped) first.
    firmware.press(Button.MENU)
    wait_until(lambda: inbox.of(ButtonPressed), what="the clean press")
    assert [p.button for p in inbox.of(ButtonPressed)] == [Button.MENU]  # type: ignore[union-attr]
    assert sum(panel.stats[f.value] for f in pp.Fault) >= 1
    assert panel.connected


def test_a_retransmitted_button_is_posted_once(
    panel: SerialPanel, firmware: PanelFirmware, inbox: Inbox
) -> None:
    wait_until(lambda: connected(inbox), what="the link")
    frame = pp.encode_frame(
        pp.Frame(pp.MsgType.BUTTON, 77, pp.encode_button(pp.ButtonEvent(Button.OK, True)))
    )
    firmware.send_raw(frame + frame)  # the ACK of the first copy was "lost"
    firmware.press(Button.MENU)
    wait_until(lambda: len(inbox.of(ButtonPressed)) == 2, what="the presses")
    assert [p.button for p in inbox.of(ButtonPressed)] == [Button.OK, Button.MENU]  # type: ignore[union-attr]
    assert panel.stats["duplicates"] == 1


def test_cable_pulled_mid_game_is_reported_and_recovered(
    cable: PtyPair, panel: SerialPanel, firmware: PanelFirmware, inbox: Inbox, clock: FakeClock
) -> None:
    wait_until(lambda: connected(inbox), what="the link")
    panel.show(BALANCE)
    wait_until(lambda: firmware.screen == BALANCE, what="the screen")
    firmware.press(Button.CANCEL)  # X held down, towards a 5 s reset...
    wait_until(lambda: inbox.of(ButtonPressed), what="the press")
    clock.now = 1002.0
    cable.kill()
    wait_until(lambda: not connected(inbox), what="the loss")
    lost = inbox.of(PanelStatus)[-1]
    assert lost.at == 1002.0 and lost.panel == panel.name and lost.detail  # type: ignore[union-attr]
    # ...which must not keep counting while the cable is out.
    assert inbox.of(ButtonReleased) == [ButtonReleased(1002.0, Button.CANCEL)]
    later = Screen("balance", amount=1300, token="car")
    panel.show(later)  # the game moves on while the panel is away
    panel.play(Cue.KACHING)  # dropped: a late sound is worse than none
    cable.restart()
    firmware.reopen()
    wait_until(lambda: connected(inbox), timeout=10, what="the recovery")
    wait_until(lambda: firmware.screen == later, what="the screen re-sent")
    statuses = [s.connected for s in inbox.of(PanelStatus)]  # type: ignore[union-attr]
    assert statuses == [True, False, True]
    assert Cue.KACHING not in firmware.cues
    assert panel.stats["cues_dropped"] == 1


def test_a_silent_panel_is_detected_by_ping(
    panel: SerialPanel, firmware: PanelFirmware, inbox: Inbox
) -> None:
    wait_until(lambda: connected(inbox), what="the link")
    pings = firmware.stats["pings"]
    wait_until(lambda: firmware.stats["pings"] > pings, what="a ping")
    firmware.freeze()
    wait_until(lambda: not connected(inbox), timeout=5, what="the ping timeout")
    assert "no ACK" in inbox.of(PanelStatus)[-1].detail  # type: ignore[union-attr]
    firmware.freeze(False)
    wait_until(lambda: connected(inbox), timeout=5, what="the recovery")
    assert [s.connected for s in inbox.of(PanelStatus)] == [True, False, True]  # type: ignore[union-attr]


def test_a_rebooted_panel_gets_its_screen_back(
    panel: SerialPanel, firmware: PanelFirmware, inbox: Inbox
) -> None:
    wait_until(lambda: connected(inbox), what="the link")
    panel.show(BALANCE)
    wait_until(lambda: firmware.screen == BALANCE, what="the screen")
    firmware.reboot()
    assert firmware.screen is None
    wait_until(lambda: firmware.screen == BALANCE, what="the screen re-sent after reboot")
    assert panel.stats["panel_restarts"] == 1
    assert [s.connected for s in inbox.of(PanelStatus)] == [True]  # type: ignore[union-attr]


def test_a_panel_that_is_absent_at_start_is_reported_then_picked_up(
    cable: PtyPair, clock: FakeClock, inbox: Inbox
) -> None:
    p = SerialPanel(cable.host_path + "-not-yet", clock=clock, **FAST)
    p.start(inbox)
    try:
        wait_until(lambda: inbox.of(PanelStatus), what="the first status")
        (status,) = inbox.of(PanelStatus)
        assert not status.connected and "cannot open" in status.detail  # type: ignore[union-attr]
    finally:
        p.close()


def test_the_port_is_opened_exclusively(
    cable: PtyPair, panel: SerialPanel, firmware: PanelFirmware, inbox: Inbox
) -> None:
    wait_until(lambda: connected(inbox), what="the link")
    other = Inbox()
    second = SerialPanel(cable.host_path, **FAST)
    second.start(other)
    try:
        wait_until(lambda: other.of(PanelStatus), what="the second panel's status")
        status = other.of(PanelStatus)[0]
        assert not status.connected and "lock" in status.detail  # type: ignore[union-attr]
    finally:
        second.close()


def test_missing_pyserial_is_a_clear_panel_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "serial", None)
    with pytest.raises(PanelError, match=r"pip install 'ultibank\[serial\]'"):
        SerialPanel("/dev/ttyACM0")


def test_bare_tty_names_mean_dev() -> None:
    assert SerialPanel("ttyACM0").port == "/dev/ttyACM0"
    assert SerialPanel("/dev/ultibank-panel").port == "/dev/ultibank-panel"


# ---------------------------------------------------------------- fuzz through the pty


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    from tests.support.pty_pair import make_pair

    pair = make_pair(tmp_path_factory.mktemp("fuzz"))
    fw = PanelFirmware(pair.panel_path, ack_timeout=0.05)
    fw.start()
    inbox = Inbox()
    p = SerialPanel(pair.host_path, **FAST)
    p.start(inbox)
    wait_until(lambda: connected(inbox), what="the link")
    yield {"panel": p, "firmware": fw, "inbox": inbox}
    p.close()
    fw.stop()
    pair.close()


def _mutate(frame: bytes, how: str, where: int, junk: bytes) -> bytes:
    body = bytearray(frame)
    i = 1 + where % (len(body) - 2)
    if how == "flip":
        body[i] ^= junk[0] or 1
        return bytes(body)
    if how == "truncate":
        return bytes(body[:i])
    if how == "insert":
        return bytes(body[:i] + junk + body[i:])
    return junk  # noise


@given(
    st.lists(
        st.tuples(
            st.sampled_from(list(Button)),
            st.booleans(),
            st.integers(1, 255),
            st.sampled_from(["flip", "truncate", "insert", "noise"]),
            st.integers(0, 100),
            st.binary(min_size=1, max_size=60),
        ),
        min_size=1,
        max_size=5,
    )
)
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_fuzzed_bytes_never_crash_the_daemon_nor_press_a_button(
    live: dict[str, Any], damage: list[tuple[Button, bool, int, str, int, bytes]]
) -> None:
    panel: SerialPanel = live["panel"]
    firmware: PanelFirmware = live["firmware"]
    inbox: Inbox = live["inbox"]
    inbox.items.clear()
    for button, down, seq, how, where, junk in damage:
        frame = pp.encode_frame(
            pp.Frame(pp.MsgType.BUTTON, seq, pp.encode_button(pp.ButtonEvent(button, down)))
        )
        firmware.send_raw(_mutate(frame, how, where, junk))
    # A clean frame closes the damage off; once it is posted, the damage was processed.
    firmware.press(Button.MENU)
    firmware.release(Button.MENU)
    wait_until(lambda: inbox.of(ButtonReleased), what="the clean press and release")
    assert [type(i) for i in inbox.items] == [ButtonPressed, ButtonReleased]
    assert panel.connected


def test_a_refused_message_is_dropped_without_dropping_the_link(
    panel: SerialPanel, firmware: PanelFirmware, inbox: Inbox
) -> None:
    wait_until(lambda: connected(inbox), what="the link")
    firmware.refuse(pp.MsgType.CUE)  # an older firmware without a buzzer message
    panel.play(Cue.KACHING)
    panel.show(BALANCE)
    wait_until(lambda: firmware.screen == BALANCE, what="the screen")
    # The screen may overtake the queued cue (a screen goes first): wait for the refusal too.
    wait_until(lambda: panel.stats["refused"] == 1, what="the refused cue")
    assert firmware.cues == []
    # the refusal itself was never retried (an ACK late under load may cost a timeout retry)
    assert panel.stats["retries"] == panel.stats["timeouts"]
    assert [s.connected for s in inbox.of(PanelStatus)] == [True]  # type: ignore[union-attr]


def test_a_busy_panel_gets_the_same_frame_again(
    panel: SerialPanel, firmware: PanelFirmware, inbox: Inbox
) -> None:
    wait_until(lambda: connected(inbox), what="the link")
    firmware.busy_next(2)
    panel.show(BALANCE)
    wait_until(lambda: firmware.screen == BALANCE, what="the screen")
    assert panel.stats["naks"] == 2
    assert panel.stats["retries"] - panel.stats["timeouts"] == 2  # one resend per NAK BUSY
    assert firmware.screens.count(BALANCE) == 1
