"""The simulated reader and panel: their hands, their eyes, and the reader conformance suite."""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator

import pytest

from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardTapped,
    Cue,
    Input,
    PanelStatus,
    ReaderStatus,
    Screen,
    Tick,
)
from drivers.base import CardAbsent, CardPresent, Panel, PanelError, ReaderBackend, ReaderError
from drivers.deck import simulated_deck, simulated_uid
from drivers.sim import SimPanel, SimReader, VirtualClock, start_sim_reader
from drivers.supervisor import ReaderService
from tests.drivers.conformance import DECK, ReaderConformance

PROP16 = CardId("prop", 16)


class SimWorld:
    """The conformance suite's world for the simulated reader."""

    timeout = 3.0
    quiet_s = 0.2

    def __init__(self) -> None:
        self.backend = SimReader(DECK)

    def place(self, uid: str, ndef: bytes | None = None) -> object:
        return self.backend.place(uid, ndef)

    def lift(self) -> None:
        self.backend.lift()

    def unplug(self) -> None:
        self.backend.unplug()

    def replug(self) -> None:
        self.backend.replug()


class TestSimConformance(ReaderConformance):
    @pytest.fixture
    def world(self) -> SimWorld:
        return SimWorld()


# ---------------------------------------------------------------- SimReader


@pytest.fixture
def clock() -> VirtualClock:
    return VirtualClock(100.0)


@pytest.fixture
def service(clock: VirtualClock) -> Iterator[tuple[SimReader, queue.Queue[Input]]]:
    inbox: queue.Queue[Input] = queue.Queue()
    reader = SimReader(clock=clock)
    svc = ReaderService(reader, inbox.put, reader.deck, clock, rearm_s=0.0, backoff=(0.01,))
    with svc:
        status = inbox.get(timeout=3)
        assert isinstance(status, ReaderStatus) and status.connected
        yield reader, inbox
    assert not reader.running


def drain(inbox: queue.Queue[Input]) -> list[Input]:
    out = []
    while True:
        try:
            out.append(inbox.get_nowait())
        except queue.Empty:
            return out


def test_sim_reader_is_a_reader_backend() -> None:
    assert isinstance(SimReader(), ReaderBackend)
    assert SimReader().path == "sim"


def test_a_tap_is_posted_before_the_hand_returns(
    service: tuple[SimReader, queue.Queue[Input]], clock: VirtualClock
) -> None:
    reader, inbox = service
    reader.tap("prop:16")
    got = drain(inbox)
    uid = simulated_uid(PROP16)
    assert got == [
        CardTapped(100.0, PROP16, uid, "sim"),
        CardLifted(100.0, uid, "sim"),
    ]


def test_hands_accept_card_ids_names_and_uids(
    service: tuple[SimReader, queue.Queue[Input]],
) -> None:
    reader, inbox = service
    uid = simulated_uid(CardId("bank", 3))
    reader.tap(CardId("bank", 3))
    reader.tap("bank:boat")
    reader.tap(f"uid:{uid.lower()}")
    reader.tap(uid)
    taps = [i for i in drain(inbox) if isinstance(i, CardTapped)]
    assert [(t.card, t.uid) for t in taps] == [(CardId("bank", 3), uid)] * 4


def test_an_unknown_uid_taps_with_no_card(service: tuple[SimReader, queue.Queue[Input]]) -> None:
    reader, inbox = service
    reader.tap("uid:04000000000001")
    assert drain(inbox)[0] == CardTapped(100.0, None, "04000000000001", "sim")


def test_hands_refuse_what_is_not_a_card() -> None:
    reader = SimReader()
    with pytest.raises(ValueError, match="not a card number"):
        reader.place("prop:x")
    with pytest.raises(ValueError, match=r"prop cards run 1\.\.22"):
        reader.place("prop:40")
    with pytest.raises(ValueError, match="not a hex UID"):
        reader.place("uid:zz")


def test_the_reader_records_what_it_emitted_and_the_cues(
    service: tuple[SimReader, queue.Queue[Input]],
) -> None:
    reader, _ = service
    reader.place("prop:16", b"\xd0\x00\x00")
    reader.lift()
    uid = simulated_uid(PROP16)
    assert [type(e) for e in reader.emitted] == [CardAbsent, CardPresent, CardAbsent]
    assert reader.emitted[1] == CardPresent(uid, b"\xd0\x00\x00", 100.0)
    reader.feedback(Cue.READ)
    assert reader.cues == [Cue.READ]


def test_a_card_lying_on_an_unread_reader_is_reported_when_it_opens() -> None:
    reader = SimReader()
    reader.place("event:7")  # no service yet: nothing is emitted, the card just lies there
    assert reader.emitted == [] and reader.on_reader == simulated_uid(CardId("event", 7))
    seen: list[object] = []
    stop = threading.Event()
    thread = threading.Thread(target=reader.run, args=(seen.append, stop))
    thread.start()
    assert reader.wait_running()
    stop.set()
    reader.wake()
    thread.join(3)
    assert not thread.is_alive()
    assert [type(e) for e in seen] == [CardAbsent, CardPresent]


def test_an_unplugged_reader_fails_to_open_until_replugged() -> None:
    reader = SimReader()
    reader.unplug()
    with pytest.raises(ReaderError, match="unplugged"):
        reader.run(lambda e: None, threading.Event())
    reader.replug()
    stop = threading.Event()
    stop.set()
    reader.run(lambda e: None, stop)  # opens, sees stop, returns


def test_a_second_open_of_the_same_reader_is_refused(
    service: tuple[SimReader, queue.Queue[Input]],
) -> None:
    reader, _ = service
    with pytest.raises(ReaderError, match="already open"):
        reader.run(lambda e: None, threading.Event())


def take(inbox: queue.Queue[Input], n: int) -> list[Input]:
    return [inbox.get(timeout=3) for _ in range(n)]


def test_unplug_through_the_service_reports_and_recovers(
    service: tuple[SimReader, queue.Queue[Input]],
) -> None:
    reader, inbox = service
    uid = simulated_uid(PROP16)
    reader.place("prop:16")
    reader.unplug()
    assert take(inbox, 2) == [
        CardTapped(100.0, PROP16, uid, "sim"),
        ReaderStatus(100.0, False, "sim", "simulated reader sim was unplugged"),
    ]
    reader.replug()
    # the card still lies there: the reopened reader reports it, and it is not a second tap
    assert take(inbox, 1) == [ReaderStatus(100.0, True, "sim", "")]
    reader.lift()
    reader.place("prop:16")
    assert [type(i).__name__ for i in take(inbox, 2)] == ["CardLifted", "CardTapped"]


def test_start_sim_reader_is_ready_and_counts_every_scripted_tap(clock: VirtualClock) -> None:
    inbox: queue.Queue[Input] = queue.Queue()
    reader, svc = start_sim_reader(inbox.put, clock)
    try:
        assert drain(inbox) == [ReaderStatus(100.0, True, "sim", "")]
        reader.tap("prop:16")
        reader.tap("prop:16")  # same virtual instant: a script's two tap lines, two taps
        taps = [i for i in drain(inbox) if isinstance(i, CardTapped)]
        assert [t.card for t in taps] == [PROP16, PROP16]
    finally:
        assert svc.stop()


def test_the_real_rearm_time_ignores_a_quick_second_touch(clock: VirtualClock) -> None:
    inbox: queue.Queue[Input] = queue.Queue()
    reader, svc = start_sim_reader(inbox.put, clock, rearm_s=0.4)
    try:
        reader.tap("prop:16")
        clock.advance(0.1)
        reader.tap("prop:16")  # lifted for 0.1 s: a bounce, not a tap
        clock.advance(0.4)
        reader.tap("prop:16")
        taps = [i for i in drain(inbox) if isinstance(i, CardTapped)]
        assert [t.at for t in taps] == [100.0, 100.5]
    finally:
        assert svc.stop()


# ---------------------------------------------------------------- SimPanel


@pytest.fixture
def panel(clock: VirtualClock) -> tuple[SimPanel, list[Input]]:
    posted: list[Input] = []
    p = SimPanel(clock)
    p.start(posted.append)
    return p, posted


def test_sim_panel_is_a_panel() -> None:
    assert isinstance(SimPanel(), Panel)


def test_press_release_and_click_post_button_inputs(
    panel: tuple[SimPanel, list[Input]], clock: VirtualClock
) -> None:
    p, posted = panel
    p.press("ok")
    clock.advance(0.5)
    p.release(Button.OK)
    p.click("menu")
    assert posted == [
        ButtonPressed(100.0, Button.OK),
        ButtonReleased(100.5, Button.OK),
        ButtonPressed(100.5, Button.MENU),
        ButtonReleased(100.5, Button.MENU),
    ]
    assert p.held == set()


def test_hold_keeps_buttons_down_while_time_passes_and_ticks(
    panel: tuple[SimPanel, list[Input]], clock: VirtualClock
) -> None:
    p, posted = panel
    p.hold("ok+cancel", 5)
    assert posted == [
        ButtonPressed(100.0, Button.OK),
        ButtonPressed(100.0, Button.CANCEL),
        Tick(105.0),
        ButtonReleased(105.0, Button.OK),
        ButtonReleased(105.0, Button.CANCEL),
    ]
    assert clock() == 105.0


def test_hold_needs_a_clock_it_can_advance() -> None:
    p = SimPanel(lambda: 0.0)
    p.start(lambda i: None)
    with pytest.raises(TypeError, match="advance"):
        p.hold(Button.CANCEL, 5)


def test_unknown_buttons_are_refused_by_name(panel: tuple[SimPanel, list[Input]]) -> None:
    p, _ = panel
    with pytest.raises(ValueError, match=r"unknown button 'enter'.*ok, menu, cancel"):
        p.press("enter")


def test_hands_before_start_say_so() -> None:
    with pytest.raises(PanelError, match="start"):
        SimPanel().press("ok")


def test_the_panel_keeps_screens_and_cues(panel: tuple[SimPanel, list[Input]]) -> None:
    p, _ = panel
    assert p.last_screen is None
    p.show(Screen("idle"))
    p.show(Screen("balance", amount=1500, token="car"))
    p.play(Cue.READ)
    p.play(Cue.KACHING)
    assert [s.name for s in p.screens] == ["idle", "balance"]
    assert p.cues == [Cue.READ, Cue.KACHING]
    assert p.last_screen == Screen("balance", amount=1500, token="car")
    assert p.assert_screen(name="balance", amount=1500).token == "car"
    assert p.assert_screen(last=False, name="idle").name == "idle"
    p.assert_cue(Cue.READ)
    p.assert_cue(Cue.KACHING, last=True)


def test_assert_helpers_fail_readably(panel: tuple[SimPanel, list[Input]]) -> None:
    p, _ = panel
    with pytest.raises(AssertionError, match="no screen was shown"):
        p.assert_screen(name="idle")
    p.show(Screen("balance", amount=1200))
    p.play(Cue.ERROR)
    with pytest.raises(AssertionError, match=r"amount=1500.*\n  balance 1200"):
        p.assert_screen(name="balance", amount=1500)
    with pytest.raises(AssertionError, match="expected cue kaching; played: error"):
        p.assert_cue(Cue.KACHING)
    with pytest.raises(AssertionError, match="last cue"):
        p.play(Cue.READ)
        p.assert_cue(Cue.ERROR, last=True)
    with pytest.raises(TypeError, match="no field"):
        p.assert_screen(colour_name="red")


def test_unplug_reports_and_drops_until_replug(
    panel: tuple[SimPanel, list[Input]], clock: VirtualClock
) -> None:
    p, posted = panel
    p.unplug()
    p.unplug()  # a second pull changes nothing
    p.press("ok")
    p.show(Screen("idle"))
    p.play(Cue.READ)
    p.replug()
    assert posted == [
        PanelStatus(100.0, False, "sim", "simulated panel unplugged"),
        PanelStatus(100.0, True, "sim", ""),
    ]
    assert p.screens == [] and p.dropped == [Screen("idle"), Cue.READ]
    p.show(Screen("idle"))
    assert p.screens == [Screen("idle")]


def test_a_closed_panel_drops_output(panel: tuple[SimPanel, list[Input]]) -> None:
    p, _ = panel
    p.close()
    p.show(Screen("idle"))
    assert p.closed and p.screens == [] and p.dropped == [Screen("idle")]


def test_virtual_clock_only_moves_forward() -> None:
    clock = VirtualClock()
    assert clock() == 0.0
    assert clock.advance(1.5) == 1.5
    with pytest.raises(ValueError, match="back"):
        clock.advance(-1)


def test_simulated_deck_is_the_default_deck() -> None:
    assert SimReader().deck == simulated_deck()


def test_the_sim_backend_keeps_a_bounded_history() -> None:
    """``--panel sim`` in a daemon that runs for days: the last screens, not every one."""
    from bank.app.panels import open_panel
    from drivers.sim import HISTORY

    p = open_panel("sim")
    assert isinstance(p, SimPanel)
    p.start(lambda inp: None)
    for n in range(3 * HISTORY):
        p.show(Screen("balance", amount=n, token="car"))
        p.play(Cue.READ)
        p.click("ok")
    assert len(p.shown) == len(p.played) == HISTORY
    assert len(p.posted) == HISTORY
    assert p.screens[0].amount == 2 * HISTORY and p.last_screen.amount == 3 * HISTORY - 1
    p.unplug()
    for _ in range(2 * HISTORY):
        p.show(Screen("idle"))
    assert len(p.dropped) == HISTORY
    unbounded = SimPanel(history=None)  # a test that wants everything asks for it
    for _ in range(HISTORY + 5):
        unbounded.show(Screen("idle"))
    assert len(unbounded.shown) == HISTORY + 5


def test_the_sim_reader_keeps_a_bounded_history() -> None:
    from drivers.sim import HISTORY

    reader = SimReader()
    for _ in range(2 * HISTORY):
        reader.feedback(Cue.READ)
    assert len(reader.cues) == HISTORY
