"""TOWAI worlds: the other hands, the deck's order and the cards others have set aside in
a Swap, drawn to agree with what a seat has seen.

Known to ``seat``: its own hand, the field, the discards, the side, the counts (its view),
its own choice in a Swap under way, and, from ``state.history`` when it starts at the
beginning of the game, what its Swap gifts revealed: the previous seat received each card ``seat``
gave it (ruling 10). That is kept as a lower bound, "the previous seat holds at least k
copies of X", lowered by one for each X that seat has played since and for every later
Swap in which it gave a card away unseen (it may have passed the gift on). The cards
nobody sees are exactly those of the other hands, of the deck and of the others' Swap
choices (the 60 cards are known).

Drawn: the previous seat's copies of each bounded kind, with the right weights
(:func:`kifu.core.worlds.at_least`); then every other unseen card uniformly into the rest
of that hand, the other hands and the deck; a seat that has chosen in the Swap under way
set aside one of its cards, each equally likely.

Not used (a simplification): a rebuilt deck's cards are the public pool that was shuffled
(ruling 7), but after a rebuild the other seats draw from it unseen, and which of their
cards came from it cannot be told apart from the rest of a hand with copies; the sampler
draws the deck from all unseen cards. Likewise a turn that ended by itself showed that its
player held no card to go on with then; only the present is used: a seat to move in a
combo holds a card that continues it (the position line requires it), which a world
drawn without one is redrawn to respect.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from kifu.core.codes import field_codes, field_text
from kifu.core.errors import KifuError, NotationError
from kifu.core.game import Game, State
from kifu.core.rng import Rng
from kifu.core.worlds import at_least, deal_into, from_start
from kifu.games.towai.actions import Deal, Give, Lead, Play
from kifu.games.towai.cards import TOKEN, split_cards

TRIES = 1000
"""Draws tried before giving up on a world the position line accepts."""


def _cards(text: str) -> list[int]:
    return field_codes(text, split_cards)


def _text(codes: list[int]) -> str:
    return field_text(codes, TOKEN)


def gifts(state: State, seat: int, game: Game) -> Counter[int]:
    """Copies of each kind the previous seat surely holds (hand or Swap choice), as ``seat``
    knows from its gifts; empty when the history does not start at the beginning."""
    history = state.history
    bound: Counter[int] = Counter()
    s = from_start(game, state)
    n = state.n
    prev = (seat - 1) % n
    if s is None or prev == seat:
        return bound
    pending = None
    for a in history:
        mover = s.to_move
        if isinstance(a, Deal):
            bound.clear()
            pending = None
        elif mover == seat and isinstance(a, Give):
            pending = a.card
        elif mover == prev:
            if isinstance(a, Give):  # a card given away unseen: perhaps the gift
                for k in list(bound):
                    bound[k] -= 1
            elif isinstance(a, (Lead, Play)) and bound[a.card] > 0:
                bound[a.card] -= 1
            bound = +bound
        s.push(a)
        if pending is not None and s.to_line().split(" ", 2)[1][0] != "S":
            bound[pending] += 1  # the Swap is over: the gift is in the previous hand
            pending = None
    return bound if s.key() == state.key() else Counter()


def world_sampler(state: State, seat: int, game: Game) -> Callable[[Rng], State]:
    """Work out what ``seat`` knows once; the returned function draws one world per call."""
    n = state.n
    fields = state.to_line().split(" ")
    hands = [_cards(h) for h in fields[3].split("/")]
    deck = _cards(fields[5])
    phase = fields[1]
    swap_mover, given = -1, []
    if phase.startswith("S"):
        head, _, chosen = phase.partition(":")
        swap_mover = int(head[1:])
        given = _cards(chosen) if chosen else []
    chooser = [(swap_mover + i) % n for i in range(len(given))]
    others = [p for p in range(n) if p != seat]
    hidden = {p: hands[p] + [c for c, q in zip(given, chooser, strict=True) if q == p]
              for p in others}
    unseen = [c for p in others for c in hidden[p]] + deck
    prev = (seat - 1) % n
    bound = gifts(state, seat, game) if prev != seat else Counter()
    counts = Counter(unseen)
    bound = Counter({k: min(b, counts[k]) for k, b in bound.items() if b > 0})

    def draw(rng: Rng) -> State:
        for _ in range(TRIES):
            try:
                return game.from_line(one(rng))
            except NotationError:  # the seat to move must be able to go on (see above)
                continue
        raise KifuError(f"no world for p{seat} found in {TRIES} tries")

    def one(rng: Rng) -> str:
        held: dict[int, list[int]] = {p: [] for p in others}
        rest = list(unseen)
        if bound:
            m = len(hidden[prev])
            free = [c for c in rest if c not in bound]
            js = at_least(rng, counts, bound, len(free), m)
            take: list[int] = []
            for k, j in js.items():
                take += [k] * j
            extra = deal_into(rng, free, [m - len(take), len(free) - m + len(take)])[0]
            held[prev] = take + extra
            left = Counter(rest)
            left.subtract(held[prev])
            rest = list(left.elements())
        todo = [p for p in others if not held[p]]
        parts = deal_into(rng, rest, [len(hidden[p]) for p in todo] + [len(deck)])
        for p, part in zip(todo, parts, strict=False):
            held[p] = part
        new_given = list(given)
        new_hands = list(hands)
        for p in others:
            cards = held[p]
            for i, q in enumerate(chooser):
                if q == p:  # its Swap choice: one of its cards, each equally likely
                    new_given[i] = cards.pop(rng.below(len(cards)))
            new_hands[p] = sorted(cards)
        if swap_mover >= 0 and given:
            fields[1] = f"S{swap_mover}:" + _text(new_given)
        fields[3] = "/".join(_text(h) for h in new_hands)
        fields[5] = _text(parts[-1])
        return " ".join(fields)

    return draw


__all__ = ["gifts", "world_sampler"]
