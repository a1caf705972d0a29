"""The trade (docs/classic.md §5.4, item 10) and the interest question (§3.10): the composer's
panels (deeds, cash, jail cards, summary), the offer the partner accepts or refuses, and the
question a mortgaged deed received opens (✓ keep the mortgage and pay the interest, M lift it).

Imports the unit's families, steps and the classic commands.
"""

from __future__ import annotations

from dataclasses import replace

from bank.engine.errors import RuleError
from bank.rulesets.classic import commands as c
from bank.rulesets.classic.screens import Line
from bank.rulesets.classic.state import classic
from bank.rulesets.classic.unit.family import MAX_DIGITS, Family, Gestures, outcome_amount
from bank.rulesets.classic.unit.steps import (
    TRADE_PANELS,
    Interest,
    Offer,
    TradeDraft,
    Trading,
)
from bank.unit.io import Button, CardId, Cue, Icon, Screen
from bank.unit.shell import Idle

#: the cuts of the tokens the glass tries on a trade panel (None: whole)
_CUTS: tuple[int | None, ...] = (None, 8, 6, 5, 4)


class TradeGestures(Family):
    """The trade composer, the offer and the interest question."""

    def gestures(self) -> dict[type, Gestures]:
        return {
            Trading: Gestures(self._trading_tap, self._trading_key, self._trading_button),
            Offer: Gestures(tap=self._offer_tap, button=self._offer_button),
            Interest: Gestures(tap=self._interest_tap, button=self._interest_button),
        }

    def _trading_key(self, step: Trading, key: str) -> None:
        if TRADE_PANELS[step.draft.panel] != "cash":
            self._refuse("err.not_now")
            return
        # digits await a payer card; the amount set before stays until one taps (A22)
        d = step.draft
        if key != "back" and len(d.typed) >= MAX_DIGITS:
            self._refuse("c.err.digits")  # refused, never cut: ⌫ takes the digits back
            return
        typed = d.typed[:-1] if key == "back" else d.typed + key
        self.panel(replace(d, typed=typed))

    def _offer_tap(self, step: Offer, card: CardId) -> None:
        if card.kind == "bank" and card.number == step.draft.second:
            self._commit_trade(step.draft)
        else:
            self._refuse("err.not_now")

    def _offer_button(self, step: Offer, button: Button) -> None:
        if button is Button.OK:
            self._commit_trade(step.draft)
        elif button is Button.CANCEL:
            self.step = Idle()
            self._show(self.screens.screen("trade_refused", self.screens.say("c.trade_refused")))
        else:
            self._refuse("err.not_now")

    def _interest_tap(self, step: Interest, card: CardId) -> None:
        self._refuse("c.err.interest")

    def _interest_button(self, step: Interest, button: Button) -> None:
        if button is Button.CANCEL:
            self._refuse("c.err.interest")
        else:
            self._answer_interest(step.number, lift=button is Button.MENU)

    def interest_screen(self, number: int) -> Screen:
        s = self._state
        keep, lift = self._rules.interest_terms(s, number)
        lift_only = self._rules.must_lift(s, number)
        return self.screens.interest(s, number, keep, lift, lift_only=lift_only)

    def panel(self, draft: TradeDraft) -> None:
        self.step = Trading(draft)
        self._show(self._trade_screen(draft))

    def _trade_screen(self, d: TradeDraft) -> Screen:
        scr, s = self.screens, self._state
        say = scr.say
        a, b = scr.token(s, d.first), scr.token(s, d.second)
        panel = TRADE_PANELS[d.panel]
        none = say("c.none")
        if panel == "deeds":

            def deeds(cut: int | None) -> str:
                return say(
                    "c.trade.deeds.2",
                    a=a[:cut],
                    b=b[:cut],
                    da=",".join(map(str, d.deeds_first)) or "-",
                    db=",".join(map(str, d.deeds_second)) or "-",
                )

            return scr.trade_panel(say("c.trade.deeds"), scr.wider(deeds(4), deeds, _CUTS))
        if panel == "cash":
            second: Line
            if d.typed:
                second = say("c.trade.cash.who", amount=int(d.typed))
            elif d.cash and d.cash_from is not None:
                second = say("c.trade.cash.2", amount=d.cash, token=scr.token(s, d.cash_from))
            else:
                second = none
            return scr.trade_panel(say("c.trade.cash"), second, bool(d.typed))
        if panel == "cards":

            def cards(cut: int | None) -> str:
                return say(
                    "c.trade.cards.2",
                    a=a[:cut],
                    b=b[:cut],
                    ca=len(d.cards_first),
                    cb=len(d.cards_second),
                )

            return scr.trade_panel(say("c.trade.cards"), scr.wider(cards(4), cards, _CUTS))

        def summary(width: int) -> str:
            """The offer in *width* cells: the tokens shortened before a number is ever cut,
            so the 20 cells keep every deed and the cash, and the glass's 25 the whole names
            too where they fit (issue 19)."""
            text = ""
            for cut in (None, 6, 4, 3, 2, 1):
                parts = []
                if d.deeds_first:
                    parts.append(f"{a[:cut]}>{','.join(map(str, d.deeds_first))}")
                if d.deeds_second:
                    parts.append(f"{b[:cut]}>{','.join(map(str, d.deeds_second))}")
                if d.cash and d.cash_from is not None:
                    parts.append(f"{scr.token(s, d.cash_from)[:cut]}>{d.cash}")
                if d.cards_first or d.cards_second:
                    parts.append(f"P{len(d.cards_first)}/{len(d.cards_second)}")
                text = " ".join(parts)
                if len(text) <= width:
                    break
            return text or none

        return scr.trade_panel(say("c.trade.summary"), summary)

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
        panel = TRADE_PANELS[d.panel]
        if button is Button.MENU:  # after `Résumé`, back to `Titres` (READINGS A10)
            self.panel(replace(d, panel=(d.panel + 1) % len(TRADE_PANELS)))
        elif panel == "cash":  # the amount entry, from the digits typed (A22)
            self.u.entry.open_entry("trade", None, d, d.typed)
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
                self.panel(replace(d, second=card.number))
            return
        panel = TRADE_PANELS[d.panel]
        if panel == "deeds" and card.kind == "deed":
            owner = s.prop(card.number).owner
            n = card.number
            if owner == d.first:
                first = (
                    tuple(x for x in d.deeds_first if x != n)
                    if n in d.deeds_first
                    else (*d.deeds_first, n)
                )
                self.panel(replace(d, deeds_first=first))
            elif owner == d.second:
                second = (
                    tuple(x for x in d.deeds_second if x != n)
                    if n in d.deeds_second
                    else (*d.deeds_second, n)
                )
                self.panel(replace(d, deeds_second=second))
            else:
                self._refuse_rule(RuleError("not theirs", "not your property"))
        elif panel == "cash" and card.kind == "bank" and card.number in (d.first, d.second):
            # the payer's card takes the digits typed so far, or keeps the amount (A22)
            amount = int(d.typed) if d.typed else d.cash
            if not amount:
                self._refuse("c.err.zero")
            else:
                self.panel(replace(d, cash=amount, cash_from=card.number, typed=""))
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
                self.panel(replace(d, cards_first=(*d.cards_first, held[0])))
            else:
                self.panel(replace(d, cards_second=(*d.cards_second, held[0])))
        elif panel == "cards" and card.kind in ("chance", "chest") and self._is_jail_card(card):
            # a held jail card's tag moves that card; tapped again, it moves back (A10, C15)
            holder = next((h for h, deck in classic(s).jail_cards if deck == card.kind), None)
            deck = card.kind
            if holder == d.first:
                moved = deck in d.cards_first
                cards = tuple(x for x in d.cards_first if x != deck) if moved else (
                    *d.cards_first, deck)  # fmt: skip
                self.panel(replace(d, cards_first=cards))
            elif holder == d.second:
                moved = deck in d.cards_second
                cards = tuple(x for x in d.cards_second if x != deck) if moved else (
                    *d.cards_second, deck)  # fmt: skip
                self.panel(replace(d, cards_second=cards))
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
        try:
            tx = self.game.execute(command)
        except RuleError as err:
            # refused at acceptance (a payer short of cash): the trade is dropped (A10)
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
        amount = outcome_amount(tx)
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
            self._show(self.interest_screen(self.step.number))
