"""A simulated front-panel microcontroller: the other end of the serial panel's link.

It speaks :mod:`drivers.panel_protocol` through pyserial on a tty (a pseudo-terminal in
tests), keeps a virtual 20x4 character LCD (laid out by :mod:`drivers.charlcd`, exactly what
the real firmware would show) and a record of cues. Hands: :meth:`PanelFirmware.press`,
:meth:`~PanelFirmware.release`, :meth:`~PanelFirmware.key` (with ``keypad=True``: the 3 x 4
keypad's digits and ⌫), :meth:`~PanelFirmware.reboot`, :meth:`~PanelFirmware.freeze`,
:meth:`~PanelFirmware.corrupt_next`; eyes: :attr:`~PanelFirmware.lcd_lines`,
:attr:`~PanelFirmware.cues`, :attr:`~PanelFirmware.screens`, :attr:`~PanelFirmware.stats`.

It negotiates like a real panel: it speaks ``min(host max, its own version)`` once it has heard
the host's HELLO, and version 1 before (after a reboot). ``version=1`` makes it a panel of
the first protocol version (no keypad, version 1 screens). A keypad on a bank that speaks only
version 1 is dead: its keys are counted (``keys_unsent``), never sent.

For manual play: ``python -m firmware_sim.panel_firmware PORT`` (keys o/Enter, m, x press
and release a button; O, M, X hold it until pressed again; with ``--keypad`` the digits and
Backspace are the keypad's; q quits; the LCD is printed).

Imports ``bank.unit.io``, ``drivers.panel_protocol``, ``drivers.charlcd``, pyserial and the
standard library. Contains no rule.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import queue
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bank.unit.io import Button, Cue, Screen
from drivers import charlcd
from drivers import panel_protocol as pp

log = logging.getLogger("ultibank.panel.firmware")

CORRUPTIONS = ("flip", "truncate", "garbage", "drop")


@dataclass(frozen=True, slots=True)
class _Outgoing:
    kind: pp.MsgType
    payload: bytes


class PanelFirmware:
    """The panel's side of the link, run in two threads (receiver and reliable sender)."""

    def __init__(
        self,
        port: str,
        *,
        cols: int = 20,
        rows: int = 4,
        name: str = "ultibank-sim",
        version: int = pp.PROTOCOL_VERSION,
        features: int = pp.Feature.LCD | pp.Feature.BUZZER | pp.Feature.BUTTONS | pp.Feature.GLYPHS,
        keypad: bool = False,
        icons: bool = False,
        ack_timeout: float = 0.1,
        retries: int = 5,
        baudrate: int = 115200,
    ) -> None:
        import serial

        self._serial: Any = serial
        self.port = port
        if keypad:
            features |= pp.Feature.KEYPAD
        if icons:  # it takes the bank's icon table (a ruleset's own icons, by their words)
            features |= pp.Feature.ICONS
        #: the icon table the bank sent since the last HELLO (bits 20-31)
        self.icon_table: tuple[pp.IconEntry, ...] = ()
        #: the newest version this firmware speaks, and what it announces at that version
        self.max_version = version
        self._hello_at = pp.PanelHello(version, cols, rows, features, name)
        #: what it says in HELLO now: version 1 (and no keypad) until it hears the host's
        self.hello = self._hello_for(pp.MIN_PROTOCOL_VERSION)
        self._baudrate = baudrate
        self._ack_timeout = ack_timeout
        self._retries = retries
        self._ser: Any = None
        self._write_lock = threading.Lock()
        self._cond = threading.Condition()
        self._acked: set[int] = set()
        self._naked: dict[int, pp.NakReason | int] = {}
        self._refused: set[pp.MsgType] = set()
        self._busy = 0
        self._out: queue.Queue[_Outgoing | None] = queue.Queue()
        self._decoder = pp.FrameDecoder()
        self._window = pp.ReceiveWindow()
        self._seq = pp.SequenceCounter()
        self._stop = threading.Event()
        self._frozen = threading.Event()
        self._threads: list[threading.Thread] = []
        self._corrupt: list[tuple[str, bool]] = []
        self._screen: Screen | None = None
        #: every screen received, in order (duplicates suppressed)
        self.screens: list[Screen] = []
        #: every cue received, in order
        self.cues: list[Cue] = []
        #: counters: ``frames_in``, faults by kind, ``duplicates``, ``pings``, ``gave_up``...
        self.stats: Counter[str] = Counter()
        #: called (from the receiver thread) after each screen or cue; for the manual mode
        self.on_change: Callable[[], None] | None = None

    # ------------------------------------------------------------ life cycle

    def start(self) -> None:
        """Open the port and start the receiver and sender threads."""
        self._ser = self._serial.Serial(self.port, self._baudrate, timeout=0.05)
        self._stop.clear()
        self._threads = [
            threading.Thread(target=self._receive, name="fw-rx", daemon=True),
            threading.Thread(target=self._send_loop, name="fw-tx", daemon=True),
        ]
        for t in self._threads:
            t.start()

    def stop(self) -> None:
        """Stop both threads and close the port."""
        self._stop.set()
        self._out.put(None)
        with self._cond:
            self._cond.notify_all()
        ser = self._ser
        if ser is not None:
            # Already closing
            with contextlib.suppress(Exception):
                ser.cancel_read()
        for t in self._threads:
            t.join(timeout=5)
        self._threads = []
        if ser is not None:
            # The pty may be gone
            with contextlib.suppress(Exception):
                ser.close()
        self._ser = None

    def reopen(self) -> None:
        """Reopen the port after the cable was plugged back (same path, new tty)."""
        self.stop()
        self._decoder.reset()
        self._out = queue.Queue()
        self.start()

    # ------------------------------------------------------------ hands

    def press(self, button: Button) -> None:
        """The button goes down."""
        self._out.put(_Outgoing(pp.MsgType.BUTTON, pp.encode_button(pp.ButtonEvent(button, True))))

    def release(self, button: Button) -> None:
        """The button comes up."""
        self._out.put(_Outgoing(pp.MsgType.BUTTON, pp.encode_button(pp.ButtonEvent(button, False))))

    def press_key(self, key: str) -> None:
        """A keypad key (``0``-``9``, ``back``) goes down."""
        self._send_key(pp.KeyEvent(key, True))

    def release_key(self, key: str) -> None:
        """The keypad key comes up (the bank acts on it now)."""
        self._send_key(pp.KeyEvent(key, False))

    def key(self, keys: str) -> None:
        """Press and release each key of *keys* in turn: ``"150"``, or ``"back"`` for ⌫."""
        for key in [keys] if keys == "back" else list(keys):
            self.press_key(key)
            self.release_key(key)

    def _send_key(self, event: pp.KeyEvent) -> None:
        if event.key not in pp.KEY_CODES:
            raise ValueError(f"no key {event.key!r} on the keypad: 0-9 or back")
        if not self.hello.keypad:
            # No keypad announced (none fitted, or a version 1 bank): the key does nothing.
            self.stats["keys_unsent"] += 1
            log.info("firmware: key %s not sent: the keypad is off at version %d",
                     event.key, self.hello.version)  # fmt: skip
            return
        self._out.put(_Outgoing(pp.MsgType.BUTTON, pp.encode_key(event)))

    def report_error(self, code: int, text: str) -> None:
        """Send an ERROR frame (e.g. the buzzer driver failed)."""
        self._out.put(_Outgoing(pp.MsgType.ERROR, pp.encode_error(code, text)))

    def reboot(self) -> None:
        """Simulate a reset of the microcontroller: blank LCD, then an unsolicited HELLO."""
        self._screen = None
        self.icon_table = ()
        self._window.reset()
        self.hello = self._hello_for(pp.MIN_PROTOCOL_VERSION)
        self._out.put(_Outgoing(pp.MsgType.HELLO, pp.encode_panel_hello(self.hello)))

    def freeze(self, frozen: bool = True) -> None:
        """Stop (or resume) answering anything, as a hung microcontroller would."""
        if frozen:
            self._frozen.set()
        else:
            self._frozen.clear()

    def corrupt_next(self, count: int = 1, how: str = "flip", resend: bool = True) -> None:
        """Spoil the first transmission of the next *count* reliable frames.

        *how*: ``flip`` (one byte changed), ``truncate`` (cut in the middle), ``garbage``
        (random-looking bytes instead), ``drop`` (nothing sent). With ``resend=False`` the
        frame is never retransmitted, so the host can only ever see the spoiled copy.
        """
        if how not in CORRUPTIONS:
            raise ValueError(f"unknown corruption {how!r}; choose from {', '.join(CORRUPTIONS)}")
        self._corrupt.extend([(how, resend)] * count)

    def refuse(self, kind: pp.MsgType) -> None:
        """NAK every *kind* message as UNKNOWN_TYPE, as an older firmware would."""
        self._refused.add(kind)

    def busy_next(self, count: int = 1) -> None:
        """NAK the next *count* host messages as BUSY (the host must retry them)."""
        self._busy += count

    def send_raw(self, data: bytes) -> None:
        """Write raw bytes to the link (for fuzzing the host)."""
        self._write(data)

    # ------------------------------------------------------------ eyes

    @property
    def screen(self) -> Screen | None:
        """The screen the virtual LCD shows."""
        return self._screen

    @property
    def lcd_lines(self) -> tuple[str, ...]:
        """The virtual LCD's rows, in plain ASCII (glyphs shown as ``#``, ``.``, ``T``...)."""
        return self._lcd(glyphs=False)

    @property
    def lcd_ddram(self) -> tuple[str, ...]:
        """The virtual LCD's rows as the HD44780 holds them (CGRAM glyphs as codes 0..7)."""
        return self._lcd(glyphs=True)

    def _lcd(self, glyphs: bool) -> tuple[str, ...]:
        screen = self._screen or Screen("blank", off=True)
        words = {e.icon: e.word for e in self.icon_table}
        return charlcd.layout(
            screen, self.hello.cols, self.hello.rows, glyphs=glyphs, icon_word=words.get
        )

    @property
    def version(self) -> int:
        """The protocol version the panel speaks now."""
        return self.hello.version

    # ------------------------------------------------------------ internals

    def _hello_for(self, version: int) -> pp.PanelHello:
        """The HELLO of this panel speaking *version* (the keypad bit only from version 2)."""
        features = self._hello_at.features
        if version < pp.KEYPAD_VERSION:
            features &= ~pp.Feature.KEYPAD
        return pp.PanelHello(version, self._hello_at.cols, self._hello_at.rows, features,
                             self._hello_at.name)  # fmt: skip

    def _write(self, data: bytes) -> None:
        ser = self._ser
        if ser is None:
            return
        with self._write_lock:
            try:
                ser.write(data)
            except (self._serial.SerialException, OSError) as err:
                log.info("firmware: write failed: %s", err)

    def _receive(self) -> None:
        while not self._stop.is_set():
            ser = self._ser
            try:
                data = ser.read(ser.in_waiting or 1)
            except (self._serial.SerialException, OSError, TypeError, AttributeError):
                # The cable was pulled: wait to be reopened.
                if self._stop.wait(0.05):
                    return
                continue
            if not data or self._frozen.is_set():
                continue
            for item in self._decoder.feed(data):
                self._handle(item)

    def _handle(self, item: pp.Frame | pp.FrameFault) -> None:
        if isinstance(item, pp.FrameFault):
            self.stats[item.fault.value] += 1
            reply = pp.fault_nak(item)
            if reply is not None:
                self._write(reply)
            return
        self.stats["frames_in"] += 1
        if item.type in pp.UNACKED:
            with self._cond:
                try:
                    if item.type is pp.MsgType.ACK:
                        self._acked.add(pp.decode_ack(item))
                    else:
                        seq, reason = pp.decode_nak(item)
                        self._naked[seq] = reason
                except pp.ProtocolError:
                    self.stats["malformed"] += 1
                self._cond.notify_all()
            return
        try:
            self._act(item)
        except pp.ProtocolError as err:
            self.stats["malformed"] += 1
            log.info("firmware: refused %s: %s", item.type.name, err)
            self._write(pp.nak(item.seq, pp.NakReason.MALFORMED))

    def _take_icon(self, frame: pp.Frame) -> None:
        """An entry of the bank's icon table: decoded before it is acknowledged."""
        entry = pp.decode_icon(frame.payload)
        self._write(pp.ack(frame.seq))
        if not self._window.accept(frame):
            self.stats["duplicates"] += 1
            return
        others = tuple(e for e in self.icon_table if e.bit != entry.bit)
        self.icon_table = (*others, entry)

    def _act(self, frame: pp.Frame) -> None:
        kind = frame.type
        if kind is pp.MsgType.HELLO:
            host = pp.decode_host_hello(frame.payload)
            self._write(pp.ack(frame.seq))
            self._window.accept(frame)
            self.stats["hellos"] += 1
            self.icon_table = ()  # the bank sends its table again after each HELLO
            # The panel's choice; below the host's minimum the host refuses it, as it should.
            self.hello = self._hello_for(min(host.max_version, self.max_version))
            self._out.put(_Outgoing(pp.MsgType.HELLO, pp.encode_panel_hello(self.hello)))
            return
        if kind is pp.MsgType.ICON and pp.Feature.ICONS & self.hello.features:
            self._take_icon(frame)
            return
        if kind not in (pp.MsgType.SHOW, pp.MsgType.CUE, pp.MsgType.PING) or kind in self._refused:
            self._write(pp.nak(frame.seq, pp.NakReason.UNKNOWN_TYPE))
            return
        if self._busy:
            self._busy -= 1
            self._write(pp.nak(frame.seq, pp.NakReason.BUSY))
            return
        # Decode before acknowledging: a malformed payload is NAKed, never half-applied.
        show = kind is pp.MsgType.SHOW
        screen = pp.decode_show(frame.payload, self.version, self.icon_table) if show else None
        cue = pp.decode_cue(frame.payload) if kind is pp.MsgType.CUE else None
        self._write(pp.ack(frame.seq))
        if not self._window.accept(frame):
            self.stats["duplicates"] += 1
            return
        if screen is not None:
            self._screen = screen
            self.screens.append(screen)
        elif cue is not None:
            self.cues.append(cue)
        else:
            self.stats["pings"] += 1
            return
        if self.on_change is not None:
            self.on_change()

    def _send_loop(self) -> None:
        while not self._stop.is_set():
            item = self._out.get()
            if item is None:
                return
            self._send_reliably(item)

    def _send_reliably(self, item: _Outgoing) -> None:
        seq = self._seq.next()
        data = pp.encode_frame(pp.Frame(item.kind, seq, item.payload))
        spoil, resend = self._corrupt.pop(0) if self._corrupt else (None, True)
        with self._cond:
            self._acked.clear()
            self._naked.clear()
        for attempt in range(self._retries + 1):
            if attempt and not resend:
                break
            self._write(_spoil(data, spoil) if attempt == 0 and spoil else data)
            deadline = time.monotonic() + self._ack_timeout
            with self._cond:
                while seq not in self._acked and seq not in self._naked:
                    left = deadline - time.monotonic()
                    if left <= 0 or self._stop.is_set():
                        break
                    self._cond.wait(left)
                if seq in self._acked:
                    return
                reason = self._naked.pop(seq, None)
            if reason is not None and reason is not pp.NakReason.BUSY:
                self.stats["refused"] += 1
                return
            self.stats["retries"] += 1
        self.stats["gave_up"] += 1
        log.info("firmware: gave up on %s #%d", item.kind.name, seq)


def _spoil(data: bytes, how: str) -> bytes:
    """A damaged copy of an encoded frame (its delimiters kept where they frame the damage)."""
    if how == "drop":
        return b""
    if how == "truncate":
        return data[: max(2, len(data) // 2)]
    if how == "garbage":
        return b"\x00" + bytes((i * 37 + 11) % 255 + 1 for i in range(len(data) - 2)) + b"\x00"
    middle = len(data) // 2
    flipped = data[middle] ^ 0x5A or 0x01
    return data[:middle] + bytes((flipped,)) + data[middle + 1 :]


# ---------------------------------------------------------------- manual play

_KEYS = {"o": Button.OK, "\r": Button.OK, "\n": Button.OK, "m": Button.MENU, "x": Button.CANCEL}
#: with ``--keypad``: the terminal's digits and Backspace/DEL as the keypad's keys
_KEYPAD = {**{d: d for d in "0123456789"}, "\x7f": "back", "\x08": "back"}


def _print_lcd(fw: PanelFirmware) -> None:
    width = fw.hello.cols
    rows = ["+" + "-" * width + "+"]
    rows += ["|" + line + "|" for line in fw.lcd_lines]
    rows.append("+" + "-" * width + "+")
    cues = " ".join(c.value for c in fw.cues[-3:])
    sys.stdout.write("\r\n".join(rows) + f"\r\ncues: {cues}\r\n")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    """Run the simulated panel on PORT, keys as buttons, the LCD printed on each change."""
    parser = argparse.ArgumentParser(prog="python -m firmware_sim.panel_firmware")
    parser.add_argument("port", help="the tty to open, e.g. the panel end of a socat pair")
    parser.add_argument("--cols", type=int, default=20)
    parser.add_argument("--rows", type=int, default=4)
    parser.add_argument(
        "--keypad",
        action="store_true",
        help="announce a keypad (protocol version 2): digits and Backspace are its keys",
    )
    parser.add_argument(
        "--protocol",
        type=int,
        choices=range(pp.MIN_PROTOCOL_VERSION, pp.PROTOCOL_VERSION + 1),
        default=pp.PROTOCOL_VERSION,
        help="the newest protocol version the panel speaks (1: a panel of the first version)",
    )
    args = parser.parse_args(argv)
    fw = PanelFirmware(
        args.port, cols=args.cols, rows=args.rows, keypad=args.keypad, version=args.protocol
    )
    fw.on_change = lambda: _print_lcd(fw)
    try:
        fw.start()
    except (fw._serial.SerialException, OSError) as err:
        print(f"{parser.prog}: cannot open {args.port}: {err}", file=sys.stderr)
        return 1
    keypad = "; 0-9 and Backspace = the keypad" if args.keypad else ""
    print(f"keys: o/Enter = OK, m = M, x = X (press+release); O/M/X hold/let go{keypad}; q quits")
    held: set[Button] = set()
    fd = sys.stdin.fileno()
    saved = None
    if sys.stdin.isatty():
        import termios
        import tty

        saved = termios.tcgetattr(fd)
        tty.setcbreak(fd)
    try:
        while True:
            ch = sys.stdin.read(1)
            if not ch or ch == "q":
                break
            if ch.lower() in _KEYS and ch.isupper():
                button = _KEYS[ch.lower()]
                if button in held:
                    held.discard(button)
                    fw.release(button)
                else:
                    held.add(button)
                    fw.press(button)
            elif ch in _KEYS:
                fw.press(_KEYS[ch])
                fw.release(_KEYS[ch])
            elif args.keypad and ch in _KEYPAD:
                fw.key(_KEYPAD[ch])
    finally:
        if saved is not None:
            import termios

            termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        fw.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
