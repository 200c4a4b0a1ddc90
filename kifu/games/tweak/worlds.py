"""TWEAK worlds: the other hands, the deck's order and the T! pile's order, drawn to agree
with what a seat sees.

Known to ``seat``: its own hand, the table, every held T! card, the totals, the target and
the size of every hand, of the deck and of the T! pile (its view), and every pile of won
cards: a capture is made face up, so a player who watched the round knows what each pile
holds (the view writes them as ``?`` because they lie face down). The round's cards are
known, so the cards nobody can see are exactly those of the other hands and the deck; the
T! cards still in the pile are those not won.

The target is the back of the deck's top card (ruling 4), so the top card of a sampled
deck has the target's back. And every card a player drew was the deck's top just before,
so its back was shown as the target: from ``state.history`` (when it starts at the
beginning of the game) the seat knows the back of every card each other player drew this
round, and the face of every card that left a hand (played, given to a Bomb, stolen by a
Thief). :func:`back_bounds` turns that into one lower bound per hand and back: "this
hand holds at least ``k`` cards whose back is ``b``" (below, why that is all it says).
The sampler draws uniformly among the deals of the unseen cards into the other hands, the
deck's top and the rest of the deck that respect those bounds
(:class:`kifu.core.worlds.BoundedDeal`, the kinds being the four backs), and shuffles
the T! pile.

Why a lower bound per back is exactly what the history says of a hand: a hand is its
first cards (dealt face down: any backs), then each draw (a card of a known back) and each
card that left it (a known face, whose back is known). A present hand ``H`` is possible
when the cards ``H`` plus those that left can be traced to the sources (the dealt cards,
each draw) with every card that left traced to a source before it. Tracing each card that
left, in time order, to a draw of its back when one is free and to a dealt card otherwise
is never worse than any other tracing (a dealt card serves any back, and earlier), so what
is left for ``H`` is ``avail[b]`` draws of back ``b`` and some dealt cards: ``H`` is
possible exactly when it holds at least ``avail[b]`` cards of each back ``b``.
"""

from __future__ import annotations

from collections.abc import Callable

from kifu.core.codes import field_codes, field_text
from kifu.core.game import DEALER, Action, Game, State
from kifu.core.rng import Rng
from kifu.core.worlds import BoundedDeal, from_start
from kifu.games.tweak.actions import Deal, Pass, Steal
from kifu.games.tweak.cards import DEFAULT_BACKS, TOKEN, split_cards

TOP = "top"
"""The place of the deck's top card (its back is the target)."""


def _cards(text: str) -> list[int]:
    return field_codes(text, split_cards)


def _text(codes: list[int]) -> str:
    return field_text(codes, TOKEN)


def back_bounds(state: State, seat: int, game: Game) -> list[dict[int, int]] | None:
    """Per seat, the least number of cards of each back its hand holds, as every seat knows
    from the round's history (the draws' backs and the faces of the cards that left each
    hand, module docstring); ``None`` when the history does not start at the beginning
    of the game or does not reach ``state``. ``seat`` is accepted for symmetry with the
    other games: in TWEAK every seat sees the same draws and plays."""
    s = from_start(game, state)
    if s is None:
        return None
    n = state.n
    backs = state.variant.backs or DEFAULT_BACKS
    avail: list[dict[int, int]] = [{} for _ in range(n)]
    for a in state.history:
        mover = s.to_move
        before = [len(h) for h in s.hands]
        victim = s.victim
        dpos = s.dpos
        s.push(a)
        if isinstance(a, Deal):
            avail = [{} for _ in range(n)]
            continue
        loser = -1
        if isinstance(a, Steal):
            loser, card = victim, a.card
        elif mover is not None and mover >= 0 and hasattr(a, "card"):
            loser, card = mover, a.card  # a Place or a Capture: a hand card played
        if loser >= 0:
            b = backs[card]
            if avail[loser].get(b, 0) > 0:  # traced to a draw of its back (else: dealt)
                avail[loser][b] -= 1
        if s.dpos > dpos:
            drawn = s.deck[dpos:s.dpos]
            for p in range(n):
                k = len(s.hands[p]) - before[p] + (p == loser)
                for c in drawn[:k]:
                    avail[p][backs[c]] = avail[p].get(backs[c], 0) + 1
    if s.key() != state.key():
        return None
    return [{b: k for b, k in d.items() if k} for d in avail]


def world_sampler(state: State, seat: int, game: Game) -> Callable[[Rng], State]:
    """Work out what ``seat`` knows once; the returned function draws one world per call."""
    fields = state.to_line().split(" ")
    hands = [_cards(h) for h in fields[5].split("/")]
    deck = _cards(fields[7])
    tpile = _cards(fields[8])
    others = [p for p in range(len(hands)) if p != seat]
    unseen = [c for p in others for c in hands[p]] + deck
    backs = state.variant.backs or DEFAULT_BACKS
    target = int(fields[3][1:])
    kinds: dict[int, list[int]] = {}
    for c in unseen:
        kinds.setdefault(backs[c], []).append(c)
    bounds = back_bounds(state, seat, game) or [{} for _ in hands]
    # places: the other hands, then the deck's top, then the rest of the deck
    sizes = [len(hands[p]) for p in others]
    lower = {(i, b): k for i, p in enumerate(others) for b, k in bounds[p].items()}
    if deck:
        top = len(sizes)
        sizes += [1, len(deck) - 1]
        lower[(top, target)] = 1
        upper = {(top, b): 0 for b in kinds if b != target}
    else:
        sizes.append(0)
        upper = {}
    deal = BoundedDeal(kinds, sizes, lower, upper)

    made: list[State] = []  # the first world, read from its line (checked), kept

    def draw(rng: Rng) -> State:
        parts = deal.sample(rng)
        new = list(hands)
        for i, p in enumerate(others):
            new[p] = sorted(parts[i])
        cards = (parts[-2] if deck else []) + parts[-1]
        shuffled = rng.shuffled(tpile)
        if not made:
            fields[5] = "/".join(_text(h) for h in new)
            fields[7] = _text(cards)
            fields[8] = _text(shuffled)
            world = game.from_line(" ".join(fields))
            made.append(world.copy())
            return world
        # the next worlds differ from the first only in the other hands, the deck and the
        # T! pile (the same cards dealt again): a copy with those set is the state the
        # line would give (tests/test_tweak_speed6.py), at a fraction of the parse's cost
        world = made[0].copy()
        world.hands = tuple([tuple(h) for h in new])  # type: ignore[attr-defined]
        world.deck = tuple(cards)  # type: ignore[attr-defined]
        world.tpile = tuple(shuffled)  # type: ignore[attr-defined]
        return world

    return draw


def rewind(state: State, seat: int, game: Game, window: int
           ) -> Callable[[State, Rng], list[list[tuple[State, Action, float]]]] | None:
    """The past positions of a world, for soft inference (:mod:`kifu.bots.inference`): for
    the other seats' last ``window`` decisions of this round (a card placed or captured, a
    T! card used, a card given up to a Bomb; not the forced pass of an empty hand), the
    position each was taken in, as the world says it was. ``None`` without a history from
    the beginning of the game, or with no such decision.

    Walking back from the world's present: the cards that left the deck after an action
    go back on it, top first (the table's and ``seat``'s own with their known faces,
    another seat's draw as a card of its hand with the back shown as the target then,
    one of those drawn uniformly by copies when the hand holds several: the world does
    not say which); then a card that left a hand (placed, captured with, stolen by a
    Thief) goes back to it. The sampler's bounds per back (:func:`back_bounds`) make every
    such step possible. A past position is the true one with the other seats' hands, the
    deck's unseen part and the T! pile's unseen part as the world has them then, so what
    judges a choice there (even a Shifter, which shows the deck's top) reads only the
    world."""
    s = from_start(game, state)
    if s is None:
        return None
    history = state.history
    start = 0
    for j, a in enumerate(history):
        if isinstance(a, Deal):
            start = j + 1
    backs = state.variant.backs or DEFAULT_BACKS
    n = state.n
    # per action since the deal: the card that left a hand (seat, code) or None, and the
    # cards that left the deck, in deck order, as (place, known): place -1 the table
    # (known: its face), a seat (known: its back; the face for ``seat``)
    left: list[tuple[int, int] | None] = []
    moves: list[list[tuple[int, int]]] = []
    snaps: dict[int, State] = {}
    decisions: list[int] = []
    for j, a in enumerate(history):
        if j < start:
            s.push(a)
            continue
        mover = s.to_move
        before = [len(h) for h in s.hands]  # type: ignore[attr-defined]
        victim, dpos = s.victim, s.dpos  # type: ignore[attr-defined]
        if mover is not None and mover != DEALER and mover != seat and \
                not isinstance(a, Pass):
            decisions.append(j)
            snaps[j] = s.copy()
            if len(decisions) > window:
                del snaps[decisions.pop(0)]
        s.push(a)
        out = None
        if isinstance(a, Steal):
            out = (victim, a.card)
        elif mover is not None and mover >= 0 and hasattr(a, "card"):
            out = (mover, a.card)  # type: ignore[attr-defined]
        left.append(out)
        drawn = s.deck[dpos:s.dpos]  # type: ignore[attr-defined]
        mv: list[tuple[int, int]] = []
        for p in range(n):
            k = len(s.hands[p]) - before[p] + (out is not None and out[0] == p)  # type: ignore[attr-defined]
            for c in drawn[len(mv):len(mv) + max(k, 0)]:
                mv.append((p, c if p == seat else backs[c]))
        mv += [(-1, c) for c in drawn[len(mv):]]
        moves.append(mv)
    if s.key() != state.key() or not decisions:
        return None
    first = decisions[0]
    steps_at = set(decisions)
    now_tpos = state.tpos  # type: ignore[attr-defined]
    true_tpile = state.tpile  # type: ignore[attr-defined]

    def past(world: State, rng: Rng) -> list[list[tuple[State, Action, float]]]:
        hands = [list(h) for h in world.hands]  # type: ignore[attr-defined]
        # per other seat, every hand it may have held, with its prior (module docstring of
        # kifu.bots.inference: a step is judged over these alternatives)
        dist: list[dict[tuple[int, ...], float]] = [{tuple(sorted(h)): 1.0} for h in hands]
        deck = list(world.deck_left())  # type: ignore[attr-defined]
        tleft = world.tpile_left()  # type: ignore[attr-defined]
        steps: list[list[tuple[State, Action, float]]] = []
        back: list[int] = []  # the cards back on the deck, newest first
        for j in range(len(history) - 1, first - 1, -1):
            i = j - start
            for p, x in reversed(moves[i]):
                if p < 0 or p == seat:
                    c = x
                    if p == seat:
                        hands[p].remove(c)
                else:
                    hand = hands[p]
                    fit = [c for c in hand if backs[c] == x] or hand  # (bounds: never empty)
                    if not fit:
                        return steps
                    c = fit[rng.below(len(fit))]
                    hand.remove(c)
                    dist[p] = _undraw(dist[p], x, backs)
                back.append(c)
            out = left[i]
            if out is not None:
                hands[out[0]].append(out[1])
                if out[0] != seat:
                    dist[out[0]] = {tuple(sorted((*h, out[1]))): w
                                    for h, w in dist[out[0]].items()}
            if j not in steps_at:
                continue
            snap = snaps[j]
            m = snap.to_move
            st = snap.copy()
            st.hands = tuple(tuple(sorted(h)) if p != seat else snap.hands[p]  # type: ignore[attr-defined]
                             for p, h in enumerate(hands))
            st.deck = snap.deck[:snap.dpos] + tuple(reversed(back)) + tuple(deck)  # type: ignore[attr-defined]
            st.tpile = true_tpile[:now_tpos] + tleft  # type: ignore[attr-defined]
            alts: list[tuple[State, Action, float]] = []
            mine = st.hands[m]  # type: ignore[attr-defined, index]
            for h, w in dist[m].items():  # type: ignore[index]
                alt = st
                if h != mine:
                    alt = st.copy()
                    alt.hands = (*st.hands[:m], h, *st.hands[m + 1:])  # type: ignore[attr-defined, index, operator]
                    alt.deck = _swapped(st.deck, snap.dpos, mine, h, backs)  # type: ignore[attr-defined]
                alts.append((alt, history[j], w))
            steps.append(alts)
        return steps

    return past


def _swapped(deck: tuple[int, ...], dpos: int, mine: tuple[int, ...], alt: tuple[int, ...],
             backs: tuple[int, ...]) -> tuple[int, ...]:
    """``deck`` (its unseen part from ``dpos``) as it is when a hand is ``alt`` instead of
    ``mine`` (the same backs): each card ``alt`` holds beyond ``mine`` was, in ``mine``'s
    tracing, drawn later and lies in the deck; there it is the card of the same back that
    ``mine`` holds instead."""
    out = list(deck)
    extra = list(mine)
    for c in alt:
        if c in extra:
            extra.remove(c)
            continue
        y = next((y for y in extra if backs[y] == backs[c]), None)
        if y is None or c not in out[dpos:]:
            continue
        extra.remove(y)
        out[out.index(c, dpos)] = y
    return tuple(out)


def _undraw(dist: dict[tuple[int, ...], float], back: int, backs: tuple[int, ...]
            ) -> dict[tuple[int, ...], float]:
    """A hand's alternatives before a card of ``back`` was drawn into it: each hand less
    one of its cards of that back, chosen uniformly by copies (normalised; hands with no
    such card drop out; all of them dropping, the alternatives stay as they were)."""
    out: dict[tuple[int, ...], float] = {}
    for h, w in dist.items():
        fit = [k for k, c in enumerate(h) if backs[c] == back]
        for k in fit:
            key = h[:k] + h[k + 1:]
            out[key] = out.get(key, 0.0) + w / len(fit)
    total = sum(out.values())
    return {h: w / total for h, w in out.items()} if total > 0 else dist


__all__ = ["back_bounds", "rewind", "world_sampler"]
