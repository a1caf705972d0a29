"""Every cue has a tune; the mixer really plays it (SDL's disk driver); no sound card is fine."""

from __future__ import annotations

import itertools
import logging
import os
import subprocess
import sys
from array import array
from pathlib import Path

import pytest

from bank.unit.io import Cue
from firmware_sim import sounds
from firmware_sim.pg import pygame
from firmware_sim.sounds import CUE_NOTES, NullPlayer, RecordingPlayer, SoundPlayer, synth

ROOT = Path(__file__).resolve().parents[2]


def segments(
    samples: list[int], rate: int, threshold: int = 500
) -> list[tuple[float, float, float]]:
    """(start s, duration s, frequency Hz) of each stretch of sound, split by silences > 10 ms."""
    out = []
    gap_limit = rate // 100
    i, n = 0, len(samples)
    while i < n:
        if abs(samples[i]) < threshold:
            i += 1
            continue
        start, last, quiet = i, i, 0
        while i < n and quiet <= gap_limit:
            if abs(samples[i]) >= threshold:
                last, quiet = i, 0
            else:
                quiet += 1
            i += 1
        chunk = [s for s in samples[start : last + 1] if s != 0]
        crossings = sum(1 for a, b in itertools.pairwise(chunk) if (a < 0) != (b < 0))
        duration = (last + 1 - start) / rate
        out.append((start / rate, duration, crossings / 2 / duration))
    return out


def test_every_cue_has_a_distinct_tune() -> None:
    assert set(CUE_NOTES) == set(Cue)
    tunes = {tuple(CUE_NOTES[c]) for c in Cue}
    assert len(tunes) == len(Cue)


@pytest.mark.parametrize("cue", list(Cue))
def test_synth_matches_the_channel_count(cue: Cue) -> None:
    mono = synth(CUE_NOTES[cue], 44100, 1)
    stereo = synth(CUE_NOTES[cue], 44100, 2)
    assert len(stereo) == 2 * len(mono)  # same duration, not twice the pitch
    assert stereo[0::2] == stereo[1::2] == mono
    expected = sum(44100 * n.ms // 1000 for n in CUE_NOTES[cue])
    assert len(mono) == expected
    assert max(abs(s) for s in mono) <= 32767


def test_synth_reads_back_as_the_notes() -> None:
    got = segments(list(synth(CUE_NOTES[Cue.ERROR], 44100, 1)), 44100)
    assert len(got) == 2  # two buzzes around a rest
    for _, duration, freq in got:
        assert duration == pytest.approx(0.18, rel=0.1)
        assert freq == pytest.approx(196, rel=0.02)


def test_recording_player_and_null_player_are_sound_players(
    caplog: pytest.LogCaptureFixture,
) -> None:
    rec = RecordingPlayer()
    rec.play(Cue.READ)
    assert rec.cues == [Cue.READ]
    with caplog.at_level(logging.WARNING):
        null = NullPlayer("no card here")
        for cue in Cue:
            null.play(cue)
    assert [r.getMessage() for r in caplog.records] == ["no sound: no card here"]
    assert isinstance(rec, SoundPlayer) and isinstance(null, SoundPlayer)


def test_null_player_when_the_mixer_cannot_open(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise pygame.error("ALSA: Couldn't open audio device: No such file or directory")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", refuse)
    player = sounds.open_player()
    assert isinstance(player, NullPlayer)
    assert "Couldn't open audio device" in player.reason
    player.play(Cue.KACHING)  # silently nothing


def _python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "PYTHONPATH": str(ROOT), "PYGAME_HIDE_SUPPORT_PROMPT": "1", **env}
    return subprocess.run(
        [sys.executable, "-c", code], env=full, capture_output=True, text=True, timeout=60,
        cwd=ROOT,
    )  # fmt: skip


def test_no_sound_device_gives_a_null_player_in_a_real_process() -> None:
    code = (
        "from firmware_sim.sounds import open_player\n"
        "from bank.unit.io import Cue\n"
        "p = open_player()\n"
        "p.play(Cue.READ)\n"
        "print(type(p).__name__)\n"
    )
    proc = _python(code, {"SDL_AUDIODRIVER": "no-such-driver"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "NullPlayer"
    assert "no sound:" in proc.stderr


_PLAY = """
import sys, time
from firmware_sim.pg import pygame
from firmware_sim.sounds import MixerPlayer
from bank.unit.io import Cue
pygame.mixer.init(frequency=44100, size=-16, channels={channels}, buffer=512)
player = MixerPlayer()
print(player.rate, player.format, player.channels, flush=True)
for cue in (Cue.READ, Cue.ERROR):
    player.play(cue)
    deadline = time.monotonic() + 5
    while player.busy() and time.monotonic() < deadline:
        time.sleep(0.005)
    time.sleep(0.1)  # a stretch of silence between the cues
player.close()
"""


@pytest.mark.parametrize("channels", [1, 2])
def test_cues_are_really_played_through_sdl(tmp_path: Path, channels: int) -> None:
    raw = tmp_path / "out.raw"
    env = {"SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": str(raw)}
    proc = _python(_PLAY.format(channels=channels), env)
    assert proc.returncode == 0, proc.stderr
    rate, fmt, chans = (int(v) for v in proc.stdout.split())
    assert (fmt, chans) == (-16, channels)
    data = array("h")
    data.frombytes(raw.read_bytes())
    left = list(data[0::chans])
    got = segments(left, rate)
    assert len(got) == 3, got  # READ, then ERROR's two buzzes
    (_, d_read, f_read), (_, d1, f1), (_, d2, f2) = got
    assert f_read == pytest.approx(1760, rel=0.03)
    assert d_read == pytest.approx(0.070, rel=0.2)
    for d, f in ((d1, f1), (d2, f2)):
        assert f == pytest.approx(196, rel=0.03)
        assert d == pytest.approx(0.180, rel=0.15)
