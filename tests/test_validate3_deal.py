"""GRAPH-T's fused deal in ``step`` (the deal checked as count ints and each hand int built
from its counts) against ``check`` then ``push``: legal shuffles, and deals that are wrong
in each way the check names (a card swapped for another, for a grey card or for -1, a card
twice, sizes that differ with the right total, a hand too many or too few, ``True`` for
``1``), under every example variant. Each gives the same verdict, error text, position
and mover, a refused deal leaves the state as it was, and ``pop`` undoes an accepted one.
TWEAK's deck reader is compared with ``split_cards``."""

from __future__ import annotations

import random

import pytest
from step_helpers import verdict

from kifu import games
from kifu.core.rng import Rng
from kifu.games.graph_t.actions import Deal
from kifu.games.graph_t.cards import G

GAME = games.get("graph-t")


def deals(n: int, variant, rng: random.Random) -> list:
    state = GAME.new_state(n, variant)
    good = GAME.chance_action(state, Rng(rng.randrange(10**6)))
    hands = [list(h) for h in good.hands]
    out = [good, Deal(tuple(tuple(reversed(h)) for h in hands))]  # any order is legal
    a, b = rng.randrange(n), rng.randrange(len(hands[0]))
    for bad in (G, -1, hands[(a + 1) % n][0], True):
        h2 = [list(h) for h in hands]
        h2[a][b] = bad
        out.append(Deal(tuple(tuple(h) for h in h2)))
    h2 = [list(h) for h in hands]
    h2[0].append(h2[1].pop())  # the right total, sizes differ
    out.append(Deal(tuple(tuple(h) for h in h2)))
    if n > 2:  # the first hand the right size, two others not
        h2 = [list(h) for h in hands]
        h2[1].append(h2[2].pop())
        out.append(Deal(tuple(tuple(h) for h in h2)))
    out.append(Deal(tuple(tuple(h) for h in hands[:-1])))
    out.append(Deal((*good.hands, ())))
    out.append(Deal(tuple(tuple(h[1:]) for h in hands)))  # a card short each
    out.append(Deal(tuple((*h, h[0]) for h in hands)))  # a card twice each
    return out


@pytest.mark.parametrize("k", range(1 + len(GAME.example_variants)))
def test_fused_deal_matches_check_and_push(k: int) -> None:
    variant = (None, *GAME.example_variants)[k]
    rng = random.Random(k)
    ok = refused = 0
    for n in (2, 3, 4):
        for _ in range(15):
            state = GAME.new_state(n, variant)
            for deal in deals(n, variant, rng):
                want = verdict(state, deal, fused=False)
                assert verdict(state, deal, fused=True) == want, deal
                ok += want[0] is None
                refused += want[0] is not None
    assert ok >= 90 and refused >= 300


def agree(reader, want, cards: str, others: tuple[str, ...]) -> None:
    """``reader(text) == want(text)`` for each of the 128 * 128 ASCII byte pairs alone, before
    and after ``cards``, and for each of ``others``."""
    for a in range(128):
        for b in range(128):
            pair = chr(a) + chr(b)
            for text in (pair, cards + pair, pair + cards):
                assert reader(text) == want(text), text
    for text in others:
        assert reader(text) == want(text), text


def test_tweak_deck_reader_agrees_with_split_cards() -> None:
    """TWEAK's deck reader (colour and face bytes translated at once and added as ints)
    gives the codes ``split_cards`` gives for every number-card text, and None (the
    general way, which names the error) for everything else: each of the 128 * 128 ASCII
    byte pairs alone and inside a deck, odd lengths and the empty text."""
    from kifu.games.tweak.cards import THIEF, split_cards
    from kifu.games.tweak.codec import _number_cards

    def want(text: str):
        codes = split_cards(text) if text != "-" else None
        if not text or codes is None or max(codes) >= THIEF:
            return None
        return tuple(codes)

    agree(_number_cards, want, "R1o2Y3g4R5O6", ("", "R", "R1O", "R1\u00e9", "r1" * 36, "R1!J"))


def test_tweak_targets_agree_with_tops() -> None:
    """The deal's targets (``_targets``: backs by ``bytes.translate``) are ``tops()``'s,
    for the default and a variant's backs, shuffled decks, codes with no back (the same
    error) and values that are not codes."""
    from kifu.games.tweak.cards import DEFAULT_BACKS
    from kifu.games.tweak.state import _targets, tops

    def outcome(fn, backs, deck):
        try:
            return fn(backs, deck)
        except Exception as e:  # the error must be the same one
            return type(e)

    rng = random.Random(4)
    other = tuple(rng.randrange(7, 11) for _ in range(36))
    for backs in (DEFAULT_BACKS, other):
        for _ in range(50):
            deck = tuple(rng.sample(range(36), rng.randrange(37)))
            assert _targets(backs, deck) == tops(backs, deck)
        for deck in ((36,), (0, 40), (-1,), (True, 3), (300,), (), ("R1",)):
            assert outcome(_targets, backs, deck) == outcome(tops, backs, deck), deck


def test_graph_t_hand_reader_agrees_with_the_pair_table() -> None:
    """GRAPH-T's deal hand reader (bytes translated at once, the levels checked against
    each colour's top by one subtraction) gives the codes of the two-byte token table for
    every colour-card text and None for everything else: each of the 128 * 128 ASCII byte
    pairs alone and inside a hand, odd lengths and the empty text."""
    from kifu.games.graph_t.codec import _PAIR_CODE, _colour_cards

    def want(text: str):
        if not text or len(text) % 2:
            return None
        codes = [_PAIR_CODE.get(text[i : i + 2]) for i in range(0, len(text), 2)]
        return None if None in codes else codes

    agree(_colour_cards, want, "R1y2B4p5K6k1", ("", "R", "R1Y", "R1\u00e9", "K6" * 40, "R1G"))


def test_tweak_t_pile_reader_agrees_with_split_cards() -> None:
    """TWEAK's T! pile reader gives the codes ``split_cards`` gives for every text of T!
    tokens and None for everything else: each ASCII byte pair alone and inside a pile."""
    from kifu.games.tweak.cards import THIEF, split_cards
    from kifu.games.tweak.codec import _t_cards

    def want(text: str):
        codes = split_cards(text) if text != "-" else None
        if not text or codes is None or min(codes) < THIEF:
            return None
        return tuple(codes)

    agree(_t_cards, want, "!T!j!S!b", ("", "!", "!T!", "!T\u00e9", "!T" * 40, "!TR1", "-"))
