"""The archive in Datasette: its metadata (what each table and column means, folded under
each table's description; labels, facets, canned queries, the player page), the
registration of kifu's plugin (:mod:`kifu.archive.plugin`: boards, viewer pages, short
hashes, the long columns out of the default table views) and ``kifu archive serve``.

Datasette is optional (``pip install 'kifu[serve]'``): nothing here imports it until a
function needs it, and :func:`serve` says how to install it when it is missing.

The metadata is plain JSON (:func:`metadata`), so a plain ``datasette a.db --metadata
a.metadata.json`` shows the descriptions, labels, facets and most canned queries too; the
boards, the viewer pages, the hiding of the long columns and the SQL function of the
``player`` query need the plugin, which ``kifu archive serve`` registers.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kifu.archive.hidden import HIDDEN, PLUGIN
from kifu.core.errors import KifuError

INSTALL_HINT = ("Datasette is not installed: pip install 'kifu[serve]' (or pip install "
                "datasette), then run kifu archive serve again")


def database_name(db: str) -> str:
    """The name Datasette gives a database file: its file name without the suffix."""
    return Path(db).stem


def metadata_path(db: str) -> str:
    """Where the metadata goes beside the database: ``a.db`` -> ``a.metadata.json``."""
    return str(Path(db).with_suffix(".metadata.json"))


_RECORD_COLUMNS = {
    "id": "The record's number, in import order.",
    "hash": "SHA-256 of the record's identity: its canonical text without comments. One "
            "row per game.",
    "game": "Game id: tweak, graph-t, towai, alice or lianxian.",
    "rules": "The Rules header: the game, its rules version and the variant fields that "
             "differ from the defaults (e.g. tweak/1;rounds=1).",
    "players": "The Players header: one name a seat, p0 first.",
    "nplayers": "How many seats.",
    "date": "The Date header (YYYY.MM.DD); empty when unknown.",
    "result": "The Result header: each seat's number (points, tallest stack in 1/60 of a "
              "card for GRAPH-T, rounds won...); * while unfinished.",
    "winner": "The names placed first, joined by ', '.",
    "winner_seats": "The seats placed first (0 = p0); two or more for a shared first place.",
    "plies": "Actions in the record, the dealer's included.",
    "tags": "Every header, as a JSON object (json_extract(tags, '$.Seed')).",
    "comments": "Every comment of the record, one a line (searchable).",
    "text": "The record in canonical notation, exactly as kifu archive export writes it.",
    "source": "file:line where it was first imported.",
}

_PLAYER_COLUMNS = {
    "name": "A player's name, as the Players header gives it.",
    "record_id": "The record.",
    "seat": "The seat, 0 = p0 (the first to be dealt to).",
    "score": "The seat's number in the Result header; empty while unfinished.",
    "rank": "The seat's place, 1 = first; equal places share a rank.",
    "turn": "The seat's place in the turn order: 1 for the first player to act (dealer "
            "actions do not count); empty for a seat that never acted.",
    "won": "1 when the seat placed first (alone or shared), 0 when not; empty while "
           "unfinished.",
}

_PUZZLE_COLUMNS = {
    "id": "The puzzle's number, in import order.",
    "hash": "SHA-256 of the canonical puzzle text.",
    "game": "Game id.",
    "rules": "The rules of the position.",
    "position": "The position line the question is asked of.",
    "question": "The question (docs/puzzles.md), e.g. tweak-within 2.",
    "answer": "The stated answer.",
    "solution": "A principal line, actions separated by ';'.",
    "difficulty": "How hard: nodes searched, line length, failing first actions.",
    "source": "Where the position comes from (a game and a ply).",
    "tags": "Every header, as a JSON object.",
    "text": "The puzzle in canonical notation.",
}

_PLAYER_PART = (
    "SELECT :name AS player, game, nplayers AS players, {label} AS results, count(*) AS games, "
    "count(won) AS finished, sum(won) AS won, round(100.0 * sum(won) / count(won), 1) AS "
    "win_percent, kifu_wilson(sum(won), count(won)) AS interval_95 FROM mine "
    "GROUP BY game, nplayers{by}"
)
PLAYER_SQL = (
    "WITH mine AS (SELECT r.game, r.nplayers, p.seat, p.won, p.turn FROM record_players p "
    "JOIN records r ON r.id = p.record_id WHERE p.name = :name) "
    + " UNION ALL ".join([
        _PLAYER_PART.format(label="'all games'", by=""),
        _PLAYER_PART.format(label="'seat p' || seat", by=", seat"),
        _PLAYER_PART.format(label="'turn ' || coalesce(turn, '-')", by=", turn"),
    ])
    + " ORDER BY game, players, results"
)
"""The player page: one player's results per game and player count, all games, by seat
and by turn order, with Wilson intervals (``kifu_wilson`` is an SQL function the plugin
registers)."""

QUERIES: dict[str, dict[str, Any]] = {
    "player_games": {
        "title": "A player's games and results",
        "description": "Every game a player took part in, with their seat, score, place "
                       "and whether they won (name as in the Players header).",
        "sql": "SELECT r.id AS record, r.game, r.date, r.players, p.seat, p.score, p.rank, "
               "p.won, r.result, r.plies FROM record_players p JOIN records r ON r.id = "
               "p.record_id WHERE p.name = :name ORDER BY r.id",
    },
    "player": {
        "title": "A player's results by seat and by turn order",
        "description_html": (
            "<p>For one player (name as in the Players header), per game and player count: "
            "every game, then each seat (p0 = the first dealt to), then each place in the "
            "turn order (1 = the first player to act): games, finished, won (a shared "
            "first place counts), the win rate and its 95% Wilson interval. A count of "
            "games links to the games themselves. The players table lists every name.</p>"),
        "sql": PLAYER_SQL,
        "hide_sql": True,
    },
    "seat_win_rates": {
        "title": "Seat win rates per rules",
        "description": "For each rules and player count, how often each seat placed first "
                       "in the finished games (a shared first place counts as a win). "
                       "kifu archive stats gives the same per game with 95% intervals.",
        "sql": "SELECT r.game, r.rules, r.nplayers, p.seat, count(*) AS finished, "
               "sum(p.won) AS won, round(100.0 * sum(p.won) / count(*), 1) AS win_percent "
               "FROM record_players p JOIN records r ON r.id = p.record_id "
               "WHERE p.won IS NOT NULL GROUP BY r.game, r.rules, r.nplayers, p.seat "
               "ORDER BY r.game, r.rules, r.nplayers, p.seat",
    },
    "longest_games": {
        "title": "Longest games",
        "description": "The records with the most plies (leave game empty for every game).",
        "sql": "SELECT id, game, rules, players, plies, result, winner, date FROM records "
               "WHERE :game = '' OR game = :game ORDER BY plies DESC, id LIMIT 100",
    },
    "puzzles_by_question": {
        "title": "Puzzles by question",
        "description": "How many puzzles each question has, per game, and how many state "
                       "their answer.",
        "sql": "SELECT game, question, count(*) AS puzzles, count(answer) AS answered, "
               "min(id) AS first_id FROM puzzles GROUP BY game, question "
               "ORDER BY game, question",
    },
}


_PLAYERS_COLUMNS = {
    "name": "A player's name, as the Players header gives it (links to the player's page: "
            "results by seat and by turn order, with intervals).",
    "games": "Seats taken (a name on two seats of one game counts twice).",
    "finished": "Seats taken in finished games.",
    "won": "Finished games placed first (a shared first place counts).",
    "win_percent": "won / finished, in percent (the player page gives the interval).",
    "mean_place": "The mean place in finished games (1 = first).",
    "records": "Distinct games.",
    "first_record": "The first game stored.",
    "last_record": "The last game stored.",
}


def _glossary(description: str, columns: dict[str, str]) -> str:
    """A table's description with its column glossary folded under it (Datasette lists
    the columns one under the other above the rows; the plugin's CSS hides that list)."""
    from html import escape

    items = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in columns.items())
    return (f"<p>{escape(description)}</p><details class=\"kifu-glossary\"><summary>What each "
            f"of the {len(columns)} columns means</summary><dl>{items}</dl></details>")


COMPACT_CSS = (
    "dl.column-descriptions{columns:2 26em;column-gap:2em;font-size:.85rem;margin:.5em 0}"
    "dl.column-descriptions dt{float:left;clear:left;width:8.5em;margin:0;font-weight:600}"
    "dl.column-descriptions dd{margin:0 0 .2em 9em;color:#444}"
    "dl.column-descriptions dd::after{content:'';display:block;clear:both}"
    "body.table-records table.rows-and-columns{font-size:.9em}"
    "body.table-records td.col-rules{min-width:11em;max-width:16em;overflow-wrap:anywhere}"
    "body.table-records td.col-players{min-width:12em}"
    # the plugin's glossary replaces Datasette's list of columns
    "section.content>dl.column-descriptions{display:none}"
    ".kifu-glossary{margin:.2em 0 .6em;font-size:.85rem}"
    ".kifu-glossary summary{cursor:pointer;color:#1f4f8f}"
    ".kifu-glossary dl{columns:2 26em;column-gap:2em;margin:.4em 0}"
    ".kifu-glossary dt{float:left;clear:left;width:8.5em;margin:0;font-weight:600}"
    ".kifu-glossary dd{margin:0 0 .2em 9em;color:#444}"
    ".metadata-description p{margin:.2em 0}"
    # a record's board, its link to the viewer and its folded moves
    ".kifu-record{width:250px}"
    ".kifu-board{display:block;width:250px;line-height:0;border:1px solid #d0d7de;"
    "border-radius:4px;background:#fff}"
    ".kifu-board:hover{border-color:#1f6fd1}"
    ".kifu-board svg{display:block;width:250px;height:auto}"
    ".kifu-viewer{display:inline-block;margin:.2em 0;font-weight:600}"
    ".kifu-moves summary,.kifu-fold summary{cursor:pointer;color:#1f4f8f}"
    ".kifu-moves ol{max-height:16em;overflow:auto;margin:.2em 0;padding-left:2.6em;"
    "font:12px/1.35 ui-monospace,monospace;overflow-wrap:anywhere}"
    ".kifu-actor{color:#57606a}"
    ".kifu-fold pre{white-space:pre-wrap;overflow-wrap:anywhere;max-width:40em;"
    "font-size:12px;margin:.2em 0}"
    ".kifu-hash{font-size:.85em}"
    ".kifu-error{color:#b91c1c;max-width:250px}"
    "body.table-records td.col-text{min-width:252px}"
    "td.col-source{max-width:14em;overflow-wrap:anywhere}"
    # the records table: its filters, links and facets in less height, so that the first
    # records show at 1280x800
    "body.table-records h1{margin:.2em 0}"
    "body.table-records .page-header{margin-bottom:.3em}"
    "body.table-records h3{margin:.3em 0;font-size:1rem}"
    "body.table-records form.filters{display:flex;flex-wrap:wrap;align-items:center;"
    "gap:.2em .6em;margin:.2em 0}"
    "body.table-records form.filters .search-row,body.table-records form.filters "
    ".filter-row{margin:0;display:flex;align-items:center;gap:.3em}"
    "body.table-records form.filters .search-row label{width:auto;padding-right:.3em}"
    "body.table-records form.filters input[type=search]{width:16em}"
    "body.table-records p{margin:.3em 0}"
    "body.table-records .facet-results{margin:.2em 0 .4em}"
    "body.table-records .facet-info{font-size:.85rem}"
    "body.table-records .facet-info ul{margin:.2em 0}"
    "body.table-records .facet-info li{line-height:1.3}"
    "body.table-records .facet-info-name{margin:0}"
)
"""Column descriptions two abreast in small print, so a table's rows start sooner
(Datasette lists them one under the other above the table); in the records table a long
rules spec wraps and the players keep room, so a record stays a line or two."""


RECORDS_PAGE = 20
"""Records a page of the records table shows: each draws its final position (about 3.5 KB
of SVG and a replay each; 100 a page made 1.8 MB pages taking over a second)."""

RECORDS_DESCRIPTION = (
    "One row per game: its setup, result and length; the record column shows the final "
    "position (click it to replay the game) with the moves folded under it. The tags, "
    "comments, hash and source are left out of this view: open a row, or add them with "
    "the column menu.")
SEATS_DESCRIPTION = ("One row per seat of each game: who sat there and how they did. Facet "
                     "by name for one player's seats; a name opens the player's page.")
PLAYERS_DESCRIPTION = ("One row per player name: games, wins and places. A name opens the "
                       "player's results by seat and by turn order, with 95% intervals.")
PUZZLES_DESCRIPTION = ("Puzzles: a position, a question about it, the answer and a line "
                       "(docs/puzzles.md).")


def _css_url(css: str) -> str:
    import base64

    return "data:text/css;base64," + base64.b64encode(css.encode("utf-8")).decode("ascii")


def metadata(db: str) -> dict[str, Any]:
    """The Datasette metadata of the archive at ``db`` (JSON-ready)."""
    tables: dict[str, Any] = {
        "records": {
            "description": RECORDS_DESCRIPTION,
            "description_html": _glossary(RECORDS_DESCRIPTION, _RECORD_COLUMNS),
            "label_column": "players",
            "facets": ["game", "rules", "nplayers", "winner_seats"],
            "facet_size": 5,
            "size": RECORDS_PAGE,
            "columns": _RECORD_COLUMNS,
            "plugins": {PLUGIN: {"hidden_columns": HIDDEN["records"]}},
        },
        "record_players": {
            "description": SEATS_DESCRIPTION,
            "description_html": _glossary(SEATS_DESCRIPTION, _PLAYER_COLUMNS),
            "facets": ["name", "seat", "won"],
            "facet_size": 8,
            "columns": _PLAYER_COLUMNS,
        },
        "players": {
            "description": PLAYERS_DESCRIPTION,
            "description_html": _glossary(PLAYERS_DESCRIPTION, _PLAYERS_COLUMNS),
            "sort_desc": "games",
            "columns": _PLAYERS_COLUMNS,
        },
        "positions": {
            "description": "Every position each record reached, when imported with "
                           "--positions: a 64-bit hash of the position line, the record "
                           "and the ply. Search it with kifu archive query --position.",
            "columns": {"pos": "BLAKE2b hash of the position line (64 bits, signed).",
                        "record_id": "The record.", "ply": "Actions played to reach it."},
        },
        "puzzles": {
            "description": PUZZLES_DESCRIPTION,
            "description_html": _glossary(PUZZLES_DESCRIPTION, _PUZZLE_COLUMNS),
            "label_column": "question",
            "facets": ["game", "question"],
            "columns": _PUZZLE_COLUMNS,
            "plugins": {PLUGIN: {"hidden_columns": HIDDEN["puzzles"]}},
        },
        "_kifu_meta": {"hidden": True},
        "_kifu_migrations": {"hidden": True},
    }
    return {
        "title": f"kifu archive: {database_name(db)}",
        "description": "Card game records and puzzles kept by kifu archive (TWEAK, GRAPH-T, "
                       "TOWAI, Alice, Lianxian). Every record was replayed and checked "
                       "before it was stored.",
        "extra_css_urls": [_css_url(COMPACT_CSS)],
        "databases": {database_name(db): {"tables": tables, "queries": QUERIES}},
    }


def write_metadata(db: str, out: str | None = None) -> str:
    """Write the metadata of ``db`` as JSON to ``out`` (default: beside the database,
    :func:`metadata_path`); returns the path."""
    from kifu.notation.files import write_output

    path = out or metadata_path(db)
    write_output(path, json.dumps(metadata(db), indent=2, ensure_ascii=False) + "\n",
                 inputs=(db,))
    return path


# --- the plugin ------------------------------------------------------------------------------

def plugin() -> Any:
    """The Datasette plugin: the module :mod:`kifu.archive.plugin` (imports Datasette)."""
    from kifu.archive import plugin as module

    return module


def register_plugin() -> None:
    """Register :func:`plugin` with Datasette's plugin manager (once)."""
    from datasette.plugins import pm

    if pm.get_plugin(PLUGIN) is None:
        pm.register(plugin(), name=PLUGIN)


def unregister_plugin() -> None:
    from datasette.plugins import pm

    found = pm.get_plugin(PLUGIN)
    if found is not None:
        pm.unregister(found, name=PLUGIN)


# --- serving -----------------------------------------------------------------------------------

def serve_args(db: str, meta: str, *, host: str, port: int, open_browser: bool) -> list[str]:
    """The ``datasette serve`` command line for the archive."""
    args = ["serve", db, "--metadata", meta, "--host", host, "--port", str(port)]
    return [*args, "-o"] if open_browser else args


def serve(db: str, *, host: str = "127.0.0.1", port: int = 8001, open_browser: bool = False,
          extra: Sequence[str] = (), run: Callable[[list[str]], Any] | None = None) -> None:
    """Start Datasette on the archive ``db`` with its metadata and the plugin (blocks until
    it is stopped); an archive of an older schema is migrated first, as an import would.
    Raises :class:`KifuError` when Datasette is not installed or ``db`` is not a kifu
    archive. ``run`` replaces Datasette's own command (tests)."""
    try:
        import datasette  # noqa: F401
    except ImportError:
        raise KifuError(INSTALL_HINT) from None
    from kifu.archive.schema import connect

    if not os.path.exists(db):
        raise KifuError(f"{db}: no such archive (create one with kifu archive import)")
    # a kifu archive of a schema this kifu knows, migrated if older: the canned queries
    # read the per-seat columns of schema 3
    connect(db).close()
    register_plugin()
    import tempfile

    with tempfile.TemporaryDirectory(prefix="kifu-serve-") as tmp:
        meta = os.path.join(tmp, "metadata.json")
        with open(meta, "w", encoding="utf-8") as f:
            json.dump(metadata(db), f)
        args = serve_args(db, meta, host=host, port=port, open_browser=open_browser)
        args += list(extra)
        if run is not None:
            run(args)
            return
        from datasette.cli import cli as datasette_cli

        datasette_cli.main(args=args, prog_name="datasette", standalone_mode=True)
