"""The archive as ``kifu archive serve`` shows it, in a real headless Chromium at 1280×800
(issue 39): a record row shows its board above the fold and links to its viewer; the
viewer (served from the same database) opens at the last ply and replays back to it; no
console error, no request leaving 127.0.0.1. Skips without Datasette or the browser."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kifu.html import browser

pytest.importorskip("datasette", reason="datasette (the serve extra) is not installed")
pytestmark = pytest.mark.skipif(browser.find() is None, reason=browser.INSTALL_HINT)

from kifu.archive.screenshots import SIZE, analysed_id, served  # noqa: E402

WIDTH, HEIGHT = SIZE


@pytest.fixture(scope="module")
def server():
    with served() as (base, name):
        yield base, name


@pytest.fixture(scope="module")
def driver():
    d = browser.start(WIDTH, HEIGHT)
    browser.set_viewport(d, WIDTH, HEIGHT, mobile=False)
    yield d
    d.quit()


def clean_since(driver, base: str) -> list[str]:
    """No console message at warning level or above and no request but to ``base`` (or
    inline data) since the logs were last read; returns the URLs requested."""
    errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert not errors, errors
    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    outside = [u for u in urls if not (u.startswith(base + "/") or u.startswith("data:"))]
    assert not outside, outside
    return urls


def open_url(driver, url: str) -> None:
    driver.get_log("browser")
    driver.get_log("performance")
    driver.get(url)


def test_records_table_shows_boards_above_the_fold(driver, server, tmp_path) -> None:
    base, name = server
    open_url(driver, f"{base}/{name}/records")
    boards = driver.find_elements("css selector", "td.col-text a.kifu-board svg")
    assert len(boards) >= 2
    top = driver.execute_script("return arguments[0].getBoundingClientRect().top", boards[0])
    assert 0 < top < HEIGHT - 150, top  # the first record's board is on screen
    first_row = driver.find_element("css selector", "table.rows-and-columns tbody tr")
    assert driver.execute_script("return arguments[0].getBoundingClientRect().top",
                                 first_row) < HEIGHT / 2 + 150
    glossary = driver.find_element("css selector", "details.kifu-glossary")
    assert glossary.get_attribute("open") is None  # folded
    default = driver.find_elements("css selector", "section.content > dl.column-descriptions")
    assert all(not d.is_displayed() for d in default)
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= WIDTH + 40, width  # no page twice the screen's width
    urls = clean_since(driver, base)
    assert any(u.startswith(f"{base}/{name}/records") for u in urls)
    driver.save_screenshot(str(tmp_path / "records.png"))


def test_the_board_links_to_a_viewer_that_replays_to_the_last_ply(driver, server) -> None:
    base, name = server
    open_url(driver, f"{base}/{name}/records")
    link = driver.find_element("css selector", "td.col-text a.kifu-board")
    href = link.get_attribute("href")
    assert href.startswith(f"{base}/-/kifu/{name}/records/")
    rid = int(href.rsplit("/", 1)[1])
    link.click()
    driver.find_element("css selector", "#board svg")
    assert driver.current_url == href
    total = int(driver.find_element("id", "slider").get_attribute("max"))
    assert total > 0

    def ply() -> int:
        return int(driver.find_element("tag name", "body").get_attribute("data-ply"))

    assert ply() == total  # opens at the final position
    end = driver.find_element("id", "position").get_attribute("textContent")
    driver.find_element("id", "first").click()
    assert ply() == 0
    for _ in range(total):
        driver.find_element("id", "next").click()
    assert ply() == total  # replayed move by move to the last ply
    assert driver.find_element("id", "position").get_attribute("textContent") == end
    assert f"record #{rid}" in driver.find_element("css selector", "p.sub").text
    clean_since(driver, base)


def test_viewer_of_an_analysed_record_and_the_player_pages(driver, server) -> None:
    base, name = server
    rid = analysed_id(base, name)
    open_url(driver, f"{base}/-/kifu/{name}/records/{rid}")
    driver.find_element("css selector", "#value-chart svg")
    marks = driver.find_elements("css selector", "#moves .mark")
    assert marks  # the analysis's marks
    open_url(driver, f"{base}/{name}/players")
    link = driver.find_element("css selector", "td.col-name a")
    player = link.text
    link.click()
    cells = driver.find_elements("css selector", "td.col-results")
    assert {"all games"} <= {c.text for c in cells}
    assert any(c.text.startswith("turn ") for c in cells)
    assert any(c.text.startswith("seat p") for c in cells)
    assert driver.find_element("css selector", "td.col-player").text == player
    clean_since(driver, base)


def test_screenshots_are_written(tmp_path) -> None:
    """``python -m kifu.archive.screenshots`` writes every picture, none blank."""
    from PIL import Image

    from kifu.archive.screenshots import shoot

    shots = shoot(Path(tmp_path))
    assert [p.name for p in shots] == [f"datasette-{k}.png" for k in
                                       ("records", "row", "viewer", "players", "player")]
    for p in shots:
        img = Image.open(p)
        assert img.size == (WIDTH, HEIGHT)
        assert len(img.convert("L").getcolors(1 << 16) or []) > 20, p  # not blank
