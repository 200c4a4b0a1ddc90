"""``kifu html``: a self-contained HTML page for a record (a replay viewer) or a puzzle
file (a puzzle sheet)."""

from __future__ import annotations

import click

from kifu.cli.common import handle_errors, load_records, write_output
from kifu.core.errors import KifuError


@click.command("html")
@click.argument("file", metavar="FILE")
@click.option("--index", type=int, default=1, show_default=True,
              help="Which record of the file (1 = the first); not for a puzzle file.")
@click.option("--player", "seat", type=int, default=None, metavar="P",
              help="Show only what seat P sees (other hands face down, the deal hidden).")
@click.option("-o", "--output", default="-", show_default=True,
              help="Where to write the page (- for stdout).")
@handle_errors
def html_cmd(file: str, index: int, seat: int | None, output: str) -> None:
    """Write one HTML file (inline CSS, script and SVG; no network) that replays a record of
    FILE with first/previous/next/last buttons, arrow keys, a slider and a clickable move
    list. A FILE of puzzles (records with Position and Question headers) becomes a puzzle
    sheet with a button revealing each answer.

    Example: kifu html g.kifu --player 0 -o g.html
    """
    from kifu.html import is_puzzle, puzzle_page, record_page

    locs = list(load_records(file))
    if not locs:
        raise KifuError(f"{file}: no record in the file")
    if is_puzzle(locs[0].record):
        if seat is not None:
            raise KifuError("--player is for a game record, not a puzzle sheet")
        name = "Puzzles" if file == "-" else f"Puzzles: {file}"
        write_output(output, puzzle_page(locs, title=name))
        return
    if not 1 <= index <= len(locs):
        raise KifuError(f"{locs[0].path}: there is no record #{index} "
                        f"(the file has {len(locs)})")
    write_output(output, record_page(locs[index - 1], seat=seat, index=index))
