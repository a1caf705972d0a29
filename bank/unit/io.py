"""The unit's inputs and outputs: the types readers, panels and the behaviour share.

Readers and panels (``drivers/``, ``firmware_sim/``) import this module and nothing else of
the bank. Card identities are the same for every ruleset; which cards a game has (how many
bank cards, properties and event cards, and the players' tokens) comes from its edition
through :class:`CardRanges`, never from a constant here. Inputs are timestamped by the daemon's
clock (seconds, float, monotonic or virtual); outputs are a screen model and sound cues, never
pixels.
Imports only the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

CARD_KINDS = ("bank", "prop", "event", "deed", "chance", "chest")
#: a card number travels as one byte (the serial panel protocol); an edition has fewer
MAX_CARD_NUMBER = 255

_CARD_RE = re.compile(r"^(bank|prop|event|deed|chance|chest):(\w+)$")


@dataclass(frozen=True, slots=True, order=True)
class CardId:
    """A card's identity in the game: ``bank:2``, ``prop:16``, ``event:7``.

    Any number 1..255 of a known kind is an identity; which ones a game has is its edition's
    to say (:class:`CardRanges`).
    """

    kind: str
    number: int

    def __post_init__(self) -> None:
        if self.kind not in CARD_KINDS:
            raise ValueError(f"unknown card kind {self.kind!r}")
        if not 1 <= self.number <= MAX_CARD_NUMBER:
            raise ValueError(f"{self.kind} cards run 1..{MAX_CARD_NUMBER}, not {self.number}")

    def __str__(self) -> str:
        return f"{self.kind}:{self.number}"

    @classmethod
    def parse(cls, text: str, cards: CardRanges | None = None) -> CardId:
        """Parse ``bank:2``, ``prop:16``, ``event:7`` or, with *cards*, ``bank:boat``.

        With *cards* the number must also be one of the game's (ValueError otherwise).
        """
        m = _CARD_RE.match(text.strip().lower())
        if not m:
            kind, _, num = text.strip().lower().partition(":")
            hint = _close(kind, CARD_KINDS)
            hint = f"; did you mean {hint}:{num}?" if hint and num else ""
            raise ValueError(
                f"not a card name: {text!r}{hint} (expected bank:N, prop:N, event:N, deed:N, "
                "chance:N or chest:N)"
            )
        kind, num = m.groups()
        if cards is not None and kind == "bank" and num in cards.tokens:
            return cls("bank", cards.tokens.index(num) + 1)
        if not num.isdigit():
            token = _close(num, cards.tokens) if cards is not None and kind == "bank" else None
            hint = f"; did you mean bank:{token}?" if token else ""
            raise ValueError(f"not a card number: {text!r}{hint}")
        number = int(num)
        if cards is not None and not 1 <= number <= cards.parse_count(kind):
            raise ValueError(f"{kind} cards run 1..{cards.parse_count(kind)}, not {number}")
        return cls(kind, number)


def _close(word: str, choices: Iterable[str]) -> str | None:
    """The choice closest to a misspelt *word* (a "did you mean"), or None."""
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


class EditionCards(Protocol):
    """What :meth:`CardRanges.of` reads of an edition (:class:`board_assets.Edition`)."""

    @property
    def card_counts(self) -> Mapping[str, int]: ...

    @property
    def token_names(self) -> tuple[str, ...]: ...


@dataclass(frozen=True, slots=True)
class CardRanges:
    """The cards one game has, from its edition: how many of each kind, and the tokens.

    Bank card *n* is the player seat *n* and carries token ``tokens[n - 1]``; an edition may
    seat up to 8 (the Ultime ones seat 4, the classic ones 8). A game has the kinds of its
    ruleset (``prop``/``event`` for Ultime, ``deed``/``chance``/``chest`` for classic); the
    other ruleset's kinds are *foreign*: a script line naming one parses within the range
    *foreign* gives it, and the unit refuses the card as one of another edition.
    """

    bank: int
    prop: int = 0
    event: int = 0
    tokens: tuple[str, ...] = ()
    deed: int = 0
    chance: int = 0
    chest: int = 0
    #: (kind, count) of the other ruleset's kinds, for parsing only
    foreign: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, edition: EditionCards) -> CardRanges:
        counts = edition.card_counts
        return cls(
            counts["bank"],
            counts.get("prop", 0),
            counts.get("event", 0),
            edition.token_names,
            counts.get("deed", 0),
            counts.get("chance", 0),
            counts.get("chest", 0),
        )

    def count(self, kind: str) -> int:
        """How many cards of *kind* the game has."""
        count: int = getattr(self, kind)
        return count

    def parse_count(self, kind: str) -> int:
        """The range a script line's *kind* parses in: the game's, else the foreign one."""
        return self.count(kind) or dict(self.foreign).get(kind, 0)

    def foreign_kind(self, card: CardId) -> bool:
        """Whether *card* is of a kind this game does not have (another edition's card)."""
        return card.kind != "bank" and self.count(card.kind) == 0

    def fits(self, card: CardId) -> bool:
        """Whether *card* is one of this game's cards."""
        return card.number <= self.count(card.kind)

    def check(self, card: CardId) -> CardId:
        """*card*, or ValueError naming the range when the game has no such card."""
        if not self.fits(card):
            raise ValueError(f"{card.kind} cards run 1..{self.count(card.kind)}, not {card.number}")
        return card

    def cards(self) -> Iterator[CardId]:
        """Every card of the game, in card order (bank, prop, event)."""
        for kind in CARD_KINDS:
            for number in range(1, self.count(kind) + 1):
                yield CardId(kind, number)

    def token(self, seat: int) -> str:
        """The token of bank card *seat* (its number when the edition names none)."""
        return self.tokens[seat - 1] if 1 <= seat <= len(self.tokens) else str(seat)


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


#: the keypad's keys (docs/classic.md §5.1): the digits and ⌫
KEYS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "back")


@dataclass(frozen=True, slots=True)
class KeyPressed:
    """A keypad key went down (``0``-``9`` or ``back``); keys act when released."""

    at: float
    key: str


@dataclass(frozen=True, slots=True)
class KeyReleased:
    at: float
    key: str


@dataclass(frozen=True, slots=True)
class InfoAsked:
    """A keyboard panel asks an info screen (docs/classic.md §5.6): ``table``, ``turn``, ..."""

    at: float
    name: str


INFO_NAMES = ("table", "turn", "cash", "deed", "deeds", "others", "scores")


@dataclass(frozen=True, slots=True)
class MenuAsked:
    """A keyboard panel's shortcut to menu item *item* (docs/classic.md §5.6: D is item 11, H
    item 7 ...): what M and the item's digits do from idle, refused where they would not."""

    at: float
    item: int


Input = (
    CardTapped
    | CardLifted
    | ButtonPressed
    | ButtonReleased
    | Tick
    | ReaderStatus
    | PanelStatus
    | KeyPressed
    | KeyReleased
    | InfoAsked
    | MenuAsked
)

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
    # classic (docs/classic.md §5.5)
    MORTGAGE = "mortgage"
    TAX = "tax"
    DICE = "dice"
    TRADE = "trade"
    POT = "pot"
    CARD = "card"
    # Méga and Star Wars (docs/classic.md §5.5, §7)
    SKYSCRAPER = "skyscraper"
    DEPOT = "depot"
    FORCE = "force"
    # classic (docs/classic.md §5.5): a number entry is open (§5.2: the keypad, or the three
    # buttons, is typing a number now)
    KEYPAD = "keypad"


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
    DICE = "dice"


#: the width of :attr:`Screen.wide`'s lines: the emulator's glass (25 cells a row)
WIDE_COLS = 25


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
    #: the same lines written for a glass of :data:`WIDE_COLS` cells (the emulator's), when
    #: they differ from *lines*: the whole words the 20 cells of *lines* shorten or leave out
    #: (``✓garder 10 M lever 110`` for ``✓gard 10 M lev 110``); empty: *lines* serve
    wide: tuple[str, ...] = ()

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


@dataclass(frozen=True, slots=True)
class SpeechAsked:
    """A speech gesture at the table: *what* is ``on`` or ``off`` (hold M: speech switched) or
    ``again`` (hold ✓: say the last sentence again). Panels without a voice ignore it."""

    at: float
    what: str


Output = ShowScreen | PlayCue | SpeechAsked
