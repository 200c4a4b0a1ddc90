"""Screenshots of each game's page at a mid-game ply: ``python -m kifu.html.screenshots OUT``.

For every registered game, one bundled fixture record (the longest of the first few in
``fixtures/<game>/``, or a random bots' game from seed 1 if it has none) is exported with
``record_page`` and opened in a headless Chromium at a desktop and a phone width;
``OUT/<game>-desktop.png`` and ``OUT/<game>-phone.png`` are written, next to each game's
page ``OUT/<game>.html``. Needs ``chromium`` and ``chromium-driver`` (see ``docs/html.md``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from kifu import games
from kifu.html import browser
from kifu.html.page import record_page
from kifu.lab.play import play_record
from kifu.notation.files import write_output
from kifu.notation.reader import Located, read_records
from kifu.notation.record import Record

SIZES = {"desktop": (1280, 1000), "phone": (390, 1600)}
ROOT = Path(__file__).resolve().parents[2]


def sample_record(game_id: str, root: Path = ROOT) -> Located | Record:
    """A fixture record of the game (the longest of the first few); a game with no
    fixtures gets a random bots' game from seed 1."""
    best = None
    for path in sorted((root / "fixtures" / game_id).glob("*.kifu"))[:6]:
        with open(path, encoding="utf-8") as f:
            for loc in read_records(f, path=str(path)):
                if best is None or len(loc.record.moves) > len(best.record.moves):
                    best = loc
                break
    if best is not None:
        return best
    game = games.get(game_id)
    players = max(game.min_players, min(3, game.max_players))
    return play_record(game, ["random"] * players, 1)


def write_pages(out: Path, root: Path = ROOT) -> dict[str, tuple[Path, int]]:
    """Write ``<game>.html`` for each game; returns game -> (page, mid ply)."""
    out.mkdir(parents=True, exist_ok=True)
    pages = {}
    for gid in games.ids():
        loc = sample_record(gid, root)
        rec = loc.record if isinstance(loc, Located) else loc
        page = out / f"{gid}.html"
        write_output(str(page), record_page(loc))
        pages[gid] = (page, len(rec.moves) // 2)
    return pages


def shoot(out: Path, root: Path = ROOT) -> list[Path]:
    """Write each game's page and its screenshots at a mid-game ply; returns the PNGs."""
    pages = write_pages(out, root)
    shots = []
    driver = browser.start(*SIZES["desktop"])
    try:
        for size, (w, h) in SIZES.items():
            browser.set_viewport(driver, w, h, mobile=size == "phone")
            for gid, (page, ply) in pages.items():
                driver.get(page.resolve().as_uri() + f"#ply={ply}")
                driver.find_element("css selector", "#board svg")
                png = out / f"{gid}-{size}.png"
                driver.save_screenshot(str(png))
                shots.append(png)
    finally:
        driver.quit()
    return shots


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m kifu.html.screenshots OUTDIR", file=sys.stderr)
        return 2
    try:
        shots = shoot(Path(args[0]))
    except RuntimeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for p in shots:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
