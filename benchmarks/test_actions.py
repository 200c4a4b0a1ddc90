"""Legal action generation, counting, and apply + undo, per game, on typical positions (every
decision of seeded random games) and on each game's worst cases."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from kifu import games
from kifu.core.game import DEALER, State
from kifu.core.rng import Rng

from .conftest import load_game, per_second

TYPICAL_RULES = {"tweak": "tweak/1;rounds=1", "towai": "towai/1;wins=1"}
"""The variant of each game's typical games (default: the game's defaults)."""
TYPICAL_GAMES = 12


@cache
def typical(gid: str) -> tuple[State, ...]:
    """Every player decision of 12 seeded random games (player counts cycling through the
    game's range), as independent states: the positions search and bots meet."""
    game = load_game(gid)
    rules = TYPICAL_RULES.get(gid)
    variant = game.parse_rules(rules) if rules else None
    out = []
    for seed in range(TYPICAL_GAMES):
        n = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = game.new_state(n, variant)
        rng = Rng(seed)
        while state.to_move is not None:
            if state.to_move == DEALER:
                state.push(game.chance_action(state, rng))
                continue
            out.append(state.copy())
            state.push(rng.choice(state.legal_actions()))
    return tuple(out)


def _tweak_table_12() -> State:
    from .make_tweak_perft import worst_case

    return worst_case()


def _graph_t_13(follow: bool) -> Callable[[], State]:
    """A 4-player GRAPH-T deal (13 cards each): the leader's first play (``follow`` False)
    or the next seat's reply to it, from the seed of 0..49 with the most legal plays."""

    def make() -> State:
        game = load_game("graph-t")
        best: tuple[int, int] = (-1, -1)
        for seed in range(50):
            state = _graph_t_deal(game, seed, follow)
            best = max(best, (len(state.legal_actions()), -seed))
        return _graph_t_deal(game, -best[1], follow)

    return make


def _graph_t_deal(game, seed: int, follow: bool) -> State:
    state = game.new_state(4)
    rng = Rng(seed)
    state.push(game.chance_action(state, rng))  # the deal
    state.push(game.chance_action(state, rng))  # the first leader
    if follow:
        state.push(state.legal_actions()[0])
    return state


def _towai(line: str) -> Callable[[], State]:
    """A TOWAI worst case: ``lead-17`` leads from a hand of all 17 kinds (34 leads);
    ``follow-13`` follows a Night 1 by Day with every Day and Twai kind (12 plays + pass)."""
    return lambda: load_game("towai").from_line(line)


WORST: dict[str, dict[str, Callable[[], State]]] = {
    "towai": {
        "lead-17": _towai("towai/1 L0 day D3D4D5D6D7N1N2N3N4N5T1T2T3T4T5T6T7/D3/D3 - N1 - "
                          "-:0 0,0,0 f0t0"),
        "follow-13": _towai("towai/1 P1 day N2/D3D4D5D6D7N2N3T1T2T3T4T5T6T7/N3 N1 D3 - "
                            "p0:0 0,0,0 f0t1"),
    },
    "tweak": {"table-12": _tweak_table_12},
    "graph-t": {"lead-13": _graph_t_13(False), "follow-13": _graph_t_13(True)},
}
WORST_CASES = [(gid, name) for gid in games.ids() for name in WORST.get(gid, {})]


@cache
def worst(gid: str, name: str) -> State:
    load_game(gid)
    return WORST[gid][name]()


# --- typical positions ----------------------------------------------------------------------
@pytest.mark.parametrize("gid", games.ids())
def test_legal_actions_typical(benchmark, gid) -> None:
    states = typical(gid)
    fns = [s.legal_actions for s in states]
    actions = sum(len(f()) for f in fns)

    def run() -> None:
        for f in fns:
            f()

    benchmark.group = "legal actions, typical positions"
    benchmark(run)
    per_second(benchmark, positions=len(fns), actions=actions)


@pytest.mark.parametrize("gid", games.ids())
def test_count_legal_typical(benchmark, gid) -> None:
    states = typical(gid)
    fns = [s.count_legal for s in states]

    def run() -> None:
        for f in fns:
            f()

    benchmark.group = "legal actions, typical positions"
    benchmark(run)
    per_second(benchmark, positions=len(fns))


@pytest.mark.parametrize("gid", games.ids())
def test_push_pop_typical(benchmark, gid) -> None:
    """Apply (``push``, unchecked, as search does) and undo (``pop``) every legal action of
    every typical position."""
    jobs = [(s.push, s.pop, s.legal_actions()) for s in typical(gid)]
    pairs = sum(len(a) for _, _, a in jobs)

    def run() -> None:
        for push, pop, actions in jobs:
            for a in actions:
                push(a)
                pop()

    benchmark.group = "apply + undo"
    benchmark(run)
    per_second(benchmark, push_pop=pairs)


@pytest.mark.parametrize("gid", games.ids())
def test_apply_checked_typical(benchmark, gid) -> None:
    """``apply`` (checks legality first, as replay and live play do) and ``pop``, for the
    first legal action of every typical position."""
    jobs = [(s.apply, s.pop, s.legal_actions()[0]) for s in typical(gid)]

    def run() -> None:
        for apply, pop, a in jobs:
            apply(a)
            pop()

    benchmark.group = "apply + undo"
    benchmark(run)
    per_second(benchmark, apply_pop=len(jobs))


# --- worst cases ------------------------------------------------------------------------------
@pytest.mark.parametrize(("gid", "name"), WORST_CASES, ids=[f"{g}-{n}" for g, n in WORST_CASES])
def test_legal_actions_worst(benchmark, gid, name) -> None:
    state = worst(gid, name)
    n = len(state.legal_actions())
    benchmark.group = "legal actions, worst cases"
    assert len(benchmark(state.legal_actions)) == n
    per_second(benchmark, actions=n)


@pytest.mark.parametrize(("gid", "name"), WORST_CASES, ids=[f"{g}-{n}" for g, n in WORST_CASES])
def test_count_legal_worst(benchmark, gid, name) -> None:
    state = worst(gid, name)
    benchmark.group = "legal actions, worst cases"
    assert benchmark(state.count_legal) == len(state.legal_actions())


@pytest.mark.parametrize(("gid", "name"), WORST_CASES, ids=[f"{g}-{n}" for g, n in WORST_CASES])
def test_push_pop_worst(benchmark, gid, name) -> None:
    state = worst(gid, name)
    actions = state.legal_actions()
    push, pop = state.push, state.pop

    def run() -> None:
        for a in actions:
            push(a)
            pop()

    benchmark.group = "apply + undo"
    benchmark(run)
    per_second(benchmark, push_pop=len(actions))
