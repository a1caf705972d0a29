"""A headless Chromium driven by selenium through Debian's chromedriver, for the web view tests.

``open_browser`` skips the test when Chromium, chromedriver or selenium is missing, except
under ``CI`` where a missing browser is a failure: the browser tests must run there.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.support.chromium import PHONE, BrowserMissing, chromium


def _missing(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI is set, so the browser tests must run, but {why}")
    pytest.skip(why)


@contextmanager
def open_browser(width: int = PHONE[0], height: int = PHONE[1]) -> Iterator[Any]:
    """A fresh headless Chromium, sized like a phone by default; skip (fail in CI) without one."""
    try:
        browser = chromium(width, height)
        driver = browser.__enter__()
    except BrowserMissing as err:
        _missing(str(err))
        raise AssertionError("unreachable") from None
    try:
        yield driver
    finally:
        browser.__exit__(None, None, None)
