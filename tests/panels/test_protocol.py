"""The serial panel protocol's codec: checksums, framing, faults, messages, round trips."""

from __future__ import annotations

import contextlib
import itertools
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bank.unit.io import KEYS, Button, Cue, Icon, Screen
from board_assets import load_edition
from drivers import panel_protocol as pp
from tests.panels.conftest import BALANCE, DEED


def test_crc_is_ccitt_false() -> None:
    assert pp.crc16(b"123456789") == 0x29B1


@given(st.binary(max_size=600))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    enc = pp.cobs_encode(data)
    assert 0 not in enc
    assert pp.cobs_decode(enc) == data


frames = st.builds(
    pp.Frame,
    st.sampled_from(list(pp.MsgType)),
    st.integers(0, 255),
    st.binary(max_size=pp.MAX_PAYLOAD),
)


@given(st.lists(frames, max_size=6), st.data())
def test_frames_survive_any_chunking(items: list[pp.Frame], data: st.DataObject) -> None:
    wire = b"".join(pp.encode_frame(f) for f in items)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=8)))
    dec = pp.FrameDecoder()
    out: list[pp.Frame | pp.FrameFault] = []
    start = 0
    for cut in [*cuts, len(wire)]:
        out += dec.feed(wire[start:cut])
        start = cut
    assert out == items
    assert dec.pending == 0
    assert dec.stats["frames"] == len(items)


def test_encoded_frame_is_delimited_and_limited() -> None:
    wire = pp.encode_frame(pp.Frame(pp.MsgType.SHOW, 7, bytes(range(256))[: pp.MAX_PAYLOAD]))
    assert wire[0] == 0 and wire[-1] == 0 and 0 not in wire[1:-1]
    assert len(wire) - 2 <= pp.MAX_ENCODED
    with pytest.raises(pp.ProtocolError, match="exceeds"):
        pp.encode_frame(pp.Frame(pp.MsgType.SHOW, 7, bytes(pp.MAX_PAYLOAD + 1)))
    with pytest.raises(pp.ProtocolError, match="not a byte"):
        pp.encode_frame(pp.Frame(pp.MsgType.PING, 256))


BUTTON_DOWN = pp.Frame(pp.MsgType.BUTTON, 9, pp.encode_button(pp.ButtonEvent(Button.OK, True)))
GOOD = pp.Frame(pp.MsgType.BUTTON, 10, pp.encode_button(pp.ButtonEvent(Button.MENU, True)))


def test_flipped_byte_is_one_fault_and_the_next_frame_survives() -> None:
    wire = bytearray(pp.encode_frame(BUTTON_DOWN))
    wire[4] ^= 0x20
    out = pp.FrameDecoder().feed(bytes(wire) + pp.encode_frame(GOOD))
    fault = out[0]
    assert isinstance(fault, pp.FrameFault) and isinstance(out[1], pp.Frame)
    assert fault.fault in (pp.Fault.CRC, pp.Fault.COBS)
    assert fault.seq is None
    assert out[1] == GOOD


def test_truncated_frame_does_not_swallow_the_next_one() -> None:
    wire = pp.encode_frame(BUTTON_DOWN)
    out = pp.FrameDecoder().feed(wire[:5] + pp.encode_frame(GOOD))
    assert len(out) == 2
    assert isinstance(out[0], pp.FrameFault)
    assert out[1] == GOOD


def test_runaway_bytes_are_dropped_until_the_next_delimiter() -> None:
    dec = pp.FrameDecoder()
    out = dec.feed(b"\x01" * (pp.MAX_ENCODED + 50))
    assert [f.fault for f in out if isinstance(f, pp.FrameFault)] == [pp.Fault.TOO_LONG]
    assert dec.feed(b"\x01" * 300) == []  # still discarding
    assert dec.feed(pp.encode_frame(GOOD)) == [GOOD]
    assert dec.stats["too_long"] == 1


def test_reset_reports_a_half_frame_as_truncated() -> None:
    dec = pp.FrameDecoder()
    assert dec.feed(pp.encode_frame(GOOD)[:6]) == []
    fault = dec.reset()
    assert fault is not None and fault.fault is pp.Fault.TRUNCATED
    assert dec.reset() is None
    assert dec.feed(pp.encode_frame(GOOD)) == [GOOD]


def _raw_frame(version: int, type_code: int, seq: int, length: int, payload: bytes) -> bytes:
    body = bytes((version, type_code, seq, length)) + payload
    body += pp.crc16(body).to_bytes(2, "big")
    return b"\x00" + pp.cobs_encode(body) + b"\x00"


@pytest.mark.parametrize(
    ("version", "type_code", "length", "fault", "reason"),
    [
        (2, 0x20, 2, pp.Fault.VERSION, pp.NakReason.VERSION),
        (1, 0x55, 2, pp.Fault.UNKNOWN_TYPE, pp.NakReason.UNKNOWN_TYPE),
        (1, 0x20, 3, pp.Fault.LENGTH, pp.NakReason.MALFORMED),
    ],
)
def test_intact_but_unacceptable_frames_are_naked_by_sequence(
    version: int, type_code: int, length: int, fault: pp.Fault, reason: pp.NakReason
) -> None:
    (out,) = pp.FrameDecoder().feed(_raw_frame(version, type_code, 42, length, b"\x01\x01"))
    assert isinstance(out, pp.FrameFault)
    assert out.fault is fault and out.seq == 42
    reply = pp.fault_nak(out)
    assert reply is not None
    (nak,) = pp.FrameDecoder().feed(reply)
    assert isinstance(nak, pp.Frame)
    assert pp.decode_nak(nak) == (42, reason)


def test_corrupted_frames_get_no_nak() -> None:
    assert pp.fault_nak(pp.FrameFault(pp.Fault.CRC, "x")) is None


@given(st.binary(max_size=800))
def test_decoder_never_raises_on_noise(noise: bytes) -> None:
    dec = pp.FrameDecoder()
    for item in dec.feed(noise) + [x for x in [dec.reset()] if x]:
        assert isinstance(item, pp.Frame | pp.FrameFault)


@given(st.binary(min_size=1, max_size=40), st.integers(0, 200), st.integers(1, 255))
def test_any_corruption_of_a_button_frame_is_never_a_frame(
    junk: bytes, where: int, mask: int
) -> None:
    """Whatever byte is damaged, a BUTTON frame is dropped (CRC), never delivered altered."""
    wire = bytearray(pp.encode_frame(BUTTON_DOWN))
    i = 1 + where % (len(wire) - 2)
    wire[i] ^= mask
    out = pp.FrameDecoder().feed(bytes(wire))
    assert not any(isinstance(x, pp.Frame) for x in out)
    # Cut anywhere and followed by other bytes up to a delimiter: a fault, never a frame.
    cut = 2 + where % (len(wire) - 3)
    tail = junk.replace(b"\x00", b"") + b"\x00"
    out = pp.FrameDecoder().feed(pp.encode_frame(BUTTON_DOWN)[:cut] + tail)
    assert len(out) == 1 and isinstance(out[0], pp.FrameFault)


# ---------------------------------------------------------------- messages


def test_every_button_cue_and_icon_has_a_wire_code() -> None:
    assert set(pp.BUTTON_CODES) == set(Button)
    assert set(pp.CUE_CODES) == set(Cue)
    assert set(pp.ICON_BITS) == set(Icon)
    assert len(set(pp.ICON_BITS.values())) == len(Icon)
    assert max(pp.ICON_BITS.values()) < pp.MAX_ICON_BYTES * 8


@given(st.sampled_from(list(Button)), st.booleans())
def test_button_round_trip(button: Button, down: bool) -> None:
    ev = pp.ButtonEvent(button, down)
    assert pp.decode_button(pp.encode_button(ev)) == ev


@pytest.mark.parametrize("payload", [b"", b"\x01", b"\x09\x01", b"\x01\x02", b"\x01\x01\x01"])
def test_bad_button_payloads_are_refused(payload: bytes) -> None:
    with pytest.raises(pp.ProtocolError):
        pp.decode_button(payload)


@given(st.sampled_from(list(Cue)))
def test_cue_round_trip(cue: Cue) -> None:
    assert pp.decode_cue(pp.encode_cue(cue)) == cue


short_text = st.text(
    st.characters(codec="utf-8"), max_size=pp.MAX_LINE // 4
)  # at most 4 UTF-8 bytes a character: never clipped
screens = st.builds(
    Screen,
    name=st.text(st.characters(codec="utf-8"), max_size=4),
    lines=st.lists(short_text, max_size=pp.MAX_LINES).map(tuple),
    amount=st.none() | st.integers(-(2**31), 2**31 - 1),
    number=st.none() | st.integers(0, 255),
    token=st.none() | st.sampled_from(load_edition().token_names),
    level=st.none() | st.integers(0, 255),
    icons=st.frozensets(st.sampled_from(list(Icon))),
    countdown=st.none() | st.integers(0, 0xFFFF),
    colour=st.none() | st.binary(min_size=3, max_size=3).map(lambda b: "#" + b.hex()),
    off=st.booleans(),
)


@given(screens)
def test_show_round_trip(screen: Screen) -> None:
    payload = pp.encode_show(screen)
    assert len(payload) <= pp.MAX_PAYLOAD
    assert pp.decode_show(payload) == screen


@given(
    st.lists(st.text(max_size=120), max_size=10).map(tuple),
    st.text(max_size=60),
    st.text(max_size=30),
)
def test_long_screens_are_clipped_to_fit_one_frame(
    lines: tuple[str, ...], name: str, token: str
) -> None:
    screen = Screen(name, lines=lines, token=token, amount=5, number=3, countdown=9)
    payload = pp.encode_show(screen)
    assert len(payload) <= pp.MAX_PAYLOAD
    got = pp.decode_show(payload)
    assert len(got.lines) == min(len(lines), pp.MAX_LINES)
    for sent, received in zip(lines, got.lines, strict=False):
        assert sent.startswith(received)
        assert len(received.encode()) <= pp.MAX_LINE
    assert got == pp.clip_screen(screen)


@given(st.binary(max_size=300))
def test_show_decoder_refuses_noise_cleanly(noise: bytes) -> None:
    with contextlib.suppress(pp.ProtocolError):
        pp.decode_show(noise)


def test_show_refuses_what_does_not_fit() -> None:
    with pytest.raises(pp.ProtocolError, match="32 bits"):
        pp.encode_show(Screen("x", amount=2**40))
    with pytest.raises(pp.ProtocolError, match="#rrggbb"):
        pp.encode_show(Screen("x", colour="red"))
    good = pp.encode_show(Screen("x", lines=("a",)))
    with pytest.raises(pp.ProtocolError, match="stray"):
        pp.decode_show(good + b"\x00")
    with pytest.raises(pp.ProtocolError, match="early"):
        pp.decode_show(good[:-1])


def test_hello_and_negotiation() -> None:
    host = pp.HostHello()
    assert pp.decode_host_hello(pp.encode_host_hello(host)) == host
    panel = pp.PanelHello(1, 16, 2, pp.Feature.LCD | pp.Feature.BUZZER, "rp2040 panel")
    got = pp.decode_panel_hello(pp.encode_panel_hello(panel))
    assert got == panel and got.has(pp.Feature.BUZZER) and not got.has(pp.Feature.GLYPHS)
    assert pp.negotiate(host, 3) == pp.PROTOCOL_VERSION
    with pytest.raises(pp.ProtocolError, match="host needs"):
        pp.negotiate(pp.HostHello(max_version=3, min_version=2), 1)
    with pytest.raises(pp.ProtocolError, match="LCD"):
        pp.decode_panel_hello(bytes((1, 0, 9, 0)))


def test_receive_window_suppresses_retransmissions() -> None:
    win = pp.ReceiveWindow()
    f = pp.Frame(pp.MsgType.BUTTON, 5, b"")
    assert win.accept(f) is True
    assert win.accept(f) is False  # the ACK was lost and the sender repeated itself
    assert win.accept(pp.Frame(pp.MsgType.BUTTON, 6, b"")) is True
    # A HELLO (the other end restarted) is always taken and restarts the window.
    assert win.accept(pp.Frame(pp.MsgType.HELLO, 6, b"")) is True
    assert win.accept(pp.Frame(pp.MsgType.BUTTON, 1, b"")) is True


def test_sequence_numbers_skip_zero() -> None:
    seq = pp.SequenceCounter()
    got = [seq.next() for _ in range(600)]
    assert 0 not in got and min(got) == 1 and max(got) == 255
    assert all(a != b for a, b in itertools.pairwise(got))


@given(st.lists(frames, min_size=1, max_size=4), st.binary(max_size=300))
@settings(max_examples=200)
def test_valid_frames_after_noise_are_recovered(items: list[pp.Frame], noise: bytes) -> None:
    """Any junk on the line costs at most the junk itself: framed frames after it arrive."""
    assume(len(noise) > 0)
    out = pp.FrameDecoder().feed(noise + b"".join(pp.encode_frame(f) for f in items))
    assert [x for x in out if isinstance(x, pp.Frame)][-len(items) :] == items


# ---------------------------------------------------------------- version 2 and version 1

#: SHOW payloads as the version 1 codec wrote them (before version 2 existed): a version 1
#: panel must keep receiving exactly these bytes
V1_SHOWS = [
    (
        BALANCE,
        "3e0870726f7065727479000000fa1604626f61740300080008020e527565206465206c612050616978"
        "094c6f79657220323530",
    ),
    (
        DEED,
        "5e04646565640000000e0c0b776865656c626172726f7705d93a968401020d31322041762e204d6f7a"
        "61727412636869656e206c6f79657220313420e282ac",
    ),
    (Screen("off", off=True), "01036f6666000000"),
]


@pytest.mark.parametrize(("screen", "wire"), V1_SHOWS)
def test_a_version_1_panel_gets_the_bytes_it_always_got(screen: Screen, wire: str) -> None:
    assert pp.encode_show(screen, 1).hex() == wire
    assert pp.decode_show(bytes.fromhex(wire), 1) == screen


def test_the_frame_format_is_unchanged_and_the_hello_offers_both_versions() -> None:
    frame = pp.encode_frame(pp.Frame(pp.MsgType.BUTTON, 5, b"\x0c\x01"))
    (back,) = pp.FrameDecoder().feed(frame)
    assert isinstance(back, pp.Frame) and back.version == pp.FRAME_VERSION == 1
    assert pp.cobs_decode(frame[1:-1])[0] == 1  # the ver byte an old panel checks
    assert pp.encode_host_hello(pp.HostHello()) == bytes((2, 1))
    assert pp.encode_host_hello(pp.HostHello(1, 1)) == bytes((1, 1))  # a version 1 bank
    assert pp.negotiate(pp.HostHello(), 1) == 1  # an old panel
    assert pp.negotiate(pp.HostHello(1, 1), 2) == 1  # an old bank


def test_the_keypad_bit_means_a_keypad_only_from_version_2() -> None:
    features = pp.Feature.LCD | pp.Feature.BUTTONS | pp.Feature.KEYPAD
    assert pp.Feature.KEYPAD == 0x20
    assert pp.PanelHello(2, features=features).keypad
    assert not pp.PanelHello(1, features=features).keypad
    assert not pp.PanelHello(2, features=pp.Feature.LCD | pp.Feature.BUTTONS).keypad


def test_the_key_ids_are_10_to_19_for_the_digits_and_20_for_back() -> None:
    wire = {"0": 10, "1": 11, "2": 12, "3": 13, "4": 14, "5": 15, "6": 16, "7": 17, "8": 18}
    wire.update({"9": 19, "back": 20})
    assert wire == pp.KEY_CODES
    assert set(pp.KEY_CODES) == set(KEYS)
    assert not set(pp.KEY_CODES.values()) & set(pp.BUTTON_CODES.values())


@given(st.sampled_from(KEYS), st.booleans())
def test_key_round_trip_with_a_keypad(key: str, down: bool) -> None:
    ev = pp.KeyEvent(key, down)
    wire = pp.encode_key(ev)
    assert pp.decode_button(wire, keypad=True) == ev
    with pytest.raises(pp.ProtocolError, match="did not announce a keypad"):
        pp.decode_button(wire)  # a panel without the bit


@pytest.mark.parametrize("payload", [b"\x15\x01", b"\x04\x01", b"\x09\x00", b"\x0c\x02", b"\x0c"])
def test_bad_key_payloads_are_refused_even_with_a_keypad(payload: bytes) -> None:
    with pytest.raises(pp.ProtocolError):
        pp.decode_button(payload, keypad=True)


def test_version_2_ignores_icon_bits_it_does_not_know_and_version_1_refuses_them() -> None:
    plain = pp.encode_show(Screen("x", icons=frozenset({Icon.DICE})))
    assert plain.endswith(bytes((2, 0x10, 0x00, 0)))  # 2 mask bytes, bit 12, no lines
    later = plain[:-4] + bytes((3, 0x10, 0x10, 0x00, 0))  # bit 20: an icon added later
    assert pp.decode_show(later) == Screen("x", icons=frozenset({Icon.DICE}))
    assert pp.encode_show(Screen("x")).endswith(bytes((0, 0)))  # no icon: no mask byte
    with pytest.raises(pp.ProtocolError, match="at most 4"):
        pp.decode_show(plain[:-4] + bytes((5, 0, 0, 0, 0, 1, 0)))
    # version 1: always a u16, every bit of which is taken (0..15)
    assert pp.encode_show(Screen("x", icons=frozenset({Icon.DICE})), 1).endswith(b"\x10\x00\x00")


# ---------------------------------------------------------------- classic screens

CLASSIC_EDITIONS = (
    "classic-fr",
    "classic-uk",
    "starwars-ep2-fr",
    "one-piece-fr",
    "mega-fr",
    "mega-uk",
)


def _labels() -> list[str]:
    """Every token id and LCD label of the classic editions (8 players each at most)."""
    from bank.rulesets.classic.edition import classic_edition

    out: list[str] = []
    for name in CLASSIC_EDITIONS:
        edition = load_edition(name)
        out += [*edition.token_names, *classic_edition(edition).token_labels]
    return out


CLASSIC_TOKENS = _labels()


def test_the_token_field_takes_every_classic_players_label() -> None:
    assert len(CLASSIC_TOKENS) == 2 * (8 + 8 + 8 + 6 + 8 + 8)
    assert {"Obi-Wan", "Droïde", "Mace Windu", "brouette"} <= set(CLASSIC_TOKENS)
    for version in (1, 2):
        for token in CLASSIC_TOKENS:
            screen = Screen("balance", ("x",), amount=1500, token=token)
            assert pp.decode_show(pp.encode_show(screen, version), version) == screen, token
    # Any token an edition file may name (20 characters) crosses version 2 whole when its
    # script takes two bytes a character; version 1 keeps its 12 bytes.
    longest = "Éléphant à trompette"
    assert len(longest) == 20
    screen = Screen("balance", token=longest)
    assert pp.clip_screen(screen) == screen
    assert pp.clip_screen(screen, 1).token == "Éléphant "


classic_screens = st.builds(
    Screen,
    name=st.sampled_from(["deed", "entry", "pick", "menu", "trade", "dice", "info", "auction"]),
    lines=st.lists(short_text, min_size=1, max_size=2).map(tuple),
    amount=st.none() | st.integers(-1_000_000, 1_000_000),
    number=st.none() | st.integers(1, 37),
    token=st.none() | st.sampled_from(CLASSIC_TOKENS),
    level=st.none() | st.integers(0, 6),
    icons=st.frozensets(st.sampled_from(list(Icon))),
    countdown=st.none() | st.integers(0, 60),
    colour=st.none() | st.binary(min_size=3, max_size=3).map(lambda b: "#" + b.hex()),
)


@given(classic_screens)
def test_a_classic_screen_crosses_version_2_whole(screen: Screen) -> None:
    payload = pp.encode_show(screen)
    assert len(pp.encode_frame(pp.Frame(pp.MsgType.SHOW, 1, payload))) <= pp.MAX_ENCODED + 2
    assert pp.decode_show(payload) == screen


def test_the_largest_version_2_screen_fits_one_frame() -> None:
    fat = Screen(
        "x" * 40,
        lines=tuple("é" * 40 for _ in range(6)),
        amount=-(2**31),
        number=255,
        token="é" * 40,
        level=255,
        icons=frozenset(Icon),
        countdown=0xFFFF,
        colour="#ffffff",
        off=True,
    )
    used = max(pp.ICON_BITS.values()) // 8 + 1  # the bytes today's icons take
    room_for_icons = pp.MAX_ICON_BYTES - used  # the bits above them, still free
    assert len(pp.encode_show(fat)) + room_for_icons <= pp.MAX_PAYLOAD


def test_every_screen_of_the_classic_scenarios_crosses_the_wire_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The classic unit's real screens (every scenario of tests/scripts/classic, French and
    English): version 2 carries each field as it is (but the glass's wide lines); version 1
    too, but for the icons above bit 15 (the skyscraper, the depot, the Force)."""
    from bank.app.script import ScriptRunner
    from bank.cli import main
    from bank.unit.io import Output, ShowScreen
    from tests.unit.test_classic_scripts import ALL, args_of

    shown: list[Screen] = []
    emit = ScriptRunner._emit

    def spy(self: ScriptRunner, outputs: list[Output]) -> None:
        shown.extend(o.screen for o in outputs if isinstance(o, ShowScreen))
        emit(self, outputs)

    monkeypatch.setattr(ScriptRunner, "_emit", spy)
    for n, path in enumerate(ALL):
        assert (
            main(["script", str(path), *args_of(path), "--data-dir", str(tmp_path / str(n))]) == 0
        )
    capsys.readouterr()
    names = {s.name for s in shown}
    assert {"deed", "entry", "pick", "menu", "trade", "dice", "interest", "auction"} <= names
    assert any(s.level == 5 for s in shown) and any(s.colour for s in shown)
    # the mega_* and sw_* scenarios are among them: a skyscraper (level 6), the new icons,
    # the third die in a dice total, Star Wars' characters, the Force battle, the gift
    assert any(s.level == 6 and Icon.SKYSCRAPER in s.icons for s in shown)
    assert any(Icon.DEPOT in s.icons for s in shown) and any(Icon.FORCE in s.icons for s in shown)
    assert any(s.name == "dice" and s.lines[0].count("+") == 2 for s in shown)
    assert {"obiwan", "dooku"} <= {s.token for s in shown}
    assert {"force", "gift"} <= names
    assert any(s.wide for s in shown)
    for shown_screen in set(shown):
        # the lines written for the emulator's 25-cell glass stay home: a panel's character
        # LCD lays out the 20-cell lines
        screen = replace(shown_screen, wide=())
        assert pp.decode_show(pp.encode_show(shown_screen)) == screen, screen
        # version 1 has bits 0..15 only: Méga's and Star Wars' icons (16..31) are left out
        v1 = replace(screen, icons=frozenset(i for i in screen.icons if pp.ICON_BITS[i] < 16))
        assert pp.decode_show(pp.encode_show(screen, 1), 1) == v1, screen


def test_the_icon_table_gives_a_rulesets_own_icon_a_bit_the_bank_announces() -> None:
    """Bits 20-31 are the bank's icon table: an ICON message names the icon and its word, a
    SHOW lights it; without the table the icon is left out (never a new protocol version)."""
    star = Icon("star")
    table = pp.icon_table([(Icon.GO, "GO"), (star, "STAR")])
    assert table == (pp.IconEntry(20, star, "STAR"),)  # a fixed icon keeps its fixed bit
    payload = pp.encode_icon(table[0])
    assert payload == bytes.fromhex("1404") + b"star" + b"STAR"
    assert pp.decode_icon(payload) == table[0]
    screen = Screen("wish", ("Wished 2",), amount=2, icons=frozenset({star, Icon.GO}))
    shown = pp.encode_show(screen, table=table)
    assert pp.decode_show(shown, table=table) == screen
    assert pp.decode_show(shown).icons == {Icon.GO}  # a panel without the table
    assert pp.decode_show(pp.encode_show(screen)).icons == {Icon.GO}  # a bank without one
    for bad in (bytes.fromhex("1304") + b"star", bytes.fromhex("1410") + b"star", b"\x14"):
        with pytest.raises(pp.ProtocolError):
            pp.decode_icon(bad)
