"""Configuration of the classic rules: each **decision** of docs/classic.md §3/§6, with its default.

``[classic]`` holds the decisions (§6.1), ``[variants]`` the house rules, all off by default
(§6.2), ``[mega]`` the Méga editions' keys, ``[starwars]`` Star Wars II's (the Force battle's
reading and penalty, the Force die's faces; §6.3, each ignored by the other editions); two keys
of the shared ``[rules]`` table apply too (``auction_seconds``, ``undo_settled_debt_whole``).
The values in force are recorded with the game when it starts
(:class:`bank.rulesets.classic.state.ClassicState.config`), so a stored game replays the
same whatever the configuration says later. Imports the bank's errors and the standard
library.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from bank.engine.errors import BankError, did_you_mean

#: key -> the values it may take (a tuple of choices, or (type, minimum, maximum))
_CHOICES: dict[str, tuple[Any, ...]] = {
    "rent_claim_deadline": ("second_roll", "next_roll", "none"),
    "bankrupt_to_bank": ("auction", "return"),
    "chest14": ("hospital", "nearest_station"),
    "interest_rounding": ("up", "down"),
    "free_parking": ("off", "taxes", "taxes_and_fines"),
    "force_rule": ("die", "symbol"),
}
_RANGES: dict[str, tuple[int, int]] = {
    "auction_step": (1, 100_000),
    "dice_seed": (0, 2**63 - 1),
    "free_parking_seed": (0, 1_000_000),
    "fast_game_end_after": (1, 2),
    "time_limit_minutes": (0, 24 * 60),
    "utility_three_multiplier": (1, 1000),
    "depot_cost": (2, 100_000),
    "force_penalty": (1, 100_000),
}
#: the recorded tables, in the order a game records them
TABLES = ("classic", "variants", "mega", "starwars")
#: the faces a Force die may carry (docs/classic.md §7.1)
FORCE_FACES = ("shift", "light", "dark")


@dataclass(frozen=True, slots=True)
class ClassicRules:
    """``[classic]``: the decisions of §6.1 (None: the edition's value)."""

    rent_claim_deadline: str = "second_roll"
    double_rent_with_mortgaged_lot: bool | None = None
    bankrupt_to_bank: str = "auction"
    bids_within_cash: bool = True
    building_stock: bool = True
    auction_step: int | None = None
    chest14: str = "hospital"
    interest_rounding: str = "up"
    #: the dice seed of a new game (READINGS D1); None: not set, so each new game draws one
    #: (:attr:`bank.rulesets.classic.rules.ClassicRulesEngine.seed_source`: random in the
    #: daemon, 0 in a tap script) and records it with the game
    dice_seed: int | None = None


@dataclass(frozen=True, slots=True)
class Variants:
    """``[variants]``: the house rules of §6.2, all off by default."""

    auto_rent: bool = False
    free_parking: str = "off"
    free_parking_seed: int = 0
    double_go: bool = False
    double_go_cards: bool = True
    no_buy_first_lap: bool = False
    auction_unbought: bool = True
    fast_game: bool = False
    fast_game_end_after: int = 2
    time_limit_minutes: int = 0
    jailed_owner_no_rent: bool = False
    virtual_decks: bool = False


@dataclass(frozen=True, slots=True)
class MegaRules:
    """``[mega]``: the Méga keys of §6.3 (read by the Méga editions only)."""

    #: the unit's rolls include the speed die
    speed_die: bool = True
    #: the utility rent's multiplier with three utilities owned (the rule book's summary: 10)
    utility_three_multiplier: int = 20
    #: a skyscraper's price: ``"house"`` (the deed's house price) or a whole number
    skyscraper_cost: str | int = "house"
    #: a train depot's price; it sells back for half
    depot_cost: int = 100


@dataclass(frozen=True, slots=True)
class StarWars:
    """``[starwars]``: the Force battle and the Force die (§6.3, §7.1), read by the editions
    with sides (Star Wars II) only."""

    #: the reading of the Force battle: ``"die"`` (the Force die's face) or ``"symbol"``
    force_rule: str = "die"
    #: what a beaten character pays the bank
    force_penalty: int = 200
    #: the virtual Force die's six faces (None: the edition's ``third_die``, recorded so)
    force_faces: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class ClassicConfig:
    """The classic rules' configuration: ``[classic]``, ``[variants]`` and two ``[rules]`` keys."""

    classic: ClassicRules = ClassicRules()
    variants: Variants = Variants()
    mega: MegaRules = MegaRules()
    #: seconds the auction countdown runs, restarted by each bid
    auction_seconds: float = 10.0
    #: undo after a settled debt cancels the payment and everything done to settle it
    undo_settled_debt_whole: bool = True
    starwars: StarWars = StarWars()

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> ClassicConfig:
        """Build from the ``[rules]`` table with ``classic``, ``variants``, ``mega`` and
        ``starwars`` sub-tables.

        Unknown keys, wrong types and values out of range are refused naming ``table.key``.
        """
        kwargs: dict[str, Any] = {}
        for key, value in raw.items():
            if key in TABLES:
                if not isinstance(value, Mapping):
                    raise BankError(f"{key}: expected a table")
                kwargs[key] = _table(_KINDS[key], key, value)
            elif key == "auction_seconds":
                if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                    raise BankError(f"rules.{key}: expected a positive number, got {value!r}")
                kwargs[key] = float(value)
            elif key == "undo_settled_debt_whole":
                if not isinstance(value, bool):
                    raise BankError(f"rules.{key}: expected true or false, got {value!r}")
                kwargs[key] = value
            else:
                known = (
                    "auction_seconds, undo_settled_debt_whole, classic, variants, mega, starwars"
                )
                hint = did_you_mean(key, known.split(", "))
                raise BankError(f"unknown rules setting {key!r} for classic; known: {known}{hint}")
        return cls(**kwargs)

    def recorded(self) -> tuple[tuple[str, Any], ...]:
        """``table.key`` and value of every recorded setting (§6: kept with the game)."""
        out: list[tuple[str, Any]] = []
        for table in TABLES:
            values = getattr(self, table)
            out.extend((f"{table}.{f.name}", getattr(values, f.name)) for f in fields(values))
        return tuple(out)

    @classmethod
    def from_recorded(
        cls, items: tuple[tuple[str, Any], ...], base: ClassicConfig
    ) -> ClassicConfig:
        """The configuration a stored game recorded, with *base*'s unrecorded keys."""
        tables: dict[str, dict[str, Any]] = {t: {} for t in TABLES}
        for name, value in items:
            table, key = name.split(".", 1)
            tables[table][key] = value
        # a game recorded before ``[mega]`` existed takes its defaults
        return ClassicConfig(
            ClassicRules(**tables["classic"]),
            Variants(**tables["variants"]),
            MegaRules(**tables["mega"]),
            base.auction_seconds,
            base.undo_settled_debt_whole,
            starwars=StarWars(**tables["starwars"]),
        )


_KINDS: dict[str, type[Any]] = {
    "classic": ClassicRules,
    "variants": Variants,
    "mega": MegaRules,
    "starwars": StarWars,
}


def _table(kind: type[Any], name: str, raw: Mapping[str, Any]) -> Any:
    known = {f.name for f in fields(kind)}
    defaults = kind()
    out: dict[str, Any] = {}
    for key, value in raw.items():
        where = f"{name}.{key}"
        if key not in known:
            hint = did_you_mean(where, [f"{name}.{k}" for k in known])
            raise BankError(f"unknown setting {where!r}; known: {', '.join(sorted(known))}{hint}")
        default = getattr(defaults, key)
        if key == "force_faces":
            value = _faces(where, value)
        elif key == "skyscraper_cost":
            if value != "house" and (
                isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100_000
            ):
                raise BankError(f'{where}: "house" or a whole number 1..100000, got {value!r}')
        elif key in _CHOICES:
            if value not in _CHOICES[key]:
                raise BankError(f"{where}: {value!r} is not one of {', '.join(_CHOICES[key])}")
        elif isinstance(default, bool) or key == "double_rent_with_mortgaged_lot":
            if not isinstance(value, bool):
                raise BankError(f"{where}: expected true or false, got {value!r}")
        else:
            lo, hi = _RANGES[key]
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                raise BankError(f"{where}: expected a whole number {lo}..{hi}, got {value!r}")
        out[key] = value
    return kind(**out)


def _faces(where: str, value: Any) -> tuple[str, ...]:
    """The six faces of the Force die, each ``shift``, ``light`` or ``dark``."""
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 6
        or not all(isinstance(f, str) and f in FORCE_FACES for f in value)
    ):
        shown = ", ".join(FORCE_FACES)
        raise BankError(f"{where}: expected six faces, each one of {shown}, got {value!r}")
    return tuple(value)
