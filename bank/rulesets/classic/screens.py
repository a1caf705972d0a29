"""The classic unit's screens (docs/classic.md §5.5), through the core's screen model.

Extends :class:`bank.unit.screens.Screens`: the same two lines, ``amount``, ``number``,
``token`` (the player's script name), ``level`` and ``icons``, so that panels need not know
classic. Each method returns a screen whose lines are fitted to the 2x20 LCD, and, where
they differ, the same lines written for the emulator's 25-cell glass (``wide``: whole street
names, the long wordings); a line whose words depend on the room is a :data:`Line` function
of the width, and no width ever cuts a number (issue 19). Imports the engine's state and
edition types, the unit's I/O and texts, and the classic edition and state.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bank.engine.events import Event, MoneyMoved, PropertyChanged, invert
from bank.engine.state import GameState, PlayerState
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic import text as _texts  # noqa: F401  (registers the classic texts)
from bank.rulesets.classic.config import FORCE_FACES
from bank.rulesets.classic.edition import classic_edition
from bank.rulesets.classic.mega import SKYSCRAPER
from bank.rulesets.classic.state import classic
from bank.unit.io import WIDE_COLS, Icon, Screen
from bank.unit.screens import Screens
from bank.unit.text import LCD_WIDTH, MESSAGES, fit, short_name
from board_assets import Edition

#: a screen's line: its text, or its text for a given width (the 20 cells of the character
#: LCD, the 25 of the emulator's glass), for a line whose words depend on the room
Line = str | Callable[[int], str]

_NO_ICONS: frozenset[Icon] = frozenset()
#: the icon of each menu item that has one (§5.4)
_MENU_ICONS = {
    1: Icon.GO,
    2: Icon.JAIL,
    3: Icon.TAX,
    4: Icon.TAX,
    9: Icon.MORTGAGE,
    10: Icon.TRADE,
    11: Icon.DICE,
    12: Icon.CARD,
    13: Icon.POT,
    14: Icon.FORCE,
    16: Icon.DEBT,
}
#: the icons of a screen with a number entry open (docs/classic.md §5.2, §5.5)
_ENTRY_ICONS: frozenset[Icon] = frozenset({Icon.KEYPAD})
#: Méga's buildings (§7.2): the icon each one lights (``Built.building``, ``BuildingSold``)
_BUILDING_ICONS = {"skyscraper": Icon.SKYSCRAPER, "depot": Icon.DEPOT}


class ClassicScreens(Screens):
    """The classic screens for one edition in one language."""

    def __init__(self, edition: Edition, lang: str) -> None:
        super().__init__(edition, lang)
        self.ed = classic_edition(edition)

    # ------------------------------------------------------------ helpers

    def screen(
        self,
        name: str,
        first: Line,
        second: Line = "",
        *,
        icons: frozenset[Icon] = _NO_ICONS,
        **fields: object,
    ) -> Screen:
        """A screen of two lines (one when *second* is empty), fitted to the LCD, with the
        model's other fields as given; the lines written for the emulator's wider glass too
        (:attr:`Screen.wide`) when they differ (issue 19: the glass shows whole words)."""
        texts = (first, second) if _at(second, WIDE_COLS) else (first,)
        lines = tuple(fit(_at(t, LCD_WIDTH)) for t in texts)
        wide = tuple(fit(_at(t, WIDE_COLS), WIDE_COLS) for t in texts)
        return Screen(
            name,
            lines,
            icons=icons,
            wide=wide if wide != lines else (),
            **fields,  # type: ignore[arg-type]
        )

    def words(self, key: str, **fields: object) -> Line:
        """The message *key* in the unit's language, not yet fitted: the screen fits it to
        each width; a ``<key>.wide`` wording, where there is one, for a width it fits."""
        text = MESSAGES[key][self.lang].format(**fields)
        wide = MESSAGES.get(f"{key}.wide")
        if wide is None:
            return text
        long = wide[self.lang].format(**fields)
        return lambda width: long if len(long) <= width else text

    def token(self, state: GameState, card: int | None) -> str:
        """The LCD label of bank card *card* (the edition's, §1.5)."""
        if card is None:
            return self.say("c.debt.bank")
        labels = self.ed.token_labels
        return labels[card - 1] if 1 <= card <= len(labels) else str(card)

    def money(self, amount: int) -> str:
        return f"{amount} {self.ed.currency_lcd}"

    def deed_name(self, number: int, width: int = LCD_WIDTH) -> str:
        """``12 Av. Mozart``: the number and the name, fitted to one line of *width* cells
        (the classic boxes' longest names shortened by hand first, so that none ends cut:
        issue 19); on a wider glass the usual abbreviations first (``27 Av. des
        Champs-Élysées`` in 25 cells)."""
        name = f"{number} {self.ed.deed(number).name}"
        if width > LCD_WIDTH:
            shortened = short_name(name, width)
            if len(name) <= width or not shortened.endswith("…"):
                return shortened
        for long, short in _DEED_ABBREVIATIONS:
            if len(name) <= width:
                break
            name = name.replace(long, short)
        return short_name(name, width)

    def deed_title(self, number: int) -> Line:
        """Deed *number*'s name line, for each width (:meth:`deed_name`)."""
        return lambda width: self.deed_name(number, width)

    def buildings(self, state: GameState, number: int, building: str = "") -> frozenset[Icon]:
        """The Méga icons of deed *number*: the skyscraper on a lot that has one, the depot on
        a station that has one, and *building* (the one just built or sold) whatever is left."""
        icons = {_BUILDING_ICONS[building]} if building else set()
        if state.prop(number).level == SKYSCRAPER:
            icons.add(Icon.SKYSCRAPER)
        if number in classic(state).depots:
            icons.add(Icon.DEPOT)
        return frozenset(icons)

    def deed_colour(self, number: int) -> str | None:
        group = self.ed.deed(number).group
        try:
            return self.edition.group(group).colour
        except (KeyError, ValueError):  # pragma: no cover - every deed's group is in the file
            return None

    # ------------------------------------------------------------ the shell's screens

    def idle(self) -> Screen:
        return self.screen("idle", self.words("c.idle.1"), self.words("c.idle.2"))

    def balance(self, state: GameState, player: PlayerState) -> Screen:
        held = len(classic(state).cards_of(player.card))
        key = "balance.1.jailed" if player.jailed else "balance.1"
        second = (
            self.words("c.balance.2", money=self.money(player.balance), cards=held)
            if held
            else self.words("balance.2", money=self.money(player.balance))
        )
        return self.screen(
            "balance",
            self.words(key, token=self.token(state, player.card)),
            second,
            amount=player.balance,
            token=player.token,
            icons=frozenset({Icon.JAIL}) if player.jailed else _NO_ICONS,
        )

    def final(self, state: GameState, player: PlayerState, worth: int) -> Screen:
        """After the game: a bank card's final balance and worth (§5.3)."""
        return self.screen(
            "balance",
            f"{self.token(state, player.card)} {self.money(player.balance)}",
            self.words("c.worth", money=self.money(worth)),
            amount=player.balance,
            token=player.token,
        )

    def game_started(self, state: GameState) -> Screen:
        start = self.ed.start_balance
        return self.screen(
            "game_started",
            self.words("new.started.1"),
            self.words("new.started.2", n=len(state.players), money=self.money(start)),
            amount=start,
        )

    def game_over(self, state: GameState) -> Screen:
        """The first four places, two a line, each name whole (issue 19: `2.Mace Win…`): two
        spaces between places, one where two do not fit, the names shortened before a line
        would be cut; the whole ranking is the `scores` info screen's."""
        ranked = list(state.ranking) or [p.card for p in state.players]
        names = [self.token(state, card) for card in ranked][:4]

        def line(row: int) -> Line:
            def at(width: int) -> str:
                for cut in (None, 8, 6, 5, 4, 3):
                    for gap in ("  ", " "):
                        text = gap.join(
                            f"{i}.{names[i - 1][:cut]}"
                            for i in range(2 * row + 1, min(len(names), 2 * row + 2) + 1)
                        )
                        if len(text) <= width:
                            return text
                return text

            return at

        winner = state.player(state.winner) if state.winner is not None else None
        return self.screen(
            "game_over",
            line(0),
            line(1) if len(names) > 2 else "",
            amount=winner.balance if winner else None,
            token=winner.token if winner else None,
            icons=frozenset({Icon.TROPHY}),
        )

    def debt(self, state: GameState, debtor: PlayerState, can: int | None = None) -> Screen:
        """`voiture doit 360 à chien` / `Encore possible 180` (what selling and mortgaging can
        still raise); the creditor is left out when the line would not fit."""
        token, creditor = self.token(state, debtor.card), self.token(state, debtor.creditor)
        to = MESSAGES["c.debt.to"][self.lang].format(
            token=token, amount=debtor.debt, creditor=creditor
        )
        owes = MESSAGES["c.debt.1"][self.lang].format(token=token, amount=debtor.debt)

        def first(width: int) -> str:
            return to if len(to) <= width else owes

        second = (
            self.words("c.debt.2", creditor=creditor)
            if can is None
            else self.words("c.debt.can", can=can)
        )
        return self.screen(
            "debt",
            first,
            second,
            amount=debtor.debt,
            token=debtor.token,
            icons=frozenset({Icon.DEBT}),
        )

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

    def pick(self, title: str, option: str, purpose: str = "") -> Screen:
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
        self, name: str, state: GameState, number: int, text: str, amount: int, building: str = ""
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

    def trade_panel(self, title: str, second: str, typing: bool = False) -> Screen:
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

    # ------------------------------------------------------------ dice, cards, bankruptcy

    def dice(
        self,
        state: GameState,
        card: int | None,
        dice: tuple[int, int],
        second: str,
        third: str | None = None,
    ) -> Screen:
        """`chien : 3 + 4 = 7` / `double`: the text carries the dice (§8.3's transcript line).

        The Force shift (the symbols move) lights the Force icon. A third die showing a number
        is added on line 1 (`chien : 3+4+2=9`, written tight to
        fit 20 cells); a symbol face (`M. Monopoly`, `Bus`, ...) is named on line 2, after
        what the white dice did (`double · Bus`). The text carries every die, so a panel
        shows the third die without knowing it.
        """
        a, b = dice
        token = self.token(state, card) if card is not None else None
        first: Line
        if third is not None and third.isdigit():
            n = int(third)
            key = "c.dice.anon3" if card is None else "c.dice.3"
            first = self.tight(key, token=token, a=a, b=b, c=n, total=a + b + n)
        else:
            key = "c.dice.anon" if card is None else "c.dice.1"
            first = self.tight(key, token=token, a=a, b=b, total=a + b)
            if third in FORCE_FACES:
                second = self.force_face(second, third, dice)
            elif third is not None:
                face = self.face(third)
                second = f"{second} · {face}" if second else face
        return self.screen(
            "dice",
            first,
            second,
            token=self.card_token(card) if card is not None else None,
            icons=frozenset({Icon.FORCE}) if third == "shift" else _NO_ICONS,
        )

    def force(self, state: GameState, done: o.ForceFought) -> Screen:
        """The Force battle's result (§7.1): `Force vaincue` / `déplacez le symbole`, or
        `Vaincu par la Force` / `Dooku −200` and the balance left."""
        card = done.card or 0
        if done.won:
            first, second = self.words("c.force.won.1"), self.words("c.force.won.2")
        else:
            first = self.words("c.force.lost.1")
            second = self.words("c.force.lost.2", token=self.token(state, card), amount=done.amount)
        return self.screen(
            "force",
            first,
            second,
            amount=done.amount or None,
            token=self.card_token(card),
            icons=frozenset({Icon.FORCE}),
        )

    def tight(self, key: str, token: str | None, **dice: int) -> Line:
        """A dice line, for each width: as worded, else written tight (`Mace Windu : 5+6=11`),
        else with the token shortened: the dice and their total are never cut (issue 19)."""
        text = MESSAGES[key][self.lang]

        def at(width: int) -> str:
            for cut in (None, 8, 6, 4):
                line = text.format(token=(token or "")[:cut], **dice)
                squeezed = re.sub(r" ([+=]) ", r"\1", line)
                if len(line) <= width or len(squeezed) <= width:
                    break
            return line if len(line) <= width else squeezed

        return at

    def face(self, third: str) -> str:
        """The LCD name of a third die's face (``c.die.<face>``; the face itself without one)."""
        key = f"c.die.{third}"
        return self.say(key) if key in MESSAGES else third

    def force_face(self, second: str, third: str, dice: tuple[int, int]) -> str:
        """Line 2 of a roll with the Force die (§7.1): what the dice did, then the face. The
        Force shift says how far each symbol moves, by the white (light symbol) and the black
        die (dark symbol): `clair +3 · obscur +4`, on a double `double · bascule +3`; a square
        is `carré clair` (`double · clair`). Beside a jail effect that leaves no room, the
        face is left out (the state file and the transcript's state keep it)."""
        a, b = dice
        if third == "shift":
            long = short = (
                self.say("c.die.shift.same", n=a)
                if a == b
                else self.say("c.die.shift", light=a, dark=b)
            )
        else:
            long, short = self.face(third), self.say(f"c.die.{third}.short")
        if not second:
            return long
        for face in (long, short):
            if len(f"{second} · {face}") <= LCD_WIDTH:
                return f"{second} · {face}"
        return second

    def no_free_deed(self) -> Screen:
        """Méga's Auction space when every deed is owned: the auction icon says so (§7.2)."""
        return self.screen(
            "error",
            self.words("c.err.no_free_deed"),
            icons=frozenset({Icon.AUCTION, Icon.ERROR}),
        )

    def card(self, deck: str, number: int) -> Screen:
        """A Chance or Community Chest card tapped: its title, and who drew it?"""
        entry = self.ed.cards.get((deck, number))
        title = entry.title if entry is not None else f"{self.ed.deck_names[deck]} {number}"
        return self.screen(
            "card", title, self.words("c.card.who"), number=number, icons=frozenset({Icon.CARD})
        )

    def card_done(
        self, state: GameState, deck: str, number: int, card: int, text: str, amount: int
    ) -> Screen:
        entry = self.ed.cards.get((deck, number))
        title = entry.title if entry is not None else f"{self.ed.deck_names[deck]} {number}"
        return self.screen(
            "card_done",
            title,
            text,
            number=number,
            amount=amount,
            token=self.card_token(card),
            icons=frozenset({Icon.CARD}),
        )

    def bankrupt(self, state: GameState, card: int, ask: bool = False) -> Screen:
        """`Faillite : voiture`; *ask*: the debtor's card confirms it."""
        return self.screen(
            "bankrupt",
            self.words("c.bankrupt", token=self.token(state, card)),
            self.words("c.bankrupt.ask") if ask else "",
            token=self.card_token(card),
            icons=frozenset({Icon.DEBT}),
        )

    def info(
        self, title: str, second: str, token: str | None = None, amount: int | None = None
    ) -> Screen:
        """An info screen (§5.6): it changes nothing and goes back to idle after 10 s."""
        return self.screen("info", title, second, token=token, amount=amount)

    def undone(self, state: GameState | None = None, events: tuple[Event, ...] = ()) -> Screen:
        """What an undo undid, from its transaction's *events* (the undone ones, inverted),
        in *state* (after the undo): ``Annulé : achat`` / ``28 Rue de la Paix``, ``Annulé :
        loyer`` / ``dé → chien 250 €``; ``Annulé / Dernière opération`` when nothing says."""
        if state is None or not events:
            return super().undone()
        done = invert(events)  # the transaction as it was made
        say = self.say
        moved = [e for e in done if isinstance(e, MoneyMoved)]
        props = [e for e in done if isinstance(e, PropertyChanged)]
        what = ""
        second: Line = ""
        bought = next((e for e in props if e.old_owner is None and e.new_owner), None)
        traded = next((e for e in props if e.old_owner and e.new_owner != e.old_owner), None)
        built = next(
            (e for e in props if e.old_owner == e.new_owner and e.old_level != e.new_level), None
        )
        if bought is not None:
            what, second = say("c.undone.bought"), self.deed_line(bought.number)
        elif traded is not None:
            what, second = say("c.undone.traded"), self.deed_line(traded.number)
        elif built is not None and moved:
            up = (built.new_level or 0) > (built.old_level or 0)
            what = say("c.undone.built" if up else "c.undone.sold")
            second = self.deed_line(built.number)
        elif moved:
            first = moved[0]
            what = _REASON_WORDS.get(self.lang, {}).get(first.reason, "") or first.reason
            if not what:
                what = say("c.undone.money")
            second = self.money_line(state, first)
        if not what:
            return super().undone()
        return self.screen("undo", say("c.undone", what=what), second, icons=frozenset({Icon.UNDO}))

    def deed_line(self, number: int) -> Line:
        """``28 Rue de la Paix`` in each width (the number always whole)."""
        return self.deed_title(number)

    def money_line(self, state: GameState, move: MoneyMoved) -> Line:
        """``dé → chien 250 €``, ``voiture +150 €`` (from the bank), ``chien −200 €`` (to the
        bank), in each width: the tokens shortened before the amount is ever cut."""
        return lambda width: self._money_line(state, move, width)

    def _money_line(self, state: GameState, move: MoneyMoved, width: int) -> str:
        money = self.money(move.amount)
        for cut in (width, 6, 4, 3):
            if move.payer is None:
                line = f"{self.token(state, move.payee)[:cut]} +{money}"
            elif move.payee is None:
                line = f"{self.token(state, move.payer)[:cut]} −{money}"
            else:
                payer = self.token(state, move.payer)[:cut]
                line = f"{payer} → {self.token(state, move.payee)[:cut]} {money}"
            if len(line) <= width:
                return line
        return line


#: the classic editions' names too long for 20 cells with their number, shortened by hand
_DEED_ABBREVIATIONS: tuple[tuple[str, str], ...] = (
    ("Compagnie de distribution d'électricité", "Cie d'électricité"),
    ("Compagnie de distribution des eaux", "Cie des eaux"),
    ("Champs-Élysées", "Champs-Élys."),
    ("The Angel, Islington", "Angel Islington"),
    ("Northumberland Avenue", "Northumberl'd Av."),
    ("Elephant and Castle", "Elephant & Castle"),
    ("Street Station", "St Stn"),
    ("Station", "Stn"),
)


#: a money move's reason as an undo names it
_REASON_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "rent": "loyer",
        "purchase": "achat",
        "auction": "enchère",
        "go": "départ",
        "jail": "prison",
        "tax": "taxe",
        "fine": "amende",
        "bank": "banque",
        "pot": "parc gratuit",
        "lift": "levée",
        "mortgage": "hypothèque",
        "interest": "intérêts",
        "repairs": "réparations",
        "card": "carte",
        "birthday": "anniversaire",
        "gift": "cadeau",
        "force": "Force",
        "debt": "dette",
        "trade": "échange",
    },
    "en": {
        "rent": "rent",
        "purchase": "purchase",
        "auction": "auction",
        "go": "GO",
        "jail": "jail",
        "tax": "tax",
        "fine": "fine",
        "bank": "bank",
        "pot": "Free Parking",
        "lift": "lift",
        "mortgage": "mortgage",
        "interest": "interest",
        "repairs": "repairs",
        "card": "card",
        "birthday": "birthday",
        "gift": "gift",
        "force": "Force",
        "debt": "debt",
        "trade": "trade",
    },
}


def _at(line: Line, width: int) -> str:
    """*line*'s text for *width* cells (not yet fitted)."""
    return line(width) if callable(line) else line
