"""``kifu match``: bots against each other over many deals (kifu/lab/match.py)."""

from __future__ import annotations

import datetime
import sys

import click

from kifu import games
from kifu.cli.common import echo_json, handle_errors, parse_variant_options
from kifu.cli.options import (
    cards_option,
    option_inputs,
    positive,
    quiet_option,
    seed_callback,
    variant_options,
    with_cards,
)
from kifu.cli.scale import executor_options
from kifu.core.errors import VariantError
from kifu.lab.match import Tally, play_match, report_text
from kifu.notation.files import check_output, commit_outputs, write_output


@click.command(short_help="Rank bots by playing them against each other, seats permuted.")
@click.argument("game_name", metavar="GAME")
@click.option("--bots", "bots", required=True,
              help="Comma-separated bots for the seats in order, repeated to fill them, "
                   "e.g. pimc,greedy or 'pimc:worlds=16,ismcts:iters=200'. Every game has "
                   "random, greedy, pimc[:worlds=N:actions=N:z=X] and "
                   "ismcts[:iters=N:worlds=N:c=X:actions=N]; kifu games lists the rest and "
                   "each game's defaults. With kifu[openspiel]: openspiel-ismcts[:sims=N] "
                   "and the all-seeing openspiel-mcts[:sims=N] (docs/interop.md).")
@click.option("-n", "--players", type=int, default=None,
              help="Number of seats (default: one per bot).")
@click.option("--games", "deals", type=int, default=100, show_default=True,
              callback=positive("--games"),
              help="Deals; each is played once under every seating of the bots.")
@click.option("-s", "--seed", default="0", show_default=True, callback=seed_callback,
              help="Seed of the match: deal i is played from the seed '<seed>:<i>'.")
@variant_options
@cards_option(use=True)
@executor_options(chunk_size=None, unit="deals")
@click.option("--json", "as_json", is_flag=True,
              help="Write the report as JSON (its schema: kifu schema match), with every "
                   "deal's shares per seating and bot (per_deal: two runs on one --seed "
                   "pair deal by deal, python -m kifu.lab.paired).")
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Also write every game's record to FILE (written whole at the end).")
@quiet_option("No progress bar.", old=("--silent",))
@handle_errors
def match(game_name, bots, players, deals, seed, rules, sets, cards, workers, dask,
          chunk_size, as_json, output, quiet) -> None:
    """Play the bots against each other in GAME over --games deals, each deal once under
    every seating: every distinct order of the bots around the table (at most 24), or a
    Williams design past that (each bot once in each seat, right before each other bot
    equally often). Report per bot the games, pairwise share (1 = ahead of every other
    seat, 0.5 = even; TOWAI's losers ordered by cards left), mean rank, win rate and mean
    score with 95% intervals that stay inside their range, an Elo rating with its
    interval, and every pair of bots head to head. The report is the same with any
    --workers, and its memory does not grow with --games (without -o).

    Example: kifu match graph-t --players 3 --bots pimc,greedy --games 200 --workers 2
    """
    inputs = option_inputs()  # --cards: the record file must not land on it
    if output is not None:
        check_output(output, inputs=inputs)  # refused now, not after the games
    game = games.get(game_name)
    names = [b.strip() for b in bots.split(",")]
    if any(not b for b in names):
        raise VariantError(f"--bots {bots!r}: an empty bot name")
    players = players if players is not None else len(names)
    game.check_players(players)
    variant = with_cards(game, parse_variant_options(game, rules, sets), cards)
    spec = game.rules_spec(variant)
    date = datetime.date.today().strftime("%Y.%m.%d")
    tally, texts = Tally(names, players), []  # running figures: memory flat in --games
    with click.progressbar(length=deals, label=f"match {game.id}", file=sys.stderr,
                           hidden=quiet) as bar:
        for deal, recs in play_match(game.id, names, players=players, deals=deals, seed=seed,
                                     rules=spec, workers=workers, dask=dask,
                                     chunk_size=chunk_size, records=output is not None,
                                     date=date, on_deal=lambda _: bar.update(1)):
            tally.add(deal)
            texts += recs
    report = tally.report(game.id, spec, names, seed)
    if output is not None:
        write_output(output, "\n".join(texts), inputs=inputs)
        commit_outputs()
    if as_json:
        echo_json(report)
        return
    click.echo(report_text(report), nl=False)
