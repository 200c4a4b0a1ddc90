"""The ``kifu simulate --html`` report in a real headless Chromium: no network request, no
console message, a picture that is not blank, and every number drawn in the charts equal
to the JSON report (``kifu simulate --json`` of the same run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from browser_helpers import check_clean
from click.testing import CliRunner

from kifu.cli.main import cli
from kifu.html import browser

pytestmark = pytest.mark.skipif(browser.find() is None, reason=browser.INSTALL_HINT)

RUNS = {
    "tweak": ["-n", "3", "--games", "30", "--rules", "tweak/1", "--set", "threshold=60"],
    "graph-t": ["-n", "4", "--games", "20", "--set", "grey_open=anyone", "--rules",
                "graph-t/1", "--rules", "graph-t/1;grey_wins=trump"],
}


@pytest.fixture(scope="module")
def driver():
    d = browser.start(1280, 900)
    yield d
    d.quit()


def attrs(driver, selector: str, names: list[str]) -> list[dict]:
    return driver.execute_script(
        "var names = arguments[1];"
        "return Array.from(document.querySelectorAll(arguments[0])).map(function (e) {"
        "  var o = {}; names.forEach(function (n) { o[n] = e.getAttribute(n); });"
        "  return o; });", selector, names)


def num(text: str):
    return json.loads(text)


@pytest.mark.parametrize("gid", sorted(RUNS))
def test_report_in_chromium(driver, gid: str, tmp_path: Path) -> None:
    page = tmp_path / f"{gid}.html"
    r = CliRunner().invoke(cli, ["simulate", gid, *RUNS[gid], "-q", "--json", "--html",
                                 str(page)])
    assert r.exit_code == 0, r.output
    report = json.loads(r.stdout)
    driver.get_log("browser")
    driver.get_log("performance")
    driver.get(page.resolve().as_uri())
    driver.find_element("css selector", "svg[data-chart=wins]")

    assert check_clean(driver, page), "the page itself was requested"

    # the embedded report is the JSON report
    island = driver.execute_script("return document.getElementById('kifu-data').textContent")
    assert json.loads(island) == report

    # histograms: every bar is its bin's count; a metric the same in every game not drawn
    for h in report["histograms"]:
        if not h["varies"]:
            assert not driver.find_elements("css selector",
                                            f"svg[data-chart=hist-{h['metric']}]")
            continue
        bars = attrs(driver, f"svg[data-chart=hist-{h['metric']}] rect[data-bin]",
                     ["data-rules", "data-bin", "data-lo", "data-hi", "data-count"])
        assert len(bars) == sum(len(c) for c in h["counts"])
        for b in bars:
            r_, k = int(b["data-rules"]), int(b["data-bin"])
            assert int(b["data-count"]) == h["counts"][r_][k]
            assert [int(b["data-lo"]), int(b["data-hi"])] == h["edges"][k:k + 2]

    # win rates with their error bars
    bars = attrs(driver, "svg[data-chart=wins] g[data-seat]",
                 ["data-rules", "data-seat", "data-estimate", "data-low", "data-high"])
    assert len(bars) == report["players"] * len(report["rules"])
    for b in bars:
        f = report["rule_sets"][int(b["data-rules"])]["seats"][int(b["data-seat"])]["win_rate"]
        assert [num(b["data-estimate"]), num(b["data-low"]), num(b["data-high"])] == [
            f["estimate"], f["low"], f["high"]]

    # the same by position in the turn order
    bars = attrs(driver, "svg[data-chart=turns] g[data-position]",
                 ["data-rules", "data-position", "data-estimate"])
    assert len(bars) == report["players"] * len(report["rules"])
    for b in bars:
        f = report["rule_sets"][int(b["data-rules"])]["turns"][int(b["data-position"])]
        assert num(b["data-estimate"]) == f["win_rate"]["estimate"]

    # paired differences with their intervals, one chart per pair of rule sets
    assert len(report["comparisons"]) == len(report["rules"]) * (len(report["rules"]) - 1) // 2
    for k, c in enumerate(report["comparisons"]):
        rows = attrs(driver, f"svg[data-chart=diff-{k}] g[data-metric]",
                     ["data-metric", "data-estimate", "data-low", "data-high", "data-changed",
                      "data-effect"])
        # largest effect first, the calls before the rest
        assert [row["data-metric"] for row in rows] == c["order"]
        assert sorted(c["order"]) == sorted(m["name"] for m in report["metrics"])
        for row in rows:
            ch = c["changes"][row["data-metric"]]
            f = ch["difference"]
            assert [num(row["data-estimate"]), num(row["data-low"]),
                    num(row["data-high"])] == [f["estimate"], f["low"], f["high"]]
            assert row["data-changed"] == str(ch["changed"]).lower()
            assert num(row["data-effect"]) == ch["effect"]

    # a picture, not a blank page
    image = pytest.importorskip("PIL.Image")
    from PIL import ImageStat

    png = tmp_path / f"{gid}.png"
    driver.save_screenshot(str(png))
    with image.open(png) as im:
        rgb = im.convert("RGB")
        assert min(ImageStat.Stat(rgb).stddev) > 20
        colours = rgb.resize((rgb.width // 4, rgb.height // 4)).getcolors(1 << 16)
        assert colours is None or len(colours) > 50
