"""A PN532 board on a serial line, played frame by frame behind a pseudo-terminal (for tests).

nfcpy's ``pn532`` driver (``nfc/clf/pn532.py`` on ``pn53x.py``) talks to the chip through its
TTY transport, which is pyserial on a tty. :class:`Pn532Sim` is the chip: it sits on the
master side of a pty and links the slave side as ``/dev/<name>``, so the reader path
``tty:<name>:pn532`` goes through nfcpy's own device lookup, termios probing, baud-rate
switch, driver and Type 2 tag code, all unmodified. What the chip models and insists on:

* **Host frames**: preamble, start code ``00 FF``, LEN/LCS, TFI ``D4``, data, DCS, postamble;
  extended frames (``FF FF`` LENM LENL LCS, nfcpy's 265-byte Diagnose line test needs them);
  ACK ``00 00 FF 00 FF 00`` (cancels a command still running) and NACK (resend). A frame with a
  bad checksum, or not addressed to the chip (TFI other than ``D4``), is ignored. Every valid
  command is ACKed at once and answered with TFI ``D5`` and code + 1; an unknown command gets
  the syntax-error frame ``7F``.
* **The UART**: after power-up and after PowerDown the chip sleeps, and only a frame led by a
  long preamble (nfcpy sends ten extra ``00``) both wakes it and is understood; a shorter one
  wakes it but is lost. It listens at 115200 baud, and after SetSerialBaudrate it switches to
  the new speed when the host ACKs the answer (or, since nfcpy's port reopen right after that
  ACK flushes it out of the pty unread, when the next frame comes at the new speed). A
  command frame sent at any other speed than the chip's is line noise to it and dropped
  unanswered: the host's speed is read with ``tcgetattr`` on the master, which Linux answers
  with the slave's termios.
* **Commands**: Diagnose, GetFirmwareVersion (PN532 v1.6), GetGeneralStatus, ReadRegister and
  WriteRegister on a small CIU register file, SetParameters, SAMConfiguration,
  SetSerialBaudrate, PowerDown, RFConfiguration (field on/off, response-timeout index),
  InListPassiveTarget (106 kbit/s type A with an optional UID; B, F and Jewel polls find
  nothing), InDataExchange, InCommunicateThru, InDeselect, InRelease, InSelect.
* **The RF side**: at most one NTAG21x (:class:`tests.support.udp_tag_sim.SimTag`) with ISO/IEC
  14443-3 states. InListPassiveTarget selects an IDLE tag (a HALTed one sleeps through REQA);
  dropping the field resets it to IDLE; an unsupported command (AUTH ``1A`` included) or a NAK
  makes it mute until it is selected again. A mute tag or an empty field makes the chip answer
  status 01 after the response timeout nfcpy configured (RFConfiguration item 02), as the
  real chip does. CRC_A bytes of the tag's answer are passed up when nfcpy cleared RxCRCEn in
  CIU_RxMode (it does for Type 2 tags, to see 4-bit ACK/NAK), checked and stripped otherwise.
  An empty 106A poll leaves REQA (``26``) in CIU_FIFOData, which nfcpy reads to tell "no tag"
  from "a Type 1 tag".

Not modelled: target mode (TgInitAsTarget and friends), InAutoPoll, type B/F/Jewel cards,
two targets at once, the GPIO and SAM pins, timing of the serial line itself.

World-side hands: :meth:`Pn532Sim.place`, :meth:`Pn532Sim.lift`, :meth:`Pn532Sim.unplug`
(closes the master and removes the link, as pulling a USB-serial adapter would) and
:meth:`Pn532Sim.replug` (a freshly powered board behind the same link). Eyes: :attr:`commands`,
:attr:`baudrate`, :attr:`asleep`, :attr:`dropped`.

Imports the standard library and :mod:`tests.support.udp_tag_sim` (for the tag) only.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import select
import termios
import threading
import time
import tty
from collections import deque
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from tests.support.udp_tag_sim import EMPTY_NDEF, SimTag

SOF = b"\x00\x00\xff"
START = b"\x00\xff"
ACK = b"\x00\x00\xff\x00\xff\x00"
#: zero bytes before the start code that wake the chip with the frame intact
LONG_PREAMBLE = 6
#: the chip's UART speed after power-up
POWER_UP_BAUD = 115200
#: SetSerialBaudrate's speed codes
BAUD_CODES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1288000)
#: what GetFirmwareVersion answers: IC 0x32 (PN532), firmware 1.6, supports ISO A/B and 18092
FIRMWARE = b"\x32\x01\x06\x07"
#: seconds the chip spends on an InListPassiveTarget that finds nothing (REQA, wait, retry)
EMPTY_POLL_S = 0.004
#: the tag's answer to REQA: ATQA 0x0044 (double-size UID, bit-frame anticollision)
SENS_RES = b"\x00\x44"
SEL_RES_TYPE2 = b"\x00"

# CIU registers nfcpy reads or writes (addresses from the PN532 user manual)
CIU_TXMODE = 0x6302
CIU_RXMODE = 0x6303
CIU_TXCONTROL = 0x6304
CIU_TXAUTO = 0x6305
CIU_FIFODATA = 0x6339
RX_CRC_EN = 0x80

# status bytes of the In* commands
ST_OK = 0x00
ST_TIMEOUT = 0x01
ST_CRC = 0x02
ST_MIFARE = 0x14
ST_CONTEXT = 0x27

_SPEEDS = {
    getattr(termios, f"B{n}"): n
    for n in (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)
    if hasattr(termios, f"B{n}")
}


def crc_a(data: bytes) -> bytes:
    """ISO/IEC 14443-3 CRC_A of *data*, low byte first."""
    crc = 0x6363
    for byte in data:
        b = byte ^ (crc & 0xFF)
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return bytes([crc & 0xFF, crc >> 8])


def response_frame(payload: bytes) -> bytes:
    """A chip-to-host frame around *payload* (TFI included): normal, or extended when long."""
    n = len(payload)
    if n < 0xFF:  # LEN FF would read as the extended-frame marker
        head = SOF + bytes([n, (0x100 - n) & 0xFF])
    else:
        hi, lo = n >> 8, n & 0xFF
        head = SOF + b"\xff\xff" + bytes([hi, lo, (0x100 - hi - lo) & 0xFF])
    return head + payload + bytes([(0x100 - sum(payload)) & 0xFF, 0x00])


def command_frame(code: int, data: bytes = b"") -> bytes:
    """A host-to-chip frame for command *code* (what nfcpy sends; for the simulator's tests)."""
    payload = bytes([0xD4, code]) + data
    n = len(payload)
    if n < 0xFF:
        head = SOF + bytes([n, (0x100 - n) & 0xFF])
    else:
        hi, lo = n >> 8, n & 0xFF
        head = SOF + b"\xff\xff" + bytes([hi, lo, (0x100 - hi - lo) & 0xFF])
    return head + payload + bytes([(0x100 - sum(payload)) & 0xFF, 0x00])


class TagState(Enum):
    IDLE = "idle"
    ACTIVE = "active"
    HALT = "halt"


@dataclass(slots=True)
class _Pending:
    """A response the chip sends when its RF work is done (cancelled by the host's ACK)."""

    due: float
    frame: bytes


class Pn532Sim:
    """A PN532 in HSU mode behind ``/dev/<name>``; nfcpy reaches it as ``tty:<name>:pn532``."""

    def __init__(self, name: str | None = None, *, dev_dir: Path | str = "/dev") -> None:
        self.name = name or f"ultibank-pn532-{secrets.token_hex(4)}"
        self.link = Path(dev_dir) / self.name
        self._lock = threading.RLock()
        self._tag: SimTag | None = None
        self._tag_state = TagState.IDLE
        #: command codes the chip executed, oldest first
        self.commands: deque[int] = deque(maxlen=5000)
        #: frames dropped: sent at the wrong speed, or lost while waking the chip
        self.dropped = 0
        self._master = -1
        self._slave = -1
        self._thread: threading.Thread | None = None
        self._stop_r = -1
        self._stop_w = -1
        self._power_up()

    @property
    def path(self) -> str:
        """The nfcpy reader path that reaches this board."""
        return f"tty:{self.name}:pn532"

    @property
    def baudrate(self) -> int:
        """The chip's UART speed."""
        return self._baud

    @property
    def asleep(self) -> bool:
        """Whether the chip is powered down, waiting for a long preamble."""
        return self._asleep

    @property
    def tag(self) -> SimTag | None:
        return self._tag

    @property
    def plugged(self) -> bool:
        return self._thread is not None

    # -------------------------------------------------------------- world-side hands

    def start(self) -> None:
        """Open the pty, link its slave as ``/dev/<name>`` and start answering."""
        master, slave = os.openpty()
        tty.setraw(slave)
        # Holding a slave fd keeps the master readable while nfcpy closes and reopens the port
        # (a master with no slave open reads EIO).
        self._master, self._slave = master, slave
        self._stop_r, self._stop_w = os.pipe()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.link)
        os.symlink(os.ttyname(slave), self.link)
        self._thread = threading.Thread(target=self._serve, name=f"pn532-sim:{self.name}")
        self._thread.daemon = True
        self._thread.start()

    def place(self, uid: bytes | str | SimTag, data: bytes = EMPTY_NDEF, **options: Any) -> SimTag:
        """Lay a tag on the antenna (replacing any tag there) and return it."""
        tag = uid if isinstance(uid, SimTag) else SimTag(uid, data, **options)
        with self._lock:
            self._tag = tag
            self._tag_state = TagState.IDLE
        return tag

    def lift(self) -> SimTag | None:
        """Take the tag off the antenna; return it."""
        with self._lock:
            tag, self._tag = self._tag, None
            self._tag_state = TagState.IDLE
            return tag

    def unplug(self) -> None:
        """Pull the board: stop answering, close the pty master, remove the link."""
        thread = self._thread
        if thread is None:
            return
        os.write(self._stop_w, b"x")
        thread.join(timeout=5.0)
        self._thread = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.link)
        for fd in (self._master, self._slave, self._stop_r, self._stop_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._master = self._slave = self._stop_r = self._stop_w = -1

    def replug(self) -> None:
        """Plug a freshly powered board back in behind the same link (the tag stays put)."""
        self.unplug()
        with self._lock:
            self._power_up()
            self._tag_state = TagState.IDLE
        self.start()

    def close(self) -> None:
        """Unplug for good."""
        self.unplug()

    def __enter__(self) -> Pn532Sim:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -------------------------------------------------------------- the chip's state

    def _power_up(self) -> None:
        self._baud = POWER_UP_BAUD
        self._next_baud: int | None = None
        self._asleep = True
        self._field = False
        self._selected = False
        self._rx_timeout_s = 0.0512  # RFConfiguration item 02 default: index 10
        self._regs: dict[int, int] = {CIU_TXMODE: 0x00, CIU_RXMODE: 0x00, CIU_TXAUTO: 0x00}
        self._fifo = 0x00
        self._buf = bytearray()
        self._pending: _Pending | None = None
        self._last_response = b""

    # -------------------------------------------------------------- serial side

    def _host_baud(self) -> int | None:
        try:
            speed = termios.tcgetattr(self._master)[4]
        except termios.error:
            return None
        return _SPEEDS.get(speed)

    def _serve(self) -> None:
        master, stop = self._master, self._stop_r
        while True:
            with self._lock:
                pending = self._pending
            wait = None if pending is None else max(0.0, pending.due - time.monotonic())
            ready, _, _ = select.select([master, stop], [], [], wait)
            if stop in ready:
                return
            if master in ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    return
                with self._lock:
                    self._buf += chunk
                    self._parse()
            # input first: an ACK already sent by the host cancels a response not yet sent
            with self._lock:
                pending = self._pending
                if pending is not None and time.monotonic() >= pending.due:
                    self._pending = None
                    self._send(pending.frame)

    def _send(self, frame: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self._master, frame)

    def _parse(self) -> None:
        buf = self._buf
        while True:
            i = buf.find(START)
            if i < 0:
                # keep a trailing run of zeros: it may be the start of a preamble
                keep = len(buf) - len(buf.rstrip(b"\x00"))
                del buf[: len(buf) - keep]
                return
            zeros = i + 1 - len(buf[: i + 1].rstrip(b"\x00"))
            if len(buf) < i + 4:
                return
            length, lcs = buf[i + 2], buf[i + 3]
            if (length, lcs) == (0x00, 0xFF):
                del buf[: i + 4]
                self._on_ack()
                continue
            if (length, lcs) == (0xFF, 0x00):
                del buf[: i + 4]
                if self._last_response and not self._asleep:
                    self._send(self._last_response)  # NACK: say it again
                continue
            if (length, lcs) == (0xFF, 0xFF):
                if len(buf) < i + 7:
                    return
                hi, lo, xcs = buf[i + 4], buf[i + 5], buf[i + 6]
                if (hi + lo + xcs) & 0xFF:
                    del buf[: i + 2]
                    continue
                n, body = hi << 8 | lo, i + 7
            else:
                if (length + lcs) & 0xFF:
                    del buf[: i + 2]  # not a frame start after all
                    continue
                n, body = length, i + 4
            if len(buf) < body + n + 1:
                return
            payload = bytes(buf[body : body + n])
            dcs = buf[body + n]
            del buf[: body + n + 1]
            if (sum(payload) + dcs) & 0xFF or len(payload) < 2 or payload[0] != 0xD4:
                continue  # the chip ignores a corrupt frame or one not meant for it
            self._on_command(payload[1], payload[2:], zeros)

    def _on_ack(self) -> None:
        self._pending = None  # an ACK aborts the command in progress
        if self._next_baud is not None:
            self._baud, self._next_baud = self._next_baud, None

    def _on_command(self, code: int, data: bytes, zeros: int) -> None:
        if self._asleep:
            self._asleep = False  # any traffic wakes it; only a long preamble keeps the frame
            if zeros < LONG_PREAMBLE:
                self.dropped += 1
                return
        host = self._host_baud()
        if self._next_baud is not None and host == self._next_baud:
            # nfcpy reopens the port right after ACKing SetSerialBaudrate, and closing a pty
            # discards what the master has not read yet: a frame at the new speed confirms it
            self._baud, self._next_baud = self._next_baud, None
        if host != self._baud:
            self.dropped += 1  # sent at another speed: line noise to the chip
            return
        self._pending = None
        self._send(ACK)
        self.commands.append(code)
        handler = _HANDLERS.get(code)
        result = handler(self, data) if handler is not None else None
        if result is None:
            self._respond(b"\x7f", 0.0)  # syntax error frame
            return
        answer, delay = result
        self._respond(bytes([0xD5, code + 1]) + answer, delay)
        if code == 0x16:
            self._sleep()

    def _respond(self, payload: bytes, delay: float) -> None:
        frame = response_frame(payload)
        self._last_response = frame
        if delay <= 0:
            self._send(frame)
        else:
            self._pending = _Pending(time.monotonic() + delay, frame)

    def _sleep(self) -> None:
        self._asleep = True
        self._field_off()

    def _field_off(self) -> None:
        self._field = False
        self._selected = False
        self._tag_state = TagState.IDLE  # an unpowered tag forgets its selection

    # -------------------------------------------------------------- commands

    def _diagnose(self, data: bytes) -> tuple[bytes, float] | None:
        if not data:
            return None
        if data[0] == 0x00:  # communication line test: echo
            return data, 0.0
        if data[0] in (0x01, 0x02):  # ROM / RAM test
            return b"\x00", 0.0
        return None

    def _firmware(self, data: bytes) -> tuple[bytes, float]:
        return FIRMWARE, 0.0

    def _general_status(self, data: bytes) -> tuple[bytes, float]:
        targets = b"\x01\x01\x00\x00\x00" if self._selected else b"\x00"
        return bytes([ST_OK, int(self._field)]) + targets + b"\x00", 0.0

    def _read_register(self, data: bytes) -> tuple[bytes, float] | None:
        if len(data) % 2:
            return None
        values = bytearray()
        for k in range(0, len(data), 2):
            addr = data[k] << 8 | data[k + 1]
            if addr == CIU_FIFODATA:
                values.append(self._fifo)
            elif addr == CIU_TXCONTROL:
                values.append(0x80 | (0x03 if self._field else 0x00))
            else:
                values.append(self._regs.get(addr, 0x00))
        return bytes(values), 0.0

    def _write_register(self, data: bytes) -> tuple[bytes, float] | None:
        if len(data) % 3:
            return None
        for k in range(0, len(data), 3):
            self._regs[data[k] << 8 | data[k + 1]] = data[k + 2]
        return b"", 0.0

    def _set_parameters(self, data: bytes) -> tuple[bytes, float] | None:
        return (b"", 0.0) if len(data) == 1 else None

    def _sam_configuration(self, data: bytes) -> tuple[bytes, float] | None:
        if not data or not 1 <= data[0] <= 4:
            return None
        return b"", 0.0

    def _set_serial_baudrate(self, data: bytes) -> tuple[bytes, float] | None:
        if len(data) != 1 or data[0] >= len(BAUD_CODES):
            return None
        self._next_baud = BAUD_CODES[data[0]]  # after the host's ACK
        return b"", 0.0

    def _power_down(self, data: bytes) -> tuple[bytes, float] | None:
        return (b"\x00", 0.0) if data else None

    def _rf_configuration(self, data: bytes) -> tuple[bytes, float] | None:
        if not data:
            return None
        item = data[0]
        if item == 0x01 and len(data) == 2:
            if data[1] & 0x01:
                self._field = True
            else:
                self._field_off()
        elif item == 0x02 and len(data) == 4:
            index = data[3]
            # 0 means "no timeout"; the chip would wait forever, nfcpy never asks for it
            self._rx_timeout_s = 100e-6 * (1 << (index - 1)) if index else 10.0
        return b"", 0.0

    def _in_list_passive_target(self, data: bytes) -> tuple[bytes, float] | None:
        if len(data) < 2 or not 1 <= data[0] <= 2:
            return None
        brty, wanted = data[1], data[2:]
        self._field = True
        self._selected = False
        if brty != 0x00:  # B, F, Jewel: no such card here
            return b"\x00", EMPTY_POLL_S
        self._regs[CIU_TXMODE] = self._regs[CIU_RXMODE] = 0x80  # 106 kbit/s A, CRC on
        tag = self._tag
        if tag is None or self._tag_state is TagState.HALT or not self._uid_matches(tag, wanted):
            self._fifo = 0x26  # REQA still in the FIFO: nobody answered
            if tag is not None and self._tag_state is not TagState.HALT:
                self._tag_state = TagState.IDLE
            return b"\x00", EMPTY_POLL_S
        self._fifo = 0x00
        self._tag_state = TagState.ACTIVE
        self._selected = True
        uid = tag.uid
        return b"\x01\x01" + SENS_RES + SEL_RES_TYPE2 + bytes([len(uid)]) + uid, 0.0

    @staticmethod
    def _uid_matches(tag: SimTag, wanted: bytes) -> bool:
        if not wanted:
            return True
        return b"".join(tag.cascade()) == wanted or tag.uid == wanted

    def _in_communicate_thru(self, data: bytes) -> tuple[bytes, float] | None:
        if not data:
            return None
        answer = self._rf_exchange(data)
        if answer is None:
            return bytes([ST_TIMEOUT]), self._rx_timeout_s
        if self._regs.get(CIU_RXMODE, 0) & RX_CRC_EN:
            if len(answer) == 1:
                return bytes([ST_CRC]), 0.0  # a 4-bit ACK/NAK carries no CRC
            return bytes([ST_OK]) + answer, 0.0
        return bytes([ST_OK]) + (answer + crc_a(answer) if len(answer) > 1 else answer), 0.0

    def _in_data_exchange(self, data: bytes) -> tuple[bytes, float] | None:
        if len(data) < 2:
            return None
        if data[0] & 0x3F != 0x01 or not self._selected:
            return bytes([ST_CONTEXT]), 0.0
        answer = self._rf_exchange(data[1:])
        if answer is None:
            return bytes([ST_TIMEOUT]), self._rx_timeout_s
        if len(answer) == 1:  # a 4-bit answer: ACK is success without data, NAK an error
            return bytes([ST_OK if answer == b"\x0a" else ST_MIFARE]), 0.0
        return bytes([ST_OK]) + answer, 0.0

    def _in_release(self, data: bytes) -> tuple[bytes, float] | None:
        if not data:
            return None
        self._selected = False
        return b"\x00", 0.0

    def _in_select(self, data: bytes) -> tuple[bytes, float] | None:
        if not data:
            return None
        return bytes([ST_OK if self._selected else ST_CONTEXT]), 0.0

    # -------------------------------------------------------------- the tag

    def _rf_exchange(self, frame: bytes) -> bytes | None:
        """The tag's answer to *frame* (CRC not included), or None when it stays mute."""
        tag = self._tag
        if tag is None or not self._field or self._tag_state is not TagState.ACTIVE:
            return None
        cmd = frame[0]
        if cmd == 0x30 and len(frame) == 2:
            return self._or_nak(tag.read(frame[1]))
        if cmd == 0x3A and len(frame) == 3:
            return self._or_nak(tag.fast_read(frame[1], frame[2]))
        if frame == b"\x60":
            return tag.model.version
        if cmd == 0x3C and len(frame) == 2:
            return tag.signature if frame[1] == 0 else self._or_nak(None)
        if cmd == 0xA2 and len(frame) == 6:
            return b"\x0a" if tag.write(frame[1], frame[2:6]) else self._or_nak(None)
        if frame == b"\x50\x00":  # HLTA: no answer, sleeps until WUPA
            self._tag_state = TagState.HALT
            return None
        self._tag_state = TagState.IDLE  # AUTH and the rest: an NTAG goes mute
        return None

    def _or_nak(self, data: bytes | None) -> bytes:
        if data is None:
            self._tag_state = TagState.IDLE  # an NTAG returns to IDLE after a NAK
            return b"\x00"
        return data


_HANDLERS = {
    0x00: Pn532Sim._diagnose,
    0x02: Pn532Sim._firmware,
    0x04: Pn532Sim._general_status,
    0x06: Pn532Sim._read_register,
    0x08: Pn532Sim._write_register,
    0x10: Pn532Sim._set_serial_baudrate,
    0x12: Pn532Sim._set_parameters,
    0x14: Pn532Sim._sam_configuration,
    0x16: Pn532Sim._power_down,
    0x32: Pn532Sim._rf_configuration,
    0x40: Pn532Sim._in_data_exchange,
    0x42: Pn532Sim._in_communicate_thru,
    0x44: Pn532Sim._in_release,  # InDeselect: the same for a Type 2 tag
    0x4A: Pn532Sim._in_list_passive_target,
    0x52: Pn532Sim._in_release,
    0x54: Pn532Sim._in_select,
}
