"""Choosing reader and panel backends by path; clear errors for bad paths and missing extras."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest

from bank.app.panels import open_panel
from drivers.base import PanelError, ReaderError, ReaderUnavailable
from drivers.registry import open_reader
from drivers.sim import SimPanel, SimReader


class Recorder:
    """Stands in for a backend class written elsewhere: remembers how it was built."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.args = args
        self.kwargs = kwargs
        self.path = args[0] if args else ""


@pytest.fixture
def fake_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    for module, cls in [
        ("drivers.nfcpy_reader", "NfcpyBackend"),
        ("drivers.pcsc", "PcscBackend"),
        ("drivers.terminal_panel", "TerminalPanel"),
        ("firmware_sim.emulator", "PygamePanel"),
        ("drivers.serial_panel", "SerialPanel"),
        ("drivers.gpio_panel", "GpioPanel"),
    ]:
        mod = types.ModuleType(module)
        setattr(mod, cls, type(cls, (Recorder,), {}))
        monkeypatch.setitem(sys.modules, module, mod)


def missing(monkeypatch: pytest.MonkeyPatch, module: str, package: str) -> None:
    """Make importing *module* fail as it does when *package* is not installed."""
    monkeypatch.delitem(sys.modules, module, raising=False)
    real = __import__("importlib").import_module

    def fake(name: str, *args: Any) -> Any:
        if name == module:
            raise ModuleNotFoundError(f"No module named {package!r}", name=package)
        return real(name, *args)

    monkeypatch.setattr("drivers.registry.importlib.import_module", fake)


def test_sim_is_a_sim_reader() -> None:
    reader = open_reader("sim")
    assert isinstance(reader, SimReader) and reader.path == "sim"


@pytest.mark.parametrize(
    ("path", "cls"),
    [
        ("usb", "NfcpyBackend"),
        ("usb:054c:06c3", "NfcpyBackend"),
        ("tty:AMA0:pn532", "NfcpyBackend"),
        ("udp:127.0.0.1:50000", "NfcpyBackend"),
        ("pcsc", "PcscBackend"),
        ("pcsc:ACR122", "PcscBackend"),
        (" PCSC:ACR122 ", "PcscBackend"),
    ],
)
def test_paths_choose_their_backend(fake_modules: None, path: str, cls: str) -> None:
    reader: Any = open_reader(path)
    assert type(reader).__name__ == cls
    assert reader.args == (path.strip(),)


@pytest.mark.parametrize("path", ["", "bluetooth", "com3", "acr122", "simulator"])
def test_an_unknown_path_lists_the_accepted_forms(path: str) -> None:
    with pytest.raises(ReaderError, match="unknown reader path") as caught:
        open_reader(path)
    for form in ("sim", "usb[:vid[:pid]]", "tty:PORT", "udp[:host][:port]", "pcsc[:name-filter]"):
        assert form in str(caught.value)


@pytest.mark.parametrize(
    ("path", "module", "package", "extra"),
    [
        ("usb", "drivers.nfcpy_reader", "nfc", "nfc"),
        ("tty:USB0:pn532", "drivers.nfcpy_reader", "usb1", "nfc"),
        ("pcsc:ACR122", "drivers.pcsc", "smartcard", "pcsc"),
    ],
)
def test_a_missing_library_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, path: str, module: str, package: str, extra: str
) -> None:
    missing(monkeypatch, module, package)
    with pytest.raises(ReaderUnavailable, match=rf"pip install 'ultibank\[{extra}\]'") as caught:
        open_reader(path)
    assert package in str(caught.value)


def test_a_broken_backend_module_is_reported_as_such(monkeypatch: pytest.MonkeyPatch) -> None:
    missing(monkeypatch, "drivers.pcsc", "drivers.pcsc_helpers")
    with pytest.raises(ReaderUnavailable, match=r"cannot import drivers\.pcsc"):
        open_reader("pcsc")


def test_sim_is_a_sim_panel() -> None:
    assert isinstance(open_panel("sim"), SimPanel)


@pytest.mark.parametrize(
    ("spec", "cls", "args"),
    [
        ("terminal", "TerminalPanel", ()),
        ("pygame", "PygamePanel", ()),
        ("serial:/dev/ttyACM0", "SerialPanel", ("/dev/ttyACM0",)),
        ("gpio", "GpioPanel", ()),
    ],
)
def test_panel_specs_choose_their_panel(
    fake_modules: None, spec: str, cls: str, args: tuple[str, ...]
) -> None:
    panel: Any = open_panel(spec)
    assert type(panel).__name__ == cls and panel.args == args


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("lcd", "unknown panel 'lcd'; use one of: sim, terminal, pygame, serial:PORT, gpio"),
        ("serial", "the serial panel needs a port"),
        ("gpio:17", "the gpio panel takes no argument"),
    ],
)
def test_bad_panel_specs_say_what_is_accepted(spec: str, message: str) -> None:
    with pytest.raises(PanelError) as caught:
        open_panel(spec)
    assert message in str(caught.value)


def test_a_panel_missing_its_library_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    # the panel's module fails to import as it does when its library is not installed
    monkeypatch.delitem(sys.modules, "drivers.gpio_panel", raising=False)
    real = __import__

    def fake(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "drivers.gpio_panel":
            raise ModuleNotFoundError("No module named 'gpiozero'", name="gpiozero")
        return real(name, *args, **kwargs)

    monkeypatch.setattr("builtins.__import__", fake)
    with pytest.raises(PanelError, match=r"gpiozero.*pip install 'ultibank\[pi\]'"):
        open_panel("gpio")


def test_the_panel_factory_sits_in_the_wiring_and_the_drivers_know_no_emulator() -> None:
    """The drivers' registry builds readers only; the one panel factory is the wiring's, so the
    import contracts see it import the emulator (no module path in a string)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    assert "firmware_sim" not in (root / "drivers/registry.py").read_text(encoding="utf-8")
    factory = (root / "bank/app/panels.py").read_text(encoding="utf-8")
    assert "from firmware_sim.emulator import PygamePanel" in factory
