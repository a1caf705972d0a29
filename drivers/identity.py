"""Card identity on the tag: the NDEF record ultibank writes, and NFC Forum Type 2 memory.

A card is known first by the NDEF record written on its tag (a URI record
``urn:ultibank:card:prop:16``; a Text record ``ultibank prop:16`` is read too, since phone apps
write Text records most easily), and failing that by its UID in the deck. A malformed NDEF
message never hides the card: it falls back to the UID.

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

import logging
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from bank.unit.io import CardId
from drivers.base import ReaderUnavailable, TagError
from drivers.deck import default_cards

if TYPE_CHECKING:
    from drivers.deck import Deck

log = logging.getLogger(__name__)

#: the URI every card record starts with; the card name follows (``prop:16``)
URI_PREFIX = "urn:ultibank:card:"
#: the word a Text record starts with, followed by a space and the card name
TEXT_PREFIX = "ultibank "

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


def encode_card_record(card: CardId) -> bytes:
    """The full NDEF message that names *card* (one URI record ``urn:ultibank:card:...``)."""
    ndef = _ndef()
    record = ndef.UriRecord(URI_PREFIX + str(card))
    return b"".join(ndef.message_encoder([record]))


def _card_from_text(text: str) -> CardId | None:
    try:
        return CardId.parse(text, default_cards())
    except ValueError:
        return None


def decode_card_record(data: bytes | None) -> CardId | None:
    """The card an NDEF message names, or None (no message, malformed, or not ours)."""
    if not data:
        return None
    ndef = _ndef()
    try:
        records = list(ndef.message_decoder(data))
    except Exception as err:  # ndeflib raises several types on garbage; any means "unreadable"
        log.debug("malformed NDEF message %s: %s", data.hex(), err)
        return None
    for record in records:
        if isinstance(record, ndef.UriRecord):
            iri = str(record.iri)
            if iri.lower().startswith(URI_PREFIX):
                card = _card_from_text(iri[len(URI_PREFIX) :])
                if card is not None:
                    return card
                log.debug("ultibank URI record names no card: %r", iri)
        elif isinstance(record, ndef.TextRecord):
            text = str(record.text)
            if text.lower().startswith(TEXT_PREFIX):
                card = _card_from_text(text[len(TEXT_PREFIX) :])
                if card is not None:
                    return card
                log.debug("ultibank Text record names no card: %r", text)
    return None


_warned_no_ndeflib = False


def identify(uid: str, ndef_message: bytes | None, deck: Deck) -> CardId | None:
    """The card a tag stands for: its NDEF record first, else its UID in *deck*, else None."""
    card = None
    if ndef_message:
        try:
            card = decode_card_record(ndef_message)
        except ReaderUnavailable as err:
            # without ndeflib the UID still identifies the card; say why records are ignored
            global _warned_no_ndeflib
            if not _warned_no_ndeflib:
                log.warning("NDEF records ignored, cards known by UID only: %s", err)
                _warned_no_ndeflib = True
    if card is not None:
        return card
    return deck.card_for(uid)


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
