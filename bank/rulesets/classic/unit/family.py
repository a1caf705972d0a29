"""What every gesture family of the classic unit shares (docs/classic.md §5).

A family (number entry and picks, the menu, the sessions, the trade...) is one object beside
the unit: it owns some step types (:mod:`.steps`) and says, in :meth:`Family.gestures`, what
it does with the taps, keys and buttons made while one of them is the unit's step; the unit
dispatches them by the step's type through that table. A family reads and
changes the unit through the few members below (the step, the state, the screens, showing,
refusing, running a command); it reaches another family through the unit
(``self.u.cards``). Imports the core's unit I/O types and this package's rules engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bank.engine.errors import RuleError
from bank.rulesets.classic import outcomes as o
from bank.unit.io import Button, CardId, Cue, Screen
from bank.unit.shell import Idle

if TYPE_CHECKING:  # the unit builds its families
    from bank.engine.commands import Command
    from bank.engine.config import UnitConfig
    from bank.engine.game import Game, Transaction
    from bank.engine.state import GameState
    from bank.rulesets.classic.edition import ClassicEdition
    from bank.rulesets.classic.rules import ClassicRulesEngine
    from bank.rulesets.classic.screens import ClassicScreens
    from bank.rulesets.classic.unit.core import ClassicUnit

#: the most digits a typed amount has (an entry, a bid, a trade's cash): a seventh is refused
MAX_DIGITS = 6


def outcome_amount(tx: Transaction) -> int:
    """The money the rules said a transaction moved."""
    return tx.outcome.amount if isinstance(tx.outcome, o.ClassicOutcome) else 0


@dataclass(frozen=True, slots=True)
class Gestures:
    """What a family does with a tap, a keypad key (a digit, ``back``) and a button (✓, M, X)
    made during one step type; each gets the step and the gesture. None: the unit's default
    (a tap or a button: what the shell does with it; a key: `pas maintenant`)."""

    tap: Callable[[Any, CardId], None] | None = None
    key: Callable[[Any, str], None] | None = None
    button: Callable[[Any, Button], None] | None = None


class Family:
    """One family of gestures of the classic unit *u*: its steps and what they do."""

    def __init__(self, unit: ClassicUnit) -> None:
        self.u = unit

    def gestures(self) -> dict[type, Gestures]:
        """The step types this family owns, and its gestures on each (the unit's table)."""
        return {}

    def not_now(self, step: object, gesture: object) -> None:
        """A gesture the step does not take: the error cue and `pas maintenant`."""
        self._refuse("err.not_now")

    # ------------------------------------------------------------ the unit, as families see it

    @property
    def step(self) -> object:
        return self.u.step

    @step.setter
    def step(self, step: object) -> None:
        self.u.step = step

    @property
    def _state(self) -> GameState:
        return self.u._state

    @property
    def _rules(self) -> ClassicRulesEngine:
        return self.u._rules

    @property
    def ed(self) -> ClassicEdition:
        """The edition's classic table, for what the families show and offer (names, fees,
        banknotes, the card table, the menu's items); the rules decide everything else."""
        return self.u._rules.ed

    @property
    def _now(self) -> float:
        return self.u._now

    @property
    def screens(self) -> ClassicScreens:
        return self.u.screens

    @property
    def screen(self) -> Screen:
        return self.u.screen

    @property
    def config(self) -> UnitConfig:
        return self.u.config

    @property
    def game(self) -> Game:
        return self.u.game

    @property
    def lang(self) -> str:
        return self.u.lang

    def _show(self, screen: Screen) -> None:
        self.u._show(screen)

    def _play(self, cue: Cue) -> None:
        self.u._play(cue)

    def _refuse(self, key: str, **fields: object) -> None:
        self.u._refuse(key, **fields)

    def _refuse_rule(self, err: RuleError) -> None:
        self.u._refuse_rule(err)

    def _rule_text(self, err: RuleError) -> str:
        return self.u._rule_text(err)

    def _to_idle(self) -> None:
        self.u._to_idle()

    def _sync(self) -> None:
        self.u._sync()

    def _step_screen(self) -> Screen:
        return self.u._step_screen()

    def _execute(self, command: Command) -> Transaction | None:
        return self.u._execute(command)

    def _run(
        self, command: Command, screen_of: Callable[[Transaction], Screen]
    ) -> Transaction | None:
        return self.u._run(command, screen_of)

    def _after(self, tx: Transaction, screen: Screen, extra: tuple[Cue, ...] = ()) -> None:
        self.u._after(tx, screen, extra)

    def _cues(self, tx: Transaction) -> list[Cue]:
        return self.u._cues(tx)

    def _entry_expiry(self) -> float:
        return self.u._entry_expiry()

    def _idle_expiry(self) -> float:
        return self.u._idle_expiry()

    def _playing(self, card: int) -> bool:
        return self.u._playing(card)

    def _is_jail_card(self, card: CardId) -> bool:
        return self.u._is_jail_card(card)

    def _back_to_idle(self) -> None:
        """Idle again, or the step the game state holds (a debt, a question), on screen."""
        self.step = Idle()
        self._sync()
        self._show(self._step_screen())
