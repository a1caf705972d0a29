"""The classic ruleset's own commands (docs/classic.md §3, §4), beside the core's new game, landing
(:class:`bank.engine.commands.Land`, the landing gesture) and auction sale.

A command that raises money for an open debt says so (``for_debt``): it then joins the undo
group of the payment that caused the debt (§3.16), and the rules refuse it when that flag does
not match the game (a debt open or not). Registered with the core's command reader.
Imports the core's command type and the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bank.engine.commands import AuctionSale, Command, register_commands


@dataclass(frozen=True, slots=True)
class Visit(Command):
    """*card* lands on deed *number*; *dice* is the visitor's dice total (a utility)."""

    name: ClassVar[str] = "visit"
    card: int
    number: int
    dice: int | None = None


@dataclass(frozen=True, slots=True)
class PassGo(Command):
    """The GO icon: the salary; *exact* (landing on GO) pays double with ``variants.double_go``."""

    name: ClassVar[str] = "classic_go"
    card: int
    exact: bool = False


@dataclass(frozen=True, slots=True)
class GoToJail(Command):
    name: ClassVar[str] = "classic_jail"
    card: int


@dataclass(frozen=True, slots=True)
class LeaveJail(Command):
    """Leave jail: ``how`` is ``fee``, ``card`` (a jail card, of *deck* or the first held) or
    ``double`` (a physical double, taken at its word)."""

    name: ClassVar[str] = "classic_leave_jail"
    card: int
    how: str
    deck: str | None = None


@dataclass(frozen=True, slots=True)
class PayTax(Command):
    """The tax of the ring's TAX space at *position*."""

    name: ClassVar[str] = "tax"
    card: int
    position: int


@dataclass(frozen=True, slots=True)
class PayBank(Command):
    """Menu item 5: a payment the player must make to the bank (a card fine, A7)."""

    name: ClassVar[str] = "pay_bank"
    card: int
    amount: int


@dataclass(frozen=True, slots=True)
class ReceiveBank(Command):
    name: ClassVar[str] = "receive_bank"
    card: int
    amount: int


@dataclass(frozen=True, slots=True)
class CollectPot(Command):
    name: ClassVar[str] = "collect_pot"
    card: int


@dataclass(frozen=True, slots=True)
class Build(Command):
    name: ClassVar[str] = "build"
    card: int
    number: int


@dataclass(frozen=True, slots=True)
class SellBuilding(Command):
    """One step down on deed *number*; ``whole_group`` sells every building of its group (§3.8)."""

    name: ClassVar[str] = "sell_building"
    card: int
    number: int
    whole_group: bool = False
    for_debt: bool = False


@dataclass(frozen=True, slots=True)
class Mortgage(Command):
    """Mortgage an unmortgaged deed, or lift a mortgaged one (§3.9)."""

    name: ClassVar[str] = "mortgage"
    card: int
    number: int
    for_debt: bool = False


@dataclass(frozen=True, slots=True)
class Trade(Command):
    """A trade between *first* and *second* (§3.11): deeds each gives, cash one way, jail cards."""

    name: ClassVar[str] = "trade"
    first: int
    second: int
    deeds_first: tuple[int, ...] = ()
    deeds_second: tuple[int, ...] = ()
    cash: int = 0
    #: who pays *cash*: *first* or *second*
    cash_from: int | None = None
    #: decks of the jail cards each gives (the first held of that deck moves)
    cards_first: tuple[str, ...] = ()
    cards_second: tuple[str, ...] = ()
    for_debt: bool = False


@dataclass(frozen=True, slots=True)
class AnswerInterest(Command):
    """The interest question of a received mortgaged deed: keep (pay 10 %) or lift (§3.10)."""

    name: ClassVar[str] = "interest"
    number: int
    lift: bool


@dataclass(frozen=True, slots=True)
class RollDice(Command):
    """The unit rolls for *card* (None: anonymous). *fixed* replaces the white dice (a script's
    ``roll`` line) and *third* the third die's face (``roll A B T``; None: drawn from the
    seed); *pick* is a ``lancer`` pick (never a jail try nor a double of a row, two dice)."""

    name: ClassVar[str] = "roll"
    transparent: ClassVar[bool] = True
    #: an undo rolls it again on the state without the undone transaction (READINGS A4)
    replayed_by_undo: ClassVar[bool] = True
    card: int | None
    fixed: tuple[int, ...] = ()
    pick: bool = False
    third: str | None = None


@dataclass(frozen=True, slots=True)
class PlayCard(Command):
    """Chance or Community Chest card *number* of *deck* drawn by *card* (§4).

    *choice*: the option of a choice card (Chance 6, Chest 13, the nearest station), 0-based;
    *passed_go*: the answer to "Passé par Départ ?" when the ring cannot tell.
    """

    name: ClassVar[str] = "card"
    deck: str
    number: int
    card: int
    choice: int | None = None
    passed_go: bool | None = None


@dataclass(frozen=True, slots=True)
class GenericCard(Command):
    """A generic effect G1-G8 of §4.5 (editions without a card table), with its amounts."""

    name: ClassVar[str] = "generic_card"
    deck: str
    effect: int
    card: int
    amounts: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SeriesSale(AuctionSale):
    """A sale of the auction series after a bankruptcy to the bank (§3.13): part of the
    bankruptcy, so never undone (C13)."""

    name: ClassVar[str] = "series_sale"
    undoable: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class DrawCard(Command):
    """``variants.virtual_decks``: the unit draws the next card of its own shuffled *deck*
    (docs/readings.md D2). Like a roll, the draw is never undone (E6); the drawn card is then
    applied by :class:`PlayCard` once the drawer's card is tapped."""

    name: ClassVar[str] = "draw"
    transparent: ClassVar[bool] = True
    deck: str


@dataclass(frozen=True, slots=True)
class TimeUp(Command):
    """``variants.time_limit_minutes`` reached while nothing is in progress: the game ends and
    the players rank by worth (§3.14). The unit, which keeps the running time, sends it."""

    name: ClassVar[str] = "time_up"
    undoable: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class ForceBattle(Command):
    """Star Wars II: *card* met a Force symbol (§7.1, menu item 14). *face* is what the unit
    asked when it does not know it: the Force die's face (``light``, ``dark``, ``shift``) under
    ``starwars.force_rule = "die"``, the symbol met (``light``, ``dark``) under ``"symbol"``."""

    name: ClassVar[str] = "force"
    card: int
    face: str | None = None


@dataclass(frozen=True, slots=True)
class DeclareBankruptcy(Command):
    name: ClassVar[str] = "bankruptcy"
    undoable: ClassVar[bool] = False
    card: int


register_commands(
    Visit,
    PassGo,
    GoToJail,
    LeaveJail,
    PayTax,
    PayBank,
    ReceiveBank,
    CollectPot,
    Build,
    SellBuilding,
    Mortgage,
    Trade,
    AnswerInterest,
    RollDice,
    PlayCard,
    GenericCard,
    SeriesSale,
    DrawCard,
    TimeUp,
    ForceBattle,
    DeclareBankruptcy,
)
