"""Where TWEAK's fair ``expert`` and its cheater choose differently, and what each
difference is worth (issue 33, seventh session; the TOWAI diagnosis of the sixth session
made a kept script for TWEAK, 4 players, one round).

Over ``--games`` seeded games (seeds ``tw7diag:0``, ``tw7diag:1``, ...) of ``expert`` at
seat 0 against three ``greedy``, at every decision of seat 0 with more than one legal
action it asks, in the same position, the cheater (``expert:cheat=1``: the true
position, all-seeing) and the hands rung (``expert:cheat=hands``: every hand seen, the
deck's order drawn again; all-seeing), each from its own stream, and records the three
choices and the choice of ``greedy`` in the true position. At each disagreement
(the cheater's action differs from ``expert``'s) it values both actions four ways
(the cheater's minus the fair bot's):

- *play-on*: the game played to its end from each action with the same bots (a fresh fair
  ``expert`` at seat 0, ``greedy`` elsewhere), ``--playons`` times with common seeds (the
  same bot and dealer streams on both branches), seat 0's final pairwise share: what
  the fair bot itself gets from each;
- *all-seeing* (labelled: it reads every card): the cheater's own measure, the true
  position played on with its rollouts (``tactics`` for the seat, ``greedy`` for the
  others), the share alone;
- *hands* (labelled: all-seeing but the deck): the same rollouts in the true position
  with the deck's order drawn again in each;
- *fair estimate*: the seat's own value from its sampled worlds (the same rollouts).

Each value uses the first stage's worlds of TWEAK's ``normal`` level (96). It prints the
count table per decision kind and the value table per disagreement class, and writes
every decision as JSON (``--out``) for re-analysis::

    python tools/tweak_disagree.py --games 20 --playons 4 --out rows.json

``--versus hands`` values the disagreements of the hands rung with ``expert`` instead
(where the hands are worth something to the fair bot's play); the class then names the
hands rung's side first, and the agreement column counts the cheater's choices.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict

import msgspec
import numpy as np

from kifu import games
from kifu.bots import make_bot
from kifu.bots.evaluate import level_of, sample_rows, shares
from kifu.bots.profiles import profile
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.tweak.actions import (
    Capture,
    Pass,
    Place,
    UseBomb,
    UseJoker,
    UseShifter,
    UseThief,
)
from kifu.games.tweak.state import BOMB_PHASE
from kifu.lab.stats import bootstrap_means

RULES = "tweak/1;rounds=1"
SEAT = 0
T_KINDS = ("Joker", "Shifter", "Thief", "Bomb")


def kind(state, a) -> str:
    """The kind of ``a`` in ``state``: a TWEAK (a capture of the whole table), capture,
    place (a Bomb victim's card: gift), a T! card's name, or pass."""
    if isinstance(a, Capture):
        return "TWEAK" if sorted(a.taken) == sorted(state.table) else "capture"
    if isinstance(a, Place):
        return "gift" if state.phase == BOMB_PHASE else "place"
    if isinstance(a, UseJoker):
        return "Joker"
    if isinstance(a, UseShifter):
        return "Shifter"
    if isinstance(a, UseThief):
        return "Thief"
    if isinstance(a, UseBomb):
        return "Bomb"
    if isinstance(a, Pass):
        return "pass"
    return type(a).__name__


def decision_kind(state) -> str:
    """What seat 0 decides: a Bomb victim's card, a turn's start where a T! card may be
    used, or the turn's card (a T! already used or none usable)."""
    if state.phase == BOMB_PHASE:
        return "Bomb victim's card"
    legal = state.legal_actions()
    if any(kind(state, a) in T_KINDS for a in legal):
        return "turn start, a T! card usable"
    return "the turn's card"


def disagreement_class(ck: str, ek: str) -> str:
    """The class of a disagreement from the kinds of the cheater's and ``expert``'s
    actions."""
    cards = ("TWEAK", "capture")
    if ck == "gift":
        return "Bomb victim: another card"
    if ck in T_KINDS and ek in T_KINDS:
        return f"T!: the cheater a {ck}, expert a {ek}" if ck != ek else \
            f"T!: the same {ck}, another victim or sign"
    if ck in T_KINDS:
        return f"the cheater uses a {ck}, expert plays its card"
    if ek in T_KINDS:
        return f"expert uses a {ek}, the cheater plays its card"
    if ck in cards and ek in cards:
        if ck == "TWEAK" or ek == "TWEAK":
            return "capture: a TWEAK against another capture"
        return "capture: another capture"
    if ck in cards:
        return f"the cheater captures ({ck}), expert places"
    if ek in cards:
        return f"expert captures ({ek}), the cheater places"
    return "place: another card"


def level(game):
    """TWEAK ``expert``'s ``normal`` level (the profile's override)."""
    lvl = level_of(game, "normal")
    over = (profile(game.id).expert.get("levels") or {}).get(lvl.name)
    return msgspec.structs.replace(lvl, **over) if over else lvl


def values(game, state, acts, lvl, seed: str, omniscient: bool, hands: bool = False):
    """The mean share (margin 0) of each of ``acts`` over the level's first stage."""
    rows, _ = sample_rows(game, state, SEAT, acts, lvl, Rng(seed), omniscient, 0.0,
                          hands=hands, policy="tactics", others="greedy")
    return [float(np.mean([r[i] for r in rows])) for i in range(len(acts))]


def play_on(game, state, action, tag: str) -> float:
    """Seat 0's final share after ``action``, the game played on by a fresh ``expert`` at
    seat 0 and ``greedy`` elsewhere from the streams of ``tag``."""
    s = state.copy()
    s.push(action)
    rng = Rng(tag)
    bots = [make_bot(game, "expert" if p == SEAT else "greedy", p, rng.fork(p + 1))
            for p in range(s.n)]
    while s.to_move is not None:
        m = s.to_move
        s.push(game.chance_action(s, rng) if m == DEALER else bots[m].choose(s))
    return shares(s, game.id)[SEAT]


def run(args) -> list[dict]:
    game = games.get("tweak")
    variant = game.parse_rules(RULES)
    lvl = level(game)
    out: list[dict] = []
    for g in range(args.first, args.first + args.games):
        t0 = time.process_time()
        rng = Rng(f"tw7diag:{g}")
        state = game.new_state(4, variant)
        bots = [make_bot(game, "expert" if p == SEAT else "greedy", p, rng.fork(p + 1))
                for p in range(4)]
        cheater = make_bot(game, "expert:cheat=1", SEAT, Rng(f"tw7diag:{g}:cheater"))
        hands = make_bot(game, "expert:cheat=hands", SEAT, Rng(f"tw7diag:{g}:hands"))
        greedy = make_bot(game, "greedy", SEAT, Rng(0))
        rows_here: list[dict] = []
        k = 0
        while state.to_move is not None:
            m = state.to_move
            if m == DEALER:
                state.push(game.chance_action(state, rng))
                continue
            a = bots[m].choose(state)
            if m == SEAT and len(state.legal_actions()) > 1:
                c = cheater.choose(state)
                h = hands.choose(state)
                gr = greedy.choose(state)
                row = {"game": g, "decision": k, "kind": decision_kind(state),
                       "versus": args.versus,
                       "expert": str(a), "cheater": str(c), "hands": str(h), "greedy": str(gr),
                       "e_kind": kind(state, a), "c_kind": kind(state, c),
                       "hand": len(state.hands[SEAT]), "deck": len(state.deck_left()),
                       "table": len(state.table), "held": len(state.held[SEAT]),
                       "fewest": min(len(state.hands[p]) for p in range(4) if p != SEAT),
                       "target": state.target}
                row["h_kind"] = kind(state, h)
                x = c if args.versus == "cheater" else h
                if x != a:
                    xk = row["c_kind"] if args.versus == "cheater" else row["h_kind"]
                    row["class"] = disagreement_class(xk, row["e_kind"])
                    tag = f"tw7diag:{g}:{k}"
                    row["playon"] = [[play_on(game, state, y, f"{tag}:play:{j}")
                                      for j in range(args.playons)] for y in (x, a)]
                    row["seeing"] = values(game, state, [x, a], lvl, f"{tag}:see", True)
                    row["hands_value"] = values(game, state, [x, a], lvl, f"{tag}:hands",
                                                True, hands=True)
                    row["fair"] = values(game, state, [x, a], lvl, f"{tag}:fair", False)
                rows_here.append(row)
                k += 1
            state.push(a)
        final = shares(state, game.id)[SEAT]
        for row in rows_here:
            row["final"] = final
        out += rows_here
        n_dis = sum("class" in r for r in rows_here)
        print(f"game {g}: {len(rows_here)} decisions, {n_dis} disagreements, seat 0 "
              f"{final:.3f}, {time.process_time() - t0:.0f} CPU s", file=sys.stderr,
              flush=True)
    return out


def _ci(xs: list[float]) -> str:
    if len(xs) < 2:
        return f"{xs[0]:+.3f}" if xs else "-"
    iv = bootstrap_means(np.array(xs, dtype=float)[:, None])[0]
    return f"{iv.estimate:+.3f} [{iv.low:+.3f}, {iv.high:+.3f}]"


def report(rows: list[dict]) -> str:
    """The two tables (markdown)."""
    games_ = len({r["game"] for r in rows})
    vs = rows[0].get("versus", "cheater") if rows else "cheater"
    x, third = ("cheater", "hands") if vs == "cheater" else ("hands", "cheater")
    xname = "the cheater" if vs == "cheater" else "the hands rung"
    tname = "the hands rung" if vs == "cheater" else "the cheater"
    lines = [f"| decisions of seat 0 with a choice | decisions | {xname} chooses "
             f"otherwise | `expert` leaves `greedy`'s choice | {xname} leaves it |",
             "|---|---|---|---|---|"]
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_kind[r["kind"]].append(r)
    for name, rs in [*sorted(by_kind.items()), ("all", rows)]:
        lines.append(f"| {name} | {len(rs)} | {sum('class' in r for r in rs)} | "
                     f"{sum(r['expert'] != r['greedy'] for r in rs)} | "
                     f"{sum(r[x] != r['greedy'] for r in rs)} |")
    lines += ["", f"| disagreement ({xname}'s action vs `expert`'s) | n | play-on, x - e "
              "[95%] | all-seeing, x - e | hands (all-seeing but the deck), x - e | fair "
              f"estimate, x - e | {tname} chooses as x / as e | play-on summed, a "
              "game |", "|---|---|---|---|---|---|---|---|"]
    dis = [r for r in rows if "class" in r]
    by_class: dict[str, list[dict]] = defaultdict(list)
    for r in dis:
        by_class[r["class"].replace("the cheater", xname)].append(r)

    def diff(r: dict, key: str) -> float:
        v = r[key]
        if key == "playon":
            return float(np.mean(v[0]) - np.mean(v[1]))
        return v[0] - v[1]

    order = sorted(by_class, key=lambda c: -sum(diff(r, "playon") for r in by_class[c]))
    for name, rs in [(c, by_class[c]) for c in order] + [("**all**", dis)]:
        po = [diff(r, "playon") for r in rs]
        lines.append(
            f"| {name} | {len(rs)} | {_ci(po)} | {_ci([diff(r, 'seeing') for r in rs])} | "
            f"{_ci([diff(r, 'hands_value') for r in rs])} | "
            f"{_ci([diff(r, 'fair') for r in rs])} | "
            f"{sum(r[third] == r[x] for r in rs)} / "
            f"{sum(r[third] == r['expert'] for r in rs)} | {sum(po) / games_:+.3f} |")
    finals = {r["game"]: r["final"] for r in rows}
    lines.append("")
    lines.append(f"{games_} games, {len(rows)} decisions with a choice, {len(dis)} "
                 f"disagreements; seat 0's mean final share {np.mean(list(finals.values())):.3f}")
    for key, edges in (("hand", (1, 2, 3)), ("deck", (0, 10, 20)), ("fewest", (0, 1, 2))):
        parts = []
        for lo, hi in zip(edges, [*edges[1:], 99], strict=True):
            rs = [r for r in rows if lo <= r[key] < hi]
            ds = [r for r in rs if "class" in r]
            parts.append(f"{lo}{'' if hi == lo + 1 else ('+' if hi == 99 else f'-{hi - 1}')}:"
                         f" {len(ds)} of {len(rs)} "
                         f"({sum(diff(r, 'playon') for r in ds) / games_:+.3f} a game)")
        lines.append(f"By {key}: " + "; ".join(parts))
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--first", type=int, default=0, help="the first game's index")
    ap.add_argument("--playons", type=int, default=4)
    ap.add_argument("--out", help="write every decision as JSON here")
    ap.add_argument("--versus", choices=("cheater", "hands"), default="cheater",
                    help="whose disagreements with expert are valued (default the cheater)")
    ap.add_argument("--rows", nargs="+", help="report these JSON files instead of playing")
    args = ap.parse_args()
    if args.rows:
        rows = []
        for path in args.rows:
            with open(path) as f:
                rows += json.load(f)
    else:
        rows = run(args)
        if args.out:
            with open(args.out, "w") as f:
                json.dump(rows, f)
    print(report(rows))


if __name__ == "__main__":
    main()
