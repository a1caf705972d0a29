"""Benchmarks of the unit and its daemon: tap to new screen (with the durable commit), the idle
daemon's CPU and memory, ``ultibank --help``, and ``ultibank tap`` / ``--help`` as whole
processes paired with ``python -c pass``.

The tap path is the real one: a simulated reader under the supervisor and debouncer, the
daemon's inbox and loop, the unit, the game and its journal on disk, then the panel's
``show``. Imports the bank, ``drivers``, ``bench.common`` and the standard library.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from bank.app.runtime import Runtime
from bank.services.settings import load_settings
from bank.unit.io import Button, ButtonPressed, ButtonReleased, CardId, Cue, Screen
from bench.common import Result, at_most, load_note, percentile, scratch_dir, stats
from drivers.sim import start_sim_reader

AREA = "unit"
TICKS = os.sysconf("SC_CLK_TCK")


class _Probe:
    """A panel that notes when each screen and cue arrives."""

    def __init__(self) -> None:
        self.screens: list[tuple[float, Screen]] = []
        self.cues: list[tuple[float, Cue]] = []
        self.kaching = threading.Event()
        self.screen_seen = threading.Event()

    def start(self, post: object) -> None:
        pass

    def show(self, screen: Screen) -> None:
        self.screens.append((time.perf_counter(), screen))
        self.screen_seen.set()

    def play(self, cue: Cue) -> None:
        self.cues.append((time.perf_counter(), cue))
        if cue is Cue.KACHING:
            self.kaching.set()

    def close(self) -> None:
        pass


def _press(post: object, button: Button) -> None:
    now = time.monotonic()
    assert callable(post)
    post(ButtonPressed(now, button))
    post(ButtonReleased(now, button))


def start_four_players(rt: Runtime, reader: Any) -> None:
    """Register bank cards 1-4 and start the game (the taps of every tap bench)."""
    for card in (1, 2, 3, 4):
        reader.tap(CardId("bank", card))
    _press(rt.daemon.post, Button.OK)
    rt.daemon.call(lambda: None)


def show_go_icon(rt: Runtime) -> None:
    """M at idle: the GO icon, waiting for a bank card's +200."""
    _press(rt.daemon.post, Button.MENU)
    rt.daemon.call(lambda: None)


def _tap_latency(root: Path, n: int) -> list[Result]:
    settings = load_settings(None, [f'game.data_dir="{root}"'])
    rt = Runtime(settings)
    probe = _Probe()
    rt.add_panel(probe)
    rt.start(control=False)
    post = rt.daemon.post
    reader, service = start_sim_reader(post, rt.clock, deck=rt.deck)
    to_screen: list[float] = []
    to_cue: list[float] = []
    try:
        start_four_players(rt, reader)
        for i in range(n):
            show_go_icon(rt)
            probe.kaching.clear()
            before = len(probe.screens)
            t0 = time.perf_counter()
            reader.tap(CardId("bank", 1 + i % 4))  # +200: one durable transaction
            if not probe.kaching.wait(5):
                raise RuntimeError("no ka-ching after a GO tap")
            screen_at = next(t for t, s in probe.screens[before:] if s.name != "menu")
            cue_at = next(t for t, c in reversed(probe.cues) if c is Cue.KACHING)
            to_screen.append(screen_at - t0)
            to_cue.append(cue_at - t0)
    finally:
        service.stop()
        rt.stop()
    s, c = stats(to_screen), stats(to_cue)
    note = f"{n} taps (each a durable +200 GO transaction), sim reader → debouncer → daemon"
    return [
        Result(AREA, "tap → new screen p50 (incl. durable commit)", s.p50 * 1e3, "ms", note=note),
        Result(AREA, "tap → new screen p99 (incl. durable commit)", s.p99 * 1e3, "ms",
               target=at_most(5.0)),
        Result(AREA, "tap → cue p99", c.p99 * 1e3, "ms", target=at_most(5.0)),
    ]  # fmt: skip


def _proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _idle_daemon(root: Path, seconds: float) -> list[Result]:
    env = dict(os.environ, ULTIBANK_DATA_DIR=str(root / "idle"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "bank.app.cli", "run", "--reader", "sim", "--panel", "sim"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        sock = root / "idle" / "control.sock"
        deadline = time.monotonic() + 20
        while not sock.exists():
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("the daemon did not start")
            time.sleep(0.05)
        time.sleep(1.0)  # let start-up work finish
        c0, t0 = _proc_cpu(proc.pid), time.monotonic()
        time.sleep(seconds)
        c1, t1 = _proc_cpu(proc.pid), time.monotonic()
        rss = _rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(10)
    return [
        Result(AREA, f"idle daemon CPU over {seconds:.0f} s", 100 * (c1 - c0) / (t1 - t0),
               "% of a core", target=at_most(1.0),
               note=f"clock-tick resolution {1000 / TICKS:.0f} ms"),
        Result(AREA, "idle daemon resident memory", rss, "MB", target=at_most(40.0)),
    ]  # fmt: skip


def _help_time(runs: int) -> list[Result]:
    exe = Path(sys.executable).with_name("ultibank")
    cmd = [str(exe), "--help"] if exe.exists() else [sys.executable, "-m", "bank.app.cli", "--help"]
    samples = []
    for _ in range(runs + 1):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        samples.append(time.perf_counter() - t0)
    samples = samples[1:]
    return [
        Result(AREA, "`ultibank --help` wall time p50", percentile(samples, 50), "s",
               target=at_most(0.3), note=f"{runs} runs, worst {max(samples):.3f} s"),
    ]  # fmt: skip


def _paired(command: list[str], baseline: list[str], runs: int, env: dict[str, str]) -> tuple[
    list[float], list[float], list[float]
]:  # fmt: skip
    """Wall times of *command* and *baseline* run in turn (A B A B...), one untimed warm-up
    each, and the ratio of each pair: a drift of the machine's speed moves both of a pair."""

    def wall(argv: list[str]) -> float:
        t0 = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                       check=True)  # fmt: skip
        return time.perf_counter() - t0

    wall(command), wall(baseline)
    ours, theirs = [], []
    for _ in range(runs):
        ours.append(wall(command))
        theirs.append(wall(baseline))
    return ours, theirs, [a / b for a, b in zip(ours, theirs, strict=True)]


def _start_up(root: Path, runs: int) -> list[Result]:
    """``ultibank tap`` (to a running daemon) and ``ultibank --help`` as whole processes,
    paired with the interpreter's own start (``python -c pass``)."""
    exe = Path(sys.executable).with_name("ultibank")
    ultibank = [str(exe)] if exe.exists() else [sys.executable, "-m", "bank.app.quick"]
    # bytecode caches written by the warm-up, as an installed ultibank has them; the figures
    # are the code's, not the bench machine's: no configuration file of whoever runs the
    # bench (one sends `tap` through the settings and tomllib) and no $COLUMNS of the
    # terminal it was started from (the output goes to /dev/null, read as 80 columns)
    drop = ("PYTHONDONTWRITEBYTECODE", "COLUMNS", "LINES")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["XDG_CONFIG_HOME"] = str(root / "no-config")
    data = root / "start-up"
    proc = subprocess.Popen(
        [*ultibank, "run", "--data-dir", str(data), "--reader", "sim", "--panel", "sim"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while not (data / "control.sock").exists():
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("the daemon did not start")
            time.sleep(0.05)
        python = [sys.executable, "-c", "pass"]
        tap = [*ultibank, "tap", "--data-dir", str(data), "bank:1"]
        t_ours, t_pass, t_ratio = _paired(tap, python, runs, env)
        h_ours, h_pass, h_ratio = _paired([*ultibank, "--help"], python, runs, env)
    finally:
        proc.terminate()
        proc.wait(10)
    ms = 1e3
    how = (f"{runs} pairs run in turn, the median of the pairs' ratios; wall time of the whole "
           f"process; p50 of `python -c pass` {percentile(t_pass, 50) * ms:.1f} ms")  # fmt: skip
    return [
        Result(AREA, "`ultibank tap bank:1` to a running daemon, whole process p50",
               percentile(t_ours, 50) * ms, "ms", baseline=percentile(t_pass, 50) * ms,
               ratio=percentile(t_ratio, 50), target=at_most(1.5, ratio=True),
               note=f"{how}; the answer waited for (a durable transaction in the daemon); "
               "baseline: `python -c pass`, the interpreter's own start"),
        Result(AREA, "`ultibank --help`, whole process p50", percentile(h_ours, 50) * ms, "ms",
               baseline=percentile(h_pass, 50) * ms, ratio=percentile(h_ratio, 50),
               target=at_most(1.5, ratio=True),
               note=f"{runs} pairs, as above; baseline: `python -c pass`; {load_note()}"),
    ]  # fmt: skip


def run(quick: bool) -> list[Result]:
    """Tap latency, idle CPU and memory, --help time, ``ultibank tap`` start-up."""
    with scratch_dir() as root:
        results = _tap_latency(root, 200 if quick else 1200)
        results += _idle_daemon(root, 5.0 if quick else 30.0)
        results += _start_up(root, 5 if quick else 30)
    results += _help_time(3 if quick else 10)
    return results
