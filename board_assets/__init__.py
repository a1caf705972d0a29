"""Edition data (properties, board ring, event cards, constants) and its validating loader.

This package is data plus the small loader that checks it once, at load time. It imports
nothing of the project: the engine, the unit and the emulator all read editions through it.

A malformed or inconsistent file is refused with an :class:`EditionError` whose message names
the file and the field, for example ``ultime-fr.toml: properties[3].rents: expected 5 levels``.
Besides the shape, the loader refuses what would break a game later: an unknown key (a typo),
a colour that is not ``#rrggbb``, an empty, duplicate or unsafe token name, an amount above
:data:`MAX_AMOUNT`, and cards that do not cover the unit's (:data:`UNIT_CARDS`).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "EVENT_KINDS",
    "TAP_KINDS",
    "Constants",
    "Edition",
    "EditionError",
    "EventCard",
    "Group",
    "Property",
    "edition_names",
    "load_edition",
    "load_edition_file",
]

EDITIONS_DIR = Path(__file__).resolve().parent / "editions"
SOUNDS_DIR = Path(__file__).resolve().parent / "sounds"

#: Every effect an event card may have, with the taps each needs after the event card.
EVENT_KINDS: Mapping[str, tuple[str, ...]] = {
    "move": ("prop", "bank"),
    "group_up": ("own_prop",),
    "group_down": ("own_prop",),
    "reset_level": ("owned_prop",),
    "max_level": ("own_prop",),
    "swap": ("own_prop", "other_prop"),
    "tax": ("bank",),
    "neighbours": ("own_prop",),
    "collect_pair": ("bank", "other_bank"),
    "cheap_rent": (),
    "jail_other": ("bank",),
    "side_down": ("own_prop",),
    "side_up": ("own_prop",),
    "gridlock": (),
}
#: What a tap step may ask for.
TAP_KINDS = frozenset({"prop", "own_prop", "owned_prop", "other_prop", "bank", "other_bank"})
RING_SPECIALS = frozenset({"GO", "EVENT", "LOCATION", "JAIL", "FREE_PARKING", "GO_TO_JAIL"})

#: The cards of the Ultime unit (``bank:1..4``, ``prop:1..22``, ``event:1..23``, the same as
#: ``bank.unit.io.CARD_COUNTS``, which a test keeps equal): an edition must give each a meaning,
#: or a tap of ``event:10`` would find no card.
UNIT_CARDS: Mapping[str, int] = {"bank": 4, "prop": 22, "event": 23}
#: The largest amount an edition may name (prices, rents, fees, balances). The serial panel
#: carries amounts as 32-bit signed numbers (2,147,483,647): a million leaves room for a
#: balance to grow through thousands of GO salaries without ever overflowing a panel.
MAX_AMOUNT = 1_000_000
#: A token name: letters, digits, spaces, ``-`` or ``_``, up to 20 characters (the LCD's width);
#: the chart and the web page print it as it is.
TOKEN_RE = re.compile(r"^[^\W_][\w -]{0,19}$")
COLOUR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")
#: The keys each table of an edition file may have; any other is a typo and is refused.
KNOWN_KEYS: Mapping[str, frozenset[str]] = {
    "": frozenset({"edition", "constants", "groups", "properties", "events"}),
    "edition": frozenset({"id", "name", "language", "currency"}),
    "constants": frozenset(
        {
            "start_balance",
            "go_salary",
            "jail_fee",
            "location_fee",
            "auction_step",
            "min_players",
            "max_players",
            "levels",
            "tax_per_property",
            "collect_amount",
            "cheap_rent_count",
            "tokens",
            "ring",
        }
    ),
    "groups": frozenset({"id", "name", "colour"}),
    "properties": frozenset({"number", "name", "group", "price", "rents", "position", "side"}),
    "events": frozenset({"id", "kind", "taps", "title", "text"}),
}
#: The constants that are amounts of money (the others are counts).
AMOUNT_CONSTANTS = frozenset(
    {"start_balance", "go_salary", "jail_fee", "location_fee", "auction_step"}
    | {"tax_per_property", "collect_amount"}
)


class EditionError(ValueError):
    """An edition file is missing, malformed or inconsistent."""


@dataclass(frozen=True, slots=True)
class Group:
    id: str
    name: str
    colour: str


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
    start_balance: int
    go_salary: int
    jail_fee: int
    location_fee: int
    auction_step: int
    min_players: int
    max_players: int
    levels: int
    tax_per_property: int
    collect_amount: int
    cheap_rent_count: int
    tokens: tuple[str, ...]
    ring: tuple[str, ...]


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
            raise EditionError(
                f"unknown edition {name!r}: choose one of {', '.join(edition_names())}"
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
    return _Validator(path.name).edition(raw)


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
        return value

    def amount(self, raw: Mapping[str, Any], key: str, where: str) -> int:
        """A sum of money: 1 to MAX_AMOUNT."""
        value = self.integer(raw, key, where, 1)
        if value > MAX_AMOUNT:
            raise self.fail(where + key, f"at most {MAX_AMOUNT:,} (every panel must show it)")
        return value

    def text(self, raw: Mapping[str, Any], key: str, where: str) -> str:
        value = raw.get(key)
        if not isinstance(value, str) or not value:
            raise self.fail(where + key, "missing or empty text")
        return value

    def edition(self, raw: Mapping[str, Any]) -> Edition:
        head = self.table(raw, "edition")
        constants = self.constants(self.table(raw, "constants"))
        self.known_keys(raw, "")
        self.known_keys(head, "edition", "edition.")
        groups = self.groups(self.array(raw, "groups"))
        group_ids = {g.id for g in groups}
        properties = self.properties(self.array(raw, "properties"), group_ids, constants)
        events = self.events(self.array(raw, "events"))
        for gid in group_ids:
            if not any(p.group == gid for p in properties):
                raise self.fail(f"groups.{gid}", "no property belongs to this group")
        self.unit_cards(constants, properties, events)
        return Edition(
            id=self.text(head, "id", "edition."),
            name=self.text(head, "name", "edition."),
            language=self.text(head, "language", "edition."),
            currency=self.text(head, "currency", "edition."),
            constants=constants,
            groups=groups,
            properties=properties,
            events=events,
            source=self.filename,
        )

    def constants(self, raw: Mapping[str, Any]) -> Constants:
        w = "constants."
        self.known_keys(raw, "constants", w)
        ints = {
            k: self.amount(raw, k, w) if k in AMOUNT_CONSTANTS else self.integer(raw, k, w, 1)
            for k in sorted(KNOWN_KEYS["constants"] - {"tokens", "ring"})
        }
        if ints["levels"] != 5:
            raise self.fail(w + "levels", f"the unit has 5 rent levels, got {ints['levels']}")
        tokens = self.tokens(self.array(raw, "tokens", w), ints["max_players"])
        if ints["min_players"] > ints["max_players"]:
            raise self.fail(w + "min_players", "more than max_players")
        ring = tuple(self.array(raw, "ring", w))
        for i, space in enumerate(ring):
            if not isinstance(space, str) or not (
                space in RING_SPECIALS or (space.startswith("P") and space[1:].isdigit())
            ):
                raise self.fail(f"{w}ring[{i}]", f"unknown space {space!r}")
        return Constants(tokens=tokens, ring=ring, **ints)

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
            group = Group(self.text(g, "id", w), self.text(g, "name", w), colour)
            if any(o.id == group.id for o in out):
                raise self.fail(w + "id", f"duplicate group {group.id!r}")
            out.append(group)
        if not out:
            raise self.fail("groups", "no groups")
        return tuple(out)

    def properties(
        self, raw: Sequence[Any], group_ids: set[str], constants: Constants
    ) -> tuple[Property, ...]:
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
            if group not in group_ids:
                raise self.fail(w + "group", f"unknown group {group!r}")
            rents_raw = p.get("rents")
            if not isinstance(rents_raw, list):
                raise self.fail(w + "rents", "missing rent list")
            if len(rents_raw) != constants.levels:
                raise self.fail(
                    w + "rents", f"expected {constants.levels} levels, got {len(rents_raw)}"
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
            if kind not in EVENT_KINDS:
                raise self.fail(w + "kind", f"unknown effect kind {kind!r}")
            taps = tuple(self.array(e, "taps", w))
            if taps != EVENT_KINDS[kind]:
                raise self.fail(
                    w + "taps",
                    f"kind {kind!r} needs taps {list(EVENT_KINDS[kind])}, got {list(taps)}",
                )
            out[eid] = EventCard(eid, kind, taps, self.text(e, "title", w), self.text(e, "text", w))
        ids = sorted(out)
        if ids != list(range(1, len(ids) + 1)) or not ids:
            raise self.fail("events", f"ids must run 1..N without gaps, got {ids}")
        return tuple(out[i] for i in ids)

    def unit_cards(
        self,
        constants: Constants,
        properties: Sequence[Property],
        events: Sequence[EventCard],
    ) -> None:
        """Every card of the unit (UNIT_CARDS) must mean something in the edition, and the
        edition must not need a card the unit does not have."""
        have = {"bank": constants.max_players, "prop": len(properties), "event": len(events)}
        where = {"bank": "constants.max_players", "prop": "properties", "event": "events"}
        for kind, count in UNIT_CARDS.items():
            if kind == "bank" and have[kind] <= count:
                continue  # fewer players than bank cards: the extra bank cards stay unused
            if have[kind] != count:
                raise self.fail(
                    where[kind],
                    f"the unit's cards are {kind}:1..{count}, the edition has {have[kind]}",
                )
