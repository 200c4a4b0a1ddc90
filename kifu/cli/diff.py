"""``kifu diff``: are two records the same game, and where do they first differ?"""

from __future__ import annotations

import click

from kifu.cli.common import echo_json, handle_errors
from kifu.cli.replay import pick_record
from kifu.notation.diff import diff_records


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--index", type=int, default=1, show_default=True,
              help="Which record of each file (1 = the first).")
@click.option("--json", "as_json", is_flag=True, help="The difference as JSON.")
@handle_errors
def diff(a, b, index, as_json) -> None:
    """Compare the records A and B: headers, then the first ply where the actions differ
    (with both actions and the position before it).

    Exit code 0 when the records are identical, 1 when they differ.
    """
    ra, rb = pick_record(a, index), pick_record(b, index)
    d = diff_records(ra, rb)
    if as_json:
        echo_json(d)
    else:
        if d.identical:
            click.echo("identical")
        else:
            click.echo("same game" if d.same_game else "different games")
            for tag, (va, vb) in d.headers.items():
                click.echo(f"header {tag}: {va!r} | {vb!r}")
            if d.first is not None:
                f = d.first
                click.echo(f"first difference at ply {f.ply}:")
                click.echo(f"  {a}: {f.a or '(end of record)'}")
                click.echo(f"  {b}: {f.b or '(end of record)'}")
                if f.position:
                    click.echo(f"  position before it: {f.position}")
            elif not d.headers:
                click.echo("same tags and actions; comments or layout differ")
            click.echo(f"plies: {d.plies[0]} | {d.plies[1]}")
    if not d.identical:
        raise SystemExit(1)
