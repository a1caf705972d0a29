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

from bank.app.runtime import Runtime
from bank.app.voice import SpeechService, speech_settings
from bank.settings import load_settings
from bank.unit.io import Button, CardId, Cue
from bench.bench_unit import _press, _Probe
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


def _taps(root: Path, n: int, speak: bool) -> tuple[list[float], list[float]]:
    """(tap → screen, tap → first sample) for *n* GO taps, with speech on or off."""
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
    post = rt.daemon.post
    reader, reader_service = start_sim_reader(post, rt.clock, deck=rt.deck)
    to_screen: list[float] = []
    to_sound: list[float] = []
    try:
        for card in (1, 2, 3, 4):
            reader.tap(CardId("bank", card))
        _press(post, Button.OK)
        rt.daemon.call(lambda: None)
        for i in range(n):
            _press(post, Button.MENU)  # the GO icon
            rt.daemon.call(lambda: None)
            if service.speaker is not None:
                service.speaker.wait_idle(10)
            probe.kaching.clear()
            before, heard = len(probe.screens), len(player.at)
            t0 = time.perf_counter()
            reader.tap(CardId("bank", 1 + i % 4))  # +200: one durable transaction, one sentence
            if not probe.kaching.wait(5):
                raise RuntimeError("no ka-ching after a GO tap")
            screen_at = next(t for t, s in probe.screens[before:] if s.name != "menu")
            to_screen.append(screen_at - t0)
            if speak:
                deadline = time.perf_counter() + 5
                while len(player.at) == heard and time.perf_counter() < deadline:
                    time.sleep(0.0005)
                if len(player.at) == heard:
                    raise RuntimeError("the GO tap was not said")
                to_sound.append(player.at[heard][0] - t0)
            assert any(c is Cue.KACHING for _, c in probe.cues)
    finally:
        reader_service.stop()
        service.close()
        rt.stop()
    return to_screen, to_sound


def run(quick: bool) -> list[Result]:
    """Tap → first sample of the sentence; tap → screen with speech on against off."""
    if shutil.which("espeak-ng") is None:
        print("  espeak-ng is not installed: no speech figures (sudo apt install espeak-ng)")
        return []
    n = 30 if quick else 200
    off: list[float] = []
    on: list[float] = []
    sound: list[float] = []
    with scratch_dir() as root:
        for block in range(4):  # interleaved blocks: the machine's drift hits both alike
            s_off, _ = _taps(root / f"off{block}", n // 4, speak=False)
            s_on, s_sound = _taps(root / f"on{block}", n // 4, speak=True)
            off += s_off
            on += s_on
            sound += s_sound
    so, sn, ss = stats(off), stats(on), stats(sound)
    note = f"{len(sound)} GO taps said by espeak-ng (fr), sim reader → daemon → voice → player"
    return [
        Result(AREA, "tap → first audio sample p50 (espeak-ng)", ss.p50 * 1e3, "ms", note=note),
        Result(AREA, "tap → first audio sample p99 (espeak-ng)", ss.p99 * 1e3, "ms",
               target=at_most(250.0)),
        Result(AREA, "tap → new screen p99, speech on", sn.p99 * 1e3, "ms",
               baseline=so.p99 * 1e3, ratio=sn.p99 / so.p99 if so.p99 else None,
               target=at_most(1.25, ratio=True),
               note="baseline: the same taps with speech off, interleaved in the same run"),
    ]  # fmt: skip
