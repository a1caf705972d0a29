"""Card enrolment and tag writing: ``ultibank enroll`` and ``ultibank write-card``.

Enrolment walks a player through tapping every card of the game, one prompt at a time, and
writes the deck file (UID → card) after each card, so an interrupted enrolment loses nothing
and resumes where it stopped. It reads through the same supervised, debounced reader as the
game, so an unplugged reader is reported and waited for. Imports ``drivers`` and the unit's
I/O types only.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from bank.unit.io import CardId, CardTapped, Cue, Icon, Input, ReaderStatus, Screen
from drivers.base import Panel, ReaderBackend, ReaderError, TagError
from drivers.deck import Deck, all_cards, default_cards, load_deck
from drivers.registry import open_reader
from drivers.supervisor import ReaderService


def describe(card: CardId) -> str:
    """How the prompt names a card: ``bank card 2 (helicopter)``, ``property 16``, ``event 7``."""
    if card.kind == "bank":
        return f"bank card {card.number} ({default_cards().token(card.number)})"
    return f"{'property' if card.kind == 'prop' else 'event'} card {card.number}"


def prompt_screen(card: CardId, step: int, total: int) -> Screen:
    """The LCD's prompt for one card: what to tap, and how far along enrolment is."""
    if card.kind == "bank":
        return Screen(
            "enroll", (f"Tap bank card {card.number}", f"{step}/{total}"),
            token=default_cards().token(card.number),
        )  # fmt: skip
    what = "property" if card.kind == "prop" else "event"
    icons = frozenset({Icon.EVENT}) if card.kind == "event" else frozenset()
    return Screen(
        "enroll", (f"Tap {what} {card.number}", f"{step}/{total}"),
        number=card.number if card.kind == "prop" else None, icons=icons,
    )  # fmt: skip


def plan(deck: Deck, only: Iterable[str] | None = None) -> list[CardId]:
    """The cards still to enroll: all of them (or *only*), minus those the deck knows."""
    wanted = [CardId.parse(c, default_cards()) for c in only] if only else list(all_cards())
    return [c for c in wanted if deck.uid_for(c) is None]


def enroll(
    reader: str | ReaderBackend,
    deck_path: Path,
    *,
    only: Iterable[str] | None = None,
    say: Callable[[str], None] = print,
    card_timeout: float | None = None,
    rearm_s: float | None = None,
    panels: Iterable[Panel] = (),
) -> int:
    """Prompt for each card, record its UID, save the deck after each one. Returns 0 when done.

    The prompts go to *say* (the terminal) and, as screens and cues, to *panels* (the LCD).
    *rearm_s* None uses the reader's own re-arm time (see :func:`drivers.debounce.backend_rearm`).
    """
    panels = list(panels)

    def show(screen: Screen, cue: Cue | None = None) -> None:
        for panel in panels:
            panel.show(screen)
            if cue is not None:
                panel.play(cue)

    deck = load_deck(deck_path) if deck_path.exists() else Deck(source=str(deck_path))
    todo = plan(deck, only)
    if not todo:
        say(f"every card is already enrolled in {deck_path} ({len(deck)} cards)")
        return 0
    backend = open_reader(reader) if isinstance(reader, str) else reader
    inbox: queue.Queue[Input] = queue.Queue()
    # an empty deck: every tag arrives with its raw UID, nothing is guessed, and every tag is
    # unknown, so the game's "unknown card UID; run ultibank enroll" warning is not logged
    service = ReaderService(
        backend, inbox.put, Deck(), time.monotonic, rearm_s=rearm_s, warn_unknown=False
    )
    service.start()
    say(f"enrolling {len(todo)} cards into {deck_path}; Ctrl-C stops (progress is kept)")
    try:
        for i, card in enumerate(todo, 1):
            say(f"[{i}/{len(todo)}] tap {describe(card)}")
            show(prompt_screen(card, i, len(todo)))
            while True:
                try:
                    inp = inbox.get(timeout=card_timeout)
                except queue.Empty:
                    say(f"no tap for {describe(card)}: stopping; run enroll again to go on")
                    return 1
                if isinstance(inp, ReaderStatus):
                    say("reader back" if inp.connected else f"reader lost: {inp.detail}; waiting")
                    lost = Screen(
                        "reader_lost", ("Reader lost",), icons=frozenset({Icon.READER_LOST})
                    )
                    show(prompt_screen(card, i, len(todo)) if inp.connected else lost)
                    continue
                if not isinstance(inp, CardTapped) or not inp.uid:
                    continue
                known = deck.card_for(inp.uid)
                if known is not None and known != card:
                    say(
                        f"  that tag ({inp.uid}) is already {describe(known)}; tap {describe(card)}"
                    )
                    refused = ("Already enrolled", str(known))
                    show(Screen("error", refused, icons=frozenset({Icon.ERROR})), Cue.ERROR)
                    continue
                deck = deck.assign(inp.uid, card)
                deck.save(deck_path)
                say(f"  {describe(card)} = {inp.uid}")
                show(Screen("enrolled", (str(card), inp.uid)), Cue.READ)
                break
    finally:
        service.stop()
    say(f"done: {len(deck)} cards in {deck_path}")
    show(Screen("enrolled", ("Deck complete", f"{len(deck)} cards")), Cue.KACHING)
    return 0


def write_card(
    reader: str,
    card_name: str,
    *,
    timeout: float = 15.0,
    overwrite: bool = False,
    say: Callable[[str], None] = print,
) -> int:
    """Write *card_name*'s NDEF record onto the blank tag laid on *reader*."""
    card = CardId.parse(card_name, default_cards())
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
