"""``kifu html`` pages in a real headless Chromium (one browser for the whole module).

For each registered game: step through the page with the buttons, the arrow keys, the
slider and a click on a move, and compare the position text the page shows with
``kifu replay --ply N -f position``; check the page made no network request and logged no
console error. Skips when the browser is not installed (see ``docs/html.md``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu import games
from kifu.cli.main import cli
from kifu.html import browser

pytestmark = pytest.mark.skipif(browser.find() is None, reason=browser.INSTALL_HINT)

from browser_helpers import check_clean  # noqa: E402
from test_html import puzzle_file, record_file  # noqa: E402


@pytest.fixture(scope="module")
def driver():
    d = browser.start(1100, 900)
    yield d
    d.quit()


def replay_line(path: Path, ply: int, seat: int | None = None) -> str:
    args = ["replay", str(path), "--ply", str(ply), "-f", "position"]
    if seat is not None:
        args += ["--seat", str(seat)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result.output.strip()


def export(path: Path, *extra: str) -> Path:
    out = path.with_suffix(".html" if not extra else f".p{extra[-1]}.html")
    result = CliRunner().invoke(cli, ["html", str(path), "-o", str(out), *extra])
    assert result.exit_code == 0, result.output
    return out


def shown(driver) -> tuple[int, str]:
    """The ply the page is at and the position text it shows."""
    ply = int(driver.find_element("tag name", "body").get_attribute("data-ply"))
    return ply, driver.find_element("id", "position").get_attribute("textContent")


def open_page(driver, page: Path) -> None:
    driver.get_log("browser")
    driver.get_log("performance")
    driver.get(page.resolve().as_uri())
    driver.find_element("css selector", "#board svg")


@pytest.mark.parametrize("gid", games.ids())
def test_steps_match_replay(driver, gid: str, tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    path, total = record_file(gid, tmp_path)
    page = export(path)
    open_page(driver, page)

    def at(expected: int) -> None:
        ply, text = shown(driver)
        assert ply == expected
        assert text == replay_line(path, expected), f"ply {expected}"

    at(total)  # a page opens at the final position
    driver.find_element("id", "first").click()
    at(0)
    body = driver.find_element("tag name", "body")
    for _ in range(3):
        body.send_keys(Keys.ARROW_RIGHT)
    at(3)
    driver.find_element("id", "next").click()
    at(4)
    driver.find_element("id", "prev").click()
    driver.find_element("id", "prev").click()
    at(2)
    driver.find_element("id", "last").click()
    at(total)
    assert driver.find_element("id", "next").get_attribute("disabled") is not None
    mid = total // 2
    move = driver.find_element("css selector", f'#moves button[data-ply="{mid}"]')
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", move)
    move.click()
    at(mid)
    assert move.get_attribute("aria-current") == "step"
    slider = driver.find_element("id", "slider")
    slider.send_keys(Keys.HOME)
    at(0)
    slider.send_keys(Keys.ARROW_RIGHT)
    at(1)
    body.send_keys(Keys.END)
    at(total)
    driver.find_element("id", "first").click()
    at(0)
    labels = driver.find_elements("css selector", "#board svg [role=img] > title")
    assert labels, "the picture has no text alternatives"
    check_clean(driver, page)


@pytest.mark.parametrize("gid", games.ids())
def test_player_view_matches_replay_seat(driver, gid: str, tmp_path: Path) -> None:
    path, total = record_file(gid, tmp_path)
    page = export(path, "--player", "1")
    for ply in (0, total // 2, total):
        open_page(driver, page)
        driver.execute_script(f"location.hash = 'ply={ply}'")
        assert shown(driver) == (ply, replay_line(path, ply, seat=1))
    check_clean(driver, page)


def test_phone_width_has_no_sideways_scroll(driver, tmp_path: Path) -> None:
    path, _ = record_file("graph-t", tmp_path)
    page = export(path)
    browser.set_viewport(driver, 390, 800)
    try:
        open_page(driver, page)
        width = driver.execute_script("return document.documentElement.scrollWidth")
        inner = driver.execute_script("return window.innerWidth")
        assert width <= inner, (width, inner)
        board = driver.find_element("css selector", "#board svg").size["width"]
        assert 300 <= board <= inner
    finally:
        browser.set_viewport(driver, 0, 0)


def test_puzzle_sheet_reveals_answers(driver, tmp_path: Path) -> None:
    path, puzzles = puzzle_file(tmp_path)
    page = export(path)
    driver.get_log("browser")
    driver.get_log("performance")
    driver.get(page.resolve().as_uri())
    assert driver.find_element("tag name", "body").get_attribute("data-ready") == "1"
    answer = driver.find_element("id", "pz1-a")
    assert not answer.is_displayed()
    button = driver.find_element("css selector", 'button[data-reveal="pz1-a"]')
    button.click()
    assert answer.is_displayed() and f"Answer: {puzzles[0].answer}" in answer.text
    assert button.get_attribute("aria-expanded") == "true"
    assert not driver.find_element("id", "pz2-a").is_displayed()
    check_clean(driver, page)


def test_a_puzzle_is_solved_by_clicking(driver, tmp_path: Path) -> None:
    """A wrong first action says so and leaves the answer hidden; the right one says so,
    then shows the rest of the line and the values of every first action."""
    path, puzzles = puzzle_file(tmp_path)
    page = export(path)
    open_page_plain(driver, page)
    data = json.loads(driver.find_element("id", "kifu-data").get_attribute("textContent"))
    for k, p in enumerate(puzzles, 1):
        item = data["puzzles"][str(k)]
        values = item["values"]
        wrong = [i for i, (_, v) in enumerate(values) if v != item["answer"]]
        right = [i for i, (_, v) in enumerate(values) if v == item["answer"]]
        art = driver.find_element("id", f"pz{k}")
        feedback = driver.find_element("id", f"pz{k}-fb")
        box = driver.find_element("id", f"pz{k}-a")
        assert not feedback.is_displayed() and not box.is_displayed()
        if wrong:
            b = art.find_element("css selector", f'button[data-act="{wrong[0]}"]')
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", b)
            b.click()
            assert art.get_attribute("data-result") == "wrong"
            assert "Not this one" in feedback.text and values[wrong[0]][1] in feedback.text
            assert "wrong" in b.get_attribute("class") and not box.is_displayed()
        b = art.find_element("css selector", f'button[data-act="{right[0]}"]')
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", b)
        b.click()
        assert art.get_attribute("data-result") == "right"
        assert feedback.text.startswith("Right: ") and "right" in b.get_attribute("class")
        assert box.is_displayed() and f"Answer: {p.answer}" in box.text
        if p.solution and len(p.solution) > 1 and values[right[0]][0] == p.solution[0]:
            assert p.solution[1] in feedback.text  # the rest of the line
        rows = box.find_elements("css selector", "table.values tr[data-act]")
        assert len(rows) == len(values)
        assert "chosen" in rows[right[0]].get_attribute("class")
    check_clean(driver, page)


def open_page_plain(driver, page: Path) -> None:
    driver.get_log("browser")
    driver.get_log("performance")
    driver.get(page.resolve().as_uri())
    assert driver.find_element("tag name", "body").get_attribute("data-ready") == "1"


def test_opens_at_the_end_or_at_ply(driver, tmp_path: Path) -> None:
    path, total = record_file("towai", tmp_path)
    page = export(path)
    open_page(driver, page)
    assert shown(driver) == (total, replay_line(path, total))
    assert driver.find_element("id", "last").get_attribute("disabled") is not None
    current = driver.find_element("css selector", "#moves button[aria-current]")
    assert current.get_attribute("data-ply") == str(total)
    out = tmp_path / "at.html"
    r = CliRunner().invoke(cli, ["html", str(path), "--ply", "-4", "-o", str(out)])
    assert r.exit_code == 0, r.output
    open_page(driver, out)
    assert shown(driver)[0] == total - 3
    r = CliRunner().invoke(cli, ["html", str(path), "--ply", str(total + 1)])
    assert r.exit_code == 1 and "--ply" in r.stderr


def test_the_score_chart_follows_the_ply(driver, tmp_path: Path) -> None:
    path, _ = record_file("lianxian", tmp_path)
    page = export(path)
    open_page(driver, page)
    marker = driver.find_element("id", "chart-marker")
    end = float(marker.get_attribute("x1"))
    driver.find_element("id", "first").click()
    start = float(marker.get_attribute("x1"))
    assert start == float(marker.get_attribute("data-x0")) and end > start
    lines = driver.find_elements("css selector", "#chart polyline")
    assert len(lines) == len(record_names(path))
    check_clean(driver, page)


def test_long_deals_are_folded(driver, tmp_path: Path) -> None:
    path, _ = record_file("graph-t", tmp_path)
    page = export(path)
    open_page(driver, page)
    deal = driver.find_element("css selector", '#moves button[data-ply="1"]')
    assert deal.text.endswith("deal …") and len(deal.text) < 20, deal.text
    folded = driver.find_element("css selector", "#moves li details.full")
    whole = folded.find_element("tag name", "code")
    assert not whole.is_displayed()
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", folded)
    folded.find_element("tag name", "summary").click()
    assert whole.is_displayed() and len(whole.text) > 60
    check_clean(driver, page)


def record_names(path: Path) -> list[str]:
    from kifu.notation.reader import parse_record

    return parse_record(path.read_text(encoding="utf-8")).players


@pytest.mark.parametrize("gid", games.ids())
def test_a_laptop_screen_holds_the_picture_and_the_controls(driver, gid: str,
                                                           tmp_path: Path) -> None:
    """At 1280×800 (the four-player record where there is one), the controls and the
    picture are in view without scrolling, and the seats carry the players' names."""
    from kifu.html.screenshots import in_view, layout

    path, _ = record_file(gid, tmp_path)
    names = record_names(path)
    page = export(path)
    browser.set_viewport(driver, 1280, 800, mobile=False)
    try:
        open_page(driver, page)
        got = layout(driver)
        vw, vh = got["vw"], got["vh"]
        assert (vw, vh) == (1280, 800)
        for box in got["controls"]:
            assert in_view(box, vw, vh), (gid, box)
        assert in_view(got["board"], vw, vh), got["board"]
        texts = " ".join(got["names"])
        for name in names:
            assert name[:8] in texts, (gid, name)
    finally:
        browser.set_viewport(driver, 0, 0)


def test_an_analysed_record_shows_its_marks_and_chart(driver, tmp_path: Path) -> None:
    src = Path(__file__).resolve().parent.parent / "fixtures" / "tweak" / "missed-win-2p.kifu"
    annotated = tmp_path / "analysed.kifu"
    r = CliRunner().invoke(cli, ["analyze", str(src), "-o", str(annotated), "-q"])
    assert r.exit_code == 0, r.output
    page = export(annotated)
    open_page(driver, page)
    blunders = driver.find_elements("css selector", "#moves .mark-blunder")
    assert {b.text for b in blunders} == {"??"}
    # the proven missed win (an exact question's ??), among the value judgement's blunders
    (li,) = [b.find_element("xpath", "./ancestor::button") for b in blunders
             if "tweak-this-turn: forced → no" in  # the value, not the [%value] token
             b.find_element("xpath", "./ancestor::button").text]
    ply = int(li.get_attribute("data-ply"))
    assert "best p0 !T p1" in li.text  # the [%best] the record holds, next to the one played
    assert "every card known" in blunders[0].find_element(
        "xpath", "./ancestor::ul | ./ancestor::ol").find_element(
        "css selector", f'button[data-ply="{ply}"] .mark').get_attribute("title")
    assert "[%value" not in driver.find_element("id", "moves").text
    assert "[%shares" not in driver.find_element("id", "moves").text
    chart = driver.find_element("id", "value-chart")
    assert chart.find_elements("css selector", "polyline")
    dot = chart.find_element("css selector", f'circle[data-ply="{ply}"]')
    assert dot.get_attribute("fill") == "#b91c1c"
    driver.find_element("id", "first").click()
    assert shown(driver)[0] == 0
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", chart)
    dot.click()  # a click on the chart goes to that ply
    assert shown(driver) == (ply, replay_line(annotated, ply))
    marker = driver.find_element("id", "value-marker")
    x0, dx = float(marker.get_attribute("data-x0")), float(marker.get_attribute("data-dx"))
    assert float(marker.get_attribute("x1")) == pytest.approx(x0 + ply * dx, abs=0.01)
    svg = chart.find_element("css selector", "svg")
    # a click in the middle of the chart goes to the ply under it
    want = driver.execute_script("""
        var svg = arguments[0], r = svg.getBoundingClientRect();
        var pt = svg.createSVGPoint(); pt.x = r.left + r.width / 2; pt.y = r.top + r.height / 2;
        var at = pt.matrixTransform(svg.getScreenCTM().inverse());
        return Math.round((at.x - arguments[1]) / arguments[2]);""", svg, x0, dx)
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).move_to_element(svg).click().perform()
    assert 0 < want < 30 and shown(driver) == (want, replay_line(annotated, want))
    check_clean(driver, page)
