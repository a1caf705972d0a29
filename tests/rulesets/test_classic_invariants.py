"""Random classic commands over 8 players never break an invariant (hypothesis), in classic-fr
and in both Méga editions.

Legal and illegal commands alike (the random driver of ``classic_support``, dice included);
after each one: no negative stock of any building kind and the buildings on the board plus
the bank's stock make 32 houses and 12 hotels (Méga: 8 skyscrapers, 4 depots); building is
even among the lots an owner holds in each group (Méga: the lowest lot aside, which may be
the last lot bought after the others were built on); a deed has one owner, a player still in the
game; a mortgaged deed carries no building and a mortgaged station no depot; a lot with
buildings belongs to an owner of its whole group (Méga: of all its lots but one, and of all of
them under a skyscraper); no negative balance, and a debtor has no cash. A refused command
changes nothing; at the end the journal replays to the live state, and an accepted undo
brings back the state before the undone transaction when no roll came between.
"""

from __future__ import annotations

import contextlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bank.engine.commands import Land, Undo
from bank.engine.errors import BankError
from bank.engine.game import Game
from bank.rulesets.classic.commands import ReceiveBank
from bank.rulesets.classic.mega import SKYSCRAPER
from bank.rulesets.classic.rules import HOTEL
from bank.rulesets.classic.state import classic
from board_assets import load_edition
from tests.support.fakes import MemoryJournal

from .classic_support import random_classic_command, replayed, rules


def check_invariants(game: Game) -> None:
    state = game.state
    x = classic(state)
    r = rules(game)
    cfg = r.settings(state)
    assert min(x.houses, x.hotels, x.skyscrapers, x.depot_stock, x.pot) >= 0
    levels = {p.number: p.level or 0 for p in state.properties}
    on_board = sum(v for v in levels.values() if v < HOTEL)
    hotels = sum(1 for v in levels.values() if v == HOTEL)
    towers = sum(1 for v in levels.values() if v == SKYSCRAPER)
    assert (x.houses + on_board, x.hotels + hotels) == (32, 12)
    assert (x.skyscrapers + towers, x.depot_stock + len(x.depots)) == (
        r.ed.skyscrapers,
        r.ed.depots,
    )
    for station in x.depots:  # a depot stands on an owned station and blocks its mortgage
        assert r.ed.deed(station).kind == "station" and state.prop(station).owner is not None
        assert station not in x.mortgaged
    active = {p.card for p in state.players if not p.bankrupt}
    for prop in state.properties:
        deed = r.ed.deed(prop.number)
        if prop.owner is None:
            assert prop.level is None and prop.number not in x.mortgaged
            continue
        assert prop.owner in active or state.game_over
        if prop.number in x.mortgaged:
            assert not prop.level, f"mortgaged deed {prop.number} carries a building"
        if prop.level:
            group = r.ed.group(deed.group)
            mine = [n for n in group if state.prop(n).owner == prop.owner]
            assert deed.kind == "street"
            spare = 1 if r.ed.mega and prop.level != SKYSCRAPER else 0
            assert len(mine) >= len(group) - spare, f"building without the group: {deed.group}"
            assert not any(n in x.mortgaged for n in mine)
            steps = sorted(r.steps(state.prop(n).level, cfg) for n in mine)
            if r.ed.mega:  # the last lot, bought after the others were built on, starts bare
                steps = steps[1:]
            assert max(steps) - min(steps) <= 1, f"uneven building in {deed.group}: {steps}"
    for p in state.players:
        assert p.balance >= 0 and p.debt >= 0
        if p.debt:
            assert p.balance == 0 and p.card in x.debts
    assert set(x.debts) == {p.card for p in state.players if p.debt}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.randoms(use_true_random=False),
    st.integers(2, 8),
    st.sampled_from(["classic-fr", "mega-fr", "mega-uk"]),
)
def test_random_commands_keep_the_invariants(
    rnd: random.Random, players: int, edition: str
) -> None:
    game = Game(load_edition(edition), journal=MemoryJournal())
    game.start(range(1, players + 1))
    ed = rules(game).ed
    if ed.mega:  # money enough to reach the skyscrapers
        for card in range(1, players + 1):
            game.execute(ReceiveBank(card, 10_000))
    for group in sorted({d.group for d in ed.deeds}):  # whole groups, so that buildings happen
        buyer = rnd.randint(1, players)
        for number in ed.group(group):
            if rnd.random() < 0.85:
                with contextlib.suppress(BankError):
                    game.execute(Land(buyer, number))
    last_state = game.state
    undo_to = None
    for _ in range(150):
        command = random_classic_command(rnd, game) if rnd.random() > 0.05 else Undo()
        state = game.state
        try:
            tx = game.execute(command)
        except BankError:
            assert game.state == state, f"a refused {command} changed the state"
            continue
        if isinstance(command, Undo):
            if undo_to is not None:
                assert game.state == undo_to
            undo_to = None
        elif command.transparent or tx.undo_group is None:
            undo_to = None  # a roll stays: the state before it is not the state after an undo
        elif tx.undo_group == tx.seq:
            undo_to = state
        last_state = game.state
        check_invariants(game)
        if game.state.game_over:
            break
    assert replayed(game).state == game.state == last_state
