"""How often TWEAK ``expert``'s own-seat rollouts make a choice that reads hidden cards
(issue 33, eighth session: strategy fusion in the seat's own rollouts).

The fair ``expert`` rolls its own seat out with ``tactics`` (``greedy`` that also uses its
Thief and Bomb) and the other seats with ``greedy``. ``tactics`` reads the world it plays
in: a Shifter is weighed by the card it turns up and the target that follows, a Thief by
the victim's actual hand, a Bomb by the victims' actual cheapest cards. ``blind``
(:class:`kifu.games.tweak.bots.BlindPolicy`) makes the same choices from the seat's unseen
pool instead. This script plays ``--games`` seeded 4-player one-round games (seeds
``tw8blind:0``, ...) of the default ``expert`` at seat 0 against three ``greedy``, with
``tactics`` replaced, for the run, by a counting copy that plays ``tactics``'s choice (so
the games are today's ``expert``'s) and at every own-seat rollout step also asks ``blind``
and records whether they differ, and why:

- ``steps``: own-seat rollout steps (a decision of the seat in a rollout);
- ``t_usable``: steps where a Shifter, Thief or Bomb may be used (a choice that can read
  hidden cards);
- ``differ``: steps where ``blind`` chooses otherwise, by the kinds of the two choices.

Per root decision (seat 0's real decisions with a choice) it records the same counts, so
the share of root decisions whose rollouts differ at all, and their fraction of steps, can
be read. Prints a summary and writes JSON with ``--out``::

    python tools/tweak_blind_count.py --games 10 --out rows.json

``--root`` asks instead, at every decision of seat 0 with a choice in the same games
(seeds ``tw8root:0``, ...; ``expert`` plays), ``expert:rollout=blind`` (``--bot``) and the cheater
(``expert:cheat=1``, all-seeing), each from its own stream, and counts where the blind
bot's action differs from ``expert``'s and which of the two the cheater picks.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter

from kifu import games
from kifu.bots import make_bot
from kifu.bots.evaluate import shares
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.tweak import bots as tweak_bots
from kifu.games.tweak.actions import UseBomb, UseShifter, UseThief
from kifu.games.tweak.bots import BlindPolicy, TacticsPolicy
from kifu.games.tweak.state import BOMB_PHASE, TURN

RULES = "tweak/1;rounds=1"
SEAT = 0
TEES = (UseShifter, UseThief, UseBomb)
COUNTS: Counter = Counter()


def _kind(a) -> str:
    return {UseShifter: "Shifter", UseThief: "Thief", UseBomb: "Bomb"}.get(type(a), "card")


class CountingTactics(TacticsPolicy):
    """``tactics``'s choice, with ``blind``'s asked beside it and the difference counted."""

    def choose(self, state):
        pick = TacticsPolicy.choose(self, state)
        COUNTS["steps"] += 1
        if state.phase == TURN and not state.tused and any(
                type(a) in TEES for a in state.legal_actions()):
            COUNTS["t_usable"] += 1
            blind = BlindPolicy.choose(self, state)
            if blind != pick:
                COUNTS["differ"] += 1
                COUNTS[f"differ: tactics {_kind(pick)}, blind {_kind(blind)}"] += 1
        return pick


def run(args) -> list[dict]:
    tweak_bots.POLICIES["tactics"] = CountingTactics  # the run's own-seat rollouts
    game = games.get("tweak")
    variant = game.parse_rules(RULES)
    rows: list[dict] = []
    for g in range(args.first, args.first + args.games):
        t0 = time.process_time()
        rng = Rng(f"tw8blind:{g}")
        state = game.new_state(4, variant)
        bots = [make_bot(game, "expert" if p == SEAT else "greedy", p, rng.fork(p + 1))
                for p in range(4)]
        k = 0
        while state.to_move is not None:
            m = state.to_move
            if m == DEALER:
                state.push(game.chance_action(state, rng))
                continue
            choice = m == SEAT and len(state.legal_actions()) > 1
            if choice:
                COUNTS.clear()
                t_root = state.phase == TURN and not state.tused and any(
                    type(a) in TEES for a in state.legal_actions())
            a = bots[m].choose(state)
            if choice:
                rows.append({"game": g, "decision": k, "bomb_victim": state.phase == BOMB_PHASE,
                             "t_usable_at_root": t_root, "action": str(a), **COUNTS})
                k += 1
            state.push(a)
        print(f"game {g}: {k} decisions, seat 0 {shares(state, game.id)[SEAT]:.3f}, "
              f"{time.process_time() - t0:.0f} CPU s", file=sys.stderr, flush=True)
    return rows


def run_root(args) -> list[dict]:
    game = games.get("tweak")
    variant = game.parse_rules(RULES)
    rows: list[dict] = []
    for g in range(args.first, args.first + args.games):
        rng = Rng(f"tw8root:{g}")
        state = game.new_state(4, variant)
        bots = [make_bot(game, "expert" if p == SEAT else "greedy", p, rng.fork(p + 1))
                for p in range(4)]
        blind = make_bot(game, args.bot, SEAT, Rng(f"tw8root:{g}:blind"))
        cheater = make_bot(game, "expert:cheat=1", SEAT, Rng(f"tw8root:{g}:cheater"))
        k = 0
        while state.to_move is not None:
            m = state.to_move
            if m == DEALER:
                state.push(game.chance_action(state, rng))
                continue
            a = bots[m].choose(state)
            if m == SEAT and len(state.legal_actions()) > 1:
                b, c = blind.choose(state), cheater.choose(state)
                t_root = state.phase == TURN and not state.tused and any(
                    type(x) in TEES for x in state.legal_actions())
                rows.append({"game": g, "decision": k, "expert": str(a), "blind": str(b),
                             "cheater": str(c), "t_usable_at_root": t_root})
                k += 1
            state.push(a)
        print(f"game {g}: {k} decisions", file=sys.stderr, flush=True)
    return rows


def report_root(rows: list[dict]) -> str:
    differ = [r for r in rows if r["blind"] != r["expert"]]
    t = [r for r in differ if r["t_usable_at_root"]]
    return "\n".join([
        f"{len({r['game'] for r in rows})} games, {len(rows)} decisions with a choice",
        f"the other bot (blind) differs from expert at {len(differ)} "
        f"({len(differ) / max(len(rows), 1):.1%}; {len(t)} where a Shifter, Thief or Bomb "
        "is usable)",
        f"there the cheater picks blind's action {sum(r['cheater'] == r['blind'] for r in differ)}"
        f", expert's {sum(r['cheater'] == r['expert'] for r in differ)}, another "
        f"{sum(r['cheater'] not in (r['blind'], r['expert']) for r in differ)}",
        f"the cheater differs from expert at {sum(r['cheater'] != r['expert'] for r in rows)},"
        f" from blind at {sum(r['cheater'] != r['blind'] for r in rows)}",
    ])


def report(rows: list[dict]) -> str:
    total: Counter = Counter()
    for r in rows:
        total.update({k: v for k, v in r.items() if isinstance(v, int)
                      and not isinstance(v, bool) and k not in ("game", "decision")})
    steps, usable, differ = total["steps"], total["t_usable"], total["differ"]
    roots = len(rows)
    roots_differ = sum(r.get("differ", 0) > 0 for r in rows)
    lines = [
        f"{len({r['game'] for r in rows})} games, {roots} root decisions with a choice",
        f"own-seat rollout steps: {steps}; with a Shifter, Thief or Bomb usable: {usable} "
        f"({usable / max(steps, 1):.2%}); blind chooses otherwise: {differ} "
        f"({differ / max(steps, 1):.2%} of steps, {differ / max(usable, 1):.1%} of the "
        "usable)",
        f"root decisions whose rollouts differ at least once: {roots_differ} of {roots} "
        f"({roots_differ / max(roots, 1):.1%})",
    ]
    per = sorted((r.get("differ", 0) / r["steps"], i) for i, r in enumerate(rows)
                 if r.get("steps"))
    if per:
        top = [f"{x:.1%}" for x, _ in per[-5:]]
        lines.append(f"the 5 root decisions with the most differing steps: {', '.join(top)}")
    for k in sorted(total):
        if k.startswith("differ: "):
            lines.append(f"  {k}: {total[k]}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--first", type=int, default=0, help="the first game's index")
    ap.add_argument("--out", help="write every root decision's counts as JSON here")
    ap.add_argument("--rows", nargs="+", help="report these JSON files instead of playing")
    ap.add_argument("--bot", default="expert:rollout=blind",
                    help="--root: the bot compared with expert (expert itself: how often "
                    "its own stream alone changes the choice)")
    ap.add_argument("--root", action="store_true",
                    help="compare the root choices of expert:rollout=blind, expert and the "
                    "cheater instead of counting rollout steps")
    args = ap.parse_args()
    if args.root and not args.rows:
        rows = run_root(args)
        if args.out:
            with open(args.out, "w") as f:
                json.dump(rows, f)
        print(report_root(rows))
        return
    if args.rows:
        rows = []
        for path in args.rows:
            with open(path) as f:
                rows += json.load(f)
        if rows and "blind" in rows[0]:
            print(report_root(rows))
            return
    else:
        rows = run(args)
        if args.out:
            with open(args.out, "w") as f:
                json.dump(rows, f)
    print(report(rows))


if __name__ == "__main__":
    main()
