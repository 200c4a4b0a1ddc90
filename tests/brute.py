"""Deliberately naive brute forces for the puzzle questions, to cross-check the solver.

Plain recursion over ``copy()`` + ``apply`` (every action checked), no pruning, no tables,
no ordering, and no use of ``kifu.puzzles``: a TWEAK and the end of a turn are read from the
position *before* the action (the mover, the phase, the table), not from the engine's undo
snapshot as the solver does. Also random small positions for the tests.
"""

from __future__ import annotations

from fractions import Fraction

from kifu import games
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.graph_t.cards import (
    IS_TOP,
    G,
    deck_codes,
    hand_text,
    plays_text,
)
from kifu.games.tweak.actions import Capture, Pass, Place
from kifu.games.tweak.cards import TOKEN

TWEAK = games.get("tweak")
GRAPH_T = games.get("graph-t")
TURN_PHASES = {"T", "B", "S"}


def _children(st):
    """(action, probability or None, child state) for every action; None if a shuffle."""
    if st.to_move == DEALER:
        outs = st.chance_outcomes()
        if outs is None:
            return None
        acts = outs
    else:
        acts = [(a, None) for a in st.legal_actions()]
    out = []
    for a, p in acts:
        c = st.copy()
        c.apply(a)
        out.append((a, p, c))
    return out


def _play_info(st, a, player):
    """(the action ends ``player``'s turn, it is a TWEAK), judged before it is played."""
    in_turn = st.to_line().split()[1][0] == "T"
    if not (in_turn and st.to_move == player):
        return False, False
    if type(a) is Capture:
        return True, bool(a.taken) and len(a.taken) == len(st.table)
    return type(a) in (Place, Pass), False


def _in_turn(st):
    return st.to_line().split()[1][0] in TURN_PHASES


# --- tweak-this-turn --------------------------------------------------------------------


def this_turn_probability(st, player) -> Fraction:
    kids = _children(st)
    if not kids:
        return Fraction(0)
    vals = []
    for a, p, c in kids:
        ended, tweak = _play_info(st, a, player)
        v = Fraction(1) if tweak else Fraction(0) if ended else this_turn_probability(c, player)
        vals.append((p, v))
    if st.to_move == DEALER:
        return sum((p * v for p, v in vals), Fraction(0))
    if st.to_move == player:
        return max(v for _, v in vals)
    return min(v for _, v in vals)


def this_turn_possible(st, player) -> bool:
    kids = _children(st)
    if not kids:
        return False
    for a, _, c in kids:
        ended, tweak = _play_info(st, a, player)
        if tweak or (not ended and this_turn_possible(c, player)):
            return True
    return False


def this_turn_answer(st) -> tuple[str, list[str]]:
    """The answer text and each first action's, as the question writes them."""
    player = st.mover

    def text(p, possible):
        if p == 1:
            return "forced"
        if p > 0 or possible:
            return f"possible p={p}"
        return "no"

    def value(s):
        return text(this_turn_probability(s, player), this_turn_possible(s, player))

    per = []
    for a, _, c in _children(st) or []:
        ended, tweak = _play_info(st, a, player)
        per.append("forced" if tweak else "no" if ended else value(c))
    return value(st), per


# --- tweak-within N -----------------------------------------------------------------------


def within_forced(st, player, turns_left) -> bool:
    if not _in_turn(st):
        return False
    kids = _children(st)
    if not kids:
        return False
    results = []
    for a, _, c in kids:
        ended, tweak = _play_info(st, a, player)
        if tweak:
            r = True
        elif ended and turns_left == 1:
            r = False
        else:
            r = within_forced(c, player, turns_left - 1 if ended else turns_left)
        results.append(r)
    return any(results) if st.to_move == player else all(results)


def within_answer(st, n) -> str:
    for k in range(1, n + 1):
        if within_forced(st, st.mover, k):
            return f"yes turns={k}"
    return "no"


# --- best-points ----------------------------------------------------------------------------


def best_points(st, player, start, rnd) -> int:
    if not _in_turn(st) or st.round != rnd:
        return st.totals[player] - start
    kids = _children(st)
    vals = [best_points(c, player, start, rnd) for _, _, c in kids]
    return max(vals) if st.to_move == player else min(vals)


def best_points_answer(st) -> str:
    return f"points={best_points(st, st.mover, st.totals[st.mover], st.round)}"


# --- double-dummy ---------------------------------------------------------------------------


def dd_value(st, player):
    r = st.result()
    if r is not None:
        keys = []
        for hs in st.heights:
            s = sorted(hs, reverse=True)
            keys.append((s[0], s[1]))
        mine = keys[player]
        place = 1 + sum(k > mine for k in keys)
        shared = sum(k == mine for k in keys)
        return (-place, -shared, mine[0], mine[1])
    vals = [dd_value(c, player) for _, _, c in _children(st)]
    return max(vals) if st.to_move == player else min(vals)


def dd_answer(st) -> str:
    v = dd_value(st, st.to_move)
    return f"place {-v[0]} shared {-v[1]} tallest {v[2]} second {v[3]}"


# --- random small positions -----------------------------------------------------------------


def _cards(codes) -> str:
    return "".join(TOKEN[c] for c in sorted(codes)) or "-"


def random_tweak(rng: Rng, *, players=(2, 3), hand=(1, 3), table=(0, 4), deck=(0, 3),
                 t_pile=(0, 2), deck_empty=False) -> str:
    """A random small TWEAK position line: the mover holds 0..2 T! cards (of any kind)."""
    n = rng.choice(list(players))
    pool = [c for c in range(24) for _ in range(2 if c % 6 < 3 else 1)]  # R O Y G
    pool = rng.shuffled(pool)
    tpool = rng.shuffled([36] * 4 + [37] * 3 + [38] * 2 + [39])

    def take(k):
        return [pool.pop() for _ in range(k)]

    mover = rng.below(n)
    hands = [take(rng.below(hand[1] - hand[0] + 1) + hand[0]) for _ in range(n)]
    if not hands[mover]:
        hands[mover] = take(1)
    tab = take(rng.below(table[1] - table[0] + 1) + table[0])
    dk = [] if deck_empty else take(rng.below(deck[1] - deck[0] + 1) + deck[0])
    held = [[] for _ in range(n)]
    for _ in range(rng.below(3)):
        held[mover].append(tpool.pop())
    if rng.below(3) == 0:
        held[(mover + 1) % n].append(tpool.pop())
    tp = [tpool.pop() for _ in range(rng.below(t_pile[1] - t_pile[0] + 1) + t_pile[0])]
    backs = TWEAK.new_state(2)._backs
    target = backs[dk[0]] if dk else 7
    return " ".join([
        "tweak/1", f"T{mover}", f"r1d{(mover - 1) % n}", f"t{target}", ",".join("0" * n),
        "/".join(_cards(h) for h in hands), _cards(tab), "".join(TOKEN[c] for c in dk) or "-",
        "".join(TOKEN[c] for c in tp) or "-", "/".join(["-"] * n),
        "/".join(_cards(h) for h in held),
    ])


def random_graph_t(rng: Rng, *, players=(2, 3, 4), cards=(1, 3)) -> str:
    """A random GRAPH-T position at the start of a trick: equal hands of 1..3 cards (2 with
    four players; the
    grey card among them, maybe), a few colour plays already in the stacks."""
    n = rng.choice(list(players))
    hi = min(cards[1], 2) if n == 4 else cards[1]
    k = rng.below(hi - cards[0] + 1) + cards[0]
    return graph_t_trick_start(rng, "graph-t/1", n, k)


def graph_t_trick_start(rng: Rng, rules: str, n: int, k: int) -> str:
    """A random GRAPH-T position line at the start of a trick: ``n`` hands of ``k`` cards
    (the grey card among them, maybe), a few plays already in the stacks (grey sides among
    them), random grey players, a random leader."""
    pool = rng.shuffled(list(deck_codes(True)))
    hands = []
    for _ in range(n):
        h = [pool.pop() for _ in range(k)]
        if rng.below(3) == 0:
            h[0] = G
        hands.append(h)
    stacks = []
    for _ in range(n):
        st = []
        for _ in range(rng.below(4)):
            c = pool.pop()
            side = 1 if not IS_TOP[c] and rng.below(4) == 0 else 0
            st.append(2 * c + side)
        stacks.append(st)
    greyed = [s for s in range(n) if any(p & 1 for p in stacks[s]) or rng.below(3) == 0]
    lead = rng.below(n)
    return " ".join([
        rules, "/".join(hand_text(tuple(sorted(h))) for h in hands),
        "/".join(plays_text(tuple(sorted(s))) for s in stacks), "-", f"p{lead}", f"p{lead}",
        "".join(f"p{s}" for s in greyed) or "-",
    ])
