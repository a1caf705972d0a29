"""Choosing a reader or panel backend by a path-like string, as nfcpy chooses its drivers.

=====================  ==========================================  ===========================
reader path            backend                                     readers
=====================  ==========================================  ===========================
``sim``                :class:`drivers.sim.SimReader`              none (tests, scripts)
``usb[:vid[:pid]]``    ``drivers.nfcpy_reader.NfcpyBackend``       PN533, SCL3711, RC-S380
``tty:PORT[:driver]``  ``drivers.nfcpy_reader.NfcpyBackend``       PN532 on a UART (``pn532``)
``udp[:host][:port]``  ``drivers.nfcpy_reader.NfcpyBackend``       nfcpy's udp test driver
``pcsc[:name]``        ``drivers.pcsc.PcscBackend``                ACR122U, ACR1252U, any PC/SC
=====================  ==========================================  ===========================

Panels are built by the wiring's one panel factory (``bank.app.panels``), which alone may
import both the drivers and the emulator.

Backend modules are imported here, lazily, so a missing library costs only its backend and the
error names the extra to install. Imports ``drivers.base`` and the standard library; the backend
modules themselves are imported by name when asked for.
"""

from __future__ import annotations

import importlib
from typing import Any, cast

from drivers.base import ReaderBackend, ReaderError, ReaderUnavailable

READER_FORMS = (
    "sim",
    "usb[:vid[:pid]]  (nfcpy: PN533, SCL3711, RC-S380)",
    "tty:PORT[:pn532|arygon]  (nfcpy: PN532 on a serial line, e.g. tty:AMA0:pn532)",
    "udp[:host][:port]  (nfcpy's udp driver, for tests)",
    "pcsc[:name-filter]  (pyscard + pcscd: ACR122U and other PC/SC readers)",
)

#: reader path scheme -> (module, class, the extra that brings its library)
_READERS = {
    "usb": ("drivers.nfcpy_reader", "NfcpyBackend", "nfc"),
    "tty": ("drivers.nfcpy_reader", "NfcpyBackend", "nfc"),
    "udp": ("drivers.nfcpy_reader", "NfcpyBackend", "nfc"),
    "pcsc": ("drivers.pcsc", "PcscBackend", "pcsc"),
}
#: top-level third-party packages whose absence means "install the extra"
_THIRD_PARTY = {"nfc", "smartcard", "ndef", "usb1", "libusb1", "sdnotify"}


def _import(module: str, cls: str, extra: str, what: str) -> Any:
    try:
        mod = importlib.import_module(module)
    except ImportError as err:
        missing = (err.name or "").split(".")[0]
        if missing in _THIRD_PARTY:
            hint = f": pip install 'ultibank[{extra}]'" if extra else ""
            raise ReaderUnavailable(
                f"{what} needs the {missing!r} package, which is not installed{hint}"
            ) from err
        raise ReaderUnavailable(f"{what}: cannot import {module} ({err})") from err
    try:
        return getattr(mod, cls)
    except AttributeError as err:
        raise ReaderUnavailable(f"{what}: {module} has no {cls}") from err


def open_reader(path: str) -> ReaderBackend:
    """The reader backend for *path* (not yet running); ReaderError for an unknown path."""
    text = path.strip()
    scheme = text.split(":", 1)[0].lower()
    if text.lower() == "sim" or text.lower().startswith("sim:"):
        from drivers.sim import SimReader

        return SimReader(path=text)
    if scheme not in _READERS:
        forms = "\n  ".join(READER_FORMS)
        raise ReaderError(f"unknown reader path {path!r}; use one of:\n  {forms}")
    module, cls, extra = _READERS[scheme]
    backend_cls = _import(module, cls, extra, f"reader {text!r}")
    return cast(ReaderBackend, backend_cls(text))
