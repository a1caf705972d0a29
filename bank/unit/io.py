"""The unit's inputs and outputs: the types readers, panels and the behaviour share.

Readers and panels (``drivers/``, ``firmware_sim/``) import this module and nothing else of
the bank. Inputs are timestamped by the daemon's clock (seconds, float, monotonic or
virtual); outputs are a screen model and sound cues, never pixels.
Imports only the standard library.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

CARD_KINDS = ("bank", "prop", "event")
#: the highest number of each card kind in the game
CARD_COUNTS = {"bank": 4, "prop": 22, "event": 23}
TOKENS = ("car", "helicopter", "boat", "jet")

_CARD_RE = re.compile(r"^(bank|prop|event):(\w+)$")


@dataclass(frozen=True, slots=True, order=True)
class CardId:
    """A card's identity in the game: ``bank:2``, ``prop:16``, ``event:7``."""

    kind: str
    number: int

    def __post_init__(self) -> None:
        if self.kind not in CARD_KINDS:
            raise ValueError(f"unknown card kind {self.kind!r}")
        if not 1 <= self.number <= CARD_COUNTS[self.kind]:
            raise ValueError(
                f"{self.kind} cards run 1..{CARD_COUNTS[self.kind]}, not {self.number}"
            )

    def __str__(self) -> str:
        return f"{self.kind}:{self.number}"

    @classmethod
    def parse(cls, text: str) -> CardId:
        """Parse ``bank:2``, ``bank:boat``, ``prop:16`` or ``event:7``; ValueError otherwise."""
        m = _CARD_RE.match(text.strip().lower())
        if not m:
            raise ValueError(f"not a card name: {text!r} (expected bank:N, prop:N or event:N)")
        kind, num = m.groups()
        if kind == "bank" and num in TOKENS:
            return cls("bank", TOKENS.index(num) + 1)
        if not num.isdigit():
            raise ValueError(f"not a card number: {text!r}")
        return cls(kind, int(num))


class Button(Enum):
    OK = "ok"  # ✓
    MENU = "menu"  # M
    CANCEL = "cancel"  # X


# ---------------------------------------------------------------- inputs


@dataclass(frozen=True, slots=True)
class CardTapped:
    """One physical tap. *card* is None when the UID is not in the deck."""

    at: float
    card: CardId | None
    uid: str = ""
    reader: str = ""


@dataclass(frozen=True, slots=True)
class CardLifted:
    at: float
    uid: str = ""
    reader: str = ""


@dataclass(frozen=True, slots=True)
class ButtonPressed:
    at: float
    button: Button


@dataclass(frozen=True, slots=True)
class ButtonReleased:
    at: float
    button: Button


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passes; the behaviour runs every timeout due by *at*."""

    at: float


@dataclass(frozen=True, slots=True)
class ReaderStatus:
    """A reader was lost or came back (the supervisor reports it)."""

    at: float
    connected: bool
    reader: str = ""
    detail: str = ""


@dataclass(frozen=True, slots=True)
class PanelStatus:
    """A panel link (serial front panel) was lost or came back."""

    at: float
    connected: bool
    panel: str = ""
    detail: str = ""


Input = CardTapped | CardLifted | ButtonPressed | ButtonReleased | Tick | ReaderStatus | PanelStatus

# ---------------------------------------------------------------- outputs


class Icon(Enum):
    GO = "go"
    JAIL = "jail"
    LOCATION = "location"
    AUCTION = "auction"
    UNDO = "undo"
    TROPHY = "trophy"
    EVENT = "event"
    DEBT = "debt"
    ERROR = "error"
    READER_LOST = "reader_lost"


class Cue(Enum):
    READ = "read"
    KACHING = "kaching"
    LEVEL_UP = "level_up"
    ERROR = "error"
    AUCTION_TICK = "auction_tick"
    HAMMER = "hammer"
    UNDO = "undo"
    JAIL = "jail"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Screen:
    """What the LCD shows: a model, rendered by each panel in its own way.

    *name* identifies the screen (``idle``, ``balance``, ``property``, ``error``, ...) for tests
    and renderers; *lines* are the dot-matrix text, already in the unit's language.
    """

    name: str
    lines: tuple[str, ...] = ()
    amount: int | None = None
    number: int | None = None
    token: str | None = None
    level: int | None = None
    icons: frozenset[Icon] = field(default_factory=frozenset)
    countdown: int | None = None
    #: colour of the property's group (``#rrggbb``), for panels that have colour
    colour: str | None = None
    off: bool = False

    def text(self) -> str:
        """One line for transcripts and terminals."""
        parts = [self.name]
        if self.number is not None:
            parts.append(f"#{self.number}")
        if self.token:
            parts.append(f"[{self.token}]")
        if self.level is not None:
            parts.append(f"L{self.level}")
        if self.amount is not None:
            parts.append(f"{self.amount}")
        if self.countdown is not None:
            parts.append(f"{self.countdown}s")
        if self.icons:
            parts.append("{" + ",".join(sorted(i.value for i in self.icons)) + "}")
        if self.lines:
            parts.append("| " + " / ".join(self.lines))
        return " ".join(parts)


@dataclass(frozen=True, slots=True)
class ShowScreen:
    at: float
    screen: Screen


@dataclass(frozen=True, slots=True)
class PlayCue:
    at: float
    cue: Cue


Output = ShowScreen | PlayCue
