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
    assert target.startswith("/club/records?") and "_nocol=text" not in target  # a board
    assert "_nocol=tags" in target and "_nocol=hash" in target and "_nocol=source" in target
    page, chosen, row, data = fetch(archive, "/club/records?_sort_desc=plies",
                                    "/club/records?_col=game&_col=text", "/club/records/1",
                                    "/club/records.json?_shape=array&_size=1", follow=True)
    assert page.status_code == 200 and "_sort_desc=plies" in str(page.url)
    assert 'data-column="game"' in page.text and 'data-column="tags"' not in page.text
    assert 'data-column="players"' in page.text and 'data-column="text"' in page.text
    assert 'data-column="text"' in chosen.text and 'data-column="plies"' not in chosen.text
    assert 'class="kifu-board"' in row.text and 'data-column="source"' in row.text  # all
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


# --- the plugin's pages (issue 39) ---------------------------------------------------------

def _first_row(archive: str, sql: str, params=()):
    with Archive(archive, readonly=True) as a:
        return a.db.execute(sql, params).fetchone()


def test_a_record_shows_its_board_and_links_its_viewer(archive, plugin) -> None:
    rid, text, plies, hash_ = _first_row(
        archive, "SELECT id, text, plies, hash FROM records WHERE game = 'graph-t' LIMIT 1")
    table, row = fetch(archive, "/club/records?game=graph-t", f"/club/records/{rid}",
                       follow=True)
    for page in (table, row):
        assert page.status_code == 200
        assert f'href="/-/kifu/club/records/{rid}"' in page.text
        assert '<svg xmlns="http://www.w3.org/2000/svg"' in page.text  # the board
        assert f"<summary>{plies} moves</summary>" in page.text
    # the row page: the hash short, the whole of it on hover; the tags folded
    assert f'title="{hash_}">{hash_[:12]}…</code>' in row.text
    assert '<details class="kifu-fold"><summary>headers</summary>' in row.text
    # the glossary is folded into the description
    assert '<details class="kifu-glossary"><summary>What each of the 15 columns' in table.text
    viewer, = fetch(archive, f"/-/kifu/club/records/{rid}")
    assert viewer.status_code == 200 and viewer.headers["content-type"].startswith("text/html")
    from kifu.html import record_page
    from kifu.notation.reader import parse_record

    assert viewer.text == record_page(parse_record(text), index=rid)  # as kifu html writes it
    assert "default-src 'none'" in viewer.text  # self-contained
    missing, bad_db = fetch(archive, "/-/kifu/club/records/999999", "/-/kifu/nope/records/1")
    assert missing.status_code == 404 and bad_db.status_code == 404


def test_the_viewer_shows_analysed_values_and_marks(tmp_path, plugin) -> None:
    from kifu.archive.screenshots import analysed_record

    db = str(tmp_path / "an.db")
    src = tmp_path / "an.kifu"
    src.write_text(analysed_record(), encoding="utf-8")
    with Archive(db) as a:
        a.import_paths([str(src)])
    page, = fetch(db, "/-/kifu/an/records/1")
    assert page.status_code == 200
    assert 'id="value-chart"' in page.text and 'class="mark mark-blunder"' in page.text


def test_players_view_and_the_player_page(archive) -> None:
    from kifu.archive.store import wilson_interval

    name, seats, won, finished = _first_row(
        archive, "SELECT name, count(*), sum(won), count(won) FROM record_players "
                 "GROUP BY name ORDER BY count(*) DESC LIMIT 1")
    browse.register_plugin()
    try:
        players, page, facet, html = fetch(
            archive, "/club/players.json?_shape=array&_size=max",
            f"/club/player.json?name={name}&_shape=array",
            "/club/record_players.json?_facet=name&_size=0", "/club/players")
    finally:
        browse.unregister_plugin()
    row = next(p for p in players.json() if p["name"] == name)
    assert (row["games"], row["won"], row["finished"]) == (seats, won, finished)
    rows = page.json()
    assert {r["player"] for r in rows} == {name}
    every = [r for r in rows if r["results"] == "all games"]
    assert sum(r["games"] for r in every) == seats
    by_seat = [r for r in rows if r["results"].startswith("seat p")]
    by_turn = [r for r in rows if r["results"].startswith("turn ")]
    assert sum(r["games"] for r in by_seat) == sum(r["games"] for r in by_turn) == seats
    assert sum(r["won"] or 0 for r in by_seat) == won
    for r in every + by_seat + by_turn:
        if r["finished"]:
            low, high = wilson_interval(r["won"], r["finished"])
            assert r["interval_95"] == f"{100 * low:.1f}-{100 * high:.1f}%"
    names = {f["value"] for f in facet.json()["facet_results"]["name"]["results"]}
    assert name in names
    assert f'href="/club/player?name={name}"' in html.text  # a name opens the player page
    browse.register_plugin()
    try:
        page_html, games_html = fetch(archive, f"/club/player?name={name}",
                                      f"/club/player_games?name={name}")
    finally:
        browse.unregister_plugin()
    assert f'href="/club/player_games?name={name}"' in page_html.text  # games -> the list
    first = min(r["record"] for r in fetch(
        archive, f"/club/player_games.json?name={name}&_shape=array")[0].json())
    assert f'href="/-/kifu/club/records/{first}"' in games_html.text  # each game's viewer


def test_stored_turn_order_is_the_order_players_first_act(archive) -> None:
    from kifu.archive.rows import turn_order
    from kifu.notation.reader import parse_record

    with Archive(archive, readonly=True) as a:
        texts = dict(a.db.execute("SELECT id, text FROM records"))
        stored: dict[int, dict[int, int | None]] = {}
        for rid, seat, turn in a.db.execute("SELECT record_id, seat, turn FROM record_players"):
            stored.setdefault(rid, {})[seat] = turn
    for rid, text in texts.items():
        rec = parse_record(text)
        naive = []  # the seats in the order of their first action
        for m in rec.moves:
            if m.actor != "d" and int(m.actor[1:]) not in naive:
                naive.append(int(m.actor[1:]))
        want = [naive.index(s) + 1 if s in naive else None for s in range(len(rec.players))]
        assert turn_order([m.actor for m in rec.moves], len(rec.players)) == want
        assert [stored[rid][s] for s in range(len(rec.players))] == want


def test_a_record_that_does_not_replay_shows_why_not_a_crash() -> None:
    from kifu.archive.plugin import record_cell

    bad = '[Game "tweak"]\n[Rules "tweak/1"]\n[Players "a, b"]\n\nd dealer p0\nq1 R3\n'
    cell = record_cell(bad, 3, "/-/kifu/club/records/3")
    assert 'class="kifu-error"' in cell and "expected an actor" in cell
    assert 'class="kifu-error"' in record_cell("not a record", None, None)
