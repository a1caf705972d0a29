"""Benchmarks of the pygame emulator: CPU idle and during an auction, click-to-frame latency, RSS.

Each scenario runs in a child process (``python -m bench.bench_emulator --child NAME``) with
SDL's dummy video and audio drivers, so that the figures are the emulator's own: CPU is the
child's user+system time over the measured wall time (all threads, the mixer's included),
in percent of one core. The latency is the time from a mouse button pressed on a card to the
flip of the frame showing the card on the reader and the screen a stand-in daemon sent back in
answer (the daemon runs in its own thread, as in ``ultibank emulate``); the button comes up
once that frame is shown, as a finger's click lasts some tens of milliseconds (posting the
release at the same instant drew a frame with the card already lifted, and kept the clicking
thread busy just as the window woke). For each click the bench also sums the time the
process's threads spent ready to run but waiting for a core (``/proc/self/task/*/schedstat``):
the p99's note says how many of the clicks over the target waited 1 ms or more that way, that
is were slowed by the machine's other work rather than by the window's (Xvfb's own wait is
not counted). When Xvfb is installed, the scenarios also run on a real X server, on SDL's
``x11`` driver by name: left to choose, SDL falls back to its ``offscreen`` driver (EGL and
Mesa) when the X server does not answer, and the figures would be that driver's (the 131 MB
once reported for X11 were).

Each scenario runs twice in the same conditions, one right after the other: as the window
works now, and as a baseline. The idle scenario's baseline polls the events 30 times a second
(``PygamePanel(event_wait="poll")``, before the window slept until an event came); the others'
baseline draws and shows the whole window at every frame (``redraw="full"``) through SDL's
default framebuffer on X11 (an OpenGL texture), as before the window drew only what changed
(issue 20). Targets: a click's new frame at p99 within 3 ms on the dummy driver and 5 ms on
X11, at most 100 MB resident. Imports ``bench.common``, the emulator and the standard library.

``python -m bench.bench_emulator [--quick]`` prints the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from bench.common import Result, at_most, percentile

AREA = "emulator"
ROOT = Path(__file__).resolve().parents[1]
IDLE_TARGET = 3.0  # % of a core
#: click -> new frame p99, by video driver (ms)
LATENCY_TARGET_MS = {"dummy video": 3.0, "X11 on Xvfb": 5.0}
RSS_TARGET_MB = 100.0
#: how the window runs: now, polling (the idle baseline), whole frames (the others' baseline)
NOW = "auto:changed"
POLL = "poll:changed"
WHOLE = "auto:full"


# -- the child ----------------------------------------------------------------------------


def _cpu_seconds() -> float:
    t = os.times()
    return t.user + t.system


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _run_queue_seconds() -> float:
    """The time this process's threads have spent ready to run but waiting for a core, all
    together (Linux ``/proc/self/task/*/schedstat``; 0 elsewhere): it tells a click slowed
    by the machine's other work from one slowed by the window's own."""
    total = 0
    for stat in Path("/proc/self/task").glob("*/schedstat"):
        try:
            total += int(stat.read_text().split()[1])
        except (OSError, IndexError, ValueError):  # a thread that just ended
            continue
    return total / 1e9


def _child(name: str, seconds: float, mode: str = NOW) -> dict[str, Any]:
    """Run one scenario in this process (*mode*: ``WAIT:REDRAW``); return its raw figures."""
    wait, redraw = mode.split(":")
    from bank.unit.io import CardTapped, Cue, Icon, Input, Screen
    from firmware_sim import layout as L
    from firmware_sim.emulator import PygamePanel
    from firmware_sim.pg import pygame

    frame = threading.Condition()
    frame_costs: list[float] = []  # seconds to draw and show each frame

    class TimedPanel(PygamePanel):
        """Tells the clicker when a frame is on the screen, so it waits without polling
        (a thread polling every 0.5 ms would take the GIL from the window it measures)."""

        def _draw(self) -> None:
            started = time.perf_counter()
            super()._draw()
            frame_costs.append(time.perf_counter() - started)
            with frame:
                frame.notify_all()

    panel = TimedPanel("ultime-fr", sound=True, event_wait=wait, redraw=redraw)
    inbox: queue.SimpleQueue[Input] = queue.SimpleQueue()
    panel.start(inbox.put)
    stop = threading.Event()
    out: dict[str, Any] = {"scenario": name, "seconds": seconds, "mode": mode}
    panel.show(Screen(name="idle", lines=("Ultibank", "Tap a bank card")))

    def daemon() -> None:
        """Stand-in daemon: answers each card tap with a screen naming the tap's number."""
        while not stop.is_set():
            try:
                item = inbox.get(timeout=0.1)
            except queue.Empty:
                continue
            if isinstance(item, CardTapped) and item.card is not None:
                panel.show(Screen(name="balance", amount=item.card.number, token="car"))
                panel.play(Cue.READ)

    def auction() -> None:
        """Screens changing every second with a tick, as during an auction countdown."""
        left = 10
        while not stop.wait(1.0):
            left = left - 1 if left > 0 else 10
            screen = Screen(name="auction", amount=240, number=11, countdown=left,
                            icons=frozenset({Icon.AUCTION}), lines=("Enchères #11",))  # fmt: skip
            panel.show(screen)
            panel.play(Cue.AUCTION_TICK)

    latencies: list[float] = []
    waits: list[float] = []  # each answered click's run-queue wait (seconds, all threads)

    def clicker() -> None:
        """Clicks bank cards at random moments and waits for the answering frame."""
        bank_cards = {
            s.action.card.number: s
            for s in L.hotspots(panel.edition, panel.tray_view.tray if panel.tray_view else None)
            if isinstance(s.action, L.TapCard) and s.action.card.kind == "bank"
        }
        rng = random.Random(7)
        n = 0
        while not stop.wait(rng.uniform(0.05, 0.25)):
            n += 1
            number = 1 + n % 4
            spot = bank_cards[number]
            want = Screen(name="balance", amount=number, token="car")
            if panel.drawn == want:  # same answer as last time: nothing would change
                panel.show(Screen(name="idle"))
                time.sleep(0.05)
            queued = _run_queue_seconds()
            t0 = time.perf_counter()
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=spot.centre, button=1))
            with frame:
                answered = frame.wait_for(
                    lambda: panel.drawn == want and panel.drawn_at > t0,  # noqa: B023
                    timeout=1.0,
                )
            if answered:
                latencies.append(panel.drawn_at - t0)
                waits.append(_run_queue_seconds() - queued)
            # the button comes up once the answer is shown, as a finger's click lasts some
            # tens of milliseconds
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=spot.centre, button=1))

    threading.Thread(target=daemon, daemon=True).start()
    panel.open()
    out["wait_mode"] = panel.wait_mode
    out["driver"] = panel.video_driver
    panel.step()
    warm = 1.0
    threads = {"auction": auction, "latency": clicker}
    if name in threads:
        threading.Thread(target=threads[name], daemon=True).start()

    def timer() -> None:
        time.sleep(warm)
        out["cpu0"], out["wall0"], out["frames0"] = _cpu_seconds(), time.monotonic(), panel.frames
        time.sleep(seconds)
        out["cpu1"], out["wall1"], out["frames1"] = _cpu_seconds(), time.monotonic(), panel.frames
        out["rss_mb"] = _rss_mb()
        stop.set()

    threading.Thread(target=timer, daemon=True).start()
    panel.run_ui(stop)
    out["cpu_percent"] = 100 * (out["cpu1"] - out["cpu0"]) / (out["wall1"] - out["wall0"])
    out["frames"] = out["frames1"] - out["frames0"]
    out["latencies"] = latencies
    out["waits"] = waits
    out["frame_costs"] = frame_costs
    out["player"] = type(panel.player).__name__
    return out


# -- the parent ---------------------------------------------------------------------------


def _run_child(
    name: str, seconds: float, mode: str = NOW, display: str | None = None
) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_")}
    env.update(PYTHONPATH=str(ROOT), SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    # The driver is named, not left to SDL: with DISPLAY set and the X server not answering,
    # SDL falls back to its "offscreen" driver (EGL and Mesa, some 130 MB) without a word,
    # and the X11 figures would be the offscreen driver's.
    env["SDL_VIDEODRIVER"] = "dummy" if display is None else "x11"
    if display is not None:
        env["DISPLAY"] = display
    if mode == WHOLE:  # SDL's default framebuffer on X11 (an OpenGL texture), as before
        env["SDL_FRAMEBUFFER_ACCELERATION"] = "1"
    proc = subprocess.run(
        [sys.executable, "-m", "bench.bench_emulator", "--child", name, str(seconds), mode],
        env=env, cwd=ROOT, capture_output=True, text=True, timeout=seconds + 60,
    )  # fmt: skip
    if proc.returncode != 0:
        raise RuntimeError(f"emulator bench {name} failed:\n{proc.stderr}")
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    if result["driver"] != env["SDL_VIDEODRIVER"]:
        raise RuntimeError(f"emulator bench {name} ran on {result['driver']!r}, not "
                           f"{env['SDL_VIDEODRIVER']!r}")  # fmt: skip
    return result


def _pair(
    name: str, seconds: float, baseline: str, display: str | None = None
) -> dict[str, dict[str, Any]]:
    """The scenario run now and as its *baseline*, one right after the other."""
    return {mode: _run_child(name, seconds, mode, display) for mode in (NOW, baseline)}


class _Xvfb:
    """An Xvfb server for the X11 figure, if Xvfb is installed.

    Its display number is drawn at random among the high ones, not the first free one that
    ``-displayfd`` alone would take: on a machine where other sessions start their own Xvfb
    (test runs in other namespaces that share ``/tmp``), a low number is taken over by
    another server now and then, and the bench's window would lose its display."""

    def __init__(self) -> None:
        rng = random.Random()
        why = ""
        for _ in range(5):  # a number another server holds: try another
            number = rng.randrange(300, 900)
            if Path(f"/tmp/.X{number}-lock").exists():
                continue
            read_fd, write_fd = os.pipe()
            with tempfile.TemporaryFile() as log:  # Xvfb writes on after it started
                self.proc = subprocess.Popen(
                    ["Xvfb", f":{number}", "-displayfd", str(write_fd), "-screen", "0",
                     "1280x800x24", "-nolisten", "tcp"], pass_fds=(write_fd,),
                    stdout=subprocess.DEVNULL, stderr=log,
                )  # fmt: skip
                os.close(write_fd)
                said = b""
                while not said.endswith(b"\n") and select.select([read_fd], [], [], 20)[0]:
                    chunk = os.read(read_fd, 32)  # the number, then a newline (two writes)
                    if not chunk:
                        break
                    said += chunk
                os.close(read_fd)
                if said.decode().strip() == str(number):
                    self.display = f":{number}"
                    return
                self.close()
                log.seek(0)
                why = (log.read().decode(errors="replace").strip().splitlines() or [""])[-1]
        raise RuntimeError(f"Xvfb did not start: {why}")

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


def _results(video: str, seconds: float, display: str | None = None) -> list[Result]:
    """The figures of one video driver, each with its baseline run just after it."""
    idle = _pair("idle", seconds, POLL, display)
    auction = _pair("auction", seconds, WHOLE, display)
    latency = _pair("latency", seconds, WHOLE, display)
    lat_ms = {m: [1000 * v for v in latency[m]["latencies"]] for m in (NOW, WHOLE)}
    target = LATENCY_TARGET_MS[video]
    late = [w for v, w in zip(lat_ms[NOW], latency[NOW]["waits"], strict=True) if v > target]
    waited = sum(w >= 0.001 for w in late)
    cost_ms = {m: [1000 * v for v in latency[m]["frame_costs"]] for m in (NOW, WHOLE)}

    def fig(
        name: str, now: float, before: float, unit: str, target: float | None, note: str
    ) -> Result:
        ratio = now / before if before else None
        bound = at_most(target) if target is not None else None
        return Result(AREA, f"{name} ({video})", now, unit, bound, before, ratio, note)

    wait = idle[NOW]["wait_mode"]
    whole = "baseline: the whole window at every frame"
    return [
        fig("CPU idle", idle[NOW]["cpu_percent"], idle[POLL]["cpu_percent"], "% of a core",
            IDLE_TARGET, f"{seconds:g} s, {idle[NOW]['frames']} frames drawn; waits by "
            f"'{wait}'; baseline: polling 30/s"),
        fig("CPU during an auction countdown", auction[NOW]["cpu_percent"],
            auction[WHOLE]["cpu_percent"], "% of a core", None,
            f"a new screen and a tick every second, {auction[NOW]['frames']} frames; {whole}"),
        fig("click to new frame, p50", percentile(lat_ms[NOW], 50),
            percentile(lat_ms[WHOLE], 50), "ms", None,
            f"{len(lat_ms[NOW])} clicks on bank cards, daemon in another thread; {whole}"),
        fig("click to new frame, p99", percentile(lat_ms[NOW], 99),
            percentile(lat_ms[WHOLE], 99), "ms", target,
            f"{len(late)} clicks over {target:g} ms, {waited} of them with ≥ 1 ms waiting for "
            f"a core (the machine's other work); baseline: {len(lat_ms[WHOLE])} clicks, the "
            "whole window at every frame"),
        fig("one frame drawn and shown, p50", percentile(cost_ms[NOW], 50),
            percentile(cost_ms[WHOLE], 50), "ms", None,
            "the floor of a click's latency: what changed drawn and shown; baseline: the "
            "whole window"),
        fig("one frame drawn and shown, p99", percentile(cost_ms[NOW], 99),
            percentile(cost_ms[WHOLE], 99), "ms", None, whole),
        fig("resident memory (VmRSS)", max(d[NOW]["rss_mb"] for d in (idle, auction, latency)),
            max(d[WHOLE]["rss_mb"] for d in (auction, latency)), "MB", RSS_TARGET_MB,
            f"the most of the three scenarios, with the mixer open ({idle[NOW]['player']}); "
            "baseline: SDL's default framebuffer (OpenGL on X11)"),
    ]  # fmt: skip


def run(quick: bool) -> list[Result]:
    """Measure the emulator; *quick* shortens each scenario from 30 s to 5 s."""
    seconds = 5.0 if quick else 30.0
    results = _results("dummy video", seconds)
    if shutil.which("Xvfb"):
        xvfb = _Xvfb()
        try:
            results += _results("X11 on Xvfb", seconds, display=xvfb.display)
        finally:
            xvfb.close()
    return results


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--quick`` for the parent, ``--child NAME SECONDS`` internally."""
    parser = argparse.ArgumentParser(prog="python -m bench.bench_emulator")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--child", nargs="+", metavar="SCENARIO SECONDS [WAIT:REDRAW]")
    args = parser.parse_args(argv)
    if args.child:
        name, seconds, *mode = args.child
        print(json.dumps(_child(name, float(seconds), *mode)))
        return 0
    for r in run(args.quick):
        verdict = {None: "", True: "pass", False: "FAIL"}[r.passed]
        before = "" if r.baseline is None else f"(before {r.baseline:.2f})"
        print(f"{r.name:50} {r.value:8.2f} {before:16} {r.unit:12} {verdict:4} {r.note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
