"""The serial front-panel protocol: frame codec and message payloads, shared by both ends.

The daemon (:mod:`drivers.serial_panel`) and the panel's firmware (a microcontroller, or
:mod:`firmware_sim.panel_firmware`) speak it; ``docs/serial-protocol.md`` is the spec.

A frame on the wire is ``00 | COBS(ver, type, seq, len, payload, crc16) | 00``: the zero
delimiters make resynchronisation trivial after noise, a truncated or corrupted frame fails its
CRC-16/CCITT-FALSE and is dropped as one fault, never acted upon. Everything here is pure: no
I/O, no clock, no threads, so the codec is unit-testable byte for byte.

Imports ``bank.unit.io`` and the standard library only.
"""

from __future__ import annotations

import binascii
import struct
from collections import Counter
from dataclasses import dataclass
from enum import Enum, IntEnum

from bank.unit.io import Button, Cue, Icon, Screen

#: the frame format's version (the ``ver`` byte of every frame); unchanged since version 1
FRAME_VERSION = 1
#: the newest message set this module speaks (negotiated in HELLO): 2 adds the keypad's key
#: ids and the variable-length icon field of SHOW
PROTOCOL_VERSION = 2
#: the oldest panel version the host still accepts
MIN_PROTOCOL_VERSION = 1
#: the first version with the keypad (``Feature.KEYPAD``, key ids 10-20)
KEYPAD_VERSION = 2
#: the largest payload a frame may carry (the firmware's receive buffer is sized from it)
MAX_PAYLOAD = 240
_HEADER = 4  # ver, type, seq, len
_CRC = 2
#: the largest decoded frame (header + payload + CRC)
MAX_FRAME = _HEADER + MAX_PAYLOAD + _CRC
#: the largest COBS-encoded frame, without its delimiters
MAX_ENCODED = MAX_FRAME + MAX_FRAME // 254 + 1
DELIMITER = b"\x00"


class ProtocolError(ValueError):
    """A payload that does not follow the protocol (raised by the message decoders)."""


class MsgType(IntEnum):
    """Frame types. ACK and NAK are never acknowledged themselves and carry sequence 0."""

    HELLO = 0x01  # both ways: version negotiation; the panel reports its LCD and features
    PING = 0x02  # host -> panel: liveness; the ACK is the answer
    SHOW = 0x10  # host -> panel: a screen
    CUE = 0x11  # host -> panel: a sound cue
    ICON = 0x12  # host -> panel: one entry of the icon table (a panel with Feature.ICONS)
    BUTTON = 0x20  # panel -> host: a button went down or up
    ERROR = 0x30  # panel -> host: the panel reports a problem (text)
    ACK = 0x7E  # either way: payload = the acknowledged sequence number
    NAK = 0x7F  # either way: payload = sequence number + NakReason


UNACKED = frozenset({MsgType.ACK, MsgType.NAK})


class NakReason(IntEnum):
    """Why an intact frame was refused (a frame failing its CRC is never NAKed: seq unknown)."""

    VERSION = 1
    UNKNOWN_TYPE = 2
    MALFORMED = 3
    BUSY = 4


class Fault(Enum):
    """What went wrong with a chunk of received bytes."""

    COBS = "cobs"  # the COBS encoding is broken (a zero inside, a code past the end)
    TOO_LONG = "too_long"  # more than MAX_ENCODED bytes without a delimiter
    TOO_SHORT = "too_short"  # fewer bytes than a header and a CRC
    CRC = "crc"  # the checksum does not match: corrupted or truncated
    LENGTH = "length"  # the length byte disagrees with the payload (CRC was fine)
    VERSION = "version"  # a frame format version this side does not speak
    UNKNOWN_TYPE = "unknown_type"
    TRUNCATED = "truncated"  # bytes pending when the link was reset


class Feature(IntEnum):
    """Bits of the panel's feature mask in its HELLO."""

    LCD = 0x01
    BUZZER = 0x02
    BACKLIGHT = 0x04
    GLYPHS = 0x08  # custom CGRAM glyphs (level bar, clock)
    BUTTONS = 0x10
    KEYPAD = 0x20  # version 2: digits 0-9 and ⌫ as BUTTON ids 10-20 (docs/classic.md §5.6)
    ICONS = 0x40  # version 2: takes the bank's icon table (ICON messages) for bits 20-31


# Stable wire codes: appending is fine, renumbering breaks deployed panels.
BUTTON_CODES: dict[Button, int] = {Button.OK: 1, Button.MENU: 2, Button.CANCEL: 3}
CUE_CODES: dict[Cue, int] = {
    Cue.READ: 1,
    Cue.KACHING: 2,
    Cue.LEVEL_UP: 3,
    Cue.ERROR: 4,
    Cue.AUCTION_TICK: 5,
    Cue.HAMMER: 6,
    Cue.UNDO: 7,
    Cue.JAIL: 8,
    Cue.GAME_OVER: 9,
    Cue.DICE: 10,
}
ICON_BITS: dict[Icon, int] = {
    Icon.GO: 0,
    Icon.JAIL: 1,
    Icon.LOCATION: 2,
    Icon.AUCTION: 3,
    Icon.UNDO: 4,
    Icon.TROPHY: 5,
    Icon.EVENT: 6,
    Icon.DEBT: 7,
    Icon.ERROR: 8,
    Icon.READER_LOST: 9,
    Icon.MORTGAGE: 10,
    Icon.TAX: 11,
    Icon.DICE: 12,
    Icon.TRADE: 13,
    Icon.POT: 14,
    Icon.CARD: 15,
    # version 2 only (docs/serial-protocol.md)
    Icon.KEYPAD: 16,
    Icon.FORCE: 17,
    Icon.SKYSCRAPER: 18,
    Icon.DEPOT: 19,
}
#: the keypad's keys (``bank.unit.io.KEYS``) as BUTTON ids, version 2 with ``Feature.KEYPAD``
KEY_CODES: dict[str, int] = {**{str(d): 10 + d for d in range(10)}, "back": 20}
_BUTTON_BY_CODE = {v: k for k, v in BUTTON_CODES.items()}
_KEY_BY_CODE = {v: k for k, v in KEY_CODES.items()}
_CUE_BY_CODE = {v: k for k, v in CUE_CODES.items()}


@dataclass(frozen=True, slots=True)
class Frame:
    """One intact frame: its type, sequence number and payload."""

    type: MsgType
    seq: int
    payload: bytes = b""
    version: int = FRAME_VERSION


@dataclass(frozen=True, slots=True)
class FrameFault:
    """Bytes that were dropped. *seq* is set only when the CRC held (so a NAK can name it)."""

    fault: Fault
    detail: str
    seq: int | None = None
    size: int = 0


# ---------------------------------------------------------------- checksum and COBS


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): ``crc16(b"123456789") == 0x29B1``."""
    return binascii.crc_hqx(data, 0xFFFF)


def cobs_encode(data: bytes) -> bytes:
    """Consistent Overhead Byte Stuffing: the result contains no zero byte."""
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out += block
                block.clear()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    """Undo :func:`cobs_encode`; ProtocolError on a zero byte or a code past the end."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtocolError("zero byte inside a COBS block")
        end = i + code
        if end > n:
            raise ProtocolError("COBS code runs past the end of the frame")
        block = data[i + 1 : end]
        if 0 in block:
            raise ProtocolError("zero byte inside a COBS block")
        out += block
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


# ---------------------------------------------------------------- frames


def encode_frame(frame: Frame) -> bytes:
    """The bytes to write for *frame*, delimiters included."""
    if not 0 <= frame.seq <= 255:
        raise ProtocolError(f"sequence number {frame.seq} is not a byte")
    if len(frame.payload) > MAX_PAYLOAD:
        raise ProtocolError(f"payload of {len(frame.payload)} bytes exceeds {MAX_PAYLOAD}")
    body = bytes((frame.version, int(frame.type), frame.seq, len(frame.payload))) + frame.payload
    body += struct.pack(">H", crc16(body))
    return DELIMITER + cobs_encode(body) + DELIMITER


def _parse_body(raw: bytes) -> Frame | FrameFault:
    try:
        body = cobs_decode(raw)
    except ProtocolError as err:
        return FrameFault(Fault.COBS, str(err), size=len(raw))
    if len(body) < _HEADER + _CRC:
        return FrameFault(Fault.TOO_SHORT, f"{len(body)} bytes", size=len(raw))
    (want,) = struct.unpack(">H", body[-_CRC:])
    got = crc16(body[:-_CRC])
    if want != got:
        return FrameFault(Fault.CRC, f"crc {got:04x} != {want:04x}", size=len(raw))
    version, type_code, seq, length = body[:_HEADER]
    payload = body[_HEADER:-_CRC]
    if length != len(payload):
        return FrameFault(
            Fault.LENGTH, f"length byte {length}, payload {len(payload)}", seq, len(raw)
        )
    if version != FRAME_VERSION:
        return FrameFault(Fault.VERSION, f"frame version {version}", seq, len(raw))
    try:
        kind = MsgType(type_code)
    except ValueError:
        return FrameFault(Fault.UNKNOWN_TYPE, f"type 0x{type_code:02x}", seq, len(raw))
    return Frame(kind, seq, payload, version)


class FrameDecoder:
    """Incremental parser: ``feed(bytes)`` returns the frames and faults completed so far.

    Keeps counts in :attr:`stats` (``frames`` and one key per :class:`Fault` value).
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False
        self.stats: Counter[str] = Counter()

    @property
    def pending(self) -> int:
        """Bytes of an unfinished frame held in the buffer."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[Frame | FrameFault]:
        """Consume *data*; return every frame or fault it completed, in order."""
        out: list[Frame | FrameFault] = []
        for chunk_end, part in _split_keep(data):
            if self._overflow:
                if chunk_end:
                    self._overflow = False
                continue
            self._buf += part
            if len(self._buf) > MAX_ENCODED:
                out.append(FrameFault(Fault.TOO_LONG, "no delimiter", size=len(self._buf)))
                self._buf.clear()
                self._overflow = not chunk_end
                continue
            if chunk_end:
                if self._buf:
                    out.append(_parse_body(bytes(self._buf)))
                self._buf.clear()
        for item in out:
            self.stats["frames" if isinstance(item, Frame) else item.fault.value] += 1
        return out

    def reset(self) -> FrameFault | None:
        """Drop a half-received frame (the link was reset); report it as truncated."""
        size = len(self._buf)
        self._buf.clear()
        self._overflow = False
        if size:
            self.stats[Fault.TRUNCATED.value] += 1
            return FrameFault(Fault.TRUNCATED, f"{size} bytes pending at reset", size=size)
        return None


def _split_keep(data: bytes) -> list[tuple[bool, bytes]]:
    """Split on zero bytes: (ends_with_delimiter, part) pairs."""
    parts = data.split(DELIMITER)
    result = [(True, p) for p in parts[:-1]]
    if parts[-1]:
        result.append((False, parts[-1]))
    return result


class SequenceCounter:
    """Sequence numbers 1..255 for reliable frames (0 is reserved for ACK/NAK)."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        """The next sequence number."""
        self._last = self._last % 255 + 1
        return self._last


class ReceiveWindow:
    """Duplicate suppression for stop-and-wait: a retransmission repeats the last sequence."""

    def __init__(self) -> None:
        self._last: int | None = None

    def accept(self, frame: Frame) -> bool:
        """True if *frame* is new and must be acted upon; a HELLO always restarts the window."""
        if frame.type is MsgType.HELLO:
            self._last = frame.seq
            return True
        if frame.seq == self._last:
            return False
        self._last = frame.seq
        return True

    def reset(self) -> None:
        """Forget the last sequence (a new link)."""
        self._last = None


def ack(seq: int) -> bytes:
    """Encoded ACK of *seq*."""
    return encode_frame(Frame(MsgType.ACK, 0, bytes((seq,))))


def nak(seq: int, reason: NakReason) -> bytes:
    """Encoded NAK of *seq* with *reason*."""
    return encode_frame(Frame(MsgType.NAK, 0, bytes((seq, int(reason)))))


def fault_nak(fault: FrameFault) -> bytes | None:
    """The NAK a receiver sends for *fault*, or None when the sequence is not trustworthy."""
    if fault.seq is None:
        return None
    reason = {
        Fault.VERSION: NakReason.VERSION,
        Fault.UNKNOWN_TYPE: NakReason.UNKNOWN_TYPE,
    }.get(fault.fault, NakReason.MALFORMED)
    return nak(fault.seq, reason)


def decode_ack(frame: Frame) -> int:
    """The sequence an ACK acknowledges."""
    if len(frame.payload) != 1:
        raise ProtocolError(f"ACK payload of {len(frame.payload)} bytes, expected 1")
    return frame.payload[0]


def decode_nak(frame: Frame) -> tuple[int, NakReason | int]:
    """The sequence a NAK refuses and why (an unknown reason stays an int)."""
    if len(frame.payload) != 2:
        raise ProtocolError(f"NAK payload of {len(frame.payload)} bytes, expected 2")
    seq, code = frame.payload
    try:
        return seq, NakReason(code)
    except ValueError:
        return seq, code


# ---------------------------------------------------------------- HELLO


@dataclass(frozen=True, slots=True)
class HostHello:
    """The host's HELLO: the range of versions it speaks."""

    max_version: int = PROTOCOL_VERSION
    min_version: int = MIN_PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class PanelHello:
    """The panel's HELLO: the version it chose, its LCD size and features, its name."""

    version: int = PROTOCOL_VERSION
    cols: int = 20
    rows: int = 4
    features: int = Feature.LCD | Feature.BUZZER | Feature.BUTTONS
    name: str = ""

    def has(self, feature: Feature) -> bool:
        """True if the panel announced *feature*."""
        return bool(self.features & feature)

    @property
    def keypad(self) -> bool:
        """True if the panel sends keypad keys: ``Feature.KEYPAD`` at version 2 or later (the
        bit means nothing at version 1)."""
        return self.version >= KEYPAD_VERSION and self.has(Feature.KEYPAD)


def encode_host_hello(hello: HostHello) -> bytes:
    """Payload of the host's HELLO."""
    return bytes((hello.max_version, hello.min_version))


def decode_host_hello(payload: bytes) -> HostHello:
    """Parse the host's HELLO payload."""
    if len(payload) != 2:
        raise ProtocolError(f"host HELLO of {len(payload)} bytes, expected 2")
    hi, lo = payload
    if lo > hi:
        raise ProtocolError(f"host HELLO min version {lo} above max {hi}")
    return HostHello(hi, lo)


def encode_panel_hello(hello: PanelHello) -> bytes:
    """Payload of the panel's HELLO."""
    name = _clip(hello.name, 32)
    return bytes((hello.version, hello.cols, hello.rows, hello.features)) + name


def decode_panel_hello(payload: bytes) -> PanelHello:
    """Parse the panel's HELLO payload."""
    if len(payload) < 4:
        raise ProtocolError(f"panel HELLO of {len(payload)} bytes, expected at least 4")
    version, cols, rows, features = payload[:4]
    if not (1 <= cols <= 40 and 1 <= rows <= 4):
        raise ProtocolError(f"panel HELLO reports an LCD of {cols}x{rows}")
    return PanelHello(version, cols, rows, features, _text(payload[4:], "panel name"))


def negotiate(host: HostHello, panel_max: int) -> int:
    """The version both ends speak, or ProtocolError when the ranges do not meet."""
    chosen = min(host.max_version, panel_max)
    if chosen < host.min_version:
        raise ProtocolError(
            f"panel speaks protocol version {panel_max}, host needs {host.min_version}.."
            f"{host.max_version}"
        )
    return chosen


# ---------------------------------------------------------------- BUTTON, CUE, ERROR


@dataclass(frozen=True, slots=True)
class ButtonEvent:
    """A button went down (``down=True``) or up."""

    button: Button
    down: bool


@dataclass(frozen=True, slots=True)
class KeyEvent:
    """A keypad key (``0``-``9`` or ``back``, as ``bank.unit.io.KEYS``) went down or up."""

    key: str
    down: bool


def encode_button(event: ButtonEvent) -> bytes:
    """Payload of BUTTON."""
    return bytes((BUTTON_CODES[event.button], 1 if event.down else 0))


def encode_key(event: KeyEvent) -> bytes:
    """Payload of BUTTON for a keypad key (version 2, a panel that announced the keypad)."""
    return bytes((KEY_CODES[event.key], 1 if event.down else 0))


def decode_button(payload: bytes, *, keypad: bool = False) -> ButtonEvent | KeyEvent:
    """Parse a BUTTON payload. Key ids (10-20) are accepted only with *keypad* (the panel
    announced ``Feature.KEYPAD`` at version 2); otherwise they are refused like unknown ids."""
    if len(payload) != 2:
        raise ProtocolError(f"BUTTON payload of {len(payload)} bytes, expected 2")
    code, state = payload
    if state not in (0, 1):
        raise ProtocolError(f"button state {state} is neither 0 (up) nor 1 (down)")
    if code in _BUTTON_BY_CODE:
        return ButtonEvent(_BUTTON_BY_CODE[code], state == 1)
    if code in _KEY_BY_CODE:
        if not keypad:
            raise ProtocolError(f"key id {code} from a panel that did not announce a keypad")
        return KeyEvent(_KEY_BY_CODE[code], state == 1)
    raise ProtocolError(f"unknown button id {code}")


def encode_cue(cue: Cue) -> bytes:
    """Payload of CUE."""
    return bytes((CUE_CODES[cue],))


def decode_cue(payload: bytes) -> Cue:
    """Parse a CUE payload."""
    if len(payload) != 1 or payload[0] not in _CUE_BY_CODE:
        raise ProtocolError(f"bad CUE payload {payload.hex()}")
    return _CUE_BY_CODE[payload[0]]


def encode_error(code: int, text: str) -> bytes:
    """Payload of ERROR."""
    return bytes((code & 0xFF,)) + _clip(text, MAX_PAYLOAD - 1)


def decode_error(payload: bytes) -> tuple[int, str]:
    """Parse an ERROR payload: (code, text)."""
    if not payload:
        raise ProtocolError("empty ERROR payload")
    return payload[0], _text(payload[1:], "error text")


# ---------------------------------------------------------------- SHOW

#: limits of a SHOW payload; longer fields are clipped by the encoder
MAX_NAME = 16
#: a token's bytes: version 2 carries any 20-character token of an edition file in a
#: two-byte script (accents); version 1 kept 12
MAX_TOKEN = 40
MAX_TOKEN_V1 = 12
MAX_LINES = 4
MAX_LINE = 40
#: version 2's icon field: at most this many mask bytes (bits 0..31); 0..15 are version 1's
MAX_ICON_BYTES = 4

_F_OFF = 0x01
_F_AMOUNT = 0x02
_F_NUMBER = 0x04
_F_TOKEN = 0x08
_F_LEVEL = 0x10
_F_COUNTDOWN = 0x20
_F_COLOUR = 0x40
_F_KNOWN = 0x7F


def clip_screen(screen: Screen, version: int = PROTOCOL_VERSION) -> Screen:
    """*screen* as a panel of *version* will receive it: fields clipped to the SHOW limits,
    icons it has no bit for left out."""
    return decode_show(encode_show(screen, version), version)


#: the icon bits the bank gives out in its icon table (ICON messages), after the fixed ones
TABLE_BITS = range(20, 32)
#: the longest icon name and word an ICON message carries (bytes)
MAX_ICON_NAME = 16
MAX_ICON_WORD = 16


@dataclass(frozen=True, slots=True)
class IconEntry:
    """One entry of the bank's icon table: bit *bit* of SHOW's icon field lights *icon*, which
    a character LCD writes as *word* (the ruleset's word for it, in the game's language)."""

    bit: int
    icon: Icon
    word: str


def icon_table(icons: list[tuple[Icon, str]]) -> tuple[IconEntry, ...]:
    """The table the bank sends for a ruleset's own *icons* (icon, word), each on the next
    table bit (as many as :data:`TABLE_BITS` holds; icons with a fixed bit are left out)."""
    own = [(icon, word) for icon, word in icons if icon not in ICON_BITS]
    return tuple(
        IconEntry(bit, icon, word) for bit, (icon, word) in zip(TABLE_BITS, own, strict=False)
    )


def encode_icon(entry: IconEntry) -> bytes:
    """Payload of ICON: bit, the name's length and the name (ASCII), then the word (UTF-8)."""
    if entry.bit not in TABLE_BITS:
        raise ProtocolError(f"icon bit {entry.bit} is not a table bit")
    name = entry.icon.value.encode("ascii")[:MAX_ICON_NAME]
    word = entry.word.encode("utf-8")[:MAX_ICON_WORD].decode("utf-8", "ignore").encode()
    return bytes((entry.bit, len(name))) + name + word


def decode_icon(payload: bytes) -> IconEntry:
    """Parse an ICON payload (ProtocolError when it is not one)."""
    if len(payload) < 2 or payload[0] not in TABLE_BITS:
        raise ProtocolError(f"ICON of {len(payload)} bytes or a bit outside the table")
    size = payload[1]
    if not 2 <= size <= MAX_ICON_NAME or len(payload) < 2 + size:
        raise ProtocolError(f"ICON name of {size} bytes")
    try:
        icon = Icon(payload[2 : 2 + size].decode("ascii"))
        word = payload[2 + size :].decode("utf-8")
    except (UnicodeDecodeError, ValueError) as err:
        raise ProtocolError(f"ICON: {err}") from err
    if len(payload) - 2 - size > MAX_ICON_WORD:
        raise ProtocolError(f"ICON word of {len(payload) - 2 - size} bytes")
    return IconEntry(payload[0], icon, word)


def icon_mask(
    icons: frozenset[Icon], version: int = PROTOCOL_VERSION, table: tuple[IconEntry, ...] = ()
) -> int:
    """The icon bits of *icons* a panel of *version* can take (version 1: bits 0..15), the
    fixed ones and those of the icon *table* the panel was sent; an icon with no bit is left
    out (the panel does not draw it)."""
    bits = {e.icon: e.bit for e in table}
    mask = 0
    for icon in icons:
        bit = ICON_BITS.get(icon, bits.get(icon))
        if bit is not None:
            mask |= 1 << bit
    return mask if version >= 2 else mask & 0xFFFF


def encode_show(
    screen: Screen, version: int = PROTOCOL_VERSION, table: tuple[IconEntry, ...] = ()
) -> bytes:
    """Payload of SHOW for a panel speaking *version*: a compact encoding of *screen* (text
    clipped to the limits). Version 1 and 2 differ in the token's limit and the icon field."""
    flags = 0
    body = bytearray()
    if screen.off:
        flags |= _F_OFF
    if screen.amount is not None:
        if not -(2**31) <= screen.amount < 2**31:
            raise ProtocolError(f"amount {screen.amount} does not fit 32 bits")
        flags |= _F_AMOUNT
        body += struct.pack(">i", screen.amount)
    if screen.number is not None:
        flags |= _F_NUMBER
        body.append(_byte(screen.number, "number"))
    if screen.token is not None:
        flags |= _F_TOKEN
        token = _clip(screen.token, MAX_TOKEN if version >= 2 else MAX_TOKEN_V1)
        body += bytes((len(token),)) + token
    if screen.level is not None:
        flags |= _F_LEVEL
        body.append(_byte(screen.level, "level"))
    if screen.countdown is not None:
        if not 0 <= screen.countdown <= 0xFFFF:
            raise ProtocolError(f"countdown {screen.countdown} does not fit 16 bits")
        flags |= _F_COUNTDOWN
        body += struct.pack(">H", screen.countdown)
    if screen.colour is not None:
        flags |= _F_COLOUR
        body += _colour_bytes(screen.colour)
    mask = icon_mask(screen.icons, version, table)
    if version >= 2:
        # The fewest bytes that hold the bits, big-endian (two bytes read as version 1's u16).
        size = (mask.bit_length() + 7) // 8
        body += bytes((size,)) + mask.to_bytes(size, "big")
    else:
        body += struct.pack(">H", mask)
    lines = screen.lines[:MAX_LINES]
    body.append(len(lines))
    for line in lines:
        data = _clip(line, MAX_LINE)
        body += bytes((len(data),)) + data
    name = _clip(screen.name, MAX_NAME)
    return bytes((flags, len(name))) + name + bytes(body)


def decode_show(
    payload: bytes, version: int = PROTOCOL_VERSION, table: tuple[IconEntry, ...] = ()
) -> Screen:
    """Parse a SHOW payload of *version* back into a :class:`Screen`.

    Version 1 refuses an icon bit it does not know (MALFORMED); version 2 ignores one, so that
    a new icon never needs a new version: a panel that predates it just does not draw it.
    Bits 20-31 are the *table*'s, the icons the bank announced in ICON messages (a ruleset's
    own icons, sent to a panel with ``Feature.ICONS``).
    """
    r = _PayloadReader(payload)
    flags = r.byte()
    if flags & ~_F_KNOWN:
        raise ProtocolError(f"SHOW flags 0x{flags:02x} has unknown bits")
    name = r.text(r.byte(), "screen name")
    amount = r.unpack(">i") if flags & _F_AMOUNT else None
    number = r.byte() if flags & _F_NUMBER else None
    token = r.text(r.byte(), "token") if flags & _F_TOKEN else None
    level = r.byte() if flags & _F_LEVEL else None
    countdown = r.unpack(">H") if flags & _F_COUNTDOWN else None
    colour = "#" + r.take(3).hex() if flags & _F_COLOUR else None
    if version >= 2:
        size = r.byte()
        if size > MAX_ICON_BYTES:
            raise ProtocolError(f"SHOW icon field of {size} bytes, at most {MAX_ICON_BYTES}")
        mask = int.from_bytes(r.take(size), "big")
    else:
        mask = r.unpack(">H")
        if mask & ~icon_mask(frozenset(ICON_BITS), 1):
            raise ProtocolError(f"SHOW icon mask 0x{mask:04x} has unknown bits")
    icons = frozenset(icon for icon, bit in ICON_BITS.items() if mask & (1 << bit))
    icons |= {e.icon for e in table if mask & (1 << e.bit)}
    count = r.byte()
    if count > MAX_LINES:
        raise ProtocolError(f"SHOW with {count} lines, at most {MAX_LINES}")
    lines = tuple(r.text(r.byte(), "line") for _ in range(count))
    r.done()
    return Screen(
        name=name,
        lines=lines,
        amount=amount,
        number=number,
        token=token,
        level=level,
        icons=icons,
        countdown=countdown,
        colour=colour,
        off=bool(flags & _F_OFF),
    )


class _PayloadReader:
    def __init__(self, data: bytes) -> None:
        self._data = data
        self._pos = 0

    def take(self, n: int) -> bytes:
        if self._pos + n > len(self._data):
            raise ProtocolError(f"payload ends {self._pos + n - len(self._data)} bytes early")
        part = self._data[self._pos : self._pos + n]
        self._pos += n
        return part

    def byte(self) -> int:
        return self.take(1)[0]

    def unpack(self, fmt: str) -> int:
        (value,) = struct.unpack(fmt, self.take(struct.calcsize(fmt)))
        return int(value)

    def text(self, n: int, what: str) -> str:
        return _text(self.take(n), what)

    def done(self) -> None:
        if self._pos != len(self._data):
            raise ProtocolError(f"{len(self._data) - self._pos} stray bytes after the payload")


def _clip(text: str, limit: int) -> bytes:
    """UTF-8 of *text*, cut to at most *limit* bytes on a character boundary."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return data
    return data[:limit].decode("utf-8", errors="ignore").encode("utf-8")


def _text(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ProtocolError(f"{what} is not UTF-8") from err


def _byte(value: int, what: str) -> int:
    if not 0 <= value <= 255:
        raise ProtocolError(f"{what} {value} does not fit a byte")
    return value


def _colour_bytes(colour: str) -> bytes:
    text = colour.removeprefix("#")
    try:
        data = bytes.fromhex(text)
    except ValueError as err:
        raise ProtocolError(f"colour {colour!r} is not #rrggbb") from err
    if len(data) != 3:
        raise ProtocolError(f"colour {colour!r} is not #rrggbb")
    return data
