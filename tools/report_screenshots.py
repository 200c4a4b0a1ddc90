"""Screenshots of ``kifu simulate --html`` reports for the docs (docs/screenshots/).

    python tools/report_screenshots.py OUTDIR REPORT.html...

Each report is opened in headless Chromium at 1280 pixels wide and its first screen and a
half (the verdicts and the differences chart) is saved as ``OUTDIR/simulate-<name>.png``
in 256 colours, small enough to keep in the repository. The reports of docs/designers.md
are made by the commands quoted there.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kifu.html import browser

WIDTH, HEIGHT = 1280, 1350


def shoot(out: Path, pages: list[Path]) -> list[Path]:
    from PIL import Image

    out.mkdir(parents=True, exist_ok=True)
    driver = browser.start(WIDTH, HEIGHT)
    shots = []
    try:
        for page in pages:
            driver.get(page.resolve().as_uri())
            driver.find_element("css selector", "svg[data-chart=wins]")
            png = out / f"simulate-{page.stem}.png"
            driver.save_screenshot(str(png))
            with Image.open(png) as im:
                im.convert("RGB").quantize(256).save(png, optimize=True)
            shots.append(png)
    finally:
        driver.quit()
    return shots


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    for p in shoot(Path(argv[0]), [Path(a) for a in argv[1:]]):
        print(p, p.stat().st_size)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
