"""A headless Chromium driven by selenium through Debian's chromedriver, for the web view tests.

``open_browser`` skips the test when Chromium, chromedriver or selenium is missing, except
under ``CI`` where a missing browser is a failure: the browser tests must run there.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-extensions",
    "--disable-default-apps",
    "--hide-scrollbars",
)
PHONE = (390, 844)


def _missing(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI is set, so the browser tests must run, but {why}")
    pytest.skip(why)


@contextmanager
def open_browser(width: int = PHONE[0], height: int = PHONE[1]) -> Iterator[Any]:
    """A fresh headless Chromium with its own profile, sized like a phone by default."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _missing("selenium is not installed (pip install selenium)")
        raise AssertionError("unreachable") from None
    binary = next((c for c in CHROMIUM_CANDIDATES if os.path.exists(c)), None)
    if binary is None:
        _missing("Chromium is not installed (apt-get install chromium chromium-driver)")
    if not os.path.exists(CHROMEDRIVER):
        _missing(f"{CHROMEDRIVER} is missing (apt-get install chromium-driver)")
    profile = tempfile.mkdtemp(prefix="ultibank-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = str(binary)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        # the window size includes no browser chrome in headless mode; make the viewport exact
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
        )
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
