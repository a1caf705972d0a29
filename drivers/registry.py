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

Panels: ``sim``, ``terminal``, ``pygame``, ``serial:PORT``, ``gpio``.

Backend modules are imported here, lazily, so a missing library costs only its backend and the
error names the extra to install. Imports ``drivers.base`` and the standard library; the backend
modules themselves are imported by name when asked for.
"""

from __future__ import annotations

import importlib
from typing import Any, cast

from drivers.base import Panel, PanelError, ReaderBackend, ReaderError, ReaderUnavailable

READER_FORMS = (
    "sim",
    "usb[:vid[:pid]]  (nfcpy: PN533, SCL3711, RC-S380)",
    "tty:PORT[:pn532|arygon]  (nfcpy: PN532 on a serial line, e.g. tty:AMA0:pn532)",
    "udp[:host][:port]  (nfcpy's udp driver, for tests)",
    "pcsc[:name-filter]  (pyscard + pcscd: ACR122U and other PC/SC readers)",
)
PANEL_FORMS = ("sim", "terminal", "pygame", "serial:PORT", "gpio")

#: reader path scheme -> (module, class, the extra that brings its library)
_READERS = {
    "usb": ("drivers.nfcpy_reader", "NfcpyBackend", "nfc"),
    "tty": ("drivers.nfcpy_reader", "NfcpyBackend", "nfc"),
    "udp": ("drivers.nfcpy_reader", "NfcpyBackend", "nfc"),
    "pcsc": ("drivers.pcsc", "PcscBackend", "pcsc"),
}
#: panel kind -> (module, class, the extra that brings its library, or "")
_PANELS = {
    "terminal": ("drivers.terminal_panel", "TerminalPanel", ""),
    "pygame": ("firmware_sim.emulator", "PygamePanel", "emu"),
    "serial": ("drivers.serial_panel", "SerialPanel", "serial"),
    "gpio": ("drivers.gpio_panel", "GpioPanel", "pi"),
}
#: top-level third-party packages whose absence means "install the extra"
_THIRD_PARTY = {"nfc", "smartcard", "ndef", "usb1", "libusb1", "serial", "gpiozero", "RPLCD"}
_THIRD_PARTY |= {"pygame", "smbus2", "sdnotify"}


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


def open_panel(spec: str) -> Panel:
    """The panel for *spec* (``sim``, ``terminal``, ``pygame``, ``serial:PORT``, ``gpio``)."""
    text = spec.strip()
    kind, _, arg = text.partition(":")
    kind = kind.lower()
    if kind == "sim" and not arg:
        from drivers.sim import SimPanel

        return SimPanel()
    if kind not in _PANELS:
        raise PanelError(f"unknown panel {spec!r}; use one of: {', '.join(PANEL_FORMS)}")
    if kind == "serial" and not arg:
        raise PanelError("the serial panel needs a port: serial:/dev/ttyACM0 or serial:ttyACM0")
    if kind != "serial" and arg:
        raise PanelError(f"the {kind} panel takes no argument (got {spec!r})")
    module, cls, extra = _PANELS[kind]
    try:
        panel_cls = _import(module, cls, extra, f"panel {text!r}")
    except ReaderUnavailable as err:
        raise PanelError(str(err)) from err
    panel = panel_cls(arg) if kind == "serial" else panel_cls()
    return cast(Panel, panel)
