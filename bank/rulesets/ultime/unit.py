"""The Ultime unit's behaviour: its steps and gestures over the core's unit shell.

:class:`Unit` adds to :class:`bank.unit.shell.UnitShell` what only the Ultime game does: a
property tapped and waiting for a bank card (land) or M (auction), the auction's screens (the
shell runs its countdown), the M menu (GO, jail, Location), a jailed player's choice, event
cards waiting for their taps. The rules say what each transaction did
(:mod:`bank.rulesets.ultime.outcomes`): this module shows it and plays its cues, and never
works it out again from the events or a state diff.

Imports the engine (game, commands, errors, state), the unit shell and its I/O types, the
Ultime rules' commands, outcomes and screens; never pygame, drivers or the disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

from bank.engine.auction import Auction
from bank.engine.commands import AuctionSale, GiveProperty, Land
from bank.engine.errors import NotEnoughMoney, RuleError
from bank.engine.game import Game, Transaction
from bank.rulesets.ultime import outcomes as o
from bank.rulesets.ultime.commands import GoToJail, LeaveJail, PassGo, PayLocation, PlayEvent
from bank.rulesets.ultime.rules import UltimeRules
from bank.rulesets.ultime.screens import UltimeScreens
from bank.unit.io import Button, CardId, Cue, Icon, Screen
from bank.unit.shell import (
    AwaitWinner,
    Bidding,
    Finished,
    Idle,
    JailChoice,
    Off,
    Registration,
    Settling,
    UnitShell,
)

__all__ = ["Step", "Unit"]

_MENU_ORDER: Final = (Icon.GO, Icon.JAIL, Icon.LOCATION)


# ---------------------------------------------------------------- steps


@dataclass(frozen=True, slots=True)
class Checking:
    """A property tapped: waiting for a bank card (land), M (auction) or X.

    *mover* is set after a Location fee: only that player's card may land.
    """

    number: int
    expires: float | None
    mover: int | None = None


@dataclass(frozen=True, slots=True)
class AuctionOffer:
    """The auction icon over a free property: ✓ starts the countdown."""

    number: int
    expires: float | None
    mover: int | None = None


@dataclass(frozen=True, slots=True)
class Menu:
    icon: Icon
    expires: float


@dataclass(frozen=True, slots=True)
class LocationDest:
    """The Location fee is paid: waiting for the destination property."""

    card: int


@dataclass(frozen=True, slots=True)
class EventTaps:
    """An event card waiting for its taps (those given so far are valid)."""

    event_id: int
    props: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class MoveShort:
    """An event move to a free property the mover cannot pay: M offers the auction."""

    event_id: int
    number: int
    expires: float


Step: TypeAlias = (
    Off
    | Registration
    | Idle
    | Checking
    | AuctionOffer
    | Bidding
    | AwaitWinner
    | Menu
    | JailChoice
    | LocationDest
    | EventTaps
    | MoveShort
    | Settling
    | Finished
)


# ---------------------------------------------------------------- the unit


class Unit(UnitShell):
    """The Ultime bank unit's behaviour over one :class:`Game`. Starts powered off."""

    step: Step
    screens: UltimeScreens

    def _screens(self, game: Game, lang: str) -> UltimeScreens:
        return UltimeScreens(game.edition, lang)

    def checking(self) -> int | None:
        return self.step.number if isinstance(self.step, Checking) else None

    @property
    def _rules(self) -> UltimeRules:
        rules = self.game.ruleset
        assert isinstance(rules, UltimeRules), "an Ultime unit plays the Ultime rules"
        return rules

    # ------------------------------------------------------------ buttons and holds

    def _on_button(self, button: Button) -> None:
        step = self.step
        if isinstance(step, Idle) and button is Button.MENU:
            self._open_menu(Icon.GO)
        elif isinstance(step, Checking):
            self._checking_button(step, button)
        elif isinstance(step, AuctionOffer):
            self._offer_button(step, button)
        elif isinstance(step, Menu):
            self._menu_button(step, button)
        elif isinstance(step, JailChoice):
            if button is Button.MENU:
                self._refuse("err.not_now")
            else:
                self._leave_jail(step.card, paid=button is Button.OK)
        elif isinstance(step, LocationDest):
            if button is Button.CANCEL:
                self._to_idle()
            else:
                self._refuse("err.need_prop")
        elif isinstance(step, EventTaps):
            self._event_button(step, button)
        elif isinstance(step, MoveShort):
            if button is Button.MENU:
                self._offer_auction(step.number, None)
            else:
                self._to_idle()
        else:  # registration, idle, a debt, the game over, the auction: the shell's steps
            super()._on_button(button)

    def _checking_button(self, step: Checking, button: Button) -> None:
        if button is Button.MENU:
            if self._state.prop(step.number).owner is not None:
                self._refuse("err.owned")
            else:
                self._offer_auction(step.number, step.mover)
        elif button is Button.OK:
            self._refuse("err.need_bank")
        else:
            self._to_idle()

    def _offer_button(self, step: AuctionOffer, button: Button) -> None:
        if button is Button.OK:
            self._start_auction(step.number)
        elif button is Button.MENU or step.mover is not None:
            self._check(step.number, step.mover)
        else:
            self._to_idle()

    def _menu_button(self, step: Menu, button: Button) -> None:
        if button is Button.MENU:
            at = _MENU_ORDER.index(step.icon) + 1
            if at < len(_MENU_ORDER):
                self._open_menu(_MENU_ORDER[at])
            else:
                self._to_idle()
        elif button is Button.OK:
            # accepted, changes nothing: the icon stays until a bank card applies it
            self._open_menu(step.icon)
        else:
            self._to_idle()

    def _event_button(self, step: EventTaps, button: Button) -> None:
        card = self.game.edition.event(step.event_id)
        if button is Button.CANCEL:
            self._to_idle()
        elif (
            button is Button.MENU
            and card.kind == "move"
            and len(step.props) == 1
            and self._state.prop(step.props[0]).owner is None
        ):
            self._offer_auction(step.props[0], None)
        else:
            ask = card.taps[len(step.props) + len(step.cards)]
            self._refuse("err.need_prop" if ask.endswith("prop") else "err.need_bank")

    # ------------------------------------------------------------ taps

    def _step_tap(self, card: CardId) -> None:
        step = self.step
        if isinstance(step, Idle | MoveShort):
            self._idle_tap(card)
        elif isinstance(step, Checking):
            self._checking_tap(step, card)
        elif isinstance(step, AuctionOffer):
            # the icon waits for ✓ (or M, X): a card does not fit, the step stays
            self._refuse("err.not_now")
        elif isinstance(step, Menu):
            if card.kind == "bank":
                self._apply_menu(step.icon, card.number)
            else:
                self._refuse("err.need_bank")
        elif isinstance(step, LocationDest):
            if card.kind == "prop":
                self._check(card.number, step.card)
            else:
                self._refuse("err.need_prop")
        elif isinstance(step, EventTaps):
            self._event_tap(step, card)
        elif isinstance(step, Settling) and card.kind == "prop":
            self._give(card.number)
        else:  # registration, a debt, the game over, the auction, the jail choice: the shell's
            super()._step_tap(card)

    def _idle_tap(self, card: CardId) -> None:
        """A tap taken as from idle: balance, property check or event card."""
        if card.kind == "bank":
            player = self._state.player(card.number)
            if player is None:
                self._refuse("err.not_player")
                return
            self.step = Idle(self._now + self.config.idle_seconds)
            self._show(self.screens.balance(self._state, player))
        elif card.kind == "prop":
            self._check(card.number, None)
        else:
            self._start_event(card.number)

    def _checking_tap(self, step: Checking, card: CardId) -> None:
        if card.kind == "bank":
            if step.mover is not None and card.number != step.mover:
                self._refuse("err.mover")
            else:
                self._land(card.number, step.number)
        else:
            # property and event cards are idle gestures (docs/ultime.md §5): while a property waits
            # for its bank card they do not fit, so the step (and its timeout) stays as it was
            self._refuse("err.need_bank")

    def _check(self, number: int, mover: int | None) -> None:
        """Show a property (number, owner, level, rent or price) and wait for a bank card."""
        expires = None if mover is not None else self._now + self.config.idle_seconds
        self.step = Checking(number, expires, mover)
        owned = self._state.prop(number).owner is not None
        rent = self._rules.rent_due(self._state, number) if owned else None
        self._show(self.screens.property_check(self._state, number, rent, mover))

    # ------------------------------------------------------------ transactions

    def _cues(self, tx: Transaction) -> list[Cue]:
        """The cues of what the rules said happened."""
        if not isinstance(tx.outcome, o.UltimeOutcome):
            return []
        happened = tx.outcome.happened
        cues: list[Cue] = []
        if happened.money_moved:
            cues.append(Cue.KACHING)
        if happened.level_up:
            cues.append(Cue.LEVEL_UP)
        if happened.jailed:
            cues.append(Cue.JAIL)
        if happened.game_over:
            cues.append(Cue.GAME_OVER)
        return cues

    def _land(self, card: int, number: int) -> None:
        tx = self._execute(Land(card, number))
        if tx is None:
            return
        self.step = Idle()
        after, done, s = self._state, tx.outcome, self.screens
        if isinstance(done, o.Bought):
            screen = s.bought(after, number, card, done.price, done.completed_group)
        elif isinstance(done, o.LevelRaised):
            screen = s.own_level(after, number, done.raised)
        elif isinstance(done, o.RentPaid) and (done.paid or done.owed):
            screen = s.rent_paid(after, number, card, done.paid)
        else:  # a jailed owner (or a rent swallowed by a bankruptcy: game over shows)
            screen = s.no_rent(after, number)
        self._after(tx, screen)

    def _open_menu(self, icon: Icon) -> None:
        self.step = Menu(icon, self._now + self.config.idle_seconds)
        self._show(self.screens.menu(icon))

    def _apply_menu(self, icon: Icon, card: int) -> None:
        player = self._state.player(card)
        if player is None:
            self._refuse("err.not_player")
            return
        if icon is Icon.GO:
            tx = self._execute(PassGo(card))
            if tx is not None:
                self.step = Idle()
                self._after(tx, self.screens.passed_go(self._state, card))
        elif icon is Icon.JAIL:
            if player.jailed:
                self.step = JailChoice(card)
                self._show(self.screens.jail_choice(self._state, card))
                return
            tx = self._execute(GoToJail(card))
            if tx is not None:
                self.step = Idle()
                self._after(tx, self.screens.jailed(self._state, card))
        else:
            tx = self._execute(PayLocation(card))
            if tx is not None:
                self.step = LocationDest(card)
                self._after(tx, self.screens.location_paid(self._state, card))

    def _leave_jail(self, card: int, paid: bool) -> None:
        tx = self._execute(LeaveJail(card, paid))
        if tx is not None:
            self.step = Idle()
            self._after(tx, self.screens.left_jail(self._state, card, paid))

    def _give(self, number: int) -> None:
        debtor = self._state.debtor()
        if debtor is None:  # pragma: no cover - _sync keeps Settling only while in debt
            self._to_idle()
            return
        tx = self._execute(GiveProperty(debtor.card, number))
        if tx is None:
            return
        change = tx.outcome.change if isinstance(tx.outcome, o.DebtSettled) else 0
        self.step = Idle()
        self._after(tx, self.screens.debt_settled(self._state, debtor.card, change))

    # ------------------------------------------------------------ auctions

    def _offer_auction(self, number: int, mover: int | None) -> None:
        expires = None if mover is not None else self._now + self.config.idle_seconds
        self.step = AuctionOffer(number, expires, mover)
        self._show(self.screens.auction_offer(self._state, number))

    def _auction_offered(self) -> int | None:
        return self.step.number if isinstance(self.step, AuctionOffer) else None

    def _auction_screen(self, auction: Auction, shown: int, typed: str = "") -> Screen:
        # no keypad on the Ultime unit: nothing is ever typed
        return self.screens.auction(auction.number, auction.price, auction.bidder, shown)

    def _auction_won_screen(self, auction: Auction) -> Screen:
        return self.screens.auction_won(auction.number, auction.price)

    def _auction_sold_screen(self, sale: AuctionSale) -> Screen:
        return self.screens.auction_sold(self._state, sale.number, sale.card, sale.price)

    def _auction_cancelled_screen(self, auction: Auction, no_bid: bool) -> Screen:
        return self.screens.auction_cancelled(auction.number, no_bid)

    # ------------------------------------------------------------ event cards

    def _ask(self, event_id: int, index: int) -> str:
        """The message id of the prompt for tap *index* of an event card."""
        card = self.game.edition.event(event_id)
        kind = card.taps[index]
        if kind == "bank" and card.kind == "move":
            return "event.ask.bank.move"
        if kind == "bank" and card.kind == "jail_other":
            return "event.ask.bank.jail"
        return f"event.ask.{kind}"

    def _start_event(self, event_id: int) -> None:
        card = self.game.edition.event(event_id)
        if not card.taps:
            self._play_event(EventTaps(event_id))
            return
        self.step = EventTaps(event_id)
        self._show(self.screens.event_prompt(event_id, self._ask(event_id, 0)))

    def _event_tap(self, step: EventTaps, card: CardId) -> None:
        event = self.game.edition.event(step.event_id)
        index = len(step.props) + len(step.cards)
        wants_prop = event.taps[index].endswith("prop")
        if wants_prop != (card.kind == "prop") or card.kind == "event":
            self._refuse("err.need_prop" if wants_prop else "err.need_bank")
            return
        props = (*step.props, card.number) if wants_prop else step.props
        cards = step.cards if wants_prop else (*step.cards, card.number)
        try:
            self._rules.check_event_taps(self._state, step.event_id, props, cards)
        except RuleError as err:
            self._refuse_rule(err)
            return
        taken = EventTaps(step.event_id, props, cards)
        if index + 1 < len(event.taps):
            self.step = taken
            number = props[-1] if props else None
            self._show(
                self.screens.event_prompt(
                    step.event_id, self._ask(step.event_id, index + 1), number
                )
            )
        else:
            self._play_event(taken)

    def _play_event(self, taps: EventTaps) -> None:
        event = self.game.edition.event(taps.event_id)
        before = self._state
        try:
            tx = self.game.execute(PlayEvent(taps.event_id, taps.props, taps.cards))
        except NotEnoughMoney as err:
            if event.kind == "move" and before.prop(taps.props[0]).owner is None:
                # the mover cannot buy: M offers the property at auction instead
                number = taps.props[0]
                self.step = MoveShort(taps.event_id, number, self._now + self.config.idle_seconds)
                self._play(Cue.ERROR)
                self._show(self.screens.move_short(taps.event_id, number))
            else:
                self._refuse_rule(err)
            return
        except RuleError as err:
            self._refuse_rule(err)
            return
        self.step = Idle()
        self._after(tx, self._event_result(tx))

    def _event_result(self, tx: Transaction) -> Screen:
        """The screen that says what an event card did, as the rules said it."""
        done = tx.outcome
        assert isinstance(done, o.EventPlayed), done
        s, eid, number = self.screens, done.event_id, done.number
        result = done.result
        if result == "gridlock":
            return s.event_done(eid, s.say("event.gridlock"))
        if result == "cheap_rent":
            return s.event_done(eid, s.say("event.cheap", n=done.amount))
        if result == "nothing":
            return s.event_done(eid, s.say("event.none"), number=number)
        token = s.card_token(done.card) if done.card is not None else None
        if result == "bought":
            text = (
                s.say("land.set")
                if done.completed_group
                else s.say("land.bought", money=s.money(done.amount or 0))
            )
            return s.event_done(eid, text, number=number, token=token, level=done.level)
        if result == "level" and done.effect == "move":
            text = s.say("land.level", level=done.level)
            return s.event_done(eid, text, number=number, token=token, level=done.level)
        if result == "tax":
            money = s.money(done.amount or 0)
            return s.event_done(
                eid, s.say("event.tax", money=money), token=token, amount=done.amount
            )
        if result == "collected":
            text = s.say("event.collect", amount=done.amount)
            return s.event_done(eid, text, amount=done.amount)
        if result == "jailed" and done.card is not None:
            text = s.say("jail.in", token=s.token(self._state, done.card))
            return s.event_done(eid, text, token=token)
        if result == "swapped":
            return s.event_done(eid, s.say("event.swap"), number=number)
        if result == "level":
            text = s.say("land.level", level=done.level)
            return s.event_done(eid, text, number=number, level=done.level)
        text = s.say("event.none") if result == "unchanged" else s.say(result)
        return s.event_done(eid, text, number=number, level=done.level)
