"""kifu's Datasette plugin (``kifu archive serve`` registers it; docs/archive.md).

What it adds to Datasette's pages of a kifu archive:

- the ``text`` of a record shows as a small board of its final position (the game's own
  drawing, as ``kifu html`` draws it) with the moves folded under it, and a link to the
  record's viewer page;
- the viewer page itself, ``/-/kifu/DB/records/ID``: the page ``kifu html`` writes for
  that record (self-contained: inline CSS, script and pictures; analysed values and marks
  shown when the record has them), made from the stored text on each request;
- a 64-character hash shown as its first 12 characters, the whole value on hover; the
  tags and long comments folded;
- a player's name in the players view links to the player page (the ``player`` canned
  query), and that page's games to the player's game list;
- an SQL function for the player page: ``kifu_wilson(won, n)`` (the 95% Wilson interval
  of ``won / n``, as text);
- table views of ``records`` and ``puzzles`` open without their long columns (the
  metadata's ``hidden_columns``).

Importing this module imports Datasette: only ``register_plugin`` does, when serving.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from html import escape
from typing import Any
from urllib.parse import quote

from datasette import Response, hookimpl
from markupsafe import Markup

from kifu.archive.hidden import PLUGIN, with_hidden_columns
from kifu.core.errors import KifuError

VIEWER = "/-/kifu/{database}/records/{id}"
"""Where the viewer page of a record is served."""

BOARD_CACHE = 256
"""Boards kept drawn (a table page shows up to 100 records; paging back redraws none)."""


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def viewer_path(datasette: Any, database: str, record_id: int) -> str:
    return datasette.urls.path(VIEWER.format(database=quote(database, safe=""),
                                             id=int(record_id)))


@functools.lru_cache(maxsize=BOARD_CACHE)
def board_of(text: str) -> tuple[str, str, int]:
    """(the SVG of the record's final position, its move list as HTML, its ply count).
    A record that does not replay any more (a kifu that changed its rules) shows the
    reason instead of a board."""
    from kifu import games
    from kifu.html import draw
    from kifu.notation.reader import parse_record
    from kifu.notation.replay import FastReplayer

    try:
        rec = parse_record(text)
    except KifuError as e:
        return f'<p class="kifu-error">{esc(e)}</p>', "", 0
    moves = "".join(
        f"<li><span class=\"kifu-actor\">{esc(m.actor)}</span> {esc(m.text)}"
        + (f" {esc(m.mark)}" if m.mark else "") + "</li>" for m in rec.moves)
    try:
        state = FastReplayer().play(rec)
        game = games.get(rec.headers.get("Game", ""))
        picture = draw.drawer(game.id, names=rec.players)(state, None)
    except KifuError as e:
        picture = f'<p class="kifu-error">{esc(e)}</p>'
    return picture, moves, len(rec.moves)


def record_cell(text: str, record_id: int | None, viewer: str | None) -> str:
    """The ``text`` cell of a record: its board, linked to the viewer, the moves folded."""
    picture, moves, plies = board_of(text)
    board = (f'<a class="kifu-board" href="{esc(viewer)}" title="Open record '
             f'#{record_id} in the viewer">{picture}</a>') if viewer else (
        f'<div class="kifu-board">{picture}</div>')
    link = (f'<a class="kifu-viewer" href="{esc(viewer)}">viewer: replay it ›</a>'
            if viewer else "")
    return (f'<div class="kifu-record">{board}{link}<details class="kifu-moves"><summary>'
            f'{plies} moves</summary><ol>{moves}</ol></details></div>')


def short_hash(value: str) -> str:
    return (f'<code class="kifu-hash" title="{esc(value)}">{esc(value[:12])}…</code>')


def folded(label: str, value: str) -> str:
    return (f'<details class="kifu-fold"><summary>{esc(label)}</summary>'
            f'<pre>{esc(value)}</pre></details>')


def _row_get(row: Any, key: str) -> Any:
    try:
        return row[key]
    except (KeyError, IndexError):
        return None


@hookimpl
def render_cell(row: Any, value: Any, column: str, table: str | None, database: str,
                datasette: Any) -> Any:
    if not isinstance(value, str):
        if table is None and column == "games" and isinstance(value, int):
            return _games_link(row, value, column, table, database, datasette)
        if table is None and column == "record" and isinstance(value, int):
            return Markup(f'<a href="{esc(viewer_path(datasette, database, value))}">'
                          f"#{value} ›</a>")
        return None
    if column == "hash" and len(value) == 64:
        return Markup(short_hash(value))
    if table == "records":
        if column == "text":
            rid = _row_get(row, "id")
            viewer = viewer_path(datasette, database, rid) if isinstance(rid, int) else None
            return Markup(record_cell(value, rid, viewer))
        if column == "tags":
            return Markup(folded("headers", value))
        if column == "comments" and (len(value) > 80 or "\n" in value):
            return Markup(folded(value.split("\n", 1)[0][:60] + " …", value))
    if table == "puzzles" and column == "text":
        return Markup(folded("the puzzle", value))
    if column == "name" and table in ("players", "record_players"):
        href = datasette.urls.path(f"/{quote(database, safe='')}/player?name="
                                   + quote(value, safe=""))
        return Markup(f'<a href="{esc(href)}" title="Results of {esc(value)} by seat and by '
                      f'turn order">{esc(value)}</a>')
    return None


def _games_link(row: Any, value: Any, column: str, table: str | None, database: str,
                datasette: Any) -> Any:
    """In the player page's rows, the games count links to the player's game list."""
    name = _row_get(row, "player")
    if table is None and column == "games" and isinstance(name, str):
        href = datasette.urls.path(f"/{quote(database, safe='')}/player_games?name="
                                   + quote(name, safe=""))
        return Markup(f'<a href="{esc(href)}">{esc(value)}</a>')
    return None


async def viewer(request: Any, datasette: Any) -> Any:
    """The viewer page of one record, made from its stored text."""
    from kifu.html import record_page
    from kifu.notation.reader import parse_record

    database = request.url_vars["database"]
    record_id = int(request.url_vars["id"])
    try:
        db = datasette.get_database(database)
    except KeyError:
        return Response.text(f"no database {database}", status=404)
    if "records" not in await db.table_names():
        return Response.text(f"{database} is not a kifu archive", status=404)
    row = (await db.execute("SELECT text FROM records WHERE id = ?", [record_id])).first()
    if row is None:
        return Response.text(f"{database}: no record #{record_id}", status=404)
    try:
        page = record_page(parse_record(row[0]), index=record_id)
    except KifuError as e:
        return Response.text(f"{database}: record #{record_id} does not replay: {e}",
                             status=500)
    return Response.html(page)


@hookimpl
def register_routes(datasette: Any) -> list[tuple[str, Callable[..., Any]]]:
    return [(r"^/-/kifu/(?P<database>[^/]+)/records/(?P<id>[0-9]{1,18})$", viewer)]


def kifu_wilson(won: Any, n: Any) -> str | None:
    """SQL ``kifu_wilson(won, n)``: the 95% Wilson interval of ``won / n`` in percent
    (``30.0-90.3%``), from :func:`kifu.lab.stats.proportion_ci`; NULL with no trial."""
    if not isinstance(won, int) or not isinstance(n, int) or n <= 0 or not 0 <= won <= n:
        return None
    from kifu.archive.store import wilson_interval

    low, high = wilson_interval(won, n)
    return f"{100 * low:.1f}-{100 * high:.1f}%"


@hookimpl
def prepare_connection(conn: Any) -> None:
    conn.create_function("kifu_wilson", 2, kifu_wilson, deterministic=True)


@hookimpl
def asgi_wrapper(datasette: Any) -> Callable[[Any], Any]:
    def config(database: str, table: str) -> Any:
        return datasette.plugin_config(PLUGIN, database=database, table=table,
                                       fallback=False)

    def wrap(app: Any) -> Any:
        async def default_columns(scope: Any, receive: Any, send: Any) -> None:
            target = with_hidden_columns(scope, config)
            if target is None:
                await app(scope, receive, send)
                return
            await send({"type": "http.response.start", "status": 302,
                        "headers": [[b"location", target.encode("latin-1")],
                                    [b"content-type", b"text/plain"]]})
            await send({"type": "http.response.body", "body": b""})

        return default_columns

    return wrap
