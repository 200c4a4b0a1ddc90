"""Random playouts: whole games per second, dealer actions drawn from a seed, every player
action uniformly random. ``push`` (unchecked, what a Monte-Carlo search does) and
``kifu.bots.play_actions`` with random bots (``apply``: checked, what ``kifu play`` does)."""

from __future__ import annotations

import pytest

from kifu import games
from kifu.bots import play_actions
from kifu.core.rng import Rng

from .conftest import load_game, per_second, random_play

PLAYOUT = {"tweak": (3, "tweak/1;rounds=1"), "graph-t": (4, None), "towai": (4, "towai/1;wins=1")}
"""Players and rules of each game's playouts (TWEAK: one round; GRAPH-T: 13-card hands)."""
GAMES_PER_ROUND = 20


def _setup(gid: str):
    game = load_game(gid)
    players, rules = PLAYOUT.get(gid, (game.min_players, None))
    return game, players, game.parse_rules(rules) if rules else None


@pytest.mark.parametrize("gid", games.ids())
def test_random_playouts_push(benchmark, gid) -> None:
    game, players, variant = _setup(gid)

    def run() -> int:
        plies = 0
        for seed in range(GAMES_PER_ROUND):
            state = random_play(game.new_state(players, variant), game, Rng(seed))
            plies += len(state.history)
        return plies

    benchmark.group = "random playouts"
    benchmark.extra_info.update(players=players, rules=game.rules_spec(variant))
    plies = benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    per_second(benchmark, games=GAMES_PER_ROUND, plies=plies)


@pytest.mark.parametrize("gid", games.ids())
def test_random_playouts_checked(benchmark, gid) -> None:
    game, players, variant = _setup(gid)

    def run() -> int:
        return sum(
            len(play_actions(game, ["random"] * players, seed, variant))
            for seed in range(GAMES_PER_ROUND)
        )

    benchmark.group = "random playouts"
    benchmark.extra_info.update(players=players, rules=game.rules_spec(variant))
    plies = benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    per_second(benchmark, games=GAMES_PER_ROUND, plies=plies)
