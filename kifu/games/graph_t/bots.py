"""GRAPH-T bots: ``greedy`` and the rulebook's AI player (ruling 9)."""

from __future__ import annotations

from kifu.core.game import Action, Bot, State
from kifu.games.graph_t.actions import PLAYS, Play
from kifu.games.graph_t.cards import (
    CARD_COLOUR,
    CARD_LEVEL,
    CMASK_ALL,
    GREY,
    PLAY_COLOUR,
    PLAY_HEIGHT,
    PLAY_IS_GREY,
    G,
)
from kifu.games.graph_t.rules import trick_winner
from kifu.games.graph_t.state import GraphTState

GREY_CARD = PLAYS[2 * G]


def ai_play(state: GraphTState) -> Play:
    """The play the rulebook's AI makes (ruling 9), for the player to move.

    1. The pure grey card if it is legal (with ``ai_grey=any``: then any legal grey play,
       chosen as in rule 3).
    2. Else, of the legal colour-side plays of the led colour (leading: of every legal
       colour-side play), the highest level; ties: the colour with the most cards in hand.
    3. Else, of the legal plays of the needed kind (grey sides when every legal play is a
       grey play, otherwise colour sides), the colour with the most cards in hand, then the
       highest level in it.
    Remaining ties: black > purple > sky blue > yellow > red.
    """
    legal: list[Play] = state.legal_actions()  # type: ignore[assignment]
    hand = state.hand(state.turn)  # type: ignore[arg-type]
    count = [(hand & m).bit_count() for m in CMASK_ALL]
    # rule 1
    if GREY_CARD in legal:
        return GREY_CARD
    if state.variant.ai_grey == "any":
        greys = [a for a in legal if a.grey_side]
        if greys:
            return max(greys, key=lambda a: _by_colour(a, count))
    # rule 2: plays of the required colour (a grey lead requires the grey card: rule 1)
    trick = state.trick
    if not trick:
        cands = [a for a in legal if not a.grey_side]
    else:
        led = PLAY_COLOUR[trick[0]]
        cands = [a for a in legal if led != GREY and PLAY_COLOUR[a.pid] == led]
    if cands:
        return max(cands, key=lambda a: _by_level(a, count))
    # rule 3
    grey_needed = all(PLAY_IS_GREY[a.pid] for a in legal)
    cands = [a for a in legal if a.grey_side == grey_needed and a.card != G]
    if not cands:  # cannot happen with legal plays; keep the bot total
        return legal[0]
    return max(cands, key=lambda a: _by_colour(a, count))


def _by_level(a: Play, count: list[int]) -> tuple[int, int, int]:
    c = CARD_COLOUR[a.card]
    return (CARD_LEVEL[a.card], count[c], c)


def _by_colour(a: Play, count: list[int]) -> tuple[int, int, int]:
    c = CARD_COLOUR[a.card]
    return (count[c], c, CARD_LEVEL[a.card])


class AiBot(Bot):
    """The rulebook's AI player, exactly as ruling 9 states it (no randomness)."""

    name = "ai"
    open_hand = True
    """The book makes an AI player's hand public: views show it to every seat."""

    def choose(self, state: State) -> Action:
        assert isinstance(state, GraphTState)
        return ai_play(state)


class GraphTAiBot(AiBot):
    name = "graph-t-ai"


class GreedyBot(Bot):
    """A one-trick-deep heuristic.

    Leading: the play that makes the tallest stack if it came back (own stack of its colour
    + its height). Following: if some plays would win the trick as it stands, the one that
    leaves the tallest stack after collecting; otherwise the shortest play (lose little).
    Ties are broken by the bot's rng.
    """

    name = "greedy"

    def choose(self, state: State) -> Action:
        assert isinstance(state, GraphTState)
        legal: list[Play] = state.legal_actions()  # type: ignore[assignment]
        if len(legal) == 1:
            return legal[0]
        heights = state.heights[state.turn]  # type: ignore[index]
        trick = state.trick
        scored: list[tuple[int, Play]] = []
        if not trick:
            scored = [(heights[PLAY_COLOUR[a.pid]] + PLAY_HEIGHT[a.pid], a) for a in legal]
        else:
            trump = state.variant.grey_wins == "trump"
            for a in legal:
                t = (*trick, a.pid)
                if trick_winner(t, trump) == len(trick):
                    col = PLAY_COLOUR[a.pid]
                    gain = sum(PLAY_HEIGHT[p] for p in t if PLAY_COLOUR[p] == col)
                    scored.append((heights[col] + gain, a))
            if not scored:
                scored = [(-PLAY_HEIGHT[a.pid], a) for a in legal]
        best = max(v for v, _ in scored)
        return self.rng.choice([a for v, a in scored if v == best])
