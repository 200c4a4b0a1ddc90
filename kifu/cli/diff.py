"""``kifu diff``: are two records the same game, and where do they first differ?"""

from __future__ import annotations

import click

from kifu.cli.common import echo_json, handle_errors, load_records
from kifu.cli.replay import pick_record
from kifu.core.errors import KifuError
from kifu.notation.diff import diff_records, diff_rules


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="[B]", required=False)
@click.option("--index", type=int, default=1, show_default=True,
              help="Which record of each file (1 = the first).")
@click.option("--rules", default=None, metavar="SPEC",
              help="Replay every record of A under these rules too (e.g. "
                   "'tweak/1;empty_capture=true') and report where the outcomes part.")
@click.option("--json", "as_json", is_flag=True, help="The difference as JSON.")
@handle_errors
def diff(a, b, index, rules, as_json) -> None:
    """Compare the records A and B: headers, then the first ply where the actions differ
    (with both actions and the position before it). With --rules, compare each record of
    A with itself replayed under other rules.

    Exit code 0 when the records are identical (or every outcome is the same under both
    rule sets), 1 when they differ.
    """
    if rules is not None:
        if b is not None:
            raise KifuError("give either B or --rules, not both")
        _diff_rules(a, rules, as_json)
        return
    if b is None:
        raise KifuError("diff needs two records A B, or --rules SPEC")
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


def _diff_rules(path: str, rules: str, as_json: bool) -> None:
    rows = [diff_rules(loc, rules, index=i) for i, loc in enumerate(load_records(path), 1)]
    changed = [r for r in rows if not r.same]
    if as_json:
        echo_json({"rules": rules, "records": len(rows), "changed": len(changed),
                   "diffs": rows})
    else:
        for r in changed:
            if r.ply is not None:
                click.echo(f"#{r.index}: refused under {rules}: {r.error}")
            else:
                click.echo(f"#{r.index}: result {_scores(r.result_a)} -> {_scores(r.result_b)}")
        click.echo(f"{len(changed)} of {len(rows)} record(s) differ under {rules}")
    if changed:
        raise SystemExit(1)


def _scores(scores) -> str:
    return "*" if scores is None else " ".join(str(s) for s in scores)
