"""Benchmarks of the speaking unit: a tap to the first sample of its sentence handed to the
player (espeak-ng making the sentence's sound), and the tap → screen time with speech on
against speech off in the same run (speech must not slow the unit down).

The tap path is the real one (bench_unit's): the simulated reader, the daemon, the unit, the
durable journal, the panel; the voice follows the daemon (``bank.app.voice``) and espeak-ng
runs for each sentence. The player notes when a sentence's WAV reaches it: the moment a sound
card's player would start its first sample. Imports the bank, ``drivers``, ``bench`` and the
standard library; without espeak-ng the area reports nothing and says why.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

from bank.app.runtime import Runtime
from bank.app.voice import SpeechService, speech_settings
from bank.services.settings import load_settings
from bank.unit.io import CardId, Cue
from bench.bench_unit import _Probe, show_go_icon, start_four_players
from bench.common import Result, at_most, scratch_dir, stats
from drivers.sim import start_sim_reader

AREA = "speech"


class _FirstSample:
    """A player that notes when each sentence's sound reaches it."""

    def __init__(self) -> None:
        self.at: list[tuple[float, str]] = []

    def play(self, wav: bytes, text: str) -> None:
        self.at.append((time.perf_counter(), text))

    def stop(self) -> None:
        pass

    def busy(self) -> bool:
        return False


def _open(root: Path, speak: bool) -> tuple[Runtime, _Probe, _FirstSample, SpeechService]:
    settings = load_settings(None, [f'game.data_dir="{root}"'])
    rt = Runtime(settings)
    probe = _Probe()
    rt.add_panel(probe)
    player = _FirstSample()
    service = SpeechService(
        rt, speech_settings(settings.raw["speech"]), "all" if speak else "off",
        player=lambda: player,
    )  # fmt: skip
    rt.start(control=False)
    service.start()
    return rt, probe, player, service


def _go_tap(rt: Runtime, probe: _Probe, reader: Any, i: int) -> float:
    """One GO tap (+200: one durable transaction, one sentence); its tap → screen time."""
    show_go_icon(rt)
    probe.kaching.clear()
    before = len(probe.screens)
    t0 = time.perf_counter()
    reader.tap(CardId("bank", 1 + i % 4))
    if not probe.kaching.wait(5):
        raise RuntimeError("no ka-ching after a GO tap")
    assert any(c is Cue.KACHING for _, c in probe.cues)
    return next(t for t, s in probe.screens[before:] if s.name != "menu") - t0


def _to_sound(root: Path, n: int) -> list[float]:
    """Tap → first sample handed to the player, each sentence said before the next tap."""
    rt, probe, player, service = _open(root, speak=True)
    reader, reader_service = start_sim_reader(rt.daemon.post, rt.clock, deck=rt.deck)
    out: list[float] = []
    try:
        start_four_players(rt, reader)
        for i in range(n):
            if service.speaker is not None:
                service.speaker.wait_idle(10)
            heard = len(player.at)
            t0 = time.perf_counter()
            _go_tap(rt, probe, reader, i)
            deadline = time.perf_counter() + 5
            while len(player.at) == heard and time.perf_counter() < deadline:
                time.sleep(0.0005)
            if len(player.at) == heard:
                raise RuntimeError("the GO tap was not said")
            out.append(player.at[heard][0] - t0)
    finally:
        reader_service.stop()
        service.close()
        rt.stop()
    return out


def _to_screen(root: Path, pairs: int, gap: float) -> tuple[list[float], list[float], int]:
    """Tap → screen with and without a sentence being made, in pairs on one running unit.

    Each measured tap comes *gap* seconds after another GO tap; in the first of a pair that
    tap was said (espeak-ng is still making its sentence when the measured tap comes), in the
    second the voice was off for it (nothing else runs). The voice is off for the measured
    taps themselves: a tap's own sentence is handed over only after its screen went out, so it
    cannot delay it. Returns (with, without, how many "with" taps met espeak-ng at work)."""
    rt, probe, _player, service = _open(root, speak=True)
    reader, reader_service = start_sim_reader(rt.daemon.post, rt.clock, deck=rt.deck)
    voice = service.voice
    on: list[float] = []
    off: list[float] = []
    busy = 0
    try:
        start_four_players(rt, reader)
        for i in range(2 * pairs):
            speaking = i % 2 == 0
            speaker = service.speaker
            if speaker is not None:
                speaker.wait_idle(10)
            voice.on = speaking
            _go_tap(rt, probe, reader, i)  # the tap before: said, or not
            rt.daemon.call(lambda: None)  # its batch went to the voice
            voice.on = False
            time.sleep(gap)
            speaker = service.speaker
            if speaking and speaker is not None and not speaker.wait_idle(0):
                busy += 1
            (on if speaking else off).append(_go_tap(rt, probe, reader, i + 1))
    finally:
        reader_service.stop()
        service.close()
        rt.stop()
    return on, off, busy


def run(quick: bool) -> list[Result]:
    """Tap → first sample of the sentence; tap → screen with speech on against off."""
    if shutil.which("espeak-ng") is None:
        print("  espeak-ng is not installed: no speech figures (sudo apt install espeak-ng)")
        return []
    n = 40 if quick else 1000
    gap = 0.02  # shorter than a sentence's synthesis: the next tap meets espeak-ng at work
    with scratch_dir() as root:
        sound = _to_sound(root / "sound", n // 5)
        on, off, busy = _to_screen(root / "screen", n, gap)
    so, sn, ss = stats(off), stats(on), stats(sound)
    note = f"{len(sound)} GO taps said by espeak-ng (fr), sim reader → daemon → voice → player"
    return [
        Result(AREA, "tap → first audio sample p50 (espeak-ng)", ss.p50 * 1e3, "ms", note=note),
        Result(AREA, "tap → first audio sample p99 (espeak-ng)", ss.p99 * 1e3, "ms",
               target=at_most(250.0)),
        Result(AREA, "tap → new screen p50, speech on", sn.p50 * 1e3, "ms",
               baseline=so.p50 * 1e3, ratio=sn.p50 / so.p50 if so.p50 else None),
        Result(AREA, "tap → new screen p99, speech on", sn.p99 * 1e3, "ms",
               baseline=so.p99 * 1e3, ratio=sn.p99 / so.p99 if so.p99 else None,
               target=at_most(1.25, ratio=True),
               note=f"baseline: taps with nothing being said, alternating with the measured "
               f"ones on the same unit; each measured tap came {gap * 1e3:.0f} ms after "
               f"another, and {busy} of {len(on)} met espeak-ng still making its sentence"),
    ]  # fmt: skip
