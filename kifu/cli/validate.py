"""``kifu validate``: replay every record of every file and report what is wrong."""

from __future__ import annotations

import json

import click

from kifu.cli.common import handle_errors
from kifu.cli.options import cards_option, quiet_option
from kifu.cli.scale import executor_options
from kifu.notation.batch import CHUNK_RECORDS, FileSummary, Validation
from kifu.notation.files import input_files


@click.command(short_help="Check that records are well formed and legal.")
@click.argument("files", nargs=-1, required=True, metavar="FILE|DIR...")
@click.option("--all", "report_all", is_flag=True,
              help="Go on after the first bad record and report every one.")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON report for all files, written as the records are checked.")
@cards_option(use=False)
@quiet_option("Print errors only (no per-file summary).")
@executor_options(chunk_size=CHUNK_RECORDS, unit="records")
@handle_errors
def validate(files, report_all, as_json, quiet, workers, dask, chunk_size) -> None:
    """Check that every record in FILE... is well formed and legal, action by action. A DIR
    is searched (recursively, sorted) for .kifu, .json and .ndjson files, as import does.

    Exit code 0 when every record is valid, 1 when one is not. Each error is one line:
    FILE:LINE:COL: ply N: ACTOR 'ACTION': what is wrong [rule ...]; legal: ...
    """
    run = Validation(report_all=report_all, every=as_json, workers=workers, dask=dask,
                     chunk_records=chunk_size)
    first = True
    if as_json:
        click.echo('{"records": [')
    for item in run.run(input_files(files)):
        if isinstance(item, FileSummary):
            if not as_json and not quiet:
                click.echo(f"{item.path}: {item.ok} of {item.count} record(s) valid")
        elif as_json:
            click.echo(("" if first else ",") + json.dumps(item, ensure_ascii=False))
            first = False
        else:
            click.echo(item["error"], err=True)
    if as_json:
        click.echo(f'], "ok": {"false" if run.bad else "true"}, "checked": {run.checked}}}')
    if run.bad:
        raise SystemExit(1)
