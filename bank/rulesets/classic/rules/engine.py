"""The classic rules (docs/classic.md §3, §4): pure decisions, events and a typed outcome.

:class:`ClassicRulesEngine` decides the core's commands (new game, landing, auction sale) and
the classic ones (:mod:`bank.rulesets.classic.commands`); a refusal raises
:class:`bank.engine.errors.RuleError` with a reason key and nothing changes, and a command the table
must answer first (:mod:`bank.rulesets.classic.questions`) decides to a question and no events.
Each family of commands is decided by one module of this package, a link of the engine's chain
of mixins (:mod:`.core` < :mod:`.rent` < :mod:`.moves` < :mod:`.landing` < :mod:`.building` <
:mod:`.mortgages` < :mod:`.trades` < :mod:`.dice` < :mod:`.cards` < :mod:`.debts`); this module
adds the gate (an open interest question or debt), the new game and the table from a command
to its decision. A transaction's events are built by :class:`.tx._Tx`. The configuration in
force is the one recorded with the game (§6), read back from the state. Imports the core and
this package's modules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from bank.engine.commands import AuctionSale, Command, Land, NewGame
from bank.engine.errors import GameOver, InDebt, RuleError
from bank.engine.events import PlayerJoined
from bank.engine.ruleset import Decision
from bank.engine.state import GameState
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import force, mega
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic import questions as q
from bank.rulesets.classic.rules.core import DECKS
from bank.rulesets.classic.rules.debts import DebtRules
from bank.rulesets.classic.rules.tx import _Tx
from bank.rulesets.classic.state import classic


class ClassicRulesEngine(DebtRules):
    """Decides the classic game's commands for one edition."""

    def _gate(self, state: GameState, command: Command) -> None:
        """What an open interest question or debt still lets through."""
        ext = classic(state)
        if ext.interest_due and not isinstance(command, c.AnswerInterest):
            raise RuleError("answer the interest question first", "interest first")
        debtor = ext.debts[0] if ext.debts else None
        for_debt = bool(getattr(command, "for_debt", False))
        if debtor is None:
            if for_debt:
                raise RuleError("there is no debt to settle", "no debt")
            if isinstance(command, c.DeclareBankruptcy):
                raise RuleError("bankruptcy is declared during a debt", "no debt")
            return
        if isinstance(command, (c.AnswerInterest, c.DeclareBankruptcy)):
            return
        if isinstance(command, (c.SellBuilding, c.Mortgage, c.Trade)) and for_debt:
            parties = (
                (command.first, command.second) if isinstance(command, c.Trade) else (command.card,)
            )
            if debtor in parties:
                return
        raise InDebt(f"player {debtor} must settle a debt first", "settle the debt")

    def decide(self, state: GameState, command: Command) -> Decision:
        if isinstance(command, NewGame):
            return self._new_game(state, command)
        if not state.started:
            raise RuleError("no game in progress", "no game")
        if state.game_over:
            raise GameOver("the game is over", "game over")
        self._gate(state, command)
        cfg = self.settings(state)
        tx = _Tx(state)
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RuleError(f"the classic game has no {command.name}", "unknown action")
        try:
            return handler(self, tx, cfg, command)
        except q.QuestionAsked as asked:  # nothing is committed: the table answers first
            return Decision((), state=state, question=asked.question)

    def _new_game(self, state: GameState, cmd: NewGame) -> Decision:
        if state.started:
            raise RuleError("a game is already in progress", "game on")
        ed = self.ed
        k = self.edition.constants
        if len(set(cmd.cards)) != len(cmd.cards):
            raise RuleError("a bank card was given twice", "card twice")
        if not k.min_players <= len(cmd.cards) <= k.max_players:
            raise RuleError(
                f"{k.min_players} to {k.max_players} players",
                "players range",
                lo=k.min_players,
                hi=k.max_players,
            )
        for card in cmd.cards:
            if not 1 <= card <= k.max_players:
                raise RuleError(f"there is no bank card {card}", "card not in game")
        tx = _Tx(state)
        for card in sorted(cmd.cards):
            tx.emit(PlayerJoined(card, k.tokens[card - 1], ed.start_balance))
        cfg = self.config
        if cfg.classic.double_rent_with_mortgaged_lot is None or cfg.classic.auction_step is None:
            own = replace(
                cfg.classic,
                double_rent_with_mortgaged_lot=ed.double_rent_with_mortgaged_lot
                if cfg.classic.double_rent_with_mortgaged_lot is None
                else cfg.classic.double_rent_with_mortgaged_lot,
                auction_step=cfg.classic.auction_step or ed.auction_step,
            )
            cfg = replace(cfg, classic=own)
        if cfg.classic.dice_seed is None:  # drawn now, and recorded with the game (D1)
            cfg = replace(cfg, classic=replace(cfg.classic, dice_seed=self.seed_source()))
        cfg = force.with_faces(cfg, ed)
        seed = cfg.classic.dice_seed
        assert seed is not None
        tx.set_field("config", cfg.recorded())
        tx.set_field("seed", seed)
        if cfg.variants.virtual_decks and ed.card_table:  # shuffled once per game (D2)
            tx.set_field("decks", tuple((d, self.deck_order(seed, d)) for d in DECKS))
        tx.set_field("houses", ed.houses)
        tx.set_field("hotels", ed.hotels)
        tx.set_field("skyscrapers", ed.skyscrapers)
        tx.set_field("depot_stock", ed.depots)
        tx.set_field(
            "pot", cfg.variants.free_parking_seed if cfg.variants.free_parking != "off" else 0
        )
        return tx.decision(o.Started(None, ed.start_balance))


_HANDLERS: dict[type[Command], Callable[..., Decision]] = {
    Land: ClassicRulesEngine._land,
    c.Visit: ClassicRulesEngine._visit,
    AuctionSale: ClassicRulesEngine._auction_sale,
    c.SeriesSale: ClassicRulesEngine._auction_sale,
    c.PassGo: ClassicRulesEngine._pass_go,
    c.GoToJail: ClassicRulesEngine._go_to_jail,
    c.LeaveJail: ClassicRulesEngine._leave_jail,
    c.PayTax: ClassicRulesEngine._pay_tax,
    c.PayBank: ClassicRulesEngine._pay_bank,
    c.ReceiveBank: ClassicRulesEngine._receive_bank,
    c.CollectPot: ClassicRulesEngine._collect_pot,
    c.Build: ClassicRulesEngine._build,
    c.SellBuilding: ClassicRulesEngine._sell,
    c.Mortgage: ClassicRulesEngine._mortgage,
    c.Trade: ClassicRulesEngine._trade,
    c.AnswerInterest: ClassicRulesEngine._interest,
    c.RollDice: ClassicRulesEngine._roll,
    mega.BirthdayGift: mega.gift,
    c.PlayCard: ClassicRulesEngine._play_card,
    c.GenericCard: ClassicRulesEngine._generic,
    c.DeclareBankruptcy: ClassicRulesEngine._bankruptcy,
    c.DrawCard: ClassicRulesEngine._draw,
    c.TimeUp: ClassicRulesEngine._time_up,
    c.ForceBattle: force.battle,
}
