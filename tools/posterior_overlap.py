"""How much the exact posterior (:mod:`kifu.bots.posterior`, assuming ``greedy``
opponents) tells a seat about the other hands (issue 33, seventh session): the positions
of ``tools/inference_overlap.py`` (seeded all-``greedy`` one-round TOWAI games, every 7th
decision), the share of the other seats' cards a world puts in the right hand, for the
seat's sampler and for the posterior, paired position by position; the CPU seconds of
each position's chains, how many chains found a start and the proposals accepted.

    python tools/posterior_overlap.py --games 8 --worlds 60
    python tools/posterior_overlap.py --game tweak --games 8 --worlds 60

``--game tweak``: the same measure on one-round TWEAK games (its hook
:mod:`kifu.games.tweak.posterior`). ``--climb`` bounds the replays of each chain's climb
to a start (positions where no chain finds one keep the sampler's value, counted).

Also checks, all-seeing, that the true filling is consistent at every position (it must
be: the games are played by ``greedy``).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time

from kifu import games
from kifu.bots import make_bot
from kifu.bots.inference import inferred_draw
from kifu.bots.posterior import posterior_fillings
from kifu.bots.profiles import profile
from kifu.core.game import DEALER
from kifu.core.rng import Rng

sys.path.insert(0, "tools")
from inference_overlap import RULES, _overlap


def _ci(xs: list[float]) -> tuple[float, float, float]:
    m = statistics.mean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, m - h, m + h


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=("towai", "tweak"), default="towai")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--worlds", type=int, default=60)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--chains", type=int, default=4)
    ap.add_argument("--burn", type=int, default=200)
    ap.add_argument("--thin", type=int, default=10)
    ap.add_argument("--climb", type=int, default=20_000,
                    help="replays tried to find each chain's start")
    ap.add_argument("--salt", type=int, default=0,
                    help="another seed for the chains (independent starts)")
    ap.add_argument("--compare", action="store_true",
                    help="also the third session's best soft inference (infer=0.03 "
                         "window=40 factor=32 assume=1), paired")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    game = games.get(args.game)
    variant = game.parse_rules(RULES[args.game])
    prof = profile(args.game)
    rows = []
    for g in range(args.games):
        rng = Rng(f"overlap:{g}")
        state = game.new_state(args.players, variant)
        bots = [make_bot(game, "greedy", s, rng.fork(s + 1)) for s in range(args.players)]
        k = 0
        while state.to_move is not None:
            mover = state.to_move
            if mover == DEALER:
                state.push(game.chance_action(state, rng))
                continue
            if k % 7 == 6:
                r = Rng(g * 10_000 + k)
                draw = game.world_sampler(state, mover)
                base = statistics.mean(_overlap(draw(r), state, mover)
                                       for _ in range(args.worlds))
                t = time.process_time()
                h = prof.hidden(game, state, mover)
                assert h is not None
                true_ok = h.replay(h.true_cards(state))[0] == h.steps
                stats: dict = {}
                fills = posterior_fillings(h, Rng(g * 10_000 + k + 1_000_000 * args.salt),
                                           args.worlds,
                                           chains=args.chains, burn=args.burn,
                                           thin=args.thin, climb=args.climb,
                                           stats=stats)
                worlds = [h.world(f, r) for f in fills]
                cpu = time.process_time() - t
                post = statistics.mean(_overlap(w, state, mover) for w in worlds) \
                    if worlds else base
                nc = max(1, stats.get("chains", 0))
                per_chain = [statistics.mean(_overlap(w, state, mover) for w in worlds[c::nc])
                             for c in range(nc)] if worlds else []
                soft = None
                if args.compare:
                    r2 = Rng(g * 10_000 + k)
                    got = inferred_draw(game, state, mover, prof.rewind, args.worlds, r2,
                                        eps=0.03, window=40, factor=32,
                                        propose=prof.propose)
                    d2 = got[0] if got is not None else game.world_sampler(state, mover)
                    soft = statistics.mean(_overlap(d2(r2), state, mover)
                                           for _ in range(args.worlds))
                rows.append({"game": g, "decision": k, "steps": h.steps, "true_ok": true_ok,
                             "per_chain": per_chain, "soft": soft,
                             "sampler": base, "posterior": post, "cpu_s": cpu,
                             "chains": stats.get("chains", 0),
                             "accept": stats.get("moved", 0) / max(1, stats.get("tried", 0))})
                print(f"g{g} k{k} steps {h.steps} sampler {base:.3f} posterior {post:.3f} "
                      f"chains {stats.get('chains', 0)} accept {rows[-1]['accept']:.3f} "
                      f"{cpu:.2f}s", file=sys.stderr)
            k += 1
            state.push(bots[mover].choose(state))
    s_m = _ci([r["sampler"] for r in rows])
    p_m = _ci([r["posterior"] for r in rows])
    d_m = _ci([r["posterior"] - r["sampler"] for r in rows])
    out = {"positions": len(rows), "sampler": s_m, "posterior": p_m, "paired": d_m,
           "cpu_s_median": statistics.median(r["cpu_s"] for r in rows),
           "cpu_s_total": sum(r["cpu_s"] for r in rows),
           "true_consistent": all(r["true_ok"] for r in rows),
           "no_start": sum(1 for r in rows if not r["chains"]),
           "accept_mean": statistics.mean(r["accept"] for r in rows),
           "chain_spread": statistics.mean(statistics.pstdev(r["per_chain"]) for r in rows
                                           if len(r["per_chain"]) > 1),
           "rows": rows,
           "args": vars(args)}
    if args.compare:
        out["soft"] = _ci([r["soft"] for r in rows])
        out["paired_soft"] = _ci([r["posterior"] - r["soft"] for r in rows])
    if args.json:
        json.dump(out, sys.stdout, indent=1)
        return
    print(f"sampler: {s_m[0]:.3f} [{s_m[1]:.3f}, {s_m[2]:.3f}] over {len(rows)} positions")
    print(f"posterior: {p_m[0]:.3f} [{p_m[1]:.3f}, {p_m[2]:.3f}], paired - sampler "
          f"{d_m[0]:+.3f} [{d_m[1]:+.3f}, {d_m[2]:+.3f}]; {out['cpu_s_median']:.2f} s CPU a "
          f"position (median), {out['cpu_s_total']:.0f} s in all; accepted "
          f"{out['accept_mean']:.3f} of proposals; positions without a start "
          f"{out['no_start']}; true filling consistent everywhere: {out['true_consistent']}")


if __name__ == "__main__":
    main()
