"""Headless Debian Chromium through Debian's chromedriver, for the browser tests and the bench.

No browser is ever downloaded: the driver's path is given to Selenium explicitly (so
Selenium Manager is skipped) and ``SE_OFFLINE`` forbids it anyway. Every browser gets a
fresh profile folder, no background networking, no sync, no component updates, and keeps
its console messages (``goog:loggingPrefs``) so a test can assert there were no errors.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

CHROMIUM_FLAGS = (
    "--headless=new",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-features=Translate,OptimizationHints,MediaRouter",
    "--window-size=1500,1000",
)
# How long a test waits for the page; a check that a test fails without its fix may shorten it.
WAIT_SECONDS = float(os.environ.get("OIC_AI_BROWSER_WAIT", "90"))


def chromium_options(chromium: Path, profile: Path) -> Any:
    """Chrome options for Debian's ``chromium`` with a fresh ``--user-data-dir``."""
    from selenium import webdriver

    options = webdriver.ChromeOptions()
    options.binary_location = str(chromium)
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to run as root with one
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return options


@contextmanager
def chrome(chromium: Path, chromedriver: Path, profile: Path, log: Path) -> Iterator[Any]:
    """A headless Chromium driven through ``chromedriver``; quit (driver and browser) after."""
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never fetch a browser or driver
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile.mkdir(parents=True, exist_ok=True)
    service = Service(executable_path=str(chromedriver), log_output=str(log))
    driver = webdriver.Chrome(options=chromium_options(chromium, profile), service=service)
    try:
        yield driver
    finally:
        driver.quit()


def wait_until(
    driver: Any, condition: Callable[[Any], Any], what: str, limit: float = WAIT_SECONDS
) -> Any:
    """Poll ``condition(driver)`` until it is truthy; fail naming ``what`` after ``limit``."""
    from selenium.common.exceptions import StaleElementReferenceException

    deadline = time.monotonic() + limit
    while True:
        try:
            value = condition(driver)
        except StaleElementReferenceException:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.05)


def console_errors(driver: Any, allowed: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The browser's SEVERE console entries since the last call, minus ``allowed`` texts."""
    entries = driver.get_log("browser")
    return [
        e
        for e in entries
        if e.get("level") == "SEVERE" and not any(text in e.get("message", "") for text in allowed)
    ]
