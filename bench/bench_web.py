"""Benchmarks of the web view: from a tap on the reader to the page's update in Chromium.

The path is the real one: a simulated reader under the supervisor, the daemon and its durable
journal commit, the view's listener, one snapshot read through ``daemon.call``, the SSE push,
then the page's JavaScript rendering it in a headless Chromium (Debian's chromium and
chromedriver, driven by selenium). The page notes when each snapshot reached its DOM
(``performance.timeOrigin + performance.now()``, compared with Python's ``time.time()`` after a
calibration of the two clocks) and when the next frame was drawn. A Python SSE client beside
the browser splits the figure into server side and browser side. Also measured: the cost of a
snapshot inside the daemon's loop for a long game, and drawing the end-of-game chart.

Imports the bank, ``drivers.sim``, ``bench.common``, selenium (skipped with a note when
missing) and the standard library.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bank.app.runtime import Runtime
from bank.services.settings import load_settings
from bank.unit.io import Button, ButtonPressed, ButtonReleased, CardId
from bank.views.web import WebServer, attach_web
from bench.common import Result, at_most, percentile, scratch_dir, stats
from drivers.sim import start_sim_reader
from tests.support.chromium import BrowserMissing, chromium

AREA = "web"


class _SSEWatcher(threading.Thread):
    """Notes when each snapshot arrives at a plain SSE client: (time.time(), seq)."""

    def __init__(self, url: str) -> None:
        super().__init__(name="bench-sse", daemon=True)
        parts = urlsplit(url)
        self.conn = http.client.HTTPConnection(
            parts.hostname or "127.0.0.1", parts.port, timeout=30
        )
        self.conn.request("GET", "/events")
        self.response = self.conn.getresponse()
        self.arrivals: list[tuple[float, int]] = []
        self.lock = threading.Lock()

    def run(self) -> None:
        try:
            while True:
                line = self.response.fp.readline()
                if not line:
                    return
                if line.startswith(b"data:"):
                    at = time.time()
                    seq = int(json.loads(line[5:])["seq"])
                    with self.lock:
                        self.arrivals.append((at, seq))
        except (OSError, ValueError, AttributeError):  # closed under our feet: done
            return

    def first_with(self, seq: int) -> float | None:
        with self.lock:
            return next((t for t, s in self.arrivals if s >= seq), None)

    def close(self) -> None:
        self.conn.close()


def _poll(check: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.001)


def _clock_offset(driver: Any, samples: int = 30) -> tuple[float, float]:
    """Browser clock minus Python's ``time.time()`` (seconds), and its uncertainty."""
    best: tuple[float, float] | None = None
    for _ in range(samples):
        t0 = time.time()
        browser_ms = float(
            driver.execute_script("return performance.timeOrigin + performance.now()")
        )
        t1 = time.time()
        width = t1 - t0
        offset = browser_ms / 1000 - (t0 + t1) / 2
        if best is None or width < best[1]:
            best = (offset, width)
    assert best is not None
    return best[0], best[1] / 2


def _press(rt: Runtime, button: Button) -> None:
    now = rt.clock()
    rt.daemon.post(ButtonPressed(now, button))
    rt.daemon.post(ButtonReleased(now, button))


def _rendered(driver: Any, seq: int) -> dict[str, Any] | None:
    """The page's note of the first snapshot with *seq* transactions, once drawn."""
    found: dict[str, Any] | None = driver.execute_script(
        "return window.ultibank.renders.find(r => r.seq >= arguments[0] && r.frame !== null)"
        " || null",
        seq,
    )
    return found


def _settle(rt: Runtime, web: WebServer) -> None:
    rt.daemon.call(lambda: None)
    _poll(web.settled, 5, "the view to settle")


def _latency(root: Path, n: int) -> tuple[list[Result], Runtime | None]:
    settings = load_settings(None, [f'game.data_dir="{root}"'])
    rt = Runtime(settings)
    rt.start(control=False)
    reader, service = start_sim_reader(rt.daemon.post, rt.clock, deck=rt.deck)
    web = attach_web(rt, port=0)
    dom: list[float] = []
    frame: list[float] = []
    sse: list[float] = []
    try:
        for card in (1, 2, 3, 4):
            reader.tap(CardId("bank", card))
        _press(rt, Button.OK)
        with chromium() as driver:
            driver.get(web.url)
            first = "return window.ultibank.renders.length"
            _poll(partial(driver.execute_script, first), 20, "the page's first render")
            watcher = _SSEWatcher(web.url)
            watcher.start()
            offset, error = _clock_offset(driver)
            seq = int(json.loads(web_state(web))["seq"])
            for i in range(n):
                _press(rt, Button.MENU)  # the GO icon: a screen, no transaction
                _settle(rt, web)
                seq += 1
                t0 = time.time()
                reader.tap(CardId("bank", 1 + i % 4))  # +200: one durable transaction
                # the Python client first: polling the page meanwhile would slow the page
                arrived = _poll(partial(watcher.first_with, seq), 10, "the SSE message")
                sse.append(arrived - t0)
                found = _poll(partial(_rendered, driver, seq), 10, "the page's update")
                dom.append(found["t"] / 1000 - offset - t0)
                frame.append(found["frame"] / 1000 - offset - t0)
            offset_after, _ = _clock_offset(driver)
            watcher.close()
    finally:
        web.close()
        service.stop()
    d, f, s = stats(dom), stats(frame), stats(sse)
    drift = abs(offset_after - offset) * 1e3
    note = (
        f"{n} taps (each a durable +200 GO transaction), sim reader → daemon → SSE → "
        f"headless Chromium at 390×844; clock calibration ±{error * 1e3:.2f} ms, "
        f"drift {drift:.2f} ms over the run"
    )
    results = [
        Result(AREA, "tap → page DOM updated p50", d.p50 * 1e3, "ms", note=note),
        Result(AREA, "tap → page DOM updated p99", d.p99 * 1e3, "ms", target=at_most(100.0),
               note=f"worst {d.worst * 1e3:.1f} ms"),
        Result(AREA, "tap → next frame drawn p99", f.p99 * 1e3, "ms",
               note=f"p50 {f.p50 * 1e3:.1f} ms: the first animation frame after the DOM update"),
        Result(AREA, "tap → SSE message at a client p50", s.p50 * 1e3, "ms"),
        Result(AREA, "tap → SSE message at a client p99", s.p99 * 1e3, "ms"),
    ]  # fmt: skip
    return results, rt


def web_state(web: WebServer) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", web.port, timeout=10)
    try:
        conn.request("GET", "/state")
        return conn.getresponse().read().decode()
    finally:
        conn.close()


def _snapshot_cost(rt: Runtime, runs: int) -> list[Result]:
    """The time one snapshot takes inside the daemon's loop, journal re-read included."""
    from bank.views.web import _SnapshotBuilder

    reader = _SnapshotBuilder(rt)
    journal = rt.journal
    assert journal is not None

    def one() -> float:
        # an empty cache: the journal is read as after a new transaction
        fresh = _SnapshotBuilder(rt)
        t0 = time.perf_counter()
        fresh.snapshot()
        return time.perf_counter() - t0

    reader.snapshot()
    samples = [float(rt.daemon.call(one)) for _ in range(runs)]
    count = len(list(journal.records()))
    return [
        Result(AREA, f"snapshot in the daemon's loop, {count} transactions, p50",
               percentile(samples, 50) * 1e3, "ms",
               note=f"{runs} runs; what the view adds to the loop per refresh"),
    ]  # fmt: skip


def _chart_time(rt: Runtime) -> list[Result]:
    try:
        from bank.views.charts import render_wealth_png, wealth_series
    except ImportError:
        return []
    journal = rt.journal
    assert journal is not None
    records = list(journal.records())
    t0 = time.perf_counter()
    try:
        png = render_wealth_png(wealth_series(rt.edition, records))
    except ImportError as err:
        return [Result(AREA, "wealth chart", float("nan"), "s", note=str(err))]
    took = time.perf_counter() - t0
    return [
        Result(AREA, f"wealth chart of {len(records)} transactions (first, with import)", took,
               "s", note=f"{len(png) // 1024} KiB PNG, matplotlib Agg"),
    ]  # fmt: skip


def _fill(root: Path, n: int) -> None:
    """A journal holding one Ultime game of *n* transactions (the start, then GO after GO),
    decided by the real rules and written in batches: a long game without hours of taps."""
    from bank.engine.game import Game
    from bank.rulesets.ultime.commands import PassGo
    from bank.services.journal import Journal
    from board_assets import load_edition

    edition = load_edition("ultime-fr")
    game = Game(edition)
    records = [game.start((1, 2, 3, 4)).to_record(edition.id, game.ruleset_name)]
    for i in range(n - 1):
        records.append(game.execute(PassGo(1 + i % 4)).to_record(edition.id, game.ruleset_name))
    with Journal(root / "journal.sqlite") as journal:
        journal.new_game({"edition": edition.id})
        for k in range(0, n, 5000):
            journal.append_many(records[k : k + 5000])


def _long_game(root: Path, n: int, taps: int) -> list[Result]:
    """The view beside a game of *n* transactions: the memory it holds (Python's allocations
    made since it was attached and still alive after *taps* more transactions), and tap → SSE
    message p50 over *taps* taps. Flat from a short game to a long one: the view keeps a window
    of the last transactions, never the whole game."""
    import gc
    import tracemalloc

    _fill(root, n)
    rt = Runtime(load_settings(None, [f'game.data_dir="{root}"']))
    rt.start(control=False)
    reader, service = start_sim_reader(rt.daemon.post, rt.clock, deck=rt.deck)
    try:
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        web = attach_web(rt, port=0)
        try:
            seq = int(json.loads(web_state(web))["seq"])
            watcher = _SSEWatcher(web.url)
            watcher.start()
            for i in range(20):
                _press(rt, Button.MENU)
                reader.tap(CardId("bank", 1 + i % 4))
                seq += 1
                _poll(partial(watcher.first_with, seq), 30, "the SSE message")
            _settle(rt, web)
            gc.collect()
            held = tracemalloc.get_traced_memory()[0] - base
            tracemalloc.stop()
            latency: list[float] = []
            for i in range(taps):
                _press(rt, Button.MENU)
                _settle(rt, web)
                seq += 1
                t0 = time.time()
                reader.tap(CardId("bank", 1 + i % 4))
                arrived = _poll(partial(watcher.first_with, seq), 30, "the SSE message")
                latency.append(arrived - t0)
            watcher.close()
        finally:
            if tracemalloc.is_tracing():
                tracemalloc.stop()
            web.close()
    finally:
        service.stop()
        rt.stop()
    return [
        Result(AREA, f"memory the view holds, game of {n:,} transactions", held / 1024, "KiB",
               note="tracemalloc: allocations since the view was attached still alive after "
               "20 more taps"),
        Result(AREA, f"tap → SSE message p50, game of {n:,} transactions",
               percentile(latency, 50) * 1e3, "ms", note=f"{taps} taps, no browser"),
    ]  # fmt: skip


def run(quick: bool) -> list[Result]:
    """Tap to page update in Chromium, snapshot cost, chart drawing time; memory and tap
    latency of the view beside short and long games."""
    results: list[Result] = []
    with scratch_dir() as root:
        _long_game(root, 200, 5)  # a warm-up, not reported: the first run pays the imports
    for n in (1_000, 10_000) if quick else (1_000, 10_000, 50_000):
        with scratch_dir() as root:
            results += _long_game(root, n, 30 if quick else 100)
    return results + _browser(quick)


def _browser(quick: bool) -> list[Result]:
    with scratch_dir() as root:
        try:
            results, rt = _latency(root, 100 if quick else 400)
        except BrowserMissing as err:
            return [Result(AREA, "tap → page DOM updated p99", float("nan"), "ms",
                           target=at_most(100.0), note=f"not measured: {err}")]  # fmt: skip
        assert rt is not None
        try:
            results += _snapshot_cost(rt, 20 if quick else 100)
            results += _chart_time(rt)
        finally:
            rt.stop()
    return results
