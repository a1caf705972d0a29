"""The nfcpy backend through nfcpy's real ``udp`` driver and tag stack, against the tag simulator.

Nothing here fakes nfcpy: the reader side is ``nfc.ContactlessFrontend("udp:127.0.0.1:<port>")``
with its Type 2 tag code, NXP product detection and presence check; the far side is
:mod:`tests.support.udp_tag_sim`, a strict NTAG21x. Each test gets its own simulator on a free
port. Waiting is polling with a deadline, never sleeping.
"""

from __future__ import annotations

import errno
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterator

import nfc
import pytest

from bank.unit.io import CardId, CardLifted, CardTapped, Cue, Input, ReaderStatus
from drivers.base import (
    CardAbsent,
    CardPresent,
    ReaderBackend,
    ReaderError,
    ReaderUnavailable,
    TagError,
)
from drivers.deck import Deck
from drivers.identity import (
    decode_card_record,
    encode_card_record,
    parse_type2_ndef,
    type2_ndef_tlv,
)
from drivers.nfcpy_reader import (
    NfcpyBackend,
    ReaderPathError,
    check_path,
    translate_open_error,
    write_card,
    write_message,
)
from tests.drivers.conformance import ReaderConformance
from tests.support.running import Running
from tests.support.udp_tag_sim import (
    EMPTY_NDEF,
    NTAG213,
    NTAG215,
    SimTag,
    UdpTagSim,
    unplug_hook,
)

pytestmark = pytest.mark.nfcpy


UID_A = "04A1B2C3D4E5F6"
UID_B = "04112233445566"
PROP16 = CardId("prop", 16)


def card_tlv(card: CardId) -> bytes:
    return type2_ndef_tlv(encode_card_record(card))


@pytest.fixture
def sim() -> Iterator[UdpTagSim]:
    with UdpTagSim() as s:
        yield s


@pytest.fixture
def reader(sim: UdpTagSim) -> Iterator[Running]:
    running = Running(NfcpyBackend(sim.path))
    opened = running.next()
    assert isinstance(opened, CardAbsent) and opened.uid is None  # open: the field is empty
    yield running
    running.close()


# ------------------------------------------------------------------ the shared suite


class NfcpyWorld:
    """The conformance suite's world: NTAG215s laid on the simulator, the udp link unpluggable."""

    quiet_s = 1.0  # ten presence checks

    def __init__(self, sim: UdpTagSim) -> None:
        self.sim = sim
        self.backend = NfcpyBackend(sim.path)

    def place(self, uid: str, ndef: bytes | None = None) -> object:
        return self.sim.place(uid, type2_ndef_tlv(ndef) if ndef else EMPTY_NDEF)

    def lift(self) -> None:
        self.sim.lift()

    def unplug(self) -> None:
        self.sim.unplug()

    def replug(self) -> None:
        self.sim.replug()


class TestNfcpyConformance(ReaderConformance):
    @pytest.fixture
    def world(self, sim: UdpTagSim) -> Iterator[NfcpyWorld]:
        with unplug_hook(sim):
            yield NfcpyWorld(sim)


# ------------------------------------------------------------------ reading


def test_reads_uid_and_ndef_of_an_ntag215(sim: UdpTagSim, reader: Running) -> None:
    sim.place(UID_A, card_tlv(PROP16))
    event = reader.next_present()
    assert event.uid == UID_A
    assert event.ndef == encode_card_record(PROP16)
    assert decode_card_record(event.ndef) == PROP16


def test_no_repeats_while_the_card_lies_there(sim: UdpTagSim, reader: Running) -> None:
    tag = sim.place(UID_A, card_tlv(PROP16))
    reader.next_present()
    reads_before = tag.reads
    assert reader.during(2.0) == []
    # the reader really was polling the card all along (presence check every 0.1 s)
    assert tag.reads - reads_before >= 10


def test_retap_after_lift_counts_again(sim: UdpTagSim, reader: Running) -> None:
    sim.place(UID_A, card_tlv(PROP16))
    assert reader.next_present().uid == UID_A
    sim.lift()
    gone = reader.next()
    assert isinstance(gone, CardAbsent) and gone.uid == UID_A
    sim.place(UID_A, card_tlv(PROP16))
    assert reader.next_present().uid == UID_A


def test_swap_to_another_card_without_a_gap(sim: UdpTagSim, reader: Running) -> None:
    sim.place(UID_A, card_tlv(PROP16))
    assert reader.next_present().uid == UID_A
    sim.place(UID_B, card_tlv(CardId("bank", 2)))  # replaces A at once
    gone = reader.next()
    assert isinstance(gone, CardAbsent) and gone.uid == UID_A
    now = reader.next_present()
    assert now.uid == UID_B
    assert decode_card_record(now.ndef) == CardId("bank", 2)


def test_blank_tag_reads_as_uid_only(sim: UdpTagSim, reader: Running) -> None:
    sim.place(UID_A)  # factory state: CC present, empty NDEF message
    event = reader.next_present()
    assert (event.uid, event.ndef) == (UID_A, None)


def test_malformed_ndef_falls_back_to_the_uid(sim: UdpTagSim, reader: Running) -> None:
    garbage = b"\xff\x00\x13garbage that is not NDEF"
    sim.place(UID_A, bytes([0x03, len(garbage)]) + garbage + b"\xfe")
    event = reader.next_present()
    assert event.uid == UID_A
    assert event.ndef is None


def test_ndef_tlv_running_past_the_tag_falls_back_to_the_uid(
    sim: UdpTagSim, reader: Running
) -> None:
    # a TLV announcing 0xFFFF bytes makes nfcpy read past the last page: the tag NAKs
    sim.place(UID_A, b"\x03\xff\xff\xff\xd1\x01")
    event = reader.next_present()
    assert (event.uid, event.ndef) == (UID_A, None)


def test_card_pulled_away_during_its_read_is_not_a_tap(sim: UdpTagSim, reader: Running) -> None:
    # the tag leaves right after nfcpy's first READ (pages 0-3: the CC), before page 4
    sim.place(UID_A, card_tlv(PROP16), lift_after_reads=1)
    assert [e for e in reader.during(1.0) if isinstance(e, CardPresent)] == []
    assert sim.tag is None
    sim.place(UID_B, card_tlv(PROP16))
    assert reader.next_present().uid == UID_B


def test_ntag213_is_read_too(sim: UdpTagSim, reader: Running) -> None:
    sim.place(UID_B, card_tlv(CardId("event", 7)), model=NTAG213)
    event = reader.next_present()
    assert (event.uid, decode_card_record(event.ndef)) == (UID_B, CardId("event", 7))


def test_run_returns_promptly_after_stop_and_wake(sim: UdpTagSim) -> None:
    running = Running(NfcpyBackend(sim.path))
    running.next()
    started = time.monotonic()
    running.close()
    assert time.monotonic() - started < 0.8
    assert running.errors == []


def test_stopping_with_a_card_on_the_reader_reports_it_gone(sim: UdpTagSim) -> None:
    running = Running(NfcpyBackend(sim.path))
    running.next()
    sim.place(UID_A)
    running.next_present()
    running.close()
    gone = running.events.get_nowait()
    assert isinstance(gone, CardAbsent) and gone.uid == UID_A


def test_feedback_is_accepted_and_does_nothing(sim: UdpTagSim) -> None:
    backend = NfcpyBackend(sim.path)
    assert isinstance(backend, ReaderBackend)
    backend.feedback(Cue.READ)  # documented no-op: must not raise or touch the link
    assert len(sim.trace) == 0


# ------------------------------------------------------------------ device loss


def test_device_lost_raises_reader_error(sim: UdpTagSim) -> None:
    with unplug_hook(sim):
        running = Running(NfcpyBackend(sim.path))
        running.next()
        sim.unplug()
        running.thread.join(timeout=3.0)
        assert not running.thread.is_alive()
        assert len(running.errors) == 1
        assert isinstance(running.errors[0], ReaderError)
        assert "lost" in str(running.errors[0])
        # while the device is away, opening it fails with the plain reason
        with pytest.raises(ReaderError, match="not there"):
            NfcpyBackend(sim.path).run(lambda e: None, threading.Event())


def test_supervisor_reopens_a_lost_reader(sim: UdpTagSim) -> None:
    from drivers.supervisor import ReaderService

    inbox: queue.Queue[Input] = queue.Queue()
    deck = Deck({UID_A: PROP16})

    def wait_for(pred: Callable[[Input], bool], timeout: float = 3.0) -> Input:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                item = inbox.get(timeout=left)
            except queue.Empty:
                break
            if pred(item):
                return item
        pytest.fail("expected input never came")

    with unplug_hook(sim):
        service = ReaderService(NfcpyBackend(sim.path), inbox.put, deck, backoff=(0.05, 0.1))
        with service:
            wait_for(lambda i: isinstance(i, ReaderStatus) and i.connected)
            sim.place(UID_A)
            tapped = wait_for(lambda i: isinstance(i, CardTapped))
            assert isinstance(tapped, CardTapped) and tapped.card == PROP16
            sim.lift()
            wait_for(lambda i: isinstance(i, CardLifted))
            sim.unplug()
            lost = wait_for(lambda i: isinstance(i, ReaderStatus) and not i.connected)
            assert isinstance(lost, ReaderStatus) and "lost" in lost.detail
            opens_while_away = service.opens
            sim.replug()
            wait_for(lambda i: isinstance(i, ReaderStatus) and i.connected)
            assert service.opens > opens_while_away
            sim.place(UID_A)
            again = wait_for(lambda i: isinstance(i, CardTapped))
            assert isinstance(again, CardTapped) and again.card == PROP16


def test_malformed_ndef_card_is_identified_by_its_uid_through_the_service(
    sim: UdpTagSim,
) -> None:
    from drivers.supervisor import ReaderService

    inbox: queue.Queue[Input] = queue.Queue()
    with ReaderService(NfcpyBackend(sim.path), inbox.put, Deck({UID_B: CardId("bank", 3)})):
        sim.place(UID_B, b"\x03\x04\xff\xff\xff\xff\xfe")
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:
            item = inbox.get(timeout=max(0.01, deadline - time.monotonic()))
            if isinstance(item, CardTapped):
                assert (item.uid, item.card) == (UID_B, CardId("bank", 3))
                break
        else:
            pytest.fail("no tap")


# ------------------------------------------------------------------ writing cards


def test_write_card_onto_a_blank_tag_then_read_it_back(sim: UdpTagSim) -> None:
    tag = sim.place(UID_A)
    assert write_card(PROP16, sim.path, timeout=3.0) == UID_A
    expected = type2_ndef_tlv(encode_card_record(PROP16))
    assert tag.user_data()[: len(expected)] == expected
    sim.lift()
    running = Running(NfcpyBackend(sim.path))
    try:
        running.next()
        sim.place(tag)
        assert decode_card_record(running.next_present().ndef) == PROP16
    finally:
        running.close()


def test_write_card_formats_an_ntag_without_capability_container(sim: UdpTagSim) -> None:
    tag = sim.place(UID_A, b"", cc=b"\x00\x00\x00\x00")
    write_card(CardId("bank", 1), sim.path, timeout=3.0)
    assert tag.memory[12:16] == bytes([0xE1, 0x10, NTAG215.cc_size, 0x00])
    tlv = type2_ndef_tlv(encode_card_record(CardId("bank", 1)))
    assert tag.user_data()[: len(tlv)] == tlv


def test_write_card_refuses_a_read_only_tag(sim: UdpTagSim) -> None:
    tag = sim.place(UID_A, cc=bytes([0xE1, 0x10, 0x3E, 0x0F]))
    before = tag.user_data()
    with pytest.raises(TagError, match="locked"):
        write_card(PROP16, sim.path, timeout=3.0)
    assert tag.user_data() == before


def test_write_card_refuses_a_tag_whose_lock_bits_are_set(sim: UdpTagSim) -> None:
    # the CC still says "writable", but the static lock bits protect pages 4-15
    tag = sim.place(UID_A, lock=b"\xf0\xff")
    before = tag.user_data()
    with pytest.raises(TagError, match="refused"):
        write_card(PROP16, sim.path, timeout=3.0)
    assert tag.user_data() == before


def test_write_card_refuses_a_tag_too_small_for_the_record(sim: UdpTagSim) -> None:
    assert len(encode_card_record(PROP16)) > 6  # an 8-byte data area holds 6 NDEF bytes
    tag = sim.place(UID_A, cc=bytes([0xE1, 0x10, 0x01, 0x00]))
    with pytest.raises(TagError, match="too small"):
        write_card(PROP16, sim.path, timeout=3.0)
    assert tag.writes == 0


def test_write_card_keeps_another_message_unless_told(sim: UdpTagSim) -> None:
    tag = sim.place(UID_A, card_tlv(CardId("event", 1)))
    with pytest.raises(TagError, match=r"already holds.*use --overwrite to replace it"):
        write_card(PROP16, sim.path, timeout=3.0)
    assert tag.writes == 0
    write_card(PROP16, sim.path, timeout=3.0, overwrite=True)
    tlv = card_tlv(PROP16)
    assert tag.user_data()[: len(tlv)] == tlv


def test_write_card_takes_a_tag_holding_only_an_empty_record(sim: UdpTagSim) -> None:
    tag = sim.place(UID_A, b"\x03\x03\xd0\x00\x00\xfe")  # as some tags leave the factory
    write_card(PROP16, sim.path, timeout=3.0)
    tlv = card_tlv(PROP16)
    assert tag.user_data()[: len(tlv)] == tlv


def test_write_refuses_a_tag_that_is_not_type_2() -> None:
    import nfc.tag.tt3

    felica = object.__new__(nfc.tag.tt3.Type3Tag)  # what nfcpy hands over for a FeliCa card
    with pytest.raises(TagError, match=r"not an NFC Forum Type 2 tag.*Type3Tag"):
        write_message(felica, encode_card_record(PROP16))


def test_write_card_without_a_tag_times_out(sim: UdpTagSim) -> None:
    with pytest.raises(TagError, match="no tag"):
        write_card(PROP16, sim.path, timeout=0.3)


# ------------------------------------------------------------------ paths and errors


@pytest.mark.parametrize(
    "path",
    ["usb", "usb:054c:06c3", "usb:04e6", "usb:001:023", "tty:USB0:pn532", "tty:serial0:pn532",
     "tty:AMA0", "com:COM3:pn532", "udp", "udp:127.0.0.1:54321", "udp::50000"],
)  # fmt: skip
def test_accepted_paths(path: str) -> None:
    assert check_path(path) == path


@pytest.mark.parametrize("path", ["", "pcsc:ACR122", "usb:12345", "tty:USB0:acr122", "udp:h:x"])
def test_bad_paths_say_what_is_expected(path: str) -> None:
    with pytest.raises(ReaderPathError, match="expected usb"):
        NfcpyBackend(path)


def test_usb_reader_absent_is_a_reader_error() -> None:
    # this machine has no NFC reader on USB (and may lack USB entirely)
    with pytest.raises(ReaderError):
        NfcpyBackend("usb:054c:06c3").run(lambda e: None, threading.Event())


@pytest.mark.parametrize(
    ("err", "kind", "advice"),
    [
        (OSError(errno.ENOENT, "cannot find a suitable libusb-1.0"), ReaderUnavailable,
         "apt install libusb-1.0-0"),
        (OSError(errno.EBUSY, "Device or resource busy"), ReaderError, "pcscd"),
        (OSError(errno.EACCES, "Permission denied"), ReaderError, "plugdev"),
        (OSError(errno.ENODEV, "No such device"), ReaderError, "unplugged"),
    ],
)  # fmt: skip
def test_open_errors_carry_plain_advice(
    err: OSError, kind: type[ReaderError], advice: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert isinstance(translate_open_error(err, "usb:072f:2200"), kind)

    def failing_open(self: object, path: str) -> bool:
        raise err

    monkeypatch.setattr(nfc.ContactlessFrontend, "open", failing_open)
    with pytest.raises(kind, match=advice) as info:
        NfcpyBackend("usb:072f:2200").run(lambda e: None, threading.Event())
    assert info.value.__cause__ is err


def test_missing_nfcpy_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_nfc(name: str, *args: object, **kwargs: object) -> object:
        if name == "nfc" or name.startswith("nfc."):
            raise ImportError("No module named 'nfc'")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_nfc)
    with pytest.raises(ReaderUnavailable, match=r"ultibank\[nfc\]"):
        NfcpyBackend("usb")


# ------------------------------------------------------------------ the simulator itself


def test_simulator_is_identified_as_the_ntag_it_models(sim: UdpTagSim) -> None:
    for uid, model, product in ((UID_A, NTAG215, "NXP NTAG215"), (UID_B, NTAG213, "NXP NTAG213")):
        sim.place(uid, model=model)
        clf = nfc.ContactlessFrontend(sim.path)
        try:
            tag = clf.connect(
                rdwr={"targets": ["106A"], "on-connect": lambda tag: False, "iterations": 1},
                terminate=lambda: False,
            )
            assert tag.product == product
            assert tag.identifier.hex().upper() == uid
            assert len(tag.signature) == 32  # READ_SIG
        finally:
            clf.close()


def test_simulator_stays_mute_to_commands_before_selection(sim: UdpTagSim) -> None:
    sim.place(UID_A)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(0.2)

        def ask(frame: str) -> bytes | None:
            s.sendto(frame.encode(), sim.address)
            try:
                return s.recv(1024)
            except TimeoutError:
                return None

        assert ask("106A 3000") is None  # READ while IDLE
        assert ask("106A 26") == b"106A 4400"
        assert ask("106A 3000") is None  # READ while READY1: the tag drops to IDLE
        assert ask("106A 9320") is None  # ...so anticollision is ignored too
        assert ask("106A 26") == b"106A 4400"
        assert ask("106A 9320") == b"106A 88" + b"04a1b2" + b"%02x" % (0x88 ^ 0x04 ^ 0xA1 ^ 0xB2)


def test_simulator_answers_a_sens_req_still_pending_when_the_card_arrives(
    sim: UdpTagSim,
) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.settimeout(0.3)
        s.sendto(b"106A 26", sim.address)  # the reader polls an empty field...
        with pytest.raises(TimeoutError):
            s.recv(1024)
        s.sendto(b"106A 26", sim.address)
        deadline = time.monotonic() + 2.0
        while not [t for t in sim.trace if t.dir == "rx"][1:] and time.monotonic() < deadline:
            threading.Event().wait(0.005)
        sim.place(UID_A)  # ...and the card lands during its 1 s wait
        assert s.recv(1024) == b"106A 4400"


def test_simtag_lock_bits_are_one_time_programmable() -> None:
    tag = SimTag(UID_A)
    assert tag.write(4, b"abcd")
    assert tag.write(2, b"\x00\x00\x10\x00")  # lock page 4
    assert not tag.write(4, b"wxyz")
    assert tag.user_data()[:4] == b"abcd"
    assert tag.write(2, b"\x00\x00\x00\x00")  # clearing lock bits does nothing
    assert not tag.write(4, b"wxyz")
    assert not tag.write(0, b"\x00\x00\x00\x00")  # the UID pages are read-only
    assert tag.read(NTAG215.pages) is None  # past the end: NAK


def test_write_card_writes_the_classic_identities_and_refuses_one_the_edition_lacks(
    sim: UdpTagSim,
) -> None:
    """`ultibank write-card deed:12 / chance:3 / chest:3` (issue 12): written, read back by
    the reader as the card; `deed:99` refused in one line before a tag is asked for."""
    from bank.app.runtime import deck_cards
    from board_assets import load_edition
    from drivers.enroll import CardNameError
    from drivers.enroll import write_card as write_named

    classic = deck_cards(load_edition("classic-fr"))
    said: list[str] = []
    with pytest.raises(CardNameError, match=r"^deed:99: deed cards run 1\.\.28, not 99$"):
        write_named(sim.path, "deed:99", cards=classic, say=said.append, timeout=3.0)
    with pytest.raises(CardNameError, match=r"^deed:99: deed cards run 1\.\.28, not 99$"):
        write_named(sim.path, "deed:99", say=said.append, timeout=3.0)  # no edition: any
    assert said == []
    tag = sim.place(UID_A)
    for i, name in enumerate(["deed:12", "chance:3", "chest:3"]):
        assert write_named(sim.path, name, overwrite=i > 0, say=said.append, timeout=3.0) == 0
        assert said[-1] == f"wrote {name} on tag {UID_A}"
        assert decode_card_record(parse_type2_ndef(bytes(tag.memory))) == CardId.parse(name)
    sim.lift()
    running = Running(NfcpyBackend(sim.path))
    try:
        running.next()
        sim.place(tag)
        assert decode_card_record(running.next_present().ndef) == CardId("chest", 3)
    finally:
        running.close()
