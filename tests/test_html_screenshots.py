"""``python -m kifu.html.screenshots OUT``: a screenshot of each game's page at a mid-game
ply, at a desktop and a phone width; each must be a real picture, not a blank page."""

from __future__ import annotations

from pathlib import Path

import pytest

from kifu import games
from kifu.html import browser, screenshots

pytestmark = pytest.mark.skipif(browser.find() is None, reason=browser.INSTALL_HINT)


def test_screenshots_are_not_blank(tmp_path: Path) -> None:
    image = pytest.importorskip("PIL.Image", reason="pillow not installed: pip install pillow")
    from PIL import ImageStat

    assert screenshots.main([str(tmp_path)]) == 0
    for gid in games.ids():
        for size, (width, _) in screenshots.SIZES.items():
            png = tmp_path / f"{gid}-{size}.png"
            with image.open(png) as im:
                rgb = im.convert("RGB")
                assert rgb.width == width
                stat = ImageStat.Stat(rgb)
                assert min(stat.stddev) > 20, (png, stat.stddev)  # not one flat colour
                colours = rgb.resize((rgb.width // 4, rgb.height // 4)).getcolors(1 << 16)
                assert colours is None or len(colours) > 50, (png, len(colours or ()))
