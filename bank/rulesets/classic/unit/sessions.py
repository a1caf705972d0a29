"""The build, sell and mortgage sessions (docs/classic.md §5.4, items 7, 8, 9): each deed tapped is
one transaction and the session goes on; a hotel the bank's stock cannot take apart asks
`tout vendre ? ✓` (the rules' :class:`~bank.rulesets.classic.questions.SellWholeGroup`); a
session opened for a debt ends with the debt.

Imports the unit's families, steps and the classic commands and outcomes.
"""

from __future__ import annotations

from dataclasses import replace

from bank.engine.commands import Command
from bank.engine.errors import RuleError
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic import questions as q
from bank.rulesets.classic.mega import SKYSCRAPER
from bank.rulesets.classic.unit.family import Family, Gestures
from bank.rulesets.classic.unit.steps import (
    Interest,
    Session,
)
from bank.unit.io import Button, CardId, Cue
from bank.unit.shell import Finished, Idle, Settling


class SessionGestures(Family):
    """The build, sell and mortgage sessions."""

    def gestures(self) -> dict[type, Gestures]:
        return {Session: Gestures(tap=self._session_card, button=self._session_button)}

    def _session_card(self, step: Session, card: CardId) -> None:
        if card.kind == "deed":
            self._session_tap(step, card.number)
        else:
            self._refuse("c.err.need_deed")

    def _session_button(self, step: Session, button: Button) -> None:
        if step.sell_all is not None and button is Button.OK:
            self._session_tap(replace(step, sell_all=None), step.sell_all, whole_group=True)
        elif step.sell_all is not None:
            self.step = replace(step, sell_all=None, expires=self._idle_expiry())
            self._show(self.screens.session(self._state, step.kind, step.card))
        else:
            self._end_session(step)

    def _session_tap(self, step: Session, number: int, whole_group: bool = False) -> None:
        s = self._state
        scr = self.screens
        command: Command
        # another deed tapped: that question is dropped; any tap, refused or not, restarts the
        # session's 10 s (READINGS B4)
        step = replace(step, sell_all=None, expires=self._idle_expiry())
        self.step = step
        if step.kind == "build":
            command = c.Build(step.card, number)
        elif step.kind == "sell":
            command = c.SellBuilding(step.card, number, whole_group, for_debt=step.for_debt)
        else:
            command = c.Mortgage(step.card, number, for_debt=step.for_debt)
        if not 1 <= number <= len(self.ed.deeds):
            self._refuse("err.unknown_card")
            return
        if step.kind == "sell" and not whole_group and self._needs_whole_group(command):
            self.step = replace(step, sell_all=number, expires=None)
            level = s.prop(number).level or 0
            short = "c.sell_all.hotels" if level == SKYSCRAPER else "c.sell_all.houses"
            self._play(Cue.ERROR)
            self._show(
                scr.screen(
                    "sell_all",
                    scr.say(short),
                    scr.say("c.sell_all.ask"),
                    number=number,
                    level=level,
                    colour=scr.deed_colour(number),
                )
            )
            return
        tx = self._execute(command)
        if tx is None:
            return  # refused with its reason: the session goes on
        done = tx.outcome
        after = self._state
        if isinstance(done, o.Built):
            level = after.prop(number).level or 0
            if done.building:  # Méga: a skyscraper or a depot
                text = scr.say(f"c.built.{done.building}", amount=done.amount)
            elif done.hotel:
                text = scr.say("c.built.hotel", amount=done.amount)
            else:
                text = scr.say("c.built.house", n=level, amount=done.amount)
            screen = scr.session_result("built", after, number, text, done.amount, done.building)
        elif isinstance(done, o.BuildingSold):
            text = scr.say("c.sold", amount=done.amount)
            screen = scr.session_result(
                "building_sold", after, number, text, done.amount, done.building
            )
        elif isinstance(done, o.Mortgaged):
            text = scr.say("c.mortgaged", amount=done.amount)
            screen = scr.session_result("mortgaged", after, number, text, done.amount)
        else:
            assert isinstance(done, o.Lifted)
            text = scr.say("c.lifted", amount=done.amount)
            screen = scr.session_result("lifted", after, number, text, done.amount)
        del s
        self.step = replace(step, expires=self._idle_expiry())
        self._after(tx, screen)
        if isinstance(self.step, Settling | Finished | Interest):
            return
        if step.for_debt and done.debt_settled is not None:
            self.step = Idle()  # the rules said the debt is paid: the session ends with it
            self._sync()
        elif not isinstance(self.step, Session):
            self.step = replace(step, expires=self._idle_expiry())

    def _needs_whole_group(self, command: Command) -> bool:
        """Whether this sale is refused only because the bank's stock cannot take the hotel
        (skyscraper) apart: then the unit asks whether to sell the whole group (§3.8)."""
        try:
            decision = self._rules.decide(self._state, command)
        except RuleError:
            return False
        return isinstance(decision.question, q.SellWholeGroup)

    def _end_session(self, step: Session) -> None:
        self.step = Idle()
        self._sync()
        self._show(self._step_screen())
