"""Card enrolment and tag writing: ``ultibank enroll`` and ``ultibank write-card``.

Enrolment walks a player through tapping every card of an edition, one prompt at a time, and
writes the deck file (UID → card) after each card, so an interrupted enrolment loses nothing
and resumes where it stopped. It reads through the same supervised, debounced reader as the
game, so an unplugged reader is reported and waited for.

The cards come from the edition (:class:`DeckCards`): the Ultime deck is 4 bank cards, 22
properties and 23 events; a classic deck is the edition's 8 bank cards, its deeds (28; Méga
37), and 16 Chance and 16 Community Chest cards (docs/classic.md §1.3: 68 tags), named as the
player sees them (``deed 12 (Avenue Mozart)``, ``Caisse de communauté 3``). A tag is refused,
and the prompt stays, when the deck already holds it as another card, or when it carries the
record (``ultibank write-card``) of another card: of this edition (``written as deed:3``) or
of another one (``Carte d'une autre édition`` on the LCD, as the unit says in a game).

Imports ``drivers``, the unit's I/O types and words (``bank.unit.io``, ``bank.unit.text``),
``board_assets`` (an edition's names) and the standard library.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bank.unit.io import (
    BANK,
    CardId,
    CardRanges,
    CardTapped,
    Cue,
    Icon,
    Input,
    ReaderStatus,
    Screen,
)
from bank.unit.text import LCD_WIDTH, fit, language_of, short_name
from bank.unit.text import say as say_lcd
from board_assets import Edition
from drivers.base import DriverError, Panel, ReaderBackend, ReaderError, TagError
from drivers.deck import Deck, load_deck, record_cards, with_foreign
from drivers.registry import open_reader
from drivers.supervisor import ReaderService


class CardNameError(DriverError, ValueError):
    """A card name that is not one of the edition's cards; the message says which ones are."""


@dataclass(frozen=True, slots=True)
class DeckCards:
    """The cards of an edition, as enrolment walks through them and names them."""

    edition: str
    cards: CardRanges
    #: a card's printed name: a property's or deed's (``Avenue Mozart``), a bank card's token
    titles: Mapping[CardId, str] = field(default_factory=dict)
    #: the name each deck of cards has in the edition (``chest``: ``Caisse de communauté``):
    #: its ruleset's decks, prompted by their names
    decks: Mapping[str, str] = field(default_factory=dict)
    #: the LCD's language for the unit's own words (``fr`` or ``en``)
    language: str = "en"
    #: the kind of the cards that name the board's properties when its ruleset has its own
    #: (their prompts show the property's name); empty: the core's property cards
    titled: str = ""

    @classmethod
    def of(
        cls,
        edition: Edition,
        *,
        decks: Mapping[str, str] | None = None,
        token_labels: Iterable[str] = (),
        titled: str = "",
    ) -> DeckCards:
        """The cards of *edition*; *decks*, *token_labels* and *titled* are what its ruleset
        calls its decks and players and the kind of its property cards (its panel vocabulary),
        when it does."""
        cards = CardRanges.of(edition)
        kind = titled if titled and cards.count(titled) else "prop"
        titles = {CardId(kind, p.number): p.name for p in edition.properties}
        labels = tuple(token_labels) or cards.tokens
        titles.update({CardId(BANK, n): t for n, t in enumerate(labels, 1) if n <= cards.bank})
        language = language_of(None, edition.language)
        return cls(edition.id, cards, titles, dict(decks or {}), language, kind)

    def describe(self, card: CardId) -> str:
        """How a prompt names *card*: ``bank card 2 (chien)``, ``deed 12 (Avenue Mozart)``,
        ``Caisse de communauté 3``, ``property card 16 (…)``, ``event card 7``."""
        title = self.titles.get(card) if self.cards.fits(card) else None
        named = f" ({title})" if title else ""
        if card.kind in self.decks:
            return f"{self.deck_name(card.kind)} {card.number}"
        what = {"bank": "bank card", "prop": "property card", "event": "event card"}
        return f"{what.get(card.kind, card.kind)} {card.number}{named}"

    def deck_name(self, kind: str) -> str:
        return self.decks.get(kind) or kind

    def parse(self, text: str) -> CardId:
        """The card *text* names, if the edition has it; CardNameError in one line if not."""
        kind, _, name = text.strip().lower().partition(":")
        if kind == "bank" and name and not name.isdigit() and name not in self.cards.tokens:
            raise CardNameError(
                f"{text.strip()}: {self.edition} has no token {name!r} "
                f"(bank:1 to bank:{self.cards.bank}, or {', '.join(self.cards.tokens)})"
            )
        try:
            card = CardId.parse(text, with_foreign(self.cards))
        except ValueError as err:
            raise CardNameError(f"{text.strip()}: {err}") from None
        if self.cards.foreign_kind(card):  # in range: the parse checked the edition's ranges
            kinds = (f"{k}:1-{self.cards.count(k)}" for k in self.cards.kind_names())
            raise CardNameError(
                f"{text.strip()}: not a card of {self.edition}, whose cards are "
                f"{', '.join(kinds)} (choose the edition with --edition)"
            )
        return card


def default_deck_cards() -> DeckCards:
    """The default edition's cards (what ``enroll`` walks without an edition)."""
    from board_assets import load_edition

    return DeckCards.of(load_edition())


def _with_number(text: str, number: int) -> str:
    """*text* then *number*, cut so that the number always shows on one LCD line."""
    tail = f" {number}"
    return fit(text, LCD_WIDTH - len(tail)) + tail


def prompt_screen(card: CardId, step: int, total: int, deck: DeckCards | None = None) -> Screen:
    """The LCD's prompt for one card: what to tap, and how far along enrolment is."""
    deck = deck or default_deck_cards()
    progress = f"{step}/{total}"
    if card.kind == BANK:
        return Screen(
            "enroll", (f"Tap bank card {card.number}", progress),
            token=deck.cards.token(card.number),
        )  # fmt: skip
    if card.kind in deck.decks:
        line = _with_number(f"Tap {deck.deck_name(card.kind)}", card.number)
        return Screen("enroll", (line, progress), number=card.number, icons=frozenset({Icon.CARD}))
    if card.kind == deck.titled and card.kind != "prop":
        title = deck.titles.get(card, "")
        second = f"{progress} {short_name(title, LCD_WIDTH - len(progress) - 1)}".rstrip()
        return Screen("enroll", (f"Tap {card.kind} {card.number}", second), number=card.number)
    what = "property" if card.kind == "prop" else "event"
    icons = frozenset({Icon.EVENT}) if card.kind == "event" else frozenset()
    return Screen(
        "enroll", (f"Tap {what} {card.number}", progress),
        number=card.number if card.kind == "prop" else None, icons=icons,
    )  # fmt: skip


def wanted(only: Iterable[str] | None = None, cards: DeckCards | None = None) -> list[CardId]:
    """The cards asked for: all the edition's, in card order, or *only* those (CardNameError
    for a card the edition does not have)."""
    cards = cards or default_deck_cards()
    return [cards.parse(c) for c in only] if only else list(cards.cards.cards())


def plan(
    deck: Deck, only: Iterable[str] | None = None, cards: DeckCards | None = None
) -> list[CardId]:
    """The cards still to enroll: all of them (or *only*), minus those the deck knows."""
    return [c for c in wanted(only, cards) if deck.uid_for(c) is None]


def enroll(
    reader: str | ReaderBackend,
    deck_path: Path,
    *,
    only: Iterable[str] | None = None,
    say: Callable[[str], None] = print,
    card_timeout: float | None = None,
    rearm_s: float | None = None,
    panels: Iterable[Panel] = (),
    cards: DeckCards | None = None,
) -> int:
    """Prompt for each card, record its UID, save the deck after each one. Returns 0 when done.

    *cards* are the edition's (default: the default edition's). The prompts go to *say* (the
    terminal) and, as screens and cues, to *panels* (the LCD). *rearm_s* None uses the
    reader's own re-arm time (see :func:`drivers.debounce.backend_rearm`).
    """
    cards = cards or default_deck_cards()
    panels = list(panels)

    def show(screen: Screen, cue: Cue | None = None) -> None:
        for panel in panels:
            panel.show(screen)
            if cue is not None:
                panel.play(cue)

    # the deck file may also hold another edition's tags (one file for every box one owns)
    deck = (
        load_deck(deck_path, with_foreign(cards.cards))
        if deck_path.exists()
        else Deck(source=str(deck_path))
    )
    asked = wanted(only, cards)
    todo = [c for c in asked if deck.uid_for(c) is None]
    if not todo:
        say(f"every card is already enrolled in {deck_path} ({len(deck)} cards)")
        return 0
    done = len(asked) - len(todo)
    backend = open_reader(reader) if isinstance(reader, str) else reader
    inbox: queue.Queue[Input] = queue.Queue()
    # an empty deck: every tag arrives with its raw UID and the card its record names, if
    # any, and the "unknown card UID; run ultibank enroll" warning is not logged
    service = ReaderService(
        backend, inbox.put, Deck(), time.monotonic, rearm_s=rearm_s, warn_unknown=False
    )
    service.start()
    say(
        f"enrolling {len(todo)} card{'s' if len(todo) != 1 else ''} of {cards.edition} "
        f"into {deck_path}"
        + (f" ({done} already there)" if done else "")
        + "; Ctrl-C stops (progress is kept)"
    )
    reader_up = True  # as far as anyone was told: only a change is said
    try:
        for i, card in enumerate(todo, done + 1):
            prompt = prompt_screen(card, i, len(asked), cards)
            say(f"[{i}/{len(asked)}] tap {cards.describe(card)}")
            show(prompt)
            while True:
                try:
                    inp = inbox.get(timeout=card_timeout)
                except queue.Empty:
                    say(f"no tap for {cards.describe(card)}: stopping; run enroll again to go on")
                    return 1
                if isinstance(inp, ReaderStatus):
                    if inp.connected == reader_up:
                        continue  # the service's first word (the reader is there): no news
                    reader_up = inp.connected
                    say("reader back" if inp.connected else f"reader lost: {inp.detail}; waiting")
                    lost = Screen(
                        "reader_lost", ("Reader lost",), icons=frozenset({Icon.READER_LOST})
                    )
                    show(prompt if inp.connected else lost)
                    continue
                if not isinstance(inp, CardTapped) or not inp.uid:
                    continue
                refusal = _refusal(inp, card, deck, cards)
                if refusal is not None:
                    said, lines = refusal
                    say(f"  that tag ({inp.uid}) {said}; tap {cards.describe(card)}")
                    show(Screen("error", lines, icons=frozenset({Icon.ERROR})), Cue.ERROR)
                    continue
                deck = deck.assign(inp.uid, card)
                deck.save(deck_path)
                say(f"  {cards.describe(card)} = {inp.uid}")
                show(Screen("enrolled", (str(card), inp.uid)), Cue.READ)
                break
    finally:
        service.stop()
    say(f"done: {len(deck)} cards in {deck_path}")
    show(Screen("enrolled", ("Deck complete", f"{len(deck)} cards")), Cue.KACHING)
    return 0


def _refusal(
    tap: CardTapped, card: CardId, deck: Deck, cards: DeckCards
) -> tuple[str, tuple[str, ...]] | None:
    """Why the tag tapped cannot become *card* (what to say, the LCD's lines), or None."""
    known = deck.card_for(tap.uid)
    if known is not None and known != card:
        other = " (a card of another edition)" if cards.cards.foreign_kind(known) else ""
        return f"is already {cards.describe(known)}{other}", ("Already enrolled", str(known))
    written = tap.card  # the card the tag's record names (the enrolment deck is empty)
    if written is None or written == card:
        return None
    if cards.cards.foreign_kind(written) or not cards.cards.fits(written):
        lang = cards.language
        return (
            f"carries the record of {written}, a card of another edition "
            f"(rewrite it with `ultibank write-card {card} --overwrite` to use it here)",
            (say_lcd(lang, "err.other_edition.1"), say_lcd(lang, "err.other_edition.2")),
        )
    return (
        f"carries the record of {cards.describe(written)}; lay it aside for that "
        f"card, or rewrite it with `ultibank write-card {card} --overwrite`",
        ("Written as", str(written)),
    )


def write_card(
    reader: str,
    card_name: str,
    *,
    timeout: float = 15.0,
    overwrite: bool = False,
    say: Callable[[str], None] = print,
    cards: DeckCards | None = None,
) -> int:
    """Write *card_name*'s NDEF record onto the blank tag laid on *reader*.

    The card must be one of *cards* (an edition's) when given, else of any shipped edition
    (one ``deed:12`` tag serves every 40-space classic edition): CardNameError otherwise,
    before anything is asked of the reader."""
    if cards is not None:
        card = cards.parse(card_name)
    else:
        try:
            card = CardId.parse(card_name, record_cards())
        except ValueError as err:
            raise CardNameError(f"{card_name.strip()}: {err}") from None
    scheme = reader.split(":", 1)[0].lower()
    if scheme not in ("pcsc", "usb", "tty", "udp", "com"):  # before asking for a tag
        raise ReaderError(f"cannot write tags through {reader!r}: use pcsc, usb, tty:... or udp")
    say(f"lay a blank NTAG213/215/216 tag on the reader ({reader}) to write {card}…")
    try:
        if scheme == "pcsc":
            from drivers import pcsc

            uid = pcsc.write_card(card, reader, timeout=timeout, overwrite=overwrite)
        else:
            from drivers import nfcpy_reader

            uid = nfcpy_reader.write_card(card, reader, timeout=timeout, overwrite=overwrite)
    except TagError as err:
        say(f"refused: {err}")
        return 1
    say(f"wrote {card} on tag {uid}")
    return 0
