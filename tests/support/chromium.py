"""A headless Chromium driven by selenium through Debian's chromedriver (tests and bench).

Never downloads a browser or a driver: it uses Debian's ``chromium`` and ``chromium-driver``
and raises :class:`BrowserMissing` naming what to install when one is missing.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
#: a closed network: no background requests, no first-run, no sandbox (root in CI)
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


class BrowserMissing(RuntimeError):
    """No Chromium, chromedriver or selenium on this machine."""


@contextmanager
def chromium(width: int = PHONE[0], height: int = PHONE[1]) -> Iterator[Any]:
    """A fresh headless Chromium with its own profile and an exact viewport."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as err:
        raise BrowserMissing(f"selenium is not installed ({err}); pip install selenium") from err
    binary = next((c for c in CHROMIUM_CANDIDATES if os.path.exists(c)), None)
    if binary is None:
        raise BrowserMissing("Chromium is not installed (apt-get install chromium chromium-driver)")
    if not os.path.exists(CHROMEDRIVER):
        raise BrowserMissing(f"{CHROMEDRIVER} is missing (apt-get install chromium-driver)")
    profile = tempfile.mkdtemp(prefix="ultibank-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={width},{height}")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        # headless windows have no browser chrome; make the viewport exact
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
        )
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
