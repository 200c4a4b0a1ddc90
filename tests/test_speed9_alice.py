"""Issue 33, ninth session: Alice's world sampler reads its first world from a position
line and makes the next ones as copies with the drawn hands, Characters and roles set.
Every world must be, field by field, the one the reader gives for the same draw
(``by_line=True``, the code before the change), consume the same random numbers, and play
on exactly as it."""

from __future__ import annotations

from step_helpers import play_in_lockstep

from kifu import games
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.alice.worlds import world_sampler

GAME = games.get("alice")


def _positions(players: int, rules: str | None, seed: int):
    variant = GAME.parse_rules(rules) if rules else None
    state = GAME.new_state(players, variant)
    rng = Rng(f"speed9:alice:{players}:{seed}")
    while state.to_move is not None:
        if state.to_move == DEALER:
            state.apply(GAME.chance_action(state, rng))
            continue
        yield state
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])


def test_copied_worlds_are_the_worlds_read_from_their_lines():
    checked = 0
    for players, rules in ((3, "alice/1;turns=5"), (4, "alice/1;turns=5"), (5, None),
                           (4, None)):
        for seed in range(3):
            for k, state in enumerate(_positions(players, rules, seed)):
                if k % 4:
                    continue
                seat = state.to_move
                fast = world_sampler(state, seat, GAME)
                slow = world_sampler(state, seat, GAME, by_line=True)
                r1, r2 = Rng(k), Rng(k)
                for _ in range(4):
                    w, ref = fast(r1), slow(r2)
                    assert r1.state == r2.state
                    assert w._snap() == ref._snap()
                    assert w.to_line() == ref.to_line()
                    assert w.history == ref.history == []
                    w.check_invariants()
                    checked += 1
                # and it plays on as the world read from its line
                play_in_lockstep(GAME, w, ref, k + 1, lambda a, b: a.to_line() == b.to_line())
    assert checked > 200
