"""What the headless-browser tests share."""

from __future__ import annotations

import json
from pathlib import Path


def check_clean(driver, page: Path) -> list[str]:
    """No console message at error level, no request but the page itself (and no resource
    loaded); returns the URLs requested."""
    errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert not errors, errors
    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    assert all(u.split("#")[0] == page.resolve().as_uri() for u in urls), urls
    assert driver.execute_script(
        "return performance.getEntriesByType('resource').length") == 0
    return urls
