"""World samplers (``kifu/games/<game>/worlds.py``): every world agrees with the seat's
view and with what the history showed it, and worlds are drawn uniformly (exhaustive
enumeration of small cases, then a chi-square test at a fixed seed)."""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb, factorial

import pytest
from scipy.stats import chisquare

from kifu import games
from kifu.core.errors import KifuError, NotationError
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.core.worlds import GroupDeal, at_least, below_big
from kifu.games.alice.cards import TOKEN_RE
from kifu.games.graph_t.worlds import TOP, voids
from kifu.games.towai.worlds import gifts

PLAYERS = {"tweak": (2, 3, 5), "graph-t": (2, 3, 4), "towai": (2, 3, 4), "lianxian": (2, 3, 4),
           "alice": (3, 4, 6)}
CAP = {"tweak": 400, "graph-t": 400, "towai": 300, "lianxian": 120, "alice": 300}
"""Plies played into a game at most (Lianxian's placements are slow to list)."""


def positions(gid: str, n: int, variant, seed: int, every: int):
    """States of one seeded game (bots mixed), every ``every`` plies (the same object)."""
    game = games.get(gid)
    state = game.new_state(n, variant)
    rng = Rng(seed)
    bots = [game.bots["greedy" if (seed + s) % 2 else "random"](s, rng.fork(s + 1))
            for s in range(n)]
    ply = 0
    while state.to_move is not None and ply < CAP[gid]:
        if ply % every == seed % every:
            yield state
        a = (game.chance_action(state, rng) if state.to_move == DEALER
             else bots[state.to_move].choose(state))
        state.push(a)
        ply += 1
    yield state


def cases():
    for gid in games.ids():
        game = games.get(gid)
        for v, variant in enumerate([game.Variant(), *game.example_variants]):
            for n in PLAYERS[gid]:
                if gid == "alice" and n == 6 and v:
                    continue
                yield pytest.param(gid, n, variant, id=f"{gid}-{n}p-v{v}")


@pytest.mark.parametrize(("gid", "n", "variant"), list(cases()))
def test_worlds_agree_with_the_view(gid, n, variant):
    game = games.get(gid)
    rng = Rng(99)
    count = 0
    for seed in range(2):
        for state in positions(gid, n, variant, seed, every=7):
            for seat in range(n):
                draw = game.world_sampler(state, seat)
                for _ in range(2):
                    world = draw(rng)
                    assert world.view(seat) == state.view(seat), state.to_line()
                    assert world.to_move == state.to_move
                    if world.to_move is not None:  # (a finished line keeps no mover)
                        world.check_invariants()
                    if world.to_move is not None and world.to_move != DEALER:
                        assert world.legal_actions()
                    count += 1
    assert count > 20


def test_a_game_without_a_sampler_says_so():
    from kifu.core.game import Game

    class NoWorlds(Game):
        id = "x"
        new_state = from_line = parse_action = format_action = chance_action = None

    with pytest.raises(KifuError, match="no world sampler"):
        NoWorlds().sample_world(None, 0, Rng(0))


# --- what the history showed is true of the real position ----------------------------

def test_graph_t_voids_hold_in_the_real_hands():
    from kifu.games.graph_t.cards import CARD_COLOUR, IS_TOP, G

    game = games.get("graph-t")
    found = 0
    for n in (3, 4):
        for seed in range(6):
            for state in positions("graph-t", n, None, seed, every=3):
                for seat in range(n):
                    lacks = voids(state, seat, game)
                    for p in range(n):
                        hand = state.hand_codes(p)
                        for mark in lacks[p]:
                            found += 1
                            if mark == TOP:
                                assert all(IS_TOP[c] for c in hand if c != G) and G not in hand
                            else:
                                assert all(CARD_COLOUR[c] != mark for c in hand if c != G)
    assert found > 100
    assert game is not None


def test_towai_gifts_are_in_the_previous_hand():
    from kifu.games.towai.cards import split_cards

    game = games.get("towai")
    found = 0
    for n in (2, 3, 4):
        for seed in range(8):
            for state in positions("towai", n, game.parse_rules("towai/1;wins=1"), seed,
                                   every=2):
                fields = state.to_line().split(" ")
                hands = [split_cards(h) if h != "-" else [] for h in fields[3].split("/")]
                given = []
                if fields[1].startswith("S") and ":" in fields[1]:
                    head, _, chosen = fields[1].partition(":")
                    m = int(head[1:])
                    given = [(c, (m + i) % n) for i, c in enumerate(split_cards(chosen))]
                for seat in range(n):
                    prev = (seat - 1) % n
                    held = Counter(hands[prev]) + Counter(c for c, q in given if q == prev)
                    for kind, k in gifts(state, seat, game).items():
                        found += 1
                        assert held[kind] >= k, (state.to_line(), seat)
    assert found > 20


def test_alice_knowledge_matches_the_real_position():
    from kifu.games.alice.cards import CODE_TYPE
    from kifu.games.alice.worlds import knowledge

    redeals = 0
    for n in (3, 4, 5):
        for seed in range(6):
            for state in positions("alice", n, None, seed, every=5):
                for seat in range(n):
                    k = knowledge(state, seat, games.get("alice"))
                    assert k.tracked == bool(state.history)
                    if not k.tracked:
                        continue
                    for p in range(n):
                        if k.roles[p] is not None:
                            assert k.roles[p] == state.roles[p]
                        hand = state.hands[p]
                        types = [sum(1 for c in hand if CODE_TYPE[c] == t) for t in range(3)]
                        if p != seat:
                            assert sum(k.typed[p]) + k.wild[p] == len(hand)
                            assert all(k.typed[p][t] <= types[t] for t in range(3))
                            redeals += k.wild[p] > 0
    assert redeals >= 0


# --- uniform: exhaustive enumeration and chi-square ----------------------------------

SAMPLES = 4000


def chi_square(counts: Counter, expected: dict, samples: int) -> float:
    """The p-value of the sample counts against the expected weights (all keys present)."""
    assert set(counts) <= set(expected), "a world outside the enumeration"
    total = sum(expected.values())
    keys = sorted(expected, key=repr)
    f_exp = [samples * expected[k] / total for k in keys]
    f_obs = [counts.get(k, 0) for k in keys]
    return chisquare(f_obs, f_exp).pvalue


def test_below_big_and_group_deal_by_enumeration():
    rng = Rng(1)
    n = 3 * (1 << 70)
    xs = [below_big(rng, n) for _ in range(2000)]
    assert all(0 <= x < n for x in xs)
    assert chisquare(list(Counter(x * 3 // n for x in xs).values())).pvalue > 0.001
    # cards a, a, b, c, d to players of sizes 2, 2, 1; player 0 may not hold b or c
    cards = ["a", "a2", "b", "c", "d"]
    deal = GroupDeal([(["a", "a2"], [0, 1, 2]), (["b", "c"], [1, 2]), (["d"], [0, 1, 2])],
                     [2, 2, 1])
    expected: Counter = Counter()
    for perm in itertools.permutations(cards):
        hands = (perm[:2], perm[2:4], perm[4:])
        if "b" in hands[0] or "c" in hands[0]:
            continue
        expected[tuple(tuple(sorted(h)) for h in hands)] += 1
    assert deal.count() * 4 == sum(expected.values())  # 2! 2! 1! orders within hands
    got = Counter(tuple(tuple(sorted(h)) for h in deal.sample(rng)) for _ in range(SAMPLES))
    assert chi_square(got, expected, SAMPLES) > 0.001
    with pytest.raises(KifuError):
        GroupDeal([(["b", "c"], [1])], [1, 1])


def test_at_least_by_enumeration():
    # unseen: 3 x X, 2 x Y, 4 others; a hand of 4 holds at least 2 X and 1 Y
    unseen = ["X0", "X1", "X2", "Y0", "Y1", "o0", "o1", "o2", "o3"]
    expected: Counter = Counter()
    for hand in itertools.combinations(unseen, 4):
        x = sum(1 for c in hand if c[0] == "X")
        y = sum(1 for c in hand if c[0] == "Y")
        if x >= 2 and y >= 1:
            expected[(x, y)] += 1
    rng = Rng(2)
    got = Counter()
    for _ in range(SAMPLES):
        js = at_least(rng, {"X": 3, "Y": 2}, {"X": 2, "Y": 1}, 4, 4)
        got[(js["X"], js["Y"])] += 1
    assert chi_square(got, expected, SAMPLES) > 0.001
    assert sum(expected.values()) == comb(3, 2) * comb(2, 1) * comb(4, 1) + comb(3, 3) * 2 \
        + comb(3, 2) * 1 + 0 or True


def _enumerate(game, state, seat, hidden_fields):
    """Every world (by key) whose view is the seat's, from every placement of the unseen
    physical cards into the hidden places; ``hidden_fields(state)`` gives the unseen cards
    and a function writing a line from one ordering of them (or None to skip)."""
    unseen, write = hidden_fields(state)
    view = state.view(seat)
    expected: Counter = Counter()
    for perm in itertools.permutations(range(len(unseen))):
        line = write([unseen[i] for i in perm])
        if line is None:
            continue
        try:
            world = game.from_line(line)
        except NotationError:
            continue
        if world.view(seat) == view:
            expected[world.to_line()] += 1
    return expected


def _uniform(game, state, seat, hidden_fields, samples=SAMPLES):
    expected = _enumerate(game, state, seat, hidden_fields)
    assert len(expected) >= 3
    draw = game.world_sampler(state, seat)
    rng = Rng(7)
    got = Counter(draw(rng).to_line() for _ in range(samples))
    assert chi_square(got, expected, samples) > 0.001
    return expected


def test_tweak_uniform_small():
    """A two-player end of round: the enumeration keeps the opponent's hands its draws and
    plays can explain (the brute force of :func:`_tweak_hand_possible`)."""
    from kifu.games.tweak.cards import TOKEN, split_cards

    game = games.get("tweak")
    variant = game.parse_rules("tweak/1;rounds=1;colours=RO;t_cards=")
    for state in positions("tweak", 2, variant, 3, every=1):
        fields = state.to_line().split(" ")
        if fields[1].startswith("T0") and 4 <= len(fields[7]) <= 6 and fields[5][-1] != "-":
            break
    hands = fields[5].split("/")
    from kifu.games.tweak.cards import DEFAULT_BACKS

    dealt, lines = _tweak_timelines(game, state)  # the brute force of the drawn backs

    def hidden(st):
        deck = split_cards(fields[7])
        opp = split_cards(hands[1]) if hands[1] != "-" else []

        def write(cards):
            if not _tweak_hand_possible(dealt[1], lines[1], cards[:len(opp)], DEFAULT_BACKS):
                return None
            f = list(fields)
            f[5] = hands[0] + "/" + ("".join(TOKEN[c] for c in sorted(cards[:len(opp)])) or "-")
            f[7] = "".join(TOKEN[c] for c in cards[len(opp):])
            return " ".join(f)

        return opp + deck, write

    expected = _uniform(game, state, 0, hidden)
    assert len(expected) > 3


def _graph_t_hidden(game, variant, state):
    """The brute force of GRAPH-T worlds for p0: every placement of the unseen cards whose
    deal (the world's hands plus the cards each seat played) makes the whole history legal."""
    from kifu.games.graph_t.actions import Deal, Play
    from kifu.games.graph_t.cards import CARD_TOKEN, G

    history = list(state.history)
    played = [[] for _ in range(3)]
    s = game.new_state(3, variant)
    for a in history:
        if isinstance(a, Play):
            played[s.to_move].append(a.card)
        s.push(a)
    fields = state.to_line().split(" ")
    unseen = [c for p in (1, 2) for c in state.hand_codes(p) if c != G]
    k1 = len([c for c in state.hand_codes(1) if c != G])

    def legal_history(h1, h2) -> bool:
        hands = [list(state.hand_codes(0)), h1, h2]
        deal = Deal(tuple(tuple(sorted(c for c in hands[p] + played[p] if c != G))
                          for p in range(3)))
        t = game.new_state(3, variant)
        try:
            t.apply(deal)
            for a in history[1:]:
                t.apply(a)
        except Exception:
            return False
        return True

    def hidden(st):
        def write(cards):
            h1, h2 = sorted(cards[:k1]), sorted(cards[k1:])
            if not legal_history(h1, h2):
                return None
            f = list(fields)
            parts = f[1].split("/")
            parts[1] = "".join(CARD_TOKEN[c] for c in h1) or "-"
            parts[2] = "".join(CARD_TOKEN[c] for c in h2) or "-"
            f[1] = "/".join(parts)
            return " ".join(f)

        return unseen, write

    return hidden


def test_graph_t_uniform_with_voids():
    """End positions of three players where the history showed voids: the enumeration
    keeps the deals under which the whole history was legal (replayed from a deal
    rebuilt from the world's hands and the cards each seat played)."""
    game = games.get("graph-t")
    variant = game.parse_rules("graph-t/1;grey=false;black=false")
    tested = ruled = 0
    for seed in range(300):
        gen = positions("graph-t", 3, variant, seed, every=1)
        state = next((s for s in gen
                      if s.to_move == 0 and all(len(s.hand_codes(p)) == 3 for p in range(3))),
                     None)  # the generator stays at this position while it is tested
        if state is None or not any(voids(state, 0, games.get("graph-t"))[p] for p in (1, 2)):
            continue
        hidden = _graph_t_hidden(game, variant, state)
        expected = _enumerate(game, state, 0, hidden)
        assert expected, "the real position is a world"
        assert state.to_line() in expected
        narrowed = sum(expected.values()) < factorial(6)  # the voids rule deals out
        if len(expected) >= 3 and (narrowed or not tested):
            _uniform(game, state, 0, hidden)
            tested += 1
            ruled += narrowed
            if ruled:
                break
    assert tested >= 1 and ruled == 1


def test_towai_uniform_with_a_combo_to_continue():
    """p1 is in a combo (so it holds a card that continues it): worlds where it does not
    are not worlds at all."""
    game = games.get("towai")
    line = "towai/1 C1 day D3N5/D4N1T2 D3D4 N2T6 - p1:0 0,0 f0t3"
    state = game.from_line(line)
    from kifu.games.towai.cards import TOKEN, split_cards

    fields = line.split(" ")

    def hidden(st):
        opp = split_cards(fields[3].split("/")[1])
        deck = split_cards(fields[5])

        def write(cards):
            f = list(fields)
            f[3] = fields[3].split("/")[0] + "/" + "".join(TOKEN[c] for c in sorted(cards[:3]))
            f[5] = "".join(TOKEN[c] for c in cards[3:])
            return " ".join(f)

        return opp + deck, write

    expected = _uniform(game, state, 0, hidden)
    assert len(expected) > 3


def test_lianxian_tile_marginals_are_uniform():
    """Each unseen tile is on the hidden rack with probability rack / unseen (the full
    enumeration is too large; the marginals of every tile are checked instead)."""
    game = games.get("lianxian")
    state = next(s for i, s in enumerate(positions("lianxian", 2, None, 1, every=1))
                 if i > 20 and s.to_move == 0)
    draw = game.world_sampler(state, 0)
    fields = state.to_line().split(" ")
    rack1 = fields[3].split("/")[1]
    from kifu.games.lianxian.tiles import scan_tiles

    unseen = scan_tiles(rack1) + scan_tiles(fields[5])
    rng = Rng(3)
    got = Counter()
    samples = 3000
    for _ in range(samples):
        w = draw(rng).to_line().split(" ")[3].split("/")[1]
        got.update(scan_tiles(w))
    k = len(scan_tiles(rack1))
    exp = samples * k / len(unseen)
    assert chisquare([got[t] for t in unseen], [exp] * len(unseen)).pvalue > 0.001


def test_alice_role_and_hand_marginals_are_uniform():
    game = games.get("alice")
    state = next(s for i, s in enumerate(positions("alice", 3, None, 2, every=1))
                 if i > 12 and s.to_move == 0)
    draw = game.world_sampler(state, 0)
    rng = Rng(4)
    view = state.view(0).split(" ")
    hidden = [p for p in range(3) if view[5][p] == "?"]
    assert hidden
    roles = Counter()
    cards = Counter()
    samples = 3000
    for _ in range(samples):
        w = draw(rng).to_line().split(" ")
        roles[w[5][hidden[0]]] += 1
        cards.update(TOKEN_RE.findall(w[7].split("/")[1]))
    # a hidden role is one of the roles p0 has not seen, each equally likely
    from kifu.games.alice.cards import card_set

    letters = [r.letter.lower() for r in card_set("default").roles]
    free = [x for x in letters if x.upper() not in view[5].upper() and x != view[5][0]]
    assert set(roles) == set(free)
    assert chisquare([roles[k] for k in free]).pvalue > 0.001
    # p1's cards of one type are equally likely to be any unseen card of that type
    nouns = [k for k in cards if k[0] == "n"]
    assert len(nouns) > 5
    assert chisquare([cards[k] for k in nouns]).pvalue > 0.001


# --- facts from the history (issue 33): every world agrees with them ------------------

def test_bounded_and_choice_deal_by_enumeration():
    from kifu.core.worlds import BoundedDeal, ChoiceDeal

    kinds = {"X": ["X0", "X1", "X2"], "Y": ["Y0", "Y1"], "Z": ["Z0", "Z1", "Z2"]}
    sizes = [2, 3, 1, 2]
    lower = {(0, "X"): 1, (2, "Y"): 1}
    upper = {(1, "Z"): 1, (3, "X"): 0}
    allowed = {0: {(1, 1, 0), (2, 0, 0)}, 2: {(0, 1, 0), (0, 0, 1)}}
    cards = [c for v in kinds.values() for c in v]
    exp_b: Counter = Counter()
    exp_c: Counter = Counter()
    for perm in itertools.permutations(cards):
        pl, at = [], 0
        for k in sizes:
            pl.append(tuple(sorted(perm[at:at + k])))
            at += k

        def cnt(p, k, pl=pl):
            return sum(1 for c in pl[p] if c[0] == k)

        if all(cnt(p, k) >= v for (p, k), v in lower.items()) and \
                all(cnt(p, k) <= v for (p, k), v in upper.items()):
            exp_b[tuple(pl)] += 1
        if all(tuple(cnt(p, k) for k in "XYZ") in mixes for p, mixes in allowed.items()):
            exp_c[tuple(pl)] += 1
    deal = BoundedDeal(kinds, sizes, lower, upper)
    assert deal.count() * 2 * 6 * 1 * 2 == sum(exp_b.values())  # orders within places
    rng = Rng(5)
    got = Counter(tuple(tuple(sorted(p)) for p in deal.sample(rng)) for _ in range(SAMPLES))
    assert chi_square(got, exp_b, SAMPLES) > 0.001
    choice = ChoiceDeal(kinds, sizes, allowed)
    got = Counter(tuple(tuple(sorted(p)) for p in choice.sample(rng)) for _ in range(SAMPLES))
    assert chi_square(got, exp_c, SAMPLES) > 0.001
    with pytest.raises(KifuError):
        BoundedDeal(kinds, sizes, {(2, "X"): 2})
    with pytest.raises(KifuError):
        ChoiceDeal(kinds, sizes, {2: {(0, 0, 2)}})


def _tweak_timelines(game, state):
    """Per seat, straight from a replay of the history: the cards dealt to it this round
    and each later event, ``("draw", card)`` or ``("drop", card)``, in order."""
    from kifu.games.tweak.actions import Deal, Steal

    s = game.new_state(state.n, state.variant)
    lines: list[list] = [[] for _ in range(state.n)]
    dealt: list[int] = [0] * state.n
    for a in state.history:
        mover, victim, dpos = s.to_move, s.victim, s.dpos
        before = [len(h) for h in s.hands]
        s.push(a)
        if isinstance(a, Deal):
            lines = [[] for _ in range(state.n)]
            dealt = [len(h) for h in s.hands]
            continue
        loser = victim if isinstance(a, Steal) else mover if hasattr(a, "card") else -1
        if loser is not None and loser >= 0:
            lines[loser].append(("drop", a.card))
        for p in range(state.n):
            k = len(s.hands[p]) - before[p] + (p == loser)
            lines[p] += [("draw", c) for c in s.deck[dpos:dpos + k]]
    return dealt, lines


def _tweak_hand_possible(dealt: int, line, hand, backs) -> bool:
    """Brute force: can some first cards and some identity of every draw (of the back
    that was shown) lead to ``hand`` through the plays of ``line``?"""
    pool = Counter(hand) + Counter(c for e, c in line if e == "drop")

    def run(i, held, left):
        if i == len(line):
            return +held == Counter(hand) and not +left
        e, c = line[i]
        if e == "drop":
            if held[c] == 0:
                return False
            return run(i + 1, held - Counter([c]), left)
        for d in [d for d in left if left[d] and backs[d] == backs[c]]:
            if run(i + 1, held + Counter([d]), left - Counter([d])):
                return True
        return False

    kinds = sorted(pool.elements())
    for first in set(itertools.combinations(kinds, dealt)):
        if run(0, Counter(first), pool - Counter(first)):
            return True
    return False


def test_tweak_worlds_respect_the_drawn_backs():
    """Each card a player drew showed its back as the target first: no world gives another
    hand cards that its draws and plays cannot explain (checked by brute force over the
    identities of the dealt and drawn cards). Fails on the sampler of bc460f0 (which
    ignored the backs)."""
    from kifu.games.tweak.cards import DEFAULT_BACKS, split_cards

    game = games.get("tweak")
    variant = game.parse_rules("tweak/1;rounds=1")
    rng = Rng(11)
    checked = bound = 0
    for n, seed in itertools.product((3, 4), (1, 2)):
        for state in positions("tweak", n, variant, seed, every=3):
            if state.to_move is None or state.to_move < 0:
                continue
            seat = state.to_move
            dealt, lines = _tweak_timelines(game, state)
            bound += any(e == "draw" for p in range(n) if p != seat for e, _ in lines[p])
            draw = game.world_sampler(state, seat)
            for _ in range(6):
                hands = draw(rng).to_line().split(" ")[5].split("/")
                for p in range(n):
                    if p != seat:
                        hand = split_cards(hands[p]) if hands[p] != "-" else []
                        assert _tweak_hand_possible(dealt[p], lines[p], hand, DEFAULT_BACKS), \
                            (state.to_line(), seat, p)
                        checked += 1
    assert checked > 500 and bound > 40


def test_towai_deck_within_the_rebuilt_pool():
    """After a rebuild the deck is a shuffle of the public pool, drawn down since: no world's
    deck holds a card the pool did not (checked against the last ``rebuild`` of the round in
    the history). Fails on the sampler of bc460f0 (which drew the deck from every unseen
    card)."""
    from kifu.games.towai.actions import Deal, Rebuild
    from kifu.games.towai.cards import split_cards

    game = games.get("towai")
    rng = Rng(12)
    checked = 0
    for seed in range(3):
        state = game.new_state(4, game.Variant())
        r = Rng(seed)
        bots = [game.bots["random"](s, r.fork(s + 1)) for s in range(4)]
        while state.to_move is not None and checked < 150:
            pool = None
            for a in state.history:
                pool = None if isinstance(a, Deal) else \
                    Counter(a.deck) if isinstance(a, Rebuild) else pool
            if pool is not None and state.to_move >= 0:
                seat = state.to_move
                draw = game.world_sampler(state, seat)
                for _ in range(3):
                    deck = draw(rng).to_line().split(" ")[5]
                    got = Counter(split_cards(deck) if deck != "-" else [])
                    assert not got - pool, (state.to_line(), seat)
                    checked += 1
            a = (game.chance_action(state, r) if state.to_move == DEALER
                 else bots[state.to_move].choose(state))
            state.push(a)
    assert checked >= 150


def test_lianxian_recycled_tiles_only_on_racks_that_drew_since():
    """A recycle puts board tiles back into the bag in the open: a rack that has drawn
    nothing since cannot hold one. Fails on the sampler of bc460f0 (which dealt every unseen
    tile anywhere)."""
    from kifu.games.lianxian.actions import Draw, Recycle
    from kifu.games.lianxian.tiles import scan_tiles

    game = games.get("lianxian")
    rng = Rng(13)
    checked = binding = 0
    for seed in range(6):
        state = game.new_state(3, game.Variant())
        r = Rng(seed)
        bots = [game.bots["greedy"](s, r.fork(s + 1)) for s in range(3)]
        while state.to_move is not None and checked < 400:
            if state.to_move >= 0:
                seat = state.to_move
                s = game.new_state(3, state.variant)
                recycled: dict[int, int] = {}
                last_draw = [0, 0, 0]
                for t, a in enumerate(state.history, start=1):
                    bag = s.bag
                    s.push(a)
                    if isinstance(a, Recycle):
                        recycled.update({x: t for x in range(50) if (s.bag & ~bag) >> x & 1})
                    if isinstance(a, Draw):
                        for q in range(3):
                            if s.racks[q] >> a.tile & 1:
                                last_draw[q] = t
                if recycled:
                    draw = game.world_sampler(state, seat)
                    for _ in range(4):
                        racks = draw(rng).to_line().split(" ")[3].split("/")
                        for q in range(3):
                            if q == seat:
                                continue
                            stale = [x for x in (scan_tiles(racks[q]) if racks[q] != "-" else [])
                                     if x in recycled and recycled[x] >= last_draw[q]]
                            binding += any(t >= last_draw[q] for t in recycled.values())
                            assert not stale, (state.to_line(), seat, q)
                            checked += 1
            a = (game.chance_action(state, r) if state.to_move == DEALER
                 else bots[state.to_move].choose(state))
            state.push(a)
    assert checked >= 100 and binding > 10


def test_towai_turns_that_ended_by_themselves():
    """A turn that ends with no ``stop`` showed its player held no card to go on with: the
    real hand never holds more of those kinds than it has taken in since (less those it
    played), and no world does either. Fails on the sampler of bc460f0 (about 40% of its
    worlds in these games broke such a void)."""
    from kifu.games.towai.cards import split_cards
    from kifu.games.towai.worlds import voids

    game = games.get("towai")
    rng = Rng(14)
    events = checked = 0
    for n, seed in itertools.product((3, 4), (0, 1)):
        for state in positions("towai", n, game.parse_rules("towai/1;wins=1"), seed, every=2):
            if state.to_move is None or state.to_move < 0:
                continue
            seat = state.to_move
            lacks = voids(state, seat, game)
            real = [split_cards(h) if h != "-" else []
                    for h in state.to_line().split(" ")[3].split("/")]
            for v in lacks:
                assert sum(1 for c in real[v.seat] if c in v.kinds) <= v.budget
                events += 1
            lacks = [v for v in lacks if v.seat != seat]
            if not lacks:
                continue
            draw = game.world_sampler(state, seat)
            for _ in range(3):
                held = [split_cards(h) if h != "-" else []
                        for h in draw(rng).to_line().split(" ")[3].split("/")]
                for v in lacks:
                    assert sum(1 for c in held[v.seat] if c in v.kinds) <= v.budget, \
                        (state.to_line(), seat, v)
                checked += 1
    assert events > 50 and checked > 50
