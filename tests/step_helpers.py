"""What the step and run tests share: one action played on a copy of a position by the
fused ``step`` or by ``check`` then ``push``, and what came of it; a whole game replayed by
``run_moves`` against ``apply``."""

from __future__ import annotations

from kifu.core.errors import IllegalActionError
from kifu.core.game import DEALER, Game, State, actor_name
from kifu.core.rng import Rng
from kifu.notation.record import Move
from kifu.notation.replay import _ACTORS as ACTORS


def verdict(state: State, action, fused: bool) -> tuple:
    """(error text or None, to_move, to_line, key) after playing ``action`` on a copy of
    ``state``: by ``step`` when ``fused``, else by ``check`` then ``push``. A refused action
    must leave the copy as it was; an accepted one must leave it consistent and, after a
    ``step``, ``pop`` must undo it."""
    probe = state.copy()
    before = probe.key()
    try:
        if fused:
            mover = probe.step(action)
        else:
            probe.check(action)
            probe.push(action)
            mover = probe.to_move
    except IllegalActionError as e:
        assert probe.key() == before, "a refused action changed the state"
        return (str(e), None, None, None)
    got = (None, mover, probe.to_line(), probe.key())
    probe.check_invariants()
    if fused:
        assert probe.pop() == action and probe.key() == before
        assert probe.to_line() == state.to_line()
    return got


def play_to(game: Game, rules, seed: str, stop: int, players: int = 4, bot: str = "greedy",
            seat_bot: str | None = None, seat: int = 0):
    """A game of ``bot`` in every seat (``seat_bot`` in ``seat``), seeded by ``seed`` and
    played to its ``stop``-th player decision or later (with ``seat_bot``: the first of
    ``seat``'s from there), or its end; the state and the seat to move, or ``(None, None)``
    at the end."""
    from kifu.bots import make_bot

    rng = Rng(seed)
    state = game.new_state(players, rules)
    names = [seat_bot if seat_bot and s == seat else bot for s in range(players)]
    bots = [make_bot(game, names[s], s, rng.fork(s + 1)) for s in range(players)]
    k = 0
    while state.to_move is not None:
        mover = state.to_move
        if mover == DEALER:
            state.push(game.chance_action(state, rng))
            continue
        if k >= stop and (seat_bot is None or mover == seat):
            return state, mover
        k += 1
        state.push(bots[mover].choose(state))
    return None, None


def fwd_copy(state: State) -> State:
    """A copy that only moves forward (no undo log), as fast replay uses."""
    s = state.copy()
    s.forward_only()
    return s


def snapshot(state, invariants: bool = True) -> tuple:
    """What must agree: the position (line and key), the mover, the history, and the
    fields neither shows (GRAPH-T's cards gone; TWEAK's round totals and T! pile place);
    with ``invariants``, the invariants hold."""
    if invariants:
        state.check_invariants()
    hidden = (sorted(state.gone),) if hasattr(state, "gone") else (state.totals, state.tpos)
    return (state.to_line(), state.key(), state.to_move, list(state.history), *hidden)


def run_whole(state0: State, actions: list, *, share: int = 2, invariants: bool = True) -> None:
    """Replay ``actions`` as records are on the fast path: ``run_moves`` for stretches, a
    ``step`` for each move it stops at. The positions must match ``apply`` at the end of
    every stretch and of the game, and more than 1/``share`` of the moves must be run."""
    texts = [f"a{i}" for i in range(len(actions))]  # one text per action: a memo hit each
    memo = dict(zip(texts, actions, strict=True))
    ref = state0.copy()
    moves = []
    for a in actions:
        moves.append(Move(actor_name(ref.to_move), texts[len(moves)]))
        ref.apply(a)
    state = fwd_copy(state0)
    mirror = state0.copy()
    i = ran = 0
    while i < len(moves):
        j = state.run_moves(moves, i, memo.get, ACTORS)
        ran += j - i
        for a in actions[i:j]:
            mirror.apply(a)
        assert snapshot(state, invariants)[:3] == snapshot(mirror, invariants)[:3]
        if j < len(moves):
            state.step(actions[j])
            mirror.apply(actions[j])
            j += 1
        i = j
    assert snapshot(state, invariants) == snapshot(ref, invariants)
    assert ran > len(moves) // share, "most moves of a game are plain"


def play_in_lockstep(game, w: State, ref: State, seed: int, same, steps: int | None = None,
                     checked: bool = True) -> None:
    """Play ``w`` and ``ref`` on together by the same random choices (dealer actions by
    ``game.chance_action``, the others uniform among the legal ones, each side drawing from
    its own ``Rng(seed)``), asserting at every step that both offer the same actions and
    that ``same(w, ref)`` holds; to the end, or for ``steps`` actions. Each action is
    played by ``apply`` (checked), or by ``push`` when not ``checked``."""
    from kifu.core.game import DEALER
    from kifu.core.rng import Rng

    p1, p2 = Rng(seed), Rng(seed)
    n = 0
    while w.to_move is not None and (steps is None or n < steps):
        if w.to_move == DEALER:
            a = game.chance_action(w, p1)
            assert game.chance_action(ref, p2) == a
        else:
            legal = w.legal_actions()
            assert legal == ref.legal_actions()
            a = legal[p1.below(len(legal))]
            p2.below(len(legal))
        if checked:
            w.apply(a)
            ref.apply(a)
        else:
            w.push(a)
            ref.push(a)
        assert same(w, ref)
        n += 1
