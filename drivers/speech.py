"""Speech engines and players: a sentence of the unit (``bank.views.speech``) made into sound.

Engines turn a sentence into a WAV file's bytes, on this machine, never over a network:

- :class:`EspeakEngine` runs ``espeak-ng`` (the Debian package of the same name, on every
  Raspberry Pi OS), about 30 ms a sentence; the default;
- :class:`PiperEngine` runs a Piper voice model (``pip install 'ultibank[voice]'`` and a
  ``.onnx`` voice file named in ``[speech] model``): a more natural voice, slower on a Pi.

Players play those bytes: :class:`AplayPlayer` through ALSA's ``aplay`` (the box's USB speaker
or I²S amplifier, a laptop's sound card), :class:`WavDirPlayer` writes each sentence to a
numbered WAV file (recordings, tests), and the emulator plays them through its own pygame
mixer (``firmware_sim.emulator``).

:class:`Speaker` puts the two together on a thread of its own: :meth:`Speaker.say` returns at
once (speech never delays a transaction or a screen), a new sentence cuts the one being said,
and the cue sound of the same gesture plays first (the speaker waits for the panel's cue).
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import wave
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from drivers.base import DriverError

__all__ = [
    "AplayPlayer",
    "EspeakEngine",
    "PiperEngine",
    "Speaker",
    "SpeechEngine",
    "SpeechPlayer",
    "SpeechSettings",
    "WavDirPlayer",
    "open_engine",
    "wav_duration",
]

log = logging.getLogger("ultibank.speech")

#: the longest a sentence may take to synthesise before it is given up (seconds)
SYNTH_TIMEOUT = 10.0


def _scratch_dir() -> str | None:
    """A directory in memory for the sentences' WAV files (``/dev/shm``, else the session's
    ``XDG_RUNTIME_DIR``; None: the system's temporary directory). On a disk, each file
    would join the journal's next ``fsync`` (ext4 writes other files' new blocks with it) and
    a sentence would slow the transaction after it."""
    for candidate in ("/dev/shm", os.environ.get("XDG_RUNTIME_DIR", "")):
        if candidate and os.path.isdir(candidate) and os.access(candidate, os.W_OK | os.X_OK):
            return candidate
    return None


@dataclass(frozen=True, slots=True)
class SpeechSettings:
    """The ``[speech]`` table: which engine, which voice, how fast and how loud."""

    engine: str = "espeak"
    #: an espeak-ng voice (``fr``, ``en-gb``, ``fr+f3``); empty: the edition's language
    voice: str = ""
    #: a Piper voice model (``.onnx``), for ``engine = "piper"``
    model: str = ""
    #: words a minute
    rate: int = 160
    #: 0-100
    volume: int = 80
    #: the ALSA device ``aplay`` plays on; empty: the default one
    device: str = ""


class SpeechEngine(Protocol):
    name: str

    def synthesize(self, text: str) -> bytes:
        """*text* as a WAV file's bytes."""
        ...


class SpeechPlayer(Protocol):
    def play(self, wav: bytes, text: str) -> None:
        """Start playing *wav* (the sound of *text*); returns at once."""
        ...

    def stop(self) -> None:
        """Cut what is playing."""
        ...

    def busy(self) -> bool:
        """True while a sentence is still being played."""
        ...


# ---------------------------------------------------------------------- engines

_ESPEAK_VOICES = {"fr": "fr-fr", "en": "en-gb"}


class EspeakEngine:
    """``espeak-ng`` run once a sentence, writing the sentence's WAV to a temporary file."""

    name = "espeak-ng"

    def __init__(self, settings: SpeechSettings, lang: str) -> None:
        exe = shutil.which("espeak-ng") or shutil.which("espeak")
        if exe is None:
            raise DriverError(
                "speech: espeak-ng is not installed (sudo apt install espeak-ng), "
                'or set [speech] engine = "piper" with a voice model'
            )
        self.exe = exe
        # the engine runs below the bank's priority: a sentence never slows a tap down
        # (SCHED_IDLE: it runs only on a core nothing else wants; else the lowest niceness)
        chrt, nice = shutil.which("chrt"), shutil.which("nice")
        self.prefix = [chrt, "--idle", "0"] if chrt else [nice, "-n", "19"] if nice else []
        self.voice = settings.voice or _ESPEAK_VOICES.get(lang, "en-gb")
        self.rate = max(80, min(450, int(settings.rate)))
        # espeak-ng's amplitude runs 0-200 (100 is its default); the setting is 0-100 %
        self.amplitude = max(0, min(200, int(settings.volume) * 2))
        #: the espeak-ng process making a sentence now (paused while the unit is busy)
        self._proc: subprocess.Popen[bytes] | None = None

    def synthesize(self, text: str) -> bytes:
        argv = [
            *self.prefix,
            self.exe,
            "-v",
            self.voice,
            "-s",
            str(self.rate),
            "-a",
            str(self.amplitude),
        ]
        # The WAV goes to a file, not a pipe: this thread then sleeps in one wait for the
        # process instead of waking for every 32 kB of sound, and each wake-up would take the
        # interpreter's lock from the thread that is drawing a screen.
        fd, name = tempfile.mkstemp(prefix="ultibank-espeak-", suffix=".wav", dir=_scratch_dir())
        os.close(fd)
        out = Path(name)
        try:
            try:
                proc = subprocess.Popen(
                    [*argv, "-w", name, text],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.PIPE,
                )
            except OSError as err:
                raise DriverError(f"speech: espeak-ng failed: {err}") from err
            self._proc = proc
            try:
                _, err_out = proc.communicate(timeout=SYNTH_TIMEOUT)
            except subprocess.TimeoutExpired as err:
                proc.kill()
                proc.communicate()
                raise DriverError(f"speech: espeak-ng failed: {err}") from err
            finally:
                self._proc = None
            data = out.read_bytes()
        finally:
            out.unlink(missing_ok=True)
        done = subprocess.CompletedProcess(proc.args, proc.returncode, b"", err_out)
        if done.returncode != 0 or not data.startswith(b"RIFF"):
            why = done.stderr.decode(errors="replace").strip() or f"exit {done.returncode}"
            raise DriverError(f"speech: espeak-ng failed ({self.voice}): {why}")
        return _fix_stream_header(data)

    def pause(self) -> None:
        """Stop the sentence being made (SIGSTOP) until :meth:`resume`: the unit's input is
        handled meanwhile without espeak-ng on the other core."""
        self._signal(signal.SIGSTOP)

    def resume(self) -> None:
        """Let the sentence being made go on (SIGCONT)."""
        self._signal(signal.SIGCONT)

    def _signal(self, sig: int) -> None:
        proc = self._proc
        if proc is not None:
            with contextlib.suppress(OSError):  # it may have ended meanwhile
                proc.send_signal(sig)


class PiperEngine:
    """A Piper voice model, loaded once (``piper-tts``, the ``[voice]`` extra)."""

    name = "piper"

    def __init__(self, settings: SpeechSettings) -> None:
        if not settings.model:
            raise DriverError(
                "speech: the piper engine needs a voice model: [speech] model = "
                '"/path/to/fr_FR-siwis-medium.onnx"'
            )
        model = Path(settings.model).expanduser()
        if not model.is_file():
            raise DriverError(f"speech: piper voice model {model} not found")
        try:
            from piper import PiperVoice  # type: ignore[import-not-found,unused-ignore]
        except ImportError as err:
            raise DriverError(
                "speech: piper is not installed: pip install 'ultibank[voice]'"
            ) from err
        try:
            self.voice = PiperVoice.load(str(model))
        except Exception as err:  # a damaged model file, a missing .json beside it
            raise DriverError(f"speech: cannot load the piper model {model}: {err}") from err
        self.rate = max(80, min(450, int(settings.rate)))

    def synthesize(self, text: str) -> bytes:
        buf = io.BytesIO()
        with wave.open(buf, "wb") as wav:
            synth = getattr(self.voice, "synthesize_wav", None) or self.voice.synthesize
            synth(text, wav)
        return buf.getvalue()


def open_engine(settings: SpeechSettings, lang: str) -> SpeechEngine:
    """The configured engine; DriverError with one line when it cannot be used here."""
    if settings.engine == "piper":
        return PiperEngine(settings)
    if settings.engine in ("espeak", "espeak-ng"):
        return EspeakEngine(settings, lang)
    raise DriverError(f"speech: unknown engine {settings.engine!r} (espeak or piper)")


def _fix_stream_header(data: bytes) -> bytes:
    """espeak-ng writes a WAV to a pipe before it knows its length (sizes 0x7ffff…): set the
    RIFF and data sizes from what came, so every reader takes the file."""
    if len(data) < 44 or data[36:40] != b"data":
        return data
    body = len(data) - 44
    return (
        data[:4]
        + (36 + body).to_bytes(4, "little")
        + data[8:40]
        + body.to_bytes(4, "little")
        + data[44:]
    )


def wav_duration(data: bytes) -> float:
    """The length of a WAV file's sound, in seconds."""
    with wave.open(io.BytesIO(data)) as wav:
        frames: int = wav.getnframes()
        rate: int = wav.getframerate()
        return frames / float(rate)


# ---------------------------------------------------------------------- players


class AplayPlayer:
    """ALSA's ``aplay``, one process a sentence (from a temporary WAV file), killed to cut it:
    :meth:`play` never waits for the sound to be played."""

    def __init__(self, device: str = "") -> None:
        exe = shutil.which("aplay")
        if exe is None:
            raise DriverError("speech: aplay is not installed (sudo apt install alsa-utils)")
        self.argv = [exe, "-q", *(["-D", device] if device else [])]
        self._proc: subprocess.Popen[bytes] | None = None
        self._file: Path | None = None
        self._failed = False

    def play(self, wav: bytes, text: str) -> None:
        self.stop()
        fd, name = tempfile.mkstemp(prefix="ultibank-say-", suffix=".wav", dir=_scratch_dir())
        with os.fdopen(fd, "wb") as f:
            f.write(wav)
        self._file = Path(name)
        try:
            self._proc = subprocess.Popen(
                [*self.argv, name], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )  # fmt: skip
        except OSError as err:
            raise DriverError(f"speech: aplay failed: {err}") from err

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            err = proc.stderr.read() if proc.stderr is not None else b""
            if proc.stderr is not None:
                proc.stderr.close()
            if proc.returncode not in (0, -9) and not self._failed:
                self._failed = True  # said once: no sound card is a setup fact, not news
                lines = err.decode(errors="replace").strip().splitlines() or ["failed"]
                log.warning("speech: aplay cannot play (no sound device?): %s", lines[-1])
        if self._file is not None:
            self._file.unlink(missing_ok=True)
            self._file = None

    def busy(self) -> bool:
        return self._proc is not None and self._proc.poll() is None


class WavDirPlayer:
    """Writes each sentence to ``DIR/0001.wav`` (and its text to ``0001.txt``)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        self.count = 0

    def play(self, wav: bytes, text: str) -> None:
        self.count += 1
        stem = self.directory / f"{self.count:04d}"
        stem.with_suffix(".wav").write_bytes(wav)
        stem.with_suffix(".txt").write_text(text + "\n", encoding="utf-8")

    def stop(self) -> None:
        pass

    def busy(self) -> bool:
        return False


# ---------------------------------------------------------------------- the speaker thread


class Speaker:
    """Says sentences on a thread of its own: :meth:`say` never waits; the newest sentence
    wins (one still waiting is replaced, one being played is cut).

    *cue_busy* tells whether the panel's cue sound is still playing: the sentence starts after
    it (within *cue_wait* seconds)."""

    def __init__(
        self,
        engine: SpeechEngine,
        player: SpeechPlayer,
        *,
        cue_busy: Callable[[], bool] | None = None,
        cue_wait: float = 0.6,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.engine = engine
        self.player = player
        self.cue_busy = cue_busy
        self.cue_wait = cue_wait
        self.clock = clock
        self._cond = threading.Condition()
        self._pending: str | None = None
        self._generation = 0
        self._closed = False
        self._warned = False
        self._idle = threading.Event()
        self._idle.set()
        #: (text, seconds from say() to the first sample handed to the player) per sentence
        self.latencies: list[tuple[str, float]] = []
        self._asked_at = 0.0
        self._thread = threading.Thread(target=self._run, name="ultibank-speech", daemon=True)
        self._thread.start()

    def say(self, sentences: Sequence[str] | str) -> None:
        """Say *sentences* (one string or several, said as one), cutting what is being said."""
        text = sentences if isinstance(sentences, str) else ". ".join(s for s in sentences if s)
        if not text:
            return
        with self._cond:
            self._pending = text
            self._generation += 1
            self._asked_at = self.clock()
            self._idle.clear()
            self._cond.notify()

    def busy(self, busy: bool) -> None:
        """The unit is handling an input (True) or done with it (False): the engine's work on
        a sentence pauses meanwhile, when the engine can pause (espeak-ng's process can; an
        engine in this process cannot, and goes on)."""
        hook = getattr(self.engine, "pause" if busy else "resume", None)
        if hook is not None:
            hook()

    def stop(self) -> None:
        """Cut what is being said and forget what waits."""
        with self._cond:
            self._pending = None
            self._generation += 1
        self.player.stop()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """True once every sentence asked so far was handed to the player (tests, bench)."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join(5.0)
        self.player.stop()

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._pending is None and not self._closed:
                    self._idle.set()
                    self._cond.wait()
                if self._closed:
                    self._idle.set()
                    return
                pending, self._pending = self._pending, None
                if pending is None:
                    continue
                text = pending
                generation, asked = self._generation, self._asked_at
            try:
                wav = self.engine.synthesize(text)
            except DriverError as err:
                if not self._warned:
                    self._warned = True
                    log.warning("%s", err)
                continue
            deadline = self.clock() + self.cue_wait
            while self.cue_busy is not None and self.cue_busy() and self.clock() < deadline:
                time.sleep(0.01)
            with self._cond:
                if generation != self._generation:  # a newer sentence came meanwhile
                    continue
            try:
                self.player.play(wav, text)
            except Exception as err:  # a player's fault never stops the voice, nor the bank
                if not self._warned:
                    self._warned = True
                    log.warning("speech: %s", err)
                continue
            self.latencies.append((text, self.clock() - asked))
