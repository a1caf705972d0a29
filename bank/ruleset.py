"""What a ruleset offers the core, and what deciding a command gives back.

A ruleset (one package under :mod:`bank.rulesets`) decides commands: it validates a command
against the state and returns a :class:`Decision`, the events to commit *and* an
:class:`Outcome` saying what happened in the ruleset's own terms (bought, rent paid with its
amount, level raised...), so the unit shows the result without working it out again from the
events. A refusal raises :class:`bank.errors.RuleError` with a reason key and its fields.

The core (:class:`bank.game.Game`) owns the journal, undo groups and the auction timer and asks
the ruleset only what this protocol says. Imports only the engine's value types.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Protocol, runtime_checkable

from bank.commands import Command
from bank.errors import RuleError
from bank.events import Event
from bank.state import GameState


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a decided command did; each ruleset defines its own kinds as subclasses."""

    kind: ClassVar[str] = "outcome"


@dataclass(frozen=True, slots=True)
class Question:
    """What the rules must be told before they can decide a command; each ruleset defines its
    own kinds as subclasses, with the fields the unit needs to ask it."""

    kind: ClassVar[str] = "question"

    def refusal(self) -> RuleError:
        """The refusal a caller that cannot ask the question gets (the core's ``execute``)."""
        return RuleError(f"the rules need an answer first ({self.kind})", self.kind)


@dataclass(frozen=True, slots=True)
class Decision:
    """The events of a command (committed as one transaction) and what they amount to."""

    events: tuple[Event, ...]
    outcome: Outcome | None = None
    #: the state after *events*, when the ruleset worked it out while deciding (it applies
    #: each event as it emits it); the core then does not apply them a second time. It must
    #: be exactly ``apply(state, events)``; None: the core applies them.
    state: GameState | None = None
    #: what the rules need to know first: then *events* is empty and nothing may be committed
    #: (the core refuses such a decision with ``question.refusal()``)
    question: Question | None = None


class Ruleset(Protocol):
    """Decides commands and answers the core's few questions about the game."""

    @property
    def name(self) -> str:
        """The registry name (``ultime``), as edition files spell it."""
        ...

    @property
    def config(self) -> object:
        """The ruleset's own configuration (its decisions) in force."""
        ...

    def decide(self, state: GameState, command: Command) -> Decision:
        """The events and outcome of *command*, or the question it needs answered first;
        raises RuleError (state untouched)."""
        ...

    def joins_undo_group(self, command: Command) -> bool:
        """Whether *command* belongs to the undo group of the transaction before it.

        True for a step of settling that transaction's consequence (a property given up to
        pay a debt it caused): one undo then cancels them all.
        """
        ...

    def undo_after_settled_debt(self) -> bool:
        """Whether undo may cancel a transaction whose debt was settled since."""
        ...

    def auction_terms(self) -> tuple[int, float]:
        """The auction's bid step (money) and countdown (seconds)."""
        ...

    def check_bid(self, state: GameState, card: int, price: int) -> None:
        """Raise RuleError when *card* may not bid *price* now."""
        ...


class RefusesUndo(Protocol):
    """An optional hook: a ruleset that defines ``refuse_undo`` is asked before every undo.

    The core refuses undo on its own after the game's end, during a debt and when nothing is
    undoable; a ruleset with open questions of its own (the classic interest question) raises
    :class:`bank.errors.UndoRefused` from here while they are open.
    """

    def refuse_undo(self, state: GameState) -> None:
        """Raise UndoRefused when undo must wait."""
        ...


class ValuesWorth(Protocol):
    """An optional hook: a ruleset that ranks players by their worth says what one is worth.

    The end-of-game chart and the web view then draw and show that worth (the classic rules:
    cash, deeds at their price or half when mortgaged, buildings at cost) instead of money
    plus the purchase prices of the properties held.
    """

    def player_worth(self, state: GameState, card: int) -> int:
        """What bank card *card* is worth in *state*, cash included (0 once bankrupt)."""
        ...


@runtime_checkable
class DrawsSeeds(Protocol):
    """An optional hook: a ruleset whose dice are seeded once per game draws the seed of a new
    game from ``seed_source`` when its configuration does not set one.

    The source is deterministic by default (a tap script, a test); the daemon, which runs the
    bank for players, gives it the operating system's randomness, so that every game rolls
    fresh dice (docs/readings.md D1).
    """

    seed_source: Callable[[], int]
