"""The classic rules engine's base: its edition and configuration, the seam's small questions
(undo groups, the auction's terms, a bid's check, the interest question before undo), and the
helpers every family of commands shares (a player in the game, a deed, the first lap, what a
player owes, could raise or is worth).

Imports the core and this package's modules; the first link of the engine's chain of mixins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bank.engine.auction import can_pay_bid
from bank.engine.commands import Command
from bank.engine.errors import RuleError, UndoRefused
from bank.engine.state import GameState
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import mega
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.edition import ClassicEdition, classic_edition
from bank.rulesets.classic.refusals import FirstLap
from bank.rulesets.classic.state import classic
from bank.rulesets.classic.variant import ClassicVariant, variant_of
from board_assets import Edition

#: the core level of a lot with a hotel
HOTEL = 5
#: the virtual decks (READINGS D2), in the order the state keeps them
DECKS = ("chance", "chest")


class RulesCore:
    """The edition, the configuration and what every family of commands shares."""

    name = "classic"
    #: a transaction that opened a debt may be undone while nothing was done about the debt
    #: yet (a wrong amount typed must never leave bankruptcy as the only way out); the debt
    #: goes with it
    undo_opens_debt = True

    def __init__(self, edition: Edition, config: ClassicConfig | None = None) -> None:
        self.edition = edition
        self.ed: ClassicEdition = classic_edition(edition)
        #: the variant the edition plays (Méga, Star Wars), asked where its game differs
        self.variant: ClassicVariant = variant_of(self.ed)
        self.config: ClassicConfig = config or ClassicConfig()
        #: where a new game's dice seed comes from when ``classic.dice_seed`` is not set: 0 (a
        #: tap script, a test), or the operating system's randomness where the bank runs for
        #: players (the daemon sets it: READINGS D1, :class:`bank.engine.ruleset.DrawsSeeds`)
        self.seed_source: Callable[[], int] = lambda: 0

    def settings(self, state: GameState) -> ClassicConfig:
        """The configuration recorded with the game (the configured one before it starts)."""
        recorded = classic(state).config
        if not recorded:
            return self.config
        return ClassicConfig.from_recorded(recorded, self.config)

    def joins_undo_group(self, command: Command) -> bool:
        return isinstance(command, c.AnswerInterest) or bool(getattr(command, "for_debt", False))

    def undo_after_settled_debt(self) -> bool:
        return self.config.undo_settled_debt_whole

    def auction_terms(self) -> tuple[int, float]:
        step = self.config.classic.auction_step or self.ed.auction_step
        return step, self.config.auction_seconds

    def check_bid(self, state: GameState, card: int, price: int) -> None:
        cfg = self.settings(state)
        player = state.player(card)
        if player is None or player.bankrupt:
            raise RuleError(f"bank card {card} is not in this game", "card not in game")
        if cfg.classic.bids_within_cash:
            can_pay_bid(state, card, price)
        self._first_lap(state, cfg, card)

    def game_meta(self, state: GameState) -> dict[str, Any]:
        """What the journal's game list says of a new game besides its edition and players:
        the dice seed (``ultibank history`` shows it, READINGS D1)."""
        return {"seed": classic(state).seed}

    def refuse_undo(self, state: GameState) -> None:
        """Undo waits while an interest question is open (§3.16)."""
        if classic(state).interest_due:
            raise UndoRefused("answer the interest question first", "interest first")

    def hotel_after(self, cfg: ClassicConfig) -> int:
        """Houses a lot needs before a hotel (3 in the fast game)."""
        return 3 if cfg.variants.fast_game else self.ed.houses_per_hotel

    def steps(self, level: int | None, cfg: ClassicConfig) -> int:
        """A lot's building steps: its houses, a hotel one above the most houses (§2.5), a
        Méga skyscraper one above the hotel."""
        if not level:
            return 0
        if level == mega.SKYSCRAPER:
            return self.hotel_after(cfg) + 2
        return self.hotel_after(cfg) + 1 if level == HOTEL else level

    def building_value(self, state: GameState, number: int, cfg: ClassicConfig) -> int:
        """What the buildings on deed *number* cost (§3.14; Méga: E10 and the depot)."""
        return self.variant.building_value(self, state, number, cfg)

    def check_player(self, state: GameState, card: int) -> Any:
        """*card*'s player, refused when not playing (another module's handlers)."""
        return self._player(state, card)

    def _player(self, state: GameState, card: int) -> Any:
        p = state.player(card)
        if p is None or p.bankrupt:
            reason = "eliminated" if p is not None else "card not in game"
            raise RuleError(f"bank card {card} is not playing in this game", reason)
        return p

    def _deed(self, number: int) -> Any:
        if not 1 <= number <= len(self.ed.deeds):
            raise RuleError(f"there is no deed {number}", "no such property")
        return self.ed.deed(number)

    def _first_lap(self, state: GameState, cfg: ClassicConfig, card: int) -> None:
        if cfg.variants.no_buy_first_lap and card not in classic(state).passed_go:
            raise FirstLap(f"player {card} has not passed GO yet", "first lap")

    def _fines_to_pot(self, cfg: ClassicConfig) -> bool:
        return cfg.variants.free_parking == "taxes_and_fines"

    def _amount(self, amount: int) -> None:
        if amount <= 0:
            raise RuleError("an amount is required", "amount required")

    def owed(self, state: GameState, card: int) -> int:
        """All that *card* owes: the debt being settled and those waiting behind it (C22)."""
        p = state.player(card)
        waiting = sum(q[2] for q in classic(state).queued if q[0] == card)
        return (p.debt if p is not None else 0) + waiting

    def liquidation(self, state: GameState, card: int, cfg: ClassicConfig) -> int:
        """What selling every building and mortgaging every deed would raise (§3.12)."""
        ext = classic(state)
        total = 0
        for number in state.owned_by(card):
            deed = self.ed.deed(number)
            total += self.building_value(state, number, cfg) // 2
            if number not in ext.mortgaged:
                total += deed.mortgage
        return total

    def worth(self, state: GameState, card: int, cfg: ClassicConfig) -> int:
        """Cash, deeds (mortgaged at half), buildings at cost (§3.14)."""
        p = state.player(card)
        if p is None or p.bankrupt:
            return 0
        ext = classic(state)
        total = p.balance
        for number in state.owned_by(card):
            deed = self.ed.deed(number)
            total += deed.price // 2 if number in ext.mortgaged else deed.price
            total += self.building_value(state, number, cfg)
        return total

    def player_worth(self, state: GameState, card: int) -> int:
        """:meth:`worth` under the configuration recorded with the game (the chart, the web)."""
        return self.worth(state, card, self.settings(state))
