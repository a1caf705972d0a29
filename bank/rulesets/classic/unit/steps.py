"""The classic unit's steps: the small state object of each gesture family (docs/classic.md §5).

A step is what the unit is doing between two gestures; the family named beside each group
handles its taps, keys and buttons (:mod:`bank.rulesets.classic.unit.core` dispatches them by
the step's type). The shell's own steps (idle, a debt being settled, the auction, the jail
question, the game's end) are in :mod:`bank.unit.shell`. Imports the standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

#: the trade's panels, in the order M walks them
TRADE_PANELS: Final = ("deeds", "cash", "cards", "summary")


# ---- a deed tapped (landing.py)


@dataclass(frozen=True, slots=True)
class DeedCheck:
    """A deed tapped: a bank card lands, M offers the auction, X goes back."""

    number: int
    expires: float


# ---- number entry and picks (entry.py)


@dataclass(frozen=True, slots=True)
class Entry:
    """An amount entry (§5.2) for *purpose* (``pay``, ``receive``, ``trade``)."""

    purpose: str
    card: int | None
    expires: float
    #: what was entered, in order: ("d", digit) or ("n", note); X takes back the last
    ops: tuple[tuple[str, int], ...] = ()
    #: 0: ``valider``; i: the edition's notes[i - 1] (NOTES, Méga's MEGA_NOTES)
    step: int = 0
    #: the trade being composed, for an entry opened on its ``Argent`` panel
    trade: TradeDraft | None = None
    #: ``generic``: the deck, the generic effect (§4.5) and the amounts entered before this one
    deck: str | None = None
    effect: int = 0
    amounts: tuple[int, ...] = ()

    @property
    def value(self) -> int:
        value = 0
        for kind, n in self.ops:
            value = value * 10 + n if kind == "d" else value + n
        return value


@dataclass(frozen=True, slots=True)
class Pick:
    """A pick (§5.2): one of *options* shows; digits type its number; M the next; ✓ chooses.

    *purpose*: ``dice`` (a utility's total, for *card* landing on *number*), ``choice`` (a
    card's option), ``passed_go`` or ``force`` (the Force die's face or the symbol met, 1-based
    in :data:`bank.rulesets.classic.force.ASKED` of the game's reading).
    """

    purpose: str
    options: tuple[int, ...]
    index: int
    #: None: a question, which waits as long as it takes (READINGS B1)
    expires: float | None
    card: int | None = None
    number: int | None = None
    deck: str | None = None
    choice: int | None = None
    typed: str = ""
    #: a dice pick whose first option is the payer's own last roll, `(dernier lancer)` (A24)
    last: bool = False


# ---- the menu (menu.py)


@dataclass(frozen=True, slots=True)
class Menu:
    """Menu item *item* shows; *typed* is the first digit of a two-digit item."""

    item: int
    expires: float
    typed: str = ""
    #: item 1 with ``variants.double_go``: ✓ toggled the double salary
    exact: bool = False


# ---- build, sell and mortgage sessions (sessions.py)


@dataclass(frozen=True, slots=True)
class Session:
    """A build, sell or mortgage session of *card* (items 7, 8, 9)."""

    kind: str
    card: int
    #: None while `tout vendre ? ✓` is asked: a question has no timeout (READINGS B1)
    expires: float | None
    for_debt: bool = False
    #: a sell tap the stock could not take apart: the deed whose whole group ✓ would sell
    #: (`tout vendre ? ✓`, docs/classic.md §3.8; X cancels that tap, the session goes on: C6)
    sell_all: int | None = None


# ---- the trade and the interest question (trade.py)


@dataclass(frozen=True, slots=True)
class TradeDraft:
    """A trade being composed (item 10): *first* and *second* once their cards are tapped."""

    first: int | None = None
    second: int | None = None
    panel: int = 0
    deeds_first: tuple[int, ...] = ()
    deeds_second: tuple[int, ...] = ()
    cash: int = 0
    #: the amount and its payer, set by the payer's card on `Argent`
    cash_from: int | None = None
    #: digits typed on `Argent` (or the amount entry's value), awaiting a payer card (A22);
    #: an offer made while they wait leaves them out (A10)
    typed: str = ""
    cards_first: tuple[str, ...] = ()
    cards_second: tuple[str, ...] = ()
    for_debt: bool = False


@dataclass(frozen=True, slots=True)
class Trading:
    """A trade being composed: no timeout (READINGS B1), X abandons it."""

    draft: TradeDraft
    expires: float | None = None


@dataclass(frozen=True, slots=True)
class Offer:
    """The offer made: the partner answers ✓ (or their card) or X."""

    draft: TradeDraft
    expires: float


@dataclass(frozen=True, slots=True)
class Interest:
    """The interest question of §3.10 (from the game state): ✓ keep, M lift."""

    number: int


# ---- Chance and Community Chest (cards.py)


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A Chance / Community Chest card tapped, chosen or drawn: the drawer's bank card applies
    it; no timeout (§4.1: X before the bank card abandons it). *effect* (with its *amounts*):
    a generic effect of §4.5 chosen by the card icon (editions without a card table, A17);
    *number* is then 0."""

    deck: str
    number: int
    expires: float | None = None
    effect: int = 0
    amounts: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class DrawOffer:
    """``variants.virtual_decks``: the card icon's deck chosen, `✓ tirer` shows (READINGS E4):
    ✓ draws the next card of the unit's own deck; digits and M get the error cue; X leaves."""

    deck: str
    expires: float


@dataclass(frozen=True, slots=True)
class PayOrDraw:
    """Community Chest 13 (READINGS E17): ✓ pays, M draws a Chance, X abandons; no timeout."""

    deck: str
    number: int
    card: int


@dataclass(frozen=True, slots=True)
class AwaitDraw:
    """`Tirez une Chance` / `Tirez une Caisse` (READINGS C7, C16, E7, E17): the next card of
    *deck* applies to *card*, the drawer, without `Qui a tiré ?`. A tag of that deck, or ✓
    with virtual decks; X abandons; no timeout."""

    deck: str
    card: int


# ---- auctions, the auction series and bankruptcy (auctions.py)


@dataclass(frozen=True, slots=True)
class AuctionOffer:
    number: int
    expires: float


@dataclass(frozen=True, slots=True)
class Series:
    """The auction series after a bankruptcy to the bank (§3.13): deed *at* of *deeds* is
    offered; ✓ starts its auction, X passes it. A power cut abandons the rest (§5.3)."""

    deeds: tuple[int, ...]
    at: int


@dataclass(frozen=True, slots=True)
class Bankruptcy:
    """Item 16 chosen during a debt, ✓ given: the debtor's card declares it."""

    expires: float
