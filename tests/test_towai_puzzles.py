"""TOWAI puzzle questions: a few answers worked out by hand, and both questions checked
against a deliberately naive brute force (plain recursion over ``copy()``/``apply``, no
pruning, no tables) on random small positions."""

from __future__ import annotations

import pytest
from towai_helpers import small_hands

from kifu import games
from kifu.bots.towai import solver_out_line
from kifu.core.errors import NotationError
from kifu.core.rng import Rng
from kifu.games.towai.actions import PLAYS, Rebuild
from kifu.games.towai.bots import out_line
from kifu.games.towai.cards import CODE_OF, cards_text
from kifu.games.towai.state import CHAIN, DEAL, LEAD, OVER, PLAY, REBUILD, SWAP_PHASE
from kifu.puzzles import Budget, get_question, questions_for

GAME = games.get("towai")
OUT, WIN = get_question("towai-out-this-turn"), get_question("towai-win-round")


def test_questions_are_registered() -> None:
    assert questions_for("towai") == ["towai-out-this-turn", "towai-win-round"]
    assert OUT.parse_answer(" yes ") == "yes"
    with pytest.raises(NotationError):
        WIN.parse_answer("maybe")


def test_hand_checked_answers() -> None:
    # T4 follows D3 by Day, the Reset clears the field, N2 is led: out in one turn
    state = GAME.from_line("towai/1 P0 day N2T4/D3D4/N1N2 D3 N3 - p2:0 0,0,0 f0t1")
    sol = OUT.solve(state)
    assert sol.answer == "yes" and sol.line == ["p0 T4", "p0 day N2"]
    # the Swap needs a 5 back from p1, who can give D3 instead
    state = GAME.from_line("towai/1 L0 day N2T5/D3N5/N1N2 - N3 - -:0 0,0,0 f0t0")
    assert OUT.solve(state).answer == "no"
    # ...unless p1 holds only 5s
    state = GAME.from_line("towai/1 L0 day N2T5/N5N5/N1N2 - N3 - -:0 0,0,0 f0t0")
    sol = OUT.solve(state)
    assert sol.answer == "yes" and sol.line[-1] == "p0 +N5"
    # D6, D6, T6: a Twai always fits the combo
    state = GAME.from_line("towai/1 P1 day D5/D6D6T6/N1 D5 N3 - p0:0 0,0,0 f0t1")
    assert OUT.solve(state).answer == "yes" and WIN.solve(state).answer == "yes"
    assert OUT.applies(GAME.from_line("towai/1 E day -/D3 - - - -:0 2,0 f0t0")) is not None


def test_out_this_turn_through_a_rebuild_during_a_draw() -> None:
    # p0's Draw empties the deck for p1 and p2: a rebuild, then p0 sheds N3 by Night
    state = GAME.from_line("towai/1 P0 day N3T3/D4/N1 D3 N2 D5D6 p2:0 0,0,0 f0t1")
    sol = OUT.solve(state)
    assert sol.answer == "yes" and sol.line[0] == "p0 T3"


def test_a_win_at_the_turn_cap_with_cards_in_hand_is_not_going_out() -> None:
    # issue 21: p0 plays D5 or D7 and the round ends at the cap (5 turn ends) with p0
    # holding the fewest cards (1): p0 wins the round but has not gone out
    state = GAME.from_line("towai/1;cap=5 P0 day D5D7/D3D4N1/N1N2N3 D5 N4 - p2:0 0,0,0 f0t4")
    sol = OUT.solve(state)
    assert sol.answer == "no" and {v.value for v in sol.values} == {"no"}
    assert out_line(state.copy()) is None and solver_out_line(state.copy()) is None
    nxt = state.copy()
    nxt.apply(GAME.parse_action(nxt, "D5"))
    assert nxt.wins == (1, 0, 0) and nxt.hand_size(0) == 1  # won at the cap, not out
    # winning the round is still winning the round
    assert WIN.solve(state).answer == "yes"
    # with one card fewer, the same play goes out
    state = GAME.from_line("towai/1;cap=5 P0 day D7/D3D4N1/N1N2N3 D5 N4 D5 p2:0 0,0,0 f0t4")
    assert OUT.solve(state).answer == "yes" and out_line(state.copy()) == [PLAYS[CODE_OF["D7"]]]


# --- the naive brute force ---------------------------------------------------------------------


def after_each(state):
    """A copy of ``state`` after each legal action, in order."""
    for a in state.legal_actions():
        nxt = state.copy()
        nxt.apply(a)
        yield nxt


def naive_out(state, player: int, start: int) -> bool:
    if state.wins[player] > start:  # the round ended: out only if the player's hand is empty
        return state.hand_size(player) == 0
    if state.phase in (DEAL, OVER):
        return False
    if state.phase == REBUILD:  # any order will do: try the pool as it is sorted
        nxt = state.copy()
        nxt.apply(Rebuild(state.pool()))
        return naive_out(nxt, player, start)
    if state.phase in (LEAD, PLAY, CHAIN) and state.mover != player:
        return False
    results = [naive_out(nxt, player, start) for nxt in after_each(state)]
    if state.phase == SWAP_PHASE and state.to_move != player:
        return all(results)
    return any(results)


def naive_win(state, player: int, start: int) -> bool:
    if state.wins[player] > start:
        return True
    if state.phase in (DEAL, OVER, REBUILD):
        return False
    results = [naive_win(nxt, player, start) for nxt in after_each(state)]
    return any(results) if state.to_move == player else all(results)


def small_positions(count: int, seed: int):
    """Random small positions: 2-3 players with 1-3 cards each, a short field, deck and
    discard pile, a lead or a follow to make, a turn cap of 6, and 0, 4 or 5 turn ends
    played already (so that the cap often ends the round within the player's turn)."""
    rng = Rng(seed)
    made = 0
    while made < count:
        n = 2 + rng.below(2)
        hands, cards = small_hands(rng, n)
        lead = rng.below(3) == 0
        mover = rng.below(n)
        field = [] if lead else cards[: 1 + rng.below(2)]
        cards = cards[len(field):]
        deck = cards[: rng.below(4)]
        cards = cards[len(deck):]
        discards = sorted(cards[: rng.below(3)])
        if lead:
            phase, side, last = f"L{mover}", "day", "-:0"
        else:
            passes = rng.below(n - 1)
            phase, side = f"P{mover}", ("day", "night")[rng.below(2)]
            last = f"p{(mover - 1 - passes) % n}:{passes}"
        line = " ".join([
            "towai/1;cap=6", phase, side, "/".join(cards_text(h) for h in hands),
            cards_text(field), cards_text(deck), cards_text(discards), last,
            ",".join("0" * n), f"f{mover}t{(0, 4, 5)[rng.below(3)]}",
        ])
        try:
            state = GAME.from_line(line)
        except NotationError:
            continue
        made += 1
        yield state


def test_both_questions_agree_with_the_naive_brute_force() -> None:
    answers = {OUT.name: set(), WIN.name: set()}
    capped = 0
    budget = Budget(nodes=500_000, seconds=None)
    for state in small_positions(220, seed=15):
        player, start = state.mover, state.wins[state.mover]
        out = OUT.solve(state, budget)
        win = WIN.solve(state, budget)
        assert out.complete and win.complete
        assert (out.answer == "yes") == naive_out(state.copy(), player, start), state.to_line()
        assert (win.answer == "yes") == naive_win(state.copy(), player, start), state.to_line()
        answers[OUT.name].add(out.answer)
        answers[WIN.name].add(win.answer)
        # the engine's own search and the solver-backed bot's agree
        assert (out_line(state.copy()) is not None) == (out.answer == "yes"), state.to_line()
        assert (solver_out_line(state.copy()) is not None) == (out.answer == "yes")
        capped += out.answer == "no" and win.answer == "yes" and state.turns >= 4
        # every first action's stated value agrees too
        for v in out.values:
            nxt = state.copy()
            nxt.apply(GAME.parse_action(nxt, v.action.split(" ", 1)[1]))
            assert (v.value == "yes") == naive_out(nxt, player, start)
    assert answers == {OUT.name: {"yes", "no"}, WIN.name: {"yes", "no"}}
    assert capped  # some positions win the round at the cap without going out
