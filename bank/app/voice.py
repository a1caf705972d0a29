"""The speaking unit, wired: the unit's voice (:class:`bank.views.speech.Voice`) follows the daemon
input by input, and a :class:`drivers.speech.Speaker` says its sentences on a thread of its own.

The engine and the player open the first time there is something to say (speech may start
off and be switched on at the table by holding M), so a box without espeak-ng or a sound card
runs as before and says once, in one line, why it is silent.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

from bank.unit.io import Output
from bank.views.speech import Announcer, Voice
from drivers.base import DriverError
from drivers.speech import (
    AplayPlayer,
    Speaker,
    SpeechPlayer,
    SpeechSettings,
    open_engine,
)

log = logging.getLogger("ultibank.speech")

__all__ = ["SpeechService", "speech_settings"]


def speech_settings(raw: dict[str, Any]) -> SpeechSettings:
    """The ``[speech]`` table as the engines take it."""
    return SpeechSettings(
        engine=str(raw["engine"]),
        voice=str(raw["voice"]),
        model=str(raw["model"]),
        rate=int(raw["rate"]),
        volume=int(raw["volume"]),
        device=str(raw["device"]),
    )


class SpeechService:
    """Subscribed to a runtime's daemon: says each input's sentences, never waiting for them.

    *player* makes the player when speech first starts (the emulator gives its mixer's; the
    default is ALSA's ``aplay``); *cue_busy* tells whether a cue sound is still playing."""

    def __init__(
        self,
        runtime: Any,
        settings: SpeechSettings,
        mode: str,
        *,
        player: Callable[[], SpeechPlayer] | None = None,
        cue_busy: Callable[[], bool] | None = None,
    ) -> None:
        self.runtime = runtime
        self.settings = settings
        language = runtime.unit.config.language
        self.announcer = Announcer(runtime.edition, language, "all" if mode == "off" else mode)
        self.voice = Voice(self.announcer, on=mode != "off")
        self._player = player or (lambda: AplayPlayer(settings.device))
        self._cue_busy = cue_busy
        self.speaker: Speaker | None = None
        self._failed = False
        #: every sentence handed to the speaker (tests, the bench)
        self.said: list[str] = []

    def start(self) -> SpeechService:
        self.runtime.unit.speech_on = self.voice.on
        self.runtime.daemon.batch_listeners.append(self.hear)
        self.runtime.daemon.busy_listeners.append(self.busy)
        return self

    def close(self) -> None:
        if self.hear in self.runtime.daemon.batch_listeners:
            self.runtime.daemon.batch_listeners.remove(self.hear)
        if self.busy in self.runtime.daemon.busy_listeners:
            self.runtime.daemon.busy_listeners.remove(self.busy)
        if self.speaker is not None:
            self.speaker.close()

    def _open(self) -> Speaker | None:
        if self.speaker is not None or self._failed:
            return self.speaker
        try:
            engine = open_engine(self.settings, self.announcer.lang)
            self.speaker = Speaker(engine, self._player(), cue_busy=self._cue_busy)
        except DriverError as err:
            self._failed = True  # said once, in one line: the game goes on without a voice
            print(f"ultibank: {err}", file=sys.stderr)
        return self.speaker

    def busy(self, busy: bool) -> None:
        """An input starts (True) or its screens went out (False): the sentence being made
        waits meanwhile, so speech never delays a screen (runs in the daemon's thread)."""
        speaker = self.speaker
        if speaker is not None:
            speaker.busy(busy)

    def hear(self, outputs: Sequence[Output]) -> None:
        """One input's outputs (runs in the daemon's thread: reads the journal's new records,
        then hands the sentences over and returns)."""
        rt = self.runtime
        journal = rt.journal
        state = rt.game.state if journal is not None else None
        texts = self.voice.hear(outputs, journal, state)
        if not texts:
            return
        self.said.extend(texts)
        speaker = self._open()
        if speaker is not None:
            speaker.say(texts)
