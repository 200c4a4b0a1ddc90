"""Issue 33, sixth session: TWEAK's hot paths made cheaper without changing any decision.

What the searchers spend their time on in TWEAK (``greedy`` and ``tactics`` choices in
rollouts, the world sampler's draw, the end-of-rollout scores) was rewritten for speed.
These tests replay seeded positions and compare every observation with
``tests/data/tweak_speed6.json``, recorded by running :func:`observe` on the code BEFORE
the change (main at ab9b95d; ``python tests/test_tweak_speed6.py --write`` records it
again): the choices of ``greedy`` and ``tactics`` at every decision of seeded games (2, 3
and 4 players, one round and full rules, random and greedy players, so that Jokers,
Shifters, Thieves and Bombs come up), the worlds the seat's sampler draws (their whole
position lines), rollout values, the scores the profile reads, and the actions of
``expert`` and its cheater at a small level in seeded games against ``greedy``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from step_helpers import play_in_lockstep

from kifu import games
from kifu.bots import make_bot
from kifu.bots.evaluate import _Rollout
from kifu.bots.profiles import profile
from kifu.core.game import DEALER
from kifu.core.rng import Rng

GAME = games.get("tweak")
PROF = profile("tweak")
DATA = Path(__file__).parent / "data" / "tweak_speed6.json"
SETUPS = [(2, "tweak/1;rounds=1"), (3, "tweak/1;rounds=1"), (4, "tweak/1;rounds=1"),
          (4, None), (3, None)]
"""Players and rules of the seeded games."""


def _digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def _games(players: int, rules: str | None, seed: int, bot: str):
    """Every position (a copy) of one seeded game where a player (not the dealer) moves."""
    variant = GAME.parse_rules(rules) if rules else None
    state = GAME.new_state(players, variant)
    rng = Rng(f"speed6:{players}:{rules}:{seed}:{bot}")
    bots = [make_bot(GAME, bot, s, rng.fork(s + 1)) for s in range(players)]
    dealer = rng.fork(0)
    while state.to_move is not None:
        mover = state.to_move
        if mover == DEALER:
            state.push(GAME.chance_action(state, dealer))
            continue
        yield state
        state.push(bots[mover].choose(state))


def observe_policies() -> dict[str, list[str]]:
    """Per setup and player bot: the choices of ``greedy`` and ``tactics`` at every
    decision, the game's line unchanged after each (their push/pop leave it as it was)."""
    out: dict[str, list[str]] = {}
    for players, rules in SETUPS:
        for bot in ("random", "greedy"):
            rows = []
            for seed in range(4):
                for state in _games(players, rules, seed, bot):
                    line = state.to_line()
                    mover = state.to_move
                    g = make_bot(GAME, "greedy", mover, Rng(0)).choose(state)
                    assert state.to_line() == line
                    t = PROF.policies()["tactics"](mover, Rng(0)).choose(state)
                    assert state.to_line() == line
                    rows.append(f"{GAME.format_action(state, g)}|"
                                f"{GAME.format_action(state, t)}")
            out[f"{players}:{rules}:{bot}"] = rows
    return out


def observe_worlds() -> dict[str, list[str]]:
    """Per setup: digests of the worlds the mover's sampler draws at every 5th position of
    seeded random games (3 worlds each, from a seeded stream), of the profile's scores in
    them, and of rollout values (``tactics`` for the seat, ``greedy`` for the others, as
    TWEAK's ``expert``; margin 0.5) played from them."""
    out: dict[str, list[str]] = {}
    for players, rules in SETUPS:
        lines, scores, values = [], [], []
        roll = _Rollout(GAME, PROF, players, "tactics", "greedy")
        for seed in range(3):
            for k, state in enumerate(_games(players, rules, seed, "random")):
                if k % 5:
                    continue
                seat = state.to_move
                draw = GAME.world_sampler(state, seat)
                rng = Rng(f"worlds:{seed}:{k}")
                for j in range(3):
                    w = draw(rng)
                    lines.append(w.to_line())
                    assert not w.history
                    scores.append(repr(PROF.scores(w)))
                    v = roll.run(w, rng.next64(), seat, 0.5 if j else 0.0)
                    values.append(repr(v))
                    scores.append(repr(PROF.scores(w)))
        out[f"{players}:{rules}"] = [_digest(lines), _digest(scores), _digest(values)]
    return out


def observe_expert() -> dict[str, list[str]]:
    """The actions of ``expert`` (fair, and its cheater) at 8 + 16 worlds in seeded
    4-player one-round games against three ``greedy`` (seat rotating), and of plain
    ``expert`` (the default level) in one. Recorded before TWEAK's ``expert`` took the
    posterior's worlds (ninth session), so the fair bots are named with ``posterior=0``
    (the bot of the recording); the keys stay the recording's names."""
    out: dict[str, list[str]] = {}
    for key, bot, count in (("expert:worlds=8", "expert:posterior=0:worlds=8", 4),
                            ("expert:cheat=1:worlds=8", "expert:cheat=1:worlds=8", 4),
                            ("expert", "expert:posterior=0", 1)):
        rows = []
        for g in range(count):
            seat = g % 4
            variant = GAME.parse_rules("tweak/1;rounds=1")
            state = GAME.new_state(4, variant)
            rng = Rng(f"speed6:expert:{g}")
            bots = [make_bot(GAME, bot if s == seat else "greedy", s, rng.fork(s + 1))
                    for s in range(4)]
            dealer = rng.fork(0)
            while state.to_move is not None:
                mover = state.to_move
                if mover == DEALER:
                    state.push(GAME.chance_action(state, dealer))
                    continue
                a = bots[mover].choose(state)
                if mover == seat:
                    rows.append(GAME.format_action(state, a))
                state.push(a)
        out[key] = rows
    return out


def observe() -> dict[str, dict[str, list[str]]]:
    return {"policies": observe_policies(), "worlds": observe_worlds(),
            "expert": observe_expert()}


def _stored() -> dict:
    return json.loads(DATA.read_text())


def test_greedy_and_tactics_choose_as_before():
    stored = _stored()["policies"]
    got = observe_policies()
    assert sorted(got) == sorted(stored)
    for key, rows in got.items():
        assert len(rows) > 100, key
        assert rows == stored[key], key


def test_worlds_rollouts_and_scores_as_before():
    assert observe_worlds() == _stored()["worlds"]


def test_a_drawn_world_is_the_state_its_line_reads():
    """The sampler builds its first world from a position line and the next ones as
    copies of it with the other hands, the deck and the T! pile set: each must be the
    state its own line gives (every field, no history, the engine's checks pass), and
    play on exactly as it (the whole game, random actions)."""
    for players, rules in SETUPS[:3]:
        for k, state in enumerate(_games(players, rules, 7, "random")):
            if k % 3:
                continue
            draw = GAME.world_sampler(state, state.to_move)
            rng = Rng(f"line:{k}")
            for _ in range(4):
                w = draw(rng)
                w.check_invariants()
                ref = GAME.from_line(w.to_line())
                assert w.key() == ref.key() and not w.history
                assert w._snap() == ref._snap()
                play_in_lockstep(GAME, w, ref, k, lambda a, b: a.to_line() == b.to_line(),
                                 checked=False)


def test_expert_decides_as_before():
    stored = _stored()["expert"]
    got = observe_expert()
    assert got == stored
    assert all(len(v) >= 5 for v in got.values())


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    DATA.write_text(json.dumps(observe(), indent=1) + "\n")
