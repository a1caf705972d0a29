"""The classic unit's behaviour (docs/classic.md §5): its steps and gestures over the core's shell.

:class:`ClassicUnit` adds to :class:`bank.unit.shell.UnitShell` the keypad (``0``-``9``, ``⌫``)
and the three-button number entries (amount and pick, §5.2), a deed tapped and waiting for a
bank card (landing), M (the auction), the auctions with typed bids, the 16-item menu with its
digit shortcuts (§5.4), the build / sell / mortgage sessions, the trade and its offer, the
interest question (from the game state: it survives a power cut), the jail choice, the unit's
dice, Chance and Community Chest by tag or by the menu, and the info screens (§5.6). The rules
say what each transaction did (:mod:`bank.rulesets.classic.outcomes`): this module shows it and
plays its cues, and never works it out again.

Steps other than those the game state holds (a debt, the interest question, the game's end)
are abandoned by a power cut (§5.3, first row).

Imports the engine (game, commands, errors, state, auction), the unit shell and its I/O
types, the classic rules' commands, outcomes, state and screens; never pygame or the disk.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

from bank.auction import Auction
from bank.commands import AuctionSale, Command
from bank.errors import RuleError
from bank.events import Event
from bank.game import Game, Transaction
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.edition import GENERIC_EFFECTS
from bank.rulesets.classic.force import ASKED
from bank.rulesets.classic.mega import SKYSCRAPER, BirthdayGift, must_lift
from bank.rulesets.classic.rules import ClassicRulesEngine, interest
from bank.rulesets.classic.screens import ClassicScreens
from bank.rulesets.classic.state import classic
from bank.rulesets.classic.text import SHORTS_FR
from bank.unit.io import Button, CardId, Cue, Icon, Input, Output, Screen
from bank.unit.shell import (
    AwaitWinner,
    Bidding,
    Finished,
    Idle,
    JailChoice,
    Settling,
    UnitShell,
)
from bank.unit.text import LCD_WIDTH, engine_short, fit

__all__ = ["ClassicUnit"]

#: the most digits a typed amount has (an entry, a bid, a trade's cash): a seventh is refused
_MAX_DIGITS = 6

#: the amount entry's steps after ``valider`` (§5.2): the banknotes, largest first
NOTES: Final = (500, 100, 50, 20, 10, 5, 1)
#: Méga's banknotes start at 1000 (§5.2)
MEGA_NOTES: Final = (1000, *NOTES)
#: the dice totals a pick offers, in order, before ``lancer`` (§5.2)
DICE_TOTALS: Final = (7, 8, 9, 10, 11, 12, 2, 3, 4, 5, 6)
#: the menu items every 40-space edition has; 13 with the pot variant, 14 in Star Wars (an
#: edition with sides), 16 during a debt
_ITEMS: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
_DEBT_ITEMS: Final = (8, 9, 10)
#: bankruptcy, offered during a debt only when less can still be raised than is owed (§3.12)
_BANKRUPTCY: Final = 16
#: the info items at the end of the menu (a box without a keyboard: every player's cash, the
#: ranking; ✓ shows a page, ✓ again the next one)
_INFO_ITEMS: Final = {17: "table", 18: "scores"}
_SESSIONS: Final = {7: "build", 8: "sell", 9: "mortgage"}
_TRADE_PANELS: Final = ("deeds", "cash", "cards", "summary")


# ---------------------------------------------------------------- steps


@dataclass(frozen=True, slots=True)
class DeedCheck:
    """A deed tapped: a bank card lands, M offers the auction, X goes back."""

    number: int
    expires: float


@dataclass(frozen=True, slots=True)
class AuctionOffer:
    number: int
    expires: float


@dataclass(frozen=True, slots=True)
class Menu:
    """Menu item *item* shows; *typed* is the first digit of a two-digit item."""

    item: int
    expires: float
    typed: str = ""
    #: item 1 with ``variants.double_go``: ✓ toggled the double salary
    exact: bool = False


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


@dataclass(frozen=True, slots=True)
class Interest:
    """The interest question of §3.10 (from the game state): ✓ keep, M lift."""

    number: int


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


def _amount(tx: Transaction) -> int:
    """The money the rules said a transaction moved."""
    return tx.outcome.amount if isinstance(tx.outcome, o.ClassicOutcome) else 0


# ---------------------------------------------------------------- the unit


class ClassicUnit(UnitShell):
    """The classic bank unit's behaviour over one :class:`Game`. Starts powered off."""

    screens: ClassicScreens
    #: the auction's refusals, in the classic texts
    _ERR_BIDS = "c.err.bids"
    #: a hold takes no time on a script's clock, and a hold of X let go early is no press of
    #: X (READINGS B2, C21)
    TIMELESS_HOLDS = True
    _LONG_PRESS = 1.0
    _ERR_NEED_BANK = "c.err.need_bank"

    def __init__(self, game: Game, config: object | None = None) -> None:
        super().__init__(game, config)  # type: ignore[arg-type]
        #: the rolls fixed by a script's ``roll`` lines (white dice, third die), first first
        self._rigged: list[tuple[tuple[int, ...], str | None]] = []
        #: the last deed tapped (info ``deed``)
        self._last_deed: int | None = None
        #: the paged info screen shown last: its name, page and screen (asked again: next page)
        self._info_shown: tuple[str, int, Screen] | None = None
        #: the auction series running: its deeds and the one being auctioned
        self._series: Series | None = None
        #: the debtor before the transaction being executed (to say `Dette réglée` after it)
        self._debtor_before: int | None = None
        #: the game's running time (§3.14's time limit): seconds run before the unit was last
        #: switched on, and when that was (None: off); power-off time does not count
        self._ran_before = 0.0
        self._on_since: float | None = None

    def _screens(self, game: Game, lang: str) -> ClassicScreens:
        return ClassicScreens(game.edition, lang)

    @property
    def _rules(self) -> ClassicRulesEngine:
        rules = self.game.ruleset
        assert isinstance(rules, ClassicRulesEngine), "a classic unit plays the classic rules"
        return rules

    def queue_roll(self, dice: tuple[int, ...], third: str | None = None) -> None:
        self._rigged.append((dice, third))

    def checking(self) -> int | None:
        return self.step.number if isinstance(self.step, DeedCheck) else None

    # ------------------------------------------------------------ read-only views (web)

    def _auction_offered(self) -> int | None:
        step = self.step
        if isinstance(step, Series):
            return step.deeds[step.at]
        return step.number if isinstance(step, AuctionOffer) else None

    def _auction_where(self) -> dict[str, Any]:
        """The auction series' place (`Enchère 1/4`), while one runs."""
        series = self.step if isinstance(self.step, Series) else self._series
        return {"series": [series.at + 1, len(series.deeds)]} if series is not None else {}

    def step_view(self) -> dict[str, Any] | None:
        """The step in progress that the table may want to read beside the LCD: the trade being
        composed or offered, the interest question, a session (the web view). None: nothing
        more than the screen says."""
        step = self.step
        if isinstance(step, Interest):
            deed = self._rules.ed.deed(step.number)
            rounding = self._rules.settings(self._state).classic.interest_rounding
            keep = interest(deed.mortgage, rounding)
            owner = self._state.prop(step.number).owner
            return {"kind": "interest", "number": step.number, "card": owner, "keep": keep,
                    "lift": deed.mortgage + keep}  # fmt: skip
        if isinstance(step, Trading | Offer):
            d = step.draft
            return {
                "kind": "trade_offer" if isinstance(step, Offer) else "trade",
                "panel": _TRADE_PANELS[d.panel],
                "first": d.first,
                "second": d.second,
                "deeds_first": list(d.deeds_first),
                "deeds_second": list(d.deeds_second),
                "cash": d.cash if d.cash_from is not None else 0,
                "cash_from": d.cash_from,
                "cash_typed": int(d.typed) if d.typed else None,
                "cards_first": list(d.cards_first),
                "cards_second": list(d.cards_second),
            }
        if isinstance(step, Session):
            return {"kind": "session", "session": step.kind, "card": step.card}
        return None

    # ------------------------------------------------------------ state-held steps

    def _sync(self) -> None:
        before = self.step
        super()._sync()
        if self.is_on and not self._state.started:  # registration: the next game's clock
            self._ran_before, self._on_since = 0.0, self._now
        if not self.is_on or isinstance(self.step, Finished):
            return
        if isinstance(self.step, Settling) and isinstance(
            before, Menu | Session | Trading | Offer | Entry | Bankruptcy
        ):
            # raising money for the debt (§5.3): the debtor's menu, session or trade goes on
            self.step = before
        due = classic(self._state).interest_due if self._state.started else ()
        if due:
            self.step = Interest(due[0])
        elif isinstance(self.step, Interest):
            self.step = Idle()
            super()._sync()

    def power_on(self, at: float, game: Game | None = None) -> list[Output]:
        self._series = None  # the rest of an auction series is abandoned (§5.3)
        self._on_since = max(self._now, at)
        return super().power_on(at, game)

    def power_off(self, at: float) -> list[Output]:
        if self._on_since is not None:
            self._ran_before += max(self._now, at) - self._on_since
            self._on_since = None
        return super().power_off(at)

    # ------------------------------------------------------------ the time limit (§3.14)

    def running_seconds(self) -> float:
        """How long the unit has run in this game (power-off time does not count)."""
        on = 0.0 if self._on_since is None else self._now - self._on_since
        return self._ran_before + on

    def _time_over_at(self) -> float | None:
        """When ``variants.time_limit_minutes`` ends the game, while nothing is in progress
        (no debt, question, auction, entry, menu, session, check screen or card step: C9)."""
        step = self.step
        if self._on_since is None or not isinstance(step, Idle) or step.revert_at is not None:
            return None
        s = self._state
        if not s.started or s.game_over:
            return None
        minutes = self._rules.settings(s).variants.time_limit_minutes
        if not minutes:
            return None
        return self._on_since + max(0.0, minutes * 60 - self._ran_before)

    def _time_up(self) -> None:
        tx = self._execute(c.TimeUp())
        if tx is not None:
            self.step = Idle()
            self._after(tx, self._step_screen())

    def _handle(self, inp: Input) -> None:
        super()._handle(inp)
        # a gesture that brought the unit back to idle after the limit: the game ends now
        due = self._time_over_at() if self.is_on and self.fault is None else None
        if due is not None and due <= self._now:
            self._time_up()

    def _step_screen(self) -> Screen:
        if isinstance(self.step, Interest):
            return self._interest_screen(self.step.number)
        debtor = self._state.debtor() if self._state.started else None
        if isinstance(self.step, Settling) and debtor is not None:
            cfg = self._rules.settings(self._state)
            can = self._rules.liquidation(self._state, debtor.card, cfg)
            return self.screens.debt(self._state, debtor, can)
        return super()._step_screen()

    def _interest_screen(self, number: int) -> Screen:
        deed = self._rules.ed.deed(number)
        cfg = self._rules.settings(self._state)
        keep = interest(deed.mortgage, cfg.classic.interest_rounding)
        owner = self._state.prop(number).owner
        lift_only = (
            self._rules.ed.mega
            and owner is not None
            and must_lift(self._state, self._rules.ed, number, owner)
        )
        return self.screens.interest(
            self._state, number, keep, deed.mortgage + keep, lift_only=lift_only
        )

    # ------------------------------------------------------------ time

    def _step_deadline(self) -> float | None:
        # the steps with an ``expires`` time and the auction's seconds: the shell's
        over = self._time_over_at()
        if over is not None:
            return over
        return super()._step_deadline()

    def _timeout(self) -> None:
        step = self.step
        if isinstance(step, Offer):
            self.step = Idle()
            self._show(self.screens.screen("trade_refused", self.screens.say("c.trade_refused")))
            return
        over = self._time_over_at()
        if over is not None and over <= self._now:
            self._time_up()
            return
        super()._timeout()

    def _entry_expiry(self) -> float:
        return self._now + self.config.entry_seconds

    def _idle_expiry(self) -> float:
        return self._now + self.config.idle_seconds

    # ------------------------------------------------------------ refusals

    def _refuse_rule(self, err: RuleError) -> None:
        self._play(Cue.ERROR)
        self._show(self.screens.refused(self._rule_text(err)))

    def _rule_text(self, err: RuleError) -> str:
        """A refusal's reason in one LCD line."""
        key = err.key.strip().lower()
        if self.lang == "fr" and key in SHORTS_FR:
            return fit(SHORTS_FR[key].format(**err.fields) if err.fields else SHORTS_FR[key])
        return engine_short(self.lang, err.key, **err.fields)

    # ------------------------------------------------------------ the keypad

    def _on_key(self, key: str) -> None:
        step = self.step
        if isinstance(step, Entry):
            self._entry_key(step, key)
        elif isinstance(step, Pick):
            self._pick_key(step, key)
        elif isinstance(step, Menu):
            self._menu_key(step, key)
        elif isinstance(step, Bidding):
            if key != "back" and len(step.typed) >= _MAX_DIGITS:
                self._refuse("c.err.digits")  # refused, never cut: ⌫ takes the digits back
                return
            typed = step.typed[:-1] if key == "back" else step.typed + key
            step.auction.deadline = self._now + step.auction.seconds  # typing never loses it
            self._show_bidding(step.auction, typed)
        elif isinstance(step, Trading) and _TRADE_PANELS[step.draft.panel] == "cash":
            # digits await a payer card; the amount set before stays until one taps (A22)
            d = step.draft
            if key != "back" and len(d.typed) >= _MAX_DIGITS:
                self._refuse("c.err.digits")  # refused, never cut: ⌫ takes the digits back
                return
            typed = d.typed[:-1] if key == "back" else d.typed + key
            self._trade_panel(replace(d, typed=typed))
        else:
            self._refuse("err.not_now")

    # ------------------------------------------------------------ buttons

    def _on_button(self, button: Button) -> None:
        step = self.step
        if isinstance(step, Idle) and button is Button.MENU:
            self._open_menu(1)
        elif isinstance(step, Settling) and button is Button.MENU:
            self._open_menu(_DEBT_ITEMS[0])
        elif isinstance(step, DeedCheck):
            if button is Button.MENU:
                if self._state.prop(step.number).owner is not None:
                    # Méga's Auction space with every deed owned: the auction icon says so
                    free = any(p.owner is None for p in self._state.properties)
                    if free or not self._rules.ed.mega:
                        self._refuse("c.err.owned")
                    else:
                        self._play(Cue.ERROR)
                        self._show(self.screens.no_free_deed())
                else:
                    self.step = AuctionOffer(step.number, self._idle_expiry())
                    self._show(self._auction_offer_screen(step.number))
            elif button is Button.OK:
                self._refuse("c.err.need_bank")
            else:
                self._to_idle()
        elif isinstance(step, AuctionOffer):
            self._offer_button(step, button)
        elif isinstance(step, Menu):
            self._menu_button(step, button)
        elif isinstance(step, Entry):
            self._entry_button(step, button)
        elif isinstance(step, Pick):
            self._pick_button(step, button)
        elif isinstance(step, Session) and step.sell_all is not None and button is Button.OK:
            self._session_tap(replace(step, sell_all=None), step.sell_all, whole_group=True)
        elif isinstance(step, Session) and step.sell_all is not None:
            self.step = replace(step, sell_all=None, expires=self._idle_expiry())
            self._show(self.screens.session(self._state, step.kind, step.card))
        elif isinstance(step, Session):
            self._end_session(step)
        elif isinstance(step, Trading):
            self._trading_button(step, button)
        elif isinstance(step, Offer):
            if button is Button.OK:
                self._commit_trade(step.draft)
            elif button is Button.CANCEL:
                self.step = Idle()
                self._show(
                    self.screens.screen("trade_refused", self.screens.say("c.trade_refused"))
                )
            else:
                self._refuse("err.not_now")
        elif isinstance(step, CardDrawn):
            if button is Button.CANCEL:
                self._to_idle()
            else:
                self._refuse("c.err.need_bank")
        elif isinstance(step, PayOrDraw):
            self._pay_or_draw_button(step, button)
        elif isinstance(step, AwaitDraw):
            self._await_draw_button(step, button)
        elif isinstance(step, DrawOffer):
            if button is Button.OK:
                number = self.draw_virtual(step.deck)
                if number is not None:
                    self.step = CardDrawn(step.deck, number)
                    self._show(self.screens.card(step.deck, number))
            elif button is Button.CANCEL:
                self._to_idle()
            else:
                self._refuse("err.not_now")
        elif isinstance(step, JailChoice):
            how = {Button.OK: "fee", Button.MENU: "card", Button.CANCEL: "double"}[button]
            tx = self._run(c.LeaveJail(step.card, how), lambda tx: self._jail_out(tx, step.card))
            if tx is None and how == "fee" and self._fee_short(step.card):
                # READINGS E16: `Pas assez` (shown by the refusal) and the question closes,
                # the player still in jail: nobody is stuck at a question they cannot answer
                self.step = Idle()
        elif isinstance(step, Interest):
            if button is Button.CANCEL:
                self._refuse("c.err.interest")
            else:
                self._answer_interest(step.number, lift=button is Button.MENU)
        elif isinstance(step, Series):
            if button is Button.OK:
                self._series = step
                self._start_auction(step.deeds[step.at])
            elif button is Button.CANCEL:
                self._next_in_series(step)
            else:
                self._refuse("err.not_now")
        elif isinstance(step, Bankruptcy):
            if button is Button.CANCEL:
                self.step = Idle()
                self._sync()
                self._show(self._step_screen())
            else:
                self._refuse("c.err.need_bank")
        else:
            super()._on_button(button)

    # ------------------------------------------------------------ taps

    def _step_tap(self, card: CardId) -> None:
        step = self.step
        if card.kind == "deed":
            self._last_deed = card.number
        if isinstance(step, Idle):
            self._idle_tap(card)
        elif isinstance(step, DeedCheck):
            if card.kind == "bank":
                self._landing(card.number, step.number)
            else:
                self._refuse("c.err.need_bank")
        elif isinstance(step, Menu):
            if card.kind == "bank":
                self._apply_item(step, card.number)
            else:
                self._refuse("c.err.need_bank")
        elif isinstance(step, Session):
            if card.kind == "deed":
                self._session_tap(step, card.number)
            else:
                self._refuse("c.err.need_deed")
        elif isinstance(step, Trading):
            self._trading_tap(step, card)
        elif isinstance(step, Offer):
            if card.kind == "bank" and card.number == step.draft.second:
                self._commit_trade(step.draft)
            else:
                self._refuse("err.not_now")
        elif isinstance(step, CardDrawn):
            if card.kind != "bank":
                self._refuse("c.err.need_bank")
            elif step.effect:
                self._generic(step.deck, step.effect, card.number, step.amounts)
            else:
                self._play_card(step.deck, step.number, card.number, None, None)
        elif isinstance(step, AwaitDraw):
            self._await_draw_tap(step, card)
        elif isinstance(step, PayOrDraw):
            self._refuse("err.not_now")
        elif isinstance(step, Bankruptcy):
            debtor = self._state.debtor()
            if card.kind == "bank" and debtor is not None and card.number == debtor.card:
                tx = self._run(c.DeclareBankruptcy(card.number), self._bankrupt_screen)
                done = tx.outcome if tx is not None else None
                if isinstance(done, o.Bankrupt) and done.auction:
                    self._offer_series(Series(done.auction, 0))
            else:
                self._refuse("err.not_now")
        elif (
            isinstance(step, JailChoice)
            and card.kind in ("chance", "chest")
            and self._is_jail_card(card)
            and card.kind in classic(self._state).cards_of(step.card)
        ):  # the held "Get out of jail free" tag, at the jail question: used (§3.6)
            jailed = step.card
            self._run(c.LeaveJail(jailed, "card", card.kind), lambda tx: self._jail_out(tx, jailed))
        elif isinstance(
            step, Entry | Pick | AuctionOffer | JailChoice | Interest | Series | DrawOffer
        ):
            self._refuse("err.not_now" if not isinstance(step, Interest) else "c.err.interest")
        elif isinstance(step, Finished) and card.kind == "bank":
            player = self._state.player(card.number)
            if player is None:
                self._refuse("err.not_player")
                return
            worth = self._rules.worth(self._state, card.number, self._rules.settings(self._state))
            self._show(self.screens.final(self._state, player, worth))
        elif isinstance(step, Settling) and card.kind == "bank":
            player = self._state.player(card.number)
            if self._playing(card.number) and player is not None:
                self._show(self.screens.balance(self._state, player))
        else:
            super()._step_tap(card)

    def _idle_tap(self, card: CardId) -> None:
        s = self._state
        if card.kind == "bank":
            player = s.player(card.number)
            if not self._playing(card.number) or player is None:
                return
            self.step = Idle(self._idle_expiry())
            self._show(self.screens.balance(s, player))
        elif card.kind == "deed":
            self.step = DeedCheck(card.number, self._idle_expiry())
            self._show(self._deed_screen(card.number))
        else:  # chance or chest
            holder = next(
                (
                    h
                    for h, deck in classic(s).jail_cards
                    if deck == card.kind and self._is_jail_card(card)
                ),
                None,
            )
            if not self._rules.ed.card_table:
                # §4.5: no card table, so no tag can be read; the card icon offers the
                # generic effects instead
                self._refuse_rule(RuleError("no card table", "unknown card"))
                return
            if holder is not None:
                self.step = Idle(self._idle_expiry())
                self._show(
                    self.screens.card_done(
                        s,
                        card.kind,
                        card.number,
                        holder,
                        self.screens.say("c.card.holder", token=self.screens.token(s, holder)),
                        0,
                    )
                )
                return
            self.step = CardDrawn(card.kind, card.number)
            self._show(self.screens.card(card.kind, card.number))

    # ------------------------------------------------------------ the virtual decks (D2)

    def _virtual_decks(self) -> bool:
        s = self._state
        return s.started and bool(classic(s).decks)

    def virtual_decks(self) -> bool:
        """Whether this game draws its cards from the unit's own shuffled decks
        (``variants.virtual_decks`` with a card table)."""
        return self._virtual_decks()

    def draw_virtual(self, deck: str) -> int | None:
        """Draw the top card of virtual deck *deck* (``chance``, ``chest``): committed at once,
        it goes under the deck and is never undone (READINGS D2, E5, E6). The number drawn,
        for the caller to apply to the drawer; None when refused (the refusal is shown: no
        virtual decks in this game). The `✓ tirer` screen and `Tirez une …` use it (E4, E7)."""
        tx = self._execute(c.DrawCard(deck))
        if tx is None or not isinstance(tx.outcome, o.Drawn):
            return None
        return tx.outcome.number

    def _draw_offer_screen(self, deck: str) -> Screen:
        scr = self.screens
        return scr.screen(
            "draw",
            self._rules.ed.deck_names[deck],
            scr.say("c.draw.ok"),
            icons=frozenset({Icon.CARD}),
        )

    def _is_jail_card(self, card: CardId) -> bool:
        entry = self._rules.ed.cards.get((card.kind, card.number))
        return entry is not None and entry.effect == "jail_card"

    def _playing(self, card: int) -> bool:
        """Whether bank card *card* plays in this game; if not, the error cue and why (not a
        player, or eliminated: refused from then on, §3.13) and the step stays."""
        player = self._state.player(card)
        if player is None:
            self._refuse("err.not_player")
        elif player.bankrupt:
            self._refuse_rule(RuleError(f"bank card {card} is eliminated", "eliminated"))
        return player is not None and not player.bankrupt

    def _deed_screen(self, number: int) -> Screen:
        s = self._state
        deed = self._rules.ed.deed(number)
        owned = s.prop(number).owner is not None
        rent: int | None = None
        if owned and deed.kind != "utility":
            rent = self._rules.rent(s, number, None, self._rules.settings(s))
        return self.screens.deed(s, number, rent)

    # ------------------------------------------------------------ transactions

    def _run(
        self, command: Command, screen_of: Callable[[Transaction], Screen]
    ) -> Transaction | None:
        """Execute *command*; on success go idle and show ``screen_of(tx)``."""
        tx = self._execute(command)
        if tx is None:
            return None
        self.step = Idle()
        self._after(tx, screen_of(tx))
        return tx

    def _cues(self, tx: Transaction) -> list[Cue]:
        done = tx.outcome
        cues: list[Cue] = []
        if isinstance(done, o.Rolled):
            cues.append(Cue.DICE)
        if isinstance(done, o.ClassicOutcome) and done.amount and not isinstance(done, o.Rolled):
            cues.append(Cue.KACHING)
        if isinstance(done, o.Built):
            cues.append(Cue.LEVEL_UP)
        if isinstance(done, o.Jailed) or (
            isinstance(done, o.Rolled) and done.effect == "three doubles"
        ):
            cues.append(Cue.JAIL)
        if isinstance(done, o.Rolled) and done.effect == "fee":
            cues.append(Cue.KACHING)
        if self._state.game_over:
            cues.append(Cue.GAME_OVER)
        return cues

    def _landing(self, card: int, number: int, dice: int | None = None) -> None:
        if not self._playing(card):  # before a dice pick opens for a card that cannot pay
            return
        s = self._state
        deed = self._rules.ed.deed(number)
        prop = s.prop(number)
        needs_dice = (
            dice is None
            and deed.kind == "utility"
            and prop.owner not in (None, card)
            and number not in classic(s).mortgaged
        )
        # judged before anything is asked or journalled: a claim already too late is refused
        # at the card tap, before a dice pick opens (READINGS E19; any total does to judge it),
        # and a landing that moves nothing is shown, not journalled (E18)
        try:
            probe = self._rules.decide(s, c.Visit(card, number, 7 if needs_dice else dice))
        except RuleError as err:
            self._landing_refused(err, number, prop.owner is None)
            return
        if not probe.events and isinstance(probe.outcome, o.Own | o.NoRent):
            self.step = Idle()
            self._show(self._landing_screen(probe.outcome, number))
            return
        if needs_dice:
            self._open_dice_pick(card, number)
            return
        try:
            tx = self.game.execute(c.Visit(card, number, dice))
        except RuleError as err:
            self._landing_refused(err, number, prop.owner is None)
            return
        self.step = Idle()
        self._after(tx, self._landing_screen(tx.outcome, number))

    def _landing_refused(self, err: RuleError, number: int, unowned: bool) -> None:
        if err.key == "too late":
            self._play(Cue.ERROR)
            self._show(self.screens.late(number))
            self.step = Idle()
        elif err.key == "first lap":
            self._play(Cue.ERROR)
            self._show(self.screens.short(number, "c.first_lap"))
        elif err.key == "not enough money" and unowned:
            self._play(Cue.ERROR)
            self._show(self.screens.short(number))
        else:
            self._refuse_rule(err)

    def _landing_screen(self, done: object, number: int) -> Screen:
        s, after = self.screens, self._state
        if isinstance(done, o.Bought):
            return s.bought(after, number, done.card or 0, done.amount, done.completed_group)
        if isinstance(done, o.RentPaid):
            return s.rent(after, number, done.card or 0, done.owner, done.amount)
        if isinstance(done, o.NoRent):
            return s.no_rent(number, done.reason)
        if isinstance(done, o.Own):
            return s.own(number, done.card or 0)
        if isinstance(done, o.Short):
            return s.short(number)
        return self._deed_screen(number)

    # ------------------------------------------------------------ picks

    def _open_dice_pick(self, card: int, number: int) -> None:
        last = classic(self._state).last_roll
        options: tuple[int, ...] = (*DICE_TOTALS, 0)  # 0: lancer
        mine = last is not None and last[0] == card
        if last is not None and mine:
            # the payer's own roll, the latest: an extra first option (READINGS A1, A24)
            options = (last[1] + last[2], *options)
        self.step = Pick(
            "dice", options, 0, self._entry_expiry(), card=card, number=number, last=mine
        )
        self._show(self._pick_screen(self.step))

    def _pick_text(self, pick: Pick, value: int, index: int = -1) -> str:
        say = self.screens.say
        if pick.purpose == "dice":
            if value == 0:
                return say("c.pick.roll")
            if pick.last and index == 0:
                return say("c.pick.last", n=value)
            return str(value)
        if pick.purpose == "passed_go":
            return say("c.pick.yes") if value else say("c.pick.no")
        if pick.purpose == "deck":
            return self._rules.ed.deck_names["chance" if value == 1 else "chest"]
        if pick.purpose == "choice":
            return self._choice_text(pick, value)
        if pick.purpose == "generic":
            effect = GENERIC_EFFECTS[value]
            return f"G{value} {effect.fr if self.lang == 'fr' else effect.en}"
        if pick.purpose == "force":
            return say(f"c.force.{self._force_reading()}.{self._force_asked()[value - 1]}")
        return str(value)

    def _choice_text(self, pick: Pick, value: int) -> str:
        """A choice card's option: the space the token stood on (Community Chest 13 is a
        question of its own, :class:`PayOrDraw`)."""
        ed, say = self._rules.ed, self.screens.say
        entry = ed.cards.get((pick.deck or "", pick.number or 0))
        spaces = ed.spaces((pick.deck or "").upper())
        if entry is not None and 1 <= value <= len(spaces):
            return say("c.pick.from", deck=ed.deck_names[pick.deck or ""], pos=spaces[value - 1])
        return say("c.pick.option", n=value)

    def _pick_screen(self, pick: Pick) -> Screen:
        titles = {
            "dice": "c.pick.dice",
            "passed_go": "c.pick.passed_go",
            "deck": "c.pick.deck",
            "number": "c.pick.number",
            "choice": "c.pick.choice",
            "generic": "c.pick.generic",
            "force": f"c.pick.force.{self._force_reading()}",
        }
        text = self._pick_text(pick, pick.options[pick.index], pick.index)
        return self.screens.pick(self.screens.say(titles[pick.purpose]), text, pick.purpose)

    def _pick_key(self, pick: Pick, key: str) -> None:
        """Digits accumulate, two at most (a third starts over); the option typed shows and ✓
        takes it; a prefix of an option waits for the next digit; a typed digit never selects
        `lancer` (READINGS A14)."""
        if key == "back":
            typed = pick.typed[:-1]
        else:
            typed = pick.typed + key if len(pick.typed) < 2 else key
        typable = tuple(v for v in pick.options if not (pick.purpose == "dice" and v == 0))
        index = pick.index
        if typed and int(typed) in typable:
            index = pick.options.index(int(typed))
        elif typed and not any(str(v).startswith(typed) for v in typable if v >= 10):
            self.step = replace(pick, typed="", expires=self._pick_expiry(pick))
            self._refuse("c.err.no_item", n=typed)
            return
        self.step = replace(pick, index=index, typed=typed, expires=self._pick_expiry(pick))
        self._show(self._pick_screen(self.step))

    def _pick_expiry(self, pick: Pick) -> float | None:
        """A pick waits 30 s from its last key; a question (`Passé par Départ ?`) as long as
        it takes (READINGS B1)."""
        return None if pick.expires is None else self._entry_expiry()

    def _pick_button(self, pick: Pick, button: Button) -> None:
        if button is Button.MENU:
            index = (pick.index + 1) % len(pick.options)
            self.step = replace(pick, index=index, typed="", expires=self._pick_expiry(pick))
            self._show(self._pick_screen(self.step))
        elif button is Button.CANCEL and pick.purpose == "passed_go":
            self._choose(pick, 0)  # X means "not passed": the card goes on (§4.1, C20)
        elif button is Button.CANCEL:
            self._to_idle()  # a choice card's X abandons the card (C20)
        else:
            self._choose(pick, pick.options[pick.index])

    def _choose(self, pick: Pick, value: int) -> None:
        if pick.purpose == "dice":
            assert pick.card is not None and pick.number is not None
            dice = value
            if value == 0:  # lancer: the unit rolls two dice now, for the payer
                fixed, third = self._next_fixed()
                tx = self._execute(c.RollDice(pick.card, fixed, pick=True, third=third))
                if tx is None or not isinstance(tx.outcome, o.Rolled):
                    return
                dice = tx.outcome.amount
                for cue in self._cues(tx):
                    self._play(cue)
            self._landing(pick.card, pick.number, dice)
        elif pick.purpose == "deck":
            deck = "chance" if value == 1 else "chest"
            if not self._rules.ed.card_table:  # the effect comes before the drawer (A17)
                options = tuple(n for n, e in GENERIC_EFFECTS.items() if not e.moves)
                self.step = Pick("generic", options, 0, self._entry_expiry(), deck=deck)
            elif self._virtual_decks():  # `✓ tirer` replaces the number pick (E4)
                self.step = DrawOffer(deck, self._entry_expiry())
                self._show(self._draw_offer_screen(deck))
                return
            else:
                options = tuple(range(1, 17))
                self.step = Pick("number", options, 0, self._entry_expiry(), deck=deck)
            self._show(self._pick_screen(self.step))
        elif pick.purpose == "number":
            assert pick.deck is not None
            self.step = CardDrawn(pick.deck, value)
            self._show(self.screens.card(pick.deck, value))
        elif pick.purpose == "choice":
            assert pick.deck is not None and pick.number is not None and pick.card is not None
            self._play_card(pick.deck, pick.number, pick.card, value - 1, None)
        elif pick.purpose == "generic":
            assert pick.deck is not None
            self._generic(pick.deck, value, pick.card, ())
        elif pick.purpose == "passed_go":
            assert pick.deck is not None and pick.number is not None and pick.card is not None
            self._play_card(pick.deck, pick.number, pick.card, pick.choice, bool(value))
        elif pick.purpose == "force":
            assert pick.card is not None
            self._force(pick.card, self._force_asked()[value - 1])

    def _generic(self, deck: str, effect: int, card: int | None, amounts: tuple[int, ...]) -> None:
        """Generic effect *effect*: its amounts (one entry each), then the drawer's card (A17:
        `Qui a tiré ?`), then it applies."""
        entry = GENERIC_EFFECTS[effect]
        if len(amounts) < entry.amounts:
            self.step = Entry(
                "generic", card, self._entry_expiry(), deck=deck, effect=effect, amounts=amounts
            )
            self._show(self._entry_screen(self.step))
            return
        scr = self.screens
        if card is None:
            self.step = CardDrawn(deck, 0, effect=effect, amounts=amounts)
            title = f"G{effect} {entry.fr if self.lang == 'fr' else entry.en}"
            self._show(
                scr.screen("card", title, scr.say("c.card.who"), icons=frozenset({Icon.CARD}))
            )
            return
        drawer = card
        if self._state.player(drawer) is None:
            self._refuse("err.not_player")
            return

        def shown(tx: Transaction) -> Screen:
            amount = _amount(tx)
            title = f"G{effect} {entry.fr if self.lang == 'fr' else entry.en}"
            text = scr.say("c.card.done", token=scr.token(self._state, drawer))
            return scr.screen(
                "card_done",
                title,
                text,
                amount=amount,
                token=scr.card_token(drawer),
                icons=frozenset({Icon.CARD}),
            )

        self._run(c.GenericCard(deck, effect, drawer, amounts), shown)

    # ------------------------------------------------------------ the amount entry

    def _entry_screen(self, entry: Entry) -> Screen:
        say = self.screens.say
        step = say("c.entry.ok") if entry.step == 0 else f"+{self._notes()[entry.step - 1]}"
        return self.screens.entry(say("c.entry.amount"), entry.value, step)

    def _open_entry(
        self, purpose: str, card: int | None, trade: TradeDraft | None = None, typed: str = ""
    ) -> None:
        """The amount entry; *typed*: the digits already typed on the trade's `Argent` panel."""
        ops = tuple(("d", int(ch)) for ch in typed)
        self.step = Entry(purpose, card, self._entry_expiry(), ops=ops, trade=trade)
        self._show(self._entry_screen(self.step))

    def _entry_key(self, entry: Entry, key: str) -> None:
        if key == "back":
            ops = entry.ops
            if ops and ops[-1][0] == "d":
                ops = ops[:-1]
            new = replace(entry, ops=ops, step=0)
        elif sum(1 for kind, _ in entry.ops if kind == "d") >= _MAX_DIGITS:
            self._refuse("c.err.digits")  # refused, never cut: the digits stay for ⌫
            return
        else:
            new = replace(entry, ops=(*entry.ops, ("d", int(key))), step=0)
        self.step = replace(new, expires=self._entry_expiry())
        self._show(self._entry_screen(self.step))

    def _entry_button(self, entry: Entry, button: Button) -> None:
        if button is Button.MENU:
            new = replace(entry, step=(entry.step + 1) % (len(self._notes()) + 1))
        elif button is Button.CANCEL:
            if not entry.ops:
                if entry.trade is not None:
                    self._trade_panel(entry.trade)
                else:
                    self._to_idle()
                return
            new = replace(entry, ops=entry.ops[:-1])
        elif entry.step:
            new = replace(entry, ops=(*entry.ops, ("n", self._notes()[entry.step - 1])))
        else:
            self._confirm_entry(entry)
            return
        self.step = replace(new, expires=self._entry_expiry())
        self._show(self._entry_screen(self.step))

    def _confirm_entry(self, entry: Entry) -> None:
        amount = entry.value
        if amount <= 0:
            self._refuse("c.err.zero")
            return
        if entry.purpose == "generic":
            assert entry.deck is not None
            self._generic(entry.deck, entry.effect, entry.card, (*entry.amounts, amount))
            return
        if entry.purpose == "trade":
            assert entry.trade is not None
            # the entry's value becomes the typed amount, awaiting a payer card (A22)
            self._trade_panel(replace(entry.trade, typed=str(amount)))
            return
        card = entry.card
        assert card is not None
        s = self.screens
        if entry.purpose == "pay":
            self._run(
                c.PayBank(card, amount),
                lambda tx: s.result("paid", self._state, card, "c.paid", amount=amount),
            )
        else:
            self._run(
                c.ReceiveBank(card, amount),
                lambda tx: s.result("received", self._state, card, "c.received", amount=amount),
            )

    # ------------------------------------------------------------ the menu

    def _notes(self) -> tuple[int, ...]:
        """The banknote steps of the three-button amount entry (§5.2)."""
        return MEGA_NOTES if self._rules.ed.mega else NOTES

    def _items(self) -> tuple[int, ...]:
        debtor = self._state.debtor()
        if debtor is not None:
            return (*_DEBT_ITEMS, _BANKRUPTCY) if self._bankruptcy_offered() else _DEBT_ITEMS
        cfg = self._rules.settings(self._state)
        extra = [13] if cfg.variants.free_parking != "off" else []
        if self._rules.ed.sides:
            extra.append(14)  # the Force battle (Star Wars)
        if self._rules.ed.mega:
            extra.append(15)  # the Birthday Gift space
        info = _INFO_ITEMS if self.config.info_items else {}
        return tuple(sorted((*_ITEMS, *extra, *info)))

    def _bankruptcy_offered(self) -> bool:
        """Item 16 is in the debt menu only when selling every building and mortgaging every
        deed would raise less than the debt (all the debtor owes, C22: §3.12, §5.4); otherwise
        it is absent, so M after item 10 closes the menu and ``1`` ``6`` is refused like any
        item the menu lacks."""
        debtor = self._state.debtor()
        if debtor is None:
            return False
        cfg = self._rules.settings(self._state)
        owed = self._rules.owed(self._state, debtor.card)
        return self._rules.liquidation(self._state, debtor.card, cfg) < owed

    def _open_menu(self, item: int, typed: str = "", exact: bool = False) -> None:
        self.step = Menu(item, self._idle_expiry(), typed, exact)
        self._show(self._menu_screen(self.step))

    def _menu_screen(self, menu: Menu) -> Screen:
        """The item's icon text on line 1 (its number in the model), the next step on line 2."""
        say, ed = self.screens.say, self._rules.ed
        item = menu.item
        hint = say("c.menu.ok") if item in (12, 16) else say("c.menu.tap")
        if item in _INFO_ITEMS:
            hint = say("c.menu.show")
        if item == 1:
            salary = ed.go_salary * (2 if menu.exact else 1)
            text = say("c.menu.1.double" if menu.exact else "c.menu.1", amount=salary)
        elif item in (3, 4):
            tax = ed.taxes[item - 3]
            text, hint = tax.name, say("c.menu.3", amount=tax.amount)
        elif item == 15:
            text = say("c.menu.gift", amount=ed.birthday_gift)
        else:
            text = say(f"c.menu.{item}")
        return self.screens.menu(item, text, hint)

    def _menu_key(self, menu: Menu, key: str) -> None:
        """A digit selects its item; the next digit makes a two-digit item when one exists
        (``1`` ``1`` is 11), else the error cue and the item stays (``9`` ``1`` keeps 9).
        Every key, a refused one too, restarts the menu's 10 s (READINGS B1)."""
        menu = replace(menu, expires=self._idle_expiry())
        self.step = menu
        items = self._items()
        if key == "back":
            self._open_menu(menu.item)
            return
        if menu.typed:
            two = int(menu.typed + key)
            if two in items:
                self._open_menu(two)
            else:
                self.step = replace(menu, typed="", expires=self._idle_expiry())
                self._refuse("c.err.no_item", n=two)
            return
        digit = int(key)
        if digit in items:
            self._open_menu(digit, typed=key)
        elif any(i > 9 and str(i).startswith(key) for i in items):
            self._open_menu(menu.item, typed=key)
        else:
            self._refuse("c.err.no_item", n=digit)

    def _menu_button(self, menu: Menu, button: Button) -> None:
        items = self._items()
        if button is Button.MENU:
            at = items.index(menu.item) + 1 if menu.item in items else len(items)
            if at < len(items):
                self._open_menu(items[at])
            else:
                self.step = Idle()
                self._sync()
                self._show(self._step_screen())
        elif button is Button.CANCEL:
            self.step = Idle()
            self._sync()
            self._show(self._step_screen())
        elif menu.item == 1 and self._rules.settings(self._state).variants.double_go:
            self._open_menu(1, exact=not menu.exact)
        elif menu.item == 11:
            self._roll(None)
        elif menu.item in _INFO_ITEMS and self._state.started:
            # the menu stays open on the item: ✓ again shows the next page, M the next item
            self.step = replace(menu, expires=self._idle_expiry())
            self._show(self._info_page(_INFO_ITEMS[menu.item]))
        elif menu.item == 12:
            self.step = Pick("deck", (1, 2), 0, self._entry_expiry())
            self._show(self._pick_screen(self.step))
        elif menu.item == 16:
            self.step = Bankruptcy(self._idle_expiry())
            debtor = self._state.debtor()
            card = debtor.card if debtor else 0
            self._show(self.screens.bankrupt(self._state, card, ask=True))
        else:
            self._open_menu(menu.item, exact=menu.exact)  # accepted, changes nothing

    def _apply_item(self, menu: Menu, card: int) -> None:
        s = self._state
        player = s.player(card)
        if not self._playing(card) or player is None:
            return
        item, scr = menu.item, self.screens
        debtor = s.debtor()
        if debtor is not None and card != debtor.card and item != 10:
            self._refuse("c.err.need_bank")  # a trade's debtor may be A or B (READINGS A10)
            return
        for_debt = debtor is not None
        if item == 1:
            self._run(
                c.PassGo(card, menu.exact),
                lambda tx: scr.result("go", self._state, card, "c.go", amount=_amount(tx)),
            )
        elif item == 2:
            if player.jailed:
                self.step = JailChoice(card)
                self._show(scr.jail_choice(s, card))
            else:
                self._run(
                    c.GoToJail(card), lambda tx: scr.result("jail", self._state, card, "c.jail.in")
                )
        elif item in (3, 4):
            tax = self._rules.ed.taxes[item - 3]
            self._run(
                c.PayTax(card, tax.position),
                lambda tx: scr.result("tax", self._state, card, "c.tax", amount=_amount(tx)),
            )
        elif item in (5, 6):
            self._open_entry("pay" if item == 5 else "receive", card)
        elif item in _SESSIONS:
            self.step = Session(_SESSIONS[item], card, self._idle_expiry(), for_debt)
            self._show(scr.session(s, _SESSIONS[item], card))
        elif item == 10:
            draft = TradeDraft(first=card, for_debt=for_debt)
            self.step = Trading(draft)
            self._show(scr.trade_panel(scr.say("c.trade.second"), scr.token(s, card)))
        elif item == 11:
            self._roll(card)
        elif item == 13:
            self._run(
                c.CollectPot(card),
                lambda tx: scr.result("pot", self._state, card, "c.pot", amount=_amount(tx)),
            )
        elif item == 14:
            self._force(card, None)
        elif item == 15:
            self._run(
                BirthdayGift(card),
                lambda tx: scr.result("gift", self._state, card, "c.gift", amount=_amount(tx)),
            )
        elif item == 16:
            self._refuse("err.not_now")  # ✓ first, then the debtor's card
        else:  # item 12 takes ✓ first
            self._refuse("err.not_now")

    # ------------------------------------------------------------ the Force (§7.1)

    def _force_reading(self) -> str:
        return self._rules.settings(self._state).starwars.force_rule

    def _force_asked(self) -> tuple[str, ...]:
        return ASKED[self._force_reading()]

    def _force(self, card: int, face: str | None) -> None:
        """The Force battle of *card*: judged at once when the unit knows the face of the
        lander's roll (or *face* was picked), else the pick of the face or the symbol."""
        try:
            tx = self.game.execute(c.ForceBattle(card, face))
        except RuleError as err:
            if err.key == "force face?" and face is None:
                options = tuple(range(1, len(self._force_asked()) + 1))
                self.step = Pick("force", options, 0, self._entry_expiry(), card=card)
                self._show(self._pick_screen(self.step))
            else:
                self._refuse_rule(err)
            return
        done = tx.outcome
        assert isinstance(done, o.ForceFought)
        self.step = Idle()
        self._after(tx, self.screens.force(self._state, done))

    def _fee_short(self, card: int) -> bool:
        """Whether *card* lacks the cash for the jail fee (READINGS E16)."""
        player = self._state.player(card)
        return player is not None and player.balance < self._rules.ed.jail_fee

    def _jail_out(self, tx: Transaction, card: int) -> Screen:
        return self.screens.result(
            "jail_out",
            self._state,
            card,
            "c.jail.out",
            amount=_amount(tx),
        )

    # ------------------------------------------------------------ the dice

    def _next_fixed(self) -> tuple[tuple[int, ...], str | None]:
        return self._rigged.pop(0) if self._rigged else ((), None)

    def _roll(self, card: int | None) -> None:
        fixed, third = self._next_fixed()
        try:
            tx = self.game.execute(c.RollDice(card, fixed, third=third))
        except RuleError as err:
            if fixed or third is not None:
                self._rigged.insert(0, (fixed, third))
            self._refuse_rule(err)
            return
        done = tx.outcome
        assert isinstance(done, o.Rolled)
        say = self.screens.say
        fee, tries = self._rules.ed.jail_fee, self._rules.ed.jail_tries
        if done.effect == "three doubles":
            second = say("c.dice.three")
        elif done.effect == "freed":
            second = say("c.dice.freed")
        elif done.effect.startswith("try "):
            second = say("c.dice.try", n=done.effect[4:], of=tries)
        elif done.effect == "fee":
            second = say("c.dice.fee", n=tries, fee=fee)
        elif done.effect == "triple":
            second = say("c.dice.triple")
        elif done.dice[0] == done.dice[1]:
            second = say("c.dice.double")
        else:
            second = ""
        self.step = Idle()
        self._after(tx, self.screens.dice(self._state, card, done.dice, second, done.third))

    # ------------------------------------------------------------ sessions

    def _session_tap(self, step: Session, number: int, whole_group: bool = False) -> None:
        s = self._state
        scr = self.screens
        command: Command
        # another deed tapped: that question is dropped; any tap, refused or not, restarts the
        # session's 10 s (READINGS B4)
        step = replace(step, sell_all=None, expires=self._idle_expiry())
        self.step = step
        if step.kind == "build":
            command = c.Build(step.card, number)
        elif step.kind == "sell":
            command = c.SellBuilding(step.card, number, whole_group, for_debt=step.for_debt)
        else:
            command = c.Mortgage(step.card, number, for_debt=step.for_debt)
        if not 1 <= number <= len(self._rules.ed.deeds):
            self._refuse("err.unknown_card")
            return
        if step.kind == "sell" and not whole_group and self._needs_whole_group(command):
            self.step = replace(step, sell_all=number, expires=None)
            level = s.prop(number).level or 0
            short = "c.sell_all.hotels" if level == SKYSCRAPER else "c.sell_all.houses"
            self._play(Cue.ERROR)
            self._show(
                scr.screen(
                    "sell_all",
                    scr.say(short),
                    scr.say("c.sell_all.ask"),
                    number=number,
                    level=level,
                    colour=scr.deed_colour(number),
                )
            )
            return
        tx = self._execute(command)
        if tx is None:
            return  # refused with its reason: the session goes on
        done = tx.outcome
        after = self._state
        if isinstance(done, o.Built):
            level = after.prop(number).level or 0
            if done.building:  # Méga: a skyscraper or a depot
                text = scr.say(f"c.built.{done.building}", amount=done.amount)
            elif done.hotel:
                text = scr.say("c.built.hotel", amount=done.amount)
            else:
                text = scr.say("c.built.house", n=level, amount=done.amount)
            screen = scr.session_result("built", after, number, text, done.amount, done.building)
        elif isinstance(done, o.BuildingSold):
            text = scr.say("c.sold", amount=done.amount)
            screen = scr.session_result(
                "building_sold", after, number, text, done.amount, done.building
            )
        elif isinstance(done, o.Mortgaged):
            text = scr.say("c.mortgaged", amount=done.amount)
            screen = scr.session_result("mortgaged", after, number, text, done.amount)
        else:
            assert isinstance(done, o.Lifted)
            text = scr.say("c.lifted", amount=done.amount)
            screen = scr.session_result("lifted", after, number, text, done.amount)
        del s
        self.step = replace(step, expires=self._idle_expiry())
        self._after(tx, screen)
        if isinstance(self.step, Settling | Finished | Interest):
            return
        if step.for_debt and self._state.debtor() is None:
            self.step = Idle()  # the debt is paid: the session ends with it
            self._sync()
        elif not isinstance(self.step, Session):
            self.step = replace(step, expires=self._idle_expiry())

    def _after(self, tx: Transaction, screen: Screen, extra: tuple[Cue, ...] = ()) -> None:
        keep = self.step if isinstance(self.step, Session) else None
        # the debtor before this transaction, read once: a transaction executed without
        # _execute (a landing, a card, the Force) must not see a debt settled long ago
        was_debtor, self._debtor_before = self._debtor_before, None
        super()._after(tx, screen, extra)
        if isinstance(self.step, Interest) and screen.name != "interest":
            self._show(self._interest_screen(self.step.number))  # then the question (§3.10)
        if keep is not None and isinstance(self.step, Settling) and keep.for_debt:
            self.step = keep  # raising money for a debt: the session goes on
        settled = (
            was_debtor is not None
            and self._state.debtor() is None
            and not isinstance(tx.outcome, o.Bankrupt)
        )
        if settled and self._state.started and not self._state.game_over:
            self._show(self.screens.screen("debt_settled", self.screens.say("c.debt.done")))

    def _execute(self, command: Command) -> Transaction | None:
        debtor = self._state.debtor()
        self._debtor_before = debtor.card if debtor is not None else None
        return super()._execute(command)

    def _needs_whole_group(self, command: Command) -> bool:
        """Whether this sale is refused only because the bank's stock cannot take the hotel
        (skyscraper) apart: then the unit asks whether to sell the whole group (§3.8)."""
        try:
            self._rules.decide(self._state, command)
        except RuleError as err:
            return err.key == "sell group"
        return False

    def _end_session(self, step: Session) -> None:
        self.step = Idle()
        self._sync()
        self._show(self._step_screen())

    # ------------------------------------------------------------ the trade

    def _trade_panel(self, draft: TradeDraft) -> None:
        self.step = Trading(draft)
        self._show(self._trade_screen(draft))

    def _trade_screen(self, d: TradeDraft) -> Screen:
        scr, s = self.screens, self._state
        say = scr.say
        a, b = scr.token(s, d.first), scr.token(s, d.second)
        panel = _TRADE_PANELS[d.panel]
        none = say("c.none")
        if panel == "deeds":
            second = say(
                "c.trade.deeds.2",
                a=a[:4],
                b=b[:4],
                da=",".join(map(str, d.deeds_first)) or "-",
                db=",".join(map(str, d.deeds_second)) or "-",
            )
            return scr.trade_panel(say("c.trade.deeds"), second)
        if panel == "cash":
            if d.typed:
                second = say("c.trade.cash.who", amount=int(d.typed))
            elif d.cash and d.cash_from is not None:
                second = say("c.trade.cash.2", amount=d.cash, token=scr.token(s, d.cash_from))
            else:
                second = none
            return scr.trade_panel(say("c.trade.cash"), second, bool(d.typed))
        if panel == "cards":
            second = say(
                "c.trade.cards.2", a=a[:4], b=b[:4], ca=len(d.cards_first), cb=len(d.cards_second)
            )
            return scr.trade_panel(say("c.trade.cards"), second)
        summary = ""
        for cut in (None, 6, 4, 3, 2, 1):  # tokens shortened before a number is ever cut
            parts = []
            if d.deeds_first:
                parts.append(f"{a[:cut]}>{','.join(map(str, d.deeds_first))}")
            if d.deeds_second:
                parts.append(f"{b[:cut]}>{','.join(map(str, d.deeds_second))}")
            if d.cash and d.cash_from is not None:
                parts.append(f"{scr.token(s, d.cash_from)[:cut]}>{d.cash}")
            if d.cards_first or d.cards_second:
                parts.append(f"P{len(d.cards_first)}/{len(d.cards_second)}")
            summary = " ".join(parts)
            if len(summary) <= LCD_WIDTH:
                break
        return scr.trade_panel(say("c.trade.summary"), summary or none)

    def _trading_button(self, step: Trading, button: Button) -> None:
        d = step.draft
        if button is Button.CANCEL:
            self.step = Idle()
            self._sync()
            self._show(self._step_screen())
            return
        if d.first is None or d.second is None:
            self._refuse("c.err.need_bank")
            return
        panel = _TRADE_PANELS[d.panel]
        if button is Button.MENU:  # after `Résumé`, back to `Titres` (READINGS A10)
            self._trade_panel(replace(d, panel=(d.panel + 1) % len(_TRADE_PANELS)))
        elif panel == "cash":  # the amount entry, from the digits typed (A22)
            self._open_entry("trade", None, d, d.typed)
        else:  # ✓ on `Titres`, `Cartes prison` or `Résumé` makes the offer at once (A10)
            self._make_offer(d)

    def _make_offer(self, d: TradeDraft) -> None:
        """The offer, as the summary shows it: an amount typed with no payer card is ignored,
        and an empty offer is refused while the composition goes on (READINGS A10)."""
        d = replace(d, typed="")
        if d.cash_from is None:
            d = replace(d, cash=0)
        if not (d.deeds_first or d.deeds_second or d.cash or d.cards_first or d.cards_second):
            self._refuse_rule(RuleError("the offer is empty", "empty trade"))
            return
        assert d.second is not None
        self.step = Offer(d, self._now + self.config.trade_seconds)
        self._show(self.screens.trade_offer(self._state, d.second))

    def _trading_tap(self, step: Trading, card: CardId) -> None:
        if card.kind == "bank" and not self._playing(card.number):
            return  # not in the game, or eliminated: refused on every panel (§3.13)
        d = step.draft
        s = self._state
        if d.second is None:
            debtor = s.debtor()
            if card.kind != "bank" or s.player(card.number) is None:
                self._refuse("c.err.need_bank")
            elif card.number == d.first:
                self._refuse_rule(RuleError("same player", "same player"))
            elif debtor is not None and debtor.card not in (d.first, card.number):
                self._refuse("c.err.need_bank")  # during a debt the debtor is A or B (A10)
            else:
                self._trade_panel(replace(d, second=card.number))
            return
        panel = _TRADE_PANELS[d.panel]
        if panel == "deeds" and card.kind == "deed":
            owner = s.prop(card.number).owner
            n = card.number
            if owner == d.first:
                first = (
                    tuple(x for x in d.deeds_first if x != n)
                    if n in d.deeds_first
                    else (*d.deeds_first, n)
                )
                self._trade_panel(replace(d, deeds_first=first))
            elif owner == d.second:
                second = (
                    tuple(x for x in d.deeds_second if x != n)
                    if n in d.deeds_second
                    else (*d.deeds_second, n)
                )
                self._trade_panel(replace(d, deeds_second=second))
            else:
                self._refuse_rule(RuleError("not theirs", "not your property"))
        elif panel == "cash" and card.kind == "bank" and card.number in (d.first, d.second):
            # the payer's card takes the digits typed so far, or keeps the amount (A22)
            amount = int(d.typed) if d.typed else d.cash
            if not amount:
                self._refuse("c.err.zero")
            else:
                self._trade_panel(replace(d, cash=amount, cash_from=card.number, typed=""))
        elif panel == "cards" and card.kind == "bank" and card.number in (d.first, d.second):
            # the first card the player holds (order acquired) not already moving (A10, C15)
            giver = card.number
            held = list(classic(s).cards_of(giver))
            given = d.cards_first if giver == d.first else d.cards_second
            for deck in given:
                held.remove(deck)
            if not held:
                self._refuse_rule(RuleError("no jail card", "no jail card"))
            elif giver == d.first:
                self._trade_panel(replace(d, cards_first=(*d.cards_first, held[0])))
            else:
                self._trade_panel(replace(d, cards_second=(*d.cards_second, held[0])))
        elif panel == "cards" and card.kind in ("chance", "chest") and self._is_jail_card(card):
            # a held jail card's tag moves that card; tapped again, it moves back (A10, C15)
            holder = next((h for h, deck in classic(s).jail_cards if deck == card.kind), None)
            deck = card.kind
            if holder == d.first:
                moved = deck in d.cards_first
                cards = tuple(x for x in d.cards_first if x != deck) if moved else (
                    *d.cards_first, deck)  # fmt: skip
                self._trade_panel(replace(d, cards_first=cards))
            elif holder == d.second:
                moved = deck in d.cards_second
                cards = tuple(x for x in d.cards_second if x != deck) if moved else (
                    *d.cards_second, deck)  # fmt: skip
                self._trade_panel(replace(d, cards_second=cards))
            else:
                self._refuse_rule(RuleError("no jail card", "no jail card"))
        else:
            self._refuse("err.not_now")

    def _commit_trade(self, d: TradeDraft) -> None:
        assert d.first is not None and d.second is not None
        command = c.Trade(
            d.first,
            d.second,
            d.deeds_first,
            d.deeds_second,
            d.cash if d.cash_from else 0,
            d.cash_from,
            d.cards_first,
            d.cards_second,
            for_debt=d.for_debt,
        )
        debtor = self._state.debtor()
        self._debtor_before = debtor.card if debtor is not None else None
        try:
            tx = self.game.execute(command)
        except RuleError as err:
            # refused at acceptance (a payer short of cash): the trade is dropped (A10)
            self._debtor_before = None
            self._play(Cue.ERROR)
            self.step = Idle()
            self._sync()
            scr = self.screens
            self._show(
                scr.screen(
                    "trade_refused",
                    scr.say("c.trade_refused"),
                    self._rule_text(err),
                    icons=frozenset({Icon.ERROR}),
                )
            )
            return
        self.step = Idle()
        self._after(
            tx,
            self.screens.screen(
                "traded", self.screens.say("c.traded"), icons=frozenset(), amount=d.cash or None
            ),
        )

    def _answer_interest(self, number: int, lift: bool) -> None:
        tx = self._execute(c.AnswerInterest(number, lift))
        if tx is None:
            return
        scr = self.screens
        amount = _amount(tx)
        text = (
            scr.say("c.lifted", amount=amount)
            if lift
            else scr.say("c.interest.kept", amount=amount)
        )
        self.step = Idle()
        self._after(
            tx,
            scr.session_result("lifted" if lift else "interest", self._state, number, text, amount),
        )
        if isinstance(self.step, Interest):  # the next question
            self._show(self._interest_screen(self.step.number))

    # ------------------------------------------------------------ cards

    def _play_card(
        self, deck: str, number: int, card: int, choice: int | None, passed_go: bool | None
    ) -> None:
        s = self._state
        if not self._playing(card):
            return
        if not self._rules.ed.card_table:  # no table: the generic effects, by the icon only
            self._refuse_rule(RuleError("no card table", "unknown card"))
            return
        command = c.PlayCard(deck, number, card, choice, passed_go)
        if self._draws_only(command, card):
            return
        try:
            tx = self.game.execute(command)
        except RuleError as err:
            entry = self._rules.ed.cards.get((deck, number))
            if err.key == "choose" and entry is not None and entry.effect == "pay_or_draw":
                self.step = PayOrDraw(deck, number, card)
                self._show(self._pay_or_draw_screen(self.step))
            elif err.key == "choose":
                options = tuple(range(1, int(err.fields.get("options", 2)) + 1))  # type: ignore[call-overload]
                self.step = Pick(  # a destination: a pick, 30 s (READINGS B1)
                    "choice", options, 0, self._entry_expiry(), card=card, number=number, deck=deck
                )
                self._show(self._pick_screen(self.step))
            elif err.key == "passed go?":
                self.step = Pick(
                    "passed_go",
                    (1, 0),
                    0,
                    None,  # a question: no timeout (READINGS B1)
                    card=card,
                    number=number,
                    deck=deck,
                    choice=choice,
                )
                self._show(self._pick_screen(self.step))
            else:
                self._refuse_rule(err)
            return
        done = tx.outcome
        assert isinstance(done, o.CardPlayed)
        scr = self.screens
        after = self._state
        if done.draw is not None:
            # the next card of that deck applies to the drawer (C7, E17)
            self.step = Idle()
            self._after(tx, self._await_draw_screen(done.draw))
            if isinstance(self.step, Idle):
                self.step = AwaitDraw(done.draw, card)
            return
        if isinstance(done.landing, o.Short):
            # the card is applied; the deed stays shown: M arms the auction, X leaves (A2, E20)
            self.step = Idle()
            self._after(tx, self._short_screen(done.landing))
            if isinstance(self.step, Idle):
                self.step = DeedCheck(done.landing.number, self._idle_expiry())
            return
        if done.landing is not None:
            shown = self._landing_screen(done.landing, getattr(done.landing, "number", 0))
            text = shown.lines[0 if isinstance(done.landing, o.RentPaid) else 1]
        elif done.amount:
            before = s.player(card)
            now = after.player(card)
            sign = "+" if now and before and now.balance >= before.balance else "−"
            text = scr.say(
                "c.card.amount", token=scr.token(after, card), sign=sign, amount=done.amount
            )
        else:
            text = scr.say("c.card.done", token=scr.token(after, card))
        self.step = Idle()
        self._after(tx, scr.card_done(after, deck, number, card, text, done.amount))

    def _draws_only(self, command: c.PlayCard, card: int) -> bool:
        """A card whose only effect is to draw the next card of a deck (Community Chest 13's M,
        Chance 6 back onto a Community Chest space) changes nothing: it is not journalled, and
        the unit waits for that deck's next card (`Tirez une Chance`, READINGS C7, E17)."""
        try:
            decision = self._rules.decide(self._state, command)
        except RuleError:
            return False  # refused or a question: executing it says so
        done = decision.outcome
        if decision.events or not isinstance(done, o.CardPlayed) or done.draw is None:
            return False
        self.step = AwaitDraw(done.draw, card)
        self._show(self._await_draw_screen(done.draw))
        return True

    def _short_screen(self, short: o.Short) -> Screen:
        """A card move onto an unowned deed the drawer may not buy (E20)."""
        key = "c.first_lap.auction" if short.reason == "first lap" else "c.short"
        return self.screens.short(short.number, key)

    def _pay_or_draw_screen(self, step: PayOrDraw) -> Screen:
        scr = self.screens
        entry = self._rules.ed.cards.get((step.deck, step.number))
        amount = dict(entry.args).get("amount", 0) if entry is not None else 0
        ed = self._rules.ed
        title = entry.title if entry is not None else ed.deck_names[step.deck]
        return scr.screen(
            "card",
            title,
            scr.say("c.card.pay_or_draw", amount=amount, deck=ed.deck_names["chance"]),
            number=step.number,
            icons=frozenset({Icon.CARD}),
        )

    def _await_draw_screen(self, deck: str) -> Screen:
        scr = self.screens
        virtual = self._rules.settings(self._state).variants.virtual_decks
        return scr.screen(
            "card",
            scr.say(f"c.card.draw.{deck}"),
            scr.say("c.card.draw.ok" if virtual else "c.card.draw.tap"),
            icons=frozenset({Icon.CARD}),
        )

    def _pay_or_draw_button(self, step: PayOrDraw, button: Button) -> None:
        if button is Button.CANCEL:
            self._to_idle()  # X abandons the card (E17)
        else:  # ✓ pays (choice 0), M draws a Chance (choice 1)
            choice = 1 if button is Button.MENU else 0
            self._play_card(step.deck, step.number, step.card, choice, None)

    def _await_draw_button(self, step: AwaitDraw, button: Button) -> None:
        if button is Button.CANCEL:
            self._to_idle()
            return
        if button is not Button.OK or not self._rules.settings(self._state).variants.virtual_decks:
            self._refuse("c.err.need_card")  # a tag of that deck; not the menu (C16)
            return
        # virtual decks: ✓ draws the next card of that deck for the drawer (E7)
        number = self.draw_virtual(step.deck)
        if number is not None:
            self._play_card(step.deck, number, step.card, None, None)

    def _await_draw_tap(self, step: AwaitDraw, card: CardId) -> None:
        if card.kind != step.deck:
            self._refuse("c.err.need_card")
            return
        self._play_card(step.deck, card.number, step.card, None, None)

    def _bankrupt_screen(self, tx: Transaction) -> Screen:
        done = tx.outcome
        card = done.card if isinstance(done, o.ClassicOutcome) and done.card else 0
        return self.screens.bankrupt(self._state, card)

    # ------------------------------------------------------------ auctions

    def _auction_offer_screen(self, number: int) -> Screen:
        scr = self.screens
        return scr.screen(
            "auction_offer",
            scr.deed_name(number),
            scr.say("c.auction.offer"),
            number=number,
            icons=frozenset({Icon.AUCTION}),
        )

    def _offer_button(self, step: AuctionOffer, button: Button) -> None:
        if button is Button.OK:
            self._start_auction(step.number)
        elif button is Button.MENU:
            self.step = DeedCheck(step.number, self._idle_expiry())
            self._show(self._deed_screen(step.number))
        else:
            self._to_idle()

    def _offer_series(self, series: Series) -> None:
        """Offer the next deed of the auction series: `Enchère 1/4 : titre 12`."""
        self.step = series
        scr = self.screens
        number = series.deeds[series.at]
        self._show(
            scr.screen(
                "auction_offer",
                scr.say("c.series.1", at=series.at + 1, of=len(series.deeds), n=number),
                scr.say("c.series.2"),
                number=number,
                icons=frozenset({Icon.AUCTION}),
            )
        )

    def _next_in_series(self, series: Series | None = None) -> None:
        """After a series auction (sold, cancelled, passed): the next deed, or idle."""
        series = series or self._series
        self._series = None
        if series is not None and series.at + 1 < len(series.deeds):
            self._offer_series(Series(series.deeds, series.at + 1))
        elif series is not None and not isinstance(self.step, Finished | Settling | Interest):
            self._to_idle()

    def _auction_screen(self, auction: Auction, shown: int, typed: str = "") -> Screen:
        scr = self.screens
        second = f"> {typed}" if typed else scr.say("c.auction.how", step=auction.step)
        return scr.screen(
            "auction",
            scr.say("c.auction.price", money=scr.money(auction.price)),
            second,
            amount=auction.price,
            number=auction.number,
            countdown=shown,
            token=scr.card_token(auction.bidder) if auction.bidder else None,
            # a typed bid is an entry open (§5.2, §5.5): the keypad icon while it stands
            icons=frozenset({Icon.AUCTION, Icon.KEYPAD}) if typed else frozenset({Icon.AUCTION}),
        )

    def _auction_won_screen(self, auction: Auction) -> Screen:
        scr = self.screens
        return scr.screen(
            "auction_end",
            scr.say("c.auction.won.1", money=scr.money(auction.price)),
            scr.say("c.auction.won.2"),
            amount=auction.price,
            number=auction.number,
        )

    def _sale_command(self, sale: AuctionSale) -> Command:
        if self._series is not None:  # a sale of the series is part of the bankruptcy (C13)
            return c.SeriesSale(sale.card, sale.number, sale.price)
        return sale

    def _auction_sold_screen(self, sale: AuctionSale) -> Screen:
        scr, card = self.screens, sale.card
        return scr.screen(
            "sold",
            scr.deed_name(sale.number),
            scr.say("c.auction.sold", token=scr.token(self._state, card), amount=sale.price),
            amount=sale.price,
            number=sale.number,
            token=scr.card_token(card),
            level=self._state.prop(sale.number).level,
        )

    def _auction_cancelled_screen(self, auction: Auction, no_bid: bool) -> Screen:
        scr = self.screens
        return scr.screen(
            "auction_cancelled", scr.say("c.auction.none.1"), scr.say("c.auction.none.2")
        )

    def _auction_closed(self) -> None:
        if self._series is not None:
            self._next_in_series()

    def _bid(self, step: Bidding, card: int | None) -> None:
        super()._bid(step, card)
        if self.step is step and step.typed:
            # a refused typed bid drops its digits (READINGS C1)
            self.step = replace(step, typed="")

    def _sell(self, auction: Auction, card: int) -> None:
        anonymous = isinstance(self.step, AwaitWinner)
        player = self._state.player(card)
        if anonymous and (player is None or player.bankrupt):
            self._refuse("err.not_player")  # not an active card: the winner may still claim
            return
        super()._sell(auction, card)
        if anonymous and isinstance(self.step, AwaitWinner):
            # an anonymous winner's card refused: the sale is given up, the deed stays
            # unowned (§3.2, READINGS A3)
            self.step = Idle()
            scr = self.screens
            self._show(
                scr.screen(
                    "auction_cancelled",
                    scr.say("c.auction.none.1"),
                    scr.say("c.auction.given_up"),
                    number=auction.number,
                )
            )
            self._auction_closed()

    # ------------------------------------------------------------ keyboard shortcuts (§5.6)

    def _on_menu(self, item: int) -> None:
        """A keyboard panel's menu shortcut (D: item 11, H: item 7 ...): the item shows, as
        M and its digits would show it; only where M opens the menu (idle, a debt, the menu)."""
        if not isinstance(self.step, Idle | Settling | Menu):
            self._refuse("err.not_now")
        elif item not in self._items():
            self._refuse("c.err.no_item", n=item)
        else:
            self._open_menu(item)

    # ------------------------------------------------------------ info screens (§5.6)

    def _on_info(self, name: str) -> None:
        s = self._state
        if not s.started or not isinstance(self.step, Idle):
            self._refuse("err.not_now")
            return
        scr, ext = self.screens, classic(s)
        say = scr.say
        turn = next((r for r in reversed(ext.rollers) if r is not None), None)
        if name == "deed":
            if self._last_deed is None:
                self._refuse("err.not_now")
                return
            self.step = Idle(self._idle_expiry())
            self._show(replace(self._deed_screen(self._last_deed), name="info"))
            return
        if name in ("table", "scores"):  # pages: asked again, the next one (issue 19)
            screen = self._info_page(name)
        elif name in ("turn", "cash"):
            if turn is None:
                screen = scr.info(say("c.info.turn"), say("c.info.nobody"))
            else:
                player = s.player(turn)
                assert player is not None
                title = say("c.info.turn") if name == "turn" else say("c.info.cash")
                screen = scr.info(
                    title,
                    f"{scr.token(s, turn)} {scr.money(player.balance)}",
                    token=player.token,
                    amount=player.balance,
                )
        elif name in ("deeds", "others"):
            cards = (
                [turn]
                if name == "deeds" and turn is not None
                else [p.card for p in s.players if p.card != turn]
            )
            owned = [str(p.number) for p in s.properties if p.owner in cards]
            who = scr.token(s, turn) if name == "deeds" and turn is not None else "?"
            screen = scr.info(say("c.info.deeds", token=who), ",".join(owned) or say("c.info.none"))
        self.step = Idle(self._idle_expiry())
        self._show(screen)

    def _undone_screen(self, events: tuple[Event, ...]) -> Screen:
        """``Annulé : achat`` / ``28 Rue de la Paix``: what the undo undid (issue 19)."""
        return self.screens.undone(self._state, events)

    def _info_page(self, name: str) -> Screen:
        """The ``table`` (every player's cash, two lines a page) or ``scores`` (the ranking,
        one line a page, the page on the title line) info screen: the first page, or the next
        one when the screen on the LCD is this one's page (the last page wraps to the first).
        Each line holds as many whole entries as its 20 cells take, so no amount is cut."""
        s, scr = self._state, self.screens
        if name == "table":
            parts = [f"{scr.token(s, p.card)[:4]} {p.balance}" for p in s.players if not p.bankrupt]
        else:
            cfg = self._rules.settings(s)
            ranked = sorted(s.players, key=lambda p: -self._rules.worth(s, p.card, cfg))
            parts = [f"{i}.{scr.token(s, p.card)[:8]}" for i, p in enumerate(ranked, 1)]
        lines: list[str] = []
        for part in parts:
            if lines and len(lines[-1]) + 1 + len(part) <= LCD_WIDTH:
                lines[-1] += " " + part
            else:
                lines.append(part)
        per_page = 2 if name == "table" else 1
        pages = [lines[i : i + per_page] for i in range(0, len(lines), per_page)] or [[""]]
        shown = self._info_shown
        page = 0
        if shown is not None and shown[0] == name and shown[2] is self.screen:
            page = (shown[1] + 1) % len(pages)
        rows = pages[page]
        if name == "table":
            screen = scr.info(rows[0], rows[1] if len(rows) > 1 else "")
        else:
            many = f" {page + 1}/{len(pages)}" if len(pages) > 1 else ""
            screen = scr.info(scr.say("c.info.scores") + many, rows[0])
        self._info_shown = (name, page, screen)
        return screen
