"""The nfcpy reader backend: NFC readers that nfcpy drives directly over USB, a serial line or UDP.

=================================  ===========  =============================================
reader                             path         notes
=================================  ===========  =============================================
NXP PN533, SCM SCL3711             ``usb``      ``usb:04cc:2533``, ``usb:04e6:5591``
Sony RC-S380 (PaSoRi)              ``usb``      ``usb:054c:06c3``; blacklist ``port100``
Sony RC-S956, PN531                ``usb``      ``usb:054c:02e1``, ``usb:054c:0193``
PN532 breakout on a serial line    ``tty``      ``tty:USB0:pn532`` (FTDI/CH340 adapter),
                                                ``tty:serial0:pn532`` (Raspberry Pi UART);
                                                PN532 over I2C is not supported by nfcpy
ACS ACR122U                        ``usb``      firmware 2.13 and older only; today's 2.15/2.16
                                                fail under nfcpy: use the PC/SC backend
nfcpy's UDP link (tests, CI)       ``udp``      ``udp:127.0.0.1:54321``
=================================  ===========  =============================================

Tags: NFC Forum Type 2 (NTAG213/215/216, Ultralight), Type 3 (FeliCa) and Type 4 (A and B)
are read: UID plus NDEF message. :func:`write_card` writes only Type 2 tags.

Paths: ``usb[:vid[:pid]]`` (hex), ``usb[:bus[:dev]]`` (decimal, as ``lsusb`` shows),
``tty:PORT[:driver]`` (``/dev/ttyPORT``, or ``/dev/PORT`` for other names; driver ``pn532``
or ``arygon``), ``com:PORT:driver`` on Windows, ``udp[:host][:port]``.

The backend reports presence only: one :class:`CardPresent` when a tag has been read, one
:class:`CardAbsent` when nfcpy's presence check loses it. Debouncing and identity are the
shared core's job. nfcpy is imported inside this module, so a machine without it loses only
this backend, with an error that names the fix. Imports ``bank.unit.io``, ``drivers.base``,
``drivers.debounce``, ``drivers.identity``, the standard library, and nfcpy/ndeflib lazily.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import re
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from bank.unit.io import CardId, Cue
from drivers.base import (
    CardAbsent,
    CardPresent,
    DriverError,
    Presence,
    ReaderError,
    ReaderUnavailable,
    TagError,
)
from drivers.debounce import rearm_for_poll

log = logging.getLogger(__name__)

#: seconds nfcpy sleeps between sense rounds when one round finds nothing (iterations=1
#: makes nfcpy return to our loop after every round, so *stop* is seen promptly)
POLL_INTERVAL_S = 0.05
#: nfcpy sleeps this long between presence checks of a tag lying on the reader (hard-coded)
PRESENCE_CHECK_S = 0.1
#: nfcpy's udp driver waits this long for each technology's answer (hard-coded)
UDP_SENSE_WAIT_S = 1.0
#: card data-area size (CC byte 2) per NTAG product, for formatting a tag with no CC
_NTAG_CC_SIZE = {"NXP NTAG213": 0x12, "NXP NTAG215": 0x3E, "NXP NTAG216": 0x6D}

_USB_RE = re.compile(r"^usb(:[0-9a-fA-F]{4}(:[0-9a-fA-F]{4})?|:\d{1,3}(:\d{1,3})?)?$")
_TTY_RE = re.compile(r"^tty:[A-Za-z0-9_.-]+(:(pn532|arygon))?$")
_COM_RE = re.compile(r"^com:[A-Za-z0-9]+:(pn532|arygon)$")
_UDP_RE = re.compile(r"^udp(:[A-Za-z0-9_.-]*)?(:\d{1,5})?$")

INSTALL_HINT = "pip install 'ultibank[nfc]'"

#: what nfcpy can poll for: type A and B at 106 kbit/s, FeliCa at 212 kbit/s
_TARGETS = ("106A", "106B", "212F")


class ReaderPathError(DriverError, ValueError):
    """A reader path that names no nfcpy device."""


def check_path(path: str) -> str:
    """Return *path* if nfcpy can open such a path; ReaderPathError with the syntax otherwise."""
    if _USB_RE.match(path) or _TTY_RE.match(path) or _COM_RE.match(path) or _UDP_RE.match(path):
        return path
    raise ReaderPathError(
        f"not an nfcpy reader path: {path!r} (expected usb[:vid[:pid]], usb[:bus[:dev]], "
        "tty:PORT[:pn532|arygon], com:PORT:DRIVER or udp[:host][:port])"
    )


def default_targets(path: str) -> tuple[str, ...]:
    """The technologies to poll on *path*: all three, but only type A over ``udp``.

    nfcpy's udp driver waits a fixed 1 s for each technology's answer, so polling B and F
    there would make every empty round last 3 s; the simulators on that link are type A.
    """
    return ("106A",) if path.startswith("udp") else _TARGETS


def _import_nfc() -> Any:
    try:
        import nfc
        import nfc.tag.tt2
    except ImportError as err:
        # nfcpy itself, or one of its dependencies (libusb1, pyserial, ndeflib) is missing
        raise ReaderUnavailable(f"nfcpy is missing or incomplete ({err}): {INSTALL_HINT}") from err
    return nfc


def _import_ndef() -> Any:
    try:
        import ndef
    except ImportError as err:
        raise ReaderUnavailable(f"ndeflib is missing: {INSTALL_HINT}") from err
    return ndef


def translate_open_error(err: OSError, path: str) -> ReaderError:
    """The error to raise when nfcpy fails to open *path* with *err* (plain advice included)."""
    text = str(err)
    if err.errno == errno.ENOENT and "libusb" in text:
        return ReaderUnavailable("libusb-1.0 is missing: apt install libusb-1.0-0")
    if err.errno == errno.EBUSY:
        return ReaderError(
            f"reader {path} is busy: another program holds it. pcscd claims USB readers "
            "(stop it: systemctl stop pcscd.socket pcscd), and so do the kernel modules "
            "pn533_usb/port100 (blacklist them: see docs/nfcpy.md)"
        )
    if err.errno in (errno.EACCES, errno.EPERM):
        return ReaderError(
            f"no permission to open reader {path}: add a udev rule giving the reader to group "
            "plugdev (see docs/nfcpy.md) and add this user to plugdev (serial readers: dialout)"
        )
    if err.errno in (errno.ENODEV, errno.ENOENT, errno.ENXIO):
        return ReaderError(f"reader {path} is not there (unplugged?): {text}")
    return ReaderError(f"cannot open reader {path}: {text}")


def _open(nfc: Any, path: str) -> Any:
    """An open ``nfc.ContactlessFrontend`` on *path*; ReaderError otherwise."""
    clf = nfc.ContactlessFrontend()
    try:
        found = clf.open(path)
    except OSError as err:
        raise translate_open_error(err, path) from err
    if not found:
        raise ReaderError(f"no reader found at {path}: {_not_found_hint(path)}")
    if "ACR122" in str(clf.device):
        log.warning(
            "%s: nfcpy handles the ACR122U only with firmware 2.13 or older; if reads time "
            "out, read it through PC/SC instead (reader path pcsc:ACR122)",
            clf.device,
        )
    return clf


def _not_found_hint(path: str) -> str:
    if path.startswith(("tty", "com")):
        return (
            "is the PN532 wired to that port and set to UART mode, the serial console off, "
            "and this user in group dialout? (ultibank readers explains what it finds)"
        )
    if path.startswith("udp"):
        return "the udp driver always opens; this should not happen"
    return (
        "is it plugged in, and not held by pcscd or a kernel NFC module? "
        "(ultibank readers explains what it finds)"
    )


def _uid(tag: Any) -> str:
    return bytes(tag.identifier).hex().upper()


def _valid_ndef(octets: bytes) -> bytes | None:
    """*octets* if they decode as an NDEF message with at least one record, else None."""
    if not octets:
        return None
    ndef = _import_ndef()
    try:
        records = list(ndef.message_decoder(octets, errors="relax"))
    except Exception as err:  # ndeflib raises DecodeError and friends on garbage
        log.info("malformed NDEF message ignored (%s): %s", err, octets.hex())
        return None
    return octets if records else None


class NfcpyBackend:
    """A reader that nfcpy drives: PN533, SCL3711, RC-S380, PN532 on a serial line, or UDP."""

    #: how often the stack looks at the field: nfcpy checks a tag's presence every 0.1 s
    poll_s = PRESENCE_CHECK_S
    #: the re-arm this stack needs (``reader.rearm_seconds`` overrides it)
    rearm_s = rearm_for_poll(PRESENCE_CHECK_S)

    def __init__(
        self,
        path: str,
        *,
        targets: Sequence[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = check_path(path)
        self.targets = tuple(targets) if targets is not None else default_targets(path)
        if not self.targets or not all(t in _TARGETS for t in self.targets):
            raise ReaderPathError(
                f"targets must be some of {', '.join(_TARGETS)}, not {list(self.targets)}"
            )
        self._clock = clock
        self._nfc = _import_nfc()
        self._waking = threading.Event()
        self._stop: threading.Event | None = None
        self._clf: Any = None
        self._present: str | None = None
        self._finished = threading.Event()

    def __repr__(self) -> str:
        return f"NfcpyBackend({self.path!r})"

    # -------------------------------------------------------------- ReaderBackend

    def run(self, emit: Callable[[Presence], None], stop: threading.Event) -> None:
        """Open the reader and report presence until *stop* is set; ReaderError when lost."""
        self._stop = stop
        self._waking.clear()
        self._finished.clear()
        clf = _open(self._nfc, self.path)
        self._clf = clf
        options = {
            "targets": list(self.targets),
            "on-connect": lambda tag: self._on_connect(tag, emit),
            "on-release": lambda tag: self._on_release(tag, emit),
            "beep-on-connect": False,
            "interval": POLL_INTERVAL_S,
            "iterations": 1,
        }
        try:
            emit(CardAbsent(None, at=self._clock()))  # open: the supervisor may say "connected"
            while not self._terminated():
                result = clf.connect(rdwr=options, terminate=self._terminated)
                if result is False and not self._terminated():
                    # nfcpy logged the IOError and gave up: the device is gone
                    raise ReaderError(f"reader {self.path} was lost (unplugged?)")
        except ReaderError:
            if not self._terminated():
                raise
        except Exception as err:
            if not self._terminated():
                # a serial line hung up mid-exchange (termios.error, OSError from pyserial)
                raise ReaderError(f"reader {self.path} was lost (unplugged?): {err}") from err
            log.debug("error while stopping %s ignored", self.path, exc_info=True)
        finally:
            self._finished.set()
            self._clf = None
            try:
                clf.close()
            except Exception as err:  # closing a device that is gone fails; it is gone anyway
                log.debug("closing %s failed: %s", self.path, err)
                _release_port(clf)
            if self._present is not None:
                emit(CardAbsent(self._present, at=self._clock()))
                self._present = None

    def wake(self) -> None:
        """Make ``run`` return soon: its terminate check turns true at nfcpy's next poll."""
        self._waking.set()
        if self.path.startswith("udp") and self._clf is not None:
            # the udp driver blocks 1 s per technology waiting for an answer, on a socket it
            # replaces every round; RFOFFs to that socket end the waits (run closes it)
            threading.Thread(target=self._interrupt_udp, name="nfcpy udp wake", daemon=True).start()

    def _interrupt_udp(self) -> None:
        deadline = time.monotonic() + 2 * UDP_SENSE_WAIT_S
        while not self._finished.is_set() and time.monotonic() < deadline:
            device = getattr(self._clf, "device", None)
            sock = getattr(device, "socket", None)
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.sendto(b"RFOFF", ("127.0.0.1", sock.getsockname()[1]))
            self._finished.wait(0.02)

    def feedback(self, cue: Cue) -> None:
        """Nothing: see docs/nfcpy.md.

        nfcpy's presence check owns the reader's link for as long as a card lies on it, so an
        LED/buzzer frame from the daemon's thread would interleave with presence-check frames.
        The PN533, SCL3711, RC-S380 and PN532 boards have no buzzer anyway; the ACR122U, which
        has one, belongs on the PC/SC backend. The unit's own speaker plays every cue.
        """

    # -------------------------------------------------------------- nfcpy callbacks

    def _terminated(self) -> bool:
        stop = self._stop
        return self._waking.is_set() or (stop is not None and stop.is_set())

    def _on_connect(self, tag: Any, emit: Callable[[Presence], None]) -> bool:
        uid = _uid(tag)
        octets, complete = self._read_ndef(tag)
        if not complete:
            log.info("tag %s left during its read: not a tap", uid)
            return True  # nfcpy's presence check fails at once and releases it
        self._present = uid
        emit(CardPresent(uid, octets, at=self._clock()))
        return True  # keep it: nfcpy presence-checks until the tag leaves

    def _on_release(self, tag: Any, emit: Callable[[Presence], None]) -> bool:
        uid, self._present = self._present, None
        if uid is not None:
            emit(CardAbsent(uid, at=self._clock()))
        return True

    def _read_ndef(self, tag: Any) -> tuple[bytes | None, bool]:
        """(NDEF message or None, whether the tag was still there after the read)."""
        for _attempt in range(2):
            try:
                ndef = tag.ndef
                octets = bytes(ndef.octets) if ndef is not None else None
            except (self._nfc.tag.TagCommandError, self._nfc.clf.CommunicationError) as err:
                log.debug("NDEF read failed: %s", err)
                octets = None
            if octets is not None:
                return _valid_ndef(octets), True
            # None is either "no NDEF on this tag" or "the read broke off": ask the tag,
            # and if it is still there, read once more (nfcpy re-reads an unset tag.ndef)
            if not self._is_present(tag):
                return None, False
        return None, True

    def _is_present(self, tag: Any) -> bool:
        try:
            return bool(tag.is_present)
        except self._nfc.tag.TagCommandError:
            return False


# ------------------------------------------------------------------ writing cards


def write_card(
    card: CardId,
    path: str,
    *,
    timeout: float = 10.0,
    overwrite: bool = False,
) -> str:
    """Write *card*'s NDEF record onto the Type 2 tag put on reader *path*; return its UID.

    Waits up to *timeout* seconds for a tag. Raises TagError (full, locked, not Type 2, already
    holding another message without *overwrite*, or moved away mid-write) and ReaderError.
    """
    from drivers.identity import encode_card_record

    nfc = _import_nfc()
    message = encode_card_record(card)
    clf = _open(nfc, check_path(path))
    try:
        deadline = time.monotonic() + timeout
        tag = clf.connect(
            rdwr={
                "targets": list(default_targets(path)),
                "on-connect": lambda tag: False,  # hand the tag back to us
                "beep-on-connect": False,
                "interval": POLL_INTERVAL_S,
                "iterations": 1,
            },
            terminate=lambda: time.monotonic() > deadline,
        )
        if tag is False:
            raise ReaderError(f"reader {path} was lost (unplugged?)")
        if tag is None:
            raise TagError(f"no tag on reader {path} within {timeout:g} s")
        write_message(tag, message, overwrite=overwrite)
        return _uid(tag)
    finally:
        clf.close()


def write_message(tag: Any, message: bytes, *, overwrite: bool = False) -> None:
    """Store NDEF *message* on the nfcpy Type 2 *tag* and read it back; TagError if refused."""
    nfc = _import_nfc()
    if not isinstance(tag, nfc.tag.tt2.Type2Tag):
        raise TagError(
            f"not an NFC Forum Type 2 tag (nfcpy sees a {type(tag).__name__}): "
            "use NTAG213/215/216 stickers"
        )
    command_error = nfc.tag.TagCommandError
    try:
        ndef = tag.ndef
        if ndef is None:
            ndef = _format_blank(tag)
        if not ndef.is_writeable:
            raise TagError("locked: the tag is read-only (its capability container denies writing)")
        old = bytes(ndef.octets)
        if not _is_blank(old) and old != message and not overwrite:
            raise TagError(
                f"the tag already holds another NDEF message ({len(old)} bytes); "
                "use --overwrite to replace it"
            )
        if len(message) > ndef.capacity:
            raise TagError(
                f"too small: the record needs {len(message)} bytes, the tag holds {ndef.capacity}"
            )
        if old != message:
            ndef.octets = message
        if ndef.has_changed or tag.ndef is None or bytes(tag.ndef.octets) != message:
            raise TagError("the record did not read back as written: try again")
    except command_error as err:
        raise TagError(
            f"the tag refused the write ({err}): locked pages, or it left the field"
        ) from err
    except (AttributeError, ValueError) as err:  # nfcpy: not writeable / exceeds capacity
        raise TagError(f"the tag refused the record: {err}") from err


def _is_blank(octets: bytes) -> bool:
    """No message, or only empty records (some tags ship with one ``D0 00 00`` record)."""
    if not octets:
        return True
    try:
        records = list(_import_ndef().message_decoder(octets, errors="relax"))
    except Exception:  # undecodable: someone else's data, not blank
        return False
    return all(r.type == "" and not r.data for r in records)


def _format_blank(tag: Any) -> Any:
    """Write a capability container on an NTAG that has none; TagError for anything else."""
    nfc = _import_nfc()
    try:
        cc = bytes(tag.read(0)[12:16])
    except nfc.tag.TagCommandError as err:
        raise TagError(f"cannot read the tag's header ({err}): hold it still") from err
    size = _NTAG_CC_SIZE.get(str(tag.product))
    if cc != b"\x00\x00\x00\x00" or size is None:
        raise TagError(
            f"not NDEF-formatted (capability container {cc.hex()}), and not an NTAG21x "
            "this writer can format: use NTAG213/215/216 stickers"
        )
    tag.write(3, bytes([0xE1, 0x10, size, 0x00]))
    tag.write(4, b"\x03\x00\xfe\x00")
    ndef = tag.ndef
    if ndef is None:
        raise TagError("the tag did not accept a capability container (locked?)")
    return ndef


def _release_port(clf: Any) -> None:
    """Close the serial port of a reader whose close failed: nfcpy would leave it open."""
    try:
        transport = clf.device.chipset.transport
        port = transport.tty
    except AttributeError:
        return
    if port is None:
        return
    with contextlib.suppress(Exception):
        port.close()
    transport.tty = None
