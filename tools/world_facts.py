"""Measure how often sampled worlds contradict what a seat knows from the history
(issue 33): over seeded bot games, at every decision of a player, draw worlds for the seat
to move and check each against the facts of ``kifu/games/<game>/worlds.py`` computed on
the real position (TWEAK: the backs each other hand drew; TOWAI: the deck within the
rebuilt pool; Lianxian: tiles known to have gone into the bag only on racks that drew
since).

    python tools/world_facts.py tweak 3 --games 20 --worlds 4 [--sampler FILE]

``--sampler FILE`` loads another ``world_sampler`` (e.g. the one of commit bc460f0:
``git show bc460f0:kifu/games/tweak/worlds.py > /tmp/old.py``). Prints the share of
worlds that contradict a fact, with its 95% Wilson interval, and the CPU time per world.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import time
from collections import Counter

from kifu import games
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.lab.stats import proportion_ci

RULES = {"tweak": "tweak/1;rounds=1", "towai": "towai/1;wins=1", "lianxian": "lianxian/1"}


def _tweak_check(game, state, seat):
    from kifu.games.tweak.cards import DEFAULT_BACKS, split_cards
    from kifu.games.tweak.worlds import back_bounds

    bounds = back_bounds(state, seat, game)
    backs = state.variant.backs or DEFAULT_BACKS

    def bad(world) -> bool:
        hands = world.to_line().split(" ")[5].split("/")
        for p, h in enumerate(hands):
            if p == seat or not bounds or not bounds[p]:
                continue
            got = Counter(backs[c] for c in (split_cards(h) if h != "-" else []))
            if any(got[b] < k for b, k in bounds[p].items()):
                return True
        return False

    return bad, bool(bounds) and any(bounds[p] for p in range(len(bounds)) if p != seat)


def _towai_check(game, state, seat):
    from kifu.games.towai.cards import split_cards
    from kifu.games.towai.worlds import rebuilt_pool

    pool = rebuilt_pool(state, seat, game)

    def bad(world) -> bool:
        if pool is None:
            return False
        deck = world.to_line().split(" ")[5]
        got = Counter(split_cards(deck) if deck != "-" else [])
        return any(k > pool.get(c, 0) for c, k in got.items())

    return bad, pool is not None


def _lianxian_check(game, state, seat):
    from kifu.games.lianxian.worlds import _tiles, rack_history

    known = rack_history(state, seat, game)

    def bad(world) -> bool:
        if known is None:
            return False
        past, entry = known
        f = world.to_line().split(" ")
        racks = [_tiles(r) for r in f[3].split("/")]
        st = f[1].split(":")
        for r, h in past.items():
            aside = _tiles(st[3]) if len(st) >= 4 and st[1] == "swap" and \
                int(st[0][1:]) == r else []
            if not h.possible(racks[r], aside, entry):
                return True
        return False

    return bad, known is not None and bool(known[1])


def towai_voids(game, state, seat):
    """What TOWAI's sampler leaves out (docs/bots.md): every turn of another seat that ended
    by itself (no ``stop``) showed that seat held no card continuing the combo then; per
    such event ``(seat, kinds, acquired)``: the kinds it lacked and the cards it has taken
    into its hand since (draws and Swap receipts). A present hand holding more cards of
    those kinds than it acquired since contradicts the event."""
    from kifu.core.worlds import from_start
    from kifu.games.towai.actions import Deal, Lead, Pass, Play, Stop
    from kifu.games.towai.cards import NUM, TWAI, TYPE
    from kifu.games.towai.state import LEAD, PLAY, SWAP_PHASE

    s = from_start(game, state)
    if s is None:
        return []
    events: list[list] = []
    owner = -1
    for a in state.history:
        mover = s.to_move
        sizes = [s.hand_size(p) for p in range(s.n)]
        was_swap = s.phase == SWAP_PHASE
        if isinstance(a, (Lead, Play)):
            owner = mover
        s.push(a)
        for p in range(s.n):
            grew = s.hand_size(p) - sizes[p]
            got = max(0, grew) + (1 if was_swap and s.phase != SWAP_PHASE and sizes[p] else 0)
            for e in events:
                if e[0] == p:
                    e[2] += got
        if isinstance(a, Deal):
            events = []  # a new deal: new hands
        if isinstance(a, (Stop, Pass, Deal)) or owner < 0:
            owner = -1
            continue
        top = s.field[-1] if s.field else None
        if (top is not None and s.to_move is not None and s.to_move >= 0
                and s.to_move != owner and s.phase in (PLAY, LEAD) and s.hand_size(owner)
                and owner != seat):
            k = NUM[top]
            lacks = {c for c in range(17)
                     if NUM[c] == k and (TYPE[c] == TWAI or TYPE[c] == s.side)}
            events.append([owner, lacks, 0])
            owner = -1
    return events if s.key() == state.key() else []


def _towai_void_check(game, state, seat):
    from kifu.games.towai.cards import split_cards

    events = towai_voids(game, state, seat)

    def bad(world) -> bool:
        hands = world.to_line().split(" ")[3].split("/")
        for p, lacks, acquired in events:
            hand = split_cards(hands[p]) if hands[p] != "-" else []
            if sum(1 for c in hand if c in lacks) > acquired:
                return True
        return False

    return bad, bool(events)


CHECKS = {"tweak": _tweak_check, "towai": _towai_check, "lianxian": _lianxian_check,
          "towai-voids": _towai_void_check}


def measure(gid: str, n: int, deals: int, worlds: int, sampler=None, seed: int = 33,
            cap: int = 3000, mix: bool = False, bot: str | None = None,
            rules: str | None = None) -> dict:
    check_of = CHECKS[gid]
    gid = gid.split("-")[0]
    game = games.get(gid)
    rules = rules or RULES[gid]
    variant = game.parse_rules(rules)
    bad = total = positions = factual = in_fact = 0
    cpu_setup = cpu_draw = 0.0
    for d in range(deals):
        rng = Rng(f"{seed}:{d}")
        state = game.new_state(n, variant)
        bots = [game.bots[bot if bot else "random" if mix and (d + s) % 2 else "greedy"](
            s, rng.fork(s + 1)) for s in range(n)]
        wrng = rng.fork(99)
        ply = 0
        while state.to_move is not None and ply < cap:
            seat = state.to_move
            if seat != DEALER:
                check, has_fact = check_of(game, state, seat)
                t0 = time.process_time()
                draw = (sampler(state, seat, game) if sampler is not None
                        else game.world_sampler(state, seat))
                t1 = time.process_time()
                ws = [draw(wrng) for _ in range(worlds)]
                cpu_setup += t1 - t0
                cpu_draw += time.process_time() - t1
                positions += 1
                factual += has_fact
                for w in ws:
                    total += 1
                    in_fact += has_fact
                    bad += check(w)
                a = bots[seat].choose(state)
            else:
                a = game.chance_action(state, rng)
            state.push(a)
            ply += 1
    iv = proportion_ci(bad, total)
    fv = proportion_ci(bad, in_fact) if in_fact else None
    return {"game": gid, "players": n, "rules": rules,
            "bots": bot or ("greedy, random" if mix else "greedy"), "deals": deals,
            "positions": positions, "worlds": total, "contradicting": bad,
            "share": [iv.estimate, iv.low, iv.high],
            "positions_with_fact": factual, "worlds_with_fact": in_fact,
            "share_with_fact": [fv.estimate, fv.low, fv.high] if fv else None,
            "cpu_us_setup_per_position": 1e6 * cpu_setup / max(positions, 1),
            "cpu_us_per_world_drawn": 1e6 * cpu_draw / max(total, 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", choices=sorted(CHECKS))
    ap.add_argument("players", type=int)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--worlds", type=int, default=4)
    ap.add_argument("--sampler", default=None, help="a worlds.py file to load instead")
    ap.add_argument("--seed", type=int, default=33)
    ap.add_argument("--bot", default=None, help="one bot in every seat (default greedy)")
    ap.add_argument("--mix", action="store_true", help="random in every other seat")
    ap.add_argument("--rules", default=None, help=f"rules (default: {RULES})")
    args = ap.parse_args()
    sampler = None
    if args.sampler:
        spec = importlib.util.spec_from_file_location("old_worlds", args.sampler)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        sampler = mod.world_sampler
    print(json.dumps(measure(args.game, args.players, args.games, args.worlds, sampler,
                             args.seed, mix=args.mix, bot=args.bot, rules=args.rules)))


if __name__ == "__main__":
    main()
