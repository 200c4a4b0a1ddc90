"""The evaluator (``kifu/bots/evaluate.py``) and the ``expert`` bot on it: the API's shape,
determinism, fairness (only what the seat knows), and exact values equal to naive brute
forces and to the GRAPH-T double-dummy solver where they apply."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kifu import games
from kifu.bots import bot_names, classic_bots, make_bot, play_actions
from kifu.bots.evaluate import (
    LEVELS,
    Evaluation,
    evaluate,
    shares,
    solve_position,
    solve_world,
)
from kifu.bots.profiles import pairwise, tiebreak_keys
from kifu.core.errors import VariantError
from kifu.core.game import DEALER
from kifu.core.rng import Rng

QUICK = {"tweak": (2, "tweak/1;rounds=1"), "graph-t": (3, "graph-t/1;grey=false;black=false"),
         "towai": (3, "towai/1;wins=1"), "lianxian": (2, "lianxian/1;finish=8"),
         "alice": (3, "alice/1;turns=2")}


def _position(gid: str, seed: int, plies: int, players: int | None = None,
              spec: str | None = None):
    """A position reached by random play (``plies`` player decisions), its history from
    the start; dealer actions after the last decision are played too."""
    game = games.get(gid)
    n, quick = QUICK[gid]
    state = game.new_state(players or n, game.parse_rules(spec or quick))
    rng = Rng(seed)
    k = 0
    while state.to_move is not None:
        if state.to_move == DEALER:
            state.push(game.chance_action(state, rng))
            continue
        if k >= plies:
            break
        state.push(rng.choice(state.legal_actions()))
        k += 1
    return game, state


# --- a naive brute force, no tables, no budget ----------------------------------------------

def brute_values(state, gid: str) -> list[float]:
    """Expecti-max^n by plain recursion over ``copy()`` + ``apply`` (every action checked):
    each seat maximises its own pairwise share with the game's tie-breaks (ties between
    actions: the first in legal order), chance nodes are averaged over their outcomes."""
    mover = state.to_move
    if mover is None:
        r = state.result()
        keys = tiebreak_keys(gid, state)
        return [pairwise(r, s, keys) for s in range(state.n)]
    if mover == DEALER:
        outs = state.chance_outcomes()
        assert outs is not None
        acc = [0.0] * state.n
        for a, p in outs:
            c = state.copy()
            c.apply(a)
            v = brute_values(c, gid)
            acc = [x + float(p) * y for x, y in zip(acc, v, strict=True)]
        return acc
    best = None
    for a in state.legal_actions():
        c = state.copy()
        c.apply(a)
        v = brute_values(c, gid)
        if best is None or v[mover] > best[mover]:
            best = v
    assert best is not None
    return best


def _small_tree(state, limit: int = 3000) -> bool:
    """Whether the game tree below ``state`` has at most ``limit`` nodes (counted plainly)."""
    count = 0

    def walk(s) -> None:
        nonlocal count
        count += 1
        if count > limit:
            raise StopIteration
        if s.to_move is None:
            return
        if s.to_move == DEALER:
            outs = s.chance_outcomes()
            if outs is None:
                raise StopIteration
            acts = [a for a, _ in outs]
        else:
            acts = s.legal_actions()
        for a in acts:
            s.push(a)
            walk(s)
            s.pop()

    try:
        walk(state.copy())
    except StopIteration:
        return False
    return True


def _endgames(gid: str, want: int, players: int | None = None, spec: str | None = None):
    """Positions near the end of random games whose whole tree is small."""
    out = []
    for seed in range(400):
        game, state = _position(gid, seed, 10_000, players, spec)  # to the end
        # walk back from the end to the earliest small-tree position
        plies = len(state.history)
        line = list(state.history)
        fresh = game.new_state(state.n, state.variant)
        best = None
        for cut in range(plies - 1, max(plies - 40, 0), -1):
            s = fresh.copy()
            for a in line[:cut]:
                s.push(a)
            s.history = list(line[:cut])
            if s.to_move is None or s.to_move == DEALER:
                continue
            if _small_tree(s):
                best = s
            else:
                break
        if best is not None:
            out.append((game, best))
        if len(out) >= want:
            break
    return out


# --- the API --------------------------------------------------------------------------------

def test_levels_are_documented_budgets():
    assert list(LEVELS) == ["fast", "normal", "deep"]
    assert LEVELS["fast"].worlds < LEVELS["normal"].worlds < LEVELS["deep"].worlds
    assert all(lv.cost for lv in LEVELS.values())


@pytest.mark.parametrize("gid", sorted(QUICK))
def test_evaluation_shape_and_determinism(gid):
    game, state = _position(gid, 3, 2)
    assert state.to_move is not None and state.to_move >= 0
    seat = state.to_move
    before = state.to_line()
    ev = evaluate(game, state, seat, level="fast", seed=11)
    assert state.to_line() == before, "evaluating must not change the position"
    assert isinstance(ev, Evaluation) and ev.seat == seat and ev.level == "fast"
    assert not ev.omniscient
    assert 0.0 <= ev.value <= 1.0 and ev.stderr >= 0.0
    assert ev.actions and ev.value == ev.actions[0].value
    values = [a.value for a in ev.actions]
    assert values == sorted(values, reverse=True), "best first"
    assert ev.actions[0].diff_stderr == 0.0
    legal = state.legal_actions()
    assert all(a.action in legal for a in ev.actions)
    assert len({a.action for a in ev.actions}) == len(ev.actions)
    assert evaluate(game, state, seat, level="fast", seed=11) == ev
    # another seat, not to move: the value of the position, no actions
    other = (seat + 1) % state.n
    ev2 = evaluate(game, state, other, level="fast", seed=11)
    assert ev2.actions == () and 0.0 <= ev2.value <= 1.0


def test_unknown_level_is_refused():
    game, state = _position("towai", 1, 2)
    with pytest.raises(ValueError, match="unknown level"):
        evaluate(game, state, 0, level="huge")


@pytest.mark.parametrize("gid", sorted(QUICK))
def test_the_end_of_a_game_is_its_pairwise_share(gid):
    game, state = _position(gid, 5, 100_000)
    assert state.to_move is None
    r = state.result()
    for seat in range(state.n):
        ev = evaluate(game, state, seat)
        assert ev.exact and ev.stderr == 0.0
        assert ev.value == pairwise(r, seat, tiebreak_keys(gid, state))
    assert sum(shares(state, gid)) == pytest.approx(state.n / 2)


@pytest.mark.parametrize("gid", ["tweak", "towai", "alice", "graph-t"])
def test_only_what_the_seat_knows(gid):
    """Two positions the seat cannot tell apart (a position read from its line has no
    history, so the seat knows its view only; a world drawn for it has the same view) get
    the same evaluation, up to the noise of the samples (a sampler may list the unseen cards
    in the order the position holds them, so the same seed need not draw the same worlds);
    and the evaluator never looks at the position past the sampler: a position whose
    sampler is replaced by the other's gives the other's evaluation exactly."""
    game, played = _position(gid, 8, 2)
    seat = played.to_move
    state = game.from_line(played.to_line())
    world = game.world_sampler(state, seat)(Rng(99))
    world = game.from_line(world.to_line())
    assert world.view(seat) == state.view(seat)
    a = evaluate(game, state, seat, level="normal", seed=4)
    b = evaluate(game, world, seat, level="normal", seed=4)
    assert {x.action for x in a.actions} == {x.action for x in b.actions}
    assert abs(a.value - b.value) <= 4 * (a.stderr ** 2 + b.stderr ** 2) ** 0.5 + 1e-9

    real = type(game).world_sampler
    try:
        type(game).world_sampler = lambda self, st_, seat_: real(self, state, seat_)
        c = evaluate(game, world, seat, level="normal", seed=4)
    finally:
        type(game).world_sampler = real
    assert c == a


def test_common_random_numbers_make_differences_precise():
    game, state = _position("tweak", 2, 3, players=3)
    ev = evaluate(game, state, state.to_move, level="normal", seed=1)
    # paired differences vary less than the values themselves, on average over the actions
    rest = ev.actions[1:]
    assert rest
    assert sum(a.diff_stderr for a in rest) < sum(a.stderr + ev.stderr for a in rest)


# --- exact values ---------------------------------------------------------------------------

@pytest.mark.parametrize("gid", ["tweak", "towai", "graph-t", "alice", "lianxian"])
def test_generic_solver_equals_the_brute_force(gid):
    found = _endgames(gid, 3)
    if not found:
        pytest.skip(f"no {gid} endgame with a small enumerable tree in 400 random games")
    for _game, state in found:
        want = brute_values(state, gid)
        for seat in range(state.n):
            got1 = solve_position(state, seat, 100_000, gid)
            assert got1 == pytest.approx(want[seat], abs=1e-9)
        acts = state.legal_actions()
        got = solve_world(state, state.to_move, acts, 100_000, gid)
        for a, v in zip(acts, got, strict=True):
            c = state.copy()
            c.apply(a)
            assert v == pytest.approx(brute_values(c, gid)[state.to_move], abs=1e-9)


@pytest.mark.parametrize("gid", ["tweak", "towai", "graph-t"])
def test_all_seeing_evaluation_of_an_endgame_is_exact(gid):
    found = _endgames(gid, 2)
    if not found:
        pytest.skip(f"no {gid} endgame with a small enumerable tree in 400 random games")
    for game, state in found:
        seat = state.to_move
        ev = evaluate(game, state, seat, level="deep", omniscient=True)
        assert ev.exact and ev.omniscient and ev.worlds == 1 and ev.stderr == 0.0
        assert ev.value == pytest.approx(brute_values(state, gid)[seat], abs=1e-9)
        for av in ev.actions:
            c = state.copy()
            c.apply(av.action)
            assert av.value == pytest.approx(brute_values(c, gid)[seat], abs=1e-9)


def test_one_possible_world_graph_t_two_players_equals_double_dummy():
    """With two players every GRAPH-T card is dealt: the seat knows the one world, and late
    in the hand the evaluator's values are the double-dummy solver's, and the brute
    force's."""
    from kifu.bots.profiles import _graph_t_solve

    checked = 0
    for seed in range(30):
        game, state = _position("graph-t", seed, 10_000, players=2, spec="graph-t/1")
        line = list(state.history)
        for cut in range(len(line) - 1, 0, -1):
            s = game.new_state(2, state.variant)
            for a in line[:cut]:
                s.push(a)
            s.history = list(line[:cut])
            if s.to_move is None or s.to_move == DEALER or len(s.legal_actions()) < 2:
                continue
            cards = sum(len(s.hand_codes(p)) for p in range(2))
            if cards < 5 or cards > 9:
                continue
            seat = s.to_move
            ev = evaluate(game, s, seat, level="normal", seed=3)
            assert ev.exact and ev.worlds == 1 and not ev.omniscient
            dd = _graph_t_solve(s, seat, [a.action for a in ev.actions])
            assert dd is not None
            for av, d in zip(ev.actions, dd, strict=True):
                assert av.value == pytest.approx(d, abs=1e-3)  # dd adds a 1e-6 hair
                if _small_tree(s, 20_000):
                    c = s.copy()
                    c.apply(av.action)
                    assert av.value == pytest.approx(brute_values(c, "graph-t")[seat],
                                                     abs=1e-9)
            checked += 1
            break
        if checked >= 3:
            break
    assert checked >= 3


# --- the expert bot -------------------------------------------------------------------------

def test_expert_is_registered_first_among_searchers_and_not_classic():
    for gid in games.ids():
        g = games.get(gid)
        names = bot_names(g)
        assert names[-3:] == ["expert", "pimc", "ismcts"]
        assert "expert" not in classic_bots(g)


@pytest.mark.parametrize("name,match", [
    ("expert:level=huge", "level must be one of fast, normal, deep"),
    ("expert:cheat=2", "cheat must be one of 0, 1, hands"),
    ("expert:depth=1", "bad parameter"),
])
def test_expert_bad_parameters(name, match):
    with pytest.raises(VariantError, match=match):
        make_bot(games.get("tweak"), name, 0, Rng(0))


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(gid=st.sampled_from(sorted(QUICK)), seed=st.integers(0, 10_000),
       plies=st.integers(0, 60), cheat=st.sampled_from(["", ":cheat=1", ":cheat=hands"]))
def test_expert_plays_legal_actions(gid, seed, plies, cheat):
    game, state = _position(gid, seed, plies)
    if state.to_move is None:
        return
    bot = make_bot(game, "expert:level=fast" + cheat, state.to_move, Rng(seed))
    before = state.to_line()
    assert bot.choose(state) in state.legal_actions()
    assert state.to_line() == before


@pytest.mark.parametrize("gid", ["tweak", "towai"])
def test_hands_worlds_keep_every_hand_and_redraw_the_deck(gid):
    """``cheat=hands``'s worlds: every seat's view as in the true position, the same cards
    in the deck (TWEAK: its top of the target's back), their order drawn again."""
    from collections import Counter

    from kifu.bots.profiles import profile

    game, state = _position(gid, 7, 6, players=4)
    line = state.to_line().split(" ")
    deck_field = 7 if gid == "tweak" else 5
    orders = set()
    for k in range(12):
        w = profile(gid).reshuffle(game, state, Rng(k))
        assert all(w.view(s) == state.view(s) for s in range(4))
        wl = w.to_line().split(" ")
        assert [x for i, x in enumerate(wl) if i not in (deck_field, 8)] == \
            [x for i, x in enumerate(line) if i not in (deck_field, 8)]
        assert Counter(wl[deck_field][j:j + 2] for j in range(0, len(wl[deck_field]), 2)) == \
            Counter(line[deck_field][j:j + 2] for j in range(0, len(line[deck_field]), 2))
        orders.add(wl[deck_field])
        if gid == "tweak":
            from kifu.games.tweak.cards import DEFAULT_BACKS, split_cards
            assert DEFAULT_BACKS[split_cards(wl[7])[0]] == int(line[3][1:])
    assert len(orders) > 1


def test_hands_cheater_is_the_cheater_without_a_reshuffle():
    """Where the profile has no ``reshuffle`` (GRAPH-T deals every card), ``cheat=hands``
    values the true position: it plays as ``cheat=1``."""
    game = games.get("graph-t")
    variant = game.parse_rules(QUICK["graph-t"][1])
    a = play_actions(game, ["expert:level=fast:cheat=hands", "greedy", "greedy"], "h1", variant)
    b = play_actions(game, ["expert:level=fast:cheat=1", "greedy", "greedy"], "h1", variant)
    assert a == b


@pytest.mark.parametrize("gid", ["towai", "alice"])
def test_expert_same_seed_same_game(gid):
    game = games.get(gid)
    n, spec = QUICK[gid]
    variant = game.parse_rules(spec)
    names = (["expert:level=fast", "greedy"] * n)[:n]
    assert play_actions(game, names, "e1", variant) == play_actions(game, names, "e1", variant)


def test_tree_size_is_knuths_estimate():
    """On a uniform tree every path gives the exact count (1 + 2 + 4 + 8 positions); past
    the cap, or at a chance node that cannot be enumerated, it says "too large"."""
    from kifu.bots.evaluate import tree_size
    from tests.toy import TreeState

    tree: dict = {}

    def build(name: str, depth: int) -> None:
        if depth == 3:
            tree[name] = (None, 0)
            return
        tree[name] = (depth % 2, [(x, name + x, None) for x in "ab"])
        for x in "ab":
            build(name + x, depth + 1)

    build("r", 0)
    tree["root"] = tree.pop("r")
    for seed in range(5):
        assert tree_size(TreeState(tree), Rng(seed), 100) == 15
    assert tree_size(TreeState(tree), Rng(0), 10) == 11
    shuffle = {"root": (DEALER, [("x", "leaf", None)]), "leaf": (None, 0)}

    class NoOutcomes(TreeState):
        def chance_outcomes(self):
            return None

        def copy(self):
            return NoOutcomes(self.tree, self.node)

    assert tree_size(NoOutcomes(shuffle), Rng(0), 100) == 101
