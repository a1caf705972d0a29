"""The classic unit (docs/classic.md §5): the core's shell and a family of gestures per step.

:class:`ClassicUnit` adds to :class:`bank.unit.shell.UnitShell` the keypad (``0``-``9``, ``⌫``)
and the classic steps. A tap, a key or a button goes to the family that owns the unit's step
(:attr:`ClassicUnit.gestures`, a table by the step's type): the deed check (:mod:`.landing`), number
entry and picks (:mod:`.entry`), the menu (:mod:`.menu`), the sessions (:mod:`.sessions`), the
trade and the interest question (:mod:`.trade`), cards (:mod:`.cards`), the dice and the jail
(:mod:`.dice`), auctions and bankruptcy (:mod:`.auctions`); the info screens (:mod:`.info`),
the Force battle (:mod:`.force`) and the time limit (:mod:`.clock`) have no step of their own.
The rules say what each transaction did (:mod:`bank.rulesets.classic.outcomes`) and what they
need to know first (:mod:`bank.rulesets.classic.questions`): the families show it and play its
cues, and never work it out again.

Steps other than those the game state holds (a debt, the interest question, the game's end)
are abandoned by a power cut (§5.3, first row).

Imports the engine (game, commands, errors, events, auction), the unit shell and its I/O types,
the classic rules engine, outcomes, state, screens and texts, and this package's families;
never pygame or the disk.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bank.engine.auction import Auction
from bank.engine.commands import AuctionSale, Command
from bank.engine.errors import RuleError
from bank.engine.events import Event
from bank.engine.game import Game, Transaction
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.rules import ClassicRulesEngine
from bank.rulesets.classic.screens import ClassicScreens
from bank.rulesets.classic.state import classic
from bank.rulesets.classic.text import SHORTS_FR
from bank.rulesets.classic.unit.auctions import AuctionGestures, DebtGestures
from bank.rulesets.classic.unit.cards import CardGestures
from bank.rulesets.classic.unit.clock import TimeLimit
from bank.rulesets.classic.unit.dice import DiceGestures
from bank.rulesets.classic.unit.entry import EntryGestures
from bank.rulesets.classic.unit.family import Family, Gestures
from bank.rulesets.classic.unit.force import ForceGestures
from bank.rulesets.classic.unit.info import InfoScreens
from bank.rulesets.classic.unit.landing import LandingGestures
from bank.rulesets.classic.unit.menu import MenuGestures
from bank.rulesets.classic.unit.sessions import SessionGestures
from bank.rulesets.classic.unit.steps import (
    TRADE_PANELS,
    AuctionOffer,
    Bankruptcy,
    DeedCheck,
    Entry,
    Interest,
    Menu,
    Offer,
    Series,
    Session,
    Trading,
)
from bank.rulesets.classic.unit.trade import TradeGestures
from bank.unit.io import Button, CardId, Cue, Input, Output, Screen
from bank.unit.shell import AwaitWinner, Bidding, Finished, Idle, Settling, UnitShell
from bank.unit.text import engine_short, fit

__all__ = ["ClassicUnit"]


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
        # the families first: the shell's start may already ask them
        self.clock = TimeLimit(self)
        self.landing = LandingGestures(self)
        self.entry = EntryGestures(self)
        self.menu = MenuGestures(self)
        self.sessions = SessionGestures(self)
        self.trade = TradeGestures(self)
        self.cards = CardGestures(self)
        self.dice = DiceGestures(self)
        self.auctions = AuctionGestures(self)
        self.debts = DebtGestures(self)
        self.info = InfoScreens(self)
        self.force = ForceGestures(self)
        every: tuple[Family, ...] = (
            self.landing, self.entry, self.menu, self.sessions, self.trade, self.cards,
            self.dice, self.auctions, self.debts,
        )  # fmt: skip
        #: what each step type does with a tap, a key and a button (its family's gestures)
        self.gestures: dict[type, Gestures] = {}
        for family in every:
            table = family.gestures()
            assert not table.keys() & self.gestures.keys(), "a step type has one family"
            self.gestures.update(table)
        super().__init__(game, config)  # type: ignore[arg-type]

    def _screens(self, game: Game, lang: str) -> ClassicScreens:
        return ClassicScreens(game.edition, lang)

    @property
    def _rules(self) -> ClassicRulesEngine:
        rules = self.game.ruleset
        assert isinstance(rules, ClassicRulesEngine), "a classic unit plays the classic rules"
        return rules

    def queue_roll(self, dice: tuple[int, ...], third: str | None = None) -> None:
        self.dice.queue(dice, third)

    def checking(self) -> int | None:
        return self.step.number if isinstance(self.step, DeedCheck) else None

    def virtual_decks(self) -> bool:
        """Whether this game draws its cards from the unit's own shuffled decks
        (``variants.virtual_decks`` with a card table)."""
        return self.cards.virtual_decks()

    def draw_virtual(self, deck: str) -> int | None:
        """Draw the top card of virtual deck *deck* (:meth:`.cards.CardGestures.draw_virtual`)."""
        return self.cards.draw_virtual(deck)

    def running_seconds(self) -> float:
        """How long the unit has run in this game (power-off time does not count)."""
        return self.clock.running_seconds()

    # ------------------------------------------------------------ read-only views (web)

    def _auction_offered(self) -> int | None:
        step = self.step
        if isinstance(step, Series):
            return step.deeds[step.at]
        return step.number if isinstance(step, AuctionOffer) else None

    def _auction_where(self) -> dict[str, Any]:
        """The auction series' place (`Enchère 1/4`), while one runs."""
        series = self.step if isinstance(self.step, Series) else self.auctions.series
        return {"series": [series.at + 1, len(series.deeds)]} if series is not None else {}

    def step_view(self) -> dict[str, Any] | None:
        """The step in progress that the table may want to read beside the LCD: the trade being
        composed or offered, the interest question, a session (the web view). None: nothing
        more than the screen says."""
        step = self.step
        if isinstance(step, Interest):
            keep, lift = self._rules.interest_terms(self._state, step.number)
            owner = self._state.prop(step.number).owner
            return {"kind": "interest", "number": step.number, "card": owner, "keep": keep,
                    "lift": lift}  # fmt: skip
        if isinstance(step, Trading | Offer):
            d = step.draft
            return {
                "kind": "trade_offer" if isinstance(step, Offer) else "trade",
                "panel": TRADE_PANELS[d.panel],
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
            self.clock.restart()
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
        self.auctions.series = None  # the rest of an auction series is abandoned (§5.3)
        self.clock.switched_on(at)
        return super().power_on(at, game)

    def power_off(self, at: float) -> list[Output]:
        self.clock.switched_off(at)
        return super().power_off(at)

    def _handle(self, inp: Input) -> None:
        super()._handle(inp)
        # a gesture that brought the unit back to idle after the limit: the game ends now
        due = self.clock.over_at() if self.is_on and self.fault is None else None
        if due is not None and due <= self._now:
            self.clock.time_up()

    def _step_screen(self) -> Screen:
        if isinstance(self.step, Interest):
            return self.trade.interest_screen(self.step.number)
        debtor = self._state.debtor() if self._state.started else None
        if isinstance(self.step, Settling) and debtor is not None:
            cfg = self._rules.settings(self._state)
            can = self._rules.liquidation(self._state, debtor.card, cfg)
            return self.screens.debt(self._state, debtor, can)
        return super()._step_screen()

    # ------------------------------------------------------------ time

    def _step_deadline(self) -> float | None:
        # the steps with an ``expires`` time and the auction's seconds: the shell's
        over = self.clock.over_at()
        if over is not None:
            return over
        return super()._step_deadline()

    def _timeout(self) -> None:
        step = self.step
        if isinstance(step, Offer):
            self.step = Idle()
            self._show(self.screens.screen("trade_refused", self.screens.say("c.trade_refused")))
            return
        over = self.clock.over_at()
        if over is not None and over <= self._now:
            self.clock.time_up()
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

    # ------------------------------------------------------------ gestures: to the step's family

    def _on_key(self, key: str) -> None:
        gestures = self.gestures.get(type(self.step))
        if gestures is None or gestures.key is None:
            self._refuse("err.not_now")
        else:
            gestures.key(self.step, key)

    def _on_button(self, button: Button) -> None:
        gestures = self.gestures.get(type(self.step))
        if gestures is None or gestures.button is None:
            super()._on_button(button)
        else:
            gestures.button(self.step, button)

    def _step_tap(self, card: CardId) -> None:
        if card.kind == "deed":
            self.info.deed_tapped(card.number)
        gestures = self.gestures.get(type(self.step))
        if gestures is None or gestures.tap is None:
            super()._step_tap(card)
        else:
            gestures.tap(self.step, card)

    def shell_button(self, button: Button) -> None:
        """What the shell does with *button* (a family's step that leaves it to the shell)."""
        super()._on_button(button)

    def shell_tap(self, card: CardId) -> None:
        """What the shell does with a tap (a family's step that leaves it to the shell)."""
        super()._step_tap(card)

    def _on_menu(self, item: int) -> None:
        self.menu.shortcut(item)

    def _on_info(self, name: str) -> None:
        self.info.show(name)

    # ------------------------------------------------------------ what families share

    def _is_jail_card(self, card: CardId) -> bool:
        return self._rules.is_jail_card(card.kind, card.number)

    def _playing(self, card: int) -> bool:
        """Whether bank card *card* plays in this game; if not, the error cue and why (not a
        player, or eliminated: refused from then on, §3.13) and the step stays."""
        player = self._state.player(card)
        if player is None:
            self._refuse("err.not_player")
        elif player.bankrupt:
            self._refuse_rule(RuleError(f"bank card {card} is eliminated", "eliminated"))
        return player is not None and not player.bankrupt

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
            isinstance(done, o.Rolled) and done.effect is o.RollEffect.THREE_DOUBLES
        ):
            cues.append(Cue.JAIL)
        if isinstance(done, o.Rolled) and done.effect is o.RollEffect.FEE:
            cues.append(Cue.KACHING)
        if self._state.game_over:
            cues.append(Cue.GAME_OVER)
        return cues

    def _after(self, tx: Transaction, screen: Screen, extra: tuple[Cue, ...] = ()) -> None:
        keep = self.step if isinstance(self.step, Session) else None
        super()._after(tx, screen, extra)
        if isinstance(self.step, Interest) and screen.name != "interest":
            # then the question (§3.10)
            self._show(self.trade.interest_screen(self.step.number))
        if keep is not None and isinstance(self.step, Settling) and keep.for_debt:
            self.step = keep  # raising money for a debt: the session goes on
        # the rules said whether the transaction paid off the debt (`Dette réglée`)
        done = tx.outcome
        settled = isinstance(done, o.ClassicOutcome) and done.debt_settled is not None
        if settled and self._state.started and not self._state.game_over:
            self._show(self.screens.screen("debt_settled", self.screens.say("c.debt.done")))

    def _undone_screen(self, events: tuple[Event, ...]) -> Screen:
        """``Annulé : achat`` / ``28 Rue de la Paix``: what the undo undid (issue 19)."""
        return self.screens.undone(self._state, events)

    # ------------------------------------------------------------ the shell's auction

    def _auction_screen(self, auction: Auction, shown: int, typed: str = "") -> Screen:
        return self.auctions.auction_screen(auction, shown, typed)

    def _auction_won_screen(self, auction: Auction) -> Screen:
        return self.auctions.won_screen(auction)

    def _sale_command(self, sale: AuctionSale) -> Command:
        return self.auctions.sale_command(sale)

    def _auction_sold_screen(self, sale: AuctionSale) -> Screen:
        return self.auctions.sold_screen(sale)

    def _auction_cancelled_screen(self, auction: Auction, no_bid: bool) -> Screen:
        return self.auctions.cancelled_screen(auction, no_bid)

    def _auction_closed(self) -> None:
        self.auctions.closed()

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
            self.auctions.anonymous_winner_refused(auction)
