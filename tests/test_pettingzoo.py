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


def test_the_dealer_is_kifus_own() -> None:
    """reset(seed=s) deals what kifu's seeded dealer deals from Rng(s), a whole shuffle in
    one action (the environment's dealer is not an agent and deals no picks)."""
    from kifu.core.rng import Rng

    for gid in ("graph-t", "towai", "alice"):
        e = env(gid, 3)
        e.reset(seed=12)
        game = games.get(gid)
        state, rng = game.new_state(3, None), Rng(12)
        assert e.pos.actions  # the dealer played up to the first seat's turn
        for a in e.pos.actions:
            assert a == game.chance_action(state, rng)
            state.apply(a)
        assert state.to_line() == e.pos.state.to_line()


def test_an_observation_read_late_is_the_one_of_its_step() -> None:
    """The vector is built when first read; read after later steps (or after a reset) it
    is still the vector of its own step (rebuilt from the record), and every mask is a
    fresh array (changing one does not change the next)."""
    import numpy as np

    e = env("towai", 3, "towai/1;wins=1")
    e.reset(seed=3)
    r = random.Random(3)
    kept = []
    for n, agent in enumerate(e.agent_iter()):
        obs, _reward, term, trunc, _info = e.last()
        if term or trunc:
            e.step(None)
            continue
        seat = e.possible_agents.index(agent)
        line = e.pos.state.view(seat).encode("ascii")  # the documented layout, built here
        eager = np.zeros(3 + 512, np.float32)
        eager[seat] = 1
        eager[3:3 + len(line)] = np.frombuffer(line, np.uint8) / 127.0
        if n % 3 == 0:  # read now
            assert np.array_equal(obs["observation"], eager)
        else:  # read later
            kept.append((obs, eager))
        mask = obs["action_mask"]
        legal = np.flatnonzero(mask).tolist()
        assert legal == e.pos.legal_ids()
        mask[:] = 0  # the agent's own array
        assert e.last()[0]["action_mask"].any()
        e.step(r.choice(legal))
    e.reset(seed=4)
    assert len(kept) > 5
    for obs, eager in kept:
        assert np.array_equal(obs["observation"], eager)
        assert obs["observation"].dtype == np.float32
