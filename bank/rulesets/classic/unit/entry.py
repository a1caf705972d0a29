"""Number entry and picks (docs/classic.md §5.2): the three-button amount entry (digits, the
banknote steps after ``valider``) for a payment, a receipt, a trade's cash or a generic card's
amount, and the picks (a utility's dice total, the deck, a card's number or option, GO passed, a
generic effect, the Force die's face): digits type an option, M shows the next, ✓ takes it.

Imports the unit's families, steps and the classic commands and outcomes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.edition import GENERIC_EFFECTS
from bank.rulesets.classic.state import classic
from bank.rulesets.classic.unit.family import MAX_DIGITS, Family, Gestures
from bank.rulesets.classic.unit.steps import (
    CardDrawn,
    DrawOffer,
    Entry,
    Pick,
    TradeDraft,
)
from bank.unit.io import Button, Screen

#: the dice totals a pick offers, in order, before ``lancer`` (§5.2)
DICE_TOTALS: Final = (7, 8, 9, 10, 11, 12, 2, 3, 4, 5, 6)


class EntryGestures(Family):
    """The amount entry and the picks."""

    def gestures(self) -> dict[type, Gestures]:
        return {
            Entry: Gestures(self.not_now, self._entry_key, self._entry_button),
            Pick: Gestures(self.not_now, self._pick_key, self._pick_button),
        }

    def open_dice_pick(self, card: int, number: int) -> None:
        last = classic(self._state).last_roll
        options: tuple[int, ...] = (*DICE_TOTALS, 0)  # 0: lancer
        mine = last is not None and last[0] == card
        if last is not None and mine:
            # the payer's own roll, the latest: an extra first option (READINGS A1, A24)
            options = (last[1] + last[2], *options)
        self.step = Pick(
            "dice", options, 0, self._entry_expiry(), card=card, number=number, last=mine
        )
        self._show(self.pick_screen(self.step))

    def _pick_text(self, pick: Pick, value: int, index: int = -1) -> str:
        say = self.screens.say
        if pick.purpose == "dice":
            if value == 0:
                return say("c.pick.roll")
            if pick.last and index == 0:
                return say("c.pick.last", n=value)
            return str(value)
        if pick.purpose == "passed_go":
            return say("c.pick.yes") if value else say("c.pick.no")
        if pick.purpose == "deck":
            return self.ed.deck_names["chance" if value == 1 else "chest"]
        if pick.purpose == "choice":
            return self._choice_text(pick, value)
        if pick.purpose == "generic":
            effect = GENERIC_EFFECTS[value]
            return f"G{value} {effect.fr if self.lang == 'fr' else effect.en}"
        if pick.purpose == "force":
            return say(f"c.force.{self.u.force.reading()}.{self.u.force.asked()[value - 1]}")
        return str(value)

    def _choice_text(self, pick: Pick, value: int) -> str:
        """A choice card's option: the space the token stood on (Community Chest 13 is a
        question of its own, :class:`PayOrDraw`)."""
        ed, say = self.ed, self.screens.say
        entry = ed.cards.get((pick.deck or "", pick.number or 0))
        spaces = ed.spaces((pick.deck or "").upper())
        if entry is not None and 1 <= value <= len(spaces):
            return say("c.pick.from", deck=ed.deck_names[pick.deck or ""], pos=spaces[value - 1])
        return say("c.pick.option", n=value)

    def pick_screen(self, pick: Pick) -> Screen:
        titles = {
            "dice": "c.pick.dice",
            "passed_go": "c.pick.passed_go",
            "deck": "c.pick.deck",
            "number": "c.pick.number",
            "choice": "c.pick.choice",
            "generic": "c.pick.generic",
            "force": f"c.pick.force.{self.u.force.reading()}",
        }
        text = self._pick_text(pick, pick.options[pick.index], pick.index)
        return self.screens.pick(self.screens.say(titles[pick.purpose]), text, pick.purpose)

    def _pick_key(self, pick: Pick, key: str) -> None:
        """Digits accumulate, two at most (a third starts over); the option typed shows and ✓
        takes it; a prefix of an option waits for the next digit; a typed digit never selects
        `lancer` (READINGS A14)."""
        if key == "back":
            typed = pick.typed[:-1]
        else:
            typed = pick.typed + key if len(pick.typed) < 2 else key
        typable = tuple(v for v in pick.options if not (pick.purpose == "dice" and v == 0))
        index = pick.index
        if typed and int(typed) in typable:
            index = pick.options.index(int(typed))
        elif typed and not any(str(v).startswith(typed) for v in typable if v >= 10):
            self.step = replace(pick, typed="", expires=self._pick_expiry(pick))
            self._refuse("c.err.no_item", n=typed)
            return
        self.step = replace(pick, index=index, typed=typed, expires=self._pick_expiry(pick))
        self._show(self.pick_screen(self.step))

    def _pick_expiry(self, pick: Pick) -> float | None:
        """A pick waits 30 s from its last key; a question (`Passé par Départ ?`) as long as
        it takes (READINGS B1)."""
        return None if pick.expires is None else self._entry_expiry()

    def _pick_button(self, pick: Pick, button: Button) -> None:
        if button is Button.MENU:
            index = (pick.index + 1) % len(pick.options)
            self.step = replace(pick, index=index, typed="", expires=self._pick_expiry(pick))
            self._show(self.pick_screen(self.step))
        elif button is Button.CANCEL and pick.purpose == "passed_go":
            self._choose(pick, 0)  # X means "not passed": the card goes on (§4.1, C20)
        elif button is Button.CANCEL:
            self._to_idle()  # a choice card's X abandons the card (C20)
        else:
            self._choose(pick, pick.options[pick.index])

    def _choose(self, pick: Pick, value: int) -> None:
        if pick.purpose == "dice":
            assert pick.card is not None and pick.number is not None
            dice = value
            if value == 0:  # lancer: the unit rolls two dice now, for the payer
                fixed, third = self.u.dice.next_fixed()
                tx = self._execute(c.RollDice(pick.card, fixed, pick=True, third=third))
                if tx is None or not isinstance(tx.outcome, o.Rolled):
                    return
                dice = tx.outcome.amount
                for cue in self._cues(tx):
                    self._play(cue)
            self.u.landing.land(pick.card, pick.number, dice)
        elif pick.purpose == "deck":
            deck = "chance" if value == 1 else "chest"
            if not self.ed.card_table:  # the effect comes before the drawer (A17)
                options = tuple(n for n, e in GENERIC_EFFECTS.items() if not e.moves)
                self.step = Pick("generic", options, 0, self._entry_expiry(), deck=deck)
            elif self.u.cards.virtual_decks():  # `✓ tirer` replaces the number pick (E4)
                self.step = DrawOffer(deck, self._entry_expiry())
                self._show(self.u.cards.draw_offer_screen(deck))
                return
            else:
                options = tuple(range(1, 17))
                self.step = Pick("number", options, 0, self._entry_expiry(), deck=deck)
            self._show(self.pick_screen(self.step))
        elif pick.purpose == "number":
            assert pick.deck is not None
            self.step = CardDrawn(pick.deck, value)
            self._show(self.screens.card(pick.deck, value))
        elif pick.purpose == "choice":
            assert pick.deck is not None and pick.number is not None and pick.card is not None
            self.u.cards.play_card(pick.deck, pick.number, pick.card, value - 1, None)
        elif pick.purpose == "generic":
            assert pick.deck is not None
            self.u.cards.generic(pick.deck, value, pick.card, ())
        elif pick.purpose == "passed_go":
            assert pick.deck is not None and pick.number is not None and pick.card is not None
            self.u.cards.play_card(pick.deck, pick.number, pick.card, pick.choice, bool(value))
        elif pick.purpose == "force":
            assert pick.card is not None
            self.u.force.battle(pick.card, self.u.force.asked()[value - 1])

    def entry_screen(self, entry: Entry) -> Screen:
        say = self.screens.say
        step = say("c.entry.ok") if entry.step == 0 else f"+{self._notes()[entry.step - 1]}"
        return self.screens.entry(say("c.entry.amount"), entry.value, step)

    def open_entry(
        self, purpose: str, card: int | None, trade: TradeDraft | None = None, typed: str = ""
    ) -> None:
        """The amount entry; *typed*: the digits already typed on the trade's `Argent` panel."""
        ops = tuple(("d", int(ch)) for ch in typed)
        self.step = Entry(purpose, card, self._entry_expiry(), ops=ops, trade=trade)
        self._show(self.entry_screen(self.step))

    def _entry_key(self, entry: Entry, key: str) -> None:
        if key == "back":
            ops = entry.ops
            if ops and ops[-1][0] == "d":
                ops = ops[:-1]
            new = replace(entry, ops=ops, step=0)
        elif sum(1 for kind, _ in entry.ops if kind == "d") >= MAX_DIGITS:
            self._refuse("c.err.digits")  # refused, never cut: the digits stay for ⌫
            return
        else:
            new = replace(entry, ops=(*entry.ops, ("d", int(key))), step=0)
        self.step = replace(new, expires=self._entry_expiry())
        self._show(self.entry_screen(self.step))

    def _entry_button(self, entry: Entry, button: Button) -> None:
        if button is Button.MENU:
            new = replace(entry, step=(entry.step + 1) % (len(self._notes()) + 1))
        elif button is Button.CANCEL:
            if not entry.ops:
                if entry.trade is not None:
                    self.u.trade.panel(entry.trade)
                else:
                    self._to_idle()
                return
            new = replace(entry, ops=entry.ops[:-1])
        elif entry.step:
            new = replace(entry, ops=(*entry.ops, ("n", self._notes()[entry.step - 1])))
        else:
            self._confirm_entry(entry)
            return
        self.step = replace(new, expires=self._entry_expiry())
        self._show(self.entry_screen(self.step))

    def _confirm_entry(self, entry: Entry) -> None:
        amount = entry.value
        if amount <= 0:
            self._refuse("c.err.zero")
            return
        if entry.purpose == "generic":
            assert entry.deck is not None
            self.u.cards.generic(entry.deck, entry.effect, entry.card, (*entry.amounts, amount))
            return
        if entry.purpose == "trade":
            assert entry.trade is not None
            # the entry's value becomes the typed amount, awaiting a payer card (A22)
            self.u.trade.panel(replace(entry.trade, typed=str(amount)))
            return
        card = entry.card
        assert card is not None
        s = self.screens
        if entry.purpose == "pay":
            self._run(
                c.PayBank(card, amount),
                lambda tx: s.result("paid", self._state, card, "c.paid", amount=amount),
            )
        else:
            self._run(
                c.ReceiveBank(card, amount),
                lambda tx: s.result("received", self._state, card, "c.received", amount=amount),
            )

    def _notes(self) -> tuple[int, ...]:
        """The banknote steps of the three-button amount entry (§5.2)."""
        return self._rules.variant.notes
