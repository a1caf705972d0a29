"""A game killed with SIGKILL at random moments resumes a prefix holding every confirmed step."""

from __future__ import annotations

import bisect
import random
from pathlib import Path

import pytest

from tests.support.crash_game import crash_once, expected_states

SEED, N = 7, 3000


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing_confirmed(tmp_path: Path) -> None:
    states = expected_states(SEED, N)
    order = sorted(states)
    rnd = random.Random(1)
    for i in range(5):
        run_dir = tmp_path / f"run{i}"
        result = crash_once(run_dir, SEED, N, rnd.uniform(0.0, 0.4), states)
        assert result.confirmed[1] > 0, "the child was killed before its first commit"
        assert result.resumed >= result.confirmed, "a confirmed transaction was lost"
        # (g, 0) is a new game opened by the reset but killed before its first commit: it
        # stands where the new game's first transaction would, the one step in flight.
        assert result.resumed in states or result.resumed[1] == 0, (
            f"the journal resumed at {result.resumed}, a point the game never reached"
        )
        in_flight = bisect.bisect_left(order, result.resumed) - order.index(result.confirmed)
        assert in_flight <= 1, "more than the one transaction in flight appeared"
        assert result.state_ok, f"state at {result.resumed} differs from the replayed prefix"


@pytest.mark.slow
def test_sigkill_with_snapshots_resumes_from_them_and_loses_nothing(tmp_path: Path) -> None:
    """A snapshot every 5 transactions: each kill falls between a snapshot and its tail, or
    inside a snapshot's own commit; the resume still holds every confirmed transaction and
    exactly the state the game had there."""
    states = expected_states(SEED, N)
    rnd = random.Random(3)
    for i in range(4):
        result = crash_once(tmp_path / f"run{i}", SEED, N, rnd.uniform(0.05, 0.4), states, 5)
        assert result.confirmed[1] > 0
        assert result.resumed >= result.confirmed, "a confirmed transaction was lost"
        assert result.state_ok, f"state at {result.resumed} differs from the replayed prefix"
