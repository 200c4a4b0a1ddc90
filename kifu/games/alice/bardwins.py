"""Can the Bard win this turn's check? (ruling 21) — exact AND-OR search on the engine.

The Bard's choices are the solver's (OR); every other player's, an opposing Caterpillar's
included, are against the Bard (AND); a dealer draw (the verb for a Bard who drank) must
work whatever card comes (AND). The search ends where the turn's check has been decided:
success if the Bard won it; a void turn or a check with no winner or another winner is a
"no". Two versions: :func:`bard_wins` with a transposition table keyed by ``state.key()``
and :func:`bard_wins_naive`, a plain recursion used to cross-check it.

>>> from kifu import games
>>> g = games.get("alice")
>>> s = g.from_line("alice/1 play p1 0 p0 aqr 0,0,0:0 nS1aS2aS3/nC4aH4aD6/nH10vD2aC1 "
...                 "nS5/nH7/nD9 -/nS5@p0/vC3@p0/-/- 0/-/0 - - -,-,-,0,0,0,-,0,0,-,-,-")
>>> r = bard_wins(s)
>>> r.ok, [g.format_action(s, a) for a in r.line][:1]
(False, ['nC4@N2'])
"""

from __future__ import annotations

from typing import NamedTuple

from kifu.core.game import Action
from kifu.games.alice.state import ADJUST, BARD, FORCED, PLAY, AliceState

IN_TURN = frozenset((BARD, FORCED, PLAY, ADJUST))


def applies(state: AliceState) -> str | None:
    """None if the question can be asked here, else why not."""
    if state.phase not in IN_TURN:
        return "no sentence is being told (the question needs a playing phase)"
    return None


def decided(state: AliceState, bard: int, turns: int) -> bool | None:
    """True/False once this turn's check (or void turn) is over, else None."""
    if state.phase in IN_TURN and state.turns == turns:
        return None
    return state.win == bard


class BardWins(NamedTuple):
    ok: bool
    line: list[Action]
    nodes: int


def bard_wins(state: AliceState, *, max_nodes: int | None = None) -> BardWins:
    """The exact answer with a winning line (the Bard's choices along one defence: at the
    others' nodes the line follows their first legal action that still loses to the Bard;
    when the answer is no, the first refutation). ``max_nodes``: raise ``TimeoutError``
    past it."""
    bard, turns = state.bard, state.turns
    memo: dict[tuple, bool] = {}
    nodes = 0

    def rec() -> bool:
        nonlocal nodes
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            raise TimeoutError(f"more than {max_nodes} nodes")
        r = decided(state, bard, turns)
        if r is not None:
            return r
        k = state.key()
        v = memo.get(k)
        if v is not None:
            return v
        mover = state.to_move
        acts = state.legal_actions()
        want_any = mover == bard
        res = not want_any
        for a in acts:
            state.push(a)
            sub = rec()
            state.pop()
            if sub == want_any:
                res = want_any
                break
        memo[k] = res
        return res

    ok = rec()
    line: list[Action] = []
    pushed = 0
    while decided(state, bard, turns) is None:
        # the Bard: a winning choice (or any, when none wins); the others and the dealer:
        # any reply when the Bard wins, a refutation when not
        chosen = None
        for a in state.legal_actions():
            state.push(a)
            if rec() == ok:
                chosen = a
                break
            state.pop()
        if chosen is None:  # cannot happen: the value came from these children
            break
        line.append(chosen)
        pushed += 1
    for _ in range(pushed):
        state.pop()
    return BardWins(ok, line, nodes)


def bard_wins_naive(state: AliceState) -> bool:
    """The same answer by plain recursion (no table, no ordering): the cross-check."""
    bard, turns = state.bard, state.turns

    def rec() -> bool:
        r = decided(state, bard, turns)
        if r is not None:
            return r
        acts = state.legal_actions()
        results = []
        for a in acts:
            state.push(a)
            results.append(rec())
            state.pop()
        return any(results) if state.to_move == bard else all(results)

    return rec()


def root_values(state: AliceState) -> list[tuple[Action, bool]]:
    """Whether the check is still won after each legal action (the best covers: the Bard's
    actions valued True)."""
    bard, turns = state.bard, state.turns
    out = []
    for a in state.legal_actions():
        state.push(a)
        done = decided(state, bard, turns)
        out.append((a, bard_wins(state).ok if done is None else done))
        state.pop()
    return out


__all__ = ["BardWins", "applies", "bard_wins", "bard_wins_naive", "root_values"]
