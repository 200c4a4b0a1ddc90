"""``kifu diff``: are two records the same game, and where do they first differ?"""

from __future__ import annotations

import functools

import click

from kifu import games
from kifu.cli.common import echo_json, handle_errors
from kifu.cli.options import quiet_option
from kifu.cli.replay import pick_record
from kifu.cli.scale import executor_options
from kifu.core.errors import KifuError
from kifu.notation.batch import Stop, iter_file
from kifu.notation.diff import (
    RulesDiff,
    RulesSummary,
    diff_records,
    renumber_rules_diff,
    rules_diff_record,
    summarize_rules,
)


@click.command(short_help="Compare two records, or a corpus under two rule sets.")
@click.argument("a", metavar="A")
@click.argument("b", metavar="[B]", required=False)
@click.option("--index", type=int, default=1, show_default=True,
              help="Which record of each file (1 = the first).")
@click.option("--rules", default=None, metavar="SPEC",
              help="Replay every record of A under these rules too (e.g. "
                   "'tweak/1;empty_capture=true') and report where the outcomes part.")
@click.option("--set", "sets", multiple=True, metavar="FIELD=VALUE",
              help="Replay every record of A under its own rules with this field changed "
                   "(repeatable; with --rules, changes those rules).")
@click.option("--json", "as_json", is_flag=True, help="The difference as JSON.")
@executor_options(chunk_size=64, unit="records")
@quiet_option("Only the verdict: the first line (with --rules/--set, the summary line).")
@handle_errors
def diff(a, b, index, rules, sets, as_json, workers, dask, chunk_size, quiet) -> None:
    """Compare the records A and B: headers, then the first ply where the actions differ
    (with both actions and the position before it). With --rules SPEC or --set FIELD=VALUE,
    replay each record of A under its own rules and under the other rules, and compare the
    legality of every action, every intermediate position and the result: say for each
    record whether the game ends sooner there (with the result and winner), ends another
    way, is refused at an action those rules forbid, or cannot be replayed (a different
    deck); then a summary (kinds, winners changed, mean length before and after). To
    measure how play itself would change, use kifu simulate.

    Exit code 0 when the records are identical (or nothing changes under the other rules),
    1 when they differ. Example: kifu diff corpus.kifu --set grey_open=anyone
    """
    if rules is not None or sets:
        if b is not None:
            raise KifuError("give either B or --rules/--set, not both")
        if rules is not None:  # a bad spec is refused before any record is read
            games.get(rules.partition(";")[0].partition("/")[0]).parse_rules(rules)
        _diff_rules(a, rules, sets, as_json, workers=workers, dask=dask, chunk_size=chunk_size,
                    quiet=quiet)
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
            if d.same_game:
                click.echo("the same game (the archive stores it once): only comments or "
                           "layout differ")
            elif d.same_setup:
                click.echo("same game, rules and players; different records")
            else:
                click.echo("different game, rules or players")
            if quiet:
                raise SystemExit(1)
            for tag, (va, vb) in d.headers.items():
                click.echo(f"header {tag}: {va!r} | {vb!r}")
            if d.first is not None:
                f = d.first
                click.echo(f"first difference at ply {f.ply}:")
                click.echo(f"  {a}: {f.a or '(end of record)'}")
                click.echo(f"  {b}: {f.b or '(end of record)'}")
                if f.position:
                    click.echo(f"  position before it: {f.position}")

            click.echo(f"plies: {d.plies[0]} | {d.plies[1]}")
    if not d.identical:
        raise SystemExit(1)


def _diff_rules(path: str, rules: str | None, sets: tuple[str, ...], as_json: bool, *,
                workers: int = 1, dask: str | None = None, chunk_size: int = 64,
                quiet: bool = False) -> None:
    label = " ".join(([rules] if rules else []) + [f"--set {x}" for x in sets])
    # each record replayed under both rule sets, on the executor seam (workers read their
    # own chunks of the file); the rows come back in record order, so the report is the
    # same on any executor
    rows = []
    for item in iter_file(path, functools.partial(rules_diff_record, rules, sets),
                          workers=workers, dask=dask, chunk_records=chunk_size,
                          renumber=renumber_rules_diff):
        if isinstance(item, int):
            break
        if isinstance(item, Stop):  # an unreadable or invalid record: the run stops
            raise KifuError(item.report["error"])
        rows.append(item[1])
    changed = [r for r in rows if r.outcome_changed]
    differ = [r for r in rows if not r.same]
    summary = summarize_rules(rows)
    if as_json:
        echo_json({"rules": label, "records": len(rows), "changed": len(changed),
                   "differ": len(differ), "summary": summary, "diffs": rows})
    else:
        for line in [] if quiet else _record_lines(differ):
            click.echo(line)
        click.echo(f"{len(differ)} of {len(rows)} record(s) differ under {label} "
                   f"({len(changed)} change outcome)")
        for line in [] if quiet else _summary_lines(summary, rows):
            click.echo(line)
    if differ:
        raise SystemExit(1)


def _record_lines(differ: list[RulesDiff]) -> list[str]:
    """One line a record that changes; the records the other rules cannot replay (their
    deal is impossible there) are told once, with the first one's error."""
    out = []
    for r in differ:
        earlier = "" if r.position_ply is None else \
            f" (the positions differ from ply {r.position_ply})"
        under = f"under {r.changes}"
        why = f" {r.reason}" if r.reason else ""
        if r.kind == "sooner":
            out.append(f"#{r.index}: ends at ply {r.plies_b} {under} (was {r.plies_a}): "
                       f"result {_scores(r.result_b)}, {_winner_words(r)}")
        elif r.kind == "round_over":
            which = f"round {r.round_b}" if r.round_b else "the round"
            out.append(f"#{r.index}: {which} ends{why} at ply {(r.ply or 1) - 1} {under}, "
                       f"where the record went on (to ply {r.plies_a}); how play would go "
                       "on from the next deal is unknown")
        elif r.kind == "refused":
            out.append(f"#{r.index}: refused at ply {r.ply} {under}, an action those rules "
                       f"forbid{earlier}: {r.error}")
        elif r.kind == "unfinished":
            out.append(f"#{r.index}: not over at the record's end (ply {r.plies_a}) {under}"
                       f"{earlier}; result {_scores(r.result_a)} under its own rules")
        elif r.kind == "result":
            out.append(f"#{r.index}: result {_scores(r.result_a)} -> {_scores(r.result_b)} "
                       f"{under}{earlier}, {_winner_words(r)}")
        elif r.kind == "positions":
            out.append(f"#{r.index}: same result; the positions differ after ply "
                       f"{r.position_ply}: {r.position_a} | {r.position_b}")
    lost = [r for r in differ if r.kind == "unreplayable"]
    if lost:
        out.append(f"#{lost[0].index}" + (f" and {len(lost) - 1} more" if len(lost) > 1 else "")
                   + f": not replayable under {lost[0].changes}, the dealer's action is "
                   f"impossible there: {lost[0].error}")
    return out


def _winner_words(r: RulesDiff) -> str:
    if r.winners_b is None:
        return "no winner"

    def seats(which: tuple[int, ...]) -> str:  # "p1 Bob" where the record names its players
        return ", ".join(f"p{s} {r.names[s]}" if s < len(r.names) and r.names[s] else f"p{s}"
                         for s in which)

    now = "winner " + seats(r.winners_b)
    if r.winner_changed and r.winners_a is not None:
        return now + " (was " + seats(r.winners_a) + ")"
    return now + " (unchanged)"


def _summary_lines(s: RulesSummary, rows: list[RulesDiff]) -> list[str]:
    k = s.kinds
    words = {"unchanged": "unchanged", "positions": "same result by other positions",
             "result": "another result", "sooner": "end sooner",
             "round_over": "a round ends sooner",
             "unfinished": "not over at their end", "refused": "refused at an action",
             "unreplayable": "not replayable"}
    out = ["summary: " + ", ".join(f"{k[name]} {words[name]}" for name in words
                                    if k[name] or name in ("unchanged", "refused",
                                                           "unreplayable", "sooner"))]
    if s.with_results:
        out.append(f"winners changed in {s.winners_changed} of the {s.with_results} record(s) "
                   "with a result under both")
    if s.mean_plies_a is not None:
        out.append(f"mean length {s.mean_plies_a} -> {s.mean_plies_b} plies (the records "
                   "that end under both)")
    example = rows[0] if rows else None
    hint = ""
    if example is not None:
        game = example.rules_a.partition("/")[0]
        fields = example.changes.split(";")
        if example.changes != example.rules_b and not any(
                f.endswith("=default") for f in fields):
            change = " ".join(f"--set {f}" for f in fields)
        else:
            change = f"--rules '{example.rules_b}'"
        hint = f"kifu simulate {game} -n {example.players} --rules '{example.rules_a}' {change}"
    if k["unreplayable"]:
        out.append("the dealer's deal is impossible under the other rules (a different deck): "
                   f"this corpus cannot be replayed under them; try {hint}")
    elif k["refused"] or k["unfinished"] or k["round_over"]:
        out.append("a record shows only the play that happened: where the other rules part "
                   f"from it, what players would do is unknown; to play it out, try {hint}")
    elif rows and k["unchanged"] == len(rows):
        out.append("every action stays legal and every outcome is the same: a record cannot "
                   "show how players would use the new freedom; to measure how play changes, "
                   f"try {hint}")
    return out


def _scores(scores) -> str:
    return "*" if scores is None else " ".join(str(s) for s in scores)
