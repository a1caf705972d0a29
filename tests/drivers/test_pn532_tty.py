"""The nfcpy backend on a PN532 board over a serial line, without the board.

The reader side is the project's real ``NfcpyBackend("tty:<name>:pn532")``: nfcpy looks the
name up in /dev, probes it with termios, runs its ``pn532``/``pn53x`` driver and TTY transport
(wake-up, SAMConfiguration, the 921600-baud switch found with ``stty``, Diagnose) and its Type 2
tag code. The far side is :mod:`tests.support.pn532_sim`, a frame-level PN532 on the master side
of a pseudo-terminal whose slave is linked as ``/dev/ultibank-pn532-<random>``. Creating that
link needs a writable /dev (root): without one the tests skip, or fail when ``CI`` is set.
Waiting is polling with a deadline, never sleeping.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator

import nfc
import nfc.clf.device
import pytest
import serial

from bank.unit.io import CardId, CardLifted, CardTapped, ReaderStatus
from drivers.base import CardAbsent, ReaderError
from drivers.deck import Deck
from drivers.identity import decode_card_record, encode_card_record, type2_ndef_tlv
from drivers.nfcpy_reader import NfcpyBackend
from tests.drivers.conformance import Inbox, ReaderConformance
from tests.support.pn532_sim import (
    ACK,
    FIRMWARE,
    Pn532Sim,
    command_frame,
    crc_a,
    response_frame,
)
from tests.support.running import Running
from tests.support.udp_tag_sim import EMPTY_NDEF

pytestmark = pytest.mark.nfcpy

UID_A = "04A1B2C3D4E5F6"
UID_B = "04112233445566"
PROP16 = CardId("prop", 16)

#: what nfcpy 1.0.4 sends to open a PN532 on a Linux tty that takes 921600 baud:
#: GetFirmwareVersion, SAMConfiguration (both with the wake-up preamble), SetSerialBaudrate,
#: then at the new speed Diagnose (line test), GetFirmwareVersion, SetParameters and eight
#: RFConfiguration (timings, retries, analog settings, field off)
OPEN_SEQUENCE = [0x02, 0x14, 0x10, 0x00, 0x02, 0x12] + [0x32] * 8


def card_tlv(card: CardId) -> bytes:
    return type2_ndef_tlv(encode_card_record(card))


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"the PN532 serial tests must run under CI: {reason}")
    pytest.skip(reason)


@contextlib.contextmanager
def _no_hangup() -> Iterator[None]:
    """Ignore SIGHUP if this process leads its session.

    nfcpy probes the port with a plain ``open()`` (no O_NOCTTY), which makes the pty the
    controlling terminal of a session leader that has none; closing the master to "unplug"
    would then hang the test run up.
    """
    if os.getsid(0) != os.getpid() or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGHUP, previous)


@pytest.fixture
def board() -> Iterator[Pn532Sim]:
    if not os.access("/dev", os.W_OK):
        _skip_or_fail("/dev is not writable here (the board's link goes there; run as root)")
    sim = Pn532Sim()
    try:
        sim.start()
    except OSError as err:
        _skip_or_fail(f"cannot link a pty as {sim.link}: {err}")
    with _no_hangup():
        try:
            yield sim
        finally:
            sim.close()  # closing the master is what would hang the session up
    assert not sim.link.exists()


@pytest.fixture
def reader(board: Pn532Sim) -> Iterator[Running]:
    running = Running(NfcpyBackend(board.path))
    opened = running.next()
    assert isinstance(opened, CardAbsent) and opened.uid is None  # open: the field is empty
    yield running
    running.close()


# ------------------------------------------------------------------ the shared suite


class Pn532World:
    """The conformance suite's world: NTAG215s laid on the emulated board, which unplugs."""

    quiet_s = 1.0  # ten presence checks

    def __init__(self, board: Pn532Sim) -> None:
        self.board = board
        self.backend = NfcpyBackend(board.path)

    def place(self, uid: str, ndef: bytes | None = None) -> object:
        return self.board.place(uid, type2_ndef_tlv(ndef) if ndef else EMPTY_NDEF)

    def lift(self) -> None:
        self.board.lift()

    def unplug(self) -> None:
        self.board.unplug()

    def replug(self) -> None:
        self.board.replug()


class TestPn532Conformance(ReaderConformance):
    @pytest.fixture
    def world(self, board: Pn532Sim) -> Iterator[Pn532World]:
        yield Pn532World(board)


# ------------------------------------------------------------------ reading


def test_opening_wakes_the_chip_and_raises_the_line_speed(board: Pn532Sim, reader: Running) -> None:
    assert list(board.commands)[: len(OPEN_SEQUENCE)] == OPEN_SEQUENCE
    assert board.baudrate == 921600  # nfcpy found with stty that the tty takes it
    assert board.dropped == 0  # every frame came at the chip's speed, the first one awake


def test_reads_uid_and_ndef_through_the_serial_line(board: Pn532Sim, reader: Running) -> None:
    board.place(UID_A, card_tlv(PROP16))
    event = reader.next_present()
    assert event.uid == UID_A
    assert event.ndef == encode_card_record(PROP16)
    assert decode_card_record(event.ndef) == PROP16
    assert 0x42 in board.commands  # the tag was read through InCommunicateThru


def test_one_tap_while_the_card_lies_there(board: Pn532Sim, reader: Running) -> None:
    tag = board.place(UID_A, card_tlv(PROP16))
    reader.next_present()
    reads_before = tag.reads
    assert reader.during(2.0) == []
    # nfcpy kept checking the card (a READ every 0.1 s or so) and found it each time
    assert tag.reads - reads_before >= 10


def test_a_lifted_card_is_seen_gone(board: Pn532Sim, reader: Running) -> None:
    board.place(UID_A, card_tlv(PROP16))
    reader.next_present()
    lifted_at = time.monotonic()
    board.lift()
    gone = reader.next(timeout=2.0)
    assert isinstance(gone, CardAbsent) and gone.uid == UID_A
    # three presence-check READs time out at the chip's 102.4 ms: about 0.3 s, not seconds
    assert time.monotonic() - lifted_at < 1.5
    assert reader.during(0.5) == []


def test_retap_after_lift_counts_again(board: Pn532Sim, reader: Running) -> None:
    board.place(UID_A, card_tlv(PROP16))
    assert reader.next_present().uid == UID_A
    board.lift()
    gone = reader.next()
    assert isinstance(gone, CardAbsent) and gone.uid == UID_A
    board.place(UID_A, card_tlv(PROP16))
    again = reader.next_present()
    assert (again.uid, decode_card_record(again.ndef)) == (UID_A, PROP16)


def test_stopping_puts_the_chip_back_to_115200_and_the_next_open_wakes_it(
    board: Pn532Sim,
) -> None:
    first = Running(NfcpyBackend(board.path))
    first.next()
    first.close()
    assert first.errors == []
    # nfcpy's close: cancel, SetSerialBaudrate 115200, PowerDown (the board stays powered)
    assert list(board.commands)[-2:] == [0x10, 0x16]
    # the chip sleeps right after it answered PowerDown: nfcpy may return first (seen under load)
    deadline = time.monotonic() + 2.0
    while not board.asleep and time.monotonic() < deadline:
        time.sleep(0.005)
    assert (board.baudrate, board.asleep) == (115200, True)
    second = Running(NfcpyBackend(board.path))
    try:
        opened = second.next()
        assert isinstance(opened, CardAbsent)
        board.place(UID_B, card_tlv(PROP16))
        assert second.next_present().uid == UID_B
    finally:
        second.close()
    assert board.dropped == 0


# ------------------------------------------------------------------ device loss


@pytest.mark.parametrize("card_on_reader", [False, True], ids=["polling", "presence-check"])
def test_device_lost_makes_run_raise(board: Pn532Sim, card_on_reader: bool) -> None:
    running = Running(NfcpyBackend(board.path))
    try:
        running.next()
        if card_on_reader:
            board.place(UID_A, card_tlv(PROP16))
            running.next_present()
        board.unplug()
        running.thread.join(timeout=3.0)
        assert not running.thread.is_alive(), "run() went on after the board was pulled"
        assert len(running.errors) == 1
    finally:
        running.close()
    # while the board is away, opening it fails with the plain reason
    with pytest.raises(ReaderError, match="no reader found"):
        NfcpyBackend(board.path).run(lambda e: None, threading.Event())


def test_a_pulled_board_is_reported_as_lost_in_plain_words(board: Pn532Sim) -> None:
    """nfcpy's own close fails on a hung-up tty: the backend still says 'lost' and frees it."""
    fds_before = len(os.listdir("/proc/self/fd"))
    running = Running(NfcpyBackend(board.path))
    try:
        running.next()
        board.unplug()
        running.thread.join(timeout=3.0)
    finally:
        running.close()
    assert len(running.errors) == 1
    assert isinstance(running.errors[0], ReaderError)
    assert "lost" in str(running.errors[0])
    assert len(os.listdir("/proc/self/fd")) <= fds_before, "the serial port was left open"


def test_supervisor_reports_the_board_lost_and_reopens_it(board: Pn532Sim) -> None:
    from drivers.supervisor import ReaderService

    inbox = Inbox(timeout=3.0)
    deck = Deck({UID_A: PROP16})
    service = ReaderService(
        NfcpyBackend(board.path), inbox.post, deck, rearm_s=0.05, backoff=(0.05, 0.1, 0.2)
    )
    with service:
        inbox.expect(ReaderStatus, "never connected", lambda s: s.connected)
        board.place(UID_A)
        tap = inbox.expect(CardTapped, "no tap")
        assert tap.card == PROP16
        board.lift()
        inbox.expect(CardLifted, "lift not seen")
        board.unplug()
        lost = inbox.expect(ReaderStatus, "loss not reported", lambda s: not s.connected)
        assert lost.detail
        opens_while_away = service.opens
        board.replug()
        inbox.expect(ReaderStatus, "not reopened", lambda s: s.connected)
        assert service.opens > opens_while_away
        board.place(UID_A)
        again = inbox.expect(CardTapped, "no tap after the board came back")
        assert again.card == PROP16


# ------------------------------------------------------------------ the emulator itself


def test_in_data_exchange_reads_pages_through_nfcpys_chipset(board: Pn532Sim) -> None:
    board.place(UID_A, card_tlv(PROP16))
    clf = nfc.ContactlessFrontend(board.path)
    try:
        target = clf.sense(nfc.clf.RemoteTarget("106A"))
        assert target is not None and target.sdd_res.hex().upper() == UID_A
        assert (target.sens_res, target.sel_res) == (b"\x44\x00", b"\x00")
        data, more = clf.device.chipset.in_data_exchange(b"\x30\x04", 0.1)
        assert (bytes(data), more) == (card_tlv(PROP16)[:16], False)
    finally:
        clf.close()


def test_sleeping_chip_wants_the_long_preamble_and_its_line_speed(board: Pn532Sim) -> None:
    get_version = command_frame(0x02)
    answer = ACK + response_frame(b"\xd5\x03" + FIRMWARE)

    def ask(port: serial.Serial, frame: bytes) -> bytes:
        port.reset_input_buffer()
        port.write(frame)
        return bytes(port.read(len(answer)))

    with serial.Serial(str(board.link), 115200, timeout=0.2) as port:
        assert ask(port, get_version) == b""  # wakes the chip, but the frame is lost
        assert not board.asleep
        assert ask(port, get_version) == answer
        port.baudrate = 57600
        assert ask(port, get_version) == b""  # the chip still listens at 115200
        port.baudrate = 115200
        assert ask(port, bytes(10) + get_version) == answer
    assert board.dropped == 2


def test_crc_a_matches_nfcpys() -> None:
    for data in (b"\x30\x00", b"\x60", bytes(range(16))):
        expected = nfc.clf.device.Device.add_crc_a(bytearray(data))
        assert data + crc_a(data) == bytes(expected)


def test_an_ack_cancels_a_command_still_running_and_a_nack_repeats(board: Pn532Sim) -> None:
    version = ACK + response_frame(b"\xd5\x03" + FIRMWARE)
    with serial.Serial(str(board.link), 115200, timeout=0.3) as port:
        port.write(bytes(10) + command_frame(0x02))
        assert port.read(len(version)) == version
        # a 0.2 s response timeout, then a READ into the empty field: the ACK comes at once,
        # and status 01 (timeout) would follow 0.2 s later, but the host cancels first
        port.write(command_frame(0x32, b"\x02\x0a\x0b\x0c"))
        assert port.read(6 + 9) == ACK + response_frame(b"\xd5\x33")
        port.write(command_frame(0x42, b"\x30\x00"))
        assert port.read(6) == ACK
        port.write(ACK)
        port.timeout = 0.6
        assert port.read(1) == b""
        port.write(command_frame(0x42, b"\x30\x00"))  # uncancelled, it does time out
        assert port.read(6 + 10) == ACK + response_frame(b"\xd5\x43\x01")
        port.write(command_frame(0x02))
        assert port.read(len(version)) == version  # not the cancelled status-01 frame
        port.write(b"\x00\x00\xff\xff\x00\x00")  # NACK: send that again
        assert port.read(len(version)) == version[6:]
