"""What the TOWAI tests share."""

from __future__ import annotations

from collections.abc import Iterator

from kifu import games
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.towai.bots import GreedyBot
from kifu.games.towai.cards import ALL_CARDS


def small_hands(rng: Rng, n: int) -> tuple[list[list[int]], list[int]]:
    """``n`` sorted hands of 1 to 3 cards dealt from a shuffled pack, and the rest of the
    pack in shuffled order."""
    cards = rng.shuffled(ALL_CARDS)
    hands = []
    for _ in range(n):
        k = 1 + rng.below(3)
        hands.append(sorted(cards[:k]))
        cards = cards[k:]
    return hands, cards


def one_round_decisions(label: str, first: type, players: int = 4) -> Iterator:
    """Every player decision with a choice of one seeded one-round game (``label`` seeds
    it): seat 0 plays ``first`` (a policy class), the others ``greedy`` and ``random``
    alternately, so that leads, follows, combos, Swaps and Draws of every kind come up.
    The position is the game's own: copy it to keep it."""
    game = games.get("towai")
    rng = Rng(label)
    bots = [first(0, rng.fork(1))] + [
        (GreedyBot if s % 2 else game.bots["random"])(s, rng.fork(s + 1))
        for s in range(1, players)]
    dealer = rng.fork(0)
    state = game.new_state(players, game.parse_rules("towai/1;wins=1"))
    while state.to_move is not None:
        if state.to_move == DEALER:
            state.push(game.chance_action(state, dealer))
            continue
        if len(state.legal_actions()) > 1:
            yield state
        state.push(bots[state.to_move].choose(state))
