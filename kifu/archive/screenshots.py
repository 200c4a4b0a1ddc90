"""Screenshots of an archive as ``kifu archive serve`` shows it, at a laptop's 1280×800:
``python -m kifu.archive.screenshots OUT`` writes ``OUT/datasette-records.png`` (the records
table as it opens: the first rows, their boards), ``datasette-row.png`` (one record's
page), ``datasette-viewer.png`` (its viewer, at the last ply), ``datasette-players.png``
and ``datasette-player.png`` (the players table and one player's page).

The archive holds the fixtures of every game and an analysed record (its values and marks
show in the viewer). :func:`served` builds and serves such an archive with the ``kifu``
command in another process; the browser tests use it too. Needs Datasette, ``chromium``
and ``chromium-driver``.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from kifu import games
from kifu.html.screenshots import serve_archive

ROOT = Path(__file__).resolve().parents[2]
SIZE = (1280, 800)


def fixture_files(root: Path = ROOT) -> list[str]:
    return [str(p) for g in games.ids() for p in sorted((root / "fixtures" / g).glob("*.kifu"))]


def analysed_record(root: Path = ROOT) -> str:
    """The TWEAK missed-win fixture analysed by ``kifu analyze`` (values and marks), as
    text; renamed players so it is another game than the fixture itself."""
    from kifu.lab.analyze import analyze_record
    from kifu.notation.reader import read_records
    from kifu.notation.record import format_record

    src = root / "fixtures" / "tweak" / "missed-win-2p.kifu"
    (loc,) = read_records(src.read_text(encoding="utf-8"), path=str(src))
    record = analyze_record(loc, file=src.name).record
    record.headers["Players"] = "Ann, Bob"
    record.headers["Event"] = "analysed by kifu analyze"
    return format_record(record)


def build_archive(db: str, root: Path = ROOT) -> None:
    """The fixtures and an analysed record, imported by the ``kifu`` command."""
    extra = Path(db).with_name("analysed.kifu")
    extra.write_text(analysed_record(root), encoding="utf-8")
    subprocess.run([sys.executable, "-m", "kifu.cli.main", "archive", "import", "--db", db,
                    "-q", str(extra), *fixture_files(root), str(root / "fixtures" / "puzzles")],
                   check=True, stdout=subprocess.DEVNULL, cwd=root)


@contextlib.contextmanager
def served(db: str | None = None) -> Iterator[tuple[str, str]]:
    """``kifu archive serve`` on ``db`` (default: a new archive of the fixtures), on a free
    port of 127.0.0.1: yields (base URL, database name); stopped on exit."""
    with tempfile.TemporaryDirectory(prefix="kifu-serve-") as tmp:
        if db is None:
            db = str(Path(tmp) / "club.db")
            build_archive(db)
        with serve_archive(db, Path(tmp), cwd=ROOT) as port:
            yield f"http://127.0.0.1:{port}", Path(db).stem


def analysed_id(base: str, name: str) -> int:
    """The id of the analysed record in the served archive."""
    import json
    import urllib.request

    url = (f"{base}/{name}/records.json?_shape=array&_col=id&"
           "tags__contains=analysed+by+kifu+analyze")
    with urllib.request.urlopen(url, timeout=30) as r:
        return int(json.loads(r.read())[0]["id"])


def shoot(out: Path) -> list[Path]:
    """Every screenshot, into ``out``."""
    from kifu.html import browser

    out.mkdir(parents=True, exist_ok=True)
    driver = browser.start(*SIZE)
    browser.set_viewport(driver, *SIZE, mobile=False)  # the page itself 1280x800
    shots = []
    try:
        with served() as (base, name):
            rid = analysed_id(base, name)
            pages = {
                "records": f"{base}/{name}/records",
                "row": f"{base}/{name}/records/{rid}",
                "viewer": f"{base}/-/kifu/{name}/records/{rid}",
                "players": f"{base}/{name}/players",
                "player": f"{base}/{name}/player?name=greedy",
            }
            for key, url in pages.items():
                driver.get(url)
                time.sleep(0.3)
                png = out / f"datasette-{key}.png"
                driver.save_screenshot(str(png))
                shots.append(png)
    finally:
        driver.quit()
    return shots


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m kifu.archive.screenshots OUTDIR", file=sys.stderr)
        return 2
    try:
        for p in shoot(Path(args[0])):
            print(p)
    except RuntimeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
