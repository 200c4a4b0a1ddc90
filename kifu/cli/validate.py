"""``kifu validate``: replay every record of every file and report what is wrong."""

from __future__ import annotations

import click

from kifu.cli.common import echo_json, handle_errors, load_records
from kifu.core.errors import KifuError, NotationError
from kifu.notation.puzzle import check_located_puzzle, is_puzzle, records_or_puzzles
from kifu.notation.replay import ReplayError
from kifu.notation.replay import replay as replay_record


@click.command()
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--all", "report_all", is_flag=True,
              help="Go on after the first bad record and report every one.")
@click.option("--json", "as_json", is_flag=True, help="One JSON report for all files.")
@click.option("-q", "--quiet", is_flag=True, help="Print errors only.")
@handle_errors
def validate(files, report_all, as_json, quiet) -> None:
    """Check that every record in FILE... is well formed and legal, action by action.

    Exit code 0 when every record is valid, 1 when one is not. Each error is one line:
    FILE:LINE:COL: ply N: ACTOR 'ACTION': what is wrong [rule ...]; legal: ...
    """
    reports = []
    bad = 0
    for path in files:
        count = ok = 0
        try:
            for loc in records_or_puzzles(path, load_records):
                count += 1
                try:
                    if is_puzzle(loc.record.headers) and not loc.record.moves:
                        check_located_puzzle(loc)  # a puzzle block (docs/puzzles.md)
                    else:
                        replay_record(loc)
                    ok += 1
                    reports.append({"file": loc.path, "record": count, "ok": True})
                except KifuError as e:
                    bad += 1
                    reports.append(_error_report(loc.path, count, e))
                    if not as_json:
                        click.echo(str(e), err=True)
                    if not report_all:
                        break
        except NotationError as e:  # a syntax error stops the reading of that file
            bad += 1
            reports.append(_error_report(e.path or path, count + 1, e))
            if not as_json:
                click.echo(str(e), err=True)
        if not as_json and not quiet:
            click.echo(f"{path}: {ok} of {count} record(s) valid")
        if bad and not report_all:
            break
    if as_json:
        echo_json({"ok": bad == 0, "records": reports})
    if bad:
        raise SystemExit(1)


def _error_report(path: str, index: int, e: KifuError) -> dict:
    report = {"file": path, "record": index, "ok": False, "error": str(e)}
    if isinstance(e, NotationError):
        report.update(line=e.line, col=e.col, message=e.message)
    if isinstance(e, ReplayError):
        report.update(ply=e.ply, rule=e.rule, legal=list(e.legal))
    return report
