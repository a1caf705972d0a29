"""The protocols every reader backend and every panel follows, and the drivers' errors.

Reader backends report only **presence** (:class:`CardPresent` / :class:`CardAbsent`); the
shared debouncer turns presence into exactly one :class:`bank.unit.io.CardTapped` per physical
tap, and the supervisor reopens a lost reader. Panels show screens, play cues and post
button inputs. Imports ``bank.unit.io`` and the standard library only.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from bank.unit.io import Cue, Input, Screen


class DriverError(Exception):
    """Root of every error raised by a reader or panel driver."""


class ReaderError(DriverError, OSError):
    """A reader cannot be opened or was lost."""


class ReaderUnavailable(ReaderError):
    """The backend's library or system service is missing; the message says how to fix it."""


class TagError(DriverError, ValueError):
    """A tag cannot be written: full, locked, or not an NFC Forum Type 2 tag."""


class PanelError(DriverError, OSError):
    """A panel cannot be opened or its link was lost."""


@dataclass(frozen=True, slots=True)
class CardPresent:
    """A card is in the field. *ndef* is the raw NDEF message, or None if unreadable/absent."""

    uid: str  # upper-case hex, no separators
    ndef: bytes | None = None
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class CardAbsent:
    """The field is empty (*uid* None: unknown which card left, e.g. the reader was lost)."""

    uid: str | None = None
    at: float = 0.0


Presence = CardPresent | CardAbsent


@runtime_checkable
class ReaderBackend(Protocol):
    """One reader stack. ``run`` blocks, emitting presence, until *stop* is set.

    ``run`` raises :class:`ReaderError` (or any exception) when the device is lost; the
    supervisor then reopens it with backoff.
    """

    path: str

    def run(self, emit: Callable[[Presence], None], stop: threading.Event) -> None: ...

    def wake(self) -> None:
        """Make a blocked ``run`` notice *stop* soon."""
        ...

    def feedback(self, cue: Cue) -> None:
        """Confirm a read on the reader itself (buzzer/LED) where it has them."""
        ...


@runtime_checkable
class Panel(Protocol):
    """A face of the unit: shows screens, plays cues, posts button inputs."""

    def start(self, post: Callable[[Input], None]) -> None:
        """Begin posting inputs (buttons, and for emulators card clicks) through *post*."""
        ...

    def show(self, screen: Screen) -> None: ...

    def play(self, cue: Cue) -> None: ...

    def close(self) -> None: ...
