"""The classic rules engine (docs/classic.md §3, §4), one module per family of commands.

:mod:`.engine` holds :class:`ClassicRulesEngine`, which decides every command; the families
(:mod:`.rent`, :mod:`.moves` for GO, jail, taxes and the bank, :mod:`.landing`,
:mod:`.building`, :mod:`.mortgages`, :mod:`.trades`, :mod:`.dice`, :mod:`.cards`,
:mod:`.debts`) are the links of its chain of mixins over :mod:`.core`; :mod:`.tx` builds a
transaction's events with the debt rules. Imports its own modules.
"""

from __future__ import annotations

from bank.rulesets.classic.rules.core import DECKS, HOTEL
from bank.rulesets.classic.rules.dice import die
from bank.rulesets.classic.rules.engine import ClassicRulesEngine
from bank.rulesets.classic.rules.mortgages import interest
from bank.rulesets.classic.rules.tx import _Tx

__all__ = ["DECKS", "HOTEL", "ClassicRulesEngine", "_Tx", "die", "interest"]
