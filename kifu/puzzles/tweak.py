"""TWEAK questions: ``tweak-this-turn``, ``tweak-within N`` and ``best-points``.

Exact semantics and answer grammar: ``docs/puzzles.md``. The player is the one whose turn
is in progress (``state.mover``), also when the position is in the middle of that turn (a
Bomb's victims or the Thief's draw to come).

A TWEAK is a capture that takes every table card (at least one), ruling 5; the player's
turn ends with the first card they play (or a ``pass``). Both are read from the action just
played and the snapshot the engine keeps for ``pop`` (the position before it).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from kifu.core.errors import NotationError
from kifu.core.game import Action, State, actor_name
from kifu.core.variant import short
from kifu.games.tweak import GAME
from kifu.games.tweak.actions import Capture, Pass, Place, UseBomb, UseJoker, UseShifter, UseThief
from kifu.games.tweak.cards import FACE, POINTS
from kifu.games.tweak.state import BOMB_PHASE, STEAL_PHASE, TURN, TweakState
from kifu.puzzles.base import (
    UNLIMITED,
    ActionValue,
    Budget,
    Question,
    Solution,
    line_texts,
    solved,
    unsolved,
)
from kifu.puzzles.search import minimax, probability, prove

_SNAP_PHASE, _SNAP_MOVER, _SNAP_TABLE = (
    TweakState.SNAP_PHASE, TweakState.SNAP_MOVER, TweakState.SNAP_TABLE
)
"""Where ``TweakState``'s undo snapshot keeps the phase, the mover and the table."""

_PLAYS = (Place, Capture, Pass)


class _InTurn(Question):
    """A question about the turn in progress: asked once a player's turn has begun."""

    game = "tweak"

    def applies(self, state: State) -> str | None:
        assert isinstance(state, TweakState)
        if state.phase not in (TURN, BOMB_PHASE, STEAL_PHASE):
            return "no player's turn is in progress"
        return None


def _last_play(state: TweakState, player: int) -> tuple[bool, bool]:
    """(the last action ended ``player``'s turn, it was a TWEAK)."""
    snap = state._undo[-1]
    if snap[_SNAP_PHASE] != TURN or snap[_SNAP_MOVER] != player:
        return False, False
    a = state.history[-1]
    t = type(a)
    if t is Capture:
        return True, bool(a.taken) and len(a.taken) == len(snap[_SNAP_TABLE])
    return t is Place or t is Pass, False


def order_actions(state: State, actions: list[Action]) -> list[Action]:
    """TWEAKs first, then other captures (most cards first), then T! cards, then places."""
    table = len(state.table)  # type: ignore[attr-defined]

    def rank(a: Action) -> tuple[int, int]:
        t = type(a)
        if t is Capture:
            n = len(a.taken)  # type: ignore[attr-defined]
            return (0, -n) if n == table and n else (1, -n)
        if t in (UseJoker, UseShifter, UseThief, UseBomb):
            return (2, 0)
        return (3, 0)

    return sorted(actions, key=rank)


# --- tweak-this-turn ---------------------------------------------------------------------------


def _p_text(p: Fraction) -> str:
    return str(p)


def this_turn_text(p: Fraction, possible: bool) -> str:
    """The answer text: ``forced`` (p = 1), ``possible p=A/B`` or ``no``."""
    if p == 1:
        return "forced"
    if possible or p > 0:
        return f"possible p={_p_text(p)}"
    return "no"


_POSSIBLE = re.compile(r"possible p=([0-9]{1,100})(?:/([0-9]{1,100}))?\Z")
"""A probability: at most 100 digits a side (``int()`` refuses more than 4,300)."""


class ThisTurn(_InTurn):
    name = "tweak-this-turn"
    summary = ("can the player to move complete a TWEAK before this turn ends? "
               "forced / possible p=<probability> / no")

    def interesting(self, solution: Solution) -> bool:
        """A success that needs a T! card (a line longer than one card play)."""
        return solution.answer != "no" and len(solution.line) > 1

    def goal(self, state: TweakState) -> Any:
        """(player, goal). Past the root, at the player's own card play the outcome is
        known without trying each play: a TWEAK exists iff some hand card's face plus every
        table card's face is the target (the Joker's delta included); so the goal says
        True there if one exists, False if no T! card can still be used, and the search
        only tries the T! cards (:func:`_t_only`)."""
        player, base = state.mover, len(state.history)

        def goal(st: State) -> bool | None:
            if len(st.history) == base:
                return None
            s: TweakState = st  # type: ignore[assignment]
            if s.phase == TURN and s.mover == player and not _ended(s, player):
                if _tweak_now(s):
                    return True
                return False if s.tused or not s.held[player] else None
            ended, tweak = _last_play(s, player)
            if tweak:
                return True
            return False if ended else None

        return player, goal

    def solve(self, state: State, budget: Budget = UNLIMITED) -> Solution:
        assert isinstance(state, TweakState)
        player, goal = self.goal(state)
        if state.phase != TURN:  # the root is in the middle of the turn: search it whole
            chance, maybe, nodes, seconds = self._search(state, player, goal, budget, True)
            if not (chance.complete and maybe.complete):
                return unsolved(nodes, seconds, chance.reason or maybe.reason)
            vals = [(b, this_turn_text(p, ok)) for (b, p), (_, ok) in
                    zip(chance.values, maybe.values, strict=True)]
            line = chance.line if chance.value > 0 else maybe.line
            return _solution(state, this_turn_text(chance.value, maybe.ok), vals, line,
                             nodes, seconds)
        # At the player's card play. A card play ends the turn, so it is a TWEAK iff it is
        # a capture taking the whole table: scored directly. Only T! cards are searched.
        # The first actions are many (768 on a 12-card table), so this loop is kept tight.
        n_table = len(state.table)
        actions = state.legal_actions()
        prefix = f"{actor_name(state.to_move)} "  # type: ignore[arg-type]
        forced, no = _values(prefix, "forced"), _values(prefix, "no")
        values: list[ActionValue] = []
        append = values.append
        # (rank, action, rest of its line) of the first sweep and of every T! card, in order
        candidates: list[tuple[tuple, Action, list[Action]]] = []
        sweep: Action | None = None
        nodes, seconds = len(actions), 0.0
        n_forced = n_no = 0
        for a in actions:
            t = type(a)
            if t is Capture:
                if n_table and len(a.taken) == n_table:  # type: ignore[attr-defined]
                    av = forced.get(a) or _value(forced, prefix, a, "forced")
                    n_forced += 1
                    if sweep is None:
                        sweep = a
                        candidates.append(((1, True), a, []))
                else:
                    av = no.get(a) or _value(no, prefix, a, "no")
                    n_no += 1
            elif t is Place or t is Pass:
                av = no.get(a) or _value(no, prefix, a, "no")
                n_no += 1
            else:
                state.push(a)
                try:
                    chance, maybe, n, sec = self._search(state, player, goal, budget, False)
                finally:
                    state.pop()
                nodes += n - 1
                seconds += sec
                if not (chance.complete and maybe.complete):
                    return unsolved(nodes, seconds, chance.reason or maybe.reason)
                rank = (chance.value, maybe.ok or chance.value > 0)
                candidates.append((rank, a, chance.line if chance.value > 0 else maybe.line))
                av = ActionValue(prefix + _text(a), this_turn_text(*rank))
            append(av)
        best: tuple = max((c[0] for c in candidates), default=(0, False))
        answer = this_turn_text(Fraction(best[0]), best[1])
        line: list[Action] = []
        if answer != "no":  # the line of the first action reaching the best rank
            _, a, rest = next(c for c in candidates if c[0] == best)
            line = [a, *rest]
        # how many first actions reach the answer: sweeps are "forced", other card plays
        # "no", and the searched T! cards are counted one by one
        winning = sum(1 for r, a, _ in candidates if type(a) is not Capture
                      and this_turn_text(*r) == answer)
        winning += n_forced if answer == "forced" else n_no if answer == "no" else 0
        return Solution(answer, values, line_texts(GAME, state, line), nodes, seconds, True,
                        winning)

    def _search(self, state: TweakState, player: int, goal: Any, budget: Budget,
                values: bool) -> tuple[Any, Any, int, float]:
        """The exact probability and the "possible" proof from ``state`` (T! cards only at
        the player's card play)."""
        order = _t_only(player)
        chance = probability(state, player=player, goal=goal, budget=budget, order=order,
                             values=values)
        maybe = prove(state, player=player, goal=goal, chance="any", others="with",
                      budget=budget, order=order, values=values)
        return (chance, maybe, chance.nodes + maybe.nodes,
                chance.seconds + maybe.seconds)

    def parse_answer(self, text: str) -> str:
        t, m = self.read_answer(text, "forced, possible p=<fraction> (e.g. possible p=3/4) "
                                "or no", ("forced", "no"), _POSSIBLE)
        if m is None:
            return t
        num, den = int(m.group(1)), int(m.group(2) or 1)
        if den == 0 or num >= den:
            raise NotationError(
                f"bad answer {short(text)}: a possible TWEAK has 0 <= p < 1 (p = 1 is forced)",
                line=1, col=len("possible p=") + 1,
            )
        return this_turn_text(Fraction(num, den), True)


def _ended(s: TweakState, player: int) -> bool:
    """Whether the last action ended ``player``'s turn (a new turn of theirs starts)."""
    return bool(s.history) and _last_play(s, player)[0]


def _tweak_now(s: TweakState) -> bool:
    """Whether the player to play a card can sweep the table with one hand card now."""
    table = s.table
    if not table:
        return False
    need = s.target + s.jdelta - sum([FACE[c] for c in table])
    return any(FACE[c] == need for c in s.hands[s.mover])


def _t_only(player: int) -> Any:
    """The move filter of ``tweak-this-turn``: at the player's card play (the goal has
    found no TWEAK there) only the T! cards can still lead to one; elsewhere every action."""
    kinds = (UseJoker, UseShifter, UseThief, UseBomb)

    def order(state: State, actions: list[Action]) -> list[Action]:
        s: TweakState = state  # type: ignore[assignment]
        if s.phase == TURN and s.mover == player:
            return [a for a in actions if type(a) in kinds]
        return actions

    return order


# --- tweak-within N ------------------------------------------------------------------------------


def within_text(turns: int | None) -> str:
    return "no" if turns is None else f"yes turns={turns}"


_YES = re.compile(r"yes turns=([1-9][0-9]{0,5})\Z")


class Within(_InTurn):
    name = "tweak-within"
    arg = "N"
    arg_range = (1, 9)
    summary = ("can the player to move force a TWEAK within their next N turns (this one "
               "included), every card known, the others against it? yes turns=<fewest> / no")

    def interesting(self, solution: Solution) -> bool:
        """A TWEAK that takes all N turns to force."""
        return solution.answer == within_text(self.value)

    def searcher(self, state: TweakState, n: int) -> tuple[int, Any, Any]:
        """(player, goal, key) for "a TWEAK within ``n`` of the player's turns". The goal
        counts the player's finished turns along the current path (``counts[d]`` at depth
        ``d``); the key adds that count to the position."""
        player, base = state.mover, len(state.history)
        counts = [0]

        def goal(st: State) -> bool | None:
            d = len(st.history) - base
            if d == 0:
                counts[:] = [0]
                return None
            del counts[d:]
            c = counts[d - 1]
            ended, tweak = _last_play(st, player)  # type: ignore[arg-type]
            if tweak:
                counts.append(c + 1)
                return True
            if ended:
                c += 1
            counts.append(c)
            if c >= n or st.phase not in (TURN, BOMB_PHASE, STEAL_PHASE):  # type: ignore[attr-defined]
                return False
            return None

        def key(st: State) -> Any:
            return (st.key(), counts[len(st.history) - base])

        return player, goal, key

    def solve(self, state: State, budget: Budget = UNLIMITED) -> Solution:
        assert isinstance(state, TweakState)
        nodes, seconds = 0, 0.0
        best: int | None = None
        first: list[tuple[Action, int | None]] | None = None
        line: list[Action] = []
        for k in range(1, self.value + 1):  # type: ignore[operator]
            player, goal, key = self.searcher(state, k)
            proof = prove(state, player=player, goal=goal, key=key, budget=budget,
                          order=order_actions, values=True)
            nodes += proof.nodes
            seconds += proof.seconds
            if not proof.complete:
                return unsolved(nodes, seconds, proof.reason)
            if first is None:
                first = [(a, None) for a, _ in proof.values]
            first = [(a, t if t is not None or not ok else k)
                     for (a, t), (_, ok) in zip(first, proof.values, strict=True)]
            if proof.ok and best is None:
                best, line = k, proof.line
        vals = [(a, within_text(t)) for a, t in first or []]
        return _solution(state, within_text(best), vals, line, nodes, seconds)

    def parse_answer(self, text: str) -> str:
        t, m = self.read_answer(text, "yes turns=<k> or no", ("no",), _YES)
        if m is None:
            return t
        k = int(m.group(1))
        if k > (self.value or 0):
            raise NotationError(f"bad answer {short(text)}: turns={k} is more than "
                                f"N={self.value}", line=1, col=len("yes turns=") + 1)
        return t


# --- best-points ---------------------------------------------------------------------------------


def points_text(points: int) -> str:
    return f"points={points}"


_POINTS = re.compile(r"points=(0|[1-9][0-9]{0,8})\Z")


class BestPoints(_InTurn):
    name = "best-points"
    summary = ("once the deck is empty: the most points the player to move can secure this "
               "round against any play of the others. points=<n>")

    def applies(self, state: State) -> str | None:
        why = super().applies(state)
        if why is not None:
            return why
        left = len(state.deck_left())  # type: ignore[attr-defined]
        if left:
            return f"the deck is not empty ({left} card{'s' if left > 1 else ''})"
        return None

    def solve(self, state: State, budget: Budget = UNLIMITED) -> Solution:
        assert isinstance(state, TweakState)
        player = state.mover
        start = state.totals[player]
        rnd = state.round

        def evaluate(st: State) -> int | None:
            if st.phase in (TURN, BOMB_PHASE, STEAL_PHASE) and st.round == rnd:  # type: ignore[attr-defined]
                return None
            return st.totals[player] - start  # type: ignore[attr-defined]

        def bound(st: State) -> tuple[int, int]:
            # points only grow: what the player has won so far, and that plus every point
            # still in play (hands, table, the T! pile's cards won by TWEAKs) this round
            s: TweakState = st  # type: ignore[assignment]
            lo = s.round_points(player)
            left = sum([POINTS[c] for h in s.hands for c in h]) + sum([POINTS[c] for c in s.table])
            return lo, lo + left + 2 * len(s.tpile)

        result = minimax(state, player=player, evaluate=evaluate, budget=budget,
                         order=_points_order, values=True, bound=bound)
        if not result.complete:
            return unsolved(result.nodes, result.seconds, result.reason)
        vals = [(a, points_text(v)) for a, v in result.values]
        return _solution(state, points_text(result.value), vals, result.line, result.nodes,
                         result.seconds)

    def parse_answer(self, text: str) -> str:
        return self.read_answer(text, "points=<n>", form=_POINTS)[0]


def _points_order(state: State, actions: list[Action]) -> list[Action]:
    """Captures worth the most points first, then T! cards, then places."""

    def rank(a: Action) -> int:
        t = type(a)
        if t is Capture:
            return -(POINTS[a.card] + sum(POINTS[c] for c in a.taken)) - 10  # type: ignore[attr-defined]
        if t is Place:
            return 0
        return -1

    return sorted(actions, key=rank)


# --- shared ---------------------------------------------------------------------------


_TEXTS: dict[Action, str] = {}
"""Action texts already written (actions are shared, frozen instances); bounded."""


def _text(a: Action) -> str:
    text = _TEXTS.get(a)
    if text is None:
        if len(_TEXTS) > 100_000:
            _TEXTS.clear()
        text = _TEXTS[a] = GAME.format_action(None, a)  # type: ignore[arg-type]
    return text


_VALUES: dict[tuple[str, str], dict[Action, ActionValue]] = {}
"""Shared :class:`ActionValue` instances per (actor prefix, value text), by action: a
12-card table has hundreds of first actions, each scored the same way each time."""


def _values(prefix: str, value: str) -> dict[Action, ActionValue]:
    found = _VALUES.get((prefix, value))
    if found is None:
        found = _VALUES[(prefix, value)] = {}
    return found


def _value(cache: dict[Action, ActionValue], prefix: str, a: Action, value: str) -> ActionValue:
    if len(cache) > 100_000:
        cache.clear()
    av = cache[a] = ActionValue(prefix + _text(a), value)
    return av


def _solution(state: State, answer: str, vals: list[tuple[Action, str]], line: list[Action],
              nodes: int, seconds: float) -> Solution:
    return solved(GAME, state, answer, vals, line, nodes, seconds, _text)
