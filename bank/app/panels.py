"""The one panel factory: a panel by its spec string, built by the wiring.

=================  ============================================  ==========================
panel spec         panel                                         needs
=================  ============================================  ==========================
``sim``            :class:`drivers.sim.SimPanel`                 nothing (tests, scripts)
``terminal``       :class:`drivers.terminal_panel.TerminalPanel` a terminal
``pygame``         :class:`firmware_sim.emulator.PygamePanel`    ``ultibank[emu]``
``serial[:PORT]``  :class:`drivers.serial_panel.SerialPanel`     ``ultibank[serial]``
``gpio``           :class:`drivers.gpio_panel.GpioPanel`         ``ultibank[pi]``
=================  ============================================  ==========================

The factory lives here, in the wiring (the top layer), because only the wiring may import both
the drivers and the emulator: each panel module is imported by an ``import`` statement inside
the function that builds it (lazily, so a missing library costs only its panel and the error
names the extra to install), and the import contracts see every one of them.
Imports the drivers' base types; each panel module when its panel is asked for.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from bank.unit.io import CardRanges, Labels
from board_assets import Edition
from drivers.base import Panel, PanelError

PANEL_FORMS = ("sim", "terminal", "pygame", "serial:PORT", "gpio")

#: top-level third-party packages whose absence means "install the extra", by panel kind
_EXTRAS = {"pygame": "emu", "serial": "serial", "gpio": "pi"}
_THIRD_PARTY = {"pygame", "serial", "gpiozero", "RPLCD", "smbus2"}


def _missing(kind: str, text: str, err: ImportError) -> PanelError:
    """The one-line refusal of a panel whose module or library cannot be imported."""
    missing = (err.name or "").split(".")[0]
    if missing in _THIRD_PARTY:
        extra = _EXTRAS.get(kind, "")
        hint = f": pip install 'ultibank[{extra}]'" if extra else ""
        return PanelError(
            f"panel {text!r} needs the {missing!r} package, which is not installed{hint}"
        )
    return PanelError(f"panel {text!r}: cannot import its module ({err})")


def open_panel(
    spec: str,
    *,
    settings: Mapping[str, Any] | None = None,
    clock: Callable[[], float] = time.monotonic,
    on_quit: Callable[[], None] | None = None,
    language: str = "en",
    cards: CardRanges | None = None,
    labels: Labels | None = None,
    edition: Edition | None = None,
) -> Panel:
    """The panel for *spec* (``sim``, ``terminal``, ``pygame``, ``serial:PORT``, ``gpio``).

    *settings* is the ``[panel]`` table (the serial port when the spec names none, the GPIO
    pins); *language*, *cards* and *labels* are the game's (the panel's own words, its keys and
    the ruleset's panel vocabulary); *edition* is the emulator's board. PanelError for an
    unknown spec, a missing argument or a missing library.
    """
    text = spec.strip()
    kind, _, arg = text.partition(":")
    kind = kind.lower()
    table: Mapping[str, Any] = settings or {}
    if kind not in {"sim", "terminal", "pygame", "serial", "gpio"}:
        raise PanelError(f"unknown panel {spec!r}; use one of: {', '.join(PANEL_FORMS)}")
    if kind == "serial" and not (arg or table.get("serial_port")):
        raise PanelError("the serial panel needs a port: serial:/dev/ttyACM0 or serial:ttyACM0")
    if kind != "serial" and arg:
        raise PanelError(f"the {kind} panel takes no argument (got {spec!r})")
    try:
        if kind == "sim":
            from drivers.sim import SimPanel

            return SimPanel()
        if kind == "terminal":
            from drivers.terminal_panel import TerminalPanel

            return TerminalPanel(
                clock=clock, on_quit=on_quit, language=language, cards=cards, labels=labels
            )
        if kind == "serial":
            from drivers.serial_panel import SerialPanel

            return SerialPanel(arg or str(table["serial_port"]), clock=clock, labels=labels)
        if kind == "gpio":
            from drivers.gpio_panel import GpioPanel

            if table:
                return GpioPanel.from_config(table, clock=clock, labels=labels)
            return GpioPanel()
        from firmware_sim.emulator import PygamePanel

        if edition is None:
            return PygamePanel()
        return PygamePanel(edition, clock=clock, on_quit=on_quit, language=language, labels=labels)
    except ImportError as err:
        raise _missing(kind, text, err) from err
