"""A headless Chromium driven by selenium, for the page tests and the screenshots.

Only the system browser is used (Debian's ``chromium`` and ``chromium-driver``), with the
driver's path set explicitly so that selenium never downloads anything.
"""

from __future__ import annotations

import os
import shutil
from typing import Any

INSTALL_HINT = ("chromium/chromedriver not installed: apt-get install chromium "
                "chromium-driver (and pip install selenium)")

_BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def find() -> tuple[str, str] | None:
    """(browser, chromedriver) paths, or None when either (or selenium) is missing."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return None
    browser = os.environ.get("KIFU_CHROMIUM") or next(
        (p for p in map(shutil.which, _BROWSERS) if p), None)
    driver = os.environ.get("KIFU_CHROMEDRIVER") or shutil.which("chromedriver")
    if not browser or not driver:
        return None
    if not (os.access(browser, os.X_OK) and os.access(driver, os.X_OK)):
        return None
    return browser, driver


def start(width: int = 1280, height: int = 900) -> Any:
    """A headless Chromium (a selenium WebDriver) that records the console and the network
    (``get_log("browser")``, ``get_log("performance")``). Raises RuntimeError if there is
    none; the caller must ``quit()`` it."""
    found = find()
    if found is None:
        raise RuntimeError(INSTALL_HINT)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver = found
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", "--force-device-scale-factor=1",
                "--disable-extensions", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync",
                f"--window-size={width},{height}"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    chrome = webdriver.Chrome(service=Service(executable_path=driver), options=opts)
    if width < 500:  # a window is at least 500 pixels wide: emulate a phone's viewport
        set_viewport(chrome, width, height)
    return chrome


def set_viewport(driver: Any, width: int, height: int, *, mobile: bool = True) -> None:
    """Make the page's viewport ``width`` × ``height`` CSS pixels (a phone when
    ``mobile``), whatever the window size; ``width=0`` restores the window's own."""
    if width == 0:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        return
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
