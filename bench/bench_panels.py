"""Benchmarks of the panels: the serial link over a socat pty pair, and the pure codec and layout.

Figures: ``show`` to the firmware's LCD, a firmware button (and a keypad key, protocol
version 2) to the posted input, how fast a
pulled cable and a hung panel are noticed (default timings), how fast a replugged cable is
back, the CPU of an idle link, and the cost of encoding/decoding a SHOW and of the 20x4 layout.
Imports ``drivers``, ``firmware_sim``, ``tests.support.pty_pair``, ``bench.common`` and the
standard library.
"""

from __future__ import annotations

import resource
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from bank.app.runtime import panel_labels
from bank.unit.io import Button, ButtonPressed, Icon, Input, KeyPressed, PanelStatus, Screen
from bench.common import Result, at_most, stats, time_each
from board_assets import load_edition
from drivers import charlcd
from drivers import panel_protocol as pp
from drivers.serial_panel import SerialPanel
from firmware_sim.panel_firmware import PanelFirmware
from tests.support.pty_pair import make_pair

AREA = "panels"

SCREEN = Screen(
    "property",
    lines=("Rue de la Paix", "Loyer 250"),
    amount=250,
    number=22,
    token="boat",
    level=3,
    icons=frozenset({Icon.AUCTION}),
    countdown=8,
)


#: a classic deed (docs/classic.md §5.6) and the interest question, with classic-fr's panel
#: vocabulary (its ruleset's: the deed's 4-row layout, the lines fitted to a row)
CLASSIC_FR = panel_labels(load_edition("classic-fr"), "fr")
CLASSIC_DEED = Screen(
    "deed", ("12 Av. Mozart", "chien loyer 200 €"), number=12, token="dog", level=2, amount=200
)
INTEREST = Screen("interest", ("Titre 12 hypothéqué", "✓garder 9 M lever 99"), number=12)


class _Inbox:
    def __init__(self) -> None:
        self.items: list[tuple[float, Input]] = []
        self.event = threading.Event()

    def __call__(self, item: Input) -> None:
        self.items.append((time.perf_counter(), item))
        self.event.set()

    def last_status(self) -> bool | None:
        for _, item in reversed(self.items):
            if isinstance(item, PanelStatus):
                return item.connected
        return None


def _wait(pred: Callable[[], object], timeout: float = 10.0) -> float:
    start = time.perf_counter()
    while not pred():
        if time.perf_counter() - start > timeout:
            raise RuntimeError("timed out")
        time.sleep(0.0002)
    return time.perf_counter()


def _link(quick: bool) -> list[Result]:
    n = 50 if quick else 300
    with tempfile.TemporaryDirectory() as tmp:
        pair = make_pair(Path(tmp))
        fw = PanelFirmware(pair.panel_path, keypad=True)
        fw.start()
        inbox = _Inbox()
        panel = SerialPanel(pair.host_path)  # default timings, as on the box
        panel.start(inbox)
        try:
            _wait(lambda: inbox.last_status() is True)
            show: list[float] = []
            for i in range(n):
                screen = Screen("balance", lines=("Joueur 2",), amount=i, token="car")
                t0 = time.perf_counter()
                panel.show(screen)
                show.append(_wait(lambda: fw.screen == screen) - t0)  # noqa: B023
            press: list[float] = []
            for _ in range(n // 2):
                before = len(inbox.items)
                t0 = time.perf_counter()
                fw.press(Button.OK)
                _wait(lambda: len(inbox.items) > before)  # noqa: B023
                press.append(inbox.items[-1][0] - t0)
                fw.release(Button.OK)
                _wait(lambda: len(inbox.items) > before + 1)  # noqa: B023
            key: list[float] = []
            for i in range(n // 2):
                before = len(inbox.items)
                t0 = time.perf_counter()
                fw.press_key(str(i % 10))
                _wait(lambda: len(inbox.items) > before)  # noqa: B023
                key.append(inbox.items[-1][0] - t0)
                fw.release_key(str(i % 10))
                _wait(lambda: len(inbox.items) > before + 1)  # noqa: B023
            # Idle link: pings once a second, reads wake every 0.1 s.
            seconds = 2.0 if quick else 5.0
            r0 = resource.getrusage(resource.RUSAGE_SELF)
            t0 = time.perf_counter()
            time.sleep(seconds)
            r1 = resource.getrusage(resource.RUSAGE_SELF)
            cpu = (r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime) / (
                time.perf_counter() - t0
            )
            t0 = time.perf_counter()
            pair.kill()
            pulled = _wait(lambda: inbox.last_status() is False) - t0
            t0 = time.perf_counter()
            pair.restart()
            fw.reopen()
            replug = _wait(lambda: inbox.last_status() is True) - t0
            fw.freeze()
            t0 = time.perf_counter()
            hung = _wait(lambda: inbox.last_status() is False) - t0
            fw.freeze(False)
        finally:
            panel.close()
            fw.stop()
            pair.close()
    s, b, k = stats(show), stats(press), stats(key)
    pressed = sum(1 for _, i in inbox.items if isinstance(i, ButtonPressed))
    keyed = sum(1 for _, i in inbox.items if isinstance(i, KeyPressed))
    return [
        Result(AREA, "serial show → firmware LCD p50", s.p50 * 1e3, "ms"),
        Result(AREA, "serial show → firmware LCD p99", s.p99 * 1e3, "ms", target=at_most(20.0)),
        Result(AREA, "firmware button → ButtonPressed p99", b.p99 * 1e3, "ms",
               target=at_most(20.0), note=f"{pressed} presses"),
        Result(AREA, "firmware keypad key → KeyPressed p99", k.p99 * 1e3, "ms",
               target=at_most(20.0), note=f"{keyed} keys, protocol version 2"),
        Result(AREA, "cable pulled → PanelStatus(False)", pulled * 1e3, "ms",
               target=at_most(500.0), note="socat killed"),
        Result(AREA, "cable back → PanelStatus(True)", replug * 1e3, "ms",
               target=at_most(6000.0), note="includes socat start, backoff up to 5 s"),
        Result(AREA, "hung panel → PanelStatus(False)", hung, "s", target=at_most(3.0),
               note="ping 1 s + 4 × 0.25 s ACK timeouts"),
        Result(AREA, "idle link CPU (daemon + simulator)", 100 * cpu, "% of a core",
               target=at_most(2.0)),
    ]  # fmt: skip


def _codec(quick: bool) -> list[Result]:
    n = 2000 if quick else 20000
    payload = pp.encode_show(SCREEN)
    wire = pp.encode_frame(pp.Frame(pp.MsgType.SHOW, 1, payload))
    enc = stats(
        time_each(lambda: pp.encode_frame(pp.Frame(pp.MsgType.SHOW, 1, pp.encode_show(SCREEN))), n)
    )
    dec = stats(time_each(lambda: pp.decode_show(pp.FrameDecoder().feed(wire)[0].payload), n))  # type: ignore[union-attr]
    lay = stats(time_each(lambda: charlcd.layout(SCREEN, 20, 4), n))
    deed = stats(time_each(lambda: charlcd.layout(CLASSIC_DEED, 20, 4, labels=CLASSIC_FR), n))
    small = stats(time_each(lambda: charlcd.layout(INTEREST, 16, 2, labels=CLASSIC_FR), n))
    return [
        Result(AREA, "SHOW frame size", len(wire), "bytes", note="a full property screen"),
        Result(AREA, "encode SHOW frame p50", enc.p50 * 1e6, "µs"),
        Result(AREA, "decode SHOW frame p50", dec.p50 * 1e6, "µs"),
        Result(AREA, "20x4 layout p50", lay.p50 * 1e6, "µs"),
        Result(AREA, "classic deed 20x4 layout p50", deed.p50 * 1e6, "µs"),
        Result(AREA, "classic 16x2 layout p50", small.p50 * 1e6, "µs",
               note="two 20-cell lines squeezed to 16"),
    ]  # fmt: skip


def run(quick: bool) -> list[Result]:
    """Every panel figure."""
    return _codec(quick) + _link(quick)
