"""The unit's dice and the jail (docs/classic.md §3.6, §5.4 item 11): a roll (fixed by a script's
``roll`` lines or drawn from the game's seed) and what it did, in jail too; the jail question
(✓ the fee, M the held card or its tag, X a double).

Imports the unit's families, steps and the classic commands and outcomes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bank.engine.errors import RuleError
from bank.engine.game import Transaction
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.state import classic
from bank.rulesets.classic.unit.family import Family, Gestures, outcome_amount
from bank.unit.io import Button, CardId, Screen
from bank.unit.shell import Idle, JailChoice

if TYPE_CHECKING:
    from bank.rulesets.classic.unit.core import ClassicUnit


class DiceGestures(Family):
    """The dice and the jail question."""

    def __init__(self, unit: ClassicUnit) -> None:
        super().__init__(unit)
        #: the rolls fixed by a script's ``roll`` lines (white dice, third die), first first
        self._rigged: list[tuple[tuple[int, ...], str | None]] = []

    def gestures(self) -> dict[type, Gestures]:
        return {JailChoice: Gestures(tap=self._jail_tap, button=self._jail_button)}

    def _jail_tap(self, step: JailChoice, card: CardId) -> None:
        if (
            card.kind in ("chance", "chest")
            and self._is_jail_card(card)
            and card.kind in classic(self._state).cards_of(step.card)
        ):  # the held "Get out of jail free" tag, at the jail question: used (§3.6)
            jailed = step.card
            self._run(c.LeaveJail(jailed, "card", card.kind), lambda tx: self._jail_out(tx, jailed))
        else:
            self._refuse("err.not_now")

    def _jail_button(self, step: JailChoice, button: Button) -> None:
        how = {Button.OK: "fee", Button.MENU: "card", Button.CANCEL: "double"}[button]
        tx = self._run(c.LeaveJail(step.card, how), lambda tx: self._jail_out(tx, step.card))
        if tx is None and how == "fee" and self._fee_short(step.card):
            # READINGS E16: `Pas assez` (shown by the refusal) and the question closes,
            # the player still in jail: nobody is stuck at a question they cannot answer
            self.step = Idle()

    def queue(self, dice: tuple[int, ...], third: str | None) -> None:
        """A script's ``roll`` line: the next roll shows these dice (and third die)."""
        self._rigged.append((dice, third))

    def _fee_short(self, card: int) -> bool:
        """Whether *card* lacks the cash for the jail fee (READINGS E16)."""
        player = self._state.player(card)
        return player is not None and player.balance < self.ed.jail_fee

    def _jail_out(self, tx: Transaction, card: int) -> Screen:
        return self.screens.result(
            "jail_out",
            self._state,
            card,
            "c.jail.out",
            amount=outcome_amount(tx),
        )

    def next_fixed(self) -> tuple[tuple[int, ...], str | None]:
        return self._rigged.pop(0) if self._rigged else ((), None)

    def roll(self, card: int | None) -> None:
        fixed, third = self.next_fixed()
        try:
            tx = self.game.execute(c.RollDice(card, fixed, third=third))
        except RuleError as err:
            if fixed or third is not None:
                self._rigged.insert(0, (fixed, third))
            self._refuse_rule(err)
            return
        done = tx.outcome
        assert isinstance(done, o.Rolled)
        say = self.screens.say
        fee, tries = self.ed.jail_fee, self.ed.jail_tries
        effect = done.effect
        if effect is o.RollEffect.THREE_DOUBLES:
            second = say("c.dice.three")
        elif effect is o.RollEffect.FREED:
            second = say("c.dice.freed")
        elif effect is o.RollEffect.TRY:
            second = say("c.dice.try", n=done.jail_try, of=tries)
        elif effect is o.RollEffect.FEE:
            second = say("c.dice.fee", n=tries, fee=fee)
        elif effect is o.RollEffect.TRIPLE:
            second = say("c.dice.triple")
        elif done.dice[0] == done.dice[1]:
            second = say("c.dice.double")
        else:
            second = ""
        self.step = Idle()
        self._after(tx, self.screens.dice(self._state, card, done.dice, second, done.third))
