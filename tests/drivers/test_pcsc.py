"""The PC/SC backend through the real pyscard and a real, private pcscd, against vpcd cards.

Nothing on the reader side is faked: ``drivers.pcsc`` talks to ``pcscd --foreground`` (started
by :mod:`tests.support.pcscd`) whose vsmartcard-vpcd driver forwards APDUs over TCP to
:class:`tests.support.vpcd_card.VirtualNtag`. pcscd polls vpcd every 400 ms, so cards are held
at least 0.6 s; waiting is polling with a deadline, never sleeping. Without pcscd or vpcd these
tests skip locally and fail under CI. The pure helpers at the end run everywhere.
"""

from __future__ import annotations

import contextlib
import itertools
import queue
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

from bank.unit.io import CardId, CardLifted, CardTapped, Cue, Input, ReaderStatus
from drivers.base import (
    CardAbsent,
    CardPresent,
    Presence,
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
from drivers.pcsc import (
    PcscBackend,
    PcscPathError,
    card_name,
    choose_reader,
    describe_atr,
    is_acr122,
    is_type2,
    parse_path,
    type2_bytes_needed,
    write_card,
)
from drivers.pcsc import main as pcsc_main
from drivers.supervisor import ReaderService
from tests.drivers.conformance import ReaderConformance
from tests.support.pcscd import (
    ACR122_PORT,
    ACR122_READER,
    PLAIN_PORT,
    PLAIN_READER,
    Pcscd,
    reader_event,
    wait_card_state,
    wait_until,
)
from tests.support.running import Running
from tests.support.vpcd_card import (
    CLASSIC_1K_ATR,
    NTAG213,
    NTAG_ATR,
    ULTRALIGHT,
    VirtualNtag,
    apdu_hex,
)

UID_A = "04A1B2C3D4E5F6"
UID_B = "04C0FFEE000001"
PROP16 = CardId("prop", 16)
BANK2 = CardId("bank", 2)
DECK = Deck({UID_A: PROP16, UID_B: BANK2})
ACR122 = f"{ACR122_READER} 00 00"
ACR122_PATH = "pcsc:ACR122"
T = TypeVar("T")


# ------------------------------------------------------------------ fixtures


@pytest.fixture
def daemon(pcscd_daemon: Pcscd) -> Pcscd:
    """The worker's private pcscd (tests/conftest.py: only one can run per machine)."""
    return pcscd_daemon


@pytest.fixture
def pcscd(daemon: Pcscd) -> Iterator[Pcscd]:
    """The module's pcscd, running (started again after a test that stopped it)."""
    if not daemon.running:
        daemon.start()
    yield daemon
    if not daemon.running:
        daemon.start()


@dataclass(frozen=True)
class Slot:
    """One slot of the vpcd reader: its pcscd name and the port a card connects to."""

    reader: str
    port: int

    @property
    def path(self) -> str:
        return f"pcsc:{self.reader}"


# Tests alternate between vpcd's two slots: pcscd needs up to one 400 ms poll to notice the
# previous test's card has gone, and meanwhile the next test already runs on the other slot.
_SLOTS = itertools.cycle(
    [Slot(f"{PLAIN_READER} 00 00", PLAIN_PORT), Slot(f"{PLAIN_READER} 00 01", PLAIN_PORT + 1)]
)


@pytest.fixture
def slot(pcscd: Pcscd) -> Slot:
    """An empty slot of the plain virtual reader for this test."""
    chosen = next(_SLOTS)
    wait_card_state(chosen.reader, present=False)
    return chosen


@pytest.fixture
def cards(slot: Slot) -> Iterator[Callable[..., VirtualNtag]]:
    """A factory of virtual cards laid on the test's slot; all are lifted after the test."""
    made: list[VirtualNtag] = []

    def lay(uid: str = UID_A, *, port: int = slot.port, **kwargs: object) -> VirtualNtag:
        card = VirtualNtag(uid, port=port, **kwargs)  # type: ignore[arg-type]
        made.append(card)
        card.insert()
        return card

    yield lay
    for card in made:
        card.remove()


@pytest.fixture
def plain(slot: Slot) -> Iterator[Running]:
    """The backend running on the plain virtual reader, already open (empty field)."""
    running = Running(PcscBackend(slot.path))
    opened = running.next()
    assert opened == CardAbsent(None, at=opened.at), "open must announce an empty field"
    yield running
    running.close()


# ------------------------------------------------------------------ the shared suite


class PcscWorld:
    """The conformance suite's world: vpcd NTAG215s; "unplug" is pcscd killed, as in a crash."""

    timeout = 4.0
    quiet_s = 0.8  # two pcscd polls (the 2 s case is test_a_card_lying_still_is_one_tap)

    def __init__(self, daemon: Pcscd, slot: Slot) -> None:
        self.daemon = daemon
        self.slot = slot
        self.backend = PcscBackend(slot.path)
        self.card: VirtualNtag | None = None

    def place(self, uid: str, ndef: bytes | None = None) -> object:
        self.lift()
        self.card = VirtualNtag(uid, ndef=ndef, port=self.slot.port)
        self.card.insert()
        return self.card

    def lift(self) -> None:
        if self.card is not None:
            self.card.remove()
            self.card = None

    def unplug(self) -> None:
        self.daemon.kill()

    def replug(self) -> None:
        self.daemon.start()


@pytest.mark.pcscd
class TestPcscConformance(ReaderConformance):
    @pytest.fixture
    def world(self, pcscd: Pcscd, slot: Slot) -> Iterator[PcscWorld]:
        world = PcscWorld(pcscd, slot)
        yield world
        world.lift()


# ------------------------------------------------------------------ reading


@pytest.mark.pcscd
def test_reads_uid_and_ndef_reading_only_the_pages_it_needs(
    plain: Running, cards: Callable[..., VirtualNtag]
) -> None:
    message = encode_card_record(PROP16)
    card = cards(UID_A, ndef=message)
    event = plain.next_present()
    assert (event.uid, event.ndef) == (UID_A, message)
    assert decode_card_record(event.ndef) == PROP16
    reads = [a for a in apdu_hex(card.apdus) if a.startswith("FFB0")]
    assert reads[0] == "FFB0000310", "NDEF reading starts with the capability container"
    # the first read brings pages 4-6, each further read 4 pages; nothing past the TLV is read
    tlv_pages = -(-(2 + len(message)) // 4)
    assert len(reads) == 1 + -(-max(0, tlv_pages - 3) // 4)


@pytest.mark.pcscd
def test_a_card_lying_still_is_one_tap(
    slot: Slot, pcscd: Pcscd, cards: Callable[..., VirtualNtag]
) -> None:
    inbox: queue.Queue[Input] = queue.Queue()
    with ReaderService(PcscBackend(slot.path), inbox.put, DECK, rearm_s=0.05):
        card = cards(UID_A)
        assert next_of(inbox, CardTapped).card == PROP16
        polls = card.atr_requests
        deadline = time.monotonic() + 2.0
        while (left := deadline - time.monotonic()) > 0:
            with contextlib.suppress(queue.Empty):
                item = inbox.get(timeout=left)
                assert not isinstance(item, CardTapped | CardLifted), f"lying still gave {item}"
    assert card.atr_requests - polls >= 4, "pcscd was not polling the card meanwhile"


def taps_and_lifts(inbox: queue.Queue[Input], quiet: float) -> list[Input]:
    """Taps and lifts from *inbox* until none has come for *quiet* seconds."""
    seen: list[Input] = []
    while True:
        try:
            item = inbox.get(timeout=quiet)
        except queue.Empty:
            return seen
        if isinstance(item, CardTapped | CardLifted):
            seen.append(item)


def lay_lift_lay(slot: Slot, dwell: float, lift: float, rounds: int) -> None:
    """Lay a card for *dwell* s, lift it for *lift* s, *rounds* times, then lift it for good.

    Lifting closes the card's vpcd connection, so pcscd sees every lift, however short, for
    at least one of its 400 ms polls: the worst case of a polling reader.
    """
    for _ in range(rounds):
        card = VirtualNtag(UID_A, port=slot.port)
        card.insert()
        threading.Event().wait(dwell)
        card.remove()
        threading.Event().wait(lift)
    card = VirtualNtag(UID_A, port=slot.port)
    card.insert()
    threading.Event().wait(dwell)
    card.remove()


@pytest.mark.pcscd
def test_a_short_lift_on_pcscd_is_one_tap_with_the_default_rearm(slot: Slot, pcscd: Pcscd) -> None:
    """Lay 0.6 s, lift 0.1 s, lay again (five times): one tap, as the player meant."""
    inbox: queue.Queue[Input] = queue.Queue()
    backend = PcscBackend(slot.path)
    with ReaderService(backend, inbox.put, DECK) as service:
        assert service.wait_connected(3.0)
        lay_lift_lay(slot, dwell=0.6, lift=0.1, rounds=5)
        seen = taps_and_lifts(inbox, quiet=service.debouncer.rearm_s + 2 * backend.poll_s)
    taps = [i for i in seen if isinstance(i, CardTapped)]
    assert len(taps) == 1, f"a 0.1 s lift on pcscd counted as a new tap: {seen}"
    assert isinstance(seen[-1], CardLifted), f"the final lift was never posted: {seen}"


@pytest.mark.pcscd
def test_a_lift_longer_than_the_rearm_on_pcscd_is_a_new_tap(slot: Slot, pcscd: Pcscd) -> None:
    inbox: queue.Queue[Input] = queue.Queue()
    backend = PcscBackend(slot.path)
    # pcscd sees a lift L as an absence of at least L minus one poll: past the re-arm at any phase
    lift = backend.rearm_s + backend.poll_s + 0.1
    with ReaderService(backend, inbox.put, DECK) as service:
        assert service.wait_connected(3.0)
        lay_lift_lay(slot, dwell=0.6, lift=lift, rounds=1)
        seen = taps_and_lifts(inbox, quiet=service.debouncer.rearm_s + 2 * backend.poll_s)
    assert [type(i) for i in seen] == [CardTapped, CardLifted, CardTapped, CardLifted], seen


@pytest.mark.pcscd
def test_a_swap_while_the_loop_looks_away_is_seen_by_the_event_counter(
    slot: Slot, pcscd: Pcscd, cards: Callable[..., VirtualNtag]
) -> None:
    """Lift A and lay B while the backend is busy: the state reads "present" both times,
    only pcsc-lite's event counter tells the cards apart."""
    release = threading.Event()
    events: queue.Queue[Presence] = queue.Queue()

    def slow_consumer(event: Presence) -> None:
        events.put(event)
        if isinstance(event, CardPresent) and event.uid == UID_A:
            release.wait(10.0)  # the daemon is busy: the backend's loop is not looking

    running = Running(PcscBackend(slot.path), emit=slow_consumer)
    running.events = events
    try:
        assert isinstance(running.next(), CardAbsent)
        first = cards(UID_A)
        assert running.next_present().uid == UID_A
        counter = wait_card_state(slot.reader, present=True)
        first.remove()
        cards(UID_B)
        # wait until pcscd has seen both the removal and the insertion
        assert wait_until(
            lambda: (event := reader_event(slot.reader)) is not None and event[0] >= counter + 2,
            3.0,
        ), "pcscd never saw the swap"
        assert reader_event(slot.reader) is not None
        release.set()
        gone = running.next()
        assert gone == CardAbsent(UID_A, at=gone.at), "the swapped-out card was not reported gone"
        assert running.next_present().uid == UID_B, "the swapped-in card was not read"
    finally:
        release.set()
        running.close()


@pytest.mark.pcscd
def test_a_card_pulled_mid_read_is_not_a_tap(
    slot: Slot, plain: Running, cards: Callable[..., VirtualNtag]
) -> None:
    # answers FF CA and the first FF B0, then leaves during the second page read
    pulled = cards("04BADBADBADBAD", ndef=encode_card_record(PROP16), pull_after=2)
    assert pulled.pulled.wait(3.0), "the backend never started reading the card"
    assert wait_until(lambda: not reader_present(slot.reader), 2.0)
    seen = plain.during(0.5)  # the read is over: a tap would have come before the absence
    assert not [e for e in seen if isinstance(e, CardPresent)], f"a cut-short read tapped: {seen}"
    pulled.remove()
    cards(UID_B)
    assert plain.next_present().uid == UID_B, "the next card after a cut-short read was lost"


def reader_present(reader: str) -> bool:
    event = reader_event(reader)
    return event is not None and bool(event[1] & 0x20)


@pytest.mark.pcscd
@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"\x03\x40\xd1\x01" + b"\xfe", id="tlv-longer-than-the-tag"),
        pytest.param(type2_ndef_tlv(b"\xd9\xff\xff\xff"), id="garbage-ndef-message"),
        pytest.param(bytes.fromhex("E1 10 3E 00"), id="no-tlv-structure"),
    ],
)
def test_a_malformed_ndef_falls_back_to_the_uid(
    slot: Slot, pcscd: Pcscd, cards: Callable[..., VirtualNtag], data: bytes
) -> None:
    inbox: queue.Queue[Input] = queue.Queue()
    service = ReaderService(PcscBackend(slot.path), inbox.put, DECK, rearm_s=0.05)
    with service:
        cards(UID_A, data=data)
        tap = next_of(inbox, CardTapped)
        assert (tap.uid, tap.card) == (UID_A, PROP16)


def next_of(inbox: queue.Queue[Input], kind: type[T], timeout: float = 3.0) -> T:
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            item = inbox.get(timeout=left)
        except queue.Empty:
            break
        if isinstance(item, kind):
            return item
    pytest.fail(f"no {kind.__name__} within {timeout} s")


@pytest.mark.pcscd
def test_pcscd_stopping_ends_run_with_a_reader_error(slot: Slot, pcscd: Pcscd) -> None:
    running = Running(PcscBackend(slot.path))
    assert isinstance(running.next(), CardAbsent)
    pcscd.stop()
    running.thread.join(3.0)
    assert not running.thread.is_alive(), "run() kept going after pcscd stopped"
    assert len(running.errors) == 1 and isinstance(running.errors[0], ReaderError)
    assert "pcscd" in str(running.errors[0])


@pytest.mark.pcscd
def test_pcscd_killed_mid_game_the_reader_recovers_and_reads_the_next_tap(
    slot: Slot, pcscd: Pcscd, cards: Callable[..., VirtualNtag]
) -> None:
    inbox: queue.Queue[Input] = queue.Queue()
    service = ReaderService(
        PcscBackend(slot.path), inbox.put, DECK, rearm_s=0.05, backoff=(0.05, 0.1, 0.2)
    )
    with service:
        assert next_of(inbox, ReaderStatus).connected
        cards(UID_A)
        assert next_of(inbox, CardTapped).uid == UID_A
        pcscd.kill()
        lost = next_of(inbox, ReaderStatus)
        assert not lost.connected and "pcscd" in lost.detail
        pcscd.start()
        assert next_of(inbox, ReaderStatus).connected
        # the old card's socket died with pcscd: the reopened reader finds the field empty
        lifted = next_of(inbox, CardLifted)
        assert lifted.uid == UID_A
        cards(UID_B)  # the old card's socket died with pcscd: a new tap
        assert next_of(inbox, CardTapped).uid == UID_B


@pytest.mark.pcscd
def test_a_card_held_by_another_program_is_read_once_released(
    slot: Slot, cards: Callable[..., VirtualNtag]
) -> None:
    from smartcard import scard

    cards(UID_A)
    wait_card_state(slot.reader, present=True)
    _, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
    try:
        rc, handle, _ = scard.SCardConnect(
            context, slot.reader, scard.SCARD_SHARE_EXCLUSIVE, scard.SCARD_PROTOCOL_T1
        )
        assert rc == scard.SCARD_S_SUCCESS
        running = Running(PcscBackend(slot.path))
        try:
            seen = running.during(0.5)
            assert not [e for e in seen if isinstance(e, CardPresent)], seen
            assert not running.errors, "a busy card made the backend give up the reader"
            scard.SCardDisconnect(handle, scard.SCARD_LEAVE_CARD)
            assert running.next_present().uid == UID_A
        finally:
            running.close()
    finally:
        scard.SCardReleaseContext(context)


@pytest.mark.pcscd
def test_no_reader_matching_the_filter_is_a_reader_error(pcscd: Pcscd) -> None:
    backend = PcscBackend("pcsc:OMNIKEY")
    with pytest.raises(ReaderError, match=r"no PC/SC reader matching 'OMNIKEY'.*Virtual PCD"):
        backend.run(lambda event: None, threading.Event())


# ------------------------------------------------------------------ feedback


@pytest.mark.pcscd
def test_acr122u_blinks_and_beeps_on_read_and_error(
    pcscd: Pcscd, cards: Callable[..., VirtualNtag]
) -> None:
    wait_card_state(ACR122, present=False)
    running = Running(PcscBackend(ACR122_PATH))
    try:
        assert isinstance(running.next(), CardAbsent)
        card = cards(UID_A, port=ACR122_PORT)
        assert running.next_present().uid == UID_A
        running.backend.feedback(Cue.READ)
        assert card.wait_for("led", 1), "no LED/buzzer command reached the ACR122U"
        running.backend.feedback(Cue.ERROR)
        assert card.wait_for("led", 2)
        assert apdu_hex(card.led) == ["FF0040A00401010101", "FF0040500403020201"]
        running.backend.feedback(Cue.KACHING)  # the unit's speaker plays it; the reader is quiet
        assert not card.wait_for("led", 3, timeout=0.3)
    finally:
        running.close()


@pytest.mark.pcscd
def test_other_readers_get_no_feedback_apdu(
    plain: Running, cards: Callable[..., VirtualNtag]
) -> None:
    card = cards(UID_A)
    plain.next_present()
    plain.backend.feedback(Cue.READ)
    assert not card.wait_for("led", 1, timeout=0.5)
    assert not [a for a in apdu_hex(card.apdus) if a.startswith("FF0040")]


# ------------------------------------------------------------------ writing


@pytest.mark.pcscd
def test_write_card_on_a_blank_tag_then_read_it_back(
    slot: Slot, pcscd: Pcscd, cards: Callable[..., VirtualNtag]
) -> None:
    tag = cards(UID_B, model=NTAG213)
    assert write_card(BANK2, slot.path, timeout=3.0) == UID_B
    tlv = type2_ndef_tlv(encode_card_record(BANK2))
    assert tag.data_area(len(tlv)) == tlv
    writes = [a for a in apdu_hex(tag.apdus) if a.startswith("FFD6")]
    assert writes[-1].startswith("FFD6000404"), "page 4 (the TLV length) must be written last"
    running = Running(PcscBackend(slot.path))
    try:
        event = running.next_present()
        assert decode_card_record(event.ndef) == BANK2
    finally:
        running.close()
    # writing it again is a no-op; another card's record needs --overwrite
    assert write_card(BANK2, slot.reader.lower(), timeout=3.0) == UID_B
    with pytest.raises(
        TagError, match=r"already holds the record of bank:2; use --overwrite to replace it"
    ):
        write_card(PROP16, slot.path, timeout=3.0)
    write_card(PROP16, slot.path, timeout=3.0, overwrite=True)
    assert tag.data_area(len(type2_ndef_tlv(encode_card_record(PROP16)))) == type2_ndef_tlv(
        encode_card_record(PROP16)
    )


@pytest.mark.pcscd
@pytest.mark.parametrize(
    ("options", "reason"),
    [
        pytest.param({"locked": True}, "locked", id="locked"),
        pytest.param({"cc": bytes.fromhex("E110120F")}, "read-only", id="cc-read-only"),
        pytest.param({"cc": bytes.fromhex("E1100200")}, "too large", id="too-small"),
        pytest.param({"cc": bytes(4)}, "not formatted", id="unformatted"),
        pytest.param({"atr": CLASSIC_1K_ATR}, "not an NFC Forum Type 2", id="mifare-classic"),
    ],
)
def test_write_is_refused_with_a_reason(
    slot: Slot,
    pcscd: Pcscd,
    cards: Callable[..., VirtualNtag],
    options: dict[str, object],
    reason: str,
) -> None:
    tag = cards(UID_A, model=NTAG213, **options)
    before = bytes(tag.memory)
    with pytest.raises(TagError, match=reason):
        write_card(PROP16, slot.path, timeout=3.0)
    assert bytes(tag.memory) == before, "a refused write changed the tag"


@pytest.mark.pcscd
def test_write_refused_by_lock_bits_alone(
    slot: Slot, pcscd: Pcscd, cards: Callable[..., VirtualNtag]
) -> None:
    tag = cards(UID_A, model=NTAG213)
    tag.memory[10] = 0xF0  # lock bits for pages 4-7; the CC still says writable
    with pytest.raises(TagError, match="page 4 is write-protected"):
        write_card(PROP16, slot.path, timeout=3.0)


@pytest.mark.pcscd
def test_a_tag_pulled_mid_write_is_refused_and_stays_readable(
    slot: Slot, pcscd: Pcscd, cards: Callable[..., VirtualNtag]
) -> None:
    # FF CA, header, old NDEF, first page write: then the tag leaves
    tag = cards(UID_A, model=NTAG213, pull_after=4)
    with pytest.raises(TagError, match=r"after 1 of \d+ pages.*still reads as before"):
        write_card(PROP16, slot.path, timeout=3.0)
    assert tag.page(4) == bytes.fromhex("0300FE00"), "a torn write left a half-written length"


@pytest.mark.pcscd
def test_two_writes_in_a_row_the_second_tag_laid_as_the_first_leaves(
    slot: Slot, pcscd: Pcscd
) -> None:
    """Write a tag, take it away and start the next write at once: until its next poll, pcscd
    still lists the tag that left, and connecting to it succeeds. The write must wait for the
    next tag, not fail with "the tag left the reader mid-write" (issue 10, item 10)."""
    first = VirtualNtag(UID_A, model=NTAG213, port=slot.port)
    second = VirtualNtag(UID_B, model=NTAG213, port=slot.port)
    first.insert()
    try:
        assert write_card(PROP16, slot.path, timeout=3.0) == UID_A
        # lift it just after one of pcscd's polls: its next look is 400 ms away
        polls = first.atr_requests
        assert wait_until(lambda: first.atr_requests > polls, 2.0), "pcscd is not polling"
        first.remove()
        threading.Timer(0.3, second.insert).start()
        assert write_card(BANK2, slot.path, timeout=3.0) == UID_B
        tlv = type2_ndef_tlv(encode_card_record(BANK2))
        assert second.data_area(len(tlv)) == tlv
    finally:
        first.remove()
        second.remove()


@pytest.mark.pcscd
def test_a_tag_that_never_answers_is_refused_saying_nothing_was_written(
    slot: Slot, pcscd: Pcscd, cards: Callable[..., VirtualNtag]
) -> None:
    tag = cards(UID_A, model=NTAG213, pull_after=0)  # drops the link at the first APDU
    before = bytes(tag.memory)
    with pytest.raises(TagError, match="stopped answering before anything was written"):
        write_card(PROP16, slot.path, timeout=1.5)
    assert bytes(tag.memory) == before


@pytest.mark.pcscd
def test_write_waits_for_a_tag_and_gives_up(slot: Slot, pcscd: Pcscd) -> None:
    started = time.monotonic()
    with pytest.raises(TagError, match="no tag was laid"):
        write_card(PROP16, slot.path, timeout=0.3)
    assert time.monotonic() - started < 2.0


@pytest.mark.pcscd
def test_the_diagnostic_lists_readers_and_the_card_on_them(
    slot: Slot, cards: Callable[..., VirtualNtag], capsys: pytest.CaptureFixture[str]
) -> None:
    cards(UID_B, ndef=encode_card_record(BANK2))
    wait_card_state(slot.reader, present=True)
    assert pcsc_main([slot.reader]) == 0
    out = capsys.readouterr().out
    assert f"{slot.reader}: MIFARE Ultralight / NTAG UID {UID_B}" in out
    assert out.rstrip().endswith("= bank:2")
    assert pcsc_main(["no such reader"]) == 1
    assert "no PC/SC reader matches 'no such reader'" in capsys.readouterr().err


# ------------------------------------------------------------------ pure helpers (no pcscd)


def test_a_missing_pyscard_names_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "smartcard", None)  # import smartcard -> ImportError
    with pytest.raises(ReaderUnavailable, match=r"ultibank\[pcsc\].*pcscd and libpcsclite-dev"):
        PcscBackend("pcsc")


def test_paths() -> None:
    assert parse_path("pcsc") == ""
    assert parse_path("PCSC:ACR122 ") == "ACR122"
    with pytest.raises(PcscPathError, match="pcsc:<part of the reader name>"):
        parse_path("usb:072f:2200")


def test_choose_reader_prefers_contactless_readers_without_a_filter() -> None:
    readers = ["Yubico YubiKey OTP+FIDO+CCID 00 00", "ACS ACR122U PICC Interface 00 00"]
    assert choose_reader(readers, "") == readers[1]
    assert choose_reader(readers, "yubi") == readers[0]
    with pytest.raises(ReaderError, match="no PC/SC reader matching 'omnikey'"):
        choose_reader(readers, "omnikey")
    with pytest.raises(ReaderError, match="pcscd sees: none"):
        choose_reader([], "")
    assert is_acr122(readers[1]) and not is_acr122(readers[0])


def test_atr_card_names() -> None:
    assert card_name(NTAG_ATR) == 0x0003 and is_type2(NTAG_ATR)
    assert card_name(CLASSIC_1K_ATR) == 0x0001 and not is_type2(CLASSIC_1K_ATR)
    assert "MIFARE Classic 1K" in describe_atr(CLASSIC_1K_ATR)
    desfire_ev1 = bytes.fromhex("3B8180018080")
    assert card_name(desfire_ev1) is None and not is_type2(desfire_ev1)


def test_type2_bytes_needed_walks_the_tlvs() -> None:
    cc = bytes(12) + bytes.fromhex("E1103E00")
    end = 16 + 496
    assert type2_bytes_needed(cc, end) == 20  # not even a TLV header yet
    assert type2_bytes_needed(cc + bytes.fromhex("0300FE00"), end) == 18
    assert type2_bytes_needed(cc + bytes.fromhex("03 20 D1 01"), end) == 16 + 2 + 0x20
    # a lock-control TLV, then a long-form NDEF TLV of 300 bytes
    memory = cc + bytes.fromhex("01 03 A0 10 44 03 FF 01 2C 00")
    assert type2_bytes_needed(memory, end) == 16 + 5 + 4 + 300
    assert type2_bytes_needed(cc + bytes.fromhex("00 00 FE 00"), end) == 19
    assert type2_bytes_needed(cc + bytes.fromhex("03 FF FF FF"), end) == end  # capped


def test_ultralight_model_is_small() -> None:
    # the too-small write test relies on a tag whose data area cannot hold any card record
    assert len(type2_ndef_tlv(encode_card_record(BANK2))) > 16
    assert ULTRALIGHT.pages == 16


@pytest.mark.pcscd
def test_write_card_writes_the_classic_identities_and_refuses_one_the_edition_lacks(
    slot: Slot, pcscd: Pcscd, cards: Callable[..., VirtualNtag]
) -> None:
    """`ultibank write-card deed:12 / chance:3 / chest:3 --edition classic-fr` (issue 12)."""
    from bank.app.runtime import deck_cards
    from board_assets import load_edition
    from drivers.enroll import CardNameError
    from drivers.enroll import write_card as write_named

    classic = deck_cards(load_edition("classic-fr"))
    said: list[str] = []
    with pytest.raises(CardNameError, match=r"^deed:99: deed cards run 1\.\.28, not 99$"):
        write_named(slot.path, "deed:99", cards=classic, say=said.append, timeout=3.0)
    assert said == []  # refused before a tag was asked for
    tag = cards(UID_B, model=NTAG213)
    for i, name in enumerate(["deed:12", "chance:3", "chest:3", "bank:dog"]):
        assert write_named(slot.path, name, cards=classic, overwrite=i > 0, say=said.append) == 0
        card = classic.parse(name)
        tlv = type2_ndef_tlv(encode_card_record(card))
        assert tag.data_area(len(tlv)) == tlv
        assert said[-1] == f"wrote {card} on tag {UID_B}"
    assert decode_card_record(parse_type2_ndef(bytes(tag.memory))) == CardId("bank", 1)


@pytest.mark.pcscd
def test_a_classic_enrolment_through_pcscd(slot: Slot, pcscd: Pcscd, tmp_path: Path) -> None:
    """`ultibank enroll --edition classic-fr --only deed:12 chest:3` on the real pcscd: a tag
    written for the Ultime box is refused as a card of another edition, blank ones enrolled."""
    from bank.app.runtime import deck_cards
    from board_assets import load_edition
    from drivers.deck import load_deck, with_foreign
    from drivers.enroll import enroll

    classic = deck_cards(load_edition("classic-fr"))
    deck = tmp_path / "deck.toml"
    said: queue.Queue[str] = queue.Queue()

    def next_line(containing: str) -> None:
        deadline = time.monotonic() + 30  # a loaded machine (parallel tests) is slower
        while containing not in said.get(timeout=max(0.01, deadline - time.monotonic())):
            pass

    kwargs = {"only": ["deed:12", "chest:3"], "say": said.put, "card_timeout": 30.0,
              "cards": classic}  # fmt: skip
    worker = threading.Thread(
        target=enroll, args=(PcscBackend(slot.path), deck), kwargs=kwargs, daemon=True
    )
    worker.start()
    next_line("[1/2] tap deed 12 (Avenue Mozart)")
    for uid, ndef, then in (
        (UID_A, encode_card_record(PROP16), "carries the record of prop:16, a card of another"),
        (UID_B, None, "[2/2] tap Caisse de communauté 3"),
        ("04C0FFEE000003", None, "done: 2 cards"),
    ):
        tag = VirtualNtag(uid, ndef=ndef, port=slot.port)
        tag.insert()
        try:
            next_line(then)
        finally:
            tag.remove()
    worker.join(10)
    saved = load_deck(deck, with_foreign(classic.cards))
    assert saved.card_for(UID_B) == CardId("deed", 12)
    assert saved.card_for("04C0FFEE000003") == CardId("chest", 3)
    assert saved.card_for(UID_A) is None
