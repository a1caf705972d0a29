"""Card records on tags: the NDEF record ultibank writes, and Type 2 tag memory."""

from __future__ import annotations

import binascii
import builtins
import logging
import random
from typing import Any

import ndef
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bank.unit.io import CardId
from drivers.base import ReaderUnavailable, TagError
from drivers.deck import Deck, all_cards
from drivers.identity import (
    CardRecord,
    decode_card_record,
    encode_card_record,
    identify,
    parse_type2_cc,
    parse_type2_ndef,
    read_card_record,
    record_check,
    type2_ndef_tlv,
    type2_write_image,
)

PROP16 = CardId("prop", 16)
NTAG213_CC = bytes([0xE1, 0x10, 0x12, 0x00])  # 144-byte data area
NTAG215_CC = bytes([0xE1, 0x10, 0x3E, 0x00])  # 496-byte data area


def memory(cc: bytes, data: bytes) -> bytes:
    """Tag memory from page 0: 9 UID bytes, lock bytes, the CC, then the data area."""
    return bytes.fromhex("04A1B2C3D4E5F6AA") + bytes(4) + cc + data


def message(text: str) -> bytes:
    return b"".join(ndef.message_encoder([ndef.TextRecord(text)]))


def test_the_record_is_a_uri_naming_the_card() -> None:
    data = encode_card_record(PROP16)
    (record,) = list(ndef.message_decoder(data))
    assert isinstance(record, ndef.UriRecord)
    # the name, then its check: CRC-16/CCITT of "prop:16"
    assert record.iri == f"urn:ultibank:card:{binascii.crc_hqx(b'prop:16', 0xFFFF):04x}:prop:16"
    assert record.iri == f"urn:ultibank:card:{record_check('prop:16')}:prop:16"
    assert len(data) < 35  # fits an NTAG213 with room to spare


@pytest.mark.parametrize("card", list(all_cards()), ids=str)
def test_every_card_round_trips(card: CardId) -> None:
    assert decode_card_record(encode_card_record(card)) == card


def test_a_text_record_written_by_a_phone_app_is_read() -> None:
    assert decode_card_record(message("ultibank bank:boat")) == CardId("bank", 3)
    assert decode_card_record(message("ULTIBANK event:7")) == CardId("event", 7)


def test_the_first_of_our_records_counts_and_foreign_ones_are_skipped() -> None:
    records = [
        ndef.UriRecord("https://example.org"),
        ndef.TextRecord("shopping list"),
        ndef.UriRecord("urn:ultibank:card:event:3"),
        ndef.UriRecord("urn:ultibank:card:prop:1"),
    ]
    assert decode_card_record(b"".join(ndef.message_encoder(records))) == CardId("event", 3)


@pytest.mark.parametrize(
    "data",
    [
        None,
        b"",
        message("hello"),
        message("ultibank prop:99"),
        b"".join(ndef.message_encoder([ndef.UriRecord("urn:ultibank:card:joker:1")])),
        b"\xd1\x01\x09",  # truncated record header
        b"\xff" * 12,
    ],
    ids=["none", "empty", "foreign", "out-of-range", "bad-kind", "truncated", "garbage"],
)
def test_what_names_no_card_gives_none(data: bytes | None) -> None:
    assert decode_card_record(data) is None


def test_a_malformed_message_is_logged_at_debug(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.DEBUG, logger="drivers.identity"):
        assert decode_card_record(b"\xd1\x01\x09") is None
    assert "malformed NDEF message d10109" in caplog.text


@given(st.binary(max_size=64))
def test_decoding_never_raises(data: bytes) -> None:
    result = decode_card_record(data)
    assert result is None or isinstance(result, CardId)


def test_identify_uses_the_record_for_a_tag_the_deck_does_not_know() -> None:
    deck = Deck({"04A1B2C3D4E5F6": PROP16})
    assert identify("04A1B2C3D4E5F6", None, deck) == PROP16
    assert identify("04A1B2C3D4E5F6", b"\xff\xff", deck) == PROP16  # malformed: the UID
    assert identify("04A1B2C3D4E5F6", encode_card_record(PROP16), deck) == PROP16
    assert identify("0400000000AAAA", encode_card_record(CardId("bank", 1)), deck) == CardId(
        "bank", 1
    )
    assert identify("0400000000AAAA", None, deck) is None


def test_a_record_disagreeing_with_the_deck_loses_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    deck = Deck({"04A1B2C3D4E5F6": PROP16}, source="deck.toml")
    record = encode_card_record(CardId("bank", 1))
    with caplog.at_level(logging.WARNING, logger="drivers.identity"):
        assert identify("04A1B2C3D4E5F6", record, deck) == PROP16
        assert identify("04A1B2C3D4E5F6", record, deck) == PROP16  # the card left on the reader
    (warning,) = caplog.messages  # once, not at every read
    assert "04A1B2C3D4E5F6" in warning and "bank:1" in warning and "prop:16 counts" in warning
    assert "deck.toml" in warning and "ultibank enroll --only bank:1" in warning


def _uri(text: str) -> bytes:
    return b"".join(ndef.message_encoder([ndef.UriRecord(text)]))


def test_records_written_before_the_check_are_still_read() -> None:
    assert decode_card_record(_uri("urn:ultibank:card:prop:16")) == PROP16
    assert read_card_record(_uri("urn:ultibank:card:prop:16")) == CardRecord(PROP16)
    assert read_card_record(encode_card_record(PROP16)) == CardRecord(PROP16, checked=True)
    check = record_check("bank:boat")
    assert decode_card_record(message(f"ultibank {check.upper()}:bank:boat")) == CardId("bank", 3)


def test_a_record_failing_its_check_is_not_believed(caplog: pytest.LogCaptureFixture) -> None:
    damaged = _uri(f"urn:ultibank:card:{record_check('prop:16')}:prop:14")  # "16" -> "14"
    assert decode_card_record(damaged) is None
    assert "fails its check" in read_card_record(damaged).fault  # type: ignore[union-attr]
    with caplog.at_level(logging.WARNING, logger="drivers.identity"):
        # a tag the deck knows is still its card; an unknown one is an unknown card
        assert identify("04A1B2C3D4E5F6", damaged, Deck({"04A1B2C3D4E5F6": PROP16})) == PROP16
        assert identify("04000000000BAD", damaged, Deck()) is None
    assert len(caplog.messages) == 2 and all("fails its check" in m for m in caplog.messages)


def _corruptions(data: bytes, rnd: random.Random) -> bytes:
    """*data* with 1 to 3 random bits flipped, or 1 to 2 random bytes replaced."""
    out = bytearray(data)
    if rnd.random() < 0.5:
        for _ in range(rnd.randint(1, 3)):
            out[rnd.randrange(len(out))] ^= 1 << rnd.randrange(8)
    else:
        for _ in range(rnd.randint(1, 2)):
            out[rnd.randrange(len(out))] = rnd.randrange(256)
    return bytes(out)


@pytest.mark.parametrize("card", list(all_cards()), ids=str)
def test_no_single_bit_flip_names_another_card(card: CardId) -> None:
    data = encode_card_record(card)
    for bit in range(len(data) * 8):
        flipped = bytearray(data)
        flipped[bit // 8] ^= 1 << (bit % 8)
        assert decode_card_record(bytes(flipped)) in (card, None), f"bit {bit}"


def test_random_damage_never_names_another_card() -> None:
    # the measure: 23 of 100,000 corrupted messages named another card
    rnd = random.Random(9_11)
    cards = list(all_cards())
    records = {card: encode_card_record(card) for card in cards}
    wrong = []
    for _ in range(20_000):
        card = rnd.choice(cards)
        named = decode_card_record(_corruptions(records[card], rnd))
        if named not in (card, None):
            wrong.append((card, named))
    assert wrong == []


def test_a_missing_ndeflib_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    record = b"\xd1\x01\x16U\x13ultibank:card:event:7"
    assert decode_card_record(record) == CardId("event", 7)  # with ndeflib, the record counts
    real_import = builtins.__import__

    def fake_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ndef":
            raise ImportError("No module named 'ndef'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    with pytest.raises(ReaderUnavailable, match=r"ndeflib.*pip install 'ultibank\[nfc\]'"):
        encode_card_record(PROP16)
    # a tap still works without ndeflib: the UID identifies the card
    assert identify("04A1B2C3D4E5F6", record, Deck({"04A1B2C3D4E5F6": PROP16})) == PROP16


# ---------------------------------------------------------------- Type 2 memory


def test_short_messages_use_the_one_byte_length() -> None:
    assert type2_ndef_tlv(b"\xaa" * 3) == b"\x03\x03\xaa\xaa\xaa\xfe"
    assert type2_ndef_tlv(b"\xaa" * 254)[:2] == b"\x03\xfe"


def test_long_messages_use_the_three_byte_length() -> None:
    tlv = type2_ndef_tlv(b"\xaa" * 255)
    assert tlv[:4] == b"\x03\xff\x00\xff" and tlv[-1] == 0xFE and len(tlv) == 255 + 5
    assert type2_ndef_tlv(b"\xaa" * 300)[:4] == b"\x03\xff\x01\x2c"


@pytest.mark.parametrize("size", [0, 1, 254, 255, 256, 480])
def test_what_is_written_is_what_is_read(size: int) -> None:
    msg = bytes(range(256)) * 2
    msg = msg[:size]
    image = type2_write_image(NTAG215_CC, msg)
    assert len(image) % 4 == 0
    assert parse_type2_ndef(memory(NTAG215_CC, image + bytes(16))) == (msg or None)


def test_the_parser_skips_null_lock_and_memory_control_tlvs() -> None:
    data = (
        b"\x00\x00"  # NULL padding
        + b"\x01\x03\xa0\x0c\x34"  # lock control TLV
        + b"\x02\x03\x00\x00\x00"  # memory control TLV
        + type2_ndef_tlv(encode_card_record(PROP16))
    )
    assert decode_card_record(parse_type2_ndef(memory(NTAG213_CC, data))) == PROP16


@pytest.mark.parametrize(
    ("mem", "why"),
    [
        (memory(NTAG213_CC, b"\xfe" + bytes(20)), "terminator first"),
        (memory(NTAG213_CC, bytes(144)), "all NULL"),
        (memory(bytes(4), type2_ndef_tlv(b"\xd0\x00\x00")), "no capability container"),
        (memory(NTAG213_CC, b"\x03\x20\xd1\x01"), "truncated"),
        (memory(NTAG213_CC, b"\x03\xff\x01"), "truncated long length"),
        (memory(NTAG213_CC, b"\x03\x00\xfe"), "empty message"),
        (b"\x04\xa1\xb2", "too short"),
    ],
)
def test_memory_without_a_message_gives_none(mem: bytes, why: str) -> None:
    assert parse_type2_ndef(mem) is None, why


def test_the_capability_container_is_decoded() -> None:
    cap = parse_type2_cc(NTAG215_CC)
    assert (cap.version, cap.data_size, cap.readable, cap.writable) == (0x10, 496, True, True)
    assert not parse_type2_cc(bytes([0xE1, 0x10, 0x12, 0x0F])).writable


def test_writing_to_an_unformatted_tag_is_refused() -> None:
    with pytest.raises(TagError, match="not formatted as NFC Forum Type 2"):
        type2_write_image(bytes(4), encode_card_record(PROP16))


def test_writing_to_a_locked_tag_is_refused() -> None:
    with pytest.raises(TagError, match=r"locked \(read-only\)"):
        type2_write_image(bytes([0xE1, 0x10, 0x12, 0x0F]), encode_card_record(PROP16))


def test_a_record_too_large_names_both_sizes() -> None:
    expected = r"record too large for this tag \(203 bytes, tag holds 144\)"
    with pytest.raises(TagError, match=expected):
        type2_write_image(NTAG213_CC, b"\xaa" * 200)


def test_a_newer_mapping_version_is_refused() -> None:
    with pytest.raises(TagError, match=r"mapping version 2\.0"):
        parse_type2_cc(bytes([0xE1, 0x20, 0x12, 0x00]))


def test_tag_errors_are_value_errors_too() -> None:
    with pytest.raises(ValueError):
        parse_type2_cc(b"\xe1")


def test_a_classic_tags_record_names_its_card_in_any_game() -> None:
    """A deed, Chance or Community Chest tag's NDEF record is read (docs/classic.md §1.3): the unit,
    not the reader, then says whether the game has it (`Carte d'une autre édition`)."""
    from drivers.identity import encode_card_record, read_card_record

    for card in (CardId("deed", 28), CardId("chance", 16), CardId("chest", 1)):
        found = read_card_record(encode_card_record(card))
        assert found is not None and found.card == card and found.checked
    beyond = read_card_record(encode_card_record(CardId("deed", 99)))
    assert beyond is not None and beyond.card is None and "names no card" in beyond.fault


def test_every_card_of_every_edition_round_trips_and_the_edition_checks_it() -> None:
    """A record names any shipped edition's card: a classic box's bank cards 5 to 8 too (the
    default Ultime edition seats 4, and a tag written ``bank:6`` was "no card": the tag was
    unknown in the classic game it was written for). The game checks the range."""
    from bank.unit.io import CardRanges
    from board_assets import edition_names, load_edition

    for name in edition_names():
        cards = CardRanges.of(load_edition(name))
        for card in cards.cards():
            assert decode_card_record(encode_card_record(card)) == card, (name, card)
    assert decode_card_record(encode_card_record(CardId("bank", 9))) is None


def test_every_card_of_every_edition_is_read_without_a_check_and_refused_with_a_bad_one() -> None:
    """Issue 17: ``deed:12`` (what a phone's NFC app writes) was refused as damaged, its kind
    read as a 4-hex-digit check. Every card of every edition, as a plain URI or Text record, is
    read unchecked; with a check that fails it is refused as damaged."""
    from bank.unit.io import CardRanges
    from board_assets import edition_names, load_edition

    seen = set()
    for name in edition_names():
        for card in CardRanges.of(load_edition(name)).cards():
            if card in seen:
                continue
            seen.add(card)
            text = str(card)
            for data in (_uri(f"urn:ultibank:card:{text}"), message(f"ultibank {text}")):
                assert read_card_record(data) == CardRecord(card), text
            good = record_check(text)
            bad = f"{(int(good, 16) ^ 1):04x}"
            damaged = (_uri(f"urn:ultibank:card:{bad}:{text}"), message(f"ultibank {bad}:{text}"))
            for data in damaged:
                found = read_card_record(data)
                assert found is not None and found.card is None, text
                assert "fails its check" in found.fault
    assert {c.kind for c in seen} >= {"deed", "chance", "chest", "bank", "prop", "event"}
