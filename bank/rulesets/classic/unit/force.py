"""Star Wars' Force battle (docs/classic.md §7.1, menu item 14): judged at once when the unit knows
the face of the lander's roll, else the rules ask for the face (or the symbol met) and a pick
offers the reading's faces.

Imports the unit's families, steps and the classic commands, outcomes and questions.
"""

from __future__ import annotations

from bank.engine.errors import RuleError
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic import questions as q
from bank.rulesets.classic.force import ASKED
from bank.rulesets.classic.unit.family import Family
from bank.rulesets.classic.unit.steps import (
    Pick,
)
from bank.unit.shell import Idle


class ForceGestures(Family):
    """The Force battle."""

    def reading(self) -> str:
        return self._rules.settings(self._state).starwars.force_rule

    def asked(self) -> tuple[str, ...]:
        return ASKED[self.reading()]

    def battle(self, card: int, face: str | None) -> None:
        """The Force battle of *card*: judged at once when the unit knows the face of the
        lander's roll (or *face* was picked), else the pick of the face or the symbol."""
        command = c.ForceBattle(card, face)
        try:
            asked = self._rules.decide(self._state, command).question
            if isinstance(asked, q.ForceFace):
                options = tuple(range(1, len(self.asked()) + 1))
                self.step = Pick("force", options, 0, self._entry_expiry(), card=card)
                self._show(self.u.entry.pick_screen(self.step))
                return
            tx = self.game.execute(command)
        except RuleError as err:
            self._refuse_rule(err)
            return
        done = tx.outcome
        assert isinstance(done, o.ForceFought)
        self.step = Idle()
        self._after(tx, self.screens.force(self._state, done))
