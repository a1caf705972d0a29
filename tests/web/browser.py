"""A headless Chromium driven by selenium through Debian's chromedriver, for the web view tests.

``open_browser`` skips the test when Chromium, chromedriver or selenium is missing, except
under ``CI`` where a missing browser is a failure: the browser tests must run there.

One Chromium serves the tests of a test process in turn (started by the first, quit when the
run ends: tests/web/conftest.py), as starting one costs about a second of CPU. Each test gets
it on a blank page, its cookies and console log cleared, its viewport set to the size asked;
when the test ends the page is left for a blank one, which closes its event stream.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.support.chromium import PHONE, BrowserMissing, chromium

#: the window the shared browser opens with: as large as any viewport a test asks for
WINDOW = (1400, 1100)

#: (the context manager that quits it, the driver) of the process's browser, once started
_shared: list[tuple[contextlib.AbstractContextManager[Any], Any]] = []


def _missing(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI is set, so the browser tests must run, but {why}")
    pytest.skip(why)


def _alive(driver: Any) -> bool:
    try:
        driver.current_url  # noqa: B018 - a round trip to the browser
    except Exception:
        return False
    return True


def _browser() -> Any:
    """The process's Chromium, started (again, if it died) when needed."""
    if _shared and not _alive(_shared[0][1]):
        close_browser()
    if not _shared:
        try:
            browser = chromium(*WINDOW)
            driver = browser.__enter__()
        except BrowserMissing as err:
            _missing(str(err))
            raise AssertionError("unreachable") from None
        _shared.append((browser, driver))
    return _shared[0][1]


def close_browser() -> None:
    """Quit the process's Chromium, if one was started."""
    while _shared:
        browser, _ = _shared.pop()
        with contextlib.suppress(Exception):
            browser.__exit__(None, None, None)


@contextmanager
def open_browser(width: int = PHONE[0], height: int = PHONE[1]) -> Iterator[Any]:
    """Chromium on a blank page with a *width* x *height* viewport (a phone's by default)."""
    driver = _browser()
    driver.get("about:blank")
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    with contextlib.suppress(Exception):  # not every driver keeps the console
        driver.get_log("browser")  # what earlier pages logged is not this test's
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
    )
    try:
        yield driver
    finally:
        with contextlib.suppress(Exception):
            driver.get("about:blank")
