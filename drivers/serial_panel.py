"""The serial front panel: a microcontroller with buttons, an LCD and a buzzer on a USB/UART line.

=================  ==============================================================
Link               any tty pyserial opens: ``/dev/ultibank-panel`` (udev symlink),
                   ``/dev/ttyACM0``, ``/dev/serial0``, a pseudo-terminal in tests
Protocol           :mod:`drivers.panel_protocol`, spec in ``docs/serial-protocol.md``
Reliability        stop-and-wait: every SHOW/CUE/PING/HELLO is ACKed, retried on
                   timeout or NAK BUSY (other NAKs drop the message), duplicates
                   suppressed by sequence number
Cable pulled       read/write error or no ACK to a PING: ``PanelStatus(False)``,
                   reopened with backoff, then HELLO, screen re-sent,
                   ``PanelStatus(True)``
=================  ==============================================================

One worker thread owns the port: it reads (posting ``ButtonPressed``/``ButtonReleased``, and
``KeyPressed``/``KeyReleased`` from a keypad panel, through ``post``, timestamped by the
injected clock), writes queued frames and pings. The protocol version is negotiated in HELLO
(the newest both ends speak): a version 1 panel gets version 1 screens and has no keypad; key
ids from a panel that did not announce a keypad are refused (NAK, one log line), never posted.
``show``/``play`` never block the daemon: they queue and wake the worker. Only the latest
screen is kept; cues are dropped while the link is down (a late ka-ching is worse than none).

Imports ``bank.unit.io``, ``drivers.base``, ``drivers.panel_protocol``, the standard library,
and pyserial (inside the class, so a missing pyserial costs only this backend).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from typing import Any

from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    Cue,
    Input,
    KeyPressed,
    KeyReleased,
    Labels,
    PanelStatus,
    Screen,
)
from drivers import panel_protocol as pp
from drivers.base import PanelError

log = logging.getLogger("ultibank.panel.serial")


class LinkLost(PanelError):
    """The panel stopped answering, or its tty went away."""


class SerialPanel:
    """The daemon's side of the serial front panel."""

    def __init__(
        self,
        port: str,
        *,
        baudrate: int = 115200,
        clock: Callable[[], float] = time.monotonic,
        name: str | None = None,
        ack_timeout: float = 0.25,
        retries: int = 3,
        ping_interval: float = 1.0,
        backoff_start: float = 0.2,
        backoff_max: float = 5.0,
        read_timeout: float = 0.1,
        max_version: int = pp.PROTOCOL_VERSION,
        labels: Labels | None = None,
    ) -> None:
        try:
            import serial
        except ImportError as err:
            raise PanelError(
                "the serial panel needs pyserial: pip install 'ultibank[serial]'"
            ) from err
        self._serial: Any = serial
        # ``serial:ttyACM0`` in a config means /dev/ttyACM0; URLs (loop://, rfc2217://) pass.
        if port and not port.startswith("/") and "://" not in port:
            port = f"/dev/{port}"
        self.port = port
        self.name = name or f"serial:{port}"
        self._baudrate = baudrate
        self._clock = clock
        self._ack_timeout = ack_timeout
        self._retries = retries
        self._ping_interval = ping_interval
        self._backoff_start = backoff_start
        self._backoff_max = backoff_max
        self._read_timeout = read_timeout
        # The versions this host offers in HELLO (max_version=1: exactly a version 1 bank).
        self._host_hello = pp.HostHello(max_version, min(pp.MIN_PROTOCOL_VERSION, max_version))
        #: the icon table of the ruleset's own icons (its panel vocabulary), sent to a panel
        #: that takes one (``Feature.ICONS``) after each HELLO
        lang = labels.lang if labels is not None else "en"
        own = [(a.icon, a.word(lang)) for a in labels.icons] if labels is not None else []
        self._icon_table = pp.icon_table(own)
        #: the table the panel holds now (empty until it was sent)
        self._table_sent: tuple[pp.IconEntry, ...] = ()
        #: the version spoken with the panel now (negotiated at each HELLO)
        self.version = pp.MIN_PROTOCOL_VERSION
        self._keypad = False

        self._lock = threading.Lock()
        self._screen: Screen | None = None
        self._screen_dirty = False
        self._cues: deque[Cue] = deque()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._post: Callable[[Input], None] | None = None

        self._ser: Any = None
        self._decoder = pp.FrameDecoder()
        self._seq = pp.SequenceCounter()
        self._window = pp.ReceiveWindow()
        self._acked: set[int] = set()
        self._naked: dict[int, pp.NakReason | int] = {}
        self._down: set[Button] = set()
        self._panel_hello: pp.PanelHello | None = None
        self._hello_event = False
        self._connected = False
        self._reported: bool | None = None
        self._last_traffic = 0.0
        #: counters: faults by kind, ``retries`` (of which ``timeouts`` after no ACK came in
        #: time, the rest after a NAK BUSY), ``naks``, ``reconnects``, ``cues_dropped``
        self.stats: Counter[str] = Counter()

    # ------------------------------------------------------------ Panel protocol

    def start(self, post: Callable[[Input], None]) -> None:
        """Start the worker; it connects (and reconnects) on its own."""
        if self._thread is not None:
            raise PanelError(f"{self.name} is already started")
        self._post = post
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def show(self, screen: Screen) -> None:
        """Queue *screen*; it replaces any screen not yet sent."""
        with self._lock:
            self._screen = screen
            self._screen_dirty = True
        self._wake()

    def play(self, cue: Cue) -> None:
        """Queue *cue*; dropped while the link is down."""
        with self._lock:
            if not self._connected:
                self.stats["cues_dropped"] += 1
                return
            self._cues.append(cue)
        self._wake()

    def close(self) -> None:
        """Stop the worker and close the port."""
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._drop_port()

    # ------------------------------------------------------------ eyes

    @property
    def connected(self) -> bool:
        """True while the link is up (HELLO done, answering)."""
        return self._connected

    @property
    def panel_info(self) -> pp.PanelHello | None:
        """What the panel said in its last HELLO (LCD size, features, name)."""
        return self._panel_hello

    @property
    def keypad(self) -> bool:
        """True while the panel's keypad keys are taken (version 2, ``Feature.KEYPAD``)."""
        return self._keypad

    # ------------------------------------------------------------ worker

    def _wake(self) -> None:
        ser = self._ser
        if ser is not None:
            # A closing port may refuse; the loop polls anyway
            with contextlib.suppress(Exception):
                ser.cancel_read()

    def _emit(self, item: Input) -> None:
        if self._post is not None:
            self._post(item)

    def _report(self, connected: bool, detail: str) -> None:
        if self._reported is connected:
            return
        self._reported = connected
        if connected:
            log.info("%s: connected (%s)", self.name, detail)
        else:
            log.warning("%s: link lost: %s", self.name, detail)
        self._emit(PanelStatus(self._clock(), connected, self.name, detail))

    def _run(self) -> None:
        delay = self._backoff_start
        while not self._stop.is_set():
            try:
                self._connect()
            except (PanelError, OSError, self._serial.SerialException) as err:
                self._drop_port()
                self._report(False, str(err))
                self._stop.wait(delay)
                delay = min(delay * 2, self._backoff_max)
                continue
            delay = self._backoff_start
            try:
                while not self._stop.is_set():
                    self._service()
            except (PanelError, OSError, self._serial.SerialException) as err:
                if self._stop.is_set():
                    break
                self._lost(str(err) or type(err).__name__)

    def _lost(self, detail: str) -> None:
        self._drop_port()
        for button in sorted(self._down, key=lambda b: b.value):
            # A held button whose cable is pulled must not keep counting towards a 5 s hold.
            self._emit(ButtonReleased(self._clock(), button))
        self._down.clear()
        self._report(False, detail)

    def _drop_port(self) -> None:
        with self._lock:
            self._connected = False
            self._cues.clear()
            ser, self._ser = self._ser, None
        if ser is not None:
            # The device may already be gone
            with contextlib.suppress(Exception):
                ser.close()
        pending = self._decoder.reset()
        if pending is not None:
            log.info("%s: dropped %s", self.name, pending.detail)

    def _connect(self) -> None:
        try:
            ser = self._serial.Serial(
                self.port,
                self._baudrate,
                timeout=self._read_timeout,
                write_timeout=1.0,
                exclusive=True,
            )
        except (self._serial.SerialException, OSError) as err:
            raise LinkLost(f"cannot open {self.port}: {err}") from err
        ser.reset_input_buffer()
        self._ser = ser
        self._decoder.reset()
        self._window.reset()
        self._acked.clear()
        self._naked.clear()
        # A lone delimiter ends whatever half frame the panel may hold from a previous link.
        self._write(pp.DELIMITER)
        info = self._handshake()
        with self._lock:
            self._connected = True
            self._screen_dirty = self._screen is not None
        self.stats["connects"] += 1
        self._send_screen()
        keypad = ", keypad" if self._keypad else ""
        self._report(
            True, f"{info.name or 'panel'} v{self.version}, LCD {info.cols}x{info.rows}{keypad}"
        )

    def _handshake(self) -> pp.PanelHello:
        """Send HELLO, wait for the panel's, and speak the version both ends know."""
        self._hello_event = False
        self._transact(pp.MsgType.HELLO, pp.encode_host_hello(self._host_hello))
        deadline = time.monotonic() + self._ack_timeout * (self._retries + 1)
        while not self._hello_event:
            left = deadline - time.monotonic()
            if left <= 0:
                raise LinkLost("the panel acknowledged HELLO but never introduced itself")
            self._pump()
        self._hello_event = False
        info = self._panel_hello
        assert info is not None
        try:
            version = pp.negotiate(self._host_hello, info.version)
        except pp.ProtocolError as err:
            raise PanelError(f"{self.port}: {err}") from err
        self.version = version
        self._keypad = version >= pp.KEYPAD_VERSION and info.keypad
        self._send_icons(info)
        return info

    def _send_icons(self, info: pp.PanelHello) -> None:
        """Give a panel that takes one the icon table (it forgets it when it restarts)."""
        self._table_sent = ()
        if not self._icon_table or self.version < 2 or not info.has(pp.Feature.ICONS):
            return
        for entry in self._icon_table:
            self._transact(pp.MsgType.ICON, pp.encode_icon(entry))
        self._table_sent = self._icon_table

    def _service(self) -> None:
        if self._hello_event:
            # The panel rebooted (it sent HELLO on its own): it has lost the screen.
            self._hello_event = False
            self.stats["panel_restarts"] += 1
            info = self._panel_hello
            if info is not None and info.version != self.version:
                # It speaks version 1 until it hears the host's HELLO: shake hands again.
                self._handshake()
            elif info is not None:
                self._send_icons(info)
            with self._lock:
                self._screen_dirty = self._screen is not None
        if self._send_screen():
            return
        with self._lock:
            cue = self._cues.popleft() if self._cues else None
        if cue is not None:
            self._transact(pp.MsgType.CUE, pp.encode_cue(cue))
            return
        idle = time.monotonic() - self._last_traffic
        if idle >= self._ping_interval:
            self._transact(pp.MsgType.PING, b"")
            return
        self._pump()

    def _send_screen(self) -> bool:
        with self._lock:
            screen = self._screen if self._screen_dirty else None
            self._screen_dirty = False
        if screen is None:
            return False
        try:
            payload = pp.encode_show(screen, self.version, self._table_sent)
        except (pp.ProtocolError, KeyError) as err:
            log.error("%s: cannot encode screen %r: %s", self.name, screen.name, err)
            return False
        self._transact(pp.MsgType.SHOW, payload)
        return True

    def _write(self, data: bytes) -> None:
        ser = self._ser
        if ser is None:
            raise LinkLost("port closed")
        try:
            ser.write(data)
        except self._serial.SerialTimeoutException as err:
            raise LinkLost(f"write to {self.port} timed out") from err

    def _transact(self, kind: pp.MsgType, payload: bytes) -> None:
        """Send one reliable frame and wait for its ACK, retrying; LinkLost when it never comes."""
        seq = self._seq.next()
        self._acked.clear()
        self._naked.clear()
        data = pp.encode_frame(pp.Frame(kind, seq, payload))
        for attempt in range(self._retries + 1):
            if attempt:
                self.stats["retries"] += 1
            self._write(data)
            deadline = time.monotonic() + self._ack_timeout
            while True:
                if seq in self._acked:
                    self._acked.discard(seq)
                    return
                if seq in self._naked:
                    reason = self._naked.pop(seq)
                    if reason is pp.NakReason.BUSY:
                        break  # the panel asks for a retry
                    # Intact but refused: sending the same bytes again cannot help.
                    self.stats["refused"] += 1
                    if kind is pp.MsgType.HELLO:
                        raise PanelError(f"{self.port}: the panel refused HELLO ({reason})")
                    log.error("%s: panel refused %s #%d (%s)", self.name, kind.name, seq, reason)
                    return
                left = deadline - time.monotonic()
                if left <= 0:
                    self.stats["timeouts"] += 1
                    break
                self._pump()
        raise LinkLost(f"no ACK for {kind.name} after {self._retries + 1} tries")

    def _pump(self) -> None:
        """Read what arrives within the port's read timeout (or until woken) and handle it."""
        ser = self._ser
        if ser is None:
            raise LinkLost("port closed")
        # cancel_read() from show/play ends the wait early.
        data = ser.read(ser.in_waiting or 1)
        while data:
            self._last_traffic = time.monotonic()
            for item in self._decoder.feed(data):
                self._handle(item)
            waiting = ser.in_waiting
            data = ser.read(waiting) if waiting else b""

    def _handle(self, item: pp.Frame | pp.FrameFault) -> None:
        if isinstance(item, pp.FrameFault):
            self.stats[item.fault.value] += 1
            log.warning(
                "%s: dropped a bad frame (%s: %s)", self.name, item.fault.value, item.detail
            )
            reply = pp.fault_nak(item)
            if reply is not None:
                self._write(reply)
            return
        if item.type is pp.MsgType.ACK or item.type is pp.MsgType.NAK:
            self._handle_ack(item)
            return
        try:
            self._handle_message(item)
        except pp.ProtocolError as err:
            self.stats["malformed"] += 1
            log.warning("%s: refused %s #%d: %s", self.name, item.type.name, item.seq, err)
            self._write(pp.nak(item.seq, pp.NakReason.MALFORMED))

    def _handle_ack(self, frame: pp.Frame) -> None:
        try:
            if frame.type is pp.MsgType.ACK:
                self._acked.add(pp.decode_ack(frame))
            else:
                seq, reason = pp.decode_nak(frame)
                self.stats["naks"] += 1
                self._naked[seq] = reason
        except pp.ProtocolError as err:
            self.stats["malformed"] += 1
            log.warning("%s: bad %s: %s", self.name, frame.type.name, err)

    def _handle_message(self, frame: pp.Frame) -> None:
        if frame.type is pp.MsgType.BUTTON:
            event = pp.decode_button(frame.payload, keypad=self._keypad)
            self._write(pp.ack(frame.seq))
            if not self._window.accept(frame):
                self.stats["duplicates"] += 1
                return
            if isinstance(event, pp.KeyEvent):
                # A key acts when released; one held as the cable is pulled is forgotten, so
                # a pulled cable never types a digit.
                kind = KeyPressed if event.down else KeyReleased
                self._emit(kind(self._clock(), event.key))
                self.stats["keys"] += 1
            elif event.down:
                self._down.add(event.button)
                self._emit(ButtonPressed(self._clock(), event.button))
            else:
                self._down.discard(event.button)
                self._emit(ButtonReleased(self._clock(), event.button))
        elif frame.type is pp.MsgType.HELLO:
            info = pp.decode_panel_hello(frame.payload)
            self._write(pp.ack(frame.seq))
            self._window.accept(frame)
            self._panel_hello = info
            self._hello_event = True
        elif frame.type is pp.MsgType.ERROR:
            code, text = pp.decode_error(frame.payload)
            self._write(pp.ack(frame.seq))
            if self._window.accept(frame):
                self.stats["panel_errors"] += 1
                log.error("%s: panel error %d: %s", self.name, code, text)
        else:
            # SHOW, CUE and PING only travel host -> panel.
            self.stats["wrong_direction"] += 1
            self._write(pp.nak(frame.seq, pp.NakReason.UNKNOWN_TYPE))
