"""A game killed with SIGKILL at random moments resumes a prefix holding every confirmed step."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.support.crash_game import crash_once, expected_states

SEED, N = 7, 3000


@pytest.mark.slow
def test_sigkill_at_random_moments_loses_nothing_confirmed(tmp_path: Path) -> None:
    states = expected_states(SEED, N)
    rnd = random.Random(1)
    for i in range(5):
        run_dir = tmp_path / f"run{i}"
        result = crash_once(run_dir, SEED, N, rnd.uniform(0.0, 0.4), states)
        assert result.confirmed[1] > 0, "the child was killed before its first commit"
        assert result.resumed >= result.confirmed, "a confirmed transaction was lost"
        order = sorted(states)
        assert order.index(result.resumed) - order.index(result.confirmed) <= 1 or (
            result.resumed[1] == 0
        ), "more than the one transaction in flight appeared"
        assert result.state_ok, f"state at {result.resumed} differs from the replayed prefix"
