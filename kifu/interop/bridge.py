"""The framework-free core of the bridges: integer actions, chance dealt one item at a time,
and a :class:`Position` that both the OpenSpiel game and the PettingZoo environment wrap.

**Action ids** (``docs/interop.md`` has the tables). A player's action is an integer in
``range(codec.num_actions)``. Most actions have a fixed id (a card, a card and a side...).
An action that names a set of table cards or tiles (a TWEAK capture, a Lianxian placement
or swap, an Alice ♦4 buy) takes the id ``base + rank``: ``base`` fixed by its kind (for a
TWEAK capture, by the card played), ``rank`` its place among the legal actions of that kind
sorted by their fields. Those ids depend on the position (the table, the rack), not on
hidden cards, so every world a seat cannot tell apart gives them the same meaning.

**Chance.** kifu's dealer deals a whole shuffle in one action (``Deal``); here that action
is dealt one item at a time, as OpenSpiel deals bridge: each pick is a chance node whose
outcomes are the distinct items left in the pile (chance id = the item's code), each with
probability copies left / items left. When the last pick is made the dealer action is
built and played. A dealer action kifu already enumerates (a first player, a Thief's steal,
a draw) is one chance node whose id is the action's number field.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from operator import attrgetter
from typing import Any

from kifu import games
from kifu.bots.profiles import pairwise
from kifu.core.errors import KifuError
from kifu.core.game import DEALER, Action, Game, State
from kifu.core.rng import Rng
from kifu.core.variant import Variant

GAME_IDS = ("tweak", "graph-t", "towai", "lianxian", "alice")
"""Every kifu game, in the order the docs list them."""


class Plan:
    """A shuffle dealt one item at a time: ``pools[i]`` (sorted item codes, repeats for
    copies) gives ``counts[i]`` picks in order; ``build`` turns the picks of every pool into
    kifu's dealer action, ``unbuild`` a dealer action back into picks. ``total`` is the
    picks in all; ``piles[i]`` is pool ``i`` as code -> copies, codes ascending (what is
    left before its first pick; read-only: a position deals from a copy). A plain class
    with slots: codecs make or look up one at every shuffle."""

    __slots__ = ("build", "counts", "piles", "pools", "total", "unbuild")

    def __init__(self, pools: tuple[tuple[int, ...], ...], counts: tuple[int, ...],
                 build: Callable[[list[list[int]]], Action],
                 unbuild: Callable[[Action], list[list[int]]]) -> None:
        self.pools = pools
        self.counts = counts
        self.build = build
        self.unbuild = unbuild
        self.total = sum(counts)
        # Counter's C counting, then a plain dict (codes ascending: the pools are sorted)
        self.piles = tuple(dict(Counter(pool)) for pool in pools)


class Codec:
    """One game's action ids and shuffle plans (subclassed per game below)."""

    game_id: str
    num_actions: int
    max_chance: int
    legal_of: Callable[[State], tuple[list[int], Sequence[Action]]] | None = None
    """For a codec that has it (TOWAI): the legal (ids, actions) of a state straight from
    the engine, without listing its actions first; ``None``: ``pairs(legal_actions())``."""
    pick_bounds: tuple[int, int] | None = None
    """(most copies of one item, most items in a pool) for a codec whose picks read their
    outcome lists from a :func:`pick_table`; ``None``: each list is built pick by pick."""
    def fixed(self, action: Action) -> int | None:
        """The position-independent id of ``action``, or ``None`` for a ranked kind."""
        raise NotImplementedError

    def group(self, action: Action) -> tuple[int, int, Any]:
        """For a ranked kind: (base id, how many ids the kind has, the sort key)."""
        raise KifuError(f"{self.game_id}: no ranked action kind for {action!r}")

    def plan(self, state: State) -> Plan | None:
        """The plan of the shuffle due at this dealer node, or ``None`` when kifu's
        ``chance_outcomes`` enumerate it."""
        return None

    def pairs(self, actions: Sequence[Action]) -> tuple[list[int], list[Action]]:
        """:meth:`index` as two parallel lists: the ids ascending and the action of each
        (what :class:`Position` keeps: a lookup by bisection needs no dict a step)."""
        ids, by_id = self.index(actions)
        return ids, list(map(by_id.__getitem__, ids))

    def index(self, actions: Sequence[Action]) -> tuple[list[int], dict[int, Action]]:
        """The ids of a seat's legal ``actions`` (ascending) and the action of each: fixed
        ids from :meth:`fixed`, ranked kinds numbered from their base in key order.
        Codecs override it with a faster walk that gives the same answer."""
        ids: dict[int, Action] = {}
        groups: dict[int, list[tuple[Any, Action]]] = {}
        widths: dict[int, int] = {}
        for a in actions:
            i = self.fixed(a)
            if i is None:
                base, width, key = self.group(a)
                groups.setdefault(base, []).append((key, a))
                widths[base] = width
            else:
                ids[i] = a
        for base, members in groups.items():
            _check_width(self.game_id, len(members), widths[base])
            members.sort(key=lambda m: m[0])
            for r, (_k, a) in enumerate(members):
                ids[base + r] = a
        return sorted(ids), ids


def _table_pairs(codec: Codec, table: dict[int, int], keep: list[Action], check: bool,
                 actions: Sequence[Action]) -> tuple[list[int], list[Action]]:
    """:meth:`Codec.pairs` for a codec whose every action has a fixed id and whose engine
    lists legal actions in id order (GRAPH-T, TOWAI: ``tests/test_interop_codec.py`` checks
    both against the generic definition). These engines hand out shared action objects, so
    the ids are read from ``table``, keyed by object identity (no hashing of the action's
    fields); an object met for the first time is added, and kept alive in ``keep`` so that
    its identity cannot pass to another object. A fresh object past the table's bound,
    an action of a ranked kind, or (with ``check``: an engine that does not always list
    in id order, Alice) ids out of order go the generic way."""
    try:  # every object known (the common case: no scan of the ids for a miss)
        ids = list(map(table.__getitem__, map(id, actions)))
    except KeyError:
        pass
    else:
        if check and ids != sorted(ids):
            return Codec.pairs(codec, actions)
        return ids, actions  # type: ignore[return-value]
    # an object met for the first time
    if len(keep) > 4096:
        return Codec.pairs(codec, actions)
    for a in actions:
        if id(a) not in table:
            i = codec.fixed(a)
            if i is None:
                return Codec.pairs(codec, actions)
            keep.append(a)
            table[id(a)] = i
    ids = list(map(table.get, map(id, actions)))
    if ids != sorted(ids):  # type: ignore[type-var]
        return Codec.pairs(codec, actions)
    return ids, actions  # type: ignore[return-value]


def pick_table(codes: int, copies: int, items: int) -> list[list[tuple[tuple[int, float], ...]]]:
    """The outcomes of every pick made, ready: ``table[total][code][k]`` is the pair
    ``(code, k / total)`` (one float object per ``k / total``, shared by the codes), so a
    pick's outcome list is one subscript an outcome, no division and no new pair
    (``Position.chance_outcomes``; the same values as dividing there)."""
    table: list[list[tuple[tuple[int, float], ...]]] = [[]]
    for total in range(1, items + 1):
        ps = [k / total for k in range(copies + 1)]
        table.append([tuple((c, p) for p in ps) for c in range(codes)])
    return table


TERMINAL = -4
"""OpenSpiel's player id at the end of a game (``pyspiel.PlayerId.TERMINAL``; the OpenSpiel
module checks the two agree)."""


def _player(seat: int | None) -> int:
    """A kifu seat (or ``None`` at the end) as OpenSpiel's player id."""
    return TERMINAL if seat is None else seat


def _check_width(game_id: str, count: int, width: int) -> None:
    if count > width:
        raise KifuError(f"{game_id}: {count} legal actions of one kind, more than its "
                        f"{width} ids")


def chance_id(action: Action) -> int:
    """The chance id of an enumerable dealer action: its one number field (0 without)."""
    fields = action.__struct_fields__
    if not fields:
        _ID_FIELD[type(action)] = _zero
        return 0
    if type(getattr(action, fields[0])) is int:
        _ID_FIELD[type(action)] = attrgetter(fields[0])
    return int(getattr(action, fields[0]))


def _zero(_action: Action) -> int:
    return 0


_ID_FIELD: dict[type, Callable[[Action], int]] = {}
""":func:`chance_id` per action type, filled in as types are met (an int field read
directly)."""


def _float(p: Any) -> float:
    """A probability as a float: a ``Fraction``'s numerator / denominator (the correctly
    rounded quotient, what ``float(fraction)`` gives, without its generic path)."""
    try:
        return p.numerator / p.denominator
    except AttributeError:
        return float(p)


_TILES = attrgetter("tiles")
_TAKEN = attrgetter("taken")


# --- the games ---------------------------------------------------------------------------

class TweakCodec(Codec):
    """0-39 Place(card); 40 Pass; 41/42 Joker -1/+1; 43 Shifter; 44 Bomb; 45-52 Thief(victim);
    64 + 512 * card + rank: Capture(card, taken), rank among that card's legal captures
    sorted by ``taken``."""

    game_id = "tweak"
    num_actions = 64 + 40 * 512
    max_chance = 40

    def __init__(self) -> None:
        from kifu.games.tweak import actions as a

        self._a = a

    def fixed(self, action: Action) -> int | None:
        a = self._a
        t = type(action)
        if t is a.Place:
            return action.card  # type: ignore[attr-defined]
        if t is a.Capture:
            return None
        if t is a.Pass:
            return 40
        if t is a.UseJoker:
            return 41 if action.delta < 0 else 42  # type: ignore[attr-defined]
        if t is a.UseShifter:
            return 43
        if t is a.UseBomb:
            return 44
        if t is a.UseThief:
            return 45 + action.victim  # type: ignore[attr-defined]
        raise KifuError(f"tweak: no id for {action!r}")

    def group(self, action: Action) -> tuple[int, int, Any]:
        return 64 + 512 * action.card, 512, action.taken  # type: ignore[attr-defined]

    def index(self, actions: Sequence[Action]) -> tuple[list[int], dict[int, Action]]:
        # the generic definition written out: a placement's id is its card, captures are
        # gathered by card and ranked by what they take (a sort by ``taken``, stable as
        # the generic one), anything else by ``fixed``; no method call an action
        place, capture = self._a.Place, self._a.Capture
        ids: dict[int, Action] = {}
        caps: dict[int, list[Action]] = {}
        for x in actions:
            t = type(x)
            if t is place:
                ids[x.card] = x  # type: ignore[attr-defined]
            elif t is capture:
                c = x.card  # type: ignore[attr-defined]
                group = caps.get(c)
                if group is None:
                    caps[c] = [x]
                else:
                    group.append(x)
            else:
                ids[self.fixed(x)] = x  # type: ignore[index]
        for c, members in caps.items():
            _check_width("tweak", len(members), 512)
            members.sort(key=_TAKEN)
            base = 64 + 512 * c
            for r, x in enumerate(members):
                ids[base + r] = x
        return sorted(ids), ids

    def plan(self, state: State) -> Plan | None:
        from kifu.games.tweak.state import DEAL

        if state.phase != DEAL:  # type: ignore[attr-defined]
            return None
        deal = self._a.Deal
        return Plan(
            (tuple(sorted(state._components)), tuple(sorted(state._t_components))),  # type: ignore[attr-defined]
            (len(state._components), len(state._t_components)),  # type: ignore[attr-defined]
            lambda p: deal(tuple(p[0]), tuple(p[1])),
            lambda d: [list(d.deck), list(d.tpile)],  # type: ignore[attr-defined]
        )


class GraphTCodec(Codec):
    """2 * card + grey_side: Play(card, grey_side) (42 ids)."""

    game_id = "graph-t"
    num_actions = 42
    max_chance = 21

    def fixed(self, action: Action) -> int | None:
        return 2 * action.card + int(action.grey_side)  # type: ignore[attr-defined]

    def __init__(self) -> None:
        self._table: dict[int, int] = {}
        self._keep: list[Action] = []
        # pairs: _table_pairs bound once (a C-level partial, not a method a step)
        self.pairs = partial(_table_pairs, self, self._table, self._keep, False)  # type: ignore[method-assign]

    def index(self, actions: Sequence[Action]) -> tuple[list[int], dict[int, Action]]:
        ids = {2 * a.card + int(a.grey_side): a for a in actions}  # type: ignore[attr-defined]
        return sorted(ids), ids

    def plan(self, state: State) -> Plan | None:
        from kifu.games.graph_t.actions import Deal
        from kifu.games.graph_t.cards import deck_codes
        from kifu.games.graph_t.state import DEAL

        if state.phase != DEAL:  # type: ignore[attr-defined]
            return None
        n = state.n
        deck = tuple(sorted(deck_codes(state.variant.black)))

        def build(p: list[list[int]]) -> Action:
            return Deal(tuple(tuple(sorted(p[0][s::n])) for s in range(n)))

        def unbuild(d: Action) -> list[list[int]]:
            hands = d.hands  # type: ignore[attr-defined]
            return [[hands[k % n][k // n] for k in range(len(deck))]]

        return Plan((deck,), (len(deck),), build, unbuild)


class TowaiCodec(Codec):
    """0-33 Lead(side, card) as 17 * side + card; 34-50 Play(card); 51-67 Give(card);
    68 Stop; 69 Pass."""

    game_id = "towai"
    num_actions = 70
    max_chance = 17
    pick_bounds = (4, 60)  # a kind has 4 copies at most; a pool is the 60 cards at most

    def __init__(self) -> None:
        from kifu.games.towai import actions as a
        from kifu.games.towai.state import DEAL, REBUILD

        self._a = a
        self._deal_phase = DEAL
        self._rebuild_phase = REBUILD
        self._deals: dict[tuple[int, int], Plan] = {}
        self._of: dict[type, Callable[[Any], int]] = {
            a.Lead: lambda x: 17 * x.side + x.card, a.Play: lambda x: 34 + x.card,
            a.Give: lambda x: 51 + x.card, a.Stop: lambda x: 68, a.Pass: lambda x: 69}
        self._table: dict[int, int] = {}
        self._keep: list[Action] = []
        # pairs: _table_pairs bound once (a C-level partial, not a method a step)
        self.pairs = partial(_table_pairs, self, self._table, self._keep, False)  # type: ignore[method-assign]
        self._by_tuple: dict[int, tuple[list[int], tuple[Action, ...]]] = {}
        self.legal_of = self._legal_of

    def _legal_of(self, state: State) -> tuple[list[int], Sequence[Action]]:
        """The legal (ids, actions) by the engine's shared legal tuple
        (``TowaiState.legal_tuple``: one object per kind mask, kept by the engine's memo):
        its ids are worked out once and kept beside it, keyed by its identity (the entry
        holds the tuple, so the identity cannot pass to another object while the entry
        lives). Up to 8,192 entries, the commonest tuples first met (the engine's memo
        held about 70,000 after 10,000 random games at four seats, but a memo that large
        was no faster in CPU time); past that, a new tuple's ids are worked out each
        time."""
        t = state.legal_tuple()  # type: ignore[attr-defined]
        hit = self._by_tuple.get(id(t))
        if hit is not None and hit[1] is t:
            return hit
        try:  # every action object known (the common case): its ids from the table
            ids = list(map(self._table.__getitem__, map(id, t)))
        except KeyError:
            ids = self.pairs(t)[0]
        pair = (ids, t)
        if t and len(self._by_tuple) < 8192:
            self._by_tuple[id(t)] = pair
        return pair

    def fixed(self, action: Action) -> int | None:
        of = self._of.get(type(action))
        if of is None:
            raise KifuError(f"towai: no id for {action!r}")
        return of(action)

    def index(self, actions: Sequence[Action]) -> tuple[list[int], dict[int, Action]]:
        of = self._of
        try:
            ids = {of[type(a)](a): a for a in actions}
        except KeyError:
            raise KifuError(f"towai: no id for one of {actions!r}") from None
        return sorted(ids), ids

    def plan(self, state: State) -> Plan | None:
        phase = state.phase  # type: ignore[attr-defined]
        if phase == self._rebuild_phase:
            pool = state.pool()  # type: ignore[attr-defined]  # sorted
            return Plan((pool,), (len(pool),), self._build_rebuild, _unbuild_deck)
        if phase != self._deal_phase:
            return None
        n = state.n
        first = state.first  # type: ignore[attr-defined]
        # the deal's plan depends on the seats and the first seat only: made once each
        plan = self._deals.get((n, first))
        if plan is None:
            plan = self._deals[n, first] = self._deal_plan(n, first)
        return plan

    def _build_rebuild(self, p: list[list[int]]) -> Action:
        return self._a.Rebuild(tuple(p[0]))

    def _deal_plan(self, n: int, first: int) -> Plan:
        from kifu.games.towai.cards import ALL_CARDS
        from kifu.games.towai.state import HAND_SIZE

        deal = self._a.Deal
        dealt = HAND_SIZE * n
        cards = tuple(sorted(ALL_CARDS))

        def build(p: list[list[int]]) -> Action:
            c = p[0]
            # seat s holds picks k < dealt with k % n == (s - first) % n: a slice
            hands = [tuple(sorted(c[(s - first) % n:dealt:n])) for s in range(n)]
            return deal(tuple(hands), tuple(c[dealt:]))

        def unbuild(d: Action) -> list[list[int]]:
            hands = d.hands  # type: ignore[attr-defined]
            return [[hands[(first + k) % n][k // n] for k in range(dealt)] + list(d.deck)]  # type: ignore[attr-defined]

        return Plan((cards,), (len(cards),), build, unbuild)


def _unbuild_deck(d: Action) -> list[list[int]]:
    return [list(d.deck)]  # type: ignore[attr-defined]


_CELLS = attrgetter("cells")


class LianxianCodec(Codec):
    """0 Pass; 1 + rank: Swap(tiles) (63 ids); 64 + rank: Place(cells) (2**18 ids; a random
    rollout once met 38,604 legal placements), ranks among the legal swaps / placements
    sorted by their fields."""

    game_id = "lianxian"
    num_actions = 64 + (1 << 18)
    max_chance = 50

    def __init__(self) -> None:
        from kifu.games.lianxian import actions as a

        self._a = a

    def fixed(self, action: Action) -> int | None:
        if type(action) is self._a.Pass:
            return 0
        return None

    def group(self, action: Action) -> tuple[int, int, Any]:
        if type(action) is self._a.Swap:
            return 1, 63, action.tiles  # type: ignore[attr-defined]
        return 64, 1 << 18, action.cells  # type: ignore[attr-defined]

    def index(self, actions: Sequence[Action]) -> tuple[list[int], dict[int, Action]]:
        pass_, swap = self._a.Pass, self._a.Swap
        passes = [a for a in actions if type(a) is pass_]
        swaps = sorted((a for a in actions if type(a) is swap), key=_TILES)
        places = sorted((a for a in actions if type(a) is not pass_ and type(a) is not swap),
                        key=_CELLS)
        _check_width("lianxian", len(swaps), 63)
        _check_width("lianxian", len(places), 1 << 18)
        ids: dict[int, Action] = {0: passes[-1]} if passes else {}
        ids.update(zip(range(1, 1 + len(swaps)), swaps, strict=True))
        ids.update(zip(range(64, 64 + len(places)), places, strict=True))
        return list(ids), ids  # built in ascending order

    def pairs(self, actions: Sequence[Action]) -> tuple[list[int], list[Action]]:
        ids, by_id = self.index(actions)
        return ids, list(by_id.values())  # the dict was built in ascending id order

    def plan(self, state: State) -> Plan | None:
        from kifu.games.lianxian.layout import HAND
        from kifu.games.lianxian.state import DEAL

        if state.phase != DEAL:  # type: ignore[attr-defined]
            return None
        n = state.n
        c = state.board.centre_mask().bit_count()  # type: ignore[attr-defined]
        k = c + HAND * n
        deal = self._a.Deal

        def build(p: list[list[int]]) -> Action:
            t = p[0]
            racks = tuple(tuple(sorted(t[c + HAND * s: c + HAND * (s + 1)])) for s in range(n))
            return deal(tuple(t[:c]), racks, tuple(sorted(t[k:k + HAND])))

        def unbuild(d: Action) -> list[list[int]]:
            return [list(d.centre) + [x for r in d.racks for x in r] + list(d.public)]  # type: ignore[attr-defined]

        return Plan((tuple(range(50)),), (k + HAND,), build, unbuild)


class AliceCodec(Codec):
    """0-155 Char(code); 156 + 5 * code + slot: Play(code, slot); 936 + code: Discard(code);
    1092-1094 Draw(deck); 1095 Drink; 1096 Pass; 1097-1099 Adjust(-1, 0, +1); 1100/1101
    Swap(keep/take); 1104 + rank: Buy(cards), rank among the legal buys sorted."""

    game_id = "alice"
    num_actions = 1104 + 64
    max_chance = 156

    def __init__(self) -> None:
        from kifu.games.alice import actions as a
        from kifu.games.alice.state import DEAL, POOL, ROLES

        self._a = a
        self._shuffles = (DEAL, POOL, ROLES)
        self._table: dict[int, int] = {}
        self._keep: list[Action] = []
        # pairs by identity as GRAPH-T and TOWAI, checking the order (and a Buy, a ranked
        # kind, sends the list the generic way)
        self.pairs = partial(_table_pairs, self, self._table, self._keep, True)  # type: ignore[method-assign]

    def fixed(self, action: Action) -> int | None:
        a = self._a
        t = type(action)
        if t is a.Char:
            return action.code  # type: ignore[attr-defined]
        if t is a.Play:
            return 156 + 5 * action.code + action.slot  # type: ignore[attr-defined]
        if t is a.Discard:
            return 936 + action.code  # type: ignore[attr-defined]
        if t is a.Draw:
            return 1092 + action.deck  # type: ignore[attr-defined]
        if t is a.Drink:
            return 1095
        if t is a.Pass:
            return 1096
        if t is a.Adjust:
            return 1098 + action.delta  # type: ignore[attr-defined]
        if t is a.Swap:
            return 1100 + int(action.take)  # type: ignore[attr-defined]
        if t is a.Buy:
            return None
        raise KifuError(f"alice: no id for {action!r}")

    def group(self, action: Action) -> tuple[int, int, Any]:
        return 1104, 64, action.cards  # type: ignore[attr-defined]

    def plan(self, state: State) -> Plan | None:
        from kifu.games.alice.cards import CODE_TYPE

        ph = state.phase  # type: ignore[attr-defined]
        # most dealer nodes are draws (enumerated by kifu): answered before anything else
        if ph not in self._shuffles:
            return None
        DEAL, POOL, ROLES = self._shuffles
        a = self._a
        n = state.n
        if ph == ROLES:
            k = len(state._tb.role_letters)  # type: ignore[attr-defined]
            return Plan((tuple(range(k)),), (n,), lambda p: a.Roles(tuple(p[0])),
                        lambda d: [list(d.roles)])  # type: ignore[attr-defined]
        if ph == DEAL:
            pools = tuple(tuple(sorted(c for c in state.deck if CODE_TYPE[c] == t))  # type: ignore[attr-defined]
                          for t in range(3))

            def build(p: list[list[int]]) -> Action:
                return a.Deal(tuple(
                    tuple(sorted(p[0][2 * s:2 * s + 2] + p[1][s:s + 1] + p[2][2 * s:2 * s + 2]))
                    for s in range(n)))

            def unbuild(d: Action) -> list[list[int]]:
                return [[c for h in d.hands for c in h if CODE_TYPE[c] == t]  # type: ignore[attr-defined]
                        for t in range(3)]

            return Plan(pools, (2 * n, n, 2 * n), build, unbuild)
        if ph == POOL:
            pool = tuple(sorted(c for h in state.hands for c in h))  # type: ignore[attr-defined]
            start = state.cstart  # type: ignore[attr-defined]

            def build_pool(p: list[list[int]]) -> Action:
                hands: list[list[int]] = [[] for _ in range(n)]
                for i, c in enumerate(p[0]):
                    hands[(start + i) % n].append(c)
                return a.Deal(tuple(tuple(sorted(h)) for h in hands))

            def unbuild_pool(d: Action) -> list[list[int]]:
                hands = d.hands  # type: ignore[attr-defined]
                return [[hands[(start + i) % n][i // n] for i in range(len(pool))]]

            return Plan((pool,), (len(pool),), build_pool, unbuild_pool)
        return None


_CODECS: dict[str, Callable[[], Codec]] = {
    "tweak": TweakCodec, "graph-t": GraphTCodec, "towai": TowaiCodec,
    "lianxian": LianxianCodec, "alice": AliceCodec,
}


def codec_for(game: Game) -> Codec:
    """The action ids and shuffle plans of ``game``."""
    return _CODECS[game.id]()


# --- the position --------------------------------------------------------------------------

class Setup:
    """A game, its seat count, rules and returns, and the codec: what every position of one
    framework game shares."""

    __slots__ = ("chance_keep", "chance_table", "codec", "game", "pick_rows", "players",
                 "returns", "variant")

    def __init__(self, game_id: str, players: int, rules: str = "", returns: str = "shares"):
        self.game = games.get(game_id)
        self.variant: Variant = (self.game.parse_rules(rules) if rules
                                 else self.game.Variant())
        self.game.new_state(players, self.variant)  # refuses a bad seat count or variant
        if returns not in ("shares", "scores"):
            raise KifuError(f"returns is shares or scores, not {returns!r}")
        self.players = players
        self.returns = returns
        self.codec = codec_for(self.game)
        # the chance ids of the engine's shared outcome objects, by identity (each object
        # kept alive in chance_keep): Position._chance_actions
        self.chance_table: dict[int, int] = {}
        self.chance_keep: list[Action] = []
        # the pick outcome table of a codec that has one (TOWAI): Position._rows
        bounds = self.codec.pick_bounds
        self.pick_rows = (pick_table(self.codec.max_chance, *bounds)
                          if bounds is not None else None)

    def start(self) -> Position:
        return Position(self, self.game.new_state(self.players, self.variant))

    @property
    def rules(self) -> str:
        return self.game.rules_spec(self.variant)


class Position:
    """A kifu state with the picks of a shuffle being dealt: the state behind one OpenSpiel
    state or one PettingZoo environment. ``actions`` are the kifu actions played so far."""

    __slots__ = ("_chance", "_left_n", "_legal", "_pile", "_plan", "_rows", "_seg_end",
                 "_views", "actions", "picks", "player", "seat", "setup", "state")

    def __init__(self, setup: Setup, state: State, actions: list[Action] | None = None,
                 picks: list[int] | None = None):
        self.setup = setup
        self.state = state
        self.actions: list[Action] = actions if actions is not None else []
        self.picks: list[int] = picks if picks is not None else []
        self._plan: Plan | bool | None = False  # False: not worked out yet
        self._legal: tuple[list[int], Sequence[Action]] | None = None
        self._chance: tuple[list[int], tuple[Action, ...], list[float]] | None = None
        self._pile: dict[int, int] | None = None  # what is left of the pile being dealt
        self._seg_end = 0  # the number of picks at which that pile is dealt out
        self._left_n = 0  # the items left in that pile (the sum of its counts)
        self._rows = setup.pick_rows  # the setup's pick outcome table, or None
        self.seat: int | None = state.to_move
        self.player = _player(self.seat)
        self._views: dict[int, str] | None = None  # view(seat) of this kifu state, asked once

    # --- whose turn -------------------------------------------------------------------
    # ``player`` is ``seat`` as OpenSpiel numbers players: a seat, -1 (CHANCE: kifu's
    # DEALER) or -4 (TERMINAL) for kifu's ``None``; kept beside ``seat`` so that OpenSpiel's
    # ``current_player`` is one attribute read (``kifu.interop.openspiel``)

    @property
    def to_move(self) -> int | None:
        """A seat, :data:`DEALER` (a chance node, a pick included), or ``None`` at the end."""
        return self.seat

    def plan(self) -> Plan | None:
        if self._plan is False:
            self._plan = self.setup.codec.plan(self.state)
        return self._plan  # type: ignore[return-value]

    # --- players' actions ---------------------------------------------------------------
    def legal(self) -> tuple[list[int], dict[int, Action]]:
        """The legal ids (ascending) and the action of each, for the seat to move."""
        ids, acts = self.legal_pairs()
        return ids, dict(zip(ids, acts, strict=True))

    def legal_pairs(self) -> tuple[list[int], Sequence[Action]]:
        """The legal ids (ascending) of the seat to move and, in the same order, their
        actions (shared: callers must not change them)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_pairs()
        return legal

    def _legal_pairs(self) -> tuple[list[int], Sequence[Action]]:
        codec = self.setup.codec
        of = codec.legal_of
        if of is not None:
            return of(self.state)
        return codec.pairs(self.state.legal_actions())

    def legal_ids(self) -> list[int]:
        """The legal ids of the seat to move, ascending (shared: do not change it)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_pairs()
        return legal[0]

    def action_of(self, action_id: int) -> Action:
        """The kifu action of a player's id here (raises :class:`KifuError` if not legal)."""
        ids, acts = self.legal_pairs()
        i = bisect_left(ids, action_id)
        if i == len(ids) or ids[i] != action_id:
            raise KifuError(f"action {action_id} is not legal here")
        return acts[i]

    def id_of(self, action: Action) -> int:
        """The id of a kifu action (a player's, or an enumerable dealer action)."""
        if self.seat == DEALER:
            return chance_id(action)
        for i, a in zip(*self.legal_pairs(), strict=True):
            if a == action:
                return i
        raise KifuError(f"{action!r} is not legal here")

    # --- chance -----------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(id, probability) of every outcome of this chance node, ids ascending."""
        plan = self._plan
        if plan is False:
            plan = self.plan()
        if plan is not None:
            left = self._pile
            if left is None:
                left = self._left(plan)  # type: ignore[arg-type]
            total = self._left_n  # ascending: built from a sorted pool
            rows = self._rows
            if rows is not None:  # the pairs made before: one subscript an outcome
                row = rows[total]
                return [row[c][k] for c, k in left.items()]
            return [(c, k / total) for c, k in left.items()]
        ids, _acts, probs = self._chance_actions()
        return list(zip(ids, probs, strict=True))

    def chance_pick(self, x: float) -> int:
        """The outcome of this chance node that a uniform draw ``x`` in [0, 1) picks: the
        first whose cumulative probability (ids ascending, as :meth:`chance_outcomes`)
        exceeds ``x``, else the last (the same pick as walking that list, without it)."""
        plan = self.plan()
        if plan is None:
            outcomes = self.chance_outcomes()
        else:
            left = self._left(plan)
            total = self._left_n
            acc = 0.0
            c = -1
            for c, k in left.items():
                acc += k / total
                if x < acc:
                    return c
            return c
        acc = 0.0
        for i, p in outcomes:
            acc += p
            if x < acc:
                return i
        return outcomes[-1][0]

    def _left(self, plan: Plan) -> dict[int, int]:
        """What is left of the pool the next pick comes from: code -> copies (kept from
        pick to pick, worked out afresh at the start of each pool)."""
        if self._pile is None:
            self._pile, self._seg_end = self._fresh_pile(plan)
            self._left_n = sum(self._pile.values())
        return self._pile

    def _fresh_pile(self, plan: Plan) -> tuple[dict[int, int], int]:
        done = len(self.picks)
        start = 0
        for pile, count in zip(plan.piles, plan.counts, strict=True):
            if done < start + count:
                left = dict(pile)  # the plan's pile is shared: a copy to deal from
                if done > start:  # picks made before (a position rebuilt or copied)
                    for c in self.picks[start:]:
                        left[c] -= 1
                    left = {c: k for c, k in left.items() if k}
                return left, start + count
            start += count
        raise KifuError("the shuffle is already dealt")

    def _chance_actions(self) -> tuple[list[int], tuple[Action, ...], list[float]]:
        """The outcomes of an enumerable dealer node as three parallel lists, ids
        ascending: the ids, kifu's actions, the probabilities (worked out once a node:
        ids by the action type's number field, a uniform draw's one probability converted
        once, all of it by C-level maps rather than a Python loop an outcome)."""
        if self._chance is None:
            outcomes = self.state.chance_outcomes()
            if not outcomes:
                raise KifuError(f"{self.setup.game.id}: a dealer action with no outcomes "
                                "and no plan here")
            acts, ps = zip(*outcomes, strict=True)
            p0 = ps[0]
            # a uniform draw shares one Fraction object (count compares by identity first)
            if p0 is ps[-1] and ps.count(p0) == len(ps):
                probs = [_float(p0)] * len(ps)
            else:
                probs = list(map(_float, ps))
            # the engines hand out shared outcome objects (Alice's cards): their ids are
            # read from a table keyed by identity, filled the first time each is met (and
            # checked there); a list of known objects in ascending order is taken as is
            table = self.setup.chance_table
            try:
                ids = list(map(table.__getitem__, map(id, acts)))
            except KeyError:
                ids = None  # type: ignore[assignment]
            if ids is None or ids != sorted(ids):
                ids, acts, probs = self._chance_sorted(acts, probs)  # type: ignore[assignment]
            self._chance = (ids, acts, probs)  # type: ignore[assignment]
        return self._chance  # type: ignore[return-value]

    def _chance_sorted(self, acts: tuple[Action, ...], probs: list[float]
                       ) -> tuple[list[int], tuple[Action, ...], list[float]]:
        """:meth:`_chance_actions` the general way: each outcome's id by its action
        type's number field, the outcomes sorted by id, a shared id refused; the objects
        are remembered in the setup's identity table (up to 4,096, kept alive there so
        that no other object can take an identity over)."""
        types = set(map(type, acts))
        g = _ID_FIELD.get(types.pop()) if len(types) == 1 else None
        ids = list(map(g, acts)) if g is not None else [chance_id(a) for a in acts]
        if ids != sorted(set(ids)):  # not strictly ascending: sort, or a shared id
            if len(set(ids)) != len(ids):
                raise KifuError(f"{self.setup.game.id}: two dealer actions share a "
                                "chance id")
            order = sorted(range(len(ids)), key=ids.__getitem__)
            ids = [ids[i] for i in order]
            acts = tuple(acts[i] for i in order)
            probs = [probs[i] for i in order]
        keep = self.setup.chance_keep
        if len(keep) < 4096:
            table = self.setup.chance_table
            for a, i in zip(acts, ids, strict=True):
                if id(a) not in table:
                    keep.append(a)
                    table[id(a)] = i
        return ids, acts, probs

    def _chance_action(self, action_id: int) -> Action:
        """kifu's dealer action of an enumerable chance outcome's id."""
        ids, acts, _p = self._chance_actions()
        i = bisect_left(ids, action_id)
        if i == len(ids) or ids[i] != action_id:
            raise KifuError(f"chance outcome {action_id} is not possible here")
        return acts[i]

    # --- moving -------------------------------------------------------------------------------
    def apply_id(self, action_id: int) -> Action | None:
        """Play the id for whoever is to move; returns the kifu action played (``None`` for
        a pick that does not yet complete its shuffle)."""
        seat = self.seat
        if seat is not None and seat >= 0:
            # a player's id (the common case, written out: one call a step, no helpers)
            legal = self._legal
            if legal is None:
                legal = self.legal_pairs()
            ids = legal[0]
            i = bisect_left(ids, action_id)
            if i == len(ids) or ids[i] != action_id:
                raise KifuError(f"action {action_id} is not legal here")
            action = legal[1][i]
            state = self.state
            state.push(action)  # from the legal list: known legal
            self.seat = seat = state.to_move
            self.player = TERMINAL if seat is None else seat
            self.actions.append(action)
            self._views = None
            self._plan = False
            self._legal = None
            self._chance = None
            return action
        if seat is None:
            raise KifuError("the game is over")
        plan = self._plan
        if plan is False:
            plan = self.plan()
        if plan is not None:
            pile = self._pile
            if pile is None:
                pile = self._left(plan)  # type: ignore[arg-type]
            k = pile.get(action_id, 0)
            if k <= 0:
                raise KifuError(f"chance outcome {action_id} is not left in the pile")
            if k == 1:
                del pile[action_id]
            else:
                pile[action_id] = k - 1
            self._left_n -= 1
            picks = self.picks
            picks.append(action_id)
            done = len(picks)
            if done == self._seg_end:
                self._pile = None
            if done < plan.total:
                return None
            parts, at = [], 0
            for count in plan.counts:
                parts.append(picks[at:at + count])
                at += count
            action = plan.build(parts)
        else:
            action = self._chance_action(action_id)
        # known legal, not checked again: a shuffle is built from picks counted off the
        # plan's pools, each the engine's own cards (a permutation of them, what the
        # engine's check of a deal or rebuild verifies), and kifu's own outcomes are legal
        # (the replay test runs every record through ``kifu validate``, which checks all)
        self.play(action, checked=False)
        return action

    def play(self, action: Action, *, checked: bool = True) -> None:
        """Play a whole kifu action (a dealer's shuffle at once, too), checked by the engine
        unless ``checked`` is false (an action the bridge took from the legal list)."""
        if checked:
            self.state.apply(action)
        else:
            self.state.push(action)
        self.seat = seat = self.state.to_move
        self.player = TERMINAL if seat is None else seat
        self.actions.append(action)
        self.picks = []
        self._pile = None
        self._views = None
        self._plan = False
        self._legal = None
        self._chance = None

    def ids_of(self, action: Action) -> list[int]:
        """The ids that play ``action`` from here: one, or a shuffle's picks in order."""
        if self.seat == DEALER:
            plan = self.plan()
            if plan is not None:
                return [c for part in plan.unbuild(action) for c in part]
            return [chance_id(action)]
        return [self.id_of(action)]

    # --- the end ------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """Each seat's return at the end (zeros before): the pairwise share (1 ahead of every
        other seat, 0.5 even, 0 behind all; shares sum to n/2), or the game's scores."""
        result = self.state.result()
        n = self.setup.players
        if result is None:
            return [0.0] * n
        if self.setup.returns == "scores":
            return [float(s) for s in result.scores]
        return [pairwise(result, s) for s in range(n)]

    # --- copies and worlds --------------------------------------------------------------------
    def copy(self) -> Position:
        s = self.state.copy()
        s.history = list(self.state.history)
        p = Position(self.setup, s, list(self.actions), list(self.picks))
        p._plan = self._plan
        p._legal = self._legal
        p._chance = self._chance
        p._views = dict(self._views) if self._views is not None else None
        if self._pile is not None:
            p._pile = dict(self._pile)
            p._seg_end = self._seg_end
            p._left_n = self._left_n
        return p

    def world(self, seat: int, rng: Rng) -> Position:
        """A full position ``seat`` cannot tell from this one, drawn by kifu's world sampler
        (at a chance node mid-shuffle: this position, the shuffle not yet seen)."""
        if self.picks or self.seat is None or self.seat == DEALER:
            return self.copy()
        world = self.setup.game.world_sampler(self.state, seat)(rng)
        world.history = list(self.state.history)
        return Position(self.setup, world, list(self.actions))

    def view(self, seat: int) -> str:
        """The position line as ``seat`` sees it (kifu's ``view``, kept until the next
        kifu action: observers ask for it several times a state)."""
        views = self._views
        if views is None:
            views = self._views = {}
        v = views.get(seat)
        if v is None:
            v = views[seat] = self.state.view(seat)
        return v

    def cached_view(self, seat: int) -> str | None:
        """:meth:`view` if it was already asked at this kifu state, else ``None``."""
        return self._views.get(seat) if self._views is not None else None

    def action_text(self, seat: int, action_id: int) -> str:
        """kifu's text of a player's id, or ``deal:CODE`` / kifu's text for chance ids."""
        if seat == DEALER:
            plan = self.plan() if self.seat == DEALER else None
            if plan is not None:
                return f"pick:{action_id}"
            if self.seat == DEALER and action_id in self._chance_actions()[0]:
                return self.setup.game.format_action(self.state,
                                                     self._chance_action(action_id))
            return f"chance:{action_id}"
        legal = self.legal()[1] if self.seat == seat else {}
        if action_id in legal:
            return self.setup.game.format_action(self.state, legal[action_id])
        return f"action:{action_id}"

    def record_text(self, names: list[str] | None = None) -> str:
        """The kifu record of the actions played so far (headers, one action a line)."""
        from kifu.notation.record import format_record
        from kifu.notation.replay import record_from_actions

        n = self.setup.players
        rec = record_from_actions(self.setup.game, names or [f"p{s}" for s in range(n)],
                                  self.actions, variant=self.setup.variant)
        return format_record(rec)

    def __reduce__(self) -> tuple:
        # pickled through kifu's record (what OpenSpiel's serialization of a Python state
        # pickles): the game, seats, rules, returns, the record text and the pending picks
        s = self.setup
        return (_restore, (s.game.id, s.players, s.rules, s.returns, self.record_text(),
                           list(self.picks)))

    def __deepcopy__(self, memo: dict) -> Position:
        return self.copy()


def from_record(setup: Setup, text: str, picks: list[int] | None = None) -> Position:
    """A position from a kifu record's text (and the pending picks of a shuffle)."""
    from kifu.notation.reader import parse_record
    from kifu.notation.replay import replay

    rep = replay(parse_record(text), check_result=False)
    pos = Position(setup, setup.start().state)
    for a in rep.actions:
        pos.play(a)
    for c in picks or []:
        pos.apply_id(c)
    return pos


_SETUPS: dict[tuple[str, int, str, str], Setup] = {}


def setup_for(game_id: str, players: int, rules: str = "", returns: str = "shares") -> Setup:
    """A shared :class:`Setup` (one per game, seats, rules, returns)."""
    key = (game_id, players, rules, returns)
    if key not in _SETUPS:
        _SETUPS[key] = Setup(game_id, players, rules, returns)
    return _SETUPS[key]


def _restore(game_id: str, players: int, rules: str, returns: str, text: str,
             picks: list[int]) -> Position:
    return from_record(setup_for(game_id, players, rules, returns), text, picks)


def history_ids(setup: Setup, actions: list[Action]) -> list[int]:
    """The ids (chance picks included) that replay kifu ``actions`` from the start."""
    pos = setup.start()
    out: list[int] = []
    for a in actions:
        ids = pos.ids_of(a)
        for i in ids:
            pos.apply_id(i)
        out.extend(ids)
    return out
