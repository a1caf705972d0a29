"""What a classic command did, as the rules decided it (docs/classic.md §3, §4): the unit's classic
mode shows these and never works them out again from the events.

Every outcome names the player it is about (``card``; None for the bank or an anonymous roll)
and the money it moved (``amount``: paid, received, charged or raised; 0 when none), and
whether the transaction settled the debt being paid off (``debt_settled``: the debtor's card;
the unit's `Dette réglée`). Imports the core's outcome type and the standard library.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Final

from bank.engine.ruleset import Outcome


@dataclass(frozen=True, slots=True)
class ClassicOutcome(Outcome):
    kind: ClassVar[str] = "classic"
    card: int | None
    amount: int
    #: the player whose debt this transaction paid off, leaving no debt open (None: none);
    #: a bankruptcy ends a debt without settling it. Set by the rules for every kind, but
    #: only the kinds a debtor may play (the versions 2 below) can carry it.
    debt_settled: int | None = field(default=None, kw_only=True)


@dataclass(frozen=True, slots=True)
class Started(ClassicOutcome):
    """A new game: *amount* is each player's start balance."""

    kind: ClassVar[str] = "game_started"


@dataclass(frozen=True, slots=True)
class Bought(ClassicOutcome):
    """*card* bought deed *number* at its price (*amount*)."""

    kind: ClassVar[str] = "bought"
    number: int
    #: the purchase completed its group (`Groupe complet !`)
    completed_group: bool


@dataclass(frozen=True, slots=True)
class Short(ClassicOutcome):
    """A card sent *card* to the unowned deed *number*, priced *amount*, which they may not
    buy: *reason* ``short`` (they cannot pay) or ``first lap`` (the first-lap variant)."""

    kind: ClassVar[str] = "short"
    number: int
    reason: str = "short"


@dataclass(frozen=True, slots=True)
class Own(ClassicOutcome):
    """*card* landed on their own deed (`Chez vous`)."""

    kind: ClassVar[str] = "own"
    number: int


@dataclass(frozen=True, slots=True)
class NoRent(ClassicOutcome):
    """No rent: the deed is mortgaged, or its owner is in jail under the house rule."""

    kind: ClassVar[str] = "no_rent"
    number: int
    reason: str


@dataclass(frozen=True, slots=True)
class RentBasis:
    """What a rent was worked out from (§3.3), as the rules applied it."""

    #: the deed's kind: ``street``, ``station`` or ``utility``
    deed: str
    #: the deeds of its group the owner held
    owned: int
    #: a street's buildings: 1-4 houses, 5 a hotel, 6 a skyscraper (0: none)
    level: int = 0
    #: an unimproved street's multiplier: 2 with the whole group (Méga: 2 with all lots but
    #: one, 3 with all of them)
    factor: int = 1
    #: Méga: the station carries a train depot
    depot: bool = False
    #: a utility: the dice total, and what it was multiplied by
    dice: int = 0
    times: int = 0


@dataclass(frozen=True, slots=True)
class RentPaid(ClassicOutcome):
    """*card* owed *amount* of rent to *owner* for deed *number*; *owed* of it is left as a
    debt; *basis*: what the rent was worked out from (version 2; None in a version-1 record)."""

    kind: ClassVar[str] = "rent"
    #: 2: carries ``basis``
    version: ClassVar[int] = 2
    number: int
    owner: int
    owed: int
    basis: RentBasis | None = None


@dataclass(frozen=True, slots=True)
class AuctionWon(ClassicOutcome):
    kind: ClassVar[str] = "sold"
    number: int


@dataclass(frozen=True, slots=True)
class Salary(ClassicOutcome):
    kind: ClassVar[str] = "go"


@dataclass(frozen=True, slots=True)
class Jailed(ClassicOutcome):
    kind: ClassVar[str] = "jail"


@dataclass(frozen=True, slots=True)
class LeftJail(ClassicOutcome):
    """Out of jail by the fee (*amount*), a jail card or a double (*how*)."""

    kind: ClassVar[str] = "jail_out"
    how: str


@dataclass(frozen=True, slots=True)
class TaxPaid(ClassicOutcome):
    kind: ClassVar[str] = "tax"
    position: int


@dataclass(frozen=True, slots=True)
class PaidBank(ClassicOutcome):
    kind: ClassVar[str] = "paid"


@dataclass(frozen=True, slots=True)
class Received(ClassicOutcome):
    kind: ClassVar[str] = "received"


@dataclass(frozen=True, slots=True)
class PotCollected(ClassicOutcome):
    kind: ClassVar[str] = "pot"


@dataclass(frozen=True, slots=True)
class Built(ClassicOutcome):
    """A house or (*hotel*) a hotel on deed *number*, for *amount*; Méga's *building* is
    ``"skyscraper"`` or ``"depot"`` (empty for a house or a hotel)."""

    kind: ClassVar[str] = "built"
    number: int
    hotel: bool
    building: str = ""


@dataclass(frozen=True, slots=True)
class BuildingSold(ClassicOutcome):
    """One step down on *number*, or (*whole_group*) every building of its group; *amount* back."""

    kind: ClassVar[str] = "building_sold"
    #: 2: may carry ``debt_settled``
    version: ClassVar[int] = 2
    number: int
    whole_group: bool
    #: Méga: ``"skyscraper"`` (back to a hotel) or ``"depot"`` (removed); empty otherwise
    building: str = ""


@dataclass(frozen=True, slots=True)
class Gift(ClassicOutcome):
    """Méga's Birthday Gift space (menu item 15): *amount* from the bank."""

    kind: ClassVar[str] = "gift"


@dataclass(frozen=True, slots=True)
class Mortgaged(ClassicOutcome):
    kind: ClassVar[str] = "mortgaged"
    #: 2: may carry ``debt_settled``
    version: ClassVar[int] = 2
    number: int


@dataclass(frozen=True, slots=True)
class Lifted(ClassicOutcome):
    kind: ClassVar[str] = "lifted"
    #: 2: may carry ``debt_settled``
    version: ClassVar[int] = 2
    number: int


@dataclass(frozen=True, slots=True)
class Traded(ClassicOutcome):
    """*card* and *partner* traded (*amount*: the cash); *questions*: the mortgaged deeds whose
    new owners must now answer the interest question, in order."""

    kind: ClassVar[str] = "traded"
    #: 2: may carry ``debt_settled``
    version: ClassVar[int] = 2
    partner: int
    questions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class InterestAnswered(ClassicOutcome):
    kind: ClassVar[str] = "interest"
    #: 2: may carry ``debt_settled``
    version: ClassVar[int] = 2
    number: int
    lifted: bool


class RollEffect(StrEnum):
    """What a roll of the unit's dice did besides moving the token. The values are the words
    older records spelt the effect with (a jail try was ``"try N"``: :func:`roll_effect`)."""

    NONE = ""
    #: the third double in a row: to jail
    THREE_DOUBLES = "three doubles"
    #: a double out of jail
    FREED = "freed"
    #: a jail try that failed (:attr:`Rolled.jail_try` says which)
    TRY = "try"
    #: the last jail try failed: the fee paid (or owed), out of jail
    FEE = "fee"
    #: Méga's speed die showing the number of the double (§7.2)
    TRIPLE = "triple"


def roll_effect(text: str) -> tuple[RollEffect, int]:
    """The effect and jail try spelt *text* in the string form (``"try 2"``: the second try)."""
    if text.startswith("try "):
        return RollEffect.TRY, int(text[4:])
    return RollEffect(text), 0


@dataclass(frozen=True, slots=True)
class Rolled(ClassicOutcome):
    """The unit's dice for *card* (None: anonymous); *amount* is the move: the white dice
    plus the third die when it shows a number (Méga's speed die)."""

    kind: ClassVar[str] = "dice"
    dice: tuple[int, int]
    #: the card's doubles in a row, 3 on the roll that sends it to jail
    doubles: int
    #: what the roll did; the string form of older records (``"try 2"``) is decoded
    effect: RollEffect
    #: the third die's face (``"2"``, ``"mr"``, ``"bus"``, ``"light"``...), None without one
    third: str | None = None
    #: the failed jail try this roll was (1, 2...) when *effect* is ``TRY``; 0 otherwise
    jail_try: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.effect, RollEffect):  # the string form: "try 2", "fee"...
            effect, tries = roll_effect(str(self.effect))
            object.__setattr__(self, "effect", effect)
            if tries:
                object.__setattr__(self, "jail_try", tries)

    @property
    def effect_text(self) -> str:
        """The effect in the string form (``"try 2"``)."""
        return f"try {self.jail_try}" if self.effect is RollEffect.TRY else self.effect.value


@dataclass(frozen=True, slots=True)
class CardPlayed(ClassicOutcome):
    """Card *number* of *deck* applied to *card*: *amount* is what it charged or paid out;
    *landing* what the move it made did; *draw* the deck to draw next (`Tirez une Chance`);
    *gained*: the drawer's cash did not go down (the amount was paid out to them)."""

    kind: ClassVar[str] = "card_done"
    deck: str
    number: int
    landing: ClassicOutcome | None = None
    draw: str | None = None
    gained: bool = False


@dataclass(frozen=True, slots=True)
class GenericPlayed(ClassicOutcome):
    kind: ClassVar[str] = "generic_card"
    effect: int


@dataclass(frozen=True, slots=True)
class Drawn(ClassicOutcome):
    """The next card of a virtual deck: waits for the drawer's card."""

    kind: ClassVar[str] = "drawn"
    deck: str
    number: int


@dataclass(frozen=True, slots=True)
class ForceFought(ClassicOutcome):
    """*card*'s Force battle (§7.1): *won* (no money: the player moves the symbol), or lost and
    charged the penalty (*amount*), *owed* of it left as a debt; *face* is the Force die's face
    (or, under the ``symbol`` reading, the symbol met) it was judged on; *known*: the unit knew
    it from the player's own roll rather than asking."""

    kind: ClassVar[str] = "force"
    won: bool
    face: str
    owed: int
    known: bool


@dataclass(frozen=True, slots=True)
class Bankrupt(ClassicOutcome):
    """*card* went bankrupt owing *amount* to *creditor* (None: the bank); *auction*: the deeds
    of the auction series, in order; *game_over*: it ended the game."""

    kind: ClassVar[str] = "bankrupt"
    creditor: int | None
    auction: tuple[int, ...]
    game_over: bool

    @property
    def eliminated(self) -> int | None:
        return self.card

    @property
    def ends_game(self) -> bool:
        return self.game_over


@dataclass(frozen=True, slots=True)
class TimeOver(ClassicOutcome):
    """The time limit ended the game; *card* is the winner."""

    kind: ClassVar[str] = "game_over"

    @property
    def ends_game(self) -> bool:
        return True


def _no_debt_said(fields: dict[str, Any]) -> dict[str, Any]:
    """Version 1 to 2 of the kinds a debtor may play (``building_sold``, ``mortgaged``,
    ``lifted``, ``traded``, ``interest``): version 2 may say the debt it settled
    (``debt_settled``). A version-1 record was written before that was journalled, when the
    unit alone said `Dette réglée`: it reads as settling none."""
    return fields


def _no_basis_said(fields: dict[str, Any]) -> dict[str, Any]:
    """``rent`` 1 to 2: version 2 says what the rent was worked out from (``basis``); a
    version-1 record says nothing of it (its words read the deed as the state it started
    from shows it)."""
    return fields


#: the classic outcome kinds' upcasters, ``(kind, stored version) -> step``
UPCASTERS: Final[dict[tuple[str, int], Callable[[dict[str, Any]], dict[str, Any]]]] = {
    **{
        (kind, 1): _no_debt_said
        for kind in ("building_sold", "mortgaged", "lifted", "traded", "interest")
    },
    ("rent", 1): _no_basis_said,
}
