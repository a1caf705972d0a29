"""The deck: which tag UID stands for which card (``bank:2``, ``prop:16``, ``event:7``).

A deck file is TOML::

    [info]
    name = "living-room set"

    [cards]
    "04A1B2C3D4E5F6" = "prop:16"
    "04C0FFEE000001" = "bank:boat"

UIDs are hex (4 to 10 bytes; ``:`` or spaces between bytes are allowed and dropped), card names
are those of :meth:`bank.unit.io.CardId.parse`, checked against the cards of an edition (the
default edition's unless one is given: its bank cards, properties and event cards, and its
token names for ``bank:boat``; a classic edition's ``deed:N``, ``chance:N``, ``chest:N``). One
deck file may hold the tags of both rulesets' boxes: loaded for a game with :func:`with_foreign`
ranges, the other ruleset's cards are kept, and the unit refuses them as cards of another
edition. A card may have more than one UID (a spare sticker); a UID names one card only. The
simulated deck gives every card a stable, NTAG-like 7-byte UID derived from its name, so
``tap uid:HEX`` in a script means the same card forever.

Imports ``bank.unit.io``, ``drivers.base``, ``board_assets`` (the default edition's cards) and
the standard library only.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path

from bank.unit.io import BANK, CardId, CardRanges
from board_assets import edition_names, load_edition
from drivers.base import DriverError

_HEX_RE = re.compile(r"^[0-9A-F]+$")
_SEPARATORS = re.compile(r"[:\s-]")
MIN_UID_BYTES = 4
MAX_UID_BYTES = 10


class DeckError(DriverError, ValueError):
    """A deck file or entry is malformed; the message names the file and the line or key."""


def normalize_uid(text: str) -> str:
    """Upper-case hex with no separators; ValueError if *text* is not a 4-10 byte UID."""
    uid = _SEPARATORS.sub("", text).upper()
    if uid.startswith("UID"):
        raise ValueError(f"write the UID without its 'uid:' prefix: {text!r}")
    if not uid or not _HEX_RE.match(uid) or len(uid) % 2:
        raise ValueError(f"not a hex UID: {text!r}")
    if not MIN_UID_BYTES <= len(uid) // 2 <= MAX_UID_BYTES:
        raise ValueError(
            f"a UID has {MIN_UID_BYTES} to {MAX_UID_BYTES} bytes, {text!r} has {len(uid) // 2}"
        )
    return uid


@cache
def default_cards() -> CardRanges:
    """The cards of the default edition (for decks and tools not bound to a game)."""
    return CardRanges.of(load_edition())


@cache
def record_cards() -> CardRanges:
    """The default edition's cards (and its token names), with as many bank cards as the
    largest edition seats and the other rulesets' kinds in the largest range a shipped
    edition gives them: what a tag's record, or a card name outside a game, may name (a game
    then says whether it has that card, or that it is one of another edition)."""
    seats = max(load_edition(name).card_counts["bank"] for name in edition_names())
    cards = default_cards()
    return with_foreign(replace(cards, bank=max(cards.bank, seats)))


def with_foreign(cards: CardRanges) -> CardRanges:
    """*cards* with the kinds they lack in the largest range a shipped edition gives them:
    what a deck or a record may name for a game of *cards* (the other kinds being cards of
    another edition, which the unit refuses as such)."""
    foreign: dict[str, int] = {}
    for name in edition_names():
        for kind, count in load_edition(name).card_counts.items():
            if kind != "bank" and not cards.count(kind):
                foreign[kind] = max(foreign.get(kind, 0), count)
    return replace(cards, foreign=tuple(sorted(foreign.items())))


def all_cards(cards: CardRanges | None = None) -> Iterator[CardId]:
    """Every card of the game (default: the default edition's), in card order."""
    return (cards or default_cards()).cards()


def simulated_uid(card: CardId) -> str:
    """The stable UID the simulated deck gives *card*: ``04`` (NXP) + 6 bytes of a hash."""
    digest = hashlib.sha256(f"ultibank:{card}".encode()).hexdigest()
    return ("04" + digest[:12]).upper()


class Deck:
    """An immutable map between tag UIDs and cards, with optional ``[info]`` strings."""

    __slots__ = ("_by_card", "_by_uid", "info", "source")

    def __init__(
        self,
        cards: Mapping[str, CardId] | None = None,
        info: Mapping[str, str] | None = None,
        source: str = "<deck>",
    ) -> None:
        self.source = source
        self.info: dict[str, str] = dict(info or {})
        self._by_uid: dict[str, CardId] = {}
        self._by_card: dict[CardId, str] = {}
        for raw, card in (cards or {}).items():
            try:
                uid = normalize_uid(raw)
            except ValueError as err:
                raise DeckError(f"{source}: {err}") from err
            if uid in self._by_uid:
                raise DeckError(f"{source}: duplicate UID {uid}")
            self._by_uid[uid] = card
            self._by_card.setdefault(card, uid)

    def card_for(self, uid: str) -> CardId | None:
        """The card a UID stands for, or None when the deck does not know it."""
        try:
            return self._by_uid.get(normalize_uid(uid))
        except ValueError:
            return None

    def uid_for(self, card: CardId) -> str | None:
        """The (first) UID of *card*, or None when no tag was enrolled for it."""
        return self._by_card.get(card)

    def assign(self, uid: str, card: CardId, *, replace: bool = True) -> Deck:
        """A copy with *uid* naming *card*; with *replace*, the card's other UIDs are dropped."""
        try:
            key = normalize_uid(uid)
        except ValueError as err:
            raise DeckError(f"{self.source}: {err}") from err
        cards = {u: c for u, c in self._by_uid.items() if u != key and not (replace and c == card)}
        cards[key] = card
        return Deck(cards, self.info, self.source)

    def items(self) -> list[tuple[str, CardId]]:
        """(UID, card) pairs in card order."""
        return sorted(self._by_uid.items(), key=lambda item: (_card_key(item[1]), item[0]))

    def missing(self, cards: CardRanges | None = None) -> list[CardId]:
        """The cards of the game (*cards*, default the default edition's) without a UID here."""
        return [card for card in all_cards(cards) if card not in self._by_card]

    def __len__(self) -> int:
        return len(self._by_uid)

    def __contains__(self, uid: object) -> bool:
        return isinstance(uid, str) and self.card_for(uid) is not None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deck):
            return NotImplemented
        return self._by_uid == other._by_uid and self.info == other.info

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Deck({len(self)} cards from {self.source})"

    # ---------------------------------------------------------------- files

    def to_toml(self) -> str:
        """The deck as TOML text, cards in card order."""
        lines = ["# ultibank deck: tag UID -> card (kind:number), as ultibank enroll writes it"]
        if self.info:
            lines += ["", "[info]"]
            lines += [f"{_toml_key(k)} = {_toml_str(v)}" for k, v in self.info.items()]
        lines += ["", "[cards]"]
        lines += [f'"{uid}" = "{card}"' for uid, card in self.items()]
        return "\n".join(lines) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the deck to *path* atomically (a temporary file renamed over it)."""
        # a new file beside it (O_EXCL|O_NOFOLLOW), made durable, renamed over it: never
        # written through a link another user planted (a rename replaces a link itself)
        target = Path(path)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.new")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            fd = os.open(tmp, flags, 0o644)
        except FileExistsError as err:
            raise OSError(f"cannot write {target}: {tmp} is in the way; remove it") from err
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(self.to_toml().encode("utf-8"))
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    @classmethod
    def from_toml(cls, text: str, source: str = "<deck>", ranges: CardRanges | None = None) -> Deck:
        """Parse deck TOML; DeckError naming *source* and the line or key of any fault.

        Card names are checked against *ranges* (default: the default edition's cards).
        """
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise DeckError(f"{source}: not valid TOML: {err}") from err
        unknown = sorted(set(doc) - {"info", "cards"})
        if unknown:
            raise DeckError(f"{source}: unknown table(s) {', '.join(unknown)}; use [info], [cards]")
        info = doc.get("info", {})
        cards = doc.get("cards", {})
        if not isinstance(info, dict) or not isinstance(cards, dict):
            raise DeckError(f"{source}: [info] and [cards] must be tables")
        info_out: dict[str, str] = {}
        for key, value in info.items():
            if not isinstance(value, str | int | float | bool):
                raise DeckError(f"{source}:{_line_of(text, key)}: [info] {key} must be a value")
            info_out[key] = str(value)
        parsed: dict[str, CardId] = {}
        seen: dict[str, str] = {}

        def fault(key: str, why: str) -> DeckError:
            # the line is looked for only for the entry at fault: searching it for every key
            # made loading quadratic (10,000 UIDs took half a minute)
            return DeckError(f"{source}:{_line_of(text, key)}: {why}")

        for key, value in cards.items():
            try:
                uid = normalize_uid(key)
            except ValueError as err:
                raise fault(key, f"malformed UID key {key!r}: {err}") from err
            if not isinstance(value, str):
                raise fault(key, f'card for {key!r} must be a string like "prop:16"')
            try:
                card = CardId.parse(value, ranges or default_cards())
            except ValueError as err:
                raise fault(key, f"unknown card {value!r} for UID {uid}: {err}") from err
            if uid in seen:
                raise fault(key, f"duplicate UID {uid} (also written as {seen[uid]!r})")
            seen[uid] = key
            parsed[uid] = card
        return cls(parsed, info_out, source)


def load_deck(path: str | os.PathLike[str], cards: CardRanges | None = None) -> Deck:
    """Read a deck file; DeckError if it is missing or malformed."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError as err:
        raise DeckError(f"{p}: no such deck file (run `ultibank enroll` to make one)") from err
    except (OSError, UnicodeDecodeError) as err:
        raise DeckError(f"{p}: cannot read the deck file: {err}") from err
    return Deck.from_toml(text, str(p), cards)


def simulated_deck(cards: CardRanges | None = None) -> Deck:
    """Every card of *cards* (default: the default edition's) with its stable simulated UID.

    A card keeps its UID in every edition (see :func:`simulated_uid`).
    """
    uids = {simulated_uid(card): card for card in all_cards(cards)}
    return Deck(uids, {"name": "simulated"}, "<simulated deck>")


@cache
def _kind_order() -> dict[str, int]:
    """The order of card kinds in a deck file: the bank cards, then each kind as the shipped
    editions name it (the default edition's first), then any other kind by name."""
    order = [BANK]
    for name in ["ultime-fr", *edition_names()]:
        order += [k for k in load_edition(name).card_counts if k not in order]
    return {kind: n for n, kind in enumerate(order)}


def _card_key(card: CardId) -> tuple[int, str, int]:
    return _kind_order().get(card.kind, len(_kind_order())), card.kind, card.number


def _line_of(text: str, key: str) -> int | str:
    """The 1-based line where *key* is written, for error messages (the key if not found)."""
    for n, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith((f'"{key}"', f"'{key}'", f"{key} ", f"{key}=")):
            return n
    return key


def _toml_str(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def _toml_key(key: str) -> str:
    return key if re.match(r"^[A-Za-z0-9_-]+$", key) else _toml_str(key)
