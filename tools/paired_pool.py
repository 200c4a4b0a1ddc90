"""Paired statistics pooled over several seeds (issue 33, seventh session): for each
seed, a new bot's ``kifu match --json`` report, the base bot's and (with ``--cheat``) the
cheater's on the same deals; every deal of every seed is one cluster of the percentile
bootstrap (:mod:`kifu.lab.paired`'s statistic, deal by deal).

    python tools/paired_pool.py --bot BOT --base expert --cheat expert:cheat=1 \\
        NEW-2036.json:BASE-2036.json:CHEAT-2036.json NEW-2037.json:BASE-2037.json:CHEAT-2037.json

Prints the new bot's mean share e, the paired difference e - base and the gap
2e - c - 0.5, each with its 95% interval over the pooled deals.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from kifu.core.command import reader_gone
from kifu.lab.paired import DIFFERENCE_RANGE, GAP_RANGE, RESAMPLES, deal_shares
from kifu.lab.stats import bootstrap_means


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", required=True, help="the new bot's name in its reports")
    ap.add_argument("--base", default="expert")
    ap.add_argument("--cheat", default="expert:cheat=1")
    ap.add_argument("--alias", action="append", default=[], metavar="FILE=BOT",
                    help="the bot's name in that report, where it differs from --bot, "
                         "--base or --cheat (e.g. seed 2032's cheater report)")
    ap.add_argument("runs", nargs="+", metavar="NEW:BASE[:CHEAT]")
    args = ap.parse_args()
    alias = dict(a.split("=", 1) for a in args.alias)
    if len({run.count(":") for run in args.runs} & {1, 2}) > 1:
        ap.error("give a cheater report (NEW:BASE:CHEAT) for every run or for none: "
                 "a gap over only some of the deals would not be the pooled gap")
    rows = []
    itself = True  # every run's bot against itself in the same report: no difference
    for run in args.runs:
        paths = run.split(":")
        if len(paths) not in (2, 3) or (missing := [p for p in paths if not Path(p).is_file()]):
            ap.error(f"{run}: expected NEW:BASE[:CHEAT] naming existing reports"
                     + (f" ({', '.join(missing)} not found)" if len(paths) in (2, 3) else ""))
        try:
            new, base = (json.loads(Path(p).read_text()) for p in paths[:2])
            e = deal_shares(new, alias.get(paths[0], args.bot))
            b = deal_shares(base, alias.get(paths[1], args.base))
            c = (deal_shares(json.loads(Path(paths[2]).read_text()),
                             alias.get(paths[2], args.cheat))
                 if len(paths) > 2 else None)
        except (OSError, ValueError) as err:  # unreadable, not JSON, a bot not in it, no deals
            ap.error(f"{run}: {err}")
        itself = itself and paths[0] == paths[1] and (alias.get(paths[0], args.bot)
                                                      == alias.get(paths[1], args.base))
        for d in sorted(set(e) & set(b) & (set(c) if c is not None else set(e))):
            rows.append([e[d], e[d] - b[d], 2 * e[d] - c[d] - 0.5 if c is not None else np.nan])
    if not rows:
        ap.error("the reports share no deal (same --seed, rules and players?)")
    data = np.array(rows)
    names = ["e", f"e - {args.base}", f"2e - {args.cheat} - 0.5"]
    # the ranges of a share, a difference and the gap: where every deal gives the same
    # value the interval is Wilson's at one trial a deal within them (kifu.lab.paired's)
    ivs = bootstrap_means(data, resamples=RESAMPLES, seed=0,
                          bounds=[(0.0, 1.0), DIFFERENCE_RANGE, GAP_RANGE])
    try:
        for name, iv in zip(names, ivs, strict=True):
            if np.isnan(iv.estimate):
                continue  # no cheater report given: no gap to print
            if itself and name == names[1]:  # the pooled share alone was asked for
                print(f"{name}: +0.000 (each report against itself, nothing to compare)",
                      flush=True)
                continue
            print(f"{name}: {iv.estimate:+.3f} [{iv.low:+.3f}, {iv.high:+.3f}] over "
                  f"{len(rows)} deals", flush=True)
    except BrokenPipeError:  # the reader went away (| head -1): stop quietly
        reader_gone()
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
