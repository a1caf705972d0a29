"""A strict NFC tag on the other end of nfcpy's ``udp`` driver, for tests and benchmarks.

nfcpy's ``udp`` reader driver (``nfc/clf/udp.py``) sends each frame as one datagram,
``b"<brty> <hex>"`` (``b"106A 26"`` is a SENS_REQ at 106 kbit/s type A), and ``b"RFOFF"`` when
it switches its field off after having heard something. Frames carry no CRC_A: nfcpy models the
frames a PN53x passes up after its hardware checked and stripped the CRC, so this simulator
neither expects nor appends one. The reader side stays nfcpy's real driver and tag stack.

The tag is an NXP NTAG213/215/216 (NTAG215 by default) behind a strict ISO/IEC 14443-3 type A
state machine: IDLE -> READY1 -> READY2 -> ACTIVE, with cascade levels and BCC, HALT on HLTA,
and back to IDLE (mute) on RFOFF, on any unexpected or unsupported command (AUTH ``1A``
included, which is how nfcpy tells an NTAG from an Ultralight C) and after a NAK. A datagram
from a new source port counts as a fresh field: nfcpy closes its socket to switch the field off
and only announces that with RFOFF when it had received data.

World-side hands: :meth:`UdpTagSim.place`, :meth:`UdpTagSim.lift`, and for device-loss tests
:meth:`UdpTagSim.unplug` / :meth:`UdpTagSim.replug`, which take effect through
:func:`unplug_hook` on the reader's side. Eyes: :attr:`SimTag.memory`, :meth:`SimTag.user_data`
and :attr:`UdpTagSim.trace`.

Imports the standard library only; :func:`unplug_hook` imports nfcpy when it is entered.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import select
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from functools import reduce
from operator import xor
from typing import Any

#: nfcpy's udp driver waits this long for SENS_RES (hard-coded in ``sense_tta``)
SENS_WAIT_S = 1.0

ACK = b"\x0a"
NAK_INVALID = b"\x00"
CASCADE_TAG = 0x88


@dataclass(frozen=True, slots=True)
class TagModel:
    """The memory map and identity of one NTAG21x product."""

    name: str
    version: bytes  # GET_VERSION answer
    pages: int  # total number of pages, config pages included
    user_end: int  # last user-memory page
    cc_size: int  # capability container byte 2 (data area / 8)
    pages_per_dyn_lock_bit: int

    @property
    def dyn_lock_page(self) -> int:
        return self.user_end + 1

    @property
    def cfg_page(self) -> int:
        return self.user_end + 2


NTAG213 = TagModel("NTAG213", bytes.fromhex("0004040201000f03"), 45, 0x27, 0x12, 2)
NTAG215 = TagModel("NTAG215", bytes.fromhex("0004040201001103"), 135, 0x81, 0x3E, 16)
NTAG216 = TagModel("NTAG216", bytes.fromhex("0004040201001303"), 231, 0xE1, 0x6D, 16)

#: factory content of page 4 on a new NTAG: an empty NDEF message and a terminator
EMPTY_NDEF = b"\x03\x00\xfe\x00"


def bcc(data: bytes) -> int:
    """Block check character: the XOR of the bytes."""
    return reduce(xor, data, 0)


class State(Enum):
    IDLE = "idle"
    READY1 = "ready1"
    READY2 = "ready2"
    READY3 = "ready3"
    ACTIVE = "active"
    HALT = "halt"


class SimTag:
    """One NTAG21x: its memory, lock bits and command set (no transport, no state machine)."""

    def __init__(
        self,
        uid: bytes | str,
        data: bytes = EMPTY_NDEF,
        *,
        model: TagModel = NTAG215,
        cc: bytes | None = None,
        lock: bytes = b"\x00\x00",
    ) -> None:
        self.uid = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        if len(self.uid) not in (4, 7, 10):
            raise ValueError(f"a type A UID has 4, 7 or 10 bytes, not {len(self.uid)}")
        self.model = model
        size = model.pages * 4
        user_bytes = (model.user_end - 3) * 4
        if len(data) > user_bytes:
            raise ValueError(f"{model.name} holds {user_bytes} user bytes, not {len(data)}")
        mem = bytearray(size)
        if len(self.uid) == 7:
            u = self.uid
            mem[0:4] = bytes([u[0], u[1], u[2], CASCADE_TAG ^ u[0] ^ u[1] ^ u[2]])
            mem[4:8] = u[3:7]
            mem[8] = bcc(u[3:7])
        else:  # not an NTAG layout, but keeps the UID readable
            mem[0 : len(self.uid)] = self.uid
        mem[9] = 0x48  # internal byte
        mem[10:12] = lock
        mem[12:16] = cc if cc is not None else bytes([0xE1, 0x10, model.cc_size, 0x00])
        mem[16 : 16 + len(data)] = data
        dyn = model.dyn_lock_page * 4
        mem[dyn : dyn + 4] = b"\x00\x00\x00\xbd"
        cfg = model.cfg_page * 4
        mem[cfg : cfg + 8] = b"\x04\x00\x00\xff\x00\x05\x00\x00"  # CFG0 (AUTH0=FF), CFG1
        mem[cfg + 8 : cfg + 12] = b"\xff\xff\xff\xff"  # PWD, never readable
        self.memory = mem
        self.signature = hashlib.sha256(b"ntag-signature" + self.uid).digest()
        self.reads = 0
        self.writes = 0

    def user_data(self) -> bytes:
        """The user memory from page 4 to the last user page."""
        return bytes(self.memory[16 : (self.model.user_end + 1) * 4])

    # -------------------------------------------------------------- anticollision data

    def cascade(self) -> list[bytes]:
        """The 4-byte UID part per cascade level (with the cascade tag where it applies)."""
        u = self.uid
        if len(u) == 4:
            return [u]
        if len(u) == 7:
            return [bytes([CASCADE_TAG]) + u[0:3], u[3:7]]
        return [bytes([CASCADE_TAG]) + u[0:3], bytes([CASCADE_TAG]) + u[3:6], u[6:10]]

    # -------------------------------------------------------------- memory commands

    def read(self, page: int) -> bytes | None:
        """READ: 16 bytes from *page*, rolling over to page 0; None (NAK) past the end."""
        if page >= self.model.pages:
            return None
        self.reads += 1
        return b"".join(self._page(page + i) for i in range(4))

    def fast_read(self, start: int, end: int) -> bytes | None:
        """FAST_READ: pages *start*..*end*; None (NAK) for a bad range."""
        if start > end or end >= self.model.pages:
            return None
        self.reads += 1
        return b"".join(self._page(p) for p in range(start, end + 1))

    def _page(self, page: int) -> bytes:
        page %= self.model.pages
        if page >= self.model.cfg_page + 2:  # PWD and PACK read as zeros
            return b"\x00\x00\x00\x00"
        return bytes(self.memory[page * 4 : page * 4 + 4])

    def write(self, page: int, data: bytes) -> bool:
        """WRITE one page; False (NAK) for read-only, locked or missing pages."""
        if page < 2 or page >= self.model.pages or self.is_locked(page):
            return False
        i = page * 4
        mem = self.memory
        if page == 2:  # bytes 0-1 are read-only; lock bytes are one-time programmable
            b0, b1 = mem[10], mem[11]
            allow0 = 0x07 | (0 if b0 & 0x01 else 0x08) | (0 if b0 & 0x02 else 0xF0)
            allow1 = (0 if b0 & 0x02 else 0x03) | (0 if b0 & 0x04 else 0xFC)
            mem[10] = b0 | (data[2] & allow0)
            mem[11] = b1 | (data[3] & allow1)
        elif page == 3 or page == self.model.dyn_lock_page:  # one-time programmable: OR
            for k in range(4):
                mem[i + k] |= data[k]
        else:
            mem[i : i + 4] = data
        self.writes += 1
        return True

    def is_locked(self, page: int) -> bool:
        """Whether the static or dynamic lock bits make *page* read-only."""
        lock0, lock1 = self.memory[10], self.memory[11]
        if page == 3:
            return bool(lock0 & 0x08)
        if 4 <= page <= 7:
            return bool(lock0 & (0x10 << (page - 4)))
        if 8 <= page <= 15:
            return bool(lock1 & (1 << (page - 8)))
        if 16 <= page <= self.model.user_end:
            # block-locking bits of the dynamic lock byte 2 are not modelled
            bit = (page - 16) // self.model.pages_per_dyn_lock_bit
            d = self.model.dyn_lock_page * 4
            dyn = self.memory[d] | self.memory[d + 1] << 8
            return bit < 16 and bool(dyn & (1 << bit))
        return False


@dataclass(frozen=True, slots=True)
class TraceEntry:
    """One frame seen or sent by the simulator (``dir`` is ``"rx"`` or ``"tx"``)."""

    at: float
    dir: str
    frame: bytes


class UdpTagSim:
    """A tag field on 127.0.0.1:<free port>, answering nfcpy's ``udp`` driver from a thread."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._sock.bind((host, port))
        self.host, self.port = self._sock.getsockname()[:2]
        self._lock = threading.Lock()
        self._tag: SimTag | None = None
        self._state = State.IDLE
        self._level = 0
        self._peer: tuple[str, int] | None = None
        self._pending_sens: tuple[float, bytes, tuple[str, int]] | None = None
        self._lift_after_reads: int | None = None
        self.unplugged = False
        self.trace: deque[TraceEntry] = deque(maxlen=2000)
        #: frames that made the tag go mute (unsupported or out of sequence)
        self.rejected = 0
        self._closing = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._serve, name=f"udp-tag-sim:{self.port}")
        self._thread.daemon = True
        self._thread.start()

    @property
    def path(self) -> str:
        """The nfcpy device path that reaches this simulator."""
        return f"udp:{self.host}:{self.port}"

    @property
    def address(self) -> tuple[str, int]:
        return (self.host, self.port)

    @property
    def tag(self) -> SimTag | None:
        return self._tag

    @property
    def state(self) -> State:
        return self._state

    # -------------------------------------------------------------- world-side hands

    def place(
        self,
        uid: bytes | str | SimTag,
        data: bytes = EMPTY_NDEF,
        *,
        lift_after_reads: int | None = None,
        **tag_options: Any,
    ) -> SimTag:
        """Put a tag in the field (replacing any tag there) and return it.

        *uid* may be an existing :class:`SimTag` (to put a written tag back). With
        *lift_after_reads*, the tag leaves the field right after answering that many
        READ/FAST_READ commands: a card pulled away in the middle of being read.
        """
        tag = uid if isinstance(uid, SimTag) else SimTag(uid, data, **tag_options)
        with self._lock:
            self._tag = tag
            self._state = State.IDLE
            self._lift_after_reads = (
                None if lift_after_reads is None else tag.reads + lift_after_reads
            )
            pending, self._pending_sens = self._pending_sens, None
            if pending is not None:
                at, frame, addr = pending
                # the reader is still waiting for SENS_RES: answer its last SENS_REQ now
                if time.monotonic() - at < SENS_WAIT_S and addr == self._peer:
                    self._handle_locked(frame, addr)
        return tag

    def lift(self) -> SimTag | None:
        """Take the tag out of the field; return it."""
        with self._lock:
            tag, self._tag = self._tag, None
            self._state = State.IDLE
            return tag

    def unplug(self) -> None:
        """Make the reader device vanish (needs :func:`unplug_hook` on the reader side)."""
        with self._lock:
            self.unplugged = True
            peer = self._peer
        if peer is not None:
            # cut short a reader blocked in its SENS_RES wait, as a yanked cable would
            self._send(b"RFOFF", peer)

    def replug(self) -> None:
        """Bring the reader device back."""
        with self._lock:
            self.unplugged = False

    def close(self) -> None:
        """Stop the thread and release the port."""
        self._closing.set()
        os.write(self._wake_w, b"x")
        self._thread.join(timeout=2.0)
        self._sock.close()
        os.close(self._wake_r)
        os.close(self._wake_w)

    def __enter__(self) -> UdpTagSim:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -------------------------------------------------------------- transport

    def _serve(self) -> None:
        while not self._closing.is_set():
            ready, _, _ = select.select([self._sock.fileno(), self._wake_r], [], [])
            if self._sock.fileno() not in ready:
                continue
            try:
                datagram, addr = self._sock.recvfrom(4096)
            except OSError:
                continue
            with self._lock:
                self.trace.append(TraceEntry(time.monotonic(), "rx", datagram))
                if datagram.startswith(b"RFOFF"):
                    self._pending_sens = None
                    self._field_off()
                    continue
                try:
                    brty, hexdata = datagram.split()
                    frame = bytes.fromhex(hexdata.decode("ascii"))
                except ValueError:
                    self.rejected += 1
                    continue
                if brty != b"106A" or not frame:
                    continue  # type B/F polling: this tag does not modulate there
                if addr != self._peer:
                    self._peer = addr
                    self._field_off()  # nfcpy opened a new socket: the field was cycled
                self._pending_sens = None
                if self._tag is None:
                    if frame in (b"\x26", b"\x52"):
                        self._pending_sens = (time.monotonic(), frame, addr)
                    continue
                self._handle_locked(frame, addr)

    def _send(self, payload: bytes, addr: tuple[str, int]) -> None:
        self.trace.append(TraceEntry(time.monotonic(), "tx", payload))
        with contextlib.suppress(OSError):
            self._sock.sendto(payload, addr)

    def _reply(self, frame: bytes, addr: tuple[str, int]) -> None:
        self._send(b"106A " + frame.hex().encode("ascii"), addr)

    def _field_off(self) -> None:
        self._state = State.IDLE
        self._level = 0

    def _mute(self) -> None:
        self.rejected += 1
        self._state = State.IDLE
        self._level = 0

    # -------------------------------------------------------------- ISO 14443-3 A

    def _handle_locked(self, frame: bytes, addr: tuple[str, int]) -> None:
        tag = self._tag
        assert tag is not None
        state = self._state
        if state in (State.IDLE, State.HALT):
            if frame == b"\x52" or (frame == b"\x26" and state is State.IDLE):
                self._state, self._level = State.READY1, 0
                self._reply(b"\x44\x00", addr)  # SENS_RES: double-size UID, bit frame SDD
            elif frame != b"\x26":
                self.rejected += 1  # a sleeping tag ignores everything else
            return
        if state in (State.READY1, State.READY2, State.READY3):
            self._anticollision(tag, frame, addr)
            return
        self._active(tag, frame, addr)

    def _anticollision(self, tag: SimTag, frame: bytes, addr: tuple[str, int]) -> None:
        level = self._level
        parts = tag.cascade()
        sel_cmd = (0x93, 0x95, 0x97)[level]
        part = parts[level]
        if frame == bytes([sel_cmd, 0x20]):  # SDD_REQ: the whole UID part at once
            self._reply(part + bytes([bcc(part)]), addr)
            return
        if frame == bytes([sel_cmd, 0x70]) + part + bytes([bcc(part)]):  # SEL_REQ
            last = level == len(parts) - 1
            if last:
                self._state = State.ACTIVE
                self._reply(b"\x00", addr)  # SAK: complete, Type 2 (no ISO-DEP)
            else:
                self._level = level + 1
                self._state = (State.READY2, State.READY3)[level]
                self._reply(b"\x04", addr)  # SAK: cascade bit, UID not complete
            return
        self._mute()  # wrong level, wrong UID, bad BCC, or a command before selection

    def _active(self, tag: SimTag, frame: bytes, addr: tuple[str, int]) -> None:
        cmd = frame[0]
        if cmd == 0x30 and len(frame) == 2:
            self._answer_read(tag, tag.read(frame[1]), addr)
        elif cmd == 0x3A and len(frame) == 3:
            self._answer_read(tag, tag.fast_read(frame[1], frame[2]), addr)
        elif cmd == 0x60 and len(frame) == 1:
            self._reply(tag.model.version, addr)
        elif cmd == 0x3C and len(frame) == 2:
            if frame[1] == 0:
                self._reply(tag.signature, addr)
            else:
                self._nak(addr)
        elif cmd == 0xA2 and len(frame) == 6:
            if tag.write(frame[1], frame[2:6]):
                self._reply(ACK, addr)
            else:
                self._nak(addr)
        elif frame == b"\x50\x00":  # HLTA
            self._state = State.HALT
        else:  # AUTH (1A), PWD_AUTH, COMPATIBILITY_WRITE, a stray SENS_REQ...: mute
            self._mute()

    def _answer_read(self, tag: SimTag, data: bytes | None, addr: tuple[str, int]) -> None:
        if data is None:
            self._nak(addr)
            return
        self._reply(data, addr)
        if self._lift_after_reads is not None and tag.reads >= self._lift_after_reads:
            self._tag = None
            self._state = State.IDLE
            self._lift_after_reads = None

    def _nak(self, addr: tuple[str, int]) -> None:
        self._reply(NAK_INVALID, addr)
        self._state = State.IDLE  # an NTAG returns to IDLE after a NAK
        self._level = 0


# ------------------------------------------------------------------ reader side


@contextlib.contextmanager
def unplug_hook(*sims: UdpTagSim) -> Iterator[None]:
    """While active, nfcpy udp devices aimed at an unplugged *sim* fail with ENODEV.

    nfcpy's USB transport turns ``USBErrorNoDevice`` into ``IOError(ENODEV)``; this raises the
    same error from the udp driver's socket calls, so ``clf.connect()`` returns False and
    reopening fails until :meth:`UdpTagSim.replug`, exactly as with a pulled USB cable.
    """
    import nfc.clf
    from nfc.clf import udp

    device_cls: Any = udp.Device
    originals = {
        name: getattr(device_cls, name) for name in ("_create_socket", "_send_data", "_recv_data")
    }

    def lost(device: Any) -> bool:
        return any(sim.unplugged and tuple(device.addr) == sim.address for sim in sims)

    def enodev() -> OSError:
        return OSError(errno.ENODEV, os.strerror(errno.ENODEV))

    def create_socket(self: Any) -> None:
        if lost(self):
            raise enodev()
        originals["_create_socket"](self)

    def send_data(self: Any, *args: Any) -> None:
        if lost(self):
            raise enodev()
        originals["_send_data"](self, *args)

    def recv_data(self: Any, timeout: float | None, *brty: str) -> Any:
        if timeout is None:
            return originals["_recv_data"](self, timeout, *brty)
        # wait in short slices, so an unplug during nfcpy's 1 s SENS_RES wait is seen at once
        deadline = time.time() + timeout  # nfcpy's udp driver keeps time with time.time()
        while True:
            if lost(self):
                raise enodev()
            left = deadline - time.time()
            try:
                return originals["_recv_data"](self, max(0.0, min(left, 0.02)), *brty)
            except nfc.clf.TimeoutError:
                if time.time() >= deadline:
                    raise
            except Exception:
                if lost(self):
                    raise enodev() from None
                raise

    device_cls._create_socket = create_socket
    device_cls._send_data = send_data
    device_cls._recv_data = recv_data
    try:
        yield
    finally:
        for name, fn in originals.items():
            setattr(device_cls, name, fn)
