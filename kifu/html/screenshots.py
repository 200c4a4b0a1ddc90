"""Screenshots of each game's page and of the archive in Datasette:
``python -m kifu.html.screenshots OUT``.

For every registered game, one bundled fixture record (a four-player one where the game has
one, else the longest of the first few in ``fixtures/<game>/``; a random bots' game from seed
1 for a game without fixtures) is exported with ``record_page`` and opened in a headless
Chromium at a laptop's 1280×800 and at a phone's width, at its last ply (where the page
opens); ``OUT/<game>-desktop.png`` and ``OUT/<game>-phone.png`` are written, next to each
game's page ``OUT/<game>.html``. When Datasette is installed, the fixtures are also imported
into an archive, ``kifu archive serve`` is started on it and its records table is
photographed: ``OUT/datasette-records.png``; an analysed record and a sheet of mined puzzles
too (:func:`shoot_analysis`). :func:`layout` reports what the tests check on
each page (the controls in view, the names shown). Needs ``chromium`` and
``chromium-driver`` (see ``docs/html.md``).
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kifu import games
from kifu.html import browser
from kifu.html.page import record_page
from kifu.lab.play import play_record
from kifu.notation.files import write_output
from kifu.notation.reader import Located, read_records
from kifu.notation.record import Record

SIZES = {"desktop": (1280, 800), "phone": (390, 1600)}
ROOT = Path(__file__).resolve().parents[2]
PREFERRED_PLAYERS = 4
"""The seats of the sample record where the game has such a fixture: the tallest common
page, which must still fit a laptop's screen."""


def _records(paths: list[Path]) -> list[Located]:
    out = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for loc in read_records(f, path=str(path)):
                out.append(loc)
                break
    return out


def sample_record(game_id: str, root: Path = ROOT) -> Located | Record:
    """A fixture record of the game: the longest four-player one, else the longest of the
    first few; a game with no fixtures gets a random bots' game from seed 1."""
    paths = sorted((root / "fixtures" / game_id).glob("*.kifu"))
    every = _records(paths)
    four = [loc for loc in every if len(loc.record.players) == PREFERRED_PLAYERS]
    pool = four or every[:6]
    if pool:
        return max(pool, key=lambda loc: len(loc.record.moves))
    game = games.get(game_id)
    players = max(game.min_players, min(3, game.max_players))
    return play_record(game, ["random"] * players, 1)


def write_pages(out: Path, root: Path = ROOT) -> dict[str, tuple[Path, list[str]]]:
    """Write ``<game>.html`` for each game; returns game -> (page, the players' names)."""
    out.mkdir(parents=True, exist_ok=True)
    pages = {}
    for gid in games.ids():
        loc = sample_record(gid, root)
        rec = loc.record if isinstance(loc, Located) else loc
        page = out / f"{gid}.html"
        write_output(str(page), record_page(loc))
        pages[gid] = (page, rec.players)
    return pages


_LAYOUT_JS = """
var vw = window.innerWidth, vh = window.innerHeight;
function box(sel) {
  var e = document.querySelector(sel);
  if (!e) { return null; }
  var r = e.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right};
}
var ids = ["#first", "#prev", "#next", "#last", "#slider"];
var controls = ids.map(box);
return {
  vw: vw, vh: vh, ply: Number(document.body.getAttribute("data-ply")),
  controls: controls, board: box("#board svg"), chart: box("#chart svg"),
  names: Array.prototype.map.call(document.querySelectorAll("#board svg text"),
                                  function (t) { return t.textContent; }),
  scrollWidth: document.documentElement.scrollWidth
};
"""


def layout(driver: Any) -> dict[str, Any]:
    """Where the page's parts are in the window: the controls' boxes, the picture's and the
    chart's, the texts of the picture (for the names), the ply shown."""
    return driver.execute_script(_LAYOUT_JS)


def in_view(b: dict[str, float] | None, vw: int, vh: int) -> bool:
    """A box wholly inside the window."""
    return b is not None and b["top"] >= 0 and b["left"] >= 0 and b["bottom"] <= vh \
        and b["right"] <= vw


def small_png(path: Path) -> None:
    """Rewrite a screenshot with at most 256 colours (a few times smaller, still sharp)."""
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - pillow is a test dependency
        return
    with Image.open(path) as im:
        small = im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def shoot(out: Path, root: Path = ROOT) -> list[Path]:
    """Write each game's page and its screenshots at its last ply (and the Datasette
    records table when Datasette is installed); returns the PNGs."""
    pages = write_pages(out, root)
    shots = []
    driver = browser.start(*SIZES["desktop"])
    try:
        for size, (w, h) in SIZES.items():
            browser.set_viewport(driver, w, h, mobile=size == "phone")
            for gid, (page, _names) in pages.items():
                driver.get(page.resolve().as_uri())
                driver.find_element("css selector", "#board svg")
                png = out / f"{gid}-{size}.png"
                driver.save_screenshot(str(png))
                shots.append(png)
        browser.set_viewport(driver, *SIZES["desktop"], mobile=False)
        shots += shoot_analysis(driver, out, root)
        png = shoot_datasette(driver, out, root)
        if png is not None:
            shots.append(png)
    finally:
        driver.quit()
    for png in shots:
        small_png(png)
    return shots


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def serve_archive(db: str, log_dir: Path, cwd: Path | None = None) -> Iterator[int]:
    """``kifu archive serve --db DB`` in another process on a free port of 127.0.0.1, once
    it answers (its output in ``LOG_DIR/serve.log``, shown if it does not start within a
    minute): yields the port; the server is stopped on exit."""
    port = free_port()
    log = open(log_dir / "serve.log", "w+b")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "kifu.cli.main", "archive", "serve",
                             "--db", db, "--port", str(port)], stdout=log, stderr=log,
                            cwd=cwd)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError("kifu archive serve did not start: "
                                       + log.read().decode(errors="replace")[-2000:]) from None
                time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        log.close()


def shoot_datasette(driver: Any, out: Path, root: Path = ROOT) -> Path | None:
    """The records table of an archive of the fixtures, as ``kifu archive serve`` shows it
    (None when Datasette is not installed). The archive is built and served by the ``kifu``
    command in other processes (the pages do not import the archive: they are one layer)."""
    try:
        import datasette  # noqa: F401
    except ImportError:
        return None
    kifu = [sys.executable, "-m", "kifu.cli.main"]
    with tempfile.TemporaryDirectory(prefix="kifu-shot-") as tmp:
        db = str(Path(tmp) / "club.db")
        files = [str(p) for g in games.ids()
                 for p in sorted((root / "fixtures" / g).glob("*.kifu"))]
        subprocess.run([*kifu, "archive", "import", "--db", db, "-q", *files,
                        str(root / "fixtures" / "puzzles")], check=True,
                       stdout=subprocess.DEVNULL)
        with serve_archive(db, Path(tmp)) as port:
            driver.get(f"http://127.0.0.1:{port}/club/records")
            table = driver.find_element("css selector", "table.rows-and-columns")
            # the page opens with the descriptions and the facets; the picture is of the
            # table, with the facets' last lines above it
            driver.execute_script("window.scrollTo(0, arguments[0].getBoundingClientRect().top"
                                  " + window.scrollY - 180)", table)
            png = out / "datasette-records.png"
            driver.save_screenshot(str(png))
            write_output(str(out / "datasette-records.html"), driver.page_source)
            return png


def shoot_analysis(driver: Any, out: Path, root: Path = ROOT) -> list[Path]:
    """``OUT/analysis-desktop.png``: the TWEAK missed-win fixture analysed (``kifu analyze``)
    at the ply marked ``??``, its value chart under the picture; ``OUT/puzzle-desktop.png``:
    the puzzles mined from it, the first one answered right by a click."""
    from kifu.html.page import puzzle_page
    from kifu.lab.analyze import analyze_record
    from kifu.lab.mine import mine_record
    from kifu.notation.puzzle import LocatedPuzzle

    src = root / "fixtures" / "tweak" / "missed-win-2p.kifu"
    (loc,) = read_records(src.read_text(encoding="utf-8"), path=str(src))
    analysis = analyze_record(loc, file=src.name)
    blunder = next(p.ply for p in analysis.plies  # the proven one, an exact question's
                   if p.mark == "??" and p.mark_from != "value")
    page = out / "analysis.html"
    page.write_text(record_page(analysis.record, ply=blunder), encoding="utf-8")
    driver.get(page.resolve().as_uri())
    driver.find_element("css selector", "#value-chart svg")
    shots = [out / "analysis-desktop.png"]
    driver.save_screenshot(str(shots[0]))
    shots += shoot_game_analyses(driver, out, root)
    puzzles = mine_record(loc, file=f"fixtures/tweak/{src.name}")
    sheet = out / "puzzles.html"
    sheet.write_text(puzzle_page([LocatedPuzzle(p, "mined", k)
                                  for k, p in enumerate(puzzles, 1)], title="Mined puzzles"),
                     encoding="utf-8")
    driver.get(sheet.resolve().as_uri())
    last = len(puzzles)
    driver.execute_script(f"""
        var art = document.getElementById("pz{last}");
        var data = JSON.parse(document.getElementById("kifu-data").textContent).puzzles;
        var item = data["{last}"];
        for (var i = 0; i < item.values.length; i++) {{
          if (item.values[i][1] === item.answer) {{
            art.querySelector('button[data-act="' + i + '"]').click(); break;
          }}
        }}
        art.scrollIntoView();""")
    shots.append(out / "puzzle-desktop.png")
    driver.save_screenshot(str(shots[-1]))
    return shots


def shoot_game_analyses(driver: Any, out: Path, root: Path = ROOT) -> list[Path]:
    """``OUT/analysis-<game>-desktop.png``, every game: its known-mistake fixture
    (``fixtures/<game>/mistake-*.kifu``) analysed at the default level, opened at the
    mistake and scrolled to show the "who is winning" chart with the controls above it."""
    from kifu.lab.analyze import analyze_record

    shots = []
    for gid in games.ids():
        for src in sorted((root / "fixtures" / gid).glob("mistake-*.kifu"))[:1]:
            (loc,) = read_records(src.read_text(encoding="utf-8"), path=str(src))
            analysis = analyze_record(loc, file=src.name)
            text = loc.record.comment or ""
            ply = int(text.split("known mistake at ply ", 1)[1].split(":", 1)[0])
            page = out / f"analysis-{gid}.html"
            page.write_text(record_page(analysis.record, ply=ply), encoding="utf-8")
            driver.get(page.resolve().as_uri())
            chart = driver.find_element("css selector", "#value-chart svg")
            driver.execute_script("arguments[0].scrollIntoView({block: 'end'});"
                                  "window.scrollBy(0, 12);", chart)
            png = out / f"analysis-{gid}-desktop.png"
            driver.save_screenshot(str(png))
            shots.append(png)
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
