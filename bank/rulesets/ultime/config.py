"""Configuration of the Ultime rules: every **decision** of docs/ultime.md, with its default.

Imports the bank's errors, the shared configuration helpers and the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from bank.engine.config import NumberRange, shown
from bank.engine.errors import BankError, did_you_mean

#: the range of each number of :class:`RulesConfig`
RULES_RANGES: dict[str, NumberRange] = {
    # 0 or nan never ends an auction; an hour is already no auction at all
    "auction_seconds": NumberRange(1, 300, unit="seconds"),
}


class WinnerRule(Enum):
    """How the winner is chosen at the end of the game."""

    MONEY = "money"  # most money; a tie goes to the highest property value (French rules)
    NET_WORTH = "net_worth"  # money plus the purchase price of properties (UK rules)


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """The rules' decisions. Defaults are those of docs/ultime.md."""

    #: seconds the auction countdown runs, restarted at each bid (**decision**: 10)
    auction_seconds: float = 10.0
    #: a visitor on a jailed player's property pays nothing and the level stays (**decision**)
    jailed_owner_collects: bool = False
    #: when properties given up overshoot a debt, the bank pays the change back (**decision**)
    debt_change_from_bank: bool = True
    #: a bankrupt player's properties go to the creditor player, else to the bank (**decision**)
    bankrupt_assets_to_creditor: bool = True
    #: undo after a settled debt cancels the payment and every property given up (**decision**)
    undo_settled_debt_whole: bool = True
    winner_rule: WinnerRule = WinnerRule.MONEY

    @classmethod
    def from_mapping(cls, raw: dict[str, Any]) -> RulesConfig:
        """Build from a TOML table, refusing unknown keys and wrong types."""
        known = {f.name: f for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in known:
                raise BankError(
                    f"unknown rules setting {key!r}; known: {', '.join(known)}"
                    + did_you_mean(key, known)
                )
            default = getattr(cls(), key)
            if isinstance(default, WinnerRule):
                try:
                    kwargs[key] = WinnerRule(value)
                except ValueError as err:
                    choices = ", ".join(w.value for w in WinnerRule)
                    raise BankError(
                        f"rules.{key} = {shown(value)}: expected one of {choices}"
                    ) from err
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise BankError(f"rules.{key} = {shown(value)}: expected true or false")
                kwargs[key] = value
            else:
                try:
                    kwargs[key] = RULES_RANGES[key].check(value)
                except ValueError as err:
                    raise BankError(f"rules.{key} = {shown(value)}: expected {err}") from err
        return cls(**kwargs)
