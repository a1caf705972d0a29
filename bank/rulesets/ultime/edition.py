"""The Ultime edition schema: what an Ultime edition file must hold beyond the shared part.

Registered with the edition loader (:func:`board_assets.register_schema`), it checks the raw
file once the shared constants are read: 5 rent levels (the unit shows five), the Ultime
constants (no other: a typo is refused), the Ultime unit's cards (:data:`UNIT_CARDS`: every
card of the box means something, and no more than 4 players), and each event card's effect
with the taps it needs. :func:`ultime_constants` gives the rules and
screens those constants as a typed value. Imports ``board_assets`` and the standard library.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from board_assets import KNOWN_KEYS, MAX_AMOUNT, Edition, EditionError

#: the rent levels of an Ultime property
MAX_LEVEL = 5

#: The spaces of the Ultime board that are no property.
RING_SPECIALS = frozenset({"GO", "EVENT", "LOCATION", "JAIL", "FREE_PARKING", "GO_TO_JAIL"})

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


@dataclass(frozen=True, slots=True)
class UltimeConstants:
    """The edition's constants as the Ultime rules read them."""

    start_balance: int
    go_salary: int
    jail_fee: int
    location_fee: int
    auction_step: int
    min_players: int
    max_players: int
    tax_per_property: int
    collect_amount: int
    cheap_rent_count: int
    tokens: tuple[str, ...]


#: the Ultime constants beyond those every ruleset has
_OWN_CONSTANTS = (
    "go_salary",
    "jail_fee",
    "location_fee",
    "tax_per_property",
    "collect_amount",
    "cheap_rent_count",
)
#: those of them that are amounts of money (at most MAX_AMOUNT: every panel must show them)
_AMOUNTS = frozenset(
    {"go_salary", "jail_fee", "location_fee", "tax_per_property", "collect_amount"}
)
#: The cards of the Ultime unit's box (``bank:1..4``, ``prop:1..22``, ``event:1..23``): an
#: Ultime edition must give each a meaning, and may seat fewer players than bank cards.
UNIT_CARDS: Mapping[str, int] = {"bank": 4, "prop": 22, "event": 23}


def check_edition(raw: Mapping[str, Any]) -> None:
    """Refuse an edition file the Ultime rules cannot play (``field: why``)."""
    constants = raw.get("constants")
    if isinstance(constants, Mapping):
        _check_constants(constants)
    events = raw.get("events")
    for i, e in enumerate(events if isinstance(events, list) else ()):
        if not isinstance(e, Mapping) or not isinstance(e.get("kind"), str):
            continue  # the shared checks name what is missing
        kind = e["kind"]
        if kind not in EVENT_KINDS:
            raise EditionError(f"events[{i}].kind: unknown effect kind {kind!r}")
        taps = tuple(e.get("taps", ()))
        if taps != EVENT_KINDS[kind]:
            raise EditionError(
                f"events[{i}].taps: kind {kind!r} needs taps {list(EVENT_KINDS[kind])}, "
                f"got {list(taps)}"
            )
    _check_cards(raw)


def _check_constants(constants: Mapping[str, Any]) -> None:
    known = KNOWN_KEYS["constants"] | set(_OWN_CONSTANTS)
    unknown = sorted(set(constants) - known)
    if unknown:
        raise EditionError(
            f"constants.{unknown[0]}: unknown key; known: {', '.join(sorted(known))}"
        )
    ring = constants.get("ring")
    for i, space in enumerate(ring if isinstance(ring, list) else ()):
        if isinstance(space, str) and not space.startswith("P") and space not in RING_SPECIALS:
            raise EditionError(f"constants.ring[{i}]: unknown space {space!r}")
    levels = constants.get("levels")
    if isinstance(levels, int) and levels != MAX_LEVEL:
        raise EditionError(f"constants.levels: the unit has 5 rent levels, got {levels}")
    for key in _OWN_CONSTANTS:
        value = constants.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise EditionError(f"constants.{key}: missing or not a whole number")
        if key in _AMOUNTS and value > MAX_AMOUNT:
            raise EditionError(
                f"constants.{key}: at most {MAX_AMOUNT:,} (every panel must show it)"
            )


def _check_cards(raw: Mapping[str, Any]) -> None:
    """Every card of the unit must mean something, and the edition needs no card it lacks."""
    constants, props, events = raw.get("constants"), raw.get("properties"), raw.get("events")
    have = {
        "bank": constants.get("max_players") if isinstance(constants, Mapping) else None,
        "prop": len(props) if isinstance(props, list) else None,
        "event": len(events) if isinstance(events, list) else None,
    }
    where = {"bank": "constants.max_players", "prop": "properties", "event": "events"}
    for kind, count in UNIT_CARDS.items():
        n = have[kind]
        if not isinstance(n, int) or (kind == "bank" and n <= count):
            continue  # the shared checks name what is missing; fewer players: bank cards unused
        if n != count:
            raise EditionError(
                f"{where[kind]}: the unit's cards are {kind}:1..{count}, the edition has {n}"
            )


def ultime_constants(edition: Edition) -> UltimeConstants:
    """The constants of an edition that passed :func:`check_edition`."""
    c = edition.constants
    own = {key: c.extra[key] for key in _OWN_CONSTANTS}
    return UltimeConstants(
        start_balance=c.start_balance,
        auction_step=c.auction_step,
        min_players=c.min_players,
        max_players=c.max_players,
        tokens=c.tokens,
        **own,
    )
