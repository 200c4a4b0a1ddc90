"""``python -m kifu.html.screenshots OUT``: a screenshot of each game's page at its last
ply, at a laptop's 1280×800 and at a phone's width, and of the archive's records table in
Datasette; each must be a real picture, not a blank page, and the records table must not
show the raw text."""

from __future__ import annotations

from pathlib import Path

import pytest

from kifu import games
from kifu.html import browser, screenshots

pytestmark = pytest.mark.skipif(browser.find() is None, reason=browser.INSTALL_HINT)


def check_picture(png: Path, width: int, height: int | None = None) -> None:
    image = pytest.importorskip("PIL.Image", reason="pillow not installed: pip install pillow")
    from PIL import ImageStat

    with image.open(png) as im:
        rgb = im.convert("RGB")
        assert rgb.width == width
        if height is not None:
            assert rgb.height == height
        stat = ImageStat.Stat(rgb)
        assert min(stat.stddev) > 20, (png, stat.stddev)  # not one flat colour
        colours = rgb.resize((rgb.width // 4, rgb.height // 4)).getcolors(1 << 16)
        assert colours is None or len(colours) > 50, (png, len(colours or ()))


def test_screenshots_are_not_blank(tmp_path: Path) -> None:
    assert screenshots.main([str(tmp_path)]) == 0
    for gid in games.ids():
        for size, (width, height) in screenshots.SIZES.items():
            check_picture(tmp_path / f"{gid}-{size}.png", width,
                          height if size == "desktop" else None)
        assert (tmp_path / f"{gid}.html").exists()
    for name in ("analysis", "puzzle"):  # kifu analyze's viewer, a mined puzzle answered
        check_picture(tmp_path / f"{name}-desktop.png", 1280, 800)
    for gid in games.ids():  # each game's known-mistake fixture analysed (issue 34)
        check_picture(tmp_path / f"analysis-{gid}-desktop.png", 1280, 800)
    pytest.importorskip("datasette", reason="datasette (test extra)")
    check_picture(tmp_path / "datasette-records.png", 1280, 800)
    page = (tmp_path / "datasette-records.html").read_text(encoding="utf-8")
    assert 'data-column="game"' in page and 'data-column="players"' in page
    assert 'data-column="tags"' not in page and 'data-column="hash"' not in page
    # the record column is a board linked to the viewer (issue 39), never the raw text
    assert 'class="kifu-board"' in page and "[Game " not in page
