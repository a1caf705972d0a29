"""Every ruleset the bank knows, plus the tests' toy ruleset, registered for these tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bank import rulesets
from tests.support import toy


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    """The toy ruleset is registered (test-only hook) for each test, and removed after."""
    toy.install()
    yield
    toy.uninstall()


#: every built-in ruleset (one line each in bank.rulesets.RULESETS) and the toy
ALL_RULESETS = [*rulesets.RULESETS, toy.NAME]
