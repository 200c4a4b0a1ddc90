"""``greedy``'s choice without listing the legal actions (issue 33, tenth session):
:func:`kifu.games.tweak.bots.greedy_action` equals its definition
:func:`kifu.games.tweak.bots.greedy_plain` (legal actions listed, best capture, each Joker
and Shifter played) at every position of random games, with T! cards used (a ``random``
seat uses Jokers, Shifters, Thieves and Bombs), at 2 to 5 players and in variants; and
the ``tactics`` rollout policy, which now asks it where it has no Thief or Bomb to weigh,
equals its code before."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kifu import games
from kifu.bots import make_bot
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.tweak.actions import STEAL, UseBomb, UseThief
from kifu.games.tweak.bots import (
    _BEST,
    TacticsPolicy,
    _bomb_value,
    _greedy,
    _t_uses,
    _thief_value,
    _value_of,
    best_capture,
    cheapest_place,
    greedy_action,
    greedy_plain,
)
from kifu.games.tweak.state import BOMB_PHASE, TURN


def _thief_plain(state, thief):
    state.push(thief)
    total = 0.0
    hand = state.hands[state.victim]
    size = len(hand)
    prev = -1
    for c in hand:
        if c == prev:
            continue
        prev = c
        state.push(STEAL[c])
        total += hand.count(c) / size * best_capture(state)[0]
        state.pop()
    state.pop()
    return total


def _bomb_plain(state, bomb):
    me = state.to_move
    state.push(bomb)
    pushed = 1
    while state.phase == BOMB_PHASE and state.to_move is not None:
        state.push(cheapest_place(state, state.hands[state.to_move]))
        pushed += 1
    v = best_capture(state)[0] if state.to_move == me else 0.0
    for _ in range(pushed):
        state.pop()
    return v


def tactics_plain(state):
    """``tactics``' choice as it was written before the fast path (its definition)."""
    if state.phase == BOMB_PHASE:
        return cheapest_place(state, state.hands[state.to_move])
    legal = state.legal_actions()
    value, pick = _greedy(state, legal)
    if state.tused:
        return pick
    tees = _t_uses(legal, UseThief, UseBomb)
    if not tees:
        return pick
    best = _value_of(state, pick) if value is None else value
    for t in tees:
        v = _thief_plain(state, t) if type(t) is UseThief else _bomb_plain(state, t)
        if v > best:
            best, pick = v, t
    return pick

GAME = games.get("tweak")
TACTICS = TacticsPolicy(0, Rng("tactics"))


def _check_game(seed: str, players: int, rules: str, names: list[str]) -> int:
    """Plays one game; at every turn or Bomb position compares the two (and after a
    Joker or Shifter the seat to move used); the positions compared."""
    rng = Rng(seed)
    state = GAME.new_state(players, GAME.parse_rules(rules))
    bots = [make_bot(GAME, names[s % len(names)], s, rng.fork(s + 1)) for s in range(players)]
    seen = 0
    while state.to_move is not None:
        mover = state.to_move
        if mover == DEALER:
            state.push(GAME.chance_action(state, rng))
            continue
        if state.phase in (TURN, BOMB_PHASE):
            assert greedy_action(state) == greedy_plain(state), state.to_line()
            line = state.to_line()
            assert TACTICS.choose(state) == tactics_plain(state), line
            assert state.to_line() == line
            seen += 1
        state.push(bots[mover].choose(state))
    return seen


def _random_turns(prefix: str, games: int):
    """Every turn position (the state itself, to be read and left as it is) of ``games``
    one-round 4-player games of ``random`` seats, which use their T! cards at random."""
    for seed in range(games):
        rng = Rng(f"{prefix}:{seed}")
        state = GAME.new_state(4, GAME.parse_rules("tweak/1;rounds=1"))
        bots = [make_bot(GAME, "random", s, rng.fork(s + 1)) for s in range(4)]
        while state.to_move is not None:
            mover = state.to_move
            if mover == DEALER:
                state.push(GAME.chance_action(state, rng))
                continue
            if state.phase == TURN:
                yield state
            state.push(bots[mover].choose(state))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 100_000), st.integers(2, 5),
       st.sampled_from(["tweak/1;rounds=1", "tweak/1;rounds=2",
                        "tweak/1;rounds=1;empty_capture=true"]),
       st.booleans())
def test_greedy_equals_its_definition_everywhere(seed, players, rules, cold):
    if cold:
        _BEST.clear()  # the memo filled afresh in this game
    seen = _check_game(f"gfast:{seed}", players, rules, ["random", "greedy", "random"])
    assert seen > 0


def test_every_t_card_use_is_weighed_as_played():
    """Many positions where the mover holds a Joker, a Shifter, a Thief or a Bomb (random
    seats use them at random, so both the turn before and after a use come up); the
    ``tactics`` policy (which also weighs a Thief and a Bomb) against its definition."""
    held = 0
    for state in _random_turns("gfast-t", 12):
        held += bool(state.held[state.mover]) and not state.tused
        assert greedy_action(state) == greedy_plain(state), state.to_line()
        assert TACTICS.choose(state) == tactics_plain(state), state.to_line()
    assert held > 20


def test_thief_and_bomb_values_equal_their_definitions():
    """``tactics``' values of a Thief and a Bomb (now read without listing the legal
    actions) equal the plain ones, at every turn a ``random`` seat could use them."""
    tried = 0
    for state in _random_turns("gfast-tb", 16):
        for t in state.legal_actions():
            if type(t) is UseThief:
                assert _thief_value(state, t) == _thief_plain(state, t)
                tried += 1
            elif type(t) is UseBomb:
                assert _bomb_value(state, t) == _bomb_plain(state, t)
                tried += 1
    assert tried > 20
