"""Generic exhaustive searches over any kifu game (no game knowledge here).

Three searches walk a live :class:`~kifu.core.game.State` with ``push``/``pop`` (as
python-chess's ``push``/``pop`` and DDS's make/undo), each with a transposition table keyed
by ``key(state)`` (default ``state.key()``):

- :func:`prove` -- AND-OR proof search: can ``player`` force ``goal`` against any defence?
- :func:`probability` -- the exact :class:`~fractions.Fraction` of success with best play:
  ``player`` maximises, the other seats minimise, dealer nodes are weighted by
  ``chance_outcomes()``;
- :func:`minimax` -- two-sided "paranoid" alpha-beta for values (``player`` against the
  coalition of all others) with move ordering, bounds in the table, and equivalent actions
  merged.

Each returns the value at the root, one principal line, the node count, the time, whether
it finished within its :class:`~kifu.puzzles.base.Budget`, and (``values=True``) the exact
value of every legal first action, like DDS's score per card (:func:`root_values`).

Conventions shared by the three:

- ``goal(state)`` / ``evaluate(state)`` is called on entering a node, in depth-first
  order, before ``key(state)`` and the table (it may be called again for the same node
  while the principal line is built). It must depend only on the position and the path
  from the root, so it may keep a counter along the current path that ``key`` reads (as
  ``tweak-within N`` does); ``key`` must then include everything ``goal`` depends on.
- A node whose mover is ``player`` maximises (OR); another seat minimises (AND); the dealer
  (chance) is handled per search. A terminal node where ``goal`` gave ``None`` fails; a
  dealer node whose outcomes are not enumerable (a shuffle) fails too (``prove``,
  ``probability``); ``minimax`` requires ``evaluate`` to stop there.
- Children of a player node that reach the same key (equivalent actions: identical cards,
  captures that leave the same position) are searched once.
- The node count is the number of positions entered (the root and every ``push``).
- The table is bounded: past its share of the budget's memory ceiling
  (:meth:`~kifu.puzzles.base.Meter.entries`, about :data:`ENTRY_BYTES` an entry) its older
  half is dropped (a dict keeps the order its keys came in), so a long search revisits
  what it forgot instead of growing; it is exact either way. A search past its budget
  (nodes, time, or the process's memory as a last resort) stops with ``complete=False``
  and the ``reason``.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from kifu.core.game import DEALER, Action, State
from kifu.puzzles.base import Budget, Meter, OutOfBudget

Goal = Callable[[State], "bool | None"]
Evaluate = Callable[[State], Any]
Order = Callable[[State, list[Action]], list[Action]]
KeyFn = Callable[[State], Hashable]
Bound = Callable[[State], tuple[Any, Any]]

ZERO = Fraction(0)
ONE = Fraction(1)
ENTRY_BYTES = 400
"""About what a table entry costs (a key from ``state.key()``, its value, the dict's slot)."""
CHECK_EVERY = 1 << 10
"""The clock, the memory and the table's size are looked at every this many nodes."""


class _Inf:
    """The bounds of alpha-beta: compare below / above every value (ints, tuples...)."""

    __slots__ = ("sign",)

    def __init__(self, sign: int) -> None:
        self.sign = sign

    def __lt__(self, other: object) -> bool:
        return self.sign < 0 and other is not self

    def __gt__(self, other: object) -> bool:
        return self.sign > 0 and other is not self

    def __le__(self, other: object) -> bool:
        return self.sign < 0 or other is self

    def __ge__(self, other: object) -> bool:
        return self.sign > 0 or other is self

    def __repr__(self) -> str:
        return "+inf" if self.sign > 0 else "-inf"


NEG_INF = _Inf(-1)
POS_INF = _Inf(1)


class SearchError(ValueError):
    """A search was asked something it cannot do (``evaluate`` gave ``None`` at the end of
    the game, or at a shuffle)."""


_SKIP = object()
"""A child equivalent to an earlier sibling (same key): not searched again."""


def narrow(lo: Any, hi: Any, alpha: Any, beta: Any) -> tuple[Any, Any, Any]:
    """A node whose value is known to lie in [lo, hi], to be searched in the window
    (alpha, beta): (its fail-soft value if the bounds settle it, else ``None``; the window
    narrowed to the bounds)."""
    if lo >= beta or lo == hi:
        return lo, alpha, beta
    if hi <= alpha:
        return hi, alpha, beta
    return None, lo if lo > alpha else alpha, hi if hi < beta else beta


def bounds_after(best: Any, a0: Any, b0: Any, lo: Any, hi: Any) -> tuple[Any, Any]:
    """The (lower, upper) bounds of a node's value after a fail-soft search in the window
    (a0, b0) returned ``best``, the bounds known before being (lo, hi): at most ``best``
    if it failed low, at least ``best`` if it failed high, else exactly ``best``."""
    if best <= a0:
        return lo, best if best < hi else hi
    if best >= b0:
        return best if best > lo else lo, hi
    return best, best


@dataclass(kw_only=True)
class Outcome:
    """What the three searches return besides their value: a principal ``line``,
    ``values`` (each first action's value, with ``values=True``), the ``nodes`` searched,
    the ``seconds``, whether the search was ``complete`` and, if not, the ``reason`` (a
    key of :data:`kifu.puzzles.base.REASONS`)."""

    line: list[Action] = field(default_factory=list)
    values: list[tuple[Action, Any]] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    complete: bool = True
    reason: str | None = None


@dataclass
class Proof(Outcome):
    """The result of :func:`prove`: ``ok`` (the goal can be forced), a winning ``line`` of
    actions when ``ok`` (the winner's choices; at defence and chance nodes the first
    alternative), ``values`` (each first action and whether it wins). Past the budget
    ``ok`` is ``False``."""

    ok: bool = False


@dataclass
class Chance(Outcome):
    """The result of :func:`probability`: ``value`` is the exact probability of success with
    best play; ``line`` follows the best action of each side and, at a dealer node, the most
    likely outcome. Past the budget ``value`` is 0."""

    value: Fraction = ZERO


@dataclass
class Value(Outcome):
    """The result of :func:`minimax`: ``value`` is the exact paranoid value (higher is
    better for ``player``); ``line`` is a principal variation. Past the budget ``value``
    is ``None``."""

    value: Any = None


class _Search:
    """What the three searches share: the node counter and the budget, the table and its
    cap, the root's first-action values, the principal line, and putting the state back
    when the budget runs out. Subclasses give ``leaf`` (the goal / evaluation, or
    ``None``), ``visit`` (the value of the node just entered, called with ``ROOT`` and
    then as they like), ``combine`` and ``pick`` (which child the line follows)."""

    ROOT: tuple = (None,)
    """``visit``'s arguments for a node searched on its own (no sibling, full window)."""

    def __init__(self, state: State, player: int, budget: Budget | None, key: KeyFn | None,
                 order: Order | None, tt: dict | None) -> None:
        self.state = state
        self.player = player
        self.meter = Meter(budget)
        self.max_nodes = self.meter.max_nodes
        self.meter.entries(ENTRY_BYTES)
        self.key = key or type(state).key
        self.order = order
        self.tt: dict = {} if tt is None else tt
        self.nodes = 0
        self.t0 = time.perf_counter()
        self.depth0 = len(state.history)
        self.reason: str | None = None

    # --- machinery --------------------------------------------------------------------------
    def enter(self) -> None:
        """Count a node; stop if the budget is spent; keep the table under its cap."""
        self.nodes = n = self.nodes + 1
        if self.max_nodes is not None and n > self.max_nodes:
            raise OutOfBudget("nodes")
        if not n & (CHECK_EVERY - 1):
            self.meter.check()
            if self.meter.full(len(self.tt)):
                self.trim()

    def trim(self) -> None:
        """The table past its cap: its older half goes."""
        tt = self.tt
        for k in list(itertools.islice(tt, len(tt) // 2)):
            del tt[k]

    def choices(self, raw: bool = False) -> tuple[list[Action], list[Fraction] | None]:
        """The actions at the current node (chance outcomes with their probabilities at a
        dealer node; ``None`` probabilities for a player's node), ordered by ``order``
        unless ``raw``."""
        state = self.state
        if state.to_move == DEALER:
            outs = state.chance_outcomes() or []
            return [a for a, _ in outs], [p for _, p in outs]
        acts = state.legal_actions()
        if not raw and self.order is not None and len(acts) > 1:
            acts = self.order(state, acts)
        return acts, None

    def probe(self, seen: set | None) -> Any:
        """The current node's key, or ``_SKIP`` if a sibling searched before had it (then
        this child is not searched: equivalent actions); ``seen`` collects the siblings'
        keys."""
        k = self.key(self.state)
        if seen is not None:
            if k in seen:
                return _SKIP
            seen.add(k)
        return k

    def known(self, seen: set | None) -> tuple[Any, Any]:
        """(key, value) of the node just entered: its value when it is known without a
        search (a leaf, ``_SKIP`` for an equivalent sibling, the table's exact value),
        else ``None`` with its key (prove and probability keep exact values)."""
        r = self.leaf()
        if r is not None:
            return None, r
        k = self.probe(seen)
        if k is _SKIP:
            return k, k
        return k, self.tt.get(k)

    def down(self, action: Action, *args: Any) -> Any:
        """The value of ``action``'s child: pushed, counted, ``visit(*args)``, popped."""
        state = self.state
        state.push(action)
        try:
            self.enter()
            return self.visit(*args)
        finally:
            state.pop()

    def child(self, action: Action) -> Any:
        """The exact value of ``action`` from the current node."""
        return self.down(action, *self.ROOT)

    # --- to be given by each search ---------------------------------------------------------
    def leaf(self) -> Any:
        raise NotImplementedError

    def visit(self, *args: Any) -> Any:
        """The value of the node just entered (``leaf`` included). Here for searches that
        keep exact values (prove, probability): known, or searched and kept."""
        (seen,) = args
        k, r = self.known(seen)
        if r is None:
            r = self.tt[k] = self.search()
        return r

    def search(self) -> Any:
        """The exact value of the node just entered, from its children."""
        raise NotImplementedError

    def combine(self, vals: list[Any], probs: list[Fraction] | None) -> Any:
        """The value of a node from its children's exact values."""
        raise NotImplementedError

    def pick(self, value: Any, acts: list[Action], probs: list[Fraction] | None) -> Action:
        """The child the principal line follows from a node of exact value ``value``."""
        raise NotImplementedError

    # --- the driver -------------------------------------------------------------------------
    def run(self, values: bool, cls: type, empty: Any, line_if: Callable[[Any], bool]) -> Any:
        """The search from the root as a ``cls`` (:class:`Outcome`): its value (``empty``
        past the budget), the first-action values with ``values``, and the principal line
        when ``line_if(value)``."""
        state = self.state
        root_vals: list[tuple[Action, Any]] = []
        v: Any = empty
        line: list[Action] = []
        try:
            self.enter()
            v = self.leaf()
            if v is None:
                if values:
                    acts, probs = self.choices(raw=True)
                    root_vals = [(a, self.child(a)) for a in acts]
                    v = self.combine([x for _, x in root_vals], probs)
                else:
                    v = self.visit(*self.ROOT)
                if line_if(v):
                    line = self.follow(v)
        except OutOfBudget as e:
            while len(state.history) > self.depth0:
                state.pop()
            self.reason = e.reason
            v = empty
        return cls(v, line=line, values=root_vals, nodes=self.nodes,
                   seconds=time.perf_counter() - self.t0, complete=self.reason is None,
                   reason=self.reason)

    def follow(self, v: Any) -> list[Action]:
        """The principal line from the root, whose exact value is ``v``."""
        state = self.state
        line: list[Action] = []
        try:
            while True:
                if line and self.leaf() is not None:
                    break
                if state.to_move is None:
                    break
                acts, probs = self.choices()
                if not acts:
                    break
                a = self.pick(v, acts, probs)
                if a is None:
                    break
                v = self.child(a)
                state.push(a)
                line.append(a)
        finally:
            for _ in line:
                state.pop()
        return line


# --- prove ------------------------------------------------------------------------------------


class _Prove(_Search):
    def __init__(self, goal: Goal, chance: str, others: str, *args: Any) -> None:
        super().__init__(*args)
        self.goal = goal
        self.any_chance = chance == "any"
        self.with_others = others == "with"

    def leaf(self) -> Any:
        g = self.goal(self.state)
        return None if g is None else bool(g)

    def is_or(self) -> bool:
        mover = self.state.to_move
        if mover == DEALER:
            return self.any_chance
        return mover == self.player or self.with_others

    def search(self) -> Any:
        state = self.state
        mover = state.to_move
        if mover is None or (mover == DEALER and state.chance_outcomes() is None):
            return False
        is_or = self.is_or()
        acts, _ = self.choices()
        down = self.down
        seen_here: set = set()
        for a in acts:
            if down(a, seen_here) is is_or:  # OR found a win / AND found a refutation
                return is_or
        return not is_or

    def combine(self, vals: list[Any], probs: list[Fraction] | None) -> Any:
        if not vals:
            return False
        return any(vals) if self.is_or() else all(vals)

    def pick(self, value: Any, acts: list[Action], probs: list[Fraction] | None) -> Any:
        if not value:
            return None
        if not self.is_or():
            return acts[0]
        return _first_with(self, True, acts)


def prove(
    state: State,
    *,
    player: int,
    goal: Goal,
    chance: Literal["all", "any"] = "all",
    others: Literal["against", "with"] = "against",
    budget: Budget | None = None,
    key: KeyFn | None = None,
    order: Order | None = None,
    values: bool = False,
    tt: dict | None = None,
) -> Proof:
    """AND-OR search: can ``player`` reach ``goal``?

    ``goal(state)`` returns ``True`` (success: stop), ``False`` (failure: stop) or ``None``
    (search on). ``player``'s nodes are OR nodes; the other seats' nodes are AND nodes (they
    defend) with ``others="against"``, or OR nodes with ``others="with"`` (everyone
    cooperates: "is it possible at all?"). A dealer node with enumerable
    ``chance_outcomes()`` is AND with ``chance="all"`` (whatever the draw) and OR with
    ``chance="any"`` (some draw). ``values=True`` also gives every first action's result.

    Past the ``budget`` the result has ``complete=False`` and ``ok=False``.
    """
    s = _Prove(goal, chance, others, state, player, budget, key, order, tt)
    p = s.run(values, Proof, False, bool)
    p.ok = bool(p.ok)
    return p


# --- probability ------------------------------------------------------------------------------


class _Probability(_Search):
    def __init__(self, goal: Goal, *args: Any) -> None:
        super().__init__(*args)
        self.goal = goal

    def leaf(self) -> Any:
        g = self.goal(self.state)
        return None if g is None else (ONE if g else ZERO)

    def search(self) -> Any:
        state = self.state
        mover = state.to_move
        down = self.down
        if mover is None:
            return ZERO
        if mover == DEALER:
            return sum((p * down(a, None) for a, p in state.chance_outcomes() or ()), ZERO)
        acts, _ = self.choices()
        maximise = mover == self.player
        r = ZERO if maximise else ONE
        seen_here: set = set()
        for a in acts:
            x = down(a, seen_here)
            if x is _SKIP:
                continue
            if maximise:
                if x > r:
                    r = x
                    if r == ONE:
                        break
            elif x < r:
                r = x
                if r == ZERO:
                    break
        return r

    def combine(self, vals: list[Any], probs: list[Fraction] | None) -> Any:
        if probs is not None:
            return sum((p * v for p, v in zip(probs, vals, strict=True)), ZERO)
        if not vals:
            return ZERO
        return max(vals) if self.state.to_move == self.player else min(vals)

    def pick(self, value: Any, acts: list[Action], probs: list[Fraction] | None) -> Any:
        if probs is not None:
            return acts[max(range(len(acts)), key=lambda i: (probs[i], -i))]
        return _first_with(self, value, acts)


def _first_with(s: _Search, value: Any, acts: list[Action]) -> Any:
    """The first of ``acts`` whose child's exact value is ``value``."""
    for a in acts:
        if s.child(a) == value:
            return a
    return None  # pragma: no cover - some child has the node's value


def probability(
    state: State,
    *,
    player: int,
    goal: Goal,
    budget: Budget | None = None,
    key: KeyFn | None = None,
    order: Order | None = None,
    values: bool = False,
    tt: dict | None = None,
) -> Chance:
    """The exact probability that ``player`` reaches ``goal`` with best play: ``player``
    maximises, the other seats minimise, a dealer node averages its ``chance_outcomes()``
    (a shuffle, not enumerable, and a terminal node where ``goal`` gave ``None`` count 0).

    Past the ``budget`` the result has ``complete=False`` and ``value`` 0.
    """
    s = _Probability(goal, state, player, budget, key, order, tt)
    return s.run(values, Chance, ZERO, _always)


def _always(v: Any) -> bool:
    return True


# --- minimax ----------------------------------------------------------------------------------


class _Minimax(_Search):
    ROOT = (NEG_INF, POS_INF, None)

    def __init__(self, evaluate: Evaluate, chance: str, bound: Bound | None, *args: Any) -> None:
        super().__init__(*args)
        self.evaluate = evaluate
        self.chance_max = chance == "max"
        self.bound = bound

    def leaf(self) -> Any:
        return self.evaluate(self.state)

    def maximising(self) -> bool:
        mover = self.state.to_move
        if mover == DEALER:
            return self.chance_max
        return mover == self.player

    def visit(self, alpha: Any, beta: Any, seen: set | None) -> Any:
        state = self.state
        v = self.evaluate(state)
        if v is not None:
            return v
        if self.bound is not None:  # the value is known to lie in [lo, hi]: cut outside
            lo, hi = self.bound(state)
            if lo >= beta:
                return lo
            if hi <= alpha:
                return hi
        k = self.probe(seen)
        if k is _SKIP:
            return k
        tt = self.tt
        entry = tt.get(k)
        first = None
        if entry is not None:
            v, alpha, beta = narrow(entry[0], entry[1], alpha, beta)
            if v is not None:
                return v
            first = entry[2]
        mover = state.to_move
        if mover is None:
            raise SearchError("evaluate() gave no value at the end of the game")
        if mover == DEALER and state.chance_outcomes() is None:
            raise SearchError("evaluate() gave no value at a shuffle (not enumerable)")
        acts, _ = self.choices()
        if first is not None and first in acts and acts[0] != first:
            acts = [first, *(a for a in acts if a != first)]
        maximise = self.maximising()
        a0, b0 = alpha, beta
        best: Any = NEG_INF if maximise else POS_INF
        best_a = None
        down = self.down
        seen_here: set = set()
        for a in acts:
            x = down(a, alpha, beta, seen_here)
            if x is _SKIP:
                continue
            if maximise:
                if x > best:
                    best, best_a = x, a
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            break
            elif x < best:
                best, best_a = x, a
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break
        lo, hi = (NEG_INF, POS_INF) if entry is None else (entry[0], entry[1])
        tt[k] = (*bounds_after(best, a0, b0, lo, hi), best_a)
        return best

    def combine(self, vals: list[Any], probs: list[Fraction] | None) -> Any:
        if not vals:  # pragma: no cover - a node with no actions is terminal
            raise SearchError("no actions at a non-terminal node")
        return max(vals) if self.maximising() else min(vals)

    def pick(self, value: Any, acts: list[Action], probs: list[Fraction] | None) -> Any:
        entry = self.tt.get(self.key(self.state))
        if entry is not None and entry[2] is not None and entry[2] in acts:
            first = entry[2]
            acts = [first, *(a for a in acts if a != first)]
        return _first_with(self, value, acts)


def minimax(
    state: State,
    *,
    player: int,
    evaluate: Evaluate,
    chance: Literal["min", "max"] = "min",
    budget: Budget | None = None,
    key: KeyFn | None = None,
    order: Order | None = None,
    values: bool = False,
    tt: dict | None = None,
    bound: Bound | None = None,
) -> Value:
    """The paranoid value for ``player``: alpha-beta where ``player`` maximises and every
    other seat minimises, with a transposition table of bounds keyed by ``key(state)``,
    the table's best action tried first, then ``order(state, actions)``, and children with
    equal keys searched once.

    ``evaluate(state)`` returns a comparable value (ints, tuples; higher is better for
    ``player``) where the search stops, ``None`` to search on; it must stop at the end of
    the game and at a shuffle. A dealer node with enumerable outcomes takes the worst
    outcome for ``player`` (``chance="min"``: what ``player`` can secure) or the best
    (``"max"``). Past the ``budget`` the result has ``complete=False`` and ``value`` None.

    ``bound(state)``, if given, returns ``(lo, hi)`` with ``lo <= value <= hi`` for a
    position the search has not stopped at (e.g. points already won, and those plus every
    point still in play): a node whose window lies outside it is cut at once.
    """
    s = _Minimax(evaluate, chance, bound, state, player, budget, key, order, tt)
    return s.run(values, Value, None, _always)


def root_values(
    search: Callable[..., Any], state: State, **kwargs: Any
) -> list[tuple[Action, Any]]:
    """The exact value of every legal first action for one of the three searches:
    ``root_values(minimax, state, player=0, evaluate=f)`` (like DDS's score per card).
    Empty if the budget ran out."""
    result = search(state, values=True, **kwargs)
    return result.values if result.complete else []
