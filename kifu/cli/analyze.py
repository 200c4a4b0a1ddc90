"""``kifu analyze``: the CLI of :mod:`kifu.lab.analyze`."""

from __future__ import annotations

import sys

import click

from kifu.cli.common import CliError, handle_errors
from kifu.cli.options import QuestionCommand, option_inputs, output_option, quiet_option
from kifu.cli.scale import executor_options
from kifu.lab.analyze import (
    LEVEL,
    LEVELS,
    RECORDS_PER_CHUNK,
    TOWAI_CARDS,
    Job,
    Limits,
    analyze_records,
    format_report,
    to_json_lines,
)
from kifu.notation.batch import replays
from kifu.notation.files import (
    check_output,
    commit_outputs,
    display_name,
    input_files,
    load_records,
    write_output,
)
from kifu.notation.record import format_records


@click.command("analyze", cls=QuestionCommand,
               short_help="Judge every decision of played records from the player's seat.")
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@click.option("--index", type=click.IntRange(1), default=None, metavar="N",
              help="Only the Nth record of each file (1 = the first).")
@click.option("--records", "which", type=click.Choice(["all"]), default=None,
              help="Every record of each file (the default).")
@click.option("-Q", "--question", "spec", default=None, metavar="Q",
              help="Ask only this question (e.g. double-dummy, or value for the judgement "
                   "from the mover's information alone); default: value and the game's "
                   "exact questions (docs/puzzles.md, Analysis).")
@click.option("--level", type=click.Choice([*LEVELS, "off"]), default=LEVEL, show_default=True,
              help="The evaluator's budget for the value judgement (off: only the exact "
                   "questions).")
@click.option("--seed", type=click.IntRange(0), default=0, show_default=True,
              help="Seed of the value judgement's sampled worlds.")
@click.option("--budget-nodes", type=click.IntRange(1), default=Limits().budget_nodes,
              show_default=True, help="Most positions one search may visit; a ply whose "
                                      "search needs more is not judged.")
@click.option("--budget-seconds", type=click.FloatRange(0, min_open=True), default=None,
              help="Most seconds one search may take (the output then depends on the "
                   "machine).")
@click.option("--dd-cards", type=click.IntRange(1, 30), default=None, metavar="K",
              help="GRAPH-T: judge once every hand holds at most K cards (default: 8, 6, 5 "
                   "for 2, 3, 4 players).")
@click.option("--towai-cards", type=click.IntRange(1, 60), default=TOWAI_CARDS,
              show_default=True, metavar="C",
              help="TOWAI: ask towai-win-round once the hands hold at most C cards.")
@click.option("--every-ply", is_flag=True, help="List every judged ply, not only marked ones.")
@click.option("--json", "as_json", is_flag=True,
              help="JSON lines: one per judged ply, then the record's summary "
                   "(kifu schema analysis).")
@output_option("Write the annotated records (marks and [%value] comments) to FILE "
               "(- = stdout, then no report).")
@executor_options(chunk_size=RECORDS_PER_CHUNK, unit="records")
@quiet_option("No progress bar on stderr.")
@handle_errors
def analyze(files, index, which, spec, level, seed, budget_nodes, budget_seconds, dd_cards,
            towai_cards, every_ply, as_json, output, workers, dask, chunk_size, quiet) -> None:
    """Replay each record of FILE... and judge every player decision with a choice from the
    mover's information (the value judgement: the position's value and the played
    action's in expected pairwise share, the loss with its standard error, the best
    actions; marks ?! inaccuracy, ? mistake, ?? blunder where the loss is clear of the
    sampling noise); where one of the game's exact questions applies, also solve the
    position and compare (?? a forced win thrown away, ? value lost, ! the only winning
    action found where the game's default choice would miss it). Prints the marked plies
    and a summary per seat with an accuracy (0-100); questions that see every hand (double
    dummy) say so.

    Example: kifu analyze games.kifu -o annotated.kifu
    """
    if index is not None and which is not None:
        raise CliError("--index and --records all: give one of them")
    if as_json and output == "-":
        raise CliError("--json and -o -: both would go to stdout; write the records to a file")
    paths = input_files(files)
    inputs = [*paths, *option_inputs()]
    if output is not None:
        check_output(output, inputs=inputs)  # refused now, not after the analysis
    jobs = []
    for path in paths:
        for i, loc in enumerate(load_records(path), 1):
            if index is None or i == index:  # checked as read: the first bad one stops
                jobs.append(Job(replays(loc), display_name(path), i))
        if index is not None and not any(j.file == display_name(path) for j in jobs):
            raise CliError(f"{display_name(path)}: there is no record #{index}")
    limits = Limits(dd_cards=dd_cards, towai_cards=towai_cards, budget_nodes=budget_nodes,
                    budget_seconds=budget_seconds, level=None if level == "off" else level,
                    seed=seed)
    if spec == "value" and level == "off":
        raise CliError("-Q value and --level off: nothing would be judged")
    report = output != "-"
    annotated = []
    with click.progressbar(length=len(jobs), label="records", file=sys.stderr,
                           hidden=quiet) as bar:
        for analysis in analyze_records(jobs, question=spec, limits=limits, workers=workers,
                                        dask=dask, chunk_size=chunk_size,
                                        on_record=lambda: bar.update(1)):
            annotated.append(analysis.record)
            if as_json:
                sys.stdout.buffer.write(to_json_lines(analysis))
                sys.stdout.flush()
            elif report:
                click.echo(format_report(analysis, every_ply=every_ply))
    if output is not None:
        write_output(output, format_records(annotated), inputs=inputs)
        commit_outputs()
        if output != "-" and not quiet:
            click.echo(f"{output}: {len(annotated)} annotated record(s)", err=True)
