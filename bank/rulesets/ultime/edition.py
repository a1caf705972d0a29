"""The Ultime edition schema: what an Ultime edition file must hold beyond the shared part.

Registered with the edition loader (:func:`board_assets.register_schema`), it checks the raw
file before the shared checks: 5 rent levels (the unit shows five), the Ultime constants, and
each event card's effect with the taps it needs. :func:`ultime_constants` gives the rules and
screens those constants as a typed value. Imports ``board_assets`` and the standard library.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from board_assets import Edition, EditionError

#: the rent levels of an Ultime property
MAX_LEVEL = 5

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


def check_edition(raw: Mapping[str, Any]) -> None:
    """Refuse an edition file the Ultime rules cannot play (``field: why``)."""
    constants = raw.get("constants")
    if isinstance(constants, Mapping):
        levels = constants.get("levels")
        if isinstance(levels, int) and levels != MAX_LEVEL:
            raise EditionError(f"constants.levels: the unit has 5 rent levels, got {levels}")
        for key in _OWN_CONSTANTS:
            if key not in constants:
                raise EditionError(f"constants.{key}: missing or not a whole number")
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
    if isinstance(events, list) and not events:
        raise EditionError("events: an Ultime edition has event cards")


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
