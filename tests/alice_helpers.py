"""Building Alice positions for rule tests: a position line from named fields."""

from __future__ import annotations

from kifu import games
from kifu.games.alice.state import AliceState

GAME = games.get("alice")
CHECK0 = "-,-,-,0,0,0,-,0,0,-,-,-"


def make(*, hands: str, chars: str, roles: str, phase: str = "play", turn: str = "p1",
         bard: str = "p0", sp: str | None = None, sentence: str = "-/-/-/-/-",
         flags: str = "-/-/0", discard: str = "-", story: str = "-", check: str = CHECK0,
         turns: int = 0, rules: str = "alice/1") -> AliceState:
    n = len(hands.split("/"))
    sp = sp if sp is not None else ",".join("0" * n) + ":0"
    line = " ".join((rules, phase, turn, str(turns), bard, roles, sp, hands, chars, sentence,
                     flags, discard, story, check))
    state = GAME.from_line(line)
    assert GAME.from_line(state.to_line()) == state
    return state


def run(state: AliceState, *texts: str) -> AliceState:
    """Apply each action text (checked) in turn."""
    for t in texts:
        state.apply(GAME.parse_action(state, t))
        state.check_invariants()
    return state


def legal(state: AliceState) -> list[str]:
    return [GAME.format_action(state, a) for a in state.legal_actions()]
