"""The unit's speaker: a tone for every :class:`bank.unit.io.Cue`, generated in code.

Tones are square or sine notes with a short attack and release, generated once with the
standard library (``array``) in the mixer's own sample rate, sample format and channel count:
mono bytes fed to a stereo mixer would play an octave high and half as long. Three players
share the :class:`SoundPlayer` protocol: :class:`MixerPlayer` (pygame's mixer),
:class:`NullPlayer` (no sound card: it logs once and stays silent) and :class:`RecordingPlayer`
(tests). :func:`open_player` picks the mixer when it opens and the null player otherwise.

Imports pygame (through :mod:`firmware_sim.pg`, only when a mixer is opened), ``bank.unit.io``
and the standard library.
"""

from __future__ import annotations

import io
import logging
import math
import wave
from array import array
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from bank.unit.io import Cue

if TYPE_CHECKING:
    from pygame.mixer import Sound

log = logging.getLogger(__name__)

SAMPLE_RATE = 44100
VOLUME = 0.3  # of full scale: loud enough, never clipping
ATTACK_MS = 4
RELEASE_MS = 12


class Wave(Enum):
    SQUARE = "square"
    SINE = "sine"


@dataclass(frozen=True, slots=True)
class Note:
    """One note: *freq* in Hz (0 = a rest), *ms* long."""

    freq: float
    ms: int
    wave: Wave = Wave.SQUARE


_REST = 0.0

#: The tune of every cue. Short and distinct: the ear must tell a read from an error.
CUE_NOTES: dict[Cue, tuple[Note, ...]] = {
    Cue.READ: (Note(1760, 70),),
    Cue.KACHING: (
        Note(1568, 50),
        Note(_REST, 25),
        Note(2093, 60, Wave.SINE),
        Note(2637, 220, Wave.SINE),
    ),
    Cue.LEVEL_UP: (Note(523, 80), Note(659, 80), Note(784, 80), Note(1047, 160)),
    Cue.ERROR: (Note(196, 180), Note(_REST, 60), Note(196, 180)),
    Cue.AUCTION_TICK: (Note(1000, 25),),
    Cue.HAMMER: (Note(880, 40), Note(_REST, 30), Note(220, 220)),
    Cue.UNDO: (Note(784, 90), Note(587, 90), Note(392, 160)),
    Cue.JAIL: (Note(330, 150), Note(262, 150), Note(196, 320)),
    Cue.GAME_OVER: (
        Note(523, 120),
        Note(659, 120),
        Note(784, 120),
        Note(1047, 240),
        Note(784, 120),
        Note(1047, 480),
    ),
    # the unit's dice rattle (docs/classic.md §5.5)
    Cue.DICE: (Note(1568, 30), Note(_REST, 30), Note(1319, 30), Note(_REST, 30), Note(1760, 50)),
}
assert set(CUE_NOTES) == set(Cue), "a cue has no tune"


def synth(notes: tuple[Note, ...], rate: int = SAMPLE_RATE, channels: int = 1) -> array[int]:
    """Signed 16-bit samples of *notes*, interleaved for *channels* channels."""
    if channels < 1:
        raise ValueError(f"a sound needs at least one channel, not {channels}")
    peak = int(32767 * VOLUME)
    out: array[int] = array("h")
    for note in notes:
        count = rate * note.ms // 1000
        if note.freq <= 0:
            out.extend([0] * (count * channels))
            continue
        attack = max(1, rate * ATTACK_MS // 1000)
        release = max(1, rate * RELEASE_MS // 1000)
        step = note.freq / rate
        for i in range(count):
            phase = (i * step) % 1.0
            if note.wave is Wave.SQUARE:
                value = 1.0 if phase < 0.5 else -1.0
            else:
                value = math.sin(2 * math.pi * phase)
            gain = min(1.0, i / attack, (count - i) / release)
            sample = int(peak * gain * value)
            out.extend([sample] * channels)
    return out


def wav_bytes(cue: Cue, rate: int = SAMPLE_RATE) -> bytes:
    """The tune of *cue* as a mono 16-bit WAV file."""
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(synth(CUE_NOTES[cue], rate, 1).tobytes())
    return buf.getvalue()


@runtime_checkable
class SoundPlayer(Protocol):
    """Something that plays the unit's cues."""

    def play(self, cue: Cue) -> None: ...

    def close(self) -> None: ...


class NullPlayer:
    """Plays nothing; says once why there is no sound."""

    def __init__(self, reason: str = "sound is off") -> None:
        self.reason = reason
        log.warning("no sound: %s", reason)

    def play(self, cue: Cue) -> None:
        """Ignore *cue*."""

    def close(self) -> None:
        """Nothing to release."""


class RecordingPlayer:
    """Remembers the cues it was asked to play, in order (for tests)."""

    def __init__(self) -> None:
        self.cues: list[Cue] = []

    def play(self, cue: Cue) -> None:
        """Record *cue*."""
        self.cues.append(cue)

    def close(self) -> None:
        """Nothing to release."""


class SoundUnavailable(RuntimeError):
    """The mixer cannot open (no sound card, no audio server)."""


class MixerPlayer:
    """Plays cues through pygame's mixer on one channel: a new cue cuts the previous one."""

    def __init__(self, rate: int = SAMPLE_RATE, buffer: int = 512) -> None:
        from firmware_sim.pg import pygame

        self._pygame = pygame
        try:
            if pygame.mixer.get_init() is None:
                # mono asked for; the device may impose stereo, which get_init() reports
                pygame.mixer.init(frequency=rate, size=-16, channels=1, buffer=buffer)
            params = pygame.mixer.get_init()
        except pygame.error as err:
            raise SoundUnavailable(f"the mixer cannot open: {err}") from err
        if params is None:
            raise SoundUnavailable("the mixer did not open (no sound device?)")
        self.rate, self.format, self.channels = params
        self._channel = pygame.mixer.Channel(0)
        self.sounds = {cue: self._make(cue) for cue in Cue}

    def _make(self, cue: Cue) -> Sound:
        from firmware_sim.pg import pygame

        if self.format == -16:
            samples = synth(CUE_NOTES[cue], self.rate, self.channels)
            return pygame.mixer.Sound(buffer=samples.tobytes())
        # another sample format: let SDL convert a WAV to it
        return pygame.mixer.Sound(file=io.BytesIO(wav_bytes(cue, self.rate)))

    def play(self, cue: Cue) -> None:
        """Play *cue* now, cutting any cue still sounding."""
        self._channel.play(self.sounds[cue])

    def busy(self) -> bool:
        """True while a cue is sounding."""
        return bool(self._channel.get_busy())

    def close(self) -> None:
        """Close the mixer."""
        self._pygame.mixer.quit()


def open_player(enabled: bool = True) -> MixerPlayer | NullPlayer:
    """The mixer player if the mixer opens, else a :class:`NullPlayer` saying why."""
    if not enabled:
        return NullPlayer("disabled")
    try:
        return MixerPlayer()
    except SoundUnavailable as err:
        return NullPlayer(str(err))


class MixerSpeechPlayer:
    """The unit's voice through the same mixer as the cues, on a channel of its own (a cue
    does not cut a sentence; the speaker starts a sentence once the cue is done)."""

    def __init__(self, mixer: MixerPlayer) -> None:
        from firmware_sim.pg import pygame

        self._pygame = pygame
        self.mixer = mixer
        if pygame.mixer.get_num_channels() < 2:
            pygame.mixer.set_num_channels(2)
        self._channel = pygame.mixer.Channel(1)

    def play(self, wav: bytes, text: str) -> None:
        """Play a sentence's WAV now, cutting the one being said."""
        sound = self._pygame.mixer.Sound(file=io.BytesIO(wav))
        self._channel.play(sound)

    def stop(self) -> None:
        self._channel.stop()

    def busy(self) -> bool:
        return bool(self._channel.get_busy())
