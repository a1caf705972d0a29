"""The questions the classic rules ask before they can decide a command (docs/classic.md §4.1, §3.8,
§7.1): typed, carried by :attr:`bank.engine.ruleset.Decision.question` with no events.

The unit asks each one (a pick, ✓/M, `tout vendre ? ✓`) and sends the command again with the
answer. A caller that cannot ask (the core's ``execute``, a script line) gets
:meth:`~bank.engine.ruleset.Question.refusal`, the refusal these questions used to be, with the same
reason key and fields. Imports only the seam's value types.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bank.engine.errors import RuleError
from bank.engine.ruleset import Question


class QuestionAsked(Exception):
    """Raised inside the rules engine where a question stops a decision half-way; the engine's
    ``decide`` turns it into a :class:`bank.engine.ruleset.Decision` carrying the question (the
    working copy's events are dropped: a question commits nothing)."""

    def __init__(self, question: ClassicQuestion) -> None:
        super().__init__(question.kind)
        self.question = question


@dataclass(frozen=True, slots=True)
class ClassicQuestion(Question):
    """A question of the classic rules."""

    kind: ClassVar[str] = "classic question"
    #: the words of the refusal a caller that cannot ask gets
    message: ClassVar[str] = "the rules need an answer first"

    def refusal(self) -> RuleError:
        return RuleError(self.message, self.kind)


@dataclass(frozen=True, slots=True)
class WhichSpace(ClassicQuestion):
    """A card that moves the token from where it stood (Chance 3 spaces back, the nearest
    station): which of the deck's *options* spaces the token stood on (0-based answer)."""

    kind: ClassVar[str] = "choose"
    message: ClassVar[str] = "choose where the token went"
    options: int

    def refusal(self) -> RuleError:
        return RuleError(self.message, self.kind, options=self.options)


@dataclass(frozen=True, slots=True)
class PayOrChance(ClassicQuestion):
    """Community Chest 13 (READINGS E17): pay (answer 0) or draw a Chance (answer 1)."""

    kind: ClassVar[str] = "choose"
    message: ClassVar[str] = "pay or draw a Chance"

    def refusal(self) -> RuleError:
        return RuleError(self.message, self.kind, options=2)


@dataclass(frozen=True, slots=True)
class PassedGo(ClassicQuestion):
    """An advance card whose destination the ring cannot tell: did the token pass GO?"""

    kind: ClassVar[str] = "passed go?"
    message: ClassVar[str] = "passed GO on the way?"


@dataclass(frozen=True, slots=True)
class ForceFace(ClassicQuestion):
    """The Force battle (§7.1) when the unit does not know the face: which face of the Force
    die (or which symbol) the lander met, in *reading*."""

    kind: ClassVar[str] = "force face?"
    message: ClassVar[str] = "which face did the Force die show?"
    reading: str

    def refusal(self) -> RuleError:
        return RuleError(self.message, self.kind, reading=self.reading)


@dataclass(frozen=True, slots=True)
class SellWholeGroup(ClassicQuestion):
    """A hotel (Méga: a skyscraper) the bank's stock cannot take apart: sell the buildings of
    deed *number*'s whole group (§3.8)?"""

    kind: ClassVar[str] = "sell group"
    number: int
    #: the stock lacking: ``houses`` (a hotel) or ``hotel`` (a skyscraper)
    lacking: str = "houses"

    def refusal(self) -> RuleError:
        return RuleError(f"the bank lacks the {self.lacking}: sell the whole group", self.kind)
