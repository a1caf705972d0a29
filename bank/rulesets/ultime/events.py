"""The Ultime ruleset's part of the state and the events that change it.

:class:`UltimeState` is the state extension (:class:`bank.engine.state.StateExtension`) of an Ultime
game: the colour groups whose completion bonus was given and the rent payments still charged
at level 1. Its two events are registered with the core's event reader, so the journal reads
them back. Imports the engine's state and event types and the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from bank.engine.events import Event, register_events
from bank.engine.state import GameState


@dataclass(frozen=True, slots=True)
class UltimeState:
    """What an Ultime game tracks beyond the shared state."""

    #: colour groups whose completion bonus was given (once per group per game)
    completed_groups: frozenset[str] = frozenset()
    #: rent payments still charged at level-1 rent (event card "cheap rent")
    cheap_rents: int = 0

    def to_json(self) -> dict[str, Any]:
        """The state file's Ultime keys (docs/scripts.md)."""
        return {"completed_groups": sorted(self.completed_groups), "cheap_rents": self.cheap_rents}


def ultime(state: GameState) -> UltimeState:
    """The Ultime part of *state* (every Ultime game starts with one)."""
    ext = state.extension
    return ext if isinstance(ext, UltimeState) else UltimeState()


@dataclass(frozen=True, slots=True)
class GroupCompleted(Event):
    """The colour-set bonus of *group* was given (or, inverted, taken back by undo)."""

    kind: ClassVar[str] = "group"
    group: str
    completed: bool = True

    def apply(self, state: GameState) -> GameState:
        ext = ultime(state)
        groups = set(ext.completed_groups)
        if self.completed:
            groups.add(self.group)
        else:
            groups.discard(self.group)
        return state.with_extension(replace(ext, completed_groups=frozenset(groups)))

    def inverse(self) -> Event:
        return replace(self, completed=not self.completed)


@dataclass(frozen=True, slots=True)
class CheapRentsChanged(Event):
    kind: ClassVar[str] = "cheap_rents"
    old: int
    new: int

    def apply(self, state: GameState) -> GameState:
        return state.with_extension(replace(ultime(state), cheap_rents=self.new))

    def inverse(self) -> Event:
        return CheapRentsChanged(self.new, self.old)


register_events(GroupCompleted, CheapRentsChanged)
