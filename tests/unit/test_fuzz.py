"""Random taps, presses, holds, waits and power cycles never crash the unit nor break the game.

``ULTIBANK_FUZZ_EXAMPLES=5000`` runs a longer search than the default 150 examples.
"""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bank.engine.config import UnitConfig
from bank.engine.game import Game
from bank.rulesets.ultime.config import RulesConfig
from bank.unit.io import PanelStatus, ReaderStatus, ShowScreen
from bank.unit.text import LCD_LINES, LCD_WIDTH
from board_assets import load_edition
from tests.support.fakes import MemoryJournal

from .harness import Harness

EDITIONS = {name: load_edition(name) for name in ("ultime-fr", "ultimate-uk")}


banks = st.integers(1, 4).map(lambda n: f"bank:{n}")
props = st.integers(1, 22).map(lambda n: f"prop:{n}")
cards = st.one_of(banks, props, st.integers(1, 23).map(lambda n: f"event:{n}"), st.none())
buttons = st.sampled_from(["ok", "menu", "cancel"])
# single inputs, and whole gestures (so random games get deep: debts, auctions, game over)
actions = st.one_of(
    st.tuples(st.just("tap"), cards),
    st.tuples(st.just("press"), buttons),
    st.tuples(st.just("down"), buttons),
    st.tuples(st.just("up"), buttons),
    st.tuples(
        st.just("hold"),
        st.sampled_from([("cancel",), ("ok", "cancel"), ("ok", "cancel")]),
        st.sampled_from([1.0, 5.0]),
    ),
    st.tuples(st.just("wait"), st.sampled_from([0.5, 1.0, 3.0, 10.0, 12.5])),
    st.tuples(st.just("device"), st.sampled_from(["reader", "panel"]), st.booleans()),
    st.tuples(st.just("power"), st.booleans()),
    st.tuples(st.just("seq"), st.tuples(props, banks)),
    st.tuples(st.just("seq"), st.tuples(props, banks)),
    st.tuples(st.just("seq"), st.tuples(props, banks)),
    st.tuples(st.just("seq"), st.tuples(props, banks)),
    st.tuples(st.just("seq"), st.tuples(props)),
    st.tuples(
        st.just("seq"),
        st.tuples(st.integers(1, 23).map(lambda n: f"event:{n}"), cards, cards),
    ),
    st.tuples(
        st.just("seq"),
        st.tuples(
            st.just("press:menu"),
            st.sampled_from(["bank:1", "bank:2", "press:menu"]),
            banks,
            st.sampled_from(["press:ok", "press:cancel", "prop:7"]),
            banks,
        ),
    ),
    st.tuples(
        st.just("seq"),
        st.tuples(
            props,
            st.just("press:menu"),
            st.just("press:ok"),
            st.sampled_from(["press:ok", "bank:1", "bank:2", "bank:3"]),
            st.sampled_from(["press:ok", "bank:2", "bank:4", "press:cancel"]),
            st.sampled_from(["wait:10", "wait:4"]),
            banks,
        ),
    ),
)


def run_seq(h: Harness, steps: tuple[str | None, ...]) -> None:
    for step in steps:
        if step is not None and step.startswith("press:"):
            h.press(step[6:])
        elif step is not None and step.startswith("wait:"):
            h.wait(float(step[5:]))
        else:
            h.tap(step)


def check_invariants(h: Harness, journal: MemoryJournal) -> None:
    s = h.game.state
    cards_in_game = {p.card for p in s.players}
    for p in s.properties:
        if p.owner is None:
            assert p.level is None
        else:
            assert p.owner in cards_in_game
            assert p.level is not None and 1 <= p.level <= 5
    for p in s.players:
        assert p.balance >= 0 and p.debt >= 0
    assert sum(1 for p in s.players if p.debt) <= 1
    if s.game_over:
        assert s.winner in cards_in_game
    replayed = Game(h.game.edition, h.game.rules, journal=journal).state
    assert replayed == s, "replaying the journal must give the live state"
    due = h.unit.next_deadline()
    assert due is None or due > h.now
    for o in h.outputs:
        if isinstance(o, ShowScreen):
            assert len(o.screen.lines) <= LCD_LINES, o.screen
            assert all(len(line) <= LCD_WIDTH for line in o.screen.lines), o.screen


@settings(
    max_examples=int(os.environ.get("ULTIBANK_FUZZ_EXAMPLES", "150")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.sampled_from([(), (1, 2), (1, 2, 3), (2, 3, 4), (1, 2, 3, 4)]),
    script=st.lists(actions, min_size=40, max_size=150),
    auction_seconds=st.sampled_from([10.0, 2.5]),
    rich=st.booleans(),
    edition=st.sampled_from(sorted(EDITIONS)),
)
def test_random_inputs_never_crash_nor_break_the_game(
    players: tuple[int, ...],
    script: list[tuple[Any, ...]],
    auction_seconds: float,
    rich: bool,
    edition: str,
) -> None:
    journal = MemoryJournal()
    rules = RulesConfig(auction_seconds=auction_seconds)
    game = Game(EDITIONS[edition], rules, journal=journal)
    h = Harness(game=game, config=UnitConfig(idle_seconds=10.0, hold_seconds=5.0))
    if players:
        h.start(*players)
        if rich:
            # the first player owns dark blue at high levels: landings there cause debts
            first = f"bank:{players[0]}"
            run_seq(
                h, ("prop:21", first, "prop:22", first) + ("prop:22", first, "prop:21", first) * 2
            )
    for action in script:
        verb = action[0]
        if verb == "tap":
            h.tap(action[1])
        elif verb == "press":
            h.press(action[1])
        elif verb == "down":
            h.down(action[1])
        elif verb == "up":
            h.up(action[1])
        elif verb == "hold":
            h.hold(*action[1], seconds=action[2])
        elif verb == "wait":
            h.wait(action[1])
        elif verb == "seq":
            run_seq(h, action[1])
        elif verb == "device":
            kind = ReaderStatus if action[1] == "reader" else PanelStatus
            h.feed(kind(h.now, action[2]))
        elif action[1]:
            h.outputs += h.unit.power_on(h.now)
        else:
            h.outputs += h.unit.power_off(h.now)
        check_invariants(h, journal)
        h.outputs.clear()
