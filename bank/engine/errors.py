"""The bank's errors: one root, :class:`BankError`, each also a matching builtin.

Every refused command raises a :class:`RuleError` carrying a *reason key* (``key``: a few
lowercase words, such as ``"not enough money"``) with the *fields* its wording names, which the
unit looks up in its catalogue of refusals in each language (:func:`bank.unit.text.refusal`),
and ``str(err)`` for logs (complete, in English). Imports nothing of the project.
"""

from __future__ import annotations

# collections.abc is not imported at start (``ultibank tap`` loads these classes); mypy reads
# this name as typing's own flag
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable


class BankError(Exception):
    """Root of every error raised by the bank."""

    def __init__(self, detail: str, short: str | None = None, **fields: object) -> None:
        """*short* is the reason key (default: *detail*); *fields* fill its wording."""
        super().__init__(detail)
        self.detail = detail
        #: the reason, a key of the unit's catalogue of refusals
        self.key = short if short is not None else detail
        #: the values the reason's wording names (``{lo}``, ``{hi}``...)
        self.fields = fields

    @property
    def short(self) -> str:
        """The reason key (its English wording, fields left out)."""
        return self.key


class RuleError(BankError, ValueError):
    """A command the rules refuse; the state is unchanged."""


class NotEnoughMoney(RuleError):
    """A voluntary payment (purchase, Location fee, bid) larger than the payer's balance."""


class InDebt(RuleError):
    """Something other than settling a debt was tried while a player is in debt."""


class GameOver(RuleError):
    """The game has ended; only a reset starts a new one."""


class UndoRefused(RuleError):
    """Undo is not possible now (nothing to undo, an event card, a debt, undone already)."""


class JournalError(BankError, OSError):
    """The journal cannot be read or written."""


class JournalFull(JournalError):
    """The disk holding the journal is full; the transaction was not recorded."""


class CorruptJournal(JournalError):
    """The journal file is damaged beyond the torn-tail recovery."""


class ScriptError(BankError, SyntaxError):
    """A tap-script line that does not parse."""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``; did you mean X?`` for the choice closest to a misspelt *word*, or nothing (the
    one-line messages of the command line and of tap scripts add it before what is known)."""
    import difflib

    close = difflib.get_close_matches(word.lower(), [c.lower() for c in choices], n=1, cutoff=0.6)
    return f"; did you mean {close[0]}?" if close and close[0] != word.lower() else ""
