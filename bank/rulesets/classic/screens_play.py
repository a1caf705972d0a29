"""The classic screens of play (docs/classic.md §5.5): deeds and landings, number entries and
picks, the menu, sessions, the trade and the interest question, each fitted to the 20-cell LCD
and the 25-cell glass by :class:`.screen_lines.ClassicScreenLines`. :mod:`.screens` adds the
shell's, the dice's, the cards' and the undo's screens.
"""

from __future__ import annotations

from bank.engine.state import GameState
from bank.rulesets.classic.screen_lines import (
    _ENTRY_ICONS,
    _MENU_ICONS,
    _NO_ICONS,
    ClassicScreenLines,
    Line,
)
from bank.rulesets.classic.state import classic
from bank.unit.io import Icon, Screen
from bank.unit.text import MESSAGES


class ClassicPlayScreens(ClassicScreenLines):
    """The classic screens of play for one edition in one language."""

    # ------------------------------------------------------------ deeds and landings

    def deed(self, state: GameState, number: int, rent: int | None) -> Screen:
        """The check of a deed: owner, buildings, mortgage, and its rent now or its price."""
        d = self.ed.deed(number)
        prop = state.prop(number)
        mortgaged = number in classic(state).mortgaged
        icons = self.buildings(state, number)
        if mortgaged:
            icons |= {Icon.MORTGAGE}
        owner = self.token(state, prop.owner) if prop.owner is not None else ""
        if prop.owner is None:
            second, amount = self.words("c.deed.price", money=self.money(d.price)), d.price
        elif mortgaged:
            second, amount = self.words("c.deed.mortgaged", owner=owner), 0
        elif rent is None:  # a utility: the rent depends on the dice
            second, amount = (
                self.words("c.deed.utility", owner=owner, mult="/".join(str(r) for r in d.rents)),
                None,
            )
        elif number in classic(state).depots:  # Méga: the station carries its depot
            second, amount = self.words("c.deed.depot", owner=owner, money=self.money(rent)), rent
        else:
            second, amount = self.words("c.deed.rent", owner=owner, money=self.money(rent)), rent
        owner_token = state.player(prop.owner).token if prop.owner is not None else None  # type: ignore[union-attr]
        return self.screen(
            "deed",
            self.deed_title(number),
            second,
            amount=amount,
            number=number,
            token=owner_token,
            level=prop.level,
            icons=icons,
            colour=self.deed_colour(number),
        )

    def bought(self, state: GameState, number: int, card: int, price: int, whole: bool) -> Screen:
        second = self.words("c.group") if whole else self.words("c.bought", money=self.money(price))
        return self.screen(
            "bought",
            self.deed_title(number),
            second,
            amount=price,
            number=number,
            token=self.card_token(card),
            level=state.prop(number).level,
            colour=self.deed_colour(number),
        )

    def rent(self, state: GameState, number: int, payer: int, owner: int, amount: int) -> Screen:
        return self.screen(
            "rent",
            self.words("c.rent.1", payer=self.token(state, payer), amount=amount),
            self.words("c.rent.2", owner=self.token(state, owner)),
            amount=amount,
            number=number,
            token=self.card_token(payer),
            level=state.prop(number).level,
            icons=self.buildings(state, number),
        )

    def no_rent(self, number: int, reason: str) -> Screen:
        key = "c.no_rent" if reason == "mortgaged" else "c.no_rent.jail"
        return self.screen(
            "no_rent",
            self.deed_title(number),
            self.words(key),
            number=number,
            icons=frozenset({Icon.MORTGAGE}) if reason == "mortgaged" else _NO_ICONS,
        )

    def own(self, number: int, card: int) -> Screen:
        return self.screen(
            "own",
            self.deed_title(number),
            self.words("c.own"),
            number=number,
            token=self.card_token(card),
        )

    def late(self, number: int) -> Screen:
        return self.screen("late", self.deed_title(number), self.words("c.late"), number=number)

    def short(self, number: int, key: str = "c.short") -> Screen:
        return self.screen(
            "error",
            self.deed_title(number),
            self.words(key),
            number=number,
            icons=frozenset({Icon.ERROR}),
        )

    # ------------------------------------------------------------ entries

    def entry(self, title: str, value: int, step: str) -> Screen:
        """The amount entry: what is asked, the value so far and the current step."""
        return self.screen(
            "entry",
            title,
            self.words("c.entry.value", value=value, step=step),
            amount=value,
            icons=_ENTRY_ICONS,
        )

    def pick(self, title: Line, option: Line, purpose: str = "") -> Screen:
        """A pick's title and the option shown (an entry: the keypad icon); the Force battle's
        pick lights the Force too."""
        icons = _ENTRY_ICONS | {Icon.FORCE} if purpose == "force" else _ENTRY_ICONS
        return self.screen("pick", title, option, icons=icons)

    # ------------------------------------------------------------ menu

    def menu(self, item: int, text: str, hint: str) -> Screen:
        """A menu item, with its icon (GO, jail, tax, mortgage, trade, dice, card, pot, debt)."""
        icon = _MENU_ICONS.get(item)
        return self.screen(
            "menu", text, hint, number=item, icons=frozenset({icon}) if icon else _NO_ICONS
        )

    def result(self, name: str, state: GameState, card: int, key: str, **fields: object) -> Screen:
        """A menu result about one player: ``go``, ``jail``, ``tax``, ``pot`` ..."""
        player = state.player(card)
        amount = fields.get("amount")
        icons = {"jail": Icon.JAIL, "go": Icon.GO, "tax": Icon.TAX, "pot": Icon.POT}
        return self.screen(
            name,
            self.words(key, token=self.token(state, card), **fields),
            self.words("balance.2", money=self.money(player.balance)) if player else "",
            amount=amount if isinstance(amount, int) else None,
            token=self.card_token(card),
            icons=frozenset({icons[name]}) if name in icons else _NO_ICONS,
        )

    def jail_choice(self, state: GameState, card: int) -> Screen:
        return self.screen(
            "jail_choice",
            self.words("c.jail.choice.1", token=self.token(state, card)),
            self.words("c.jail.choice.2", fee=self.ed.jail_fee),
            token=self.card_token(card),
            icons=frozenset({Icon.JAIL}),
        )

    # ------------------------------------------------------------ sessions

    def session(self, state: GameState, kind: str, card: int) -> Screen:
        return self.screen(
            "session",
            f"{self.say('c.session.' + kind)} {self.token(state, card)}",
            self.words("c.session.tap"),
            token=self.card_token(card),
        )

    def session_result(
        self, name: str, state: GameState, number: int, text: Line, amount: int, building: str = ""
    ) -> Screen:
        """A deed tapped in a session; *building* is Méga's skyscraper or depot just built or
        sold (its icon lights even once it is gone)."""
        prop = state.prop(number)
        icons = self.buildings(state, number, building)
        if number in classic(state).mortgaged:
            icons |= {Icon.MORTGAGE}
        return self.screen(
            name,
            self.deed_title(number),
            text,
            amount=amount,
            number=number,
            level=prop.level,
            icons=icons,
            colour=self.deed_colour(number),
        )

    # ------------------------------------------------------------ the trade

    def trade_panel(self, title: Line, second: Line, typing: bool = False) -> Screen:
        """A panel of the trade; *typing*: the cash panel with an amount typed that no payer's
        card has closed yet (the keypad icon too)."""
        icons = _ENTRY_ICONS | {Icon.TRADE} if typing else frozenset({Icon.TRADE})
        return self.screen("trade", title, second, icons=icons)

    def trade_offer(self, state: GameState, second: int) -> Screen:
        return self.screen(
            "trade_offer",
            self.words("c.trade.offer.1", token=self.token(state, second)),
            self.words("c.trade.offer.2"),
            token=self.card_token(second),
            icons=frozenset({Icon.TRADE}),
        )

    def interest(
        self, state: GameState, number: int, keep: int, lift: int, lift_only: bool = False
    ) -> Screen:
        """The question of §3.10; *lift_only*: Méga's new owner with buildings on the group
        must lift (M only)."""
        owner = state.prop(number).owner
        second: Line
        if lift_only:
            second = self.words("c.interest.lift", lift=lift)
        else:  # the short wording where the long one would cut the price to lift
            long = MESSAGES["c.interest.2"][self.lang].format(keep=keep, lift=lift)
            short = MESSAGES["c.interest.2.short"][self.lang].format(keep=keep, lift=lift)

            def second(width: int) -> str:
                return long if len(long) <= width else short

        return self.screen(
            "interest",
            self.words("c.interest.1", n=number),
            second,
            number=number,
            amount=lift if lift_only else keep,
            token=self.card_token(owner) if owner is not None else None,
            icons=frozenset({Icon.MORTGAGE}),
        )
