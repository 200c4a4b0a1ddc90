"""A ``kifu match`` run in pieces, for slow bots on a shared machine (issue 33, seventh
session): ``run`` plays deals ``--first``..``--last``-1 of a seed (each under every
seating, exactly as ``kifu match`` plays deal i from the seed '<seed>:<i>') and writes
their outcomes; ``merge`` builds the ``kifu match --json`` report of all the pieces (the
same report as one run over those deals, per-deal shares included).

    python tools/match_chunks.py run --game towai --players 4 --set wins=1 \\
        --bots expert:posterior=1,greedy,greedy,greedy --seed 2026 --first 0 --last 5 \\
        -o /tmp/part0.json
    python tools/match_chunks.py merge /tmp/part*.json -o report.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import msgspec

from kifu import games
from kifu.cli.common import parse_variant_options
from kifu.lab.match import GameOutcome, Tally, _play_chunk, seatings


def write_atomic(path: str, text: str) -> None:
    """``text`` to ``path`` through a temporary file in the same folder."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


class Part(msgspec.Struct):
    game: str
    rules: str
    bots: list[str]
    players: int
    seed: str
    deals: list[list[GameOutcome]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--game", required=True)
    r.add_argument("--players", type=int, required=True)
    r.add_argument("--set", action="append", default=[])
    r.add_argument("--bots", required=True)
    r.add_argument("--seed", required=True)
    r.add_argument("--first", type=int, required=True)
    r.add_argument("--last", type=int, required=True)
    r.add_argument("-o", "--output", required=True)
    m = sub.add_parser("merge")
    m.add_argument("parts", nargs="+")
    m.add_argument("-o", "--output", default="-")
    args = ap.parse_args()
    if args.cmd == "run":
        game = games.get(args.game)
        variant = parse_variant_options(game, None, tuple(args.set))
        spec = game.rules_spec(variant)
        bots = args.bots.split(",")
        seats = seatings(bots, args.players)
        out = _play_chunk((game.id, spec, seats, args.seed, args.first, args.last, False,
                           "-"))
        part = Part(game.id, spec, bots, args.players, args.seed, [o for o, _ in out])
        write_atomic(args.output, msgspec.json.encode(part).decode())
        return
    parts = [msgspec.json.decode(Path(p).read_bytes(), type=Part) for p in args.parts]
    first = parts[0]
    deals = sorted((d for p in parts for d in p.deals), key=lambda d: d[0].deal)
    if len({d[0].deal for d in deals}) != len(deals):
        sys.exit("match_chunks: a deal is in two parts")
    tally = Tally(first.bots, first.players)
    for d in deals:
        tally.add(d)
    report = tally.report(first.game, first.rules, first.bots, first.seed)
    text = json.dumps(msgspec.to_builtins(report), ensure_ascii=False, indent=2) + "\n"
    if args.output == "-":
        print(text)
    else:
        write_atomic(args.output, text)


if __name__ == "__main__":
    main()
