"""Alice bots: ``greedy`` takes the action that gives its seat the most SP this turn.

It plays each legal action on a copy and scores the result: SP gained at once (a check
that the action completes resolves inside ``push``), a win of the game, and while the
sentence is still open, the check as the sentence stands (+1 if it would win, -1 if it
would lose). Dealer-like choices are simple: discard the lowest rank, draw from the deck it
holds fewest of, always buy with the three lowest cards, swap when that wins at once.
Ties go to the bot's rng.
"""

from __future__ import annotations

from kifu.core.game import Action, Bot, State
from kifu.games.alice.actions import Buy, Char, Discard, Play
from kifu.games.alice.cards import CODE_RANK, CODE_TYPE
from kifu.games.alice.state import (
    BUY,
    CLEAN,
    N2,
    OVER,
    PLAY,
    SYSTEM,
    AliceState,
)


def projected(state: AliceState, me: int) -> int:
    """+1/-1 if ``me`` would win/lose the check on the sentence as it stands, else 0."""
    if state.phase != PLAY or not all(state.slots):
        return 0
    b = state.bard
    o = state.owners[N2]
    o = SYSTEM if o == b else o
    if me not in (b, o):
        return 0
    t1, t2 = state.totals()
    ok1, ok2 = t1 <= 21, t2 <= 21
    if ok1 and (not ok2 or t1 > t2):
        w = b
    elif ok2 and (not ok1 or t2 > t1):
        w = o
    else:
        return 0
    return 1 if w == me else -1


def score(state: AliceState, action: Action, me: int) -> int:
    before = state.sp[me]
    s = state.copy()
    s.push(action)
    if s.phase == OVER:
        r = s.result()
        assert r is not None
        return 1000 if r.ranks[me] == 1 else -1000
    return 10 * (s.sp[me] - before) + projected(s, me)


class GreedyBot(Bot):
    name = "greedy"

    def choose(self, state: State) -> Action:
        assert isinstance(state, AliceState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = self.seat
        ph = state.phase
        if ph == CLEAN:
            if type(legal[0]) is Discard:
                low = min(CODE_RANK[a.code] for a in legal)  # type: ignore[attr-defined]
                legal = [a for a in legal if CODE_RANK[a.code] == low]  # type: ignore[attr-defined]
            else:
                held = [sum(1 for c in state.hands[me] if CODE_TYPE[c] == t) for t in range(3)]
                few = min(held[a.deck] for a in legal)  # type: ignore[attr-defined]
                legal = [a for a in legal if held[a.deck] == few]  # type: ignore[attr-defined]
            return self.rng.choice(legal)
        if ph == BUY:
            buys = [a for a in legal if type(a) is Buy]
            return min(buys, key=lambda a: sum(CODE_RANK[c] for c in a.cards))  # type: ignore[attr-defined]
        if type(legal[0]) is Char:
            low = min(CODE_RANK[a.code] for a in legal)  # type: ignore[attr-defined]
            return self.rng.choice([a for a in legal if CODE_RANK[a.code] == low])  # type: ignore[attr-defined]
        scored = [(score(state, a, me), a) for a in legal]
        best = max(v for v, _ in scored)
        top = [a for v, a in scored if v == best]
        plays = [a for a in top if type(a) is Play]
        return self.rng.choice(plays or top)


__all__ = ["GreedyBot", "projected"]
