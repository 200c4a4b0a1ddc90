"""How much soft inference tells a seat about the other hands (issue 33, third session:
TOWAI; fourth: TWEAK with ``--game tweak``): over seeded one-round games of ``--bot`` in
every seat (``greedy``, the model's own policy, unless told),
at every 7th decision, draw worlds for the seat to move, plainly and with
:func:`kifu.bots.inference.inferred_draw` under each setting, and measure the share of the
other seats' cards that a world puts in the right hand (1 = every hand known, as
``expert:cheat=hands`` sees them). Prints per setting the mean share over positions with a
95% interval (Student's t over positions), its difference from the sampler's paired
position by position, and the CPU ms per position.

    python tools/inference_overlap.py --games 8 --worlds 60
    python tools/inference_overlap.py --game tweak --games 8 --worlds 60

With ``--deviations`` it counts how often ``--bot`` itself leaves the game's default
choice (``python tools/inference_overlap.py --game tweak --bot pimc --games 6
--deviations``). With ``--records FILE...`` (the ``-o`` records of ``kifu match`` runs
with one ``expert`` seat) it prints instead, per file, how often that seat played
something other than the game's default choice (its ``greedy`` bot's) at a decision with
more than one action.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter

from kifu import games
from kifu.bots import make_bot
from kifu.bots.inference import inferred_draw
from kifu.bots.profiles import profile
from kifu.core.game import DEALER
from kifu.core.rng import Rng

RULES = {"towai": "towai/1;wins=1", "tweak": "tweak/1;rounds=1"}
"""The one-round rules each game is measured under (as its ladders are)."""

TWEAK_SETTINGS = [
    ("sampler (no inference)", None),
    ("infer=0.1 window=3 factor=2", {"eps": 0.1, "window": 3, "factor": 2}),
    ("infer=0.1 window=8 factor=2", {"eps": 0.1, "window": 8, "factor": 2}),
    ("infer=0.1 window=8 factor=4", {"eps": 0.1, "window": 8, "factor": 4}),
    ("infer=0.2 window=8 factor=4", {"eps": 0.2, "window": 8, "factor": 4}),
    ("infer=0.1 window=8 factor=4 ess=0.5", {"eps": 0.1, "window": 8, "factor": 4,
                                             "ess": 0.5}),
    ("infer=0.1 window=16 factor=4", {"eps": 0.1, "window": 16, "factor": 4}),
    ("infer=0.1 window=8 factor=16", {"eps": 0.1, "window": 8, "factor": 16}),
    ("infer=0.1 window=8 weigh=1 (weighted mean)", {"eps": 0.1, "window": 8, "factor": 1,
                                                    "weigh": True}),
    ("infer=0.3 window=8 weigh=1 (weighted mean)", {"eps": 0.3, "window": 8, "factor": 1,
                                                    "weigh": True}),
    ("infer=0.3 window=8 factor=2", {"eps": 0.3, "window": 8, "factor": 2}),
]
"""TWEAK's settings (``--game tweak``)."""

SETTINGS = [
    ("sampler (no inference)", None),
    ("infer=0.1 window=8 factor=2", {"eps": 0.1, "window": 8, "factor": 2}),
    ("infer=0.1 window=16 factor=2", {"eps": 0.1, "window": 16, "factor": 2}),
    ("infer=0.1 window=16 factor=2 ess=0.5", {"eps": 0.1, "window": 16, "factor": 2,
                                              "ess": 0.5}),
    ("infer=0.03 window=40 factor=4 assume=1", {"eps": 0.03, "window": 40, "factor": 4,
                                                "assume": True}),
    ("infer=0.03 window=40 factor=32 assume=1", {"eps": 0.03, "window": 40, "factor": 32,
                                                 "assume": True}),
]


def _hand(state, p: int):
    """Seat ``p``'s hand as card codes (TOWAI: ``hand_cards``; TWEAK: ``hands``)."""
    return state.hand_cards(p) if hasattr(state, "hand_cards") else state.hands[p]


def _overlap(world, state, seat) -> float:
    ok = total = 0
    for p in range(state.n):
        if p != seat:
            a, b = Counter(_hand(world, p)), Counter(_hand(state, p))
            ok += sum((a & b).values())
            total += sum(b.values())
    return ok / total if total else 1.0


def deviations(path: str) -> tuple[int, int]:
    """(decisions with a choice, those where the ``expert`` seat left the default)."""
    from kifu.bots.evaluate import default_action
    from kifu.notation.files import load_records
    from kifu.notation.replay import replay

    dev = total = 0
    for loc in load_records(path):
        rp = replay(loc)
        players = loc.record.headers["Players"].split(", ")
        seat = next(i for i, p in enumerate(players) if p.startswith("expert"))
        state = rp.game.new_state(rp.state.n, rp.state.variant)
        for a in rp.actions:
            if state.to_move == seat and len(state.legal_actions()) > 1:
                total += 1
                dev += a != default_action(rp.game, state, seat)
            state.push(a)
    return total, dev


def played_deviations(game, variant, bot: str, games_: int, players: int) -> tuple[int, int]:
    """(decisions with a choice, those where the seat left the game's default choice) over
    ``games_`` seeded one-round games of ``bot`` in every seat: how often the policy the
    inference models (epsilon-greedy on the default) is left by ``bot`` itself."""
    from kifu.bots.evaluate import default_action

    dev = total = 0
    for g in range(games_):
        rng = Rng(f"dev:{g}")
        state = game.new_state(players, variant)
        bots = [make_bot(game, bot, s, rng.fork(s + 1)) for s in range(players)]
        while state.to_move is not None:
            mover = state.to_move
            if mover == DEALER:
                state.push(game.chance_action(state, rng))
                continue
            action = bots[mover].choose(state)
            if len(state.legal_actions()) > 1:
                total += 1
                dev += action != default_action(game, state, mover)
            state.push(action)
    return total, dev


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=sorted(RULES), default="towai")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--worlds", type=int, default=60)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bot", default="greedy",
                    help="the bot every seat plays (default greedy: the model's own policy)")
    ap.add_argument("--records", nargs="+", metavar="FILE")
    ap.add_argument("--deviations", action="store_true",
                    help="count instead how often --bot leaves the default choice in "
                         "--games games of --bot in every seat")
    args = ap.parse_args()
    if args.records:
        for path in args.records:
            total, dev = deviations(path)
            print(f"{path}: left the default at {dev} of {total} decisions "
                  f"({dev / total:.3f})")
        return
    game = games.get(args.game)
    variant = game.parse_rules(RULES[args.game])
    prof = profile(args.game)
    settings = TWEAK_SETTINGS if args.game == "tweak" else SETTINGS
    if args.deviations:
        total, dev = played_deviations(game, variant, args.bot, args.games, args.players)
        print(f"{args.bot}: left the default at {dev} of {total} decisions "
              f"({dev / total:.3f})")
        return
    shares: dict[str, list[float]] = {name: [] for name, _ in settings}
    cpu: dict[str, list[float]] = {name: [] for name, _ in settings}
    for g in range(args.games):
        rng = Rng(f"overlap:{g}")
        state = game.new_state(args.players, variant)
        bots = [make_bot(game, args.bot, s, rng.fork(s + 1)) for s in range(args.players)]
        k = 0
        while state.to_move is not None:
            mover = state.to_move
            if mover == DEALER:
                state.push(game.chance_action(state, rng))
                continue
            if k % 7 == 6:
                for name, opts in settings:
                    r = Rng(g * 10_000 + k)
                    t = time.process_time()
                    got = None
                    if opts is not None:
                        got = inferred_draw(
                            game, state, mover, prof.rewind, args.worlds, r,
                            eps=opts["eps"], window=opts["window"], factor=opts["factor"],
                            ess=opts.get("ess", 0.0), weigh=opts.get("weigh", False),
                            propose=prof.propose if opts.get("assume") else None)
                    draw = got[0] if got is not None else game.world_sampler(state, mover)
                    worlds = [draw(r) for _ in range(args.worlds)]
                    cpu[name].append(1000 * (time.process_time() - t))
                    ws = got[1].get("weights") if got is not None else None
                    if not ws or not any(ws):  # (weigh=1: the weighted mean)
                        ws = [1.0] * len(worlds)
                    shares[name].append(sum(x * _overlap(w, state, mover) for x, w in
                                            zip(ws, worlds, strict=True)) / sum(ws))
            k += 1
            state.push(bots[mover].choose(state))
    for name, _ in settings:
        xs = shares[name]
        m = statistics.mean(xs)
        half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
        base = shares[settings[0][0]]
        ds = [x - y for x, y in zip(xs, base, strict=True)]
        dm = statistics.mean(ds)
        dh = 1.96 * statistics.stdev(ds) / math.sqrt(len(ds))
        print(f"{name}: {m:.3f} [{m - half:.3f}, {m + half:.3f}] over {len(xs)} positions, "
              f"paired - sampler {dm:+.3f} [{dm - dh:+.3f}, {dm + dh:+.3f}]; "
              f"{statistics.median(cpu[name]):.1f} ms CPU a position (median)")


if __name__ == "__main__":
    main()
