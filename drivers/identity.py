"""Card identity on the tag: the NDEF record ultibank writes, and NFC Forum Type 2 memory.

A card is known by the NDEF record written on its tag (a URI record
``urn:ultibank:card:CHECK:prop:16``; a Text record ``ultibank prop:16`` is read too, since phone
apps write Text records most easily) and by its UID in the deck:

- CHECK, 4 hex digits, is a check of the card name (CRC-16/CCITT, :func:`record_check`), written
  by ``ultibank write-card`` since issue 9: a record whose check does not match was damaged (a
  flipped bit turned ``prop:16`` into ``prop:14``) and is not trusted; the tag is then known by
  its UID alone. Records without a check (older tags, phone apps) are still read.
- When the deck knows the tag's UID and the record names another card, **the deck wins** and a
  warning is logged: enrolment tapped that very tag, and the UID is read under the reader's own
  anticollision checks, while a record read can be damaged. A tag rewritten with
  ``write-card --overwrite`` after enrolment therefore keeps its enrolled card until its line
  is deleted from the deck and it is enrolled again, as the warning says.
- A malformed NDEF message never hides the card: it falls back to the UID.

The Type 2 helpers work on raw tag memory (pages of 4 bytes from page 0), so the PC/SC backend,
which reads pages with ``FF B0``, and any writer share one parser and one set of checks:

=========  ==================================================================
byte       meaning (NFC Forum Type 2 Tag, capability container in page 3)
=========  ==================================================================
12         magic number 0xE1: the tag is formatted for NDEF
13         mapping version (0x10 = 1.0); a major version above 1 is refused
14         data area size / 8 (NTAG213 0x12 = 144, NTAG215 0x3E = 496 bytes)
15         access: high nibble read (0 = granted), low nibble write (0 = granted)
=========  ==================================================================

Imports ``bank.unit.io``, ``drivers.base``, the standard library, and ``ndeflib`` (as ``ndef``)
lazily, so a missing ndeflib costs only the NDEF features, with a message naming the fix.
"""

from __future__ import annotations

import binascii
import logging
import re
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from bank.unit.io import CardId
from drivers.base import ReaderUnavailable, TagError
from drivers.deck import record_cards

if TYPE_CHECKING:
    from drivers.deck import Deck

log = logging.getLogger(__name__)

#: the URI every card record starts with; the card name follows (``prop:16``)
URI_PREFIX = "urn:ultibank:card:"
#: the word a Text record starts with, followed by a space and the card name
TEXT_PREFIX = "ultibank "
#: a checked record: 4 hex digits of :func:`record_check`, a colon, the card name (itself
#: ``kind:number``: a plain ``deed:12``, whose kind is 4 hex digits, is a record without check)
_CHECKED_RE = re.compile(r"^([0-9A-Fa-f]{4}):([^:]*:.*)$")

NDEF_TLV = 0x03
TERMINATOR_TLV = 0xFE
NULL_TLV = 0x00
LOCK_CONTROL_TLV = 0x01
MEMORY_CONTROL_TLV = 0x02
PROPRIETARY_TLV = 0xFD
CC_MAGIC = 0xE1
#: the first page of the data area; pages 0-2 hold the UID and lock bytes, page 3 the CC
DATA_START = 16


def _ndef() -> ModuleType:
    try:
        import ndef
    except ImportError as err:
        raise ReaderUnavailable(
            "the ndeflib package is missing (NDEF card records need it): "
            "pip install 'ultibank[nfc]' or 'ultibank[pcsc]'"
        ) from err
    module: ModuleType = ndef
    return module


def record_check(name: str) -> str:
    """The check a card record carries before the name: CRC-16/CCITT of the name, 4 hex digits.

    A CRC catches every 1- or 2-bit error and every burst of up to 16 bits in the name."""
    return f"{binascii.crc_hqx(name.encode('utf-8'), 0xFFFF):04x}"


def encode_card_record(card: CardId) -> bytes:
    """The full NDEF message that names *card*: one URI record ``urn:ultibank:card:CHECK:NAME``."""
    ndef = _ndef()
    name = str(card)
    record = ndef.UriRecord(f"{URI_PREFIX}{record_check(name)}:{name}")
    return b"".join(ndef.message_encoder([record]))


@dataclass(frozen=True, slots=True)
class CardRecord:
    """What a tag's NDEF message says: the card it names, or why it names none."""

    card: CardId | None
    #: True when the record carried a check that matched (new records), False without one
    checked: bool = False
    #: why an ultibank record was not believed (a failed check, a card that does not exist)
    fault: str = ""


def _card_from_text(text: str) -> CardRecord:
    # The check comes first, so a record cut short (``event:15`` read as ``event:1``) still
    # carries it and fails; a card name never starts with 4 hex digits and a colon.
    checked = _CHECKED_RE.match(text.strip())
    name = checked.group(2) if checked else text
    if checked and checked.group(1).lower() != record_check(name):
        return CardRecord(None, fault=f"the record {text!r} fails its check (damaged)")
    try:
        return CardRecord(CardId.parse(name, record_cards()), checked=bool(checked))
    except ValueError:
        return CardRecord(None, fault=f"the record {text!r} names no card")


def read_card_record(data: bytes | None) -> CardRecord | None:
    """The first ultibank record of an NDEF message, or None (no message, malformed, not ours).

    A record that fails its check or names no card is skipped for a later one; if none is
    good, the result says why the first one was not believed."""
    if not data:
        return None
    ndef = _ndef()
    try:
        records = list(ndef.message_decoder(data))
    except Exception as err:  # ndeflib raises several types on garbage; any means "unreadable"
        log.debug("malformed NDEF message %s: %s", data.hex(), err)
        return None
    first_fault: CardRecord | None = None
    for record in records:
        if isinstance(record, ndef.UriRecord):
            text, prefix = str(record.iri), URI_PREFIX
        elif isinstance(record, ndef.TextRecord):
            text, prefix = str(record.text), TEXT_PREFIX
        else:
            continue
        if not text.lower().startswith(prefix):
            continue
        found = _card_from_text(text[len(prefix) :])
        if found.card is not None:
            return found
        log.debug("ultibank record not believed: %s", found.fault)
        first_fault = first_fault or found
    return first_fault


def decode_card_record(data: bytes | None) -> CardId | None:
    """The card an NDEF message names, or None (no message, malformed, damaged, or not ours)."""
    found = read_card_record(data)
    return found.card if found is not None else None


_warned_no_ndeflib = False
#: (UID, what was said) already logged, so a card left on the reader warns once, not per read
_warned: set[tuple[str, str]] = set()
_WARNED_MAX = 1024


def _warn_once(uid: str, text: str) -> None:
    if (uid, text) in _warned:
        return
    if len(_warned) >= _WARNED_MAX:
        _warned.clear()
    _warned.add((uid, text))
    log.warning("tag %s: %s", uid, text)


def identify(uid: str, ndef_message: bytes | None, deck: Deck) -> CardId | None:
    """The card a tag stands for: its UID in *deck* when the deck knows it (a record naming
    another card is then logged and ignored), else its NDEF record, else None."""
    enrolled = deck.card_for(uid)
    found = None
    if ndef_message:
        try:
            found = read_card_record(ndef_message)
        except ReaderUnavailable as err:
            # without ndeflib the UID still identifies the card; say why records are ignored
            global _warned_no_ndeflib
            if not _warned_no_ndeflib:
                log.warning("NDEF records ignored, cards known by UID only: %s", err)
                _warned_no_ndeflib = True
    if found is None:
        return enrolled
    if found.card is None:
        known = f"known by its UID as {enrolled}" if enrolled else "and its UID is not enrolled"
        _warn_once(uid, f"{found.fault}; {known}")
        return enrolled
    if enrolled is not None and enrolled != found.card:
        _warn_once(
            uid,
            f"its record names {found.card} but the deck enrolled it as {enrolled}; "
            f"{enrolled} counts (if the tag was rewritten, delete its line from {deck.source} "
            f"and run: ultibank enroll --only {found.card})",
        )
        return enrolled
    return found.card


# ---------------------------------------------------------------- Type 2 tag memory


@dataclass(frozen=True, slots=True)
class Type2Capability:
    """A decoded Type 2 capability container (page 3)."""

    version: int
    data_size: int
    readable: bool
    writable: bool


def parse_type2_cc(cc: bytes) -> Type2Capability:
    """Decode the 4 capability-container bytes; TagError if the tag is not NDEF-formatted."""
    if len(cc) < 4:
        raise TagError(f"capability container too short ({len(cc)} bytes, need 4)")
    magic, version, size, access = cc[0], cc[1], cc[2], cc[3]
    if magic != CC_MAGIC:
        raise TagError(
            f"not formatted as NFC Forum Type 2 (capability container starts 0x{magic:02X}, "
            f"expected 0xE1)"
        )
    if version >> 4 > 1:
        raise TagError(f"unsupported Type 2 mapping version {version >> 4}.{version & 15}")
    return Type2Capability(
        version=version,
        data_size=size * 8,
        readable=access >> 4 == 0,
        writable=access & 0x0F == 0,
    )


def type2_ndef_tlv(message: bytes) -> bytes:
    """Wrap an NDEF message in its 0x03 TLV plus the 0xFE terminator, as stored on a tag."""
    n = len(message)
    if n > 0xFFFE:
        raise TagError(f"record too large for any Type 2 tag ({n} bytes)")
    length = bytes([n]) if n < 0xFF else bytes([0xFF, n >> 8, n & 0xFF])
    return bytes([NDEF_TLV]) + length + message + bytes([TERMINATOR_TLV])


def type2_write_image(cc: bytes, message: bytes) -> bytes:
    """The bytes to write from page 4 to store *message*, padded to whole pages.

    Raises TagError when the tag is not formatted, read-only, or too small for the record.
    """
    cap = parse_type2_cc(cc)
    if not cap.writable:
        raise TagError("locked (read-only): the capability container denies writing")
    tlv = type2_ndef_tlv(message)
    if len(tlv) > cap.data_size:
        raise TagError(
            f"record too large for this tag ({len(tlv)} bytes, tag holds {cap.data_size})"
        )
    pad = -len(tlv) % 4
    return tlv + bytes(pad)


def parse_type2_ndef(memory: bytes) -> bytes | None:
    """The NDEF message in Type 2 tag memory read from page 0, or None if there is none.

    Skips NULL, lock control, memory control and proprietary TLVs; a tag that is not
    NDEF-formatted, an empty message, or a truncated TLV gives None.
    """
    if len(memory) < DATA_START or memory[12] != CC_MAGIC:
        return None
    end = min(len(memory), DATA_START + memory[14] * 8)
    i = DATA_START
    while i < end:
        tag = memory[i]
        if tag == NULL_TLV:
            i += 1
            continue
        if tag == TERMINATOR_TLV:
            return None
        if i + 1 >= end:
            break
        length = memory[i + 1]
        header = 2
        if length == 0xFF:
            if i + 3 >= end:
                break
            length = memory[i + 2] << 8 | memory[i + 3]
            header = 4
        value_start = i + header
        if tag == NDEF_TLV:
            if value_start + length > len(memory):
                log.debug("NDEF TLV truncated: %d bytes announced", length)
                return None
            return bytes(memory[value_start : value_start + length]) or None
        # lock control, memory control, proprietary or an unknown TLV: step over its value
        i = value_start + length
    return None
