"""``kifu replay``: the position after N plies of a record."""

from __future__ import annotations

import click

from kifu.cli.common import echo_json, handle_errors, load_records
from kifu.core.errors import KifuError
from kifu.core.game import actor_name
from kifu.notation.record import format_record
from kifu.notation.replay import legal_texts
from kifu.notation.replay import replay as replay_record


def pick_record(path: str, index: int):
    for i, loc in enumerate(load_records(path), 1):
        if i == index:
            return loc
    raise KifuError(f"{path}: there is no record #{index}")


@click.command("replay")
@click.argument("file", metavar="FILE")
@click.option("--ply", type=int, default=None,
              help="Stop after this many actions (default: the whole record; "
                   "negative counts from the end).")
@click.option("--index", type=int, default=1, show_default=True,
              help="Which record of the file (1 = the first).")
@click.option("-f", "--format", "fmt", default="text", show_default=True,
              type=click.Choice(["text", "position", "json", "record"]),
              help="text: a picture for people; position: the one-line position; json: "
                   "position, legal actions and result; record: the record so far, canonical.")
@click.option("--seat", type=int, default=None,
              help="Show only what this seat can see (hidden cards as ?).")
@handle_errors
def replay(file, ply, index, fmt, seat) -> None:
    """Replay a record of FILE and show the position after --ply actions.

    Example: kifu replay g.kifu --ply 10 --format position
    """
    loc = pick_record(file, index)
    total = len(loc.record.moves)
    upto = None if ply is None else (ply if ply >= 0 else max(0, total + ply))
    if upto is not None and upto > total:
        raise KifuError(f"{loc.path}: the record has {total} plies, not {upto}")
    rep = replay_record(loc, upto=upto)
    state, game = rep.state, rep.game
    done = total if upto is None else upto
    if seat is not None and not 0 <= seat < state.n:
        raise KifuError(f"there is no seat {seat} in a {state.n}-player game")
    line = state.view(seat) if seat is not None else state.to_line()
    if fmt == "position":
        click.echo(line)
    elif fmt == "record":
        rec = loc.record
        from kifu.notation.record import Record

        part = Record(dict(rec.headers), rec.moves[:done], rec.comment)
        if done < total:
            part.headers["Result"] = "*"
        click.echo(format_record(part), nl=False)
    elif fmt == "json":
        result = state.result()
        mover = state.to_move
        echo_json({
            "game": game.id,
            "rules": game.rules_spec(state.variant),
            "ply": done,
            "to_move": None if mover is None else actor_name(mover),
            "position": line,
            "legal": list(legal_texts(game, state)) if seat is None or seat == mover else [],
            "result": None if result is None else {"scores": result.scores,
                                                   "ranks": result.ranks},
        })
    else:
        click.echo(f"{loc.path} #{index}, after ply {done} of {total}")
        click.echo(state.render() if seat is None else line)
        if seat is None:
            click.echo(f"position: {line}")
