"""kifu's games as PettingZoo AEC environments (kifu/interop/pettingzoo.py), checked by
PettingZoo's own ``api_test`` and ``seed_test`` for every game at every seat count, and by
kifu: a played environment's record validates, rendering draws kifu's picture."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (the kifu[pettingzoo] "
                    "extra: pip install -e '.[pettingzoo]')")

from pettingzoo.test import api_test, seed_test

from kifu import games
from kifu.interop.bridge import GAME_IDS
from kifu.interop.pettingzoo import env

CASES = [(gid, n) for gid in GAME_IDS
         for n in range(games.get(gid).min_players, games.get(gid).max_players + 1)]


@pytest.mark.parametrize(("gid", "players"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_api_test(gid: str, players: int) -> None:
    api_test(env(gid, players), num_cycles=200)


@pytest.mark.parametrize(("gid", "players"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_seed_test(gid: str, players: int) -> None:
    seed_test(lambda: env(gid, players), num_cycles=50)


def play(e, seed: int) -> None:
    r = random.Random(seed)
    e.reset(seed=seed)
    for agent in e.agent_iter():
        obs, _reward, term, trunc, _info = e.last()
        assert obs["observation"].shape == e.observation_space(agent)["observation"].shape
        if term or trunc:
            e.step(None)
            continue
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        assert legal == e.pos.legal()[0]
        e.step(r.choice(legal))


@pytest.mark.parametrize("gid", GAME_IDS)
def test_a_played_game_validates_and_pays_shares(gid: str, run, tmp_path) -> None:
    players = max(3, games.get(gid).min_players)
    rules = {"tweak": "tweak/1;rounds=1", "towai": "towai/1;wins=1"}.get(gid, "")
    e = env(gid, players, rules)
    play(e, 4)
    assert not e.agents  # every agent stepped out at the end
    (tmp_path / "g.kifu").write_text(e.record())
    out = run("validate", "g.kifu")
    assert out.exit_code == 0, out.output
    shares = e.pos.returns()
    assert sum(shares) == pytest.approx(players / 2)


def test_the_same_seed_deals_the_same_cards() -> None:
    a, b = env("towai", 4), env("towai", 4)
    a.reset(seed=12)
    b.reset(seed=12)
    assert a.pos.state.to_line() == b.pos.state.to_line()
    b.reset(seed=13)
    assert a.pos.state.to_line() != b.pos.state.to_line()


def test_render_draws_kifus_picture() -> None:
    e = env("graph-t", 3, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text == e.pos.state.render()
    assert "p0" in text


def test_rewards_come_at_the_end() -> None:
    e = env("graph-t", 2)
    r = random.Random(0)
    e.reset(seed=0)
    seen = []
    for _agent in e.agent_iter():
        obs, reward, term, _trunc, _info = e.last()
        seen.append(reward)
        if term:
            e.step(None)
            continue
        e.step(r.choice([i for i, m in enumerate(obs["action_mask"]) if m]))
    assert set(seen[:-2]) == {0.0}
    assert sorted(seen[-2:]) in ([0.0, 1.0], [0.5, 0.5])
