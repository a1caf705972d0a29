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
from typing import ClassVar, Protocol

#: the core's own card kind: bank card *n* is player seat *n*; every other kind (``prop``,
#: ``deed``, ``chance``...) is the edition's to name (``[edition] cards``), for its ruleset
BANK = "bank"
#: a card number travels as one byte (the serial panel protocol); an edition has fewer
MAX_CARD_NUMBER = 255

#: a card kind is 2 to 12 small letters (as an edition file may name one)
_KIND_RE = re.compile(r"^[a-z]{2,12}$")
_CARD_RE = re.compile(r"^([a-z]{2,12}):(\w+)$")


@dataclass(frozen=True, slots=True, order=True)
class CardId:
    """A card's identity in the game: ``bank:2``, ``prop:16``, ``event:7``, ``deed:12``.

    Any number 1..255 of a card kind (2 to 12 small letters) is an identity; which kinds and
    numbers a game has is its edition's to say (:class:`CardRanges`): the core knows only the
    bank cards, and a ruleset brings its own kinds through its editions.
    """

    kind: str
    number: int

    def __post_init__(self) -> None:
        if not _KIND_RE.match(self.kind):
            raise ValueError(f"unknown card kind {self.kind!r}")
        if not 1 <= self.number <= MAX_CARD_NUMBER:
            raise ValueError(f"{self.kind} cards run 1..{MAX_CARD_NUMBER}, not {self.number}")

    def __str__(self) -> str:
        return f"{self.kind}:{self.number}"

    @classmethod
    def parse(cls, text: str, cards: CardRanges | None = None) -> CardId:
        """Parse ``bank:2``, ``prop:16``, ``event:7`` or, with *cards*, ``bank:boat``.

        With *cards* the kind must be one of the game's (or another edition's, *cards*'
        foreign kinds) and the number one of the game's (ValueError otherwise).
        """
        m = _CARD_RE.match(text.strip().lower())
        known = cards.known_kinds() if cards is not None else None
        if not m or (known is not None and m.group(1) not in known):
            kind, _, num = text.strip().lower().partition(":")
            names = known or (BANK,)
            hint = _close(kind, names)
            hint = f"; did you mean {hint}:{num}?" if hint and num else ""
            forms = [f"{k}:N" for k in names]
            expected = ", ".join(forms[:-1]) + f" or {forms[-1]}" if len(forms) > 1 else forms[0]
            raise ValueError(f"not a card name: {text!r}{hint} (expected {expected})")
        kind, num = m.groups()
        if cards is not None and kind == BANK and num in cards.tokens:
            return cls(BANK, cards.tokens.index(num) + 1)
        if not num.isdigit():
            token = _close(num, cards.tokens) if cards is not None and kind == BANK else None
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


@dataclass(frozen=True, slots=True, init=False)
class CardRanges:
    """The cards one game has, from its edition: how many of each kind, and the tokens.

    Bank card *n* is the player seat *n* and carries token ``tokens[n - 1]``; an edition may
    seat up to 8 (the Ultime ones seat 4, the classic ones 8). A game has the kinds its
    edition names (``prop``/``event`` for Ultime, ``deed``/``chance``/``chest`` for classic, any
    other for another ruleset); the kinds of other editions are *foreign*: a script line naming
    one parses within the range *foreign* gives it, and the unit refuses the card as one of
    another edition. Built as ``CardRanges(bank=8, tokens=(...), deed=28, chance=16)``.
    """

    bank: int
    #: (kind, count) of the game's kinds besides the bank cards, in the edition's order
    kinds: tuple[tuple[str, int], ...]
    tokens: tuple[str, ...]
    #: (kind, count) of the other editions' kinds, for parsing only
    foreign: tuple[tuple[str, int], ...]

    def __init__(
        self,
        bank: int,
        kinds: Iterable[tuple[str, int]] = (),
        tokens: tuple[str, ...] = (),
        foreign: tuple[tuple[str, int], ...] = (),
        **counts: int,
    ) -> None:
        own = dict(kinds)
        own.update(counts)
        for kind in own:
            if not _KIND_RE.match(kind) or kind == BANK:
                raise ValueError(f"unknown card kind {kind!r}")
        object.__setattr__(self, "bank", bank)
        object.__setattr__(self, "kinds", tuple((k, n) for k, n in own.items() if n))
        object.__setattr__(self, "tokens", tuple(tokens))
        object.__setattr__(self, "foreign", tuple(foreign))

    @classmethod
    def of(cls, edition: EditionCards) -> CardRanges:
        counts = dict(edition.card_counts)
        bank = counts.pop(BANK)
        return cls(bank, tuple(counts.items()), edition.token_names)

    def count(self, kind: str) -> int:
        """How many cards of *kind* the game has."""
        if kind == BANK:
            return self.bank
        return dict(self.kinds).get(kind, 0)

    def kind_names(self) -> tuple[str, ...]:
        """The game's card kinds, the bank cards first, in the edition's order."""
        return (BANK, *(k for k, _ in self.kinds))

    def known_kinds(self) -> tuple[str, ...]:
        """The kinds a card name may have for this game: its own, then the foreign ones."""
        own = self.kind_names()
        return own + tuple(k for k, _ in self.foreign if k not in own)

    def parse_count(self, kind: str) -> int:
        """The range a script line's *kind* parses in: the game's, else the foreign one."""
        return self.count(kind) or dict(self.foreign).get(kind, 0)

    def foreign_kind(self, card: CardId) -> bool:
        """Whether *card* is of a kind this game does not have (another edition's card)."""
        return card.kind != BANK and self.count(card.kind) == 0

    def fits(self, card: CardId) -> bool:
        """Whether *card* is one of this game's cards."""
        return card.number <= self.count(card.kind)

    def check(self, card: CardId) -> CardId:
        """*card*, or ValueError naming the range when the game has no such card."""
        if not self.fits(card):
            raise ValueError(f"{card.kind} cards run 1..{self.count(card.kind)}, not {card.number}")
        return card

    def cards(self) -> Iterator[CardId]:
        """Every card of the game, in card order (bank, then the edition's kinds)."""
        for kind in self.kind_names():
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
    """A keyboard panel asks an info screen by name: one of the ruleset's (:attr:`Labels.info`,
    the classic ``table``, ``turn``, ...)."""

    at: float
    name: str


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


class _IconSet(type):
    """Iterating :class:`Icon` gives the icons the core names (every panel has a drawing of
    each); a ruleset's other icons come with their art (:class:`IconArt`)."""

    def __iter__(cls) -> Iterator[Icon]:
        return iter(_NAMED)

    def __len__(cls) -> int:
        return len(_NAMED)


@dataclass(frozen=True, slots=True, order=True)
class Icon(metaclass=_IconSet):
    """A pictogram of the LCD, by name: an open set. The icons every panel draws by itself
    are named here (``Icon.GO``...); a ruleset may light any other, ``Icon("star")``, and gives
    the panels its art in its panel vocabulary (:attr:`Labels.icons`)."""

    value: str

    GO: ClassVar[Icon]
    JAIL: ClassVar[Icon]
    LOCATION: ClassVar[Icon]
    AUCTION: ClassVar[Icon]
    UNDO: ClassVar[Icon]
    TROPHY: ClassVar[Icon]
    EVENT: ClassVar[Icon]
    DEBT: ClassVar[Icon]
    ERROR: ClassVar[Icon]
    READER_LOST: ClassVar[Icon]
    MORTGAGE: ClassVar[Icon]
    TAX: ClassVar[Icon]
    DICE: ClassVar[Icon]
    TRADE: ClassVar[Icon]
    POT: ClassVar[Icon]
    CARD: ClassVar[Icon]
    SKYSCRAPER: ClassVar[Icon]
    DEPOT: ClassVar[Icon]
    FORCE: ClassVar[Icon]
    KEYPAD: ClassVar[Icon]

    def __post_init__(self) -> None:
        if not re.match(r"^[a-z][a-z_]{1,15}$", self.value):
            raise ValueError(f"an icon's name is 2 to 16 small letters, not {self.value!r}")

    @property
    def name(self) -> str:
        """The upper-case name (``READER_LOST``), as an Enum member would have it."""
        return self.value.upper()

    def __repr__(self) -> str:
        return f"Icon.{self.name}"


#: the icons the panels draw by themselves, in the order of the glass (the drawings of the
#: first ten are on every unit's glass; the others light only when a ruleset uses them)
_NAMED: tuple[Icon, ...] = tuple(
    Icon(n)
    for n in (
        "go", "jail", "location", "auction", "undo", "trophy", "event", "debt", "error",
        "reader_lost",
        # classic (docs/classic.md §5.5)
        "mortgage", "tax", "dice", "trade", "pot", "card",
        # Méga and Star Wars (docs/classic.md §5.5, §7)
        "skyscraper", "depot", "force",
        # classic: a number entry is open (the keypad, or the three buttons, types a number)
        "keypad",
    )
)  # fmt: skip
for _icon in _NAMED:
    setattr(Icon, _icon.name, _icon)


@dataclass(frozen=True, slots=True)
class IconArt:
    """How a panel shows an icon it has no drawing of its own for: a bitmap (rows of ``#``
    for a lit dot, ``.`` for a dark one) and a short word for character LCDs, by language."""

    icon: Icon
    rows: tuple[str, ...]
    words: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not self.rows or len({len(r) for r in self.rows}) != 1 or len(self.rows) > 32:
            raise ValueError(f"icon {self.icon.value}: rows of one width, 1 to 32 of them")

    def word(self, lang: str) -> str:
        """The icon's word in *lang* (English, else its name in capitals, when none)."""
        words = dict(self.words)
        return words.get(lang) or words.get("en") or self.icon.name


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
class Tray:
    """The cards on the emulator's table when the ruleset lays them out itself (the keypad
    window), as data the window draws without knowing the ruleset: the cards of one kind in
    columns (one column per group in the edition's order), the decks whose cards lie on the
    table and their colours, what hovering a card says, the name on a card's big face and a
    bank card's mark (a side, ``light`` or ``dark``). The decks' titles are the
    :class:`Labels`' ``decks``."""

    #: the kind of the cards laid out in columns and the columns, card numbers
    column_kind: str
    columns: tuple[tuple[int, ...], ...]
    #: the decks whose cards the table shows, in order (none: no deck lies on the table)
    decks: tuple[str, ...] = ()
    #: what hovering a card says: one line, or several (a title card: name, rents, costs)
    hover: Mapping[CardId, tuple[str, ...]] = field(default_factory=dict)
    #: the name on a card's big face (a property's name, a printed card's title)
    names: Mapping[CardId, str] = field(default_factory=dict)
    #: bank card number -> its mark (``light``, ``dark``)
    marks: Mapping[int, str] = field(default_factory=dict)
    #: deck kind -> the colour of its cards' backs (``#rrggbb``)
    colours: Mapping[str, str] = field(default_factory=dict)
    #: a bank card's mark -> the colours of its disc (ring, core), ``#rrggbb``
    mark_colours: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: the title over the columns (in capitals as the table writes it)
    column_title: str = ""
    #: the screens during which the window's Backspace is the keypad's ⌫ (an entry open on the
    #: LCD), else it is X
    entry_screens: frozenset[str] = frozenset()

    def describe(self, card: CardId) -> tuple[str, ...]:
        """What hovering *card* says (its name when the ruleset gives no line)."""
        return self.hover.get(card) or (str(card),)


@dataclass(frozen=True, slots=True)
class LetterKey:
    """A letter a keyboard panel binds to one of the ruleset's gestures: ask the info screen
    *info*, open menu item *menu*, or press *button*. *words*: what the panel's help says it
    does, in the game's language; *shift*: the letter with Shift; *label*: how the help writes
    the key (``Maj+V``; empty: the letter in capitals); *listed* False keeps it out of the help
    (a second key of a gesture listed already); *row*: the line of the terminal's help it is
    listed on; *early*: listed with the window's card keys rather than after its own keys."""

    letter: str
    words: str = ""
    info: str = ""
    menu: int = 0
    button: Button | None = None
    shift: bool = False
    label: str = ""
    listed: bool = True
    row: int = 0
    early: bool = False


@dataclass(frozen=True, slots=True)
class TitleLayout:
    """How a character LCD of 4 rows or more lays out a title card (a property's screen: the
    screens named *screen*, the card landed on or tapped, and *check*, a look at it, that
    carry a card number and two lines): its first line, its owner's label and buildings, its
    rent, then a hint of what the next gesture does. *words* are the layout's words in the
    game's language: ``house``, ``houses`` (``{n}``), ``hotel``, ``skyscraper``, ``depot``,
    ``bare``, ``mortgaged``, ``for_sale``, ``rent`` (``{money}``), ``hint.owned``,
    ``hint.unowned``, ``hint.check`` (the hint under *check*)."""

    screen: str
    check: str
    words: Mapping[str, str]

    def word(self, key: str, **fields: object) -> str:
        return self.words[key].format(**fields)

    def hint(self, screen: Screen) -> str | None:
        """The hint row under a title card (what the next gesture does), the same on every
        panel that has the row for it; None for any other screen."""
        if not self.shows(screen):
            return None
        if screen.name == self.check:
            key = "hint.check"
        elif screen.token is None:
            key = "hint.unowned"
        else:
            rent = screen.amount is not None and Icon.MORTGAGE not in screen.icons
            key = "hint.owned" if rent or screen.amount is None else "hint.check"
        return self.word(key)

    def shows(self, screen: Screen) -> bool:
        """Whether *screen* is a title card of this layout."""
        named = screen.name in (self.screen, self.check)
        return named and screen.number is not None and len(screen.lines) == 2


@dataclass(frozen=True, slots=True)
class Labels:
    """A ruleset's panel vocabulary for one game: what a panel names and draws from the game,
    as data, so that no panel knows a ruleset. The ruleset fills it in (its ``labels`` hook;
    the wiring asks it and hands it to the panels): each token's LCD label (``dog`` ->
    ``chien``), the currency as the unit writes it, the names of its card kinds (``chest`` ->
    ``Caisse de communauté``...), and how its panels work:

    - *keypad*: the game is played with the keypad (keyboard panels send digits as keypad keys
      and ⌫, and type a bank card with a letter); *info*: the info screens its unit shows
      (:class:`InfoAsked`);
    - *fitted_lines*: the unit writes each text line for a 20-cell row, so a panel squeezes a
      line onto one row rather than wrapping it, and a 2-row LCD shows both text lines rather
      than a status row; *title*: a title card's own layout on a 4-row LCD (:class:`TitleLayout`);
    - *keys*: the terminal's letter for each of the game's card kinds the panel has no key of
      its own for (``c`` -> ``coin``), *nouns* how a refusal names a card of a kind (``deed``,
      ``carte Chance``); *info_keys*, *window_keys*: the letters of the terminal and of the
      emulator's window for the ruleset's gestures (:class:`LetterKey`); *words*: the
      window's words for the ruleset's typed cards (``typed.key``, ``typed.help``,
      ``typed.status``);
    - for the help: the faces of the unit's third die as the unit names them, the menu items
      the ruleset adds, by number (``14`` -> ``Force``), and *menu_example*, an item the
      help gives as an example (``(11, "the dice")``);
    - *icons*: the art of the icons the ruleset lights besides the ones every panel draws
      (:class:`IconArt`); *tray*: the cards on the emulator's table when the ruleset lays them
      out itself (:class:`Tray`; None: the window's own tray of bank, property and event
      cards); *property_kind*: the card kind that names the board's properties when it is not
      the core's ``prop`` (enrolment prompts show its cards' titles); *spoken*: the ruleset's
      screens a voice says when the input committed no transaction (a player acts on them)."""

    lang: str = "en"
    tokens: Mapping[str, str] = field(default_factory=dict)
    currency: str = ""
    decks: Mapping[str, str] = field(default_factory=dict)
    keypad: bool = False
    info: tuple[str, ...] = ()
    fitted_lines: bool = False
    title: TitleLayout | None = None
    third_die: tuple[str, ...] = ()
    menu: Mapping[int, str] = field(default_factory=dict)
    menu_example: tuple[int, str] | None = None
    icons: tuple[IconArt, ...] = ()
    keys: Mapping[str, str] = field(default_factory=dict)
    nouns: Mapping[str, str] = field(default_factory=dict)
    info_keys: tuple[LetterKey, ...] = ()
    window_keys: tuple[LetterKey, ...] = ()
    words: Mapping[str, str] = field(default_factory=dict)
    tray: Tray | None = None
    property_kind: str = ""
    spoken: frozenset[str] = frozenset()

    def token(self, token: str) -> str:
        """*token*'s label (its id when the edition names none)."""
        return self.tokens.get(token, token)

    def art(self, icon: Icon) -> IconArt | None:
        """The ruleset's art of *icon*, if it gives one."""
        return next((a for a in self.icons if a.icon == icon), None)


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
