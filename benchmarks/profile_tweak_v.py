"""Where TWEAK's default ``expert`` (V, the exact posterior bot) spends its time: a
cProfile of seeded one-round 4-player games, V in one seat (rotating) against three
``greedy`` (every seat profiled, V's decisions nearly all of it), printed as each named
function's cumulative share of the profiled time; for the engine's ``push``,
``legal_actions`` and ``greedy``'s choice, also split by caller (rollouts, replays, ...).
Shares overlap (cumulative). Not a test and no bound: the record behind
docs/performance.md, *Tenth session*. Run it in a checkout of another commit for a
before/after pair: ``python -m benchmarks.profile_tweak_v [GAMES]`` (default 3)."""

from __future__ import annotations

import cProfile
import pstats
import sys

from kifu import games
from kifu.bots import make_bots
from kifu.core.game import DEALER
from kifu.core.rng import Rng

NAMES = ("choose", "posterior_draw", "replay_weighted", "consistent_start", "chain",
         "suspects", "carry", "world", "decode", "sample_rows", "run", "solve_world",
         "greedy_action", "push", "legal_actions", "copy", "_deal", "view", "pop")
SPLIT = ("greedy_action", "push", "legal_actions", "copy")


def play(seed: str, seat: int) -> None:
    """One seeded game, ``expert`` in ``seat``, ``greedy`` elsewhere."""
    game = games.get("tweak")
    state = game.new_state(4, game.parse_rules("tweak/1;rounds=1"))
    rng = Rng(seed)
    dealer = rng.fork(0)
    names = ["greedy"] * 4
    names[seat] = "expert"
    seats = make_bots(game, names, rng)
    while state.to_move is not None:
        m = state.to_move
        state.apply(game.chance_action(state, dealer) if m == DEALER else seats[m].choose(state))


def main(n: int = 3) -> None:
    pr = cProfile.Profile()
    pr.enable()
    for g in range(n):
        play(f"prof:{g}", g % 4)
    pr.disable()
    st = pstats.Stats(pr)
    total = st.total_tt  # type: ignore[attr-defined]
    print(f"profiled {total:.2f} s, {n} games")
    rows = []
    for (f, _line, name), (_cc, nc, _tt, ct, callers) in st.stats.items():  # type: ignore[attr-defined]
        if name in NAMES and "kifu" in f:
            where = f.split("kifu/")[-1]
            text = f"{where}:{name} calls={nc} cum={ct:.2f} s ({100 * ct / total:.0f}%)"
            if name in SPLIT:
                by = sorted(((c[2], v[3]) for c, v in callers.items()), key=lambda x: -x[1])[:5]
                text += " by " + ", ".join(f"{who}={t:.2f}" for who, t in by)
            rows.append((-ct, text))
    for _k, text in sorted(rows):
        print(text)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
