"""A deed tapped (docs/classic.md §5.1): the idle unit's taps (a bank card shows its balance, a deed
its check screen, a Chance or Community Chest tag its card), the deed check (a bank card
lands: purchase or rent, M offers the auction, X goes back) and the landing's screens. The
rules decide the landing and preview the deed's rent.

Imports the unit's families, steps and the classic commands and outcomes.
"""

from __future__ import annotations

from bank.engine.errors import NotEnoughMoney, RuleError
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.refusals import FirstLap, LateClaim
from bank.rulesets.classic.state import classic
from bank.rulesets.classic.unit.family import Family, Gestures
from bank.rulesets.classic.unit.steps import (
    AuctionOffer,
    DeedCheck,
)
from bank.unit.io import Button, CardId, Cue, Screen
from bank.unit.shell import Idle


class LandingGestures(Family):
    """The idle unit's taps and the deed check."""

    def gestures(self) -> dict[type, Gestures]:
        return {
            Idle: Gestures(tap=self._idle_tap, button=self._idle_button),
            DeedCheck: Gestures(tap=self._check_tap, button=self._check_button),
        }

    def _idle_tap(self, step: Idle, card: CardId) -> None:
        s = self._state
        if card.kind == "bank":
            player = s.player(card.number)
            if not self._playing(card.number) or player is None:
                return
            self.step = Idle(self._idle_expiry())
            self._show(self.screens.balance(s, player))
        elif card.kind == "deed":
            self.step = DeedCheck(card.number, self._idle_expiry())
            self._show(self.deed_screen(card.number))
        else:  # chance or chest
            self.u.cards.tag_tapped(card)

    def _idle_button(self, step: Idle, button: Button) -> None:
        if button is Button.MENU:
            self.u.menu.open(1)
        else:
            self.u.shell_button(button)

    def _check_tap(self, step: DeedCheck, card: CardId) -> None:
        if card.kind == "bank":
            self.land(card.number, step.number)
        else:
            self._refuse("c.err.need_bank")

    def _check_button(self, step: DeedCheck, button: Button) -> None:
        if button is Button.MENU:
            if self._state.prop(step.number).owner is not None:
                # Méga's Auction space with every deed owned: the auction icon says so
                free = any(p.owner is None for p in self._state.properties)
                if free or not self._rules.variant.auction_space:
                    self._refuse("c.err.owned")
                else:
                    self._play(Cue.ERROR)
                    self._show(self.screens.no_free_deed())
            else:
                self.step = AuctionOffer(step.number, self._idle_expiry())
                self._show(self.u.auctions.offer_screen(step.number))
        elif button is Button.OK:
            self._refuse("c.err.need_bank")
        else:
            self._to_idle()

    def deed_screen(self, number: int) -> Screen:
        s = self._state
        return self.screens.deed(s, number, self._rules.rent_shown(s, number))

    def land(self, card: int, number: int, dice: int | None = None) -> None:
        if not self._playing(card):  # before a dice pick opens for a card that cannot pay
            return
        s = self._state
        deed = self.ed.deed(number)
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
            self._show(self.landing_screen(probe.outcome, number))
            return
        if needs_dice:
            self.u.entry.open_dice_pick(card, number)
            return
        try:
            tx = self.game.execute(c.Visit(card, number, dice))
        except RuleError as err:
            self._landing_refused(err, number, prop.owner is None)
            return
        self.step = Idle()
        self._after(tx, self.landing_screen(tx.outcome, number))

    def _landing_refused(self, err: RuleError, number: int, unowned: bool) -> None:
        if isinstance(err, LateClaim):
            self._play(Cue.ERROR)
            self._show(self.screens.late(number))
            self.step = Idle()
        elif isinstance(err, FirstLap):
            self._play(Cue.ERROR)
            self._show(self.screens.short(number, "c.first_lap"))
        elif isinstance(err, NotEnoughMoney) and unowned:
            self._play(Cue.ERROR)
            self._show(self.screens.short(number))
        else:
            self._refuse_rule(err)

    def landing_screen(self, done: object, number: int) -> Screen:
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
        return self.deed_screen(number)
