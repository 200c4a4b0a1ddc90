"""TWEAK's ``step`` (check and push fused, the fast replay path's call) against ``check``
then ``push``: the same verdict and error text, the same position (``to_line``, ``key``),
the same ``to_move``, the state untouched when it refuses, and ``pop`` undoing it; and a
forward-only state played by ``step`` going through the same positions as ``apply``.

The actions tried at each position are the legal ones and many near misses built from the
position: each hand card placed or capturing with the wrong cards, too many or too few,
unsorted, or cards the table lacks; cards not in the hand; every pass and T! use (with the
wrong Joker delta, every victim seat); first dealers out of range; deals that are not a
permutation of the round's cards."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from step_helpers import verdict

from kifu import games
from kifu.core.errors import IllegalActionError
from kifu.core.game import DEALER, State
from kifu.core.rng import Rng
from kifu.games.tweak import actions as act
from kifu.games.tweak.actions import PLACE, Capture
from kifu.games.tweak.state import (
    BOMB_PHASE,
    DEAL,
    FIRST,
    STEAL_PHASE,
    TURN,
    TweakState,
)

GAME = games.get("tweak")


def near_misses(state: TweakState, rng: random.Random) -> list:
    """Actions built from the position, mostly illegal here."""
    out: list = [act.PASS, act.JOKER_UP, act.JOKER_DOWN, act.UseJoker(2), act.SHIFT, act.BOMB_ALL]
    out += [act.UseThief(v) for v in range(-1, state.n + 1)]
    out += [act.ChooseDealer(s) for s in range(-1, state.n + 2)]
    if state.phase in (TURN, BOMB_PHASE, STEAL_PHASE):
        table = state.table
        every_card = sorted(set(state._components))
        hand = state.hands[state.mover]
        for c in set(hand) | set(rng.sample(every_card, 3)):
            out.append(PLACE[c])
            out.append(Capture(c, ()))
            for k in range(1, min(4, len(table)) + 1):
                for sub in list(combinations(table, k))[:6]:
                    out.append(Capture(c, sub))
                    if k > 1 and sub[0] != sub[-1]:
                        out.append(Capture(c, tuple(reversed(sub))))  # unsorted
            out.append(Capture(c, (*table, table[0])) if table else Capture(c, (c,)))
            out.append(Capture(c, tuple(sorted(rng.sample(every_card, 2)))))
    if state.phase == DEAL or rng.random() < 0.05:
        deck = list(state._components)
        tpile = list(state._t_components)
        rng.shuffle(deck)
        out.append(act.Deal(tuple(deck), tuple(tpile)))
        out.append(act.Deal(tuple(deck[:-1]), tuple(tpile)))  # a card short
        out.append(act.Deal(tuple(deck[:-1] + deck[:1]), tuple(tpile)))  # one card twice
        out.append(act.Deal(tuple(deck), tuple(tpile[:-1])))
        out.append(act.Deal(tuple(deck + tpile[:1]), tuple(tpile)))
    return out


def base_check(state: TweakState, action) -> str | None:
    """The error of the base ``check`` (membership in ``legal_actions()``), or None: what
    ``TweakState.check``'s direct answers must agree with."""
    try:
        State.check(state, action)
    except IllegalActionError as e:
        return str(e)
    return None


@pytest.mark.parametrize("k", range(6))
def test_step_matches_check_and_push(k: int) -> None:
    variant = (None, *GAME.example_variants)[k % (1 + len(GAME.example_variants))]
    n = 2 + k % 5
    state = GAME.new_state(n, variant)
    chance, rng = Rng(100 + k), random.Random(k)
    fwd = state.copy()
    fwd.forward_only()
    kinds: set[str] = set()
    plies = 0
    while state.to_move is not None and plies < 400:
        plies += 1
        legal = state.legal_actions()
        actions = legal + near_misses(state, rng)
        for action in actions:
            want = verdict(state, action, fused=False)
            got = verdict(state, action, fused=True)
            assert got == want, (state.to_line(), action)
            if type(action) is not act.Deal:  # a deal is checked as a permutation, not listed
                assert base_check(state, action) == want[0], (state.to_line(), action)
            kinds.add(f"{type(action).__name__}:{'ok' if want[0] is None else 'refused'}")
        if state.to_move == DEALER:
            good = GAME.chance_action(state, chance)
        else:
            good = rng.choice(legal)
        state.apply(good)
        assert fwd.step(good) == state.to_move
        assert fwd.to_line() == state.to_line() and fwd.key() == state.key()
    with pytest.raises(IndexError):
        fwd.pop()  # forward-only: nothing to undo
    # what was tried covers the fused paths and their refusals
    if k < 5:  # variant 5 has no T! cards
        assert {"UseJoker:ok", "UseShifter:ok"} & kinds and "UseJoker:refused" in kinds
    SEEN.update(kinds)
    assert {"Place:ok", "Capture:ok", "Capture:refused", "Place:refused"} <= kinds
    if plies > 30:
        assert {"Deal:ok", "Deal:refused"} <= kinds


SEEN: set[str] = set()
"""What the games of test_step_matches_check_and_push tried (for the test below)."""


def test_step_covers_every_phase() -> None:
    """The games above pass through every phase (so each branch of ``step`` ran), and
    between them played both T! cards that ``step`` plays directly."""
    if SEEN:  # when the games above ran in this session
        assert {"UseJoker:ok", "UseShifter:ok", "ChooseDealer:ok", "Deal:ok"} <= SEEN
    phases = set()
    for k in range(6):
        state = GAME.new_state(2 + k % 5, (None, *GAME.example_variants)[k % 3])
        chance, rng = Rng(100 + k), random.Random(k)
        while state.to_move is not None and len(state.history) < 400:
            phases.add(state.phase)
            if state.to_move == DEALER:
                state.step(GAME.chance_action(state, chance))
            else:
                state.step(rng.choice(state.legal_actions()))
    assert {FIRST, DEAL, TURN} <= phases
    assert phases & {BOMB_PHASE, STEAL_PHASE}


def test_split_cards_fast_way_agrees_with_the_token_way() -> None:
    """``split_cards`` reads two bytes at a time; the answer is the token-by-token one for
    card texts in any case, odd lengths, unknown tokens and non-ASCII text."""
    from kifu.core.codes import split_pairs
    from kifu.games.tweak.cards import CODE_OF, TOKEN, split_cards

    def slow(text: str) -> list[int] | None:
        return [] if text == "-" else split_pairs(text, CODE_OF)

    rng = random.Random(3)
    texts = ["", "-", "R", "r1o2!j", "R1O2X9", "R1\u017f1", "!\u017f", "R1 O2", "R1O2!"]
    for _ in range(300):
        cards = [rng.choice(TOKEN) for _ in range(rng.randrange(0, 40))]
        text = "".join(cards)
        texts.append(text)
        texts.append(text.lower())
        if text:
            i = rng.randrange(len(text))
            texts.append(text[:i] + rng.choice("xZ9 -!\u00e9") + text[i + 1 :])
    for text in texts:
        assert split_cards(text) == slow(text), text


def test_capture_parse_fast_way_agrees() -> None:
    """Captures of number cards are read by one pattern; the action (or error) is that of
    the general reading, for texts in any case and damaged ones."""
    from kifu.core.errors import NotationError
    from kifu.games.tweak import codec
    from kifu.games.tweak.cards import TOKEN

    def general(text: str):
        saved = codec._CAPTURE
        codec._CAPTURE = codec.re.compile(r"(?!)")  # never matches: the general way only
        try:
            return codec.parse_action(text)
        except NotationError as e:
            return ("error", str(e), e.col)
        finally:
            codec._CAPTURE = saved

    def fast(text: str):
        try:
            return codec.parse_action(text)
        except NotationError as e:
            return ("error", str(e), e.col)

    rng = random.Random(4)
    numbers = TOKEN[:36]
    for _ in range(600):
        text = rng.choice(numbers) + rng.choice("xX") + "".join(
            rng.choice(TOKEN if rng.random() < 0.1 else numbers)
            for _ in range(rng.randrange(0, 5))
        )
        for t in (text, text.lower(), text + rng.choice(["\\n", " ", "x", "7", "!"])):
            assert fast(t) == general(t), t


def test_result_ranks_as_from_keys() -> None:
    """``result()`` ranks the totals as ``Result.from_keys`` does, ties included."""
    from kifu.core.game import Result
    from kifu.games.tweak.state import OVER

    rng = random.Random(6)
    for _ in range(300):
        n = rng.randrange(2, 7)
        state = GAME.new_state(n)
        state.phase = OVER
        state.totals = tuple(rng.choice((0, 5, 17, 120)) for _ in range(n))
        assert state.result() == Result.from_keys(state.totals)


def test_deal_parse_fast_way_agrees() -> None:
    """A deal's deck is read two bytes at a time and its T! pile remembered; the action,
    or the error and its column, is that of reading both token by token."""
    from kifu.core.errors import NotationError
    from kifu.games.tweak.cards import THIEF, bad_token_at, split_cards
    from kifu.games.tweak.codec import parse_action

    def slow(text: str):
        _, deck_text, tp_text = text.split()
        deck = split_cards(deck_text)
        if deck is None or (deck and max(deck) >= THIEF):
            return ("error", 6 + bad_token_at(deck_text) - 1)
        tp = split_cards(tp_text)
        if tp is None or (tp and min(tp) < THIEF):
            return ("error", 6 + len(deck_text) + 1 + bad_token_at(tp_text) - 1)
        return act.Deal(tuple(deck), tuple(tp))

    def fast(text: str):
        try:
            return parse_action(text)
        except NotationError as e:
            return ("error", e.col)

    rng = random.Random(9)
    for seed in range(200):
        state = GAME.new_state(2 + seed % 5)
        state.push(GAME.chance_action(state, Rng(seed)))  # the first dealer
        text = GAME.format_action(state, GAME.chance_action(state, Rng(seed)))
        texts = [text, text.lower()]
        for _ in range(4):
            i = rng.randrange(5, len(text))
            junk = rng.choice(["!T", "!j", "X1", "R7", "r", "-", "R1"])
            texts.append(text[:i] + junk + text[i + rng.randrange(3) :])
        texts.append(text.split()[0] + " - " + text.split()[2])
        for t in texts:
            if len(t.split()) == 3:
                assert fast(t) == slow(t), t
