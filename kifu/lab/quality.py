"""Is it still a good game? The game-quality measures of ``kifu simulate`` (the kind Ludii's
and Browne's metrics report for every game), the turn order of a game, and how often the
seats use each kind of action.

Everything here is read from a finished (or cut) game's history by replaying it on a fresh
state: for every game, the same code, over the Game contract and one fact a game supplies
here, its *standing* (the running score each seat would be ranked by if the game ended
now: TWEAK's totals, GRAPH-T's tallest stack, TOWAI's rounds won, Lianxian's track
positions, Alice's story points).

Per game (one line each in :data:`QUALITY`):

- ``lead_changes``: how often the sole leader by standing became another seat;
- ``comeback``: 1 when no seat leading at two-thirds of the game (its plies) places first;
- ``close``: 1 when the final margin (first minus second score) is at most the game's
  :data:`CLOSE` amount;
- ``decisiveness``: the share of the game played before the eventual winner leads (shared
  or alone) from there to the end; 0 = led from the start, 1 = settled only at the end.
  By the score leader by default; with ``--decisiveness fast`` (or ``normal``, ``deep``)
  by the evaluator of ``kifu.bots.evaluate`` instead (:func:`settled_by_evaluator`): at
  each tenth of the game, the eventual winner's expected pairwise share from its own
  information; the game is settled from the first tenth after which that share stays at
  least :data:`SETTLED`;
- ``decisions``: actions chosen by a seat (not the dealer);
- ``branching``: the mean number of legal actions at a seat's decision;
- ``forced``: decisions with a single legal action.

The turn order (:func:`turn_order`) is the order in which the seats first move (the
first player is drawn at random in TOWAI and Lianxian, ``d first p2``); a seat that never
moved is put after the others in seat order.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable

from kifu import games
from kifu.core.game import DEALER, Action, State

QUALITY: dict[str, str] = {
    "lead_changes": "how often the sole leader (by the running score) became another seat",
    "comeback": "1 when no seat leading at two-thirds of the game places first",
    "close": "1 when the final margin is at most the game's close amount",
    "decisiveness": "share of the game played before the winner leads for good (0 = from "
                    "the start, 1 = only at the end)",
    "decisions": "actions chosen by a seat (not the dealer)",
    "branching": "mean legal actions at a seat's decision",
    "forced": "decisions with a single legal action",
}
"""The quality measures, in report order, with their meanings."""
QUALITY_RATES = frozenset({"comeback", "close"})
"""The measures that are 0 or 1 a game (their mean is a share)."""

CLOSE: dict[str, int] = {
    "tweak": 5,  # points; a round's tweaks are worth 10 and more, the mean margin ~22
    "graph-t": 60,  # 1/60 card: within one card's height
    "towai": 1,  # rounds won
    "lianxian": 2,  # track spaces
    "alice": 1,  # story points
}
"""The largest final margin counted as a close finish, in each game's score unit."""

SETTLED = 0.8
"""The evaluator's expected pairwise share above which the eventual winner counts as
settled (0.8: expected ahead of four in five of the others)."""
CHECKPOINTS = 10
"""The evaluator looks at the game after each tenth of its plies."""

USUAL_PLAYERS: dict[str, int] = {"tweak": 3, "graph-t": 3, "towai": 4, "lianxian": 3,
                                 "alice": 4}
"""The player count a game's simulations use when ``-n`` is not given (the count of
docs/designers.md's worked examples)."""


def _tallest(state: State) -> tuple[int, ...]:
    return tuple(max(h) if h else 0 for h in state.heights)  # type: ignore[attr-defined]


_STANDING: dict[str, Callable[[State], tuple[int, ...]]] = {
    "tweak": lambda s: s.totals,  # type: ignore[attr-defined]
    "graph-t": _tallest,
    "towai": lambda s: s.wins,  # type: ignore[attr-defined]
    "lianxian": lambda s: s.scores,  # type: ignore[attr-defined]
    "alice": lambda s: s.sp,  # type: ignore[attr-defined]
}


def standing(game_id: str, state: State) -> tuple[int, ...]:
    """Each seat's running score in ``state`` (what it would be ranked by now)."""
    return tuple(_STANDING[game_id](state))


@functools.cache
def action_kinds(game_id: str) -> tuple[str, ...]:
    """The kinds of action of a game (its action classes, lower case, in source order)."""
    base = games.metrics_of(game_id).__name__.rpartition(".")[0]
    module = importlib.import_module(base + ".actions")
    out = []
    for name, value in vars(module).items():
        if isinstance(value, type) and issubclass(value, Action) and value is not Action \
                and value.__module__ == module.__name__:
            out.append(name.lower())
    return tuple(out)


def turn_order(n: int, movers: list[int]) -> tuple[int, ...]:
    """The seats in the order they first moved (``movers``: seats in order of their first
    move), the others after them in seat order from the first player."""
    order = list(dict.fromkeys(movers))
    start = order[0] if order else 0
    order += [(start + k) % n for k in range(n) if (start + k) % n not in order]
    return tuple(order)


def _leaders(scores: tuple[int, ...]) -> int:
    """The seats sharing the top score, as a bit mask."""
    top = max(scores)
    mask = 0
    for s, v in enumerate(scores):
        if v == top:
            mask |= 1 << s
    return mask


def settled_by_evaluator(game_id: str, state: State, winners: int, level: str,
                         seed: int = 0) -> float:
    """When the evaluator saw the winner coming: the share of the game (a multiple of
    1/:data:`CHECKPOINTS`) from which, at every later checkpoint, some eventual winner
    (``winners``: a seat mask) has an expected pairwise share of at least :data:`SETTLED`
    from its own information (``kifu.bots.evaluate.evaluate`` at ``level``, seeded by
    ``seed`` and the checkpoint); 1.0 when it is not settled before the end. A checkpoint
    where the dealer is to act looks at the next seat's turn."""
    from kifu.bots.evaluate import evaluate

    game = games.get(game_id)
    plies = len(state.history)
    replay = type(state)(state.n, state.variant)  # type: ignore[call-arg]
    seats = [s for s in range(state.n) if winners >> s & 1]
    done = 0
    values: list[float] = []
    for k in range(1, CHECKPOINTS):
        target = plies * k // CHECKPOINTS
        while done < target or (replay.to_move == DEALER and done < plies):
            replay.push(state.history[done])
            done += 1
        if replay.to_move is None:
            values.append(1.0)
            continue
        values.append(max(evaluate(game, replay, s, level=level, seed=seed * 16 + k).value
                          for s in seats))
    for k in range(len(values), 0, -1):  # the last checkpoint where it was not settled
        if values[k - 1] < SETTLED:
            return (k + 1) / CHECKPOINTS
    return 1 / CHECKPOINTS


def measure(game_id: str, state: State, evaluator: str | None = None, seed: int = 0,
            ) -> tuple[tuple[int, ...], tuple[float | None, ...], tuple[int, ...]]:
    """The turn order, the :data:`QUALITY` values (in order; ``None`` where undefined: a
    game without a result) and the count of each :func:`action_kinds` by the seats, for
    the game played in ``state`` (its history replayed on a fresh state). With
    ``evaluator`` (a level of ``kifu.bots.evaluate``), decisiveness is the evaluator's
    (:func:`settled_by_evaluator`, seeded by ``seed``)."""
    kinds = action_kinds(game_id)
    index = {k: i for i, k in enumerate(kinds)}
    counts = [0] * len(kinds)
    replay = type(state)(state.n, state.variant)  # type: ignore[call-arg]
    stand = _STANDING[game_id]
    movers: list[int] = []
    seen = 0
    decisions = choices = forced = 0
    leaders = bytearray()  # the leaders after each ply, as seat masks (at most 8 seats)
    lead_changes = 0
    sole = -1
    for action in state.history:
        seat = replay.to_move
        if seat is not None and seat != DEALER:
            if not seen >> seat & 1:
                seen |= 1 << seat
                movers.append(seat)
            c = replay.count_legal()
            decisions += 1
            choices += c
            forced += c == 1
            k = index.get(type(action).__name__.lower())
            if k is not None:
                counts[k] += 1
        replay.push(action)
        mask = _leaders(tuple(stand(replay)))
        leaders.append(mask)
        if mask & (mask - 1) == 0:  # one leader
            s = mask.bit_length() - 1
            if sole >= 0 and s != sole:
                lead_changes += 1
            sole = s
    order = turn_order(state.n, movers)
    result = state.result()
    plies = len(state.history)
    branching = choices / decisions if decisions else None
    if result is None or plies == 0:
        quality = (float(lead_changes), None, None, None, float(decisions), branching,
                   float(forced))
        return order, quality, tuple(counts)
    winners = 0
    for s, r in enumerate(result.ranks):
        if r == 1:
            winners |= 1 << s
    at = leaders[max(0, -(-2 * plies // 3) - 1)]  # the position after ply ceil(2/3 plies)
    comeback = float(at & winners == 0)
    top = sorted(result.scores, reverse=True)
    margin = top[0] - top[1] if len(top) > 1 else 0
    close = float(margin <= CLOSE.get(game_id, 0))
    settled = plies
    while settled > 0 and leaders[settled - 1] & winners:
        settled -= 1
    decisive = settled / plies
    if evaluator is not None:
        decisive = settled_by_evaluator(game_id, state, winners, evaluator, seed)
    quality = (float(lead_changes), comeback, close, decisive, float(decisions), branching,
               float(forced))
    return order, quality, tuple(counts)


def notes(game_id: str, spec: str) -> list[str]:
    """What reads differently under the rules ``spec``: a metric whose name says more than
    it counts there (GRAPH-T without the pure grey card still has grey sides)."""
    from kifu.core.variant import variant_fields

    game = games.get(game_id)
    fields = dict(variant_fields(game.parse_rules(spec)))
    out = []
    if game_id == "graph-t" and fields.get("grey") == "false":
        out.append("grey=false takes out the pure grey card only: grey_plays, grey_leads, "
                   "grey_tricks and grey_stack count the grey sides of the other cards")
    return out


__all__ = [
    "CLOSE",
    "QUALITY",
    "QUALITY_RATES",
    "USUAL_PLAYERS",
    "action_kinds",
    "measure",
    "notes",
    "settled_by_evaluator",
    "standing",
    "turn_order",
]
