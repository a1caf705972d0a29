"""The bank's errors: one root, :class:`BankError`, each also a matching builtin.

Every refused command raises a :class:`RuleError` carrying two texts: ``short`` for the LCD
(a few words) and ``str(err)`` for logs (complete). Imports nothing of the project.
"""

from __future__ import annotations


class BankError(Exception):
    """Root of every error raised by the bank."""

    def __init__(self, detail: str, short: str | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.short = short if short is not None else detail


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
