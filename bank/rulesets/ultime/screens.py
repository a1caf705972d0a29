"""The Ultime unit's screens: a property check, landings, the M menu, auctions, event cards.

Extends the shell's :class:`bank.unit.screens.Screens` (one per unit, bound to an edition and a
language); each method returns a screen whose lines are already fitted to the 2x20 LCD.
Imports the engine's state and edition types, :mod:`bank.unit.io`, :mod:`bank.unit.screens`,
:mod:`bank.unit.text` and the Ultime edition constants.
"""

from __future__ import annotations

from bank.engine.state import GameState
from bank.rulesets.ultime.edition import ultime_constants
from bank.unit.io import Icon, Screen
from bank.unit.screens import Screens
from bank.unit.text import event_effect
from board_assets import Edition


class UltimeScreens(Screens):
    """The Ultime screens for one edition in one language."""

    def __init__(self, edition: Edition, lang: str) -> None:
        super().__init__(edition, lang)
        self.k = ultime_constants(edition)

    # ------------------------------------------------------------ screens

    def property_check(
        self, state: GameState, number: int, rent_due: int | None, mover: int | None = None
    ) -> Screen:
        """A property check: number, owner, level and rent (price when unowned)."""
        prop = state.prop(number)
        info = self.edition.prop(number)
        owner = state.player(prop.owner) if prop.owner is not None else None
        if prop.owner is None:
            amount = info.price
            second = self.say("prop.price", money=self.money(amount))
        elif owner is not None and owner.jailed and rent_due == 0:
            amount = 0
            second = self.say("prop.rent.jailed")
        else:
            amount = rent_due if rent_due is not None else info.rent(prop.level or 1)
            second = self.say("prop.rent", money=self.money(amount))
        return Screen(
            "property",
            (self.prop_name(number), second),
            amount=amount,
            number=number,
            token=owner.token if owner else None,
            level=prop.level,
            icons=frozenset({Icon.LOCATION}) if mover is not None else frozenset(),
            colour=self.colour(number),
        )

    def bought(self, state: GameState, number: int, card: int, price: int, grouped: bool) -> Screen:
        """A property bought by landing on it."""
        prop = state.prop(number)
        second = (
            self.say("land.set") if grouped else self.say("land.bought", money=self.money(price))
        )
        return Screen(
            "bought",
            (self.prop_name(number), second),
            amount=price,
            number=number,
            token=self.card_token(card),
            level=prop.level,
            colour=self.colour(number),
        )

    def rent_paid(self, state: GameState, number: int, payer: int, paid: int) -> Screen:
        """A visitor paid rent; the level rose."""
        prop = state.prop(number)
        owner = prop.owner
        return Screen(
            "rent",
            (
                self.say("land.rent.1", payer=self.token(state, payer), amount=paid),
                self.say("land.rent.2", owner=self.token(state, owner), level=prop.level),
            ),
            amount=paid,
            number=number,
            token=self.card_token(owner) if owner is not None else None,
            level=prop.level,
            colour=self.colour(number),
        )

    def own_level(self, state: GameState, number: int, raised: bool) -> Screen:
        """An owner landed on their own property."""
        prop = state.prop(number)
        level = prop.level or 1
        second = self.say("land.level", level=level) if raised else self.say("land.level.max")
        return Screen(
            "level",
            (self.prop_name(number), second),
            number=number,
            token=self.card_token(prop.owner) if prop.owner is not None else None,
            level=prop.level,
            colour=self.colour(number),
        )

    def no_rent(self, state: GameState, number: int) -> Screen:
        """A visitor on a jailed owner's property pays nothing."""
        prop = state.prop(number)
        return Screen(
            "no_rent",
            (self.prop_name(number), self.say("land.jailed")),
            amount=0,
            number=number,
            token=self.card_token(prop.owner) if prop.owner is not None else None,
            level=prop.level,
            icons=frozenset({Icon.JAIL}),
            colour=self.colour(number),
        )

    def menu(self, icon: Icon) -> Screen:
        """The M menu showing one icon."""
        c = self.k
        first = {
            Icon.GO: self.say("menu.go", amount=c.go_salary),
            Icon.JAIL: self.say("menu.jail"),
            Icon.LOCATION: self.say("menu.location", amount=c.location_fee),
        }[icon]
        return Screen("menu", (first, self.say("menu.tap")), icons=frozenset({icon}))

    def passed_go(self, state: GameState, card: int) -> Screen:
        """The GO salary was paid."""
        player = state.player(card)
        balance = player.balance if player else 0
        return Screen(
            "go",
            (
                self.say("go.1", token=self.token(state, card), amount=self.k.go_salary),
                self.say("balance.2", money=self.money(balance)),
            ),
            amount=balance,
            token=self.card_token(card),
            icons=frozenset({Icon.GO}),
        )

    def jailed(self, state: GameState, card: int) -> Screen:
        """A player went to jail."""
        return Screen(
            "jail",
            (self.say("jail.in", token=self.token(state, card)),),
            token=self.card_token(card),
            icons=frozenset({Icon.JAIL}),
        )

    def jail_choice(self, state: GameState, card: int) -> Screen:
        """A jailed player chooses: pay (✓) or leave on a double (X)."""
        return Screen(
            "jail_choice",
            (
                self.say("jail.choice.1", amount=self.k.jail_fee),
                self.say("jail.choice.2"),
            ),
            amount=self.k.jail_fee,
            token=self.card_token(card),
            icons=frozenset({Icon.JAIL}),
        )

    def left_jail(self, state: GameState, card: int, paid: bool) -> Screen:
        """A player left jail."""
        player = state.player(card)
        balance = player.balance if player else 0
        second = (
            self.say("balance.2", money=self.money(balance)) if paid else self.say("jail.out.free")
        )
        return Screen(
            "jail_out",
            (self.say("jail.out.1", token=self.token(state, card)), second),
            amount=balance,
            token=self.card_token(card),
            icons=frozenset({Icon.JAIL}),
        )

    def location_paid(self, state: GameState, card: int) -> Screen:
        """The Location fee is paid: the destination comes next."""
        player = state.player(card)
        return Screen(
            "location",
            (
                self.say(
                    "location.1",
                    token=self.token(state, card),
                    amount=self.k.location_fee,
                ),
                self.say("location.2"),
            ),
            amount=player.balance if player else None,
            token=self.card_token(card),
            icons=frozenset({Icon.LOCATION}),
        )

    def auction_offer(self, state: GameState, number: int) -> Screen:
        """The auction icon over a free property."""
        return Screen(
            "auction_offer",
            (self.prop_name(number), self.say("auction.offer")),
            amount=self.edition.prop(number).price,
            number=number,
            icons=frozenset({Icon.AUCTION}),
            colour=self.colour(number),
        )

    def auction(self, number: int, price: int, bidder: int | None, countdown: int) -> Screen:
        """A running auction: price, last named bidder, seconds left."""
        return Screen(
            "auction",
            (
                self.say("auction.price", money=self.money(price)),
                self.say("auction.how", step=self.k.auction_step),
            ),
            amount=price,
            number=number,
            token=self.card_token(bidder) if bidder is not None else None,
            icons=frozenset({Icon.AUCTION}),
            countdown=countdown,
            colour=self.colour(number),
        )

    def auction_won(self, number: int, price: int) -> Screen:
        """The countdown is over after a button bid: the winner must tap."""
        return Screen(
            "auction_end",
            (
                self.say("auction.won.1", money=self.money(price)),
                self.say("auction.won.2"),
            ),
            amount=price,
            number=number,
            icons=frozenset({Icon.AUCTION}),
            countdown=0,
            colour=self.colour(number),
        )

    def auction_sold(self, state: GameState, number: int, card: int, price: int) -> Screen:
        """The auction's winner paid and owns the property."""
        return Screen(
            "sold",
            (
                self.prop_name(number),
                self.say("auction.sold", token=self.token(state, card), amount=price),
            ),
            amount=price,
            number=number,
            token=self.card_token(card),
            level=state.prop(number).level,
            icons=frozenset({Icon.AUCTION}),
            colour=self.colour(number),
        )

    def auction_cancelled(self, number: int, no_bid: bool) -> Screen:
        """An auction that sold nothing."""
        second = self.say("auction.none.2") if no_bid else self.say("auction.cancel.2")
        return Screen(
            "auction_cancelled",
            (self.say("auction.none.1"), second),
            number=number,
            icons=frozenset({Icon.AUCTION}),
            colour=self.colour(number),
        )

    def event_prompt(self, event_id: int, ask: str | None, number: int | None = None) -> Screen:
        """An event card shown with the tap it waits for (*ask* a message id)."""
        # the card's effect in the unit's words, not the publisher's title printed on it
        effect = event_effect(self.lang, self.edition.event(event_id).kind)
        lines = (effect, self.say(ask)) if ask else (effect,)
        return Screen(
            "event",
            lines,
            number=number,
            icons=frozenset({Icon.EVENT}),
            colour=self.colour(number) if number is not None else None,
        )

    def event_done(
        self,
        event_id: int,
        result: str,
        *,
        number: int | None = None,
        token: str | None = None,
        level: int | None = None,
        amount: int | None = None,
    ) -> Screen:
        """What an event card did."""
        card = self.edition.event(event_id)
        return Screen(
            "event_done",
            (event_effect(self.lang, card.kind), result),
            amount=amount,
            number=number,
            token=token,
            level=level,
            icons=frozenset({Icon.EVENT}),
            colour=self.colour(number) if number is not None else None,
        )

    def move_short(self, event_id: int, number: int) -> Screen:
        """An event move the mover cannot pay: M offers an auction."""
        card = self.edition.event(event_id)
        return Screen(
            "event_short",
            (event_effect(self.lang, card.kind), self.say("event.move.short")),
            amount=self.edition.prop(number).price,
            number=number,
            icons=frozenset({Icon.EVENT, Icon.AUCTION}),
            colour=self.colour(number),
        )

    def debt_settled(self, state: GameState, card: int, change: int) -> Screen:
        """The debt is covered; the bank's change, if any."""
        second = (self.say("debt.change", money=self.money(change)),) if change else ()
        return Screen(
            "debt_settled",
            (self.say("debt.done.1"), *second),
            amount=change,
            token=self.card_token(card),
        )
