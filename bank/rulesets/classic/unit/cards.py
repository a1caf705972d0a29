"""Chance and Community Chest (docs/classic.md §4, §5.2): a card tapped, chosen or drawn waits for
the drawer's bank card; the rules' questions (which space the token stood on, GO passed,
pay or draw a Chance) become picks or ✓/M; `Tirez une Chance` waits for that deck's next
card; the unit's own virtual decks (READINGS D2, E4) and the generic effects of editions
without a card table (§4.5).

Imports the unit's families, steps and the classic commands, outcomes and questions.
"""

from __future__ import annotations

from bank.engine.errors import RuleError
from bank.engine.game import Transaction
from bank.engine.ruleset import Decision
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic import questions as q
from bank.rulesets.classic.edition import GENERIC_EFFECTS
from bank.rulesets.classic.state import classic
from bank.rulesets.classic.unit.family import Family, Gestures, outcome_amount
from bank.rulesets.classic.unit.steps import (
    AwaitDraw,
    CardDrawn,
    DeedCheck,
    DrawOffer,
    Entry,
    PayOrDraw,
    Pick,
)
from bank.unit.io import Button, CardId, Icon, Screen
from bank.unit.shell import Idle


class CardGestures(Family):
    """Chance and Community Chest cards."""

    def gestures(self) -> dict[type, Gestures]:
        return {
            CardDrawn: Gestures(tap=self._drawn_tap, button=self._drawn_button),
            AwaitDraw: Gestures(tap=self._await_draw_tap, button=self._await_draw_button),
            PayOrDraw: Gestures(tap=self.not_now, button=self._pay_or_draw_button),
            DrawOffer: Gestures(tap=self.not_now, button=self._draw_offer_button),
        }

    def _drawn_tap(self, step: CardDrawn, card: CardId) -> None:
        if card.kind != "bank":
            self._refuse("c.err.need_bank")
        elif step.effect:
            self.generic(step.deck, step.effect, card.number, step.amounts)
        else:
            self.play_card(step.deck, step.number, card.number, None, None)

    def _drawn_button(self, step: CardDrawn, button: Button) -> None:
        if button is Button.CANCEL:
            self._to_idle()
        else:
            self._refuse("c.err.need_bank")

    def _draw_offer_button(self, step: DrawOffer, button: Button) -> None:
        if button is Button.OK:
            number = self.draw_virtual(step.deck)
            if number is not None:
                self.step = CardDrawn(step.deck, number)
                self._show(self.screens.card(step.deck, number))
        elif button is Button.CANCEL:
            self._to_idle()
        else:
            self._refuse("err.not_now")

    def tag_tapped(self, card: CardId) -> None:
        """A Chance or Community Chest tag tapped on the idle unit: its card, or who holds it
        (a held jail card)."""
        s = self._state
        holder = next(
            (
                h
                for h, deck in classic(s).jail_cards
                if deck == card.kind and self._is_jail_card(card)
            ),
            None,
        )
        if not self.ed.card_table:
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

    def virtual_decks(self) -> bool:
        s = self._state
        return s.started and bool(classic(s).decks)

    def draw_virtual(self, deck: str) -> int | None:
        """Draw the top card of virtual deck *deck* (``chance``, ``chest``): committed at once,
        it goes under the deck and is never undone (READINGS D2, E5, E6). The number drawn,
        for the caller to apply to the drawer; None when refused (the refusal is shown: no
        virtual decks in this game). The `✓ tirer` screen and `Tirez une …` use it (E4, E7)."""
        tx = self._execute(c.DrawCard(deck))
        if tx is None or not isinstance(tx.outcome, o.Drawn):
            return None
        return tx.outcome.number

    def draw_offer_screen(self, deck: str) -> Screen:
        scr = self.screens
        return scr.screen(
            "draw",
            self.ed.deck_names[deck],
            scr.say("c.draw.ok"),
            icons=frozenset({Icon.CARD}),
        )

    def generic(self, deck: str, effect: int, card: int | None, amounts: tuple[int, ...]) -> None:
        """Generic effect *effect*: its amounts (one entry each), then the drawer's card (A17:
        `Qui a tiré ?`), then it applies."""
        entry = GENERIC_EFFECTS[effect]
        if len(amounts) < entry.amounts:
            self.step = Entry(
                "generic", card, self._entry_expiry(), deck=deck, effect=effect, amounts=amounts
            )
            self._show(self.u.entry.entry_screen(self.step))
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
            amount = outcome_amount(tx)
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

    def play_card(
        self, deck: str, number: int, card: int, choice: int | None, passed_go: bool | None
    ) -> None:
        if not self._playing(card):
            return
        if not self.ed.card_table:  # no table: the generic effects, by the icon only
            self._refuse_rule(RuleError("no card table", "unknown card"))
            return
        command = c.PlayCard(deck, number, card, choice, passed_go)
        try:
            decision = self._rules.decide(self._state, command)
        except RuleError as err:
            self._refuse_rule(err)
            return
        asked = decision.question
        if isinstance(asked, q.PayOrChance):
            self.step = PayOrDraw(deck, number, card)
            self._show(self._pay_or_draw_screen(self.step))
            return
        if isinstance(asked, q.WhichSpace):
            options = tuple(range(1, asked.options + 1))
            self.step = Pick(  # a destination: a pick, 30 s (READINGS B1)
                "choice", options, 0, self._entry_expiry(), card=card, number=number, deck=deck
            )
            self._show(self.u.entry.pick_screen(self.step))
            return
        if isinstance(asked, q.PassedGo):
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
            self._show(self.u.entry.pick_screen(self.step))
            return
        if self._draws_only(decision, card):
            return
        try:
            tx = self.game.execute(command)
        except RuleError as err:
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
            shown = self.u.landing.landing_screen(done.landing, getattr(done.landing, "number", 0))
            text = shown.lines[0 if isinstance(done.landing, o.RentPaid) else 1]
        elif done.amount:
            sign = "+" if done.gained else "−"
            text = scr.say(
                "c.card.amount", token=scr.token(after, card), sign=sign, amount=done.amount
            )
        else:
            text = scr.say("c.card.done", token=scr.token(after, card))
        self.step = Idle()
        self._after(tx, scr.card_done(after, deck, number, card, text, done.amount))

    def _draws_only(self, decision: Decision, card: int) -> bool:
        """A card whose only effect is to draw the next card of a deck (Community Chest 13's M,
        Chance 6 back onto a Community Chest space) changes nothing: it is not journalled, and
        the unit waits for that deck's next card (`Tirez une Chance`, READINGS C7, E17)."""
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
        entry = self.ed.cards.get((step.deck, step.number))
        amount = dict(entry.args).get("amount", 0) if entry is not None else 0
        ed = self.ed
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
            self.play_card(step.deck, step.number, step.card, choice, None)

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
            self.play_card(step.deck, number, step.card, None, None)

    def _await_draw_tap(self, step: AwaitDraw, card: CardId) -> None:
        if card.kind != step.deck:
            self._refuse("c.err.need_card")
            return
        self.play_card(step.deck, card.number, step.card, None, None)
