"""Edition data (properties, board ring, event cards, constants) and its validating loader.

This package is data plus the small loader that checks it once, at load time. It imports
nothing of the project: the engine, the unit and the emulator all read editions through it.

A malformed or inconsistent file is refused with an :class:`EditionError` whose message names
the file and the field, for example ``ultime-fr.toml: properties[3].rents: expected 5 levels``.
Besides the shape, the loader refuses what would break a game later: an unknown key (a typo),
a colour that is not ``#rrggbb``, an empty, duplicate or unsafe token name, an amount above
:data:`MAX_AMOUNT`, more than :data:`MAX_PLAYERS` seats.

An edition names its ruleset (``[edition] ruleset = "ultime"``; absent means ``"ultime"``, so
older files load). This loader checks what every ruleset shares (players and tokens, groups,
properties and their rents, the ring, event cards' shape) and keeps the ruleset's own integer
constants in :attr:`Constants.extra`. A group may have its own number of rent levels (a
classic station's rents by stations owned), and a table named after the file's ruleset
(``[classic]``) holds that ruleset's own data, left to its schema. The ruleset's own schema
(the Ultime one insists on 5 rent levels, the Ultime unit's cards and its event kinds, and
knows its constants) is registered with :func:`register_schema` by the ruleset's package and
runs here, after the shared constants, when registered; the bank's ruleset registry runs it
again before it builds a game (:func:`check_schema`), so no game starts on an edition its
ruleset did not check.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "DEFAULT_RULESET",
    "MAX_AMOUNT",
    "MAX_NAME",
    "MAX_PLAYERS",
    "MAX_TEXT",
    "TAP_KINDS",
    "Constants",
    "Edition",
    "EditionError",
    "EventCard",
    "Group",
    "Property",
    "check_schema",
    "edition_names",
    "load_edition",
    "load_edition_file",
    "register_schema",
    "text_fault",
]

EDITIONS_DIR = Path(__file__).resolve().parent / "editions"
SOUNDS_DIR = Path(__file__).resolve().parent / "sounds"

#: the ruleset of an edition file that does not name one
DEFAULT_RULESET = "ultime"
#: the most players (bank cards) any edition may seat
MAX_PLAYERS = 8
#: What a tap step may ask for.
TAP_KINDS = frozenset({"prop", "own_prop", "owned_prop", "other_prop", "bank", "other_bank"})
#: A space of the ring that is no property: a name in capitals (``GO``, ``FREE_PARKING``); which
#: names a board has is its ruleset's to say (its edition schema).
SPECIAL_SPACE_RE = re.compile(r"^[A-Z][A-Z_]*$")

#: The largest amount an edition may name (prices, rents, fees, balances). The serial panel
#: carries amounts as 32-bit signed numbers (2,147,483,647): a million leaves room for a
#: balance to grow through thousands of GO salaries without ever overflowing a panel.
MAX_AMOUNT = 1_000_000
#: The longest name (edition, group, property, event title) and text (event text) an edition
#: may give: names fit a panel's line, texts a card.
MAX_NAME = 60
MAX_TEXT = 200
#: A token name: letters, digits, spaces, ``-`` or ``_``, up to 20 characters (the LCD's width);
#: the chart and the web page print it as it is.
TOKEN_RE = re.compile(r"^[^\W_][\w -]{0,19}$")
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
#: The keys each table of an edition file may have; any other is a typo and is refused.
KNOWN_KEYS: Mapping[str, frozenset[str]] = {
    "": frozenset({"edition", "constants", "groups", "properties", "events"}),
    "edition": frozenset({"id", "name", "language", "currency", "ruleset", "cards"}),
    #: the constants every ruleset has; a ruleset's schema names its own (and refuses others)
    "constants": frozenset(
        {"start_balance", "auction_step", "min_players", "max_players", "levels", "tokens", "ring"}
    ),
    "groups": frozenset({"id", "name", "colour", "levels"}),
    "properties": frozenset({"number", "name", "group", "price", "rents", "position", "side"}),
    "events": frozenset({"id", "kind", "taps", "title", "text"}),
}
#: The shared constants that are amounts of money (the others are counts).
AMOUNT_CONSTANTS = frozenset({"start_balance", "auction_step"})


def text_fault(value: str, limit: int) -> str:
    """Why *value* is no edition text (empty: it is one): printable, at most *limit* long."""
    if not value.isprintable():
        bad = next(c for c in value if not c.isprintable())
        return f"{bad!r} is not a printable character (control characters are refused)"
    if len(value) > limit:
        return f"at most {limit} characters, got {len(value)}"
    if value.strip() != value or not value.strip():
        return "starts or ends with a space"
    return ""


class EditionError(ValueError):
    """An edition file is missing, malformed or inconsistent."""


@dataclass(frozen=True, slots=True)
class Group:
    id: str
    name: str
    colour: str
    #: rent levels of this group's properties when they differ from ``constants.levels``
    #: (a classic station has 4 rents, by stations owned; None: the edition's)
    levels: int | None = None


@dataclass(frozen=True, slots=True)
class Property:
    number: int
    name: str
    group: str
    price: int
    rents: tuple[int, ...]
    position: int
    side: int

    def rent(self, level: int) -> int:
        """Rent at *level* (1..5)."""
        return self.rents[level - 1]


@dataclass(frozen=True, slots=True)
class EventCard:
    id: int
    kind: str
    taps: tuple[str, ...]
    title: str
    text: str


@dataclass(frozen=True, slots=True)
class Constants:
    """The constants every ruleset has, and the ruleset's own whole-number ones in *extra*."""

    start_balance: int
    auction_step: int
    min_players: int
    max_players: int
    levels: int
    tokens: tuple[str, ...]
    ring: tuple[str, ...]
    #: the ruleset's own constants (``go_salary``, ...), checked by its schema
    extra: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Edition:
    id: str
    name: str
    language: str
    currency: str
    constants: Constants
    groups: tuple[Group, ...]
    properties: tuple[Property, ...]
    events: tuple[EventCard, ...]
    source: str
    ruleset: str = DEFAULT_RULESET
    #: the card kinds besides the bank cards and how many of each, when the file names them
    #: (``[edition] cards = {deed = 28, chance = 16, chest = 16}``); else ``prop`` and
    #: ``event``, one per property and event card
    cards: tuple[tuple[str, int], ...] = ()
    #: the file's tables as read, for the ruleset's schema (see :func:`check_schema`)
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def prop(self, number: int) -> Property:
        """The property numbered *number* (1-based)."""
        return self.properties[number - 1]

    def event(self, event_id: int) -> EventCard:
        """The event card *event_id* (1-based)."""
        return self.events[event_id - 1]

    def group(self, group_id: str) -> Group:
        for g in self.groups:
            if g.id == group_id:
                return g
        raise KeyError(group_id)

    def group_members(self, group_id: str) -> tuple[int, ...]:
        """Numbers of the properties of a colour group."""
        return tuple(p.number for p in self.properties if p.group == group_id)

    def side_members(self, side: int) -> tuple[int, ...]:
        """Numbers of the properties on a board side (1..4)."""
        return tuple(p.number for p in self.properties if p.side == side)

    def neighbours(self, number: int) -> tuple[int, int]:
        """The nearest property on each side on the ring, wrapping past GO."""
        ordered = sorted(self.properties, key=lambda p: p.position)
        idx = [p.number for p in ordered].index(number)
        return ordered[idx - 1].number, ordered[(idx + 1) % len(ordered)].number

    @property
    def token_names(self) -> tuple[str, ...]:
        return self.constants.tokens

    @property
    def card_counts(self) -> dict[str, int]:
        """How many cards of each kind the game has: one bank card per player seat, then the
        kinds the edition file names (``[edition] cards``), else a property card per property
        and an event card per event card."""
        if self.cards:
            return {"bank": self.constants.max_players, **dict(self.cards)}
        return {
            "bank": self.constants.max_players,
            "prop": len(self.properties),
            "event": len(self.events),
        }


#: ruleset name -> its edition schema (see :func:`register_schema`)
_SCHEMAS: dict[str, Callable[[Mapping[str, Any]], None]] = {}
#: asked for the schema of a ruleset none is registered for yet (the bank's lazy ruleset
#: registry loads the ruleset there); None: such an edition is read without its schema
_SCHEMA_FINDER: list[Callable[[str], Callable[[Mapping[str, Any]], None] | None]] = []


def set_schema_finder(finder: Callable[[str], Callable[[Mapping[str, Any]], None] | None]) -> None:
    """Let the loader ask *finder* for the schema of a ruleset not registered yet."""
    _SCHEMA_FINDER[:] = [finder]


def check_schema(edition: Edition, check: Callable[[Mapping[str, Any]], None]) -> None:
    """Run a ruleset's schema *check* on *edition* as it was read (EditionError naming the file).

    The loader runs the schema registered for the edition's ruleset; the ruleset registry runs
    it again here before it builds a game, for an edition read before the schema was registered.
    """
    try:
        check(edition.raw)
    except EditionError as err:
        raise EditionError(f"{edition.source}: {err}") from err


def register_schema(ruleset: str, check: Callable[[Mapping[str, Any]], None]) -> None:
    """Run *check* on the raw TOML of every edition of *ruleset*, after the shared constants.

    *check* raises :class:`EditionError` with ``field: why`` (``constants.levels: ...``); the
    loader puts the file's name in front.
    """
    _SCHEMAS[ruleset] = check


def edition_names() -> list[str]:
    """The editions shipped in ``board_assets/editions``."""
    return sorted(p.stem for p in EDITIONS_DIR.glob("*.toml"))


@cache
def load_edition(name: str = "ultime-fr") -> Edition:
    """Load a shipped edition by name, or an edition file by path."""
    path = Path(name)
    if path.suffix != ".toml":
        path = EDITIONS_DIR / f"{name}.toml"
        if not path.exists():
            import difflib

            close = difflib.get_close_matches(name.lower(), edition_names(), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
            raise EditionError(
                f"unknown edition {name!r}{hint} (choose one of {', '.join(edition_names())})"
            )
    return load_edition_file(path)


def load_edition_file(path: str | Path) -> Edition:
    """Read and validate one edition file."""
    path = Path(path)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as err:
        raise EditionError(f"{path}: no such edition file") from err
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise EditionError(f"{path.name}: not valid TOML: {err}") from err
    edition = _Validator(path.name).edition(raw)
    shipped = EDITIONS_DIR / f"{edition.id}.toml"
    if shipped.exists() and path.resolve() != shipped.resolve():
        raise EditionError(
            f"{path.name}: edition.id: {edition.id!r} is a shipped edition's id; give a house "
            f"edition its own id (a game stored under it would resume as the shipped one)"
        )
    return edition


class _Validator:
    """Turns the raw TOML into an :class:`Edition`, naming the file and field of any fault."""

    def __init__(self, filename: str) -> None:
        self.filename = filename

    def fail(self, field: str, why: str) -> EditionError:
        return EditionError(f"{self.filename}: {field}: {why}")

    def table(self, raw: Mapping[str, Any], key: str, where: str = "") -> Mapping[str, Any]:
        value = raw.get(key)
        if not isinstance(value, Mapping):
            raise self.fail(where + key, "missing table")
        return value

    def array(self, raw: Mapping[str, Any], key: str, where: str = "") -> Sequence[Any]:
        value = raw.get(key)
        if not isinstance(value, list):
            raise self.fail(where + key, "missing list")
        return value

    def known_keys(self, raw: Mapping[str, Any], table: str, where: str = "") -> None:
        """Refuse a key the edition format does not have, naming it."""
        unknown = sorted(set(raw) - KNOWN_KEYS[table])
        if unknown:
            known = ", ".join(sorted(KNOWN_KEYS[table]))
            raise self.fail(where + unknown[0], f"unknown key; known: {known}")

    def integer(self, raw: Mapping[str, Any], key: str, where: str, minimum: int = 0) -> int:
        value = raw.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where + key, "missing or not a whole number")
        if value < minimum:
            raise self.fail(where + key, f"must be at least {minimum}, got {value}")
        if value > MAX_AMOUNT:  # no number of an edition is larger than its largest amount
            raise self.fail(where + key, f"at most {MAX_AMOUNT:,}, got {value:,}")
        return value

    def amount(self, raw: Mapping[str, Any], key: str, where: str) -> int:
        """A sum of money: 1 to MAX_AMOUNT."""
        value = self.integer(raw, key, where, 1)
        if value > MAX_AMOUNT:
            raise self.fail(where + key, f"at most {MAX_AMOUNT:,} (every panel must show it)")
        return value

    def text(self, raw: Mapping[str, Any], key: str, where: str, limit: int = MAX_NAME) -> str:
        """Printable text of 1 to *limit* characters: no control character (an escape
        sequence in a name would reach a terminal), nothing longer than a panel can show."""
        value = raw.get(key)
        if not isinstance(value, str) or not value:
            raise self.fail(where + key, "missing or empty text")
        why = text_fault(value, limit)
        if why:
            raise self.fail(where + key, why)
        return value

    def card_kinds(self, head: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
        """``[edition] cards``: kind = count, the kinds a ruleset's tags name (not ``bank``)."""
        if "cards" not in head:
            return ()
        raw = head["cards"]
        if not isinstance(raw, Mapping) or not raw:
            raise self.fail("edition.cards", "expected a table of card kind = count")
        kinds = []
        for kind, count in raw.items():
            if not re.fullmatch(r"[a-z]{2,12}", kind) or kind == "bank":
                raise self.fail(f"edition.cards.{kind}", "a card kind is 2 to 12 small letters")
            if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 255:
                raise self.fail(f"edition.cards.{kind}", f"expected 1 to 255 cards, got {count!r}")
            kinds.append((kind, count))
        return tuple(kinds)

    def edition(self, raw: Mapping[str, Any]) -> Edition:
        head = self.table(raw, "edition")
        ruleset = self.ruleset(head)
        constants = self.constants(self.table(raw, "constants"))
        check = _SCHEMAS.get(ruleset)
        if check is None and _SCHEMA_FINDER:
            check = _SCHEMA_FINDER[0](ruleset)
        if check is not None:
            try:
                check(raw)
            except EditionError as err:
                raise EditionError(f"{self.filename}: {err}") from err
        # the table named after the ruleset holds its own data (checked by its schema)
        self.known_keys({k: v for k, v in raw.items() if k != ruleset}, "")
        self.known_keys(head, "edition", "edition.")
        groups = self.groups(self.array(raw, "groups"))
        group_ids = {g.id for g in groups}
        properties = self.properties(self.array(raw, "properties"), groups, constants)
        events = self.events(self.array(raw, "events"))
        for gid in group_ids:
            if not any(p.group == gid for p in properties):
                raise self.fail(f"groups.{gid}", "no property belongs to this group")
        edition_id = self.text(head, "id", "edition.", 40)
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", edition_id):
            raise self.fail("edition.id", f"{edition_id!r}: small letters, digits, - and _")
        return Edition(
            id=edition_id,
            name=self.text(head, "name", "edition."),
            language=self.text(head, "language", "edition.", 8),
            currency=self.text(head, "currency", "edition.", 8),
            constants=constants,
            groups=groups,
            properties=properties,
            events=events,
            source=self.filename,
            ruleset=ruleset,
            cards=self.card_kinds(head),
            raw=raw,
        )

    def ruleset(self, head: Mapping[str, Any]) -> str:
        value = head.get("ruleset", DEFAULT_RULESET)
        if not isinstance(value, str) or not value.isidentifier():
            raise self.fail("edition.ruleset", f"not a ruleset name: {value!r}")
        return value

    def constants(self, raw: Mapping[str, Any]) -> Constants:
        w = "constants."
        shared = KNOWN_KEYS["constants"] - {"tokens", "ring"}
        ints = {
            k: self.amount(raw, k, w) if k in AMOUNT_CONSTANTS else self.integer(raw, k, w, 1)
            for k in sorted(shared)
        }
        # the ruleset's own constants: whole numbers here, their names and ranges its schema's
        extra = {k: self.integer(raw, k, w, 1) for k in sorted(set(raw) - KNOWN_KEYS["constants"])}
        if ints["max_players"] > MAX_PLAYERS:
            raise self.fail(w + "max_players", f"at most {MAX_PLAYERS}, got {ints['max_players']}")
        tokens = self.tokens(self.array(raw, "tokens", w), ints["max_players"])
        if ints["min_players"] < 2:
            fewest = ints["min_players"]
            raise self.fail(w + "min_players", f"a game has 2 players or more, got {fewest}")
        if ints["min_players"] > ints["max_players"]:
            raise self.fail(w + "min_players", "more than max_players")
        ring = tuple(self.array(raw, "ring", w))
        for i, space in enumerate(ring):
            if not isinstance(space, str) or not (
                SPECIAL_SPACE_RE.match(space) or (space.startswith("P") and space[1:].isdigit())
            ):
                raise self.fail(f"{w}ring[{i}]", f"unknown space {space!r}")
        return Constants(tokens=tokens, ring=ring, extra=extra, **ints)

    def tokens(self, raw: Sequence[Any], count: int) -> tuple[str, ...]:
        """*count* token names, each non-empty, unique and of TOKEN_RE's safe characters."""
        w = "constants.tokens"
        if len(raw) != count:
            raise self.fail(w, f"expected {count} token names (max_players), got {len(raw)}")
        for i, token in enumerate(raw):
            if not isinstance(token, str) or not TOKEN_RE.match(token):
                raise self.fail(
                    f"{w}[{i}]",
                    f"{token!r} is not a token name: 1 to 20 letters, digits, spaces, - or _",
                )
            if token in raw[:i]:
                raise self.fail(f"{w}[{i}]", f"duplicate token {token!r}")
        return tuple(raw)

    def groups(self, raw: Sequence[Any]) -> tuple[Group, ...]:
        out: list[Group] = []
        for i, g in enumerate(raw):
            w = f"groups[{i}]."
            if not isinstance(g, Mapping):
                raise self.fail(w[:-1], "not a table")
            self.known_keys(g, "groups", w)
            colour = self.text(g, "colour", w)
            if not COLOUR_RE.match(colour):
                raise self.fail(w + "colour", f"{colour!r} is not a colour #rrggbb")
            levels = self.integer(g, "levels", w, 1) if "levels" in g else None
            group = Group(self.text(g, "id", w), self.text(g, "name", w), colour, levels)
            if any(o.id == group.id for o in out):
                raise self.fail(w + "id", f"duplicate group {group.id!r}")
            out.append(group)
        if not out:
            raise self.fail("groups", "no groups")
        return tuple(out)

    def properties(
        self, raw: Sequence[Any], groups: tuple[Group, ...], constants: Constants
    ) -> tuple[Property, ...]:
        levels_of = {g.id: g.levels or constants.levels for g in groups}
        out: dict[int, Property] = {}
        for i, p in enumerate(raw):
            w = f"properties[{i}]."
            if not isinstance(p, Mapping):
                raise self.fail(w[:-1], "not a table")
            self.known_keys(p, "properties", w)
            number = self.integer(p, "number", w, 1)
            if number in out:
                raise self.fail(w + "number", f"duplicate property number {number}")
            group = self.text(p, "group", w)
            if group not in levels_of:
                raise self.fail(w + "group", f"unknown group {group!r}")
            rents_raw = p.get("rents")
            if not isinstance(rents_raw, list):
                raise self.fail(w + "rents", "missing rent list")
            if len(rents_raw) != levels_of[group]:
                raise self.fail(
                    w + "rents", f"expected {levels_of[group]} levels, got {len(rents_raw)}"
                )
            rents: list[int] = []
            for j, r in enumerate(rents_raw):
                if isinstance(r, bool) or not isinstance(r, int) or not 0 < r <= MAX_AMOUNT:
                    raise self.fail(
                        f"{w}rents[{j}]", f"not an amount from 1 to {MAX_AMOUNT:,}: {r!r}"
                    )
                rents.append(r)
            if rents != sorted(rents):
                raise self.fail(w + "rents", "rents must rise with the level")
            position = self.integer(p, "position", w, 0)
            ring = constants.ring
            if position >= len(ring) or ring[position] != f"P{number}":
                raise self.fail(w + "position", f"the ring has no P{number} at {position}")
            side = self.integer(p, "side", w, 1)
            if side > 4:
                raise self.fail(w + "side", f"a board has 4 sides, got {side}")
            out[number] = Property(
                number=number,
                name=self.text(p, "name", w),
                group=group,
                price=self.amount(p, "price", w),
                rents=tuple(rents),
                position=position,
                side=side,
            )
        numbers = sorted(out)
        if numbers != list(range(1, len(numbers) + 1)) or not numbers:
            raise self.fail("properties", f"numbers must run 1..N without gaps, got {numbers}")
        in_ring = sorted(int(s[1:]) for s in constants.ring if s.startswith("P"))
        if in_ring != numbers:
            raise self.fail("constants.ring", "the ring and the property list disagree")
        return tuple(out[n] for n in numbers)

    def events(self, raw: Sequence[Any]) -> tuple[EventCard, ...]:
        out: dict[int, EventCard] = {}
        for i, e in enumerate(raw):
            w = f"events[{i}]."
            if not isinstance(e, Mapping):
                raise self.fail(w[:-1], "not a table")
            self.known_keys(e, "events", w)
            eid = self.integer(e, "id", w, 1)
            if eid in out:
                raise self.fail(w + "id", f"duplicate event id {eid}")
            kind = self.text(e, "kind", w)
            taps = tuple(self.array(e, "taps", w))
            for j, tap in enumerate(taps):
                if tap not in TAP_KINDS:
                    raise self.fail(f"{w}taps[{j}]", f"unknown tap {tap!r}")
            title, text = self.text(e, "title", w), self.text(e, "text", w, MAX_TEXT)
            out[eid] = EventCard(eid, kind, taps, title, text)
        ids = sorted(out)
        if ids != list(range(1, len(ids) + 1)):
            raise self.fail("events", f"ids must run 1..N without gaps, got {ids}")
        return tuple(out[i] for i in ids)
