"""The archive as people open it in Datasette (issue 27), through Datasette's own test
client: the metadata kifu writes (descriptions, labels, facets, canned queries), the plugin
that keeps the long columns out of the table views, and ``kifu archive serve``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu import games
from kifu.archive import Archive, browse
from kifu.cli.main import cli

datasette_app = pytest.importorskip("datasette.app", reason="datasette (test extra)")

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> str:
    path = str(tmp_path_factory.mktemp("ds") / "club.db")
    with Archive(path) as a:
        a.import_paths([str(p) for g in games.ids() for p in sorted((FIX / g).glob("*.kifu"))]
                       + [str(FIX / "puzzles")])
    return path


@pytest.fixture
def plugin():
    browse.register_plugin()
    yield
    browse.unregister_plugin()


def fetch(path: str, *urls: str, meta: dict | None = None, follow: bool = False) -> list:
    async def go():
        ds = datasette_app.Datasette([path], metadata=meta or browse.metadata(path))
        return [await ds.client.get(u, follow_redirects=follow) for u in urls]

    return asyncio.run(go())


def test_metadata_file_is_written_beside_the_archive(archive, tmp_path) -> None:
    r = CliRunner().invoke(cli, ["archive", "datasette", "--db", archive])
    assert r.exit_code == 0, r.output
    meta = json.loads(Path(archive).with_suffix(".metadata.json").read_text())
    assert meta == browse.metadata(archive)
    tables = meta["databases"]["club"]["tables"]
    assert set(tables["records"]["columns"]) >= {"game", "rules", "winner_seats", "text"}
    assert tables["records"]["facets"] == ["game", "rules", "nplayers", "winner_seats"]
    r = CliRunner().invoke(cli, ["archive", "datasette", "--db", str(tmp_path / "no.db")])
    assert r.exit_code == 1 and not (tmp_path / "no.metadata.json").exists()


def test_datasette_shows_descriptions_labels_and_facets(archive) -> None:
    meta, records, players = fetch(
        archive, "/-/metadata.json", "/club/records.json?_size=5",
        "/club/record_players.json?_labels=on&_shape=array&_size=3")
    assert meta.json()["databases"]["club"]["tables"]["records"]["label_column"] == "players"
    data = records.json()
    facets = data["facet_results"]
    assert set(facets) == {"game", "rules", "nplayers", "winner_seats"}
    counts = {f["value"]: f["count"] for f in facets["game"]["results"]}
    with Archive(archive, readonly=True) as a:
        per_game = {g["game"]: g["records"] for g in a.stats()["games"]}
    assert counts == per_game
    row = players.json()[0]
    assert isinstance(row["record_id"], dict) and row["record_id"]["label"]  # not a bare id
    html = fetch(archive, "/club/records?_nocol=text")[0].text
    assert "One row per game" in html  # the table's description


def test_canned_queries(archive) -> None:
    with Archive(archive, readonly=True) as a:
        name = a.db.execute("SELECT name FROM record_players GROUP BY name ORDER BY "
                            "count(*) DESC LIMIT 1").fetchone()[0]
        games_of = a.db.execute("SELECT count(*) FROM record_players WHERE name = ?",
                                [name]).fetchone()[0]
        stats = a.stats()
    mine, rates, longest, puzzles = fetch(
        archive, f"/club/player_games.json?name={name}&_shape=array",
        "/club/seat_win_rates.json?_shape=array", "/club/longest_games.json?game=&_shape=array",
        "/club/puzzles_by_question.json?_shape=array")
    rows = mine.json()
    assert len(rows) == games_of and {"seat", "score", "rank", "won"} <= set(rows[0])
    total = {}
    for r in rates.json():
        key = (r["game"], r["nplayers"], r["seat"])
        total[key] = [a + b for a, b in zip(total.get(key, [0, 0]), (r["finished"], r["won"]),
                                            strict=True)]
    for s in stats["seats"]:
        assert total[(s["game"], s["players"], s["seat"])] == [s["finished"], s["won"]]
    plies = [r["plies"] for r in longest.json()]
    assert plies == sorted(plies, reverse=True) and plies
    per_game: dict[str, int] = {}
    for r in puzzles.json():
        per_game[r["game"]] = per_game.get(r["game"], 0) + r["puzzles"]
    assert per_game == stats["puzzles"] and per_game


def test_table_views_open_without_the_long_columns(archive, plugin) -> None:
    first, = fetch(archive, "/club/records")
    assert first.status_code == 302
    target = first.headers["location"]
    assert target.startswith("/club/records?") and "_nocol=text" in target
    assert "_nocol=tags" in target and "_nocol=hash" in target and "_nocol=source" in target
    page, chosen, row, data = fetch(archive, "/club/records?_sort_desc=plies",
                                    "/club/records?_col=game&_col=text", "/club/records/1",
                                    "/club/records.json?_shape=array&_size=1", follow=True)
    assert page.status_code == 200 and "_sort_desc=plies" in str(page.url)
    assert 'data-column="game"' in page.text and 'data-column="text"' not in page.text
    assert 'data-column="players"' in page.text
    assert 'data-column="text"' in chosen.text  # asked for: shown
    assert "[Game &#34;" in row.text or '[Game "' in row.text  # the row page has it all
    assert "text" in data.json()[0]  # the JSON API is untouched
    puzzles, = fetch(archive, "/club/puzzles")
    assert puzzles.status_code == 302 and "_nocol=text" in puzzles.headers["location"]
    players, = fetch(archive, "/club/record_players")
    assert players.status_code == 200


def test_serve_starts_datasette_with_the_metadata_and_the_plugin(archive, monkeypatch) -> None:
    seen = []

    def run(args):
        meta = json.loads(Path(args[args.index("--metadata") + 1]).read_text())
        seen.append((args, meta))

    browse.serve(archive, port=8123, run=run)
    args, meta = seen[0]
    assert args[:2] == ["serve", archive] and args[args.index("--port") + 1] == "8123"
    assert meta == browse.metadata(archive)
    from datasette.plugins import pm

    assert pm.get_plugin(browse.PLUGIN) is not None
    browse.unregister_plugin()


def test_serve_says_how_to_install_datasette(archive, monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "datasette", None)  # import datasette fails
    r = CliRunner().invoke(cli, ["archive", "serve", "--db", archive])
    assert r.exit_code == 1
    assert "pip install 'kifu[serve]'" in r.stderr and "Traceback" not in r.output
