"""A virtual NTAG21x behind an ACR122U-style reader, speaking vsmartcard-vpcd's socket protocol.

Inserting the card means ``connect()`` to the vpcd slot's TCP port; removing it means
``close()``. Every message is a 2-byte big-endian length plus payload. vpcd sends 1-byte control
messages (``00`` power off, ``01`` power on, ``02`` reset, ``04`` send the ATR, which vpcd asks
for on every pcscd poll to see whether the card is still there); anything longer is a C-APDU that
gets an R-APDU back. The card answers the PC/SC pseudo-APDUs an ACR122U answers for an NTAG:
``FF CA`` (UID), ``FF B0`` (read 4 pages), ``FF D6`` (write one page, honouring the lock bits)
and ``FF 00 40`` (LED/buzzer, recorded for the tests).

Test support only: imports the standard library.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass

#: vpcd's first slot of the stock ``/etc/reader.conf.d/vpcd`` (channel 0x8C7B)
VPCD_PORT = 35963
#: the PC/SC part-3 ATR of every MIFARE Ultralight / NTAG (card name 00 03)
NTAG_ATR = bytes.fromhex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68")
#: a MIFARE Classic 1K behind the same kind of reader: not an NFC Forum Type 2 tag
CLASSIC_1K_ATR = bytes.fromhex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A")

SW_OK = b"\x90\x00"
SW_FAILED = b"\x63\x00"  # what an ACR122U answers when the tag NAKs
SW_WRONG_LENGTH = b"\x67\x00"
SW_BAD_P1P2 = b"\x6a\x86"
SW_NOT_SUPPORTED = b"\x6a\x81"
SW_BAD_INS = b"\x6d\x00"

_CTRL_OFF, _CTRL_ON, _CTRL_RESET, _CTRL_ATR = 0, 1, 2, 4


@dataclass(frozen=True, slots=True)
class TagModel:
    """The memory map of one Type 2 tag product."""

    name: str
    pages: int
    cc: bytes  # the factory capability container (page 3)
    dynamic_lock_page: int | None  # where the dynamic lock bytes live, if any
    user_end: int  # first page after user memory


NTAG213 = TagModel("NTAG213", 45, bytes.fromhex("E1101200"), 40, 40)
NTAG215 = TagModel("NTAG215", 135, bytes.fromhex("E1103E00"), 130, 130)
NTAG216 = TagModel("NTAG216", 231, bytes.fromhex("E1106D00"), 226, 226)
ULTRALIGHT = TagModel("MIFARE Ultralight", 16, bytes.fromhex("E1100600"), None, 16)

MODELS = {m.name: m for m in (NTAG213, NTAG215, NTAG216, ULTRALIGHT)}


def ndef_tlv(message: bytes) -> bytes:
    """The Type 2 data-area bytes holding *message*: an NDEF TLV and a terminator."""
    if len(message) < 0xFF:
        return bytes([0x03, len(message)]) + message + b"\xfe"
    return b"\x03\xff" + struct.pack(">H", len(message)) + message + b"\xfe"


class VirtualNtag:
    """One virtual tag. ``insert()`` lays it on the vpcd reader, ``remove()`` lifts it.

    *ndef* is written into a factory-fresh memory map as an NDEF TLV; *data* instead gives the
    raw data-area bytes from page 4 (for malformed content). ``locked`` sets the static and
    dynamic lock bits and makes the capability container read-only. ``pull_after=N`` answers N
    C-APDUs and then drops the connection on the next one, like a card pulled away mid-read.
    """

    def __init__(
        self,
        uid: str = "04A1B2C3D4E5F6",
        *,
        ndef: bytes | None = None,
        data: bytes | None = None,
        model: TagModel = NTAG215,
        cc: bytes | None = None,
        locked: bool = False,
        pull_after: int | None = None,
        atr: bytes = NTAG_ATR,
        port: int = VPCD_PORT,
        host: str = "127.0.0.1",
    ) -> None:
        self.uid = bytes.fromhex(uid)
        if len(self.uid) not in (4, 7, 10):
            raise ValueError(f"a UID has 4, 7 or 10 bytes, not {len(self.uid)}")
        self.model = model
        self.atr = atr
        self.port = port
        self.host = host
        self.pull_after = pull_after
        self.memory = bytearray(model.pages * 4)
        self._format(cc if cc is not None else model.cc, ndef, data, locked)
        self._lock = threading.Condition()
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None
        #: every C-APDU received, in order
        self.apdus: list[bytes] = []
        #: the LED/buzzer commands (``FF 00 40 ...``) received
        self.led: list[bytes] = []
        self.atr_requests = 0
        #: monotonic time of the first ATR request: when pcscd's poll found the card
        self.first_poll_at: float | None = None
        self.pulled = threading.Event()

    # ------------------------------------------------------------ memory map

    def _format(self, cc: bytes, ndef: bytes | None, data: bytes | None, locked: bool) -> None:
        uid = self.uid.ljust(7, b"\x00")[:7]
        bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        self.memory[0:8] = bytes([uid[0], uid[1], uid[2], bcc0, uid[3], uid[4], uid[5], uid[6]])
        self.memory[8] = bcc1
        self.memory[9] = 0x48  # the "internal" byte NXP ships
        self.memory[12:16] = cc
        if data is None:
            data = ndef_tlv(ndef if ndef is not None else b"")
        end = self.model.user_end * 4
        if 16 + len(data) > end:
            raise ValueError(f"{len(data)} bytes do not fit {self.model.name}'s user memory")
        self.memory[16 : 16 + len(data)] = data
        if locked:
            self.memory[10:12] = b"\xff\xff"
            self.memory[15] = 0x0F
            if self.model.dynamic_lock_page is not None:
                at = self.model.dynamic_lock_page * 4
                self.memory[at : at + 3] = b"\xff\xff\xff"

    def page(self, number: int) -> bytes:
        """The 4 bytes of page *number*."""
        return bytes(self.memory[number * 4 : number * 4 + 4])

    def data_area(self, length: int) -> bytes:
        """*length* bytes from page 4 on."""
        return bytes(self.memory[16 : 16 + length])

    def _page_locked(self, page: int) -> bool:
        if page < 3:
            return True  # UID and lock pages are written only through their OTP rules
        if page < 16:
            lock = self.memory[10] | (self.memory[11] << 8)
            return bool(lock & (1 << page))
        dyn = self.model.dynamic_lock_page
        if dyn is None or page >= self.model.user_end:
            return page >= self.model.user_end
        # Coarse but monotonic: each dynamic lock bit covers a block of 16 pages.
        bits = self.memory[dyn * 4] | (self.memory[dyn * 4 + 1] << 8)
        return bool(bits & (1 << ((page - 16) // 16)))

    # ------------------------------------------------------------ APDUs

    def _answer(self, apdu: bytes) -> bytes:
        if len(apdu) < 4 or apdu[0] != 0xFF:
            return b"\x6e\x00"  # class not supported
        ins, p1, p2 = apdu[1], apdu[2], apdu[3]
        if ins == 0xCA:  # GET DATA
            if p1 == 0x00:
                return self.uid + SW_OK
            return SW_NOT_SUPPORTED
        if ins == 0xB0:  # READ BINARY: 4 pages, rolling over like a real NTAG
            le = apdu[4] if len(apdu) > 4 else 0
            if p1 != 0 or le not in (0x04, 0x10) or p2 >= self.model.pages:
                return SW_FAILED if p2 >= self.model.pages else SW_WRONG_LENGTH
            out = b"".join(self.page((p2 + i) % self.model.pages) for i in range(4))
            return out[:le] + SW_OK
        if ins == 0xD6:  # UPDATE BINARY: one page
            if len(apdu) != 9 or apdu[4] != 4:
                return SW_WRONG_LENGTH
            if p1 != 0 or p2 >= self.model.pages:
                return SW_BAD_P1P2
            value = apdu[5:9]
            if p2 == 2:  # lock bytes are one-time programmable: bits only ever get set
                self.memory[10] |= value[2]
                self.memory[11] |= value[3]
                return SW_OK
            if self._page_locked(p2):
                return SW_FAILED
            if p2 == 3:  # the capability container is OTP too
                for i in range(4):
                    self.memory[12 + i] |= value[i]
                return SW_OK
            self.memory[p2 * 4 : p2 * 4 + 4] = value
            return SW_OK
        if ins == 0x00 and p1 == 0x40:  # ACR122U LED and buzzer control
            self.led.append(apdu)
            return b"\x90" + bytes([p2 & 0x03])
        return SW_BAD_INS

    # ------------------------------------------------------------ the socket

    def insert(self) -> None:
        """Lay the card on the reader (connect to vpcd)."""
        if self._sock is not None:
            raise RuntimeError("the card is already on the reader")
        sock = socket.create_connection((self.host, self.port), timeout=5.0)
        sock.settimeout(None)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock = sock
        self.pulled.clear()
        self._thread = threading.Thread(target=self._serve, args=(sock,), daemon=True)
        self._thread.start()

    def remove(self) -> None:
        """Lift the card off the reader (close the connection)."""
        sock, self._sock = self._sock, None
        if sock is not None:
            _close(sock)
        if self._thread is not None:
            self._thread.join(timeout=5.0)
            self._thread = None

    @property
    def inserted(self) -> bool:
        """Whether the card lies on the reader (and was not pulled)."""
        return self._sock is not None and not self.pulled.is_set()

    def _serve(self, sock: socket.socket) -> None:
        answered = 0
        while True:
            message = _recv_message(sock)
            if message is None:
                return
            if len(message) == 1:
                if message[0] == _CTRL_ATR:
                    with self._lock:
                        self.atr_requests += 1
                        if self.first_poll_at is None:
                            self.first_poll_at = time.monotonic()
                    if not _send_message(sock, self.atr):
                        return
                continue  # power on/off/reset get no answer
            if self.pull_after is not None and answered >= self.pull_after:
                _close(sock)
                self.pulled.set()
                return
            with self._lock:
                self.apdus.append(message)
                answer = self._answer(message)
                self._lock.notify_all()
            answered += 1
            if not _send_message(sock, answer):
                return

    def wait_for(self, predicate: str, count: int, timeout: float = 3.0) -> bool:
        """Wait until ``len(self.<predicate>) >= count`` (``apdus`` or ``led``)."""
        with self._lock:
            return self._lock.wait_for(lambda: len(getattr(self, predicate)) >= count, timeout)

    def __enter__(self) -> VirtualNtag:
        self.insert()
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


def _close(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


def _quickack(sock: socket.socket) -> None:
    # vpcd writes power-on and the ATR request as two tiny segments without TCP_NODELAY;
    # without an immediate ACK, Nagle plus delayed ACK costs ~88 ms per connect.
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_QUICKACK, 1)


def _recv_exact(sock: socket.socket, size: int) -> bytes | None:
    buf = bytearray()
    while len(buf) < size:
        try:
            chunk = sock.recv(size - len(buf))
        except OSError:
            return None
        if not chunk:
            return None
        _quickack(sock)
        buf += chunk
    return bytes(buf)


def _recv_message(sock: socket.socket) -> bytes | None:
    head = _recv_exact(sock, 2)
    if head is None:
        return None
    (size,) = struct.unpack(">H", head)
    if size == 0:
        return b""
    return _recv_exact(sock, size)


def _send_message(sock: socket.socket, payload: bytes) -> bool:
    try:
        sock.sendall(struct.pack(">H", len(payload)) + payload)
    except OSError:
        return False
    return True


def apdu_hex(apdus: Iterable[bytes]) -> list[str]:
    """The APDUs as upper-case hex strings, for readable assertions."""
    return [a.hex().upper() for a in apdus]
