"""``kifu simulate``: play K games under each rule set on the same seeds and report what the
rules change (kifu.lab.simulate does the work; this is the command line)."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator

import click
import msgspec

from kifu import games
from kifu.bots import default_bot
from kifu.cli.common import CliError, handle_errors
from kifu.cli.options import (
    _load_cards,
    output_option,
    positive,
    quiet_option,
    seed_callback,
    with_cards,
)
from kifu.cli.scale import executor_options
from kifu.lab.simulate import GAMES_PER_CHUNK, MAX_PLIES


def _cards(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--cards FILE`` (as every command's), remembering the path: it is an input, so no
    output may be written over it."""
    ctx.meta["kifu.simulate.cards"] = value
    return _load_cards(ctx, param, value)


def _int_seed(ctx: click.Context, param: click.Parameter, value: str) -> int:
    seed = seed_callback(ctx, param, value)
    if not isinstance(seed, int):
        raise CliError(f"--seed: simulate needs an integer seed (game i is played from "
                       f"SEED+i), not {value!r}")
    return seed


def _same(a: str, b: str) -> bool:
    from kifu.notation.files import same_file

    return same_file(a, b)


@contextlib.contextmanager
def _progress(label: str, total: int, quiet: bool) -> Iterator[Callable[[int], None]]:
    """Progress on stderr with an estimate of the time left: click's bar on a terminal;
    otherwise (a log file, a cluster job) one line at each tenth of the work."""
    if quiet:
        yield lambda k: None
        return
    if sys.stderr.isatty():
        with click.progressbar(length=total, label=label, file=sys.stderr,
                               show_eta=True) as bar:
            yield bar.update
        return
    start = time.monotonic()
    done = [0, 0]  # seeds done, tenths reported

    def tick(k: int) -> None:
        done[0] += k
        tenth = done[0] * 10 // total
        if tenth > done[1]:
            done[1] = tenth
            spent = time.monotonic() - start
            left = spent * (total - done[0]) / done[0]
            click.echo(f"{label}: {done[0]}/{total} seeds, {spent:.0f} s, about {left:.0f} s "
                       "left", err=True)

    yield tick


@click.command(short_help="Measure what a rule change does: paired bot games, with intervals.")
@click.argument("game_name", metavar="GAME")
@click.option("-n", "--players", type=int, default=None,
              help="Number of seats (default: the game's usual count: TWEAK, GRAPH-T and "
                   "Lianxian 3, TOWAI and Alice 4).")
@click.option("--games", "count", type=int, default=100, show_default=True,
              callback=positive("--games"), help="Games per rule set (seeds SEED, SEED+1...).")
@click.option("-s", "--seed", default="1", show_default=True, callback=_int_seed,
              help="The first seed (an integer); game i is played from SEED+i under every "
                   "rule set.")
@click.option("--rules", "rules", multiple=True, metavar="SPEC",
              help="A rule set to compare (repeatable; default: the game's default rules).")
@click.option("--set", "sets", multiple=True, metavar="FIELD=VALUE",
              help="Compare the first rule set with itself changed this way (repeatable).")
@click.option("--sweep", default=None, metavar="FIELD=V1,V2,...",
              help="Play the first rule set with FIELD at each value (or FIELD=LO..HI[:STEP]), "
                   "on the same seeds, and compare each value with the first.")
@click.option("--target", default=None, metavar="METRIC<=X",
              help="With --sweep: the value where METRIC meets the target (<=, <, >=, >, =; "
                   "a rate as a share or 45%%), e.g. plies<=80.")
@click.option("--confirm", is_flag=True,
              help="Re-run every called change on the next block of seeds (as many games) "
                   "and say whether it replicates.")
@click.option("--decisiveness", type=click.Choice(["score", "fast", "normal", "deep"]),
              default="score", show_default=True,
              help="How decisiveness is judged: by the score leader, or by the evaluator "
                   "(kifu.bots.evaluate) at this level, at each tenth of every game (costly).")
@click.option("--family", type=click.Choice(["holm", "bh"]), default="holm",
              show_default=True,
              help="How calls are controlled over the report: Holm (any false call at most "
                   "5%) or Benjamini-Hochberg (false calls at most 5% of the calls).")
@click.option("--bots", default=None,
              help="Comma-separated bots, one per seat, or one for every seat (default: "
                   "greedy where the game has it, else random); the strongest is expert "
                   "(kifu games lists every bot).")
@click.option("--cards", "cards", metavar="FILE", default=None, callback=_cards,
              is_eager=True, help="Alice: play every rule set with the card set in FILE.")
@click.option("--max-plies", type=int, default=MAX_PLIES, show_default=True,
              callback=positive("--max-plies"),
              help="Safety cap: a game still going after this many plies is cut and counted.")
@click.option("--json", "as_json", is_flag=True,
              help="The report as JSON (kifu schema simulate).")
@output_option("Also write every game's record (rule set after rule set) to FILE.")
@click.option("--db", default=None, metavar="PATH",
              help="Also import every game's record into this archive (kifu archive).")
@click.option("--html", "html", default=None, metavar="FILE",
              help="Also write a self-contained HTML report with charts to FILE.")
@quiet_option("No progress bar and no archive summary: the report only.")
@executor_options(chunk_size=GAMES_PER_CHUNK, unit="seeds")
@handle_errors
def simulate(game_name, players, count, seed, rules, sets, sweep, target, confirm,
             decisiveness, family, bots, cards, max_plies, as_json, output, db, html, quiet,
             workers, dask, chunk_size) -> None:
    """Play GAME with bots under each rule set, game i from seed SEED+i under every one
    (paired: the same deal wherever the rules allow), and report per rule set the lengths,
    scores, margins, seat win rates with a seat-fairness test and the game's own events;
    the same by position in the turn order (first player, second, ...), game-quality
    measures (lead changes, comebacks, close finishes, decisiveness, decisions, branching,
    forced moves) and the seats' actions by kind; per pair of rule sets, each metric's
    paired difference B - A with its 95% interval and a verdict that calls a change only
    when Holm's procedure over the whole report rejects it (the report says how many calls
    chance alone would make, and marks a call near its edge), and how often the winner
    changes. The report is the same whatever --workers or --dask.

    One --rules plus --set compares those rules with the change; --sweep plays one field
    over several values. Examples:
    kifu simulate tweak --games 2000 --rules tweak/1 --set threshold=60 --confirm;
    kifu simulate towai --games 500 --sweep cap=30..60:10 --target plies<=150
    """
    from kifu.lab import simulate as lab
    from kifu.lab.quality import USUAL_PLAYERS

    game = games.get(game_name)
    if players is None:
        players = USUAL_PLAYERS.get(game.id, game.min_players)
    game.check_players(players)
    if target is not None and sweep is None:
        raise CliError("--target needs --sweep (the value where the target is met)")
    pairs: list[tuple[int, int]] = []
    if sweep is not None:
        from kifu.lab.sweep import parse_sweep, parse_target, sweep_pairs, sweep_specs

        if sets:
            raise CliError("give either --set or --sweep, not both")
        if target is not None:
            parse_target(target)  # refused before any game
        field, values = parse_sweep(sweep)
        specs = sweep_specs(game, lab.rule_sets(game, rules[:1], [])[0], field, values)
        pairs = sweep_pairs(len(specs))
    else:
        specs = lab.rule_sets(game, rules, sets)
    if cards is not None:
        specs = [game.rules_spec(with_cards(game, game.parse_rules(s), cards)) for s in specs]
    names = [b.strip() for b in bots.split(",")] if bots else [default_bot(game)]
    outputs = [p for p in (output, db, html) if p is not None and p != "-"]
    # the cards file (an input) and each output are distinct files
    inputs = [p for p in [click.get_current_context().meta.get("kifu.simulate.cards")] if p]
    for k, path in enumerate(outputs):
        for other in outputs[k + 1:] + inputs:
            if _same(path, other):
                raise CliError(f"{path}: given twice (an output over another output or an "
                               "input); name another file")
    if "-" in (output, db):
        raise CliError("-o and --db need a file, not - (the report goes to stdout)")
    from kifu.notation.files import check_output

    for path in (output, html):
        if path is not None:  # a folder, a read-only file: refused before the games
            check_output(path, inputs=inputs)
    records = output is not None or db is not None
    with _progress(f"simulating {game.id}", count, quiet) as tick:
        sim = lab.simulate(game.id, players, count, seed, specs, names, max_plies=max_plies,
                           records=records, workers=workers, dask=dask,
                           chunk_size=chunk_size, on_progress=tick, pairs=pairs,
                           decisiveness=None if decisiveness == "score" else decisiveness)
    report = lab.analyse(sim, family)
    if sweep is not None:
        from kifu.lab.sweep import answer

        report = answer(report, field, values, target)
    if confirm:
        with _progress(f"confirming on seeds {seed + count}..", count, quiet) as tick:
            report = lab.confirm(sim, report, workers=workers, dask=dask,
                                 chunk_size=chunk_size, on_progress=tick)
    from kifu.notation.files import commit_outputs, on_commit, write_output

    # every output written whole first, then replaced together (docs/cli.md, "Outputs")
    if output is not None:
        write_output(output, lab.records_text(sim), inputs=inputs)
    stored = []
    if db is not None:
        from kifu.archive import Archive
        from kifu.archive.corpus import text_rows

        rows = text_rows(lab.records_text(sim), source="kifu simulate")

        def store() -> None:  # one transaction, at the commit
            with Archive(db) as archive:
                stored.append(archive.add_rows(rows, batch_rows=len(rows) + 1))

        on_commit(store)
    if html is not None:
        from kifu.html.report import simulation_page

        write_output(html, simulation_page(report), inputs=inputs)
    commit_outputs()
    if stored and not quiet:
        click.echo(f"{db}: {stored[0].imported} record(s) imported, {stored[0].duplicates} "
                   f"duplicate(s) skipped", err=True)
    if as_json:
        click.echo(msgspec.json.format(msgspec.json.encode(report), indent=2).decode())
    else:
        click.echo(lab.format_text(report), nl=False)
