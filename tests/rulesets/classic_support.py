"""Helpers for the classic rules tests: a game of classic-fr (or another edition) in memory."""

from __future__ import annotations

import random
from typing import Any

from bank.engine.commands import Command
from bank.engine.game import Game, Transaction
from bank.rulesets.classic import commands as c
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.mega import BirthdayGift
from bank.rulesets.classic.outcomes import ClassicOutcome
from bank.rulesets.classic.rules import ClassicRulesEngine
from bank.rulesets.classic.state import ClassicState, classic
from board_assets import load_edition
from tests.support.fakes import MemoryJournal


def new_game(players: int = 2, edition: str = "classic-fr", **tables: dict[str, Any]) -> Game:
    """A started game; *tables* are ``classic={...}``, ``variants={...}``."""
    config = ClassicConfig.from_mapping(tables) if tables else None
    game = Game(load_edition(edition), config, journal=MemoryJournal())
    game.start(range(1, players + 1))
    return game


def run(game: Game, *commands: Command) -> Transaction:
    tx = None
    for command in commands:
        tx = game.execute(command)
    assert tx is not None
    return tx


def outcome(tx: Transaction) -> ClassicOutcome:
    assert isinstance(tx.outcome, ClassicOutcome)
    return tx.outcome


def balance(game: Game, card: int) -> int:
    p = game.state.player(card)
    assert p is not None
    return p.balance


def balances(game: Game) -> list[int]:
    return [p.balance for p in game.state.players]


def ext(game: Game) -> ClassicState:
    return classic(game.state)


def rules(game: Game) -> ClassicRulesEngine:
    assert isinstance(game.ruleset, ClassicRulesEngine)
    return game.ruleset


def replayed(game: Game) -> Game:
    """The game re-opened from its journal."""
    return Game(game.edition, game.rules, journal=game.journal)


def random_classic_command(rnd: random.Random, game: Game, rolls: bool = True) -> Command:
    """One of the classic ruleset's own commands, legal or not, biased toward legal ones.

    *rolls*: include the unit's dice (which undo skips over, so a suite that checks undo
    against the state before the last transaction leaves them out).
    """
    state = game.state
    x = classic(state)
    k = game.edition.constants
    players = [p.card for p in state.players if not p.bankrupt] or [1]
    card = rnd.choice(players) if rnd.random() < 0.95 else rnd.randint(1, k.max_players)
    owned = state.owned_by(card)
    ed = rules(game).ed
    number = rnd.choice(owned) if owned and rnd.random() < 0.6 else rnd.randint(1, len(ed.deeds))
    if owned and rnd.random() < 0.4:  # another lot of a group the card has begun
        group = rules(game).ed.group(rules(game).ed.deed(number).group)
        number = rnd.choice(group)
    debt = bool(x.debts)
    if debt and rnd.random() < 0.8:
        card = x.debts[0]
        owned = state.owned_by(card)
        number = rnd.choice(owned) if owned else number
    if x.interest_due and rnd.random() < 0.8:
        return c.AnswerInterest(x.interest_due[0], rnd.random() < 0.3)
    kind = rnd.randrange(18 if rolls else 17)
    other = rnd.choice(players)
    if kind == 0:
        return c.Visit(card, number, rnd.randint(2, 12))
    if kind == 1:
        return c.PassGo(card, rnd.random() < 0.2)
    if kind == 2:
        return c.GoToJail(card)
    if kind == 3:
        return c.LeaveJail(card, rnd.choice(("fee", "card", "double")))
    if kind == 4:
        return c.PayTax(card, rnd.choice((4, 38, 5, 50)))
    if kind == 5:
        return c.PayBank(card, rnd.choice((rnd.randint(1, 400), 3000)))
    if kind == 6:
        return c.ReceiveBank(card, rnd.randint(1, 400))
    if kind == 7:
        return BirthdayGift(card) if ed.mega and rnd.random() < 0.5 else c.CollectPot(card)
    if kind in (8, 9):
        spare = 1 if ed.mega else 0  # Méga builds with all lots but one
        full = [
            n
            for n in owned
            if (ed.deed(n).kind == "street" or (ed.mega and ed.deed(n).kind == "station"))
            and sum(state.prop(m).owner == card for m in ed.group(ed.deed(n).group))
            >= len(ed.group(ed.deed(n).group)) - spare
        ]
        if full and ed.mega and rnd.random() < 0.8:  # build up one group: skyscrapers happen
            lots = state.prop
            best = max(
                full, key=lambda n: sum(lots(m).level or 0 for m in ed.group(ed.deed(n).group))
            )
            full = [n for n in full if ed.deed(n).group == ed.deed(best).group]
        if full and rnd.random() < 0.8:  # the lot with the fewest buildings: usually legal
            number = min(full, key=lambda n: (state.prop(n).level or 0, rnd.random()))
        return c.Build(card, number) if rnd.random() < 0.8 else c.Visit(card, number, 7)
    if kind == 10:
        return c.SellBuilding(card, number, rnd.random() < 0.2, debt)
    if kind == 11:
        return c.Mortgage(card, number, debt)
    if kind == 12:
        mine = tuple(n for n in state.owned_by(card) if rnd.random() < 0.3)
        theirs = tuple(n for n in state.owned_by(other) if rnd.random() < 0.2)
        cash = rnd.choice((0, 0, 10, 100))
        cards = x.cards_of(card)[:1] if rnd.random() < 0.5 else ()
        return c.Trade(card, other, mine, theirs, cash, rnd.choice((card, other)), cards, (), debt)
    if kind == 13:
        deck = rnd.choice(("chance", "chest"))
        passed = rnd.choice((None, True, False))
        return c.PlayCard(deck, rnd.randint(1, 16), card, rnd.randint(0, 2), passed)
    if kind == 14:
        deck = rnd.choice(("chance", "chest"))
        effect = rnd.randint(1, 8)
        amounts = tuple(
            rnd.randint(1, 200) for _ in range({1: 1, 2: 1, 3: 2, 4: 1, 5: 1}.get(effect, 0))
        )
        return c.GenericCard(deck, effect, card, amounts)
    if kind == 15:
        return c.DeclareBankruptcy(card)
    if kind == 16:  # the Force battle (refused outside Star Wars), a face given or not
        return c.ForceBattle(card, rnd.choice((None, "light", "dark", "shift", "grey")))
    fixed = rnd.choice(((), (1, 1), (2, 3)))
    third = rnd.choice((None, *ed.third_die)) if ed.third_die else None
    return c.RollDice(card if rnd.random() < 0.9 else None, fixed, rnd.random() < 0.1, third)
