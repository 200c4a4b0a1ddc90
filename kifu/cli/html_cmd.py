"""``kifu html``: a self-contained HTML page for a record (a replay viewer) or a puzzle
file (a puzzle sheet)."""

from __future__ import annotations

import re

import click

from kifu.cli.common import display_name, handle_errors, load_records, read_text, write_output
from kifu.core.errors import KifuError

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
    list. A FILE of puzzles (blocks with Position and Question headers) becomes a puzzle
    sheet with a button revealing each answer.

    Example: kifu html g.kifu --player 0 -o g.html
    """
    from kifu.html import puzzle_page, record_page
    from kifu.notation.puzzle import load_puzzles

    name = display_name(file)
    text = read_text(file) if file == "-" else None
    if text is None:
        with open(file, encoding="utf-8") as f:
            head = f.read(4096)
    else:
        head = text[:4096]
    if first_block_is_puzzle(head):
        if seat is not None:
            raise KifuError("--player is for a game record, not a puzzle sheet")
        title = "Puzzles" if file == "-" else f"Puzzles: {name}"
        write_output(output, puzzle_page(load_puzzles(name, text), title=title))
        return
    if text is not None:
        from kifu.cli.common import is_json
        from kifu.notation.reader import Located, read_records
        from kifu.notation.record import records_from_json

        locs = ([Located(r, name, 0, [], {}) for r in records_from_json(text)]
                if is_json(text) else list(read_records(text, path=name)))
    else:
        locs = list(load_records(file))
    if not locs:
        raise KifuError(f"{name}: no record in the file")
    if not 1 <= index <= len(locs):
        raise KifuError(f"{name}: there is no record #{index} (the file has {len(locs)})")
    write_output(output, record_page(locs[index - 1], seat=seat, index=index))
