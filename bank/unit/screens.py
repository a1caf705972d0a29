"""The unit's screens: builds the :class:`~bank.unit.io.Screen` model of every step and result.

One :class:`Screens` per unit, bound to an edition and a language; each method returns a
screen whose lines are already fitted to the 2x20 LCD. Imports the engine's state and
edition types, :mod:`bank.unit.io` and :mod:`bank.unit.text`.
"""

from __future__ import annotations

from bank.state import GameState, PlayerState
from bank.unit.io import Icon, Screen
from bank.unit.text import fit, money, say, short_name, token_name
from board_assets import Edition


class Screens:
    """Screen builders for one edition in one language."""

    def __init__(self, edition: Edition, lang: str) -> None:
        self.edition = edition
        self.lang = lang

    # ------------------------------------------------------------ helpers

    def money(self, amount: int) -> str:
        """An amount with the edition's currency."""
        return money(amount, self.edition.currency)

    def say(self, key: str, **fields: object) -> str:
        """A message in the unit's language."""
        return say(self.lang, key, **fields)

    def token(self, state: GameState, card: int | None) -> str:
        """The LCD name of bank card *card*'s token."""
        if card is None:
            return "?"
        player = state.player(card)
        return token_name(self.lang, player.token if player else self.card_token(card))

    def card_token(self, card: int) -> str:
        """The token id of bank card *card* (``car`` for 1)."""
        tokens = self.edition.constants.tokens
        return tokens[card - 1] if 1 <= card <= len(tokens) else str(card)

    def colour(self, number: int) -> str:
        """The colour of property *number*'s group."""
        return self.edition.group(self.edition.prop(number).group).colour

    def prop_name(self, number: int) -> str:
        """Property *number*'s name, fitted to one line."""
        return short_name(self.edition.prop(number).name)

    # ------------------------------------------------------------ screens

    def off(self) -> Screen:
        """The dark screen of a unit without power."""
        return Screen("off", off=True)

    def idle(self) -> Screen:
        """Nothing in progress."""
        return Screen("idle", (self.say("idle.1"), self.say("idle.2")))

    def registration(self, state: GameState, cards: tuple[int, ...]) -> Screen:
        """A new game: the bank cards tapped so far."""
        if not cards:
            return Screen("new_game", (self.say("new.1"), self.say("new.2")))
        last = cards[-1]
        return Screen(
            "new_game",
            (
                self.say("new.joined.1", n=len(cards), token=self.token(state, last)),
                self.say("new.joined.2"),
            ),
            number=None,
            token=self.card_token(last),
        )

    def game_started(self, state: GameState) -> Screen:
        """The players are registered and credited."""
        start = self.edition.constants.start_balance
        return Screen(
            "game_started",
            (
                self.say("new.started.1"),
                self.say("new.started.2", n=len(state.players), money=self.money(start)),
            ),
            amount=start,
        )

    def balance(self, state: GameState, player: PlayerState) -> Screen:
        """A player's balance (a check)."""
        key = "balance.1.jailed" if player.jailed else "balance.1"
        icons = frozenset({Icon.JAIL}) if player.jailed else frozenset()
        return Screen(
            "balance",
            (
                self.say(key, token=self.token(state, player.card)),
                self.say("balance.2", money=self.money(player.balance)),
            ),
            amount=player.balance,
            token=player.token,
            icons=icons,
        )

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
        c = self.edition.constants
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
                self.say(
                    "go.1", token=self.token(state, card), amount=self.edition.constants.go_salary
                ),
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
                self.say("jail.choice.1", amount=self.edition.constants.jail_fee),
                self.say("jail.choice.2"),
            ),
            amount=self.edition.constants.jail_fee,
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
                    amount=self.edition.constants.location_fee,
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
                self.say("auction.how", step=self.edition.constants.auction_step),
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
        card = self.edition.event(event_id)
        lines = (fit(card.title), self.say(ask)) if ask else (fit(card.title),)
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
            (fit(card.title), result),
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
            (fit(card.title), self.say("event.move.short")),
            amount=self.edition.prop(number).price,
            number=number,
            icons=frozenset({Icon.EVENT, Icon.AUCTION}),
            colour=self.colour(number),
        )

    def debt(self, state: GameState, debtor: PlayerState) -> Screen:
        """A debt being settled: the debtor taps properties."""
        return Screen(
            "debt",
            (
                self.say("debt.1", token=self.token(state, debtor.card), amount=debtor.debt),
                self.say("debt.2"),
            ),
            amount=debtor.debt,
            token=debtor.token,
            icons=frozenset({Icon.DEBT}),
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

    def game_over(self, state: GameState) -> Screen:
        """The ranking, the winner's token and the trophy."""
        ranked = list(state.ranking) or [p.card for p in state.players]
        places = [f"{i}.{self.token(state, card)}" for i, card in enumerate(ranked, 1)]
        lines = tuple(fit("  ".join(places[i : i + 2])) for i in range(0, min(len(places), 4), 2))
        winner = state.player(state.winner) if state.winner is not None else None
        return Screen(
            "game_over",
            lines,
            amount=winner.balance if winner else None,
            token=winner.token if winner else None,
            icons=frozenset({Icon.TROPHY}),
        )

    def undone(self) -> Screen:
        """The last transaction was undone."""
        return Screen(
            "undo", (self.say("undo.1"), self.say("undo.2")), icons=frozenset({Icon.UNDO})
        )

    def archived(self) -> Screen:
        """The game was archived by a reset."""
        return Screen("new_game", (self.say("reset.1"), self.say("new.2")))

    def device_lost(self, kind: str) -> Screen:
        """A reader or panel link is lost."""
        first = self.say("reader.lost.1") if kind == "reader" else self.say("panel.lost.1")
        return Screen(
            f"{kind}_lost", (first, self.say("lost.2")), icons=frozenset({Icon.READER_LOST})
        )

    def fault(self, reason: str, title: str = "fault.title") -> Screen:
        """The unit cannot take transactions (or lost some): *reason* on the second line."""
        return Screen("fault", (self.say(title), fit(reason)), icons=frozenset({Icon.ERROR}))

    def refused(self, reason: str) -> Screen:
        """A refusal with its short reason."""
        return Screen("error", (self.say("err.title"), fit(reason)), icons=frozenset({Icon.ERROR}))
