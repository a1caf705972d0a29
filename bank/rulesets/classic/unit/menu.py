"""The menu (docs/classic.md §5.4): M walks its items, digits choose one (two digits for items 10
and up), the player's bank card applies it (GO, jail, the taxes, the entries, the sessions,
the trade, the dice, the pot, the Force, the gift), ✓ the items that take it (the deck pick,
bankruptcy, the info pages), and a keyboard panel's shortcuts open an item directly.

Imports the unit's families, steps and the classic commands.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from bank.rulesets.classic import commands as c
from bank.rulesets.classic.mega import BirthdayGift
from bank.rulesets.classic.unit.family import Family, Gestures, outcome_amount
from bank.rulesets.classic.unit.steps import (
    Bankruptcy,
    Menu,
    Pick,
    Session,
    TradeDraft,
    Trading,
)
from bank.unit.io import Button, CardId, Screen
from bank.unit.shell import Idle, JailChoice, Settling

#: the menu items every 40-space edition has; 13 with the pot variant, 14 in Star Wars (an
#: edition with sides), 16 during a debt
_ITEMS: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
DEBT_ITEMS: Final = (8, 9, 10)
#: bankruptcy, offered during a debt only when less can still be raised than is owed (§3.12)
_BANKRUPTCY: Final = 16
#: the info items at the end of the menu (a box without a keyboard: every player's cash, the
#: ranking; ✓ shows a page, ✓ again the next one)
_INFO_ITEMS: Final = {17: "table", 18: "scores"}
_SESSIONS: Final = {7: "build", 8: "sell", 9: "mortgage"}


class MenuGestures(Family):
    """The menu and its items."""

    def gestures(self) -> dict[type, Gestures]:
        return {Menu: Gestures(self._menu_tap, self._menu_key, self._menu_button)}

    def _menu_tap(self, menu: Menu, card: CardId) -> None:
        if card.kind == "bank":
            self._apply_item(menu, card.number)
        else:
            self._refuse("c.err.need_bank")

    def items(self) -> tuple[int, ...]:
        debtor = self._state.debtor()
        if debtor is not None:
            return (*DEBT_ITEMS, _BANKRUPTCY) if self._bankruptcy_offered() else DEBT_ITEMS
        cfg = self._rules.settings(self._state)
        extra = [13] if cfg.variants.free_parking != "off" else []
        extra.extend(self._rules.variant.menu_items())  # the Force battle, the Birthday Gift
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

    def open(self, item: int, typed: str = "", exact: bool = False) -> None:
        self.step = Menu(item, self._idle_expiry(), typed, exact)
        self._show(self._menu_screen(self.step))

    def _menu_screen(self, menu: Menu) -> Screen:
        """The item's icon text on line 1 (its number in the model), the next step on line 2."""
        say, ed = self.screens.say, self.ed
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
        items = self.items()
        if key == "back":
            self.open(menu.item)
            return
        if menu.typed:
            two = int(menu.typed + key)
            if two in items:
                self.open(two)
            else:
                self.step = replace(menu, typed="", expires=self._idle_expiry())
                self._refuse("c.err.no_item", n=two)
            return
        digit = int(key)
        if digit in items:
            self.open(digit, typed=key)
        elif any(i > 9 and str(i).startswith(key) for i in items):
            self.open(menu.item, typed=key)
        else:
            self._refuse("c.err.no_item", n=digit)

    def _menu_button(self, menu: Menu, button: Button) -> None:
        items = self.items()
        if button is Button.MENU:
            at = items.index(menu.item) + 1 if menu.item in items else len(items)
            if at < len(items):
                self.open(items[at])
            else:
                self.step = Idle()
                self._sync()
                self._show(self._step_screen())
        elif button is Button.CANCEL:
            self.step = Idle()
            self._sync()
            self._show(self._step_screen())
        elif menu.item == 1 and self._rules.settings(self._state).variants.double_go:
            self.open(1, exact=not menu.exact)
        elif menu.item == 11:
            self.u.dice.roll(None)
        elif menu.item in _INFO_ITEMS and self._state.started:
            # the menu stays open on the item: ✓ again shows the next page, M the next item
            self.step = replace(menu, expires=self._idle_expiry())
            self._show(self.u.info.page(_INFO_ITEMS[menu.item]))
        elif menu.item == 12:
            self.step = Pick("deck", (1, 2), 0, self._entry_expiry())
            self._show(self.u.entry.pick_screen(self.step))
        elif menu.item == 16:
            self.step = Bankruptcy(self._idle_expiry())
            debtor = self._state.debtor()
            card = debtor.card if debtor else 0
            self._show(self.screens.bankrupt(self._state, card, ask=True))
        else:
            self.open(menu.item, exact=menu.exact)  # accepted, changes nothing

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
                lambda tx: scr.result("go", self._state, card, "c.go", amount=outcome_amount(tx)),
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
            tax = self.ed.taxes[item - 3]
            self._run(
                c.PayTax(card, tax.position),
                lambda tx: scr.result("tax", self._state, card, "c.tax", amount=outcome_amount(tx)),
            )
        elif item in (5, 6):
            self.u.entry.open_entry("pay" if item == 5 else "receive", card)
        elif item in _SESSIONS:
            self.step = Session(_SESSIONS[item], card, self._idle_expiry(), for_debt)
            self._show(scr.session(s, _SESSIONS[item], card))
        elif item == 10:
            draft = TradeDraft(first=card, for_debt=for_debt)
            self.step = Trading(draft)
            self._show(scr.trade_panel(scr.say("c.trade.second"), scr.token(s, card)))
        elif item == 11:
            self.u.dice.roll(card)
        elif item == 13:
            self._run(
                c.CollectPot(card),
                lambda tx: scr.result("pot", self._state, card, "c.pot", amount=outcome_amount(tx)),
            )
        elif item == 14:
            self.u.force.battle(card, None)
        elif item == 15:
            self._run(
                BirthdayGift(card),
                lambda tx: scr.result(
                    "gift", self._state, card, "c.gift", amount=outcome_amount(tx)
                ),
            )
        elif item == 16:
            self._refuse("err.not_now")  # ✓ first, then the debtor's card
        else:  # item 12 takes ✓ first
            self._refuse("err.not_now")

    def shortcut(self, item: int) -> None:
        """A keyboard panel's menu shortcut (D: item 11, H: item 7 ...): the item shows, as
        M and its digits would show it; only where M opens the menu (idle, a debt, the menu)."""
        if not isinstance(self.step, Idle | Settling | Menu):
            self._refuse("err.not_now")
        elif item not in self.items():
            self._refuse("c.err.no_item", n=item)
        else:
            self.open(item)
