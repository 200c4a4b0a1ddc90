"""``kifu play``: bots play complete games and write their records."""

from __future__ import annotations

import datetime
import sys

import click

from kifu import games
from kifu.bots import default_bot
from kifu.cli import options as opt
from kifu.cli.common import handle_errors, parse_variant_options
from kifu.core.errors import VariantError
from kifu.lab.play import play_record
from kifu.notation.files import check_output, write_output
from kifu.notation.record import Record, format_record, record_to_json


@click.command(short_help="Let bots play GAME from a seed and write the records.")
@click.argument("game_name", metavar="GAME")
@click.option("-n", "--players", type=int, required=True, help="Number of seats.")
@click.option("-s", "--seed", default="0", show_default=True, callback=opt.seed_callback,
              help="Seed of the deal and the bots: a plain integer, or a text without "
                   "control characters.")
@click.option("--bot", "bot", default=None,
              help="One bot for every seat (default: greedy, else random).")
@click.option("--bots", "bots", default=None,
              help="Comma-separated bots, one per seat, e.g. ai,ai,random or "
                   "pimc:worlds=16,greedy. Every game has random, greedy, "
                   "pimc[:worlds=N:actions=N:z=X] and ismcts[:iters=N:worlds=N:c=X:actions=N]; "
                   "kifu games lists the rest and each game's defaults.")
@opt.variant_options
@opt.cards_option(use=True)
@click.option("--games", "count", type=int, default=1, show_default=True,
              callback=opt.positive("--games"),
              help="Play this many games, with seeds SEED, SEED+1, ... (int seeds).")
@click.option("--names", "player_names", default=None, metavar="A,B,...",
              help="The players' names, one per seat (the Players header; default: the "
                   "bots' names). The bots are then kept in a Bots header.")
@click.option("--date", default=None, callback=opt.date_callback,
              help="Date tag, YYYY.MM.DD or ????.??.?? (default: today).")
@click.option("--json", "as_json", is_flag=True, help="Write JSON (one record a line).")
@click.option("-o", "--output", default="-", show_default=True,
              help="File to write (- for stdout); written whole or not at all.")
@opt.quiet_option("No progress bar.", old=("--silent",))
@handle_errors
def play(game_name, players, seed, bot, bots, rules, sets, cards, count, player_names, date,
         as_json, output, quiet) -> None:
    """Let bots play GAME from a seed and write the record(s).

    The record holds every dealer action explicitly (the seed only chooses them), so it
    replays with no RNG. Example: kifu play tweak --players 3 --seed 7 -o g.kifu
    """
    inputs = opt.option_inputs()
    check_output(output, inputs=inputs)
    game = games.get(game_name)
    game.check_players(players)
    variant = opt.with_cards(game, parse_variant_options(game, rules, sets), cards)
    if bots and bot:
        raise VariantError("give --bot or --bots, not both")
    if bots:
        names = [b.strip() for b in bots.split(",")]
        if len(names) != players:
            raise VariantError(f"--bots names {len(names)} bots for {players} players")
    else:
        default = default_bot(game)
        names = [bot or default] * players
    people = parse_names(player_names, players)
    date = date or datetime.date.today().strftime("%Y.%m.%d")
    if count > 1:
        if not isinstance(seed, int):
            raise VariantError("--games needs an integer --seed")
        seeds: list[int | str] = [seed + i for i in range(count)]
    else:
        seeds = [seed]
    chunks = []
    with click.progressbar(seeds, label=f"playing {game.id}", file=sys.stderr,
                           hidden=quiet or count < 10) as bar:
        for s in bar:
            record = play_record(game, names, s, variant, date=date)
            if people is not None:
                record = named(record, people, names)
            if as_json:
                chunks.append(record_to_json(record).decode() + "\n")
            else:
                chunks.append(format_record(record))
    text = "".join(chunks) if as_json else "\n".join(chunks)
    write_output(output, text, inputs=inputs)


def parse_names(text: str | None, players: int) -> list[str] | None:
    """``--names A,B,C``: one name a seat, each non-empty and without a comma (the
    ``Players`` header separates names by commas), in NFC as the reader stores them."""
    if text is None:
        return None
    from kifu.notation.record import nfc

    names = [nfc(n.strip()) for n in text.split(",")]
    if len(names) != players:
        raise VariantError(f"--names gives {len(names)} name(s) for {players} players")
    for k, n in enumerate(names):
        if not n:
            raise VariantError(f"--names: the name of seat p{k} is empty")
        if any(c in n for c in '"[]{}\n\r\\'):
            raise VariantError(f"--names: the name of seat p{k} ({n!r}) may not hold "
                               "quotes, brackets, braces or line breaks")
    return names


def named(record: Record, people: list[str], bots: list[str]) -> Record:
    """``record`` with ``people`` as its players, the bots that played each seat kept in a
    ``Bots`` header (right after the roster headers)."""
    headers: dict[str, str] = {}
    for k, v in record.headers.items():
        headers[k] = ", ".join(people) if k == "Players" else v
        if k == "Result" or (k == "Date" and "Result" not in record.headers):
            headers["Bots"] = ", ".join(bots)
    headers.setdefault("Bots", ", ".join(bots))
    record.headers = headers
    return record
