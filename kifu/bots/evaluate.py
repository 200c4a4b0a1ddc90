"""The evaluator: a seat's expected pairwise share of a position, from that seat's
information, for every game (one game-independent module over the Game contract).

**The unit.** The *pairwise share* of a seat at the end of a game is
:func:`kifu.bots.profiles.pairwise`: over the other seats, 1 for each ranked below it, 1/2
for each sharing its rank, 0 for each above (1 = ahead of everyone, 0.5 = even). It is the
unit ``kifu match`` reports, the same in every game. :func:`evaluate` estimates its
expectation for one seat: the value of the position, and when the seat is to move, the
value of each of its actions.

**How.** Perfect-Information Monte Carlo (GIB's way): ``worlds`` full positions are drawn
from what the seat knows (``game.world_sampler(state, seat)``: its view plus what the
history showed it); every candidate action is valued in each world as if every card were
face up, by the best perfect-information evaluation the level's budget allows, in this
order:

1. the **generic exact solver** (:func:`solve_world`): expecti-max^n over the Game contract
   (every seat maximises its own share, chance nodes averaged over their enumerable
   outcomes, a tie between actions going to the first in legal order), within the level's
   node budget; it reaches the ends of games and small endgames;
2. the game's **exact solver**, where its profile has one that answers quickly (GRAPH-T's
   double-dummy searcher late in the hand: exact for two players; with more it is the
   paranoid value, the player against a coalition, a lower bound);
3. one **rollout** per action with the profile's policy (``kifu/bots/profiles.py``) to the
   end of the game (or its horizon, then the profile's leaf evaluation, a soft share of the
   score margins), every action of one world from the same seed (*common random
   numbers*: the difference between two actions is theirs, not the dice's).

A world is one sample: an action's ``value`` is its mean over the worlds, ``stderr`` the
standard error of that mean, ``diff_stderr`` the standard error of the paired difference
from the best action over the same worlds (small, thanks to the common random numbers).

**Deterministic**: the same (state, seat, level, seed) give the same evaluation on any
machine; budgets are counts (worlds, solver nodes), never the clock.

**All-seeing**: ``omniscient=True`` values the true position in every sample instead of
sampled worlds (the *cheater* of the PIMC literature, the upper bound a fair evaluation is
measured against); its result says ``omniscient=True`` and anything shown from it must be
labelled all-seeing.

**Exact**: an evaluation is ``exact`` when the seat knows the whole position (it is
all-seeing, its view is the position line, or its sampler can draw only one world: see
:data:`ONE_WORLD_DRAWS`) and the position was solved exactly (the generic solver, or a
profile solver exact for the number of players); then one world is used and the standard
errors are 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from kifu.bots.profiles import Profile, pairwise, profile, soft_margin, tiebreak_keys
from kifu.bots.search import fair_choice, knows_all
from kifu.core.game import DEALER, Action, Bot, Game, State
from kifu.core.rng import MASK64, Rng


class Level(msgspec.Struct, frozen=True, kw_only=True):
    """A budget: how many worlds, how far the exact solver may search, how many candidate
    actions are valued. A game's profile may scale the worlds (``Profile.levels``)."""

    name: str
    worlds: int
    """Worlds (samples) per evaluation."""
    exact_nodes: int
    """Node budget of the generic exact solver per evaluation (0: never tried), shared
    equally by the worlds (all of it for a position the seat knows whole). Every position
    visited counts, ends of the game included."""
    actions: int
    """Candidate actions valued (where the game ranks them; every legal one otherwise)."""
    refine: int = 0
    """The ``expert`` bot's second stage: this many more worlds for its best third of the
    actions and the default choice (the evaluator itself uses ``worlds`` alone)."""
    cost: str
    """What a call costs (the median over five games' positions, 2026-11-28 at load 27-30;
    docs/bots.md has the figures per game)."""


LEVELS: dict[str, Level] = {
    "fast": Level(name="fast", worlds=8, exact_nodes=400, actions=4, refine=8,
                  cost="8 worlds x one rollout per candidate; median 8-14 ms CPU a call"),
    "normal": Level(name="normal", worlds=24, exact_nodes=2000, actions=6, refine=48,
                    cost="24 worlds x one rollout per candidate; median 22-54 ms CPU a call "
                    "(a game may scale it: TOWAI plays 72 worlds, GRAPH-T and TWEAK the deep "
                    "budget; Profile.levels, docs/bots.md)"),
    "deep": Level(name="deep", worlds=96, exact_nodes=30000, actions=12, refine=192,
                  cost="96 worlds x one rollout per candidate; median 84-403 ms CPU a call"),
}
"""The levels by name; ``normal`` is the default."""


class ActionValue(msgspec.Struct, frozen=True):
    """One action of the seat to move, valued."""

    action: Action
    value: float
    """The seat's expected pairwise share after playing ``action``, from its information."""
    stderr: float
    """Standard error of ``value``."""
    diff_stderr: float
    """Standard error of (best value - value), paired over the same worlds; 0 for the best."""


class Evaluation(msgspec.Struct, frozen=True):
    """A seat's expected pairwise share of a position (see the module docstring)."""

    seat: int
    value: float
    """The seat's expected pairwise share (if it is to move: the value of its best action)."""
    stderr: float
    actions: tuple[ActionValue, ...]
    """Best first (ties: the game's default choice, then legal order); () when ``seat`` is
    not to move."""
    worlds: int
    """Worlds (samples) used."""
    exact: bool
    """The value is exact (a position the seat knows whole, solved exactly)."""
    omniscient: bool
    """Valued from the true position: all-seeing, not a fair judgement of the seat."""
    level: str


class OutOfNodes(Exception):
    """The generic exact solver ran past its node budget."""


# --- the generic exact solver ----------------------------------------------------------------

def shares(state: State, game_id: str | None = None) -> list[float]:
    """Every seat's pairwise share at the end of the game (``state`` must be over), with
    the tie-breaks of game ``game_id`` (:func:`kifu.bots.profiles.tiebreak_keys`)."""
    result = state.result()
    assert result is not None, "shares() of a game that is not over"
    keys = tiebreak_keys(game_id, state) if game_id is not None else None
    return [pairwise(result, s, keys) for s in range(state.n)]


MAX_DEPTH = 200
"""The generic exact solver gives up on a line deeper than this (a long game is never
small enough to solve; Python's recursion limit is not reached)."""


class _Solver:
    """Expecti-max^n over the Game contract with a node budget and a table by ``key()``
    (a position met again on its own line, a cycle of passes, gives up: no value)."""

    def __init__(self, nodes: int, game_id: str | None = None):
        self.game_id = game_id
        self.left = nodes
        self.table: dict[Any, tuple[float, ...]] = {}
        self.open: set[Any] = set()
        self.ends: dict[Any, tuple[float, ...]] = {}
        """Every seat's share by (ranks, tie-break keys) of the ends met: :func:`shares`
        reads nothing else of the end, and a search meets the same ranks again and
        again (issue 33, ninth session: the same values, one ``pairwise`` a seat less)."""

    def value(self, state: State) -> tuple[float, ...]:
        self.left -= 1
        if self.left < 0:
            raise OutOfNodes
        mover = state.to_move
        if mover is None:
            result = state.result()
            assert result is not None
            game_id = self.game_id
            keys = tiebreak_keys(game_id, state) if game_id is not None else None
            end = (result.ranks, keys)
            got = self.ends.get(end)
            if got is None:
                got = self.ends[end] = tuple([pairwise(result, s, keys)
                                              for s in range(state.n)])
            return got
        key = state.key()
        hit = self.table.get(key)
        if hit is not None:
            return hit
        if len(self.open) >= MAX_DEPTH or key in self.open:
            raise OutOfNodes
        self.open.add(key)
        try:
            out = self._expand(state, mover)
        finally:
            self.open.discard(key)
        self.table[key] = out
        return out

    def _expand(self, state: State, mover: int) -> tuple[float, ...]:
        push, pop = state.push, state.pop
        if mover == DEALER:
            outcomes = state.chance_outcomes()
            if not outcomes:
                raise OutOfNodes  # a shuffle: not enumerable, not solvable here
            acc = [0.0] * state.n
            for a, p in outcomes:
                push(a)
                v = self.value(state)
                pop()
                pf = float(p)
                for i in range(state.n):
                    acc[i] += pf * v[i]
            out = tuple(acc)
        else:
            best: tuple[float, ...] | None = None
            for a in state.legal_actions():
                push(a)
                v = self.value(state)
                pop()
                if best is None or v[mover] > best[mover]:
                    best = v
            assert best is not None
            out = best
        return out


def solve_world(world: State, seat: int, actions: Sequence[Action], nodes: int,
                game_id: str | None = None) -> list[float] | None:
    """The exact expected share of ``seat`` after each of ``actions`` in ``world`` (every
    card known), by expecti-max^n (each seat maximises its own share; chance averaged;
    ties to the first action in legal order), or ``None`` past ``nodes`` nodes or at a
    chance node whose outcomes are not enumerable (a shuffle)."""
    if nodes <= 0:
        return None
    solver = _Solver(nodes, game_id)
    st = world.copy()
    out = []
    try:
        for a in actions:
            st.push(a)
            out.append(solver.value(st)[seat])
            st.pop()
    except OutOfNodes:
        return None
    return out


def tree_size(state: State, rng: Rng, cap: int) -> int:
    """Knuth's estimate of the number of positions below ``state`` (one random path, the
    product of the branching factors met, summed level by level), or ``cap + 1`` once it
    passes ``cap`` or meets a chance node that cannot be enumerated: a cheap look before the
    exact solver is tried (a large tree is seen after a few steps)."""
    st = state.copy()
    total, width = 1, 1
    while st.to_move is not None:
        if st.to_move == DEALER:
            outs = st.chance_outcomes()
            if not outs:
                return cap + 1
            acts = [a for a, _ in outs]
        else:
            acts = st.legal_actions()
        width *= len(acts)
        total += width
        if total > cap:
            return cap + 1
        st.push(acts[rng.below(len(acts))])
    return total


def solve_position(world: State, seat: int, nodes: int, game_id: str | None = None
                   ) -> float | None:
    """The exact expected share of ``seat`` in ``world`` (as :func:`solve_world`)."""
    if nodes <= 0:
        return None
    try:
        return _Solver(nodes, game_id).value(world.copy())[seat]
    except OutOfNodes:
        return None


# --- rollouts ----------------------------------------------------------------------------

class _Rollout:
    """Plays a world on with the profile's policy from a 64-bit seed and returns the
    seat's share at the end (or the profile's leaf estimate at its horizon)."""

    def __init__(self, game: Game, prof: Profile, n: int, policy: str | None = None,
                 others: str | None = None):
        self.game = game
        self.profile = prof
        self.rng = Rng(0)
        cls = policy_class(game, prof, policy or prof.rollout)
        self.policy: list[Bot] = [cls(s, self.rng) for s in range(n)]
        self.others: list[Bot] | None = None
        if others is not None:  # the other seats' policy, where it differs
            ocls = policy_class(game, prof, others)
            self.others = [ocls(s, self.rng) for s in range(n)]

    def run(self, state: State, seed: int, seat: int, margin: float = 0.0) -> float:
        """The seat's share at the end of the rollout; with ``margin`` > 0, mixed with the
        soft share of the score margins (weight ``margin``), which separates actions that
        lead to the same ranks (a bot's objective; the evaluator's value has 0)."""
        self.rng.state = seed & MASK64
        horizon = self.profile.horizon
        chance = self.game.chance_action
        policy = self.policy
        if self.others is not None:
            policy = [p if s == seat else q
                      for s, (p, q) in enumerate(zip(policy, self.others, strict=True))]
        rng = self.rng
        decisions = 0
        while True:
            mover = state.to_move
            if mover is None:
                share = pairwise(state.result(), seat,  # type: ignore[arg-type]
                                 tiebreak_keys(self.game.id, state))
                if margin:
                    return (1 - margin) * share + margin * leaf_share(state, self.profile,
                                                                      seat)
                return share
            if mover == DEALER:
                state.push(chance(state, rng))
                continue
            if horizon is not None and decisions >= horizon:
                return leaf_share(state, self.profile, seat)
            state.push(policy[mover].choose(state))
            decisions += 1


def policy_class(game: Game, prof: Profile, name: str) -> type[Bot]:
    """The rollout policy ``name``: one of the profile's own policies
    (``Profile.policies``), else the game's bot of that name; the profile's own
    ``rollout`` falls back to ``random`` where the game has no such bot, any other name
    raises ``ValueError``."""
    extra = prof.policies() if prof.policies is not None else {}
    cls = extra.get(name) or game.bots.get(name)
    if cls is None:
        if name != prof.rollout:
            raise ValueError(f"{game.id} has no rollout policy {name!r}")
        cls = game.bots["random"]
    return cls


def leaf_share(state: State, prof: Profile, seat: int) -> float:
    """The profile's estimate of ``seat``'s share where a rollout stops before the end: the
    mean over the other seats of ``(1 + tanh(score difference / scale)) / 2``."""
    # the seat's term alone, memoised by the scores (issue 33, tenth session)
    scores = tuple(prof.scores(state))
    key = (scores, prof.scale, seat)
    got = _LEAF.get(key)
    if got is None:
        if len(_LEAF) >= _LEAF_MAX:
            _LEAF.clear()
        got = _LEAF[key] = soft_margin(scores, prof.scale, seat)
    return got


_LEAF: dict[tuple, float] = {}
""":func:`leaf_share`'s memo: (scores, scale, seat) -> the seat's soft share."""
_LEAF_MAX = 1 << 16


# --- the evaluator ----------------------------------------------------------------------

def default_action(game: Game, state: State, seat: int, *, fair: bool = True) -> Action:
    """The game's default choice for the seat to move: its ``greedy`` bot's (the random
    bot's where it has none), from a fixed stream (it does not consume the caller's).
    A bot that peeks (``Bot.peeks``: TWEAK's ``greedy``) is asked in worlds drawn from the
    seat's information (:func:`kifu.bots.search.fair_choice`); ``fair=False``: asked of
    the true position (for all-seeing values)."""
    cls = game.bots.get("greedy") or game.bots["random"]
    if not fair:
        return cls(seat, Rng(0)).choose(state)
    return fair_choice(game, cls, state, seat)


def candidates(game: Game, state: State, prof: Profile, limit: int, *,
               fair: bool = True) -> list[Action]:
    """The actions valued: the profile's candidates (or every legal action), the game's
    default choice first (:func:`default_action`; ``fair=False`` for all-seeing values),
    the rest in legal order."""
    legal = state.legal_actions()
    if prof.candidates is not None and len(legal) > 1:
        legal = prof.candidates(state, legal, limit)
    if len(legal) <= 1:
        return legal
    pick = default_action(game, state, state.to_move, fair=fair)  # type: ignore[arg-type]
    if pick in legal:
        return [pick] + [a for a in legal if a != pick]
    return legal


def mean_se(xs: Sequence[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its standard error (0 for a single value).

    >>> mean_se([1.0, 0.0, 1.0, 0.0])
    (0.5, 0.28867513459481287)
    """
    k = len(xs)
    m = sum(xs) / k
    if k < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (k - 1)
    return m, math.sqrt(var / k)


def level_of(game: Game, level: str) -> Level:
    """The level ``level`` for ``game`` (its profile may scale the worlds); raises
    ``ValueError`` for an unknown level."""
    base = LEVELS.get(level)
    if base is None:
        raise ValueError(f"unknown level {level!r} (known: {', '.join(LEVELS)})")
    over = (profile(game.id).levels or {}).get(level)
    return msgspec.structs.replace(base, **over) if over else base


ONE_WORLD_DRAWS = 16
"""A seat whose sampler draws the same world this many times in a row is taken to know the
position (one possible world; e.g. GRAPH-T with two players, where every card is dealt):
were there a second world drawn with probability 1/2 or more, that would happen with
probability below 2**-15. Levels with fewer worlds never conclude so."""


def sample_rows(game: Game, state: State, seat: int, actions: Sequence[Action], lvl: Level,
                rng: Rng, omniscient: bool, margin: float = 0.0, *, hands: bool = False,
                worlds: Callable[[Rng], State] | None = None, policy: str | None = None,
                others: str | None = None) -> tuple[list[list[float]], bool]:
    """Per world, the share of each of ``actions`` (or of the position itself when
    ``actions`` is empty), and whether every value is exact with one world. The engine of
    :func:`evaluate`, exposed for the bots that build on it.

    ``hands=True`` (with ``omniscient``; a diagnostic, all-seeing): every world is the true
    position with the deck's order drawn again (the profile's ``reshuffle``), so every hand
    is known but not the order of the cards to come; a game without ``reshuffle`` gets the
    true position.

    ``worlds`` (not with ``omniscient``): draws the worlds instead of the seat's sampler
    (e.g. :func:`kifu.bots.inference.inferred_draw`'s resampled worlds); the check for a
    one-world seat is then not made.

    ``policy``: the rollout policy by name (:func:`policy_class`) instead of the
    profile's ``rollout``; ``others``: the other seats' policy in the rollouts, where it
    differs from the seat's own."""
    prof = profile(game.id)
    reshuffle = prof.reshuffle if hands and omniscient else None
    one_world = (omniscient and reshuffle is None) or knows_all(state, seat)
    pool: list[State] = []
    if worlds is not None and not one_world and reshuffle is None:
        draw = worlds
    elif reshuffle is not None:
        def draw(r: Rng) -> State:
            return reshuffle(game, state, r)
    elif one_world:
        def draw(_r: Rng) -> State:
            return state.copy()
    else:
        draw = game.world_sampler(state, seat)
        pool = [draw(rng) for _ in range(min(ONE_WORLD_DRAWS, lvl.worlds))]
        if len(pool) == ONE_WORLD_DRAWS and len({w.key() for w in pool}) == 1:
            one_world = True
    rollout = _Rollout(game, prof, state.n, policy, others)
    per_world = lvl.exact_nodes if one_world else lvl.exact_nodes // lvl.worlds
    exact_ok = per_world > 0
    if exact_ok:  # judged on the first world: the others are about as large
        first = pool[0] if pool else draw(rng)
        pool = pool or [first]
        exact_ok = tree_size(first, rng, per_world) <= per_world
    rows: list[list[float]] = []
    for w in range(lvl.worlds):
        world = pool[w] if w < len(pool) else draw(rng)
        seed = rng.next64()
        values: list[float] | None = None
        exact_here = False
        if exact_ok:
            if actions:
                values = solve_world(world, seat, actions, per_world, game.id)
            else:
                v = solve_position(world, seat, per_world, game.id)
                values = None if v is None else [v]
            if values is None:
                exact_ok = False  # the first world decides: the others are as large
            else:
                exact_here = True
        if values is None and prof.exact is not None and actions:
            got = prof.exact(world, seat, actions)
            if got is not None:
                values, exact_here = got
        if values is None:
            values = []
            for a in actions or [None]:
                w_ = world.copy()
                if a is not None:
                    w_.push(a)
                values.append(rollout.run(w_, seed, seat, margin))
        rows.append(values)
        if one_world and exact_here and w == 0:
            return rows, True
    return rows, False


def evaluate(game: Game, state: State, seat: int, *, level: str = "normal", seed: int = 0,
             omniscient: bool = False) -> Evaluation:
    """``seat``'s expected pairwise share of ``state`` from its information (module
    docstring). ``state.history`` from the start of the game lets the sampler use what the
    history showed the seat. ``omniscient=True``: valued from the true position
    (all-seeing)."""
    lvl = level_of(game, level)
    if state.to_move is None:
        v = shares(state, game.id)[seat]
        return Evaluation(seat, v, 0.0, (), 1, True, omniscient, lvl.name)
    to_move = state.to_move == seat
    acts = (candidates(game, state, profile(game.id), lvl.actions, fair=not omniscient)
            if to_move else [])
    rows, exact = sample_rows(game, state, seat, acts, lvl, Rng(seed), omniscient)
    k = len(rows)
    if not to_move:
        m, se = mean_se([r[0] for r in rows])
        return Evaluation(seat, m, se, (), k, exact, omniscient, lvl.name)
    stats = [mean_se([r[i] for r in rows]) for i in range(len(acts))]
    best = 0
    for i, (m, _) in enumerate(stats):
        if m > stats[best][0]:
            best = i
    order = [best] + [i for i in range(len(acts)) if i != best]
    order[1:] = sorted(order[1:], key=lambda i: -stats[i][0])  # stable: ties keep order
    out = []
    for i in order:
        d = 0.0 if i == best else mean_se([r[best] - r[i] for r in rows])[1]
        out.append(ActionValue(acts[i], stats[i][0], stats[i][1], d))
    return Evaluation(seat, out[0].value, out[0].stderr, tuple(out), k, exact, omniscient,
                      lvl.name)


__all__ = ["LEVELS", "ActionValue", "Evaluation", "Level", "candidates", "default_action",
           "evaluate", "leaf_share", "level_of", "mean_se", "sample_rows", "shares",
           "solve_position", "solve_world"]
