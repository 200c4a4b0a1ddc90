"""``kifu html``: a self-contained HTML page for a record (a replay viewer) or a puzzle
file (a puzzle sheet)."""

from __future__ import annotations

import re

import click

from kifu.cli.common import handle_errors
from kifu.core.errors import KifuError
from kifu.notation.files import display_name, open_binary, read_stream, with_head, write_output
from kifu.notation.views import parse_seat

_HEADER = re.compile(r"\[([A-Za-z][A-Za-z0-9_]*)\s")


def first_block_is_puzzle(head: str) -> bool:
    """Whether the first block of a file (text or JSON) is a puzzle: its first headers
    include ``Position`` and ``Question`` (JSON: its keys ``position`` and ``question``)."""
    from kifu.notation.puzzle import is_puzzle, looks_like_json

    if looks_like_json(head):
        return '"position"' in head and '"question"' in head and '"moves"' not in head
    names: dict[str, str] = {}
    for line in head.split("\n"):
        s = line.strip()
        m = _HEADER.match(s)
        if m:
            names[m.group(1)] = ""
        elif names and (not s or not s.startswith(("[", "{"))):
            break
    return is_puzzle(names)


@click.command("html", short_help="Write a self-contained HTML viewer or puzzle page.")
@click.argument("file", metavar="FILE")
@click.option("--index", type=int, default=1, show_default=True,
              help="Which record of the file (1 = the first); not for a puzzle file.")
@click.option("--player", "seat", default=None, metavar="P",
              help="Show only what seat P sees (other hands face down, the deal hidden); "
                   "P is 1, p1 or a player's name.")
@click.option("--ply", type=int, default=None, metavar="N",
              help="Open the page at ply N (negative: from the end; default: the end).")
@click.option("--trainer", is_flag=True,
              help="A puzzle file: write a trainer instead of a sheet (solve by clicking "
                   "the cards on the board, hints, score and streak kept in the browser).")
@click.option("--select", "select_spec", default=None, metavar="SPEC",
              help="A puzzle file: keep only some puzzles, e.g. 'theme=thief,min=1200,"
                   "max=1600,count=20' (also game=G).")
@click.option("-o", "--output", default="-", show_default=True,
              help="Where to write the page (- for stdout).")
@handle_errors
def html_cmd(file: str, index: int, seat: str | None, ply: int | None, trainer: bool,
             select_spec: str | None, output: str) -> None:
    """Write one HTML file (inline CSS, script and SVG; no network) that replays a record of
    FILE with first/previous/next/last buttons, arrow keys, a slider and a clickable move
    list; it opens at the final position (or at --ply N). A FILE of puzzles (blocks with
    Position and Question headers) becomes a puzzle sheet with a button revealing each
    answer; with --trainer, a trainer: a series of puzzles (easiest first, by Rating; a
    theme to choose) solved by clicking the cards on the board, the line stepped on the
    board with the defence's replies played for you, hints, and a score and a streak kept
    in the browser. --select keeps some of the puzzles.

    Examples: kifu html g.kifu --player 0 -o g.html;
    kifu html mined.kifu --trainer --select theme=thief,count=20 -o train.html
    """
    from kifu.html import puzzle_page, record_page
    from kifu.notation.puzzle import read_puzzle_stream

    name = display_name(file)
    with open_binary(file) as raw:  # streamed, as every record file is read
        head, f = with_head(raw)
        if first_block_is_puzzle(head.decode("utf-8", errors="replace")):
            if seat is not None or ply is not None:
                raise KifuError("--player and --ply are for a game record, not a puzzle sheet")
            stream = read_puzzle_stream(f, name)
            if select_spec is not None:
                from kifu.html.trainer import select

                stream = select(stream, select_spec)
            if trainer:
                from kifu.html.trainer import trainer_page

                title = "Puzzle trainer" if file == "-" else f"Puzzle trainer: {name}"
                page = trainer_page(stream, title=title)
            else:
                title = "Puzzles" if file == "-" else f"Puzzles: {name}"
                page = puzzle_page(stream, title=title)
        else:
            if trainer or select_spec is not None:
                raise KifuError("--trainer and --select are for a puzzle file, not a game "
                                "record")
            chosen, count = None, 0
            for loc in read_stream(f, name):  # the whole file is checked, one record kept
                count += 1
                if count == index:
                    chosen = loc
            if not count:
                raise KifuError(f"{name}: no record in the file")
            if chosen is None:
                raise KifuError(f"{name}: there is no record #{index} (the file has {count})")
            players = chosen.record.players
            where = None if seat is None else parse_seat(seat, players, len(players))
            page = record_page(chosen, seat=where, index=index, ply=ply)
    write_output(output, page, inputs=(file,))
