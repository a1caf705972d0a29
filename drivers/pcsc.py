"""The PC/SC reader backend: contactless readers that pcscd drives, read through pyscard.

========================================  =================================================
reader                                    notes
========================================  =================================================
ACS ACR122U (``ACS ACR122U PICC ...``)    any firmware, including today's 2.15/2.16 that
                                          nfcpy cannot drive; buzzer and LEDs confirm reads
ACS ACR1252U, ACR1255U-J1, ACR1281U       UID and Type 2 NDEF; no feedback (their buzzer
                                          takes a different, escape-command protocol)
any other PC/SC contactless reader        UID through ``FF CA``; NDEF where the reader
(Identiv uTrust, HID OMNIKEY 5x22, ...)   maps ``FF B0`` onto Type 2 page reads
vsmartcard-vpcd ``Virtual PCD``           tests only (it listens on every interface)
========================================  =================================================

=============================================  ============================================
tag                                            what is read
=============================================  ============================================
NTAG213/215/216, MIFARE Ultralight (C):        UID (7 bytes) and the NDEF message
NFC Forum Type 2 (ATR card name 0003/003A)     (``FF B0 00 <page> 10``, CC at page 3);
                                               :func:`write_card` writes these only
any other ISO 14443 card (MIFARE Classic,      UID only (``FF CA 00 00 00``); the deck maps it
DESFire, bank cards, phones)                   to a card
=============================================  ============================================

Paths: ``pcsc`` (the first contactless-looking reader pcscd offers) or ``pcsc:<filter>``,
where the filter is a case-insensitive part of the reader name (``pcsc:ACR122``).

The backend watches its reader with a raw ``SCardGetStatusChange`` loop, not pyscard's
``CardMonitor`` (whose thread dies silently when pcscd does). pcsc-lite's event counter, kept
in the top 16 bits of ``dwEventState``, shows a card swapped for another between two looks,
which the state bits alone (present, present) hide. The loop also watches the
``\\\\?PnP?\\Notification`` pseudo-reader, so a change of the reader list is noticed at once. When
pcscd goes away (``SCARD_E_NO_SERVICE``, ``SCARD_E_SERVICE_STOPPED``, a communication or RPC
error) ``run`` raises :class:`ReaderError` and the supervisor reopens a fresh context. A read
cut short by the card leaving the field is not a tap: nothing is emitted for it.

pyscard is imported inside this module only, so a machine without it loses only this backend.
Imports ``bank.unit.io``, ``drivers.base``, ``drivers.debounce``, ``drivers.identity``, the
standard library, and pyscard lazily.
"""

from __future__ import annotations

import argparse
import logging
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bank.unit.io import CardId, Cue
from drivers.base import (
    CardAbsent,
    CardPresent,
    DriverError,
    Presence,
    ReaderError,
    ReaderUnavailable,
    TagError,
)
from drivers.debounce import rearm_for_poll
from drivers.deck import default_cards
from drivers.identity import (
    DATA_START,
    NDEF_TLV,
    NULL_TLV,
    TERMINATOR_TLV,
    decode_card_record,
    encode_card_record,
    parse_type2_cc,
    parse_type2_ndef,
    type2_write_image,
)

log = logging.getLogger(__name__)

#: the pseudo-reader whose state changes when a reader is plugged in or out
PNP_READER = "\\\\?PnP?\\Notification"
#: how long one SCardGetStatusChange may block; bounds how late a lost SCardCancel is noticed.
#: It does not bound how soon a card is seen: pcscd wakes the call as soon as it sees a change.
POLL_MS = 500
#: pcsc-lite looks at a reader whose driver has no event thread of its own (vsmartcard-vpcd,
#: readers without an interrupt endpoint) every 400 ms (``PCSCLITE_STATUS_POLL_RATE``, fixed
#: when pcscd is built); nothing a client does makes it look sooner
PCSCD_POLL_S = 0.4
#: reader-name fragments that mark a contactless reader, preferred when no filter is given
_CONTACTLESS_HINTS = ("PICC", "CONTACTLESS", "NFC", "ACR122", "ACR125", "ACR128", "-CL", " CL ")
#: the registered application provider of the PC/SC part-3 storage-card ATR
_PCSC_RID = bytes.fromhex("A000000306")
#: PC/SC part-3 card names of NFC Forum Type 2 tags
_TYPE2_CARD_NAMES = {0x0003: "MIFARE Ultralight / NTAG", 0x003A: "MIFARE Ultralight C"}
_OTHER_CARD_NAMES = {
    0x0001: "MIFARE Classic 1K",
    0x0002: "MIFARE Classic 4K",
    0x0026: "MIFARE Mini",
    0x0004: "MIFARE DESFire",
}

#: this many NULL TLVs in a row end the walk: the rest of the data area is blank
_NULL_RUN = 16

GET_UID = [0xFF, 0xCA, 0x00, 0x00, 0x00]
_SW_OK = (0x90, 0x00)

# ACR122U ``FF 00 40 <LED control> 04 <T1> <T2> <repetitions> <buzzer>``: T1/T2 in 100 ms.
# LED control bits: 0x80 green blinks, 0x40 red blinks, 0x20/0x10 initial green/red state;
# without the state-mask bits the LEDs return to what the reader was showing.
_ACR122_CUES = {
    Cue.READ: [0xFF, 0x00, 0x40, 0xA0, 0x04, 0x01, 0x01, 0x01, 0x01],  # green blink, one beep
    Cue.ERROR: [0xFF, 0x00, 0x40, 0x50, 0x04, 0x03, 0x02, 0x02, 0x01],  # red, two long beeps
}


class PcscPathError(DriverError, ValueError):
    """A reader path that is not ``pcsc`` or ``pcsc:<name filter>``."""


@dataclass(frozen=True, slots=True)
class ReadResult:
    """What one read of a tag gave."""

    uid: str
    ndef: bytes | None
    atr: bytes


class _CutShort(Exception):
    """The card stopped answering mid-exchange (pulled away, or the reader lost it)."""


class _Busy(_CutShort):
    """Another program holds the card exclusively (a tag writer, ``pcsc_scan -r``...)."""


def _import_scard() -> Any:
    try:
        from smartcard import scard
    except (ImportError, OSError) as err:
        raise ReaderUnavailable(
            f"the PC/SC backend needs pyscard, which cannot be imported ({err}): "
            "pip install 'ultibank[pcsc]'; it needs pcscd and libpcsclite-dev"
        ) from err
    return scard


def parse_path(path: str) -> str:
    """The reader-name filter of ``pcsc`` / ``pcsc:<filter>`` ("" for any reader)."""
    scheme, _, rest = path.strip().partition(":")
    if scheme.lower() != "pcsc":
        raise PcscPathError(
            f"not a PC/SC reader path: {path!r} (use pcsc, or pcsc:<part of the reader name>)"
        )
    return rest.strip()


def is_acr122(reader: str) -> bool:
    """Whether *reader* is an ACR122U (or its built-in twin), whose buzzer takes ``FF 00 40``."""
    return "ACR122" in reader.upper()


def card_name(atr: bytes) -> int | None:
    """The PC/SC part-3 card name in a contactless storage-card ATR, None for other ATRs."""
    if len(atr) >= 15 and atr[5] == 0x4F and atr[7:12] == _PCSC_RID:
        return atr[13] << 8 | atr[14]
    return None


def is_type2(atr: bytes) -> bool:
    """Whether the ATR says NFC Forum Type 2 (MIFARE Ultralight family, NTAG21x)."""
    return card_name(atr) in _TYPE2_CARD_NAMES


def describe_atr(atr: bytes) -> str:
    """A short human name for the card behind *atr*."""
    name = card_name(atr)
    if name is None:
        return f"an ISO 14443-4 or unknown card (ATR {atr.hex().upper()})"
    known = _TYPE2_CARD_NAMES.get(name) or _OTHER_CARD_NAMES.get(name)
    return known or f"card type {name:04X} (ATR {atr.hex().upper()})"


def type2_bytes_needed(memory: bytes, end: int) -> int:
    """How many bytes of Type 2 memory (from page 0) hold the NDEF TLV, as far as *memory* shows.

    Walks the TLVs read so far; a header or value running past what was read asks for more,
    never past *end* (the data area's end). Equal to ``len(memory)`` or less once complete.
    """
    i = DATA_START
    nulls = 0
    while i < end:
        short = i >= len(memory) or memory[i] not in (NULL_TLV, TERMINATOR_TLV)
        if i + 4 > len(memory) and short:
            return min(i + 4, end)  # a TLV header (up to 4 bytes) not fully read yet
        tag = memory[i]
        if tag == NULL_TLV:
            # NULL TLVs pad a few bytes; a long run is a data area never formatted: stop
            # there rather than read every page of an empty tag
            nulls += 1
            if nulls >= _NULL_RUN:
                return i + 1
            i += 1
            continue
        nulls = 0
        if tag == TERMINATOR_TLV:
            return i + 1
        length, header = memory[i + 1], 2
        if length == 0xFF:
            length, header = memory[i + 2] << 8 | memory[i + 3], 4
        if tag == NDEF_TLV:
            return min(i + header + length, end)
        i += header + length
    return end


class _Scard:
    """The few pyscard calls the backend makes, with results checked and errors translated."""

    def __init__(self, scard: Any) -> None:
        self.s = scard
        self.gone = {
            scard.SCARD_E_NO_SERVICE,
            scard.SCARD_E_SERVICE_STOPPED,
            scard.SCARD_F_COMM_ERROR,
            scard.SCARD_E_INVALID_HANDLE,
            0x800706BA,  # RPC_S_SERVER_UNAVAILABLE (Windows, pcsc-lite over RPC)
            0x800706BE,  # RPC_S_CALL_FAILED
            0x80070006,  # ERROR_INVALID_HANDLE: the context died with its service
        }

    def message(self, code: int) -> str:
        try:
            text = str(self.s.SCardGetErrorMessage(code)).strip()
        except Exception:  # pyscard raises odd types for unknown codes
            text = "unknown error"
        return f"{text} (0x{code:08X})"

    def service_gone(self, code: int, doing: str) -> None:
        """Raise ReaderError when *code* says pcscd went away."""
        if code in self.gone:
            raise ReaderError(
                f"pcscd stopped answering while {doing}: {self.message(code)}; "
                "is pcscd running (systemctl status pcscd)?"
            )

    def establish(self) -> Any:
        rc, context = self.s.SCardEstablishContext(self.s.SCARD_SCOPE_USER)
        rc = _code(rc)
        if rc != self.s.SCARD_S_SUCCESS:
            raise ReaderError(
                f"cannot reach pcscd: {self.message(rc)}; install and start it "
                "(apt-get install pcscd; systemctl start pcscd)"
            )
        return context

    def release(self, context: Any) -> None:
        try:
            self.s.SCardReleaseContext(context)
        except Exception as err:  # a dead context cannot be released; nothing to do
            log.debug("releasing the PC/SC context: %s", err)

    def readers(self, context: Any) -> list[str]:
        rc, readers = self.s.SCardListReaders(context, [])
        rc = _code(rc)
        if rc == self.s.SCARD_E_NO_READERS_AVAILABLE:
            return []
        self.service_gone(rc, "listing readers")
        if rc != self.s.SCARD_S_SUCCESS:
            raise ReaderError(f"pcscd cannot list its readers: {self.message(rc)}")
        return [str(r) for r in readers]

    def connect(self, context: Any, reader: str, exclusive: bool = False) -> tuple[Any, int]:
        """(card handle, protocol); _CutShort if the card is not there (anymore)."""
        share = self.s.SCARD_SHARE_EXCLUSIVE if exclusive else self.s.SCARD_SHARE_SHARED
        protocols = self.s.SCARD_PROTOCOL_T0 | self.s.SCARD_PROTOCOL_T1
        rc, card, protocol = self.s.SCardConnect(context, reader, share, protocols)
        rc = _code(rc)
        self.service_gone(rc, f"connecting to the card on {reader}")
        if rc == self.s.SCARD_E_SHARING_VIOLATION:
            raise _Busy(f"{reader} is in use by another program")
        if rc != self.s.SCARD_S_SUCCESS or protocol not in (
            self.s.SCARD_PROTOCOL_T0,
            self.s.SCARD_PROTOCOL_T1,
        ):
            raise _CutShort(f"connect: {self.message(rc)}")
        return card, int(protocol)

    def disconnect(self, card: Any) -> None:
        try:
            self.s.SCardDisconnect(card, self.s.SCARD_LEAVE_CARD)
        except Exception as err:  # the card or pcscd is already gone
            log.debug("disconnect: %s", err)

    def transmit(self, card: Any, protocol: int, apdu: Sequence[int]) -> tuple[bytes, int, int]:
        """(data, SW1, SW2); _CutShort if the exchange broke off."""
        rc, response = self.s.SCardTransmit(card, protocol, list(apdu))
        rc = _code(rc)
        self.service_gone(rc, "talking to the card")
        if rc != self.s.SCARD_S_SUCCESS or len(response) < 2:
            # pcscd reports a card pulled mid-exchange as an error, or (vpcd) as no answer
            raise _CutShort(f"transmit {bytes(apdu[:4]).hex()}: {self.message(rc)}")
        data = bytes(response[:-2])
        return data, int(response[-2]), int(response[-1])


def _code(rc: Any) -> int:
    return int(rc) & 0xFFFFFFFF


def _read_uid(sc: _Scard, card: Any, protocol: int) -> str:
    data, sw1, sw2 = sc.transmit(card, protocol, GET_UID)
    if (sw1, sw2) != _SW_OK or not data:
        raise _CutShort(f"the reader gave no UID (SW {sw1:02X}{sw2:02X})")
    return data.hex().upper()


def _read_pages(sc: _Scard, card: Any, protocol: int, page: int) -> bytes | None:
    """16 bytes from *page* on, or None if the tag refused (a status word, not a lost card)."""
    data, sw1, sw2 = sc.transmit(card, protocol, [0xFF, 0xB0, 0x00, page & 0xFF, 0x10])
    if (sw1, sw2) != _SW_OK or len(data) != 16:
        log.debug("read of page %d refused: SW %02X%02X", page, sw1, sw2)
        return None
    return data


def _read_type2_memory(sc: _Scard, card: Any, protocol: int) -> bytearray | None:
    """Tag memory from page 0 (pages 0-2 left zero) through the NDEF TLV, or None."""
    first = _read_pages(sc, card, protocol, 3)
    if first is None:
        return None
    memory = bytearray(12) + first
    try:
        cap = parse_type2_cc(bytes(memory[12:16]))
    except TagError as err:
        log.debug("no NDEF: %s", err)
        return memory
    if not cap.readable:
        return memory
    end = DATA_START + cap.data_size
    while len(memory) < type2_bytes_needed(bytes(memory), end):
        more = _read_pages(sc, card, protocol, len(memory) // 4)
        if more is None:
            return None
        memory += more
    return memory


def read_type2_ndef(sc: _Scard, card: Any, protocol: int) -> bytes | None:
    """The NDEF message of a Type 2 tag (``FF B0`` reads from page 3), or None."""
    memory = _read_type2_memory(sc, card, protocol)
    return parse_type2_ndef(bytes(memory)) if memory is not None else None


def _read_card(sc: _Scard, card: Any, protocol: int, atr: bytes) -> ReadResult:
    uid = _read_uid(sc, card, protocol)
    ndef = read_type2_ndef(sc, card, protocol) if is_type2(atr) else None
    return ReadResult(uid, ndef, atr)


def choose_reader(readers: Sequence[str], name_filter: str) -> str:
    """The reader a filter picks: the first match, contactless-looking names first."""
    wanted = name_filter.lower()
    matching = [r for r in readers if wanted in r.lower()]
    if not matching:
        seen = ", ".join(repr(r) for r in readers) or "none"
        which = f"matching {name_filter!r} " if name_filter else ""
        raise ReaderError(f"no PC/SC reader {which}is plugged in (pcscd sees: {seen})")
    if name_filter:
        return matching[0]
    return min(matching, key=lambda r: not any(h in r.upper() for h in _CONTACTLESS_HINTS))


@dataclass(slots=True)
class _Held:
    """The card the loop has read and still holds a handle to."""

    uid: str
    counter: int
    handle: Any
    protocol: int


class PcscBackend:
    """A contactless reader behind pcscd: ACR122U, ACR1252U or any PC/SC reader."""

    #: how often the stack may look at the field: pcscd's poll, the worst case of a PC/SC reader
    poll_s = PCSCD_POLL_S
    #: the re-arm this stack needs (``reader.rearm_seconds`` overrides it)
    rearm_s = rearm_for_poll(PCSCD_POLL_S)

    def __init__(
        self,
        path: str = "pcsc",
        *,
        clock: Callable[[], float] = time.monotonic,
        poll_ms: int = POLL_MS,
    ) -> None:
        self.name_filter = parse_path(path)
        self.path = path.strip()
        self._clock = clock
        self._poll_ms = poll_ms
        self._sc = _Scard(_import_scard())
        self._lock = threading.Lock()
        self._context: Any = None
        self._cues: deque[list[int]] = deque(maxlen=4)
        #: the reader in use (set once ``run`` has picked one)
        self.reader: str | None = None

    def __repr__(self) -> str:
        return f"PcscBackend({self.path!r})"

    # -------------------------------------------------------------- ReaderBackend

    def run(self, emit: Callable[[Presence], None], stop: threading.Event) -> None:
        """Watch the reader and report presence until *stop* is set; ReaderError when lost."""
        sc = self._sc
        context = sc.establish()
        with self._lock:
            self._context = context
            self._cues.clear()
        try:
            self._watch(context, emit, stop)
        finally:
            with self._lock:
                self._context = None
            sc.release(context)

    def wake(self) -> None:
        """Make a blocked ``run`` look at *stop* now (``SCardCancel``)."""
        with self._lock:
            context = self._context
        if context is not None:
            self._cancel(context)

    def feedback(self, cue: Cue) -> None:
        """On an ACR122U with a card present: blink and beep (read: green, error: red twice)."""
        apdu = _ACR122_CUES.get(cue)
        with self._lock:
            context = self._context
            if apdu is None or context is None or not is_acr122(self.reader or ""):
                return
            self._cues.append(apdu)
        # the watch loop owns the card handle; wake it to send the command from its thread
        self._cancel(context)

    def _cancel(self, context: Any) -> None:
        try:
            self._sc.s.SCardCancel(context)
        except Exception as err:  # the context died with pcscd; run will notice
            log.debug("SCardCancel: %s", err)

    # -------------------------------------------------------------- the watch loop

    def _watch(self, context: Any, emit: Callable[[Presence], None], stop: threading.Event) -> None:
        sc, s = self._sc, self._sc.s
        readers = sc.readers(context)
        reader = choose_reader(readers, self.name_filter)
        self.reader = reader
        log.info("PC/SC reader %r opened", reader)
        reader_state, pnp_state = s.SCARD_STATE_UNAWARE, 0
        held: _Held | None = None
        failed_counter: int | None = None
        announced = False
        try:
            while not stop.is_set():
                self._play_cues(held)
                timeout = self._poll_ms if announced else 0
                rc, found = s.SCardGetStatusChange(
                    context, timeout, [(reader, reader_state), (PNP_READER, pnp_state)]
                )
                rc = _code(rc)
                if rc in (s.SCARD_E_TIMEOUT, s.SCARD_E_CANCELLED):
                    if not announced:  # never spin on a zero timeout
                        announced = True
                        emit(CardAbsent(None, at=self._clock()))
                    continue
                sc.service_gone(rc, f"watching {reader}")
                if rc in (s.SCARD_E_UNKNOWN_READER, s.SCARD_E_READER_UNAVAILABLE):
                    raise ReaderError(f"reader {reader!r} was unplugged")
                if rc != s.SCARD_S_SUCCESS:
                    # pcscd shutting down can answer a waiting client with odd codes
                    # (seen: SCARD_W_SECURITY_VIOLATION); ask it whether it is still there
                    sc.readers(context)
                    raise ReaderError(f"watching {reader!r} failed: {sc.message(rc)}")
                for name, raw_state, atr in found:
                    state = int(raw_state) & 0xFFFFFFFF
                    if name == PNP_READER:
                        pnp_state = state & ~s.SCARD_STATE_CHANGED
                        if state & s.SCARD_STATE_CHANGED and reader not in sc.readers(context):
                            raise ReaderError(f"reader {reader!r} was unplugged")
                        continue
                    reader_state = state & ~s.SCARD_STATE_CHANGED
                    if state & (s.SCARD_STATE_UNKNOWN | s.SCARD_STATE_UNAVAILABLE):
                        raise ReaderError(f"reader {reader!r} was unplugged")
                    counter = state >> 16
                    present = bool(state & s.SCARD_STATE_PRESENT) and not (
                        state & s.SCARD_STATE_MUTE
                    )
                    # A changed counter with the card still "present" is a swap (or a re-tap)
                    # that happened while the loop was not looking: the old card left.
                    if held is not None and (not present or counter != held.counter):
                        sc.disconnect(held.handle)
                        emit(CardAbsent(held.uid, at=self._clock()))
                        held = None
                    if present and held is None and counter != failed_counter:
                        try:
                            held = self._read(context, reader, bytes(atr), counter, emit)
                            failed_counter = None if held is not None else counter
                        except _Busy as err:
                            # its release changes the reader state, which wakes this loop
                            log.info("%s: the card is read once it is released", err)
                    if not present:
                        failed_counter = None
                if not announced:
                    announced = True
                    if held is None:
                        # tell the supervisor at once that the reader is open and empty
                        emit(CardAbsent(None, at=self._clock()))
        finally:
            if held is not None:
                sc.disconnect(held.handle)
                emit(CardAbsent(held.uid, at=self._clock()))

    def _read(
        self,
        context: Any,
        reader: str,
        atr: bytes,
        counter: int,
        emit: Callable[[Presence], None],
    ) -> _Held | None:
        sc = self._sc
        try:
            handle, protocol = sc.connect(context, reader)
        except _Busy:
            raise
        except _CutShort as err:
            log.info("card on %s could not be connected (%s): not a tap", reader, err)
            return None
        try:
            result = _read_card(sc, handle, protocol, atr)
        except _CutShort as err:
            sc.disconnect(handle)
            log.info("card left %s during its read (%s): not a tap", reader, err)
            return None
        except BaseException:
            sc.disconnect(handle)
            raise
        emit(CardPresent(result.uid, result.ndef, at=self._clock()))
        return _Held(result.uid, counter, handle, protocol)

    def _play_cues(self, held: _Held | None) -> None:
        while True:
            with self._lock:
                if not self._cues:
                    return
                apdu = self._cues.popleft()
            if held is None:
                log.debug("feedback dropped: no card on the reader to carry it")
                continue
            try:
                self._sc.transmit(held.handle, held.protocol, apdu)
            except _CutShort as err:
                log.debug("feedback not sent: %s", err)


# ------------------------------------------------------------------ writing cards


def _wait_for_card(
    sc: _Scard, context: Any, reader: str, deadline: float, after: int | None = None
) -> tuple[bytes, int]:
    """(ATR, reader state) of the card laid on *reader*; TagError if none by *deadline*.

    *after* is the reader state in which a tag just did not answer. Until its next look at
    the reader pcscd still lists a tag that has left, and a tag laid in its place may even be
    listed under the same state (vpcd), so this first waits for the state to change or for
    one of pcscd's poll periods to pass, whichever comes first, and then looks again.
    """
    s = sc.s
    state = s.SCARD_STATE_UNAWARE if after is None else after
    patience = None if after is None else time.monotonic() + PCSCD_POLL_S
    while True:
        until = deadline if patience is None else min(deadline, patience)
        left_ms = int(max(0.0, until - time.monotonic()) * 1000)
        rc, found = s.SCardGetStatusChange(context, left_ms, [(reader, state)])
        rc = _code(rc)
        sc.service_gone(rc, f"waiting for a tag on {reader}")
        if rc == s.SCARD_S_SUCCESS:
            patience = None  # pcscd has looked again: take what it reports
            _, raw_state, atr = found[0]
            state = int(raw_state) & 0xFFFFFFFF
            if state & (s.SCARD_STATE_UNKNOWN | s.SCARD_STATE_UNAVAILABLE):
                raise ReaderError(f"reader {reader!r} was unplugged")
            if state & s.SCARD_STATE_PRESENT and not state & s.SCARD_STATE_MUTE:
                return bytes(atr), state & ~s.SCARD_STATE_CHANGED
            state &= ~s.SCARD_STATE_CHANGED
        elif rc not in (s.SCARD_E_TIMEOUT, s.SCARD_E_CANCELLED):
            raise ReaderError(f"watching {reader!r} failed: {sc.message(rc)}")
        now = time.monotonic()
        if now >= deadline:
            raise TagError(f"no tag was laid on {reader} within the time allowed")
        if patience is not None and now >= patience:
            # a poll period without a change: the tag pcscd lists is the one to try again
            patience, state = None, s.SCARD_STATE_UNAWARE


def _check_static_locks(header: bytes, pages: range) -> None:
    """TagError if a lock bit in page 2 protects one of *pages* (3..15)."""
    lock = header[10] | header[11] << 8
    for page in pages:
        if 3 <= page < 16 and lock & (1 << page):
            raise TagError(f"locked: page {page} is write-protected by the tag's lock bits")


class _NothingWritten(_CutShort):
    """The tag stopped answering before its first page was written: it is as it was."""


class _TornWrite(_CutShort):
    """The tag stopped answering part-way through the page writes."""


def write_card(
    card: CardId,
    path: str = "pcsc",
    *,
    timeout: float = 10.0,
    overwrite: bool = False,
) -> str:
    """Write *card*'s NDEF record onto the Type 2 tag laid on the PC/SC reader; return its UID.

    *path* is ``pcsc[:filter]`` or just a reader-name filter. Waits up to *timeout* seconds
    for a tag. Raises TagError (not Type 2, not NDEF-formatted, locked, too small, already
    holding another message without *overwrite*, or moved away mid-write) and ReaderError.

    pcscd reports a tag taken away only at its next look at the reader (every 400 ms for a
    polling reader), and until then connecting to it succeeds: a write started at once after
    the previous tag left finds a card that does not answer. That is not a torn write (nothing
    was written): the write looks again after pcscd's next poll, within *timeout*, and writes
    the tag lying there then.
    """
    name_filter = parse_path(path) if path.strip().lower().startswith("pcsc") else path.strip()
    sc = _Scard(_import_scard())
    message = encode_card_record(card)
    context = sc.establish()
    deadline = time.monotonic() + timeout
    try:
        reader = choose_reader(sc.readers(context), name_filter)
        after: int | None = None  # the reader state in which a tag did not answer
        last: _CutShort | None = None
        while True:
            try:
                atr, state = _wait_for_card(sc, context, reader, deadline, after)
            except TagError:
                if last is None:
                    raise TagError(f"no tag was laid on {reader} within {timeout:g} s") from None
                raise TagError(
                    f"the tag on {reader} stopped answering before anything was written to "
                    f"it ({last}); it is unchanged: lift it, lay it down again and write again"
                ) from None
            try:
                return _write_on(sc, context, reader, atr, message, overwrite)
            except _NothingWritten as err:
                log.info("the tag on %s did not answer (%s): waiting for the next one", reader, err)
                after, last = state, err
    finally:
        sc.release(context)


def _write_on(
    sc: _Scard, context: Any, reader: str, atr: bytes, message: bytes, overwrite: bool
) -> str:
    if not is_type2(atr):
        raise TagError(
            f"not an NFC Forum Type 2 tag: the reader reports {describe_atr(atr)}; "
            "use NTAG213/215/216 stickers"
        )
    try:
        handle, protocol = sc.connect(context, reader, exclusive=True)
    except _Busy as err:
        raise ReaderError(f"{err} (is the ultibank daemon reading it? stop it first)") from err
    except _CutShort as err:
        raise _NothingWritten(str(err)) from err
    try:
        return _write_message(sc, handle, protocol, message, overwrite)
    except _TornWrite as err:
        raise TagError(
            f"the tag left {reader} {err}: it still reads as before (the page holding the "
            "record's length is written last); lay it down and write again"
        ) from err
    except _NothingWritten:
        raise
    except _CutShort as err:
        raise TagError(
            f"the tag left {reader} after the record was written, before it could be read "
            f"back ({err}): lay it down and write again to check it"
        ) from err
    finally:
        sc.disconnect(handle)


def _write_message(sc: _Scard, card: Any, protocol: int, message: bytes, overwrite: bool) -> str:
    try:
        uid = _read_uid(sc, card, protocol)
        header = _read_pages(sc, card, protocol, 0)
        if header is None:
            raise TagError("the tag refused to show its header (pages 0-3): not a Type 2 tag?")
        image = type2_write_image(header[12:16], message)  # not formatted / read-only / too small
        pages = range(4, 4 + len(image) // 4)
        _check_static_locks(header, range(3, 16))
        old = read_type2_ndef(sc, card, protocol)
    except _CutShort as err:
        raise _NothingWritten(str(err)) from err
    if old == message:
        log.info("tag %s already holds this record", uid)
        return uid
    if old and not overwrite:
        known = decode_card_record(old)
        what = f"the record of {known}" if known else f"another NDEF message ({len(old)} bytes)"
        raise TagError(f"the tag already holds {what}; use --overwrite to replace it")
    # Page 4 holds the TLV's type and length: written last, so a tag torn away mid-write
    # keeps its old (or empty) length instead of announcing a half-written message.
    for written, page in enumerate([*pages[1:], pages[0]]):
        chunk = image[(page - 4) * 4 : (page - 3) * 4]
        try:
            _, sw1, sw2 = sc.transmit(card, protocol, [0xFF, 0xD6, 0x00, page, 0x04, *chunk])
        except _CutShort as err:
            if written == 0:
                raise _NothingWritten(str(err)) from err
            raise _TornWrite(f"after {written} of {len(pages)} pages were written ({err})") from err
        if (sw1, sw2) != _SW_OK:
            raise TagError(
                f"the tag refused page {page} (SW {sw1:02X}{sw2:02X}): locked pages, "
                "or it moved in the field"
            )
    if read_type2_ndef(sc, card, protocol) != message:
        raise TagError("the record did not read back as written: try again")
    return uid


# ------------------------------------------------------------------ diagnostics


def describe_readers(name_filter: str = "") -> list[str]:
    """One line per PC/SC reader (and the card on it), for ``python -m drivers.pcsc``."""
    sc = _Scard(_import_scard())
    s = sc.s
    context = sc.establish()
    try:
        readers = sc.readers(context)
        if not readers:
            return ["pcscd is running but sees no reader (plugged in? blacklisted pn533?)"]
        lines = []
        for reader in readers:
            if name_filter.lower() not in reader.lower():
                continue
            rc, found = s.SCardGetStatusChange(context, 0, [(reader, s.SCARD_STATE_UNAWARE)])
            state = int(found[0][1]) if _code(rc) == s.SCARD_S_SUCCESS else 0
            extra = " (buzzer feedback)" if is_acr122(reader) else ""
            if not state & s.SCARD_STATE_PRESENT:
                lines.append(f"{reader}{extra}: no card")
                continue
            atr = bytes(found[0][2])
            try:
                handle, protocol = sc.connect(context, reader)
            except _CutShort as err:
                lines.append(f"{reader}{extra}: {describe_atr(atr)}, not readable ({err})")
                continue
            try:
                result = _read_card(sc, handle, protocol, atr)
                named = decode_card_record(result.ndef)
                ndef = result.ndef.hex().upper() if result.ndef else "none"
                lines.append(
                    f"{reader}{extra}: {describe_atr(atr)} UID {result.uid}, NDEF {ndef}"
                    + (f" = {named}" if named else "")
                )
            except _CutShort as err:
                lines.append(f"{reader}{extra}: the card left during the read ({err})")
            finally:
                sc.disconnect(handle)
        if not lines:
            raise ReaderError(f"no PC/SC reader matches {name_filter!r} (pcscd sees: {readers})")
        return lines
    finally:
        sc.release(context)


def main(argv: Sequence[str] | None = None) -> int:
    """List the PC/SC readers and the cards on them; optionally write a card record."""
    parser = argparse.ArgumentParser(prog="python -m drivers.pcsc", description=main.__doc__)
    parser.add_argument("filter", nargs="?", default="", help="part of the reader name")
    parser.add_argument("--write", metavar="CARD", help="write this card (bank:2, prop:16...)")
    parser.add_argument("--overwrite", action="store_true", help="replace another record")
    args = parser.parse_args(argv)
    try:
        if args.write:
            card = CardId.parse(args.write, default_cards())
            uid = write_card(card, args.filter, overwrite=args.overwrite)
            print(f"wrote {args.write} on tag {uid}")
        else:
            print("\n".join(describe_readers(args.filter)))
    except (DriverError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
