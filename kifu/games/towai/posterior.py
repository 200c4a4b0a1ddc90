"""TOWAI's hidden history, for the exact posterior (:mod:`kifu.bots.posterior`): what a
seat does not see of the round so far, as cards in *slots*, and the replay that says
whether one filling of the slots agrees with everything the seat saw, assuming every other
seat plays ``greedy`` (deterministic: :func:`kifu.games.towai.bots.greedy_choice`).

The round is fixed by its deal (every hand and the deck's order) and each rebuild's order;
the seats' choices follow from them (the seat's own are in the record; the others' are
``greedy``'s in the world). What the seat sees: its own hand after every action, every
lead, play, pass and stop, its own Swap gifts, the sizes of every hand and pile, the field
and the discards. Which deck position each draw takes is public (the deck's size and the
order of the drawers are), so the cards the seat drew are fixed at their positions; every
other position, and the other seats' dealt hands, are slots.

- Group 0 (the deal): the other seats' seven dealt cards each, and the deal's deck
  positions the seat did not draw; its cards are the 60 less the seat's dealt hand and
  less the cards it drew from that deck.
- Group k (the k-th rebuild this round): the rebuilt deck's positions the seat did not
  draw; its cards are the pool that was shuffled (public) less the seat's draws from it.

A slot is *used* when the replay reads it: a dealt card, or a deck position drawn so far.
The rest (the current deck below its top) only shuffles into the present world's deck.

A filling is consistent when, replayed from the round's deal, every lead, play, pass and
stop of another seat is ``greedy``'s choice there, and the seat's own hand after every
action is the one it saw, the same seat is to move at every step, and the present
position looks the same from the seat (its view). The seat's draws are fixed; the gifts
it receives are ``greedy``'s choices of the next seat. The other seats' own Swap gifts
are hidden: the replay plays ``greedy``'s. Rounds before the current one say nothing of
it (every round deals all 60 cards again), so they are not replayed.
"""

from __future__ import annotations

from collections import Counter

from kifu.core.game import Game, State
from kifu.core.rng import Rng
from kifu.core.worlds import round_start
from kifu.games.towai.actions import Deal, Give, Pass, Rebuild
from kifu.games.towai.bots import greedy_choice
from kifu.games.towai.cards import COPIES, N_KINDS
from kifu.games.towai.state import TowaiState


class TowaiHistory:
    """The hidden history of the current round as ``seat`` sees it (module docstring).

    ``groups[g]``: the slot indices of group ``g``; ``used[i]``: the replay reads slot
    ``i``; ``owner[i]``: the seat whose hand slot ``i`` first enters (a dealt hand, or a
    draw; ``-1`` for the undrawn deck) and ``step[i]`` the round step it enters at (0 for
    the deal); ``steps``: the round's actions after the deal."""

    def __init__(self, pre: TowaiState, seat: int, own: tuple[int, ...],
                 actions: list, observed: list[int], movers: list, decks: list[int],
                 fixed: dict[tuple[int, int], int], drawers: dict[tuple[int, int], tuple[int, int]],
                 pools: list[Counter[int]], present_top: int):
        self.pre = pre
        self.seat = seat
        self.n = pre.n
        self.own = own
        self.actions = actions
        self.observed = observed
        self.movers = movers
        self.final_view = ""
        self.key: tuple = ()
        """The round (the deal's index in the history, the seat, the deal itself)."""
        self.steps = len(actions)
        others = [p for p in range(self.n) if p != seat]
        self.others = others
        slots: list[tuple] = []  # ("hand", p, j) or ("deck", epoch, pos)
        owner: list[int] = []
        step: list[int] = []
        used: list[bool] = []
        groups: list[list[int]] = [[] for _ in decks]
        for p in others:
            for j in range(7):
                groups[0].append(len(slots))
                slots.append(("hand", p, j))
                owner.append(p)
                step.append(0)
                used.append(True)
        last = len(decks) - 1
        for e, size in enumerate(decks):
            for pos in range(size):
                if (e, pos) in fixed:
                    continue
                groups[e].append(len(slots))
                slots.append(("deck", e, pos))
                who, at = drawers.get((e, pos), (-1, self.steps + 1))
                owner.append(who)
                step.append(at)
                used.append(e < last or pos < present_top)
        self.slots = slots
        self.groups = groups
        self.owner = owner
        self.step = step
        self.used = used
        self.decks = decks
        self.fixed = fixed
        self.group_of = [0] * len(slots)
        for g, idx in enumerate(groups):
            for i in idx:
                self.group_of[i] = g
        # the cards of each group
        self.pools = pools
        self.present_top = present_top

    # --- the prior -------------------------------------------------------------------
    def start(self, rng: Rng) -> list[int]:
        """A filling drawn from the prior (a uniform deal and rebuilds, given the seat's
        own cards): every group's cards shuffled into its slots."""
        cards = [0] * len(self.slots)
        for g, idx in enumerate(self.groups):
            pool = self.pools[g]
            bag = rng.shuffled([c for c in range(N_KINDS) for _ in range(pool[c])])
            assert len(bag) == len(idx), (g, len(bag), len(idx))
            for i, c in zip(idx, bag, strict=True):
                cards[i] = c
        return cards

    # --- the replay ------------------------------------------------------------------
    def _deal(self, cards: list[int]) -> tuple[Deal, list[tuple[int, ...]]]:
        hands: list[list[int]] = [[] for _ in range(self.n)]
        hands[self.seat] = list(self.own)
        decks: list[list[int]] = [[0] * size for size in self.decks]
        for (e, pos), c in self.fixed.items():
            decks[e][pos] = c
        for i, slot in enumerate(self.slots):
            if slot[0] == "hand":
                hands[slot[1]].append(cards[i])
            else:
                decks[slot[1]][slot[2]] = cards[i]
        deal = Deal(tuple(tuple(sorted(h)) for h in hands), tuple(decks[0]))
        return deal, [tuple(d) for d in decks]

    def replay(self, cards: list[int], upto: int | None = None) -> tuple[int, TowaiState]:
        """Replays the round with ``cards`` in the slots: (the number of round steps that
        agree with what the seat saw, the state reached). All of them (``steps``) when the
        filling is consistent; else the state just before the first that does not."""
        deal, decks = self._deal(cards)
        s = self.pre.copy()
        s.push(deal)
        seat = self.seat
        obs = self.observed
        movers = self.movers
        epoch = 0
        end = self.steps if upto is None else upto
        acts = self.actions
        for i in range(end):
            a = acts[i]
            t = type(a)
            if t is Rebuild:
                epoch += 1
                a = Rebuild(decks[epoch])
            else:
                m = s.to_move
                if m != movers[i]:
                    return i, s  # a turn ended (or not) by itself where it did not
                if m != seat:
                    legal = s.legal_actions()
                    g = legal[0] if len(legal) == 1 else greedy_choice(s, legal)
                    if t is Give:
                        a = g  # hidden: greedy's gift in this world
                    elif g != a:
                        return i, s
            s.push(a)
            if s.hl[seat] != obs[i]:
                s.pop()
                return i, s
        if upto is None and s.view(seat) != self.final_view:
            return end - 1, s  # e.g. a turn that ended by itself in one and not the other
        return end, s

    def same(self, a: int, b: int) -> bool:
        """Slots of one dealt hand: exchanging their cards changes nothing."""
        sa, sb = self.slots[a], self.slots[b]
        return sa[0] == "hand" and sb[0] == "hand" and sa[1] == sb[1]

    def suspects(self, k: int, s: TowaiState) -> list[int]:
        """The slots that may explain a failure at round step ``k`` (``s``: the state just
        before it): the cards the failing seat held by then (dealt or drawn); for the
        seat's own hand, the next seat's (its Swap gift)."""
        m = s.to_move
        if m is None or m < 0 or m == self.seat:
            m = (self.seat + 1) % self.n
        return [i for i, (p, at) in enumerate(zip(self.owner, self.step, strict=True))
                if p == m and at <= k]

    def world(self, cards: list[int], rng: Rng) -> TowaiState | None:
        """The present world of a consistent filling (``None`` if it is not), its current
        deck below the top drawn again (the seat has no clue to the order of the cards
        not drawn yet)."""
        k, s = self.replay(cards)
        if k < self.steps:
            return None
        w = s.copy()  # (a history of its own: empty)
        rest = list(w._deck[w._dtop:])
        w._deck = tuple(rng.shuffled(rest))
        w._dtop = 0
        return w

    def true_cards(self, state: TowaiState) -> list[int]:
        """The filling of the true round (all-seeing: for tests and diagnostics only)."""
        history = state.history
        d = max(i for i, a in enumerate(history) if isinstance(a, Deal))
        deal = history[d]
        rebuilds = [a for a in history[d + 1:] if isinstance(a, Rebuild)]
        decks = [deal.deck] + [r.deck for r in rebuilds]
        cards = []
        for slot in self.slots:
            if slot[0] == "hand":
                p, j = slot[1], slot[2]
                cards.append(deal.hands[p][j])
            else:
                cards.append(decks[slot[1]][slot[2]])
        return cards


def hidden_history(state: State, seat: int, game: Game) -> TowaiHistory | None:
    """``seat``'s hidden history of the current round (:class:`TowaiHistory`), worked out
    from what it saw; ``None`` without a history from the beginning of the game or before
    the round's deal."""
    got = round_start(game, state, Deal)
    if got is None:
        return None
    pre, s, d = got
    history = state.history
    own = tuple(s.hand_cards(seat))
    n = s.n
    decks = [len(s._deck)]
    pools: list[Counter[int]] = []
    seen = Counter(own)
    fixed: dict[tuple[int, int], int] = {}
    drawers: dict[tuple[int, int], tuple[int, int]] = {}
    observed: list[int] = []
    movers: list = []
    actions = list(history[d + 1:])
    rebuild_pools: list[Counter[int]] = []
    epoch = 0
    for i, a in enumerate(actions):
        mover = s.to_move
        movers.append(mover)
        top = s._dtop
        sizes = [s.hand_size(p) for p in range(n)]
        mine = Counter(s.hand_cards(seat))
        pending = s.pending
        if isinstance(a, Rebuild):
            rebuild_pools.append(Counter(s.pool()))  # public: the field under the top
            epoch += 1
            decks.append(len(a.deck))
            top = 0
        s.push(a)
        observed.append(s.hl[seat])
        if isinstance(a, Give):
            continue  # a Swap draws nothing
        grew = [p for p in range(n) if s.hand_size(p) > sizes[p]]
        if not grew:
            continue
        if isinstance(a, Pass):
            order = [mover]
        elif isinstance(a, Rebuild):
            order = [p for p in pending[1:]]
        else:  # a Draw: from the next seat round the table
            order = [(mover + j) % n for j in range(1, n)]
        order = [p for p in order if p in grew]
        for k, p in enumerate(order):
            pos = top + k
            drawers[(epoch, pos)] = (p, i + 1)
            if p == seat:
                got = Counter(s.hand_cards(seat)) - mine
                (c,) = got.elements()  # one card a draw
                fixed[(epoch, pos)] = c
        if s._dtop != top + len(order) and s._deck is not None:
            # a draw the order above does not explain (should not happen)
            return None
    for (e, _pos), c in fixed.items():
        if e == 0:
            seen[c] += 1
    pools.append(Counter({c: COPIES[c] - seen[c] for c in range(N_KINDS)}))
    for e, pool in enumerate(rebuild_pools, start=1):
        mine_e = Counter(c for (ee, _), c in fixed.items() if ee == e)
        pools.append(pool - mine_e)
    if s.key() != state.key():
        return None
    h = TowaiHistory(pre, seat, own, actions, observed, movers, decks, fixed, drawers, pools,
                     s._dtop)
    h.final_view = state.view(seat)
    h.key = (d, seat, history[d])
    return h


__all__ = ["TowaiHistory", "hidden_history"]
