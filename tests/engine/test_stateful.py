"""Random legal and illegal commands never break the bank's invariants (hypothesis)."""

from __future__ import annotations

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from bank.engine.commands import AuctionSale, Command, GiveProperty, Land, Undo
from bank.engine.errors import RuleError
from bank.engine.events import MoneyMoved
from bank.engine.game import Game
from bank.rulesets.ultime.commands import GoToJail, LeaveJail, PassGo, PayLocation, PlayEvent
from board_assets import load_edition
from tests.support.fakes import MemoryJournal

EDITION = load_edition("ultime-fr")
cards = st.integers(1, 4)
props = st.integers(1, 22)


class BankMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.journal = MemoryJournal()
        self.game = Game(EDITION, journal=self.journal)
        self.game.start([1, 2, 3])
        self.before_last = self.game.state

    def run(self, command: Command) -> None:
        state = self.game.state
        total = sum(p.balance for p in state.players)
        try:
            tx = self.game.execute(command)
        except RuleError:
            assert self.game.state is state, "a refused command changed the state"
            return
        bank_flow = sum(
            (e.amount if e.payer is None else 0) - (e.amount if e.payee is None else 0)
            for e in tx.events
            if isinstance(e, MoneyMoved)
        )
        assert sum(p.balance for p in self.game.state.players) == total + bank_flow
        if isinstance(command, Undo):
            assert self.undo_target is not None
            assert self.game.state == self.undo_target, "undo did not restore the state"
        elif not isinstance(command, GiveProperty):
            self.undo_target = state
        self.undo_target_valid = True

    undo_target = None
    undo_target_valid = False

    @rule(card=cards, number=props)
    def land(self, card: int, number: int) -> None:
        self.run(Land(card, number))

    @rule(card=cards)
    def go(self, card: int) -> None:
        self.run(PassGo(card))

    @rule(card=cards)
    def jail(self, card: int) -> None:
        self.run(GoToJail(card))

    @rule(card=cards, paid=st.booleans())
    def leave(self, card: int, paid: bool) -> None:
        self.run(LeaveJail(card, paid))

    @rule(card=cards)
    def location(self, card: int) -> None:
        self.run(PayLocation(card))

    @rule(card=cards, number=props, steps=st.integers(0, 80))
    def auction(self, card: int, number: int, steps: int) -> None:
        self.run(AuctionSale(card, number, steps * 20))

    @rule(number=props)
    def give(self, number: int) -> None:
        debtor = self.game.state.debtor()
        self.run(GiveProperty(debtor.card if debtor else 1, number))

    @rule(
        eid=st.integers(1, 23),
        ps=st.lists(props, max_size=2).map(tuple),
        cs=st.lists(cards, max_size=2).map(tuple),
    )
    def event(self, eid: int, ps: tuple[int, ...], cs: tuple[int, ...]) -> None:
        self.run(PlayEvent(eid, ps, cs))

    @precondition(lambda self: self.game.undo_available)
    @rule()
    def undo(self) -> None:
        self.run(Undo())

    @rule()
    def undo_anyway(self) -> None:
        self.run(Undo())

    @invariant()
    def levels_and_owners(self) -> None:
        s = self.game.state
        cards_in_game = {p.card for p in s.players}
        for p in s.properties:
            if p.owner is None:
                assert p.level is None
            else:
                assert p.owner in cards_in_game and p.level is not None and 1 <= p.level <= 5
        assert sum(1 for p in s.players if p.debt > 0) <= 1
        assert all(p.balance >= 0 for p in s.players)
        assert all(p.debt == 0 or p.balance == 0 for p in s.players)

    @invariant()
    def replay_equals_live(self) -> None:
        assert Game(EDITION, journal=self.journal).state == self.game.state


TestBank = BankMachine.TestCase
TestBank.settings = settings(
    max_examples=60, stateful_step_count=60, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)  # fmt: skip
