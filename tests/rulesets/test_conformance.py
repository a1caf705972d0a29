"""The ruleset conformance suite: what every registered ruleset must keep, run against each.

A ruleset plays random games made of the commands every ruleset shares (new game, land,
auction sale, give up a property, undo, and resets) and, when :data:`OWN_COMMANDS` has an
entry for it, its own commands, legal and illegal alike, and must keep:

- **the rules say what happened**: every accepted command comes with an outcome;
- **replay equals live**: a game re-opened from its journal has exactly the live state;
- **undo restores the exact state**: after an accepted undo the state equals, field for field,
  the state before the undo group's first transaction;
- **money is conserved**, audited independently of the code that moved it: every player's
  balance in the live state must be explained by the journal's stored money records alone
  (``player_joined`` credits and ``money`` flows, read from the raw records with this test's
  own arithmetic, not through the event classes). A ruleset whose own events touched a balance,
  or an ``apply`` that credits the wrong player, breaks the audit; so does any refused command
  that changed the state.

A new ruleset needs one edition file (``ruleset = "<name>"``) among the shipped editions or the
tests' toy, and is then run here with no change to this file.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import pytest

from bank import rulesets
from bank.engine.commands import AuctionSale, Command, GiveProperty, Land, NewGame, Undo
from bank.engine.errors import BankError
from bank.engine.events import Event, register_events
from bank.engine.game import Game
from bank.engine.ruleset import Decision, Outcome
from bank.engine.state import GameState
from board_assets import EDITIONS_DIR, Edition, load_edition_file
from tests.support import toy
from tests.support.fakes import MemoryJournal

from .classic_support import random_classic_command
from .conftest import ALL_RULESETS

EDITION_FILES = [*sorted(EDITIONS_DIR.glob("*.toml")), toy.EDITION_FILE]
SEEDS = range(12)
MOVES = 250


def editions_of(name: str) -> list[Path]:
    return [p for p in EDITION_FILES if load_edition_file(p).ruleset == name]


def test_every_registered_ruleset_has_an_edition_to_be_tested_with() -> None:
    toy.install()
    for name in rulesets.names():
        assert editions_of(name), f"ruleset {name!r} has no edition file for the conformance suite"
    assert set(ALL_RULESETS) <= set(rulesets.names())


def audited_balances(records: Iterable[dict[str, Any]]) -> tuple[dict[int, int], int]:
    """Balances, and the bank's net takings, from the raw journal records alone."""
    balances: dict[int, int] = {}
    bank = 0
    for record in records:
        for e in record["events"]:
            if e["kind"] == "player_joined":
                if e["joined"]:
                    balances[e["card"]] = e["balance"]
                    bank -= e["balance"]
                else:
                    bank += balances.pop(e["card"])
            elif e["kind"] == "money":
                for card, delta in ((e["payer"], -e["amount"]), (e["payee"], e["amount"])):
                    if card is None:
                        bank += delta
                    else:
                        balances[card] += delta
    return balances, bank


def ultime_command(rnd: random.Random, game: Game) -> Command:
    """One of the Ultime ruleset's own commands: the M menu, jail, event cards."""
    from bank.rulesets.ultime.commands import GoToJail, LeaveJail, PassGo, PayLocation, PlayEvent

    edition = game.edition
    card = rnd.randint(1, edition.constants.max_players)
    kind = rnd.randrange(5)
    if kind == 0:
        return PassGo(card)
    if kind == 1:
        return GoToJail(card)
    if kind == 2:
        return LeaveJail(card, paid=rnd.random() < 0.5)
    if kind == 3:
        return PayLocation(card)
    event = rnd.choice(edition.events)
    n_props = sum(1 for t in event.taps if t.endswith("prop"))
    props = tuple(rnd.randint(1, len(edition.properties)) for _ in range(n_props))
    cards = tuple(rnd.randint(1, edition.constants.max_players) for _ in event.taps[n_props:])
    return PlayEvent(event.id, props, cards)


#: a ruleset's own commands join the shared ones in the random games (optional, per ruleset)
OWN_COMMANDS: dict[str, Callable[[random.Random, Game], Command]] = {
    "ultime": ultime_command,
    # without the dice: undo skips over a roll, so the state after an undo is not the one
    # before the undone transaction when a roll came between (tests/rulesets/test_classic_*)
    "classic": lambda rnd, game: random_classic_command(rnd, game, rolls=False),
}


def random_command(rnd: random.Random, game: Game) -> Command:
    edition, state = game.edition, game.state
    k = edition.constants
    cards = list(range(1, k.max_players + 1))
    props = len(edition.properties)
    if not state.started or state.game_over or rnd.random() < 0.02:
        size = rnd.randint(max(1, k.min_players - 1), k.max_players)
        return NewGame(tuple(rnd.sample(cards, min(size, len(cards)))))
    debtor = state.debtor()
    roll = rnd.random()
    if debtor is not None and roll < 0.7:
        owned = state.owned_by(debtor.card) or (1,)
        return GiveProperty(debtor.card, rnd.choice(owned))
    if roll < 0.12:
        return Undo()
    own = OWN_COMMANDS.get(game.edition.ruleset)
    if own is not None and roll > 0.6:
        return own(rnd, game)
    if roll < 0.2:
        step = k.auction_step
        return AuctionSale(rnd.choice(cards), rnd.randint(1, props), step * rnd.randint(0, 20))
    return Land(rnd.choice(cards), rnd.randint(1, props + (1 if roll > 0.97 else 0)))


def play_and_check(edition: Edition, seed: int) -> int:
    """Play a random game; returns how many undos were checked."""
    rnd = random.Random(seed)
    journal = MemoryJournal()
    game = Game(edition, journal=journal)
    before: dict[int, GameState] = {}
    undo_to: GameState | None = None
    undos = 0
    for _ in range(MOVES):
        if game.state.game_over and rnd.random() < 0.5:
            game.reset()
            before, undo_to = {}, None
        command = random_command(rnd, game)
        state = game.state
        try:
            tx = game.execute(command)
        except BankError:
            assert game.state == state, f"a refused {command} changed the state"
            continue
        if isinstance(command, Undo):
            assert undo_to is not None and game.state == undo_to, "undo did not restore"
            undos += 1
            undo_to = None
        else:
            assert isinstance(tx.outcome, Outcome), f"{command} was accepted without an outcome"
            before[tx.seq] = state
            undo_to = before[tx.undo_group] if tx.undo_group is not None else None
        balances, bank = audited_balances(journal.records())
        live = {p.card: p.balance for p in game.state.players}
        assert live == balances, f"balances not explained by the money records after {command}"
        start = sum(p.balance for p in game.state.players) + bank
        assert start == 0 or all(p.card in balances for p in game.state.players)
    replayed = Game(edition, game.rules, journal=journal)
    assert replayed.state == game.state, "replaying the journal does not give the live state"
    return undos


@pytest.mark.parametrize("name", ALL_RULESETS)
def test_replay_undo_and_money_hold_for_every_ruleset(name: str) -> None:
    paths = editions_of(name)
    assert paths
    undos = sum(play_and_check(load_edition_file(p), seed) for p in paths for seed in SEEDS)
    assert undos > 0, "no undo was ever accepted: the suite checked nothing about undo"


@dataclass(frozen=True, slots=True)
class Windfall(Event):
    """A faulty ruleset's event: it credits a player without a money record."""

    kind: ClassVar[str] = "test_windfall"
    card: int

    def apply(self, state: GameState) -> GameState:
        p = state.player(self.card)
        assert p is not None
        return state.with_player(replace(p, balance=p.balance + 1))

    def inverse(self) -> Event:
        return self


register_events(Windfall)


def test_the_money_audit_catches_a_ruleset_that_mints_money() -> None:
    """A ruleset whose Land credits the lander through a non-money event breaks the audit."""

    class Minting(toy.ToyRules):
        def decide(self, state: GameState, command: Command) -> Decision:
            decision = super().decide(state, command)
            if isinstance(command, Land):
                return Decision((*decision.events, Windfall(command.card)), decision.outcome)
            return decision

    edition = load_edition_file(toy.EDITION_FILE)
    journal = MemoryJournal()
    game = Game(edition, journal=journal, ruleset=Minting(edition))
    game.start([1, 2])
    game.execute(Land(1, 1))
    balances, _ = audited_balances(journal.records())
    assert balances != {p.card: p.balance for p in game.state.players}
