"""Judge played records (``kifu analyze``), as lichess's computer analysis does for chess
and BBO's double-dummy column does for bridge: replay each record and, at every decision
where one of the game's exact questions applies, solve the position before the action and
compare the action played with the best.

Per judged ply and question (:class:`Judgement`): the value of the position (the
question's answer), the value of the action played (its first-action value), the best first
actions, the loss in the question's unit, and a mark:

- ``??``: a forced win thrown away: the position's value is a win (``forced``, ``yes``,
  first place) and the action's value is not, so the win is no longer forced;
- ``?``: value lost (the action's value is below the position's);
- ``!``: the only winning first action, found (a won position with one winning action).

The ply's mark is the most severe of its questions' (``??`` > ``?`` > ``!``). A decision is
judged only when it is the question's own player's (the mover whose turn it is, GRAPH-T's
player to play, Alice's Bard): the others' choices inside that turn (a Bomb's victims,
TOWAI's swaps, Alice's other players) are the defence of the question's search, not play
to be judged by it.

Which questions, by game (:data:`DEFAULT_QUESTIONS`), and when (:class:`Limits`): TWEAK
``tweak-this-turn`` at every decision of a turn and ``best-points`` once the deck is
empty; GRAPH-T ``double-dummy`` once every hand holds at most K cards (8, 6, 5 for 2, 3, 4
players: :data:`DD_CARDS`); TOWAI
``towai-out-this-turn`` always and ``towai-win-round`` once the hands hold at most
``towai_cards`` cards between them; Lianxian ``lianxian-best`` and ``lianxian-finish``;
Alice ``alice-bard-wins``. Each search has a budget (nodes, and optionally seconds); a
search past it leaves the question unjudged at that ply (``unsolved``).

Records are analysed one by one, in chunks on the executor seam
(:func:`kifu.core.executor.map_chunks`): the output does not depend on the workers (with a
node budget; a budget in seconds depends on the machine).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import msgspec

from kifu import games
from kifu.bots.evaluate import (
    LEVELS,
    ActionValue,
    Evaluation,
    default_action,
    evaluate,
    level_of,
    mean_se,
    sample_rows,
    shares,
)
from kifu.bots.profiles import profile, soft_margins
from kifu.bots.search import knows_all
from kifu.core.errors import KifuError
from kifu.core.executor import map_chunks
from kifu.core.game import DEALER, Action, Game, State, actor_name
from kifu.core.rng import MASK64, Rng
from kifu.notation.annotation import (
    best_token,
    markby_token,
    shares_token,
    value_token,
    with_tokens,
)
from kifu.notation.reader import Located
from kifu.notation.record import Move, Record
from kifu.notation.replay import replay, setup_of
from kifu.puzzles import Budget, Question, Solution, get_question

# --- how a question's answers compare ---------------------------------------------------


@dataclass(frozen=True)
class Scale:
    """How the answers of one question compare, for the player the question is about.

    ``key(answer)``: a value that orders answers (higher is better for the player);
    ``worth(answer, players)``: a number (the unit ``unit``) whose difference is the loss,
    and which the viewer charts; ``win(answer)``: whether the answer is a win (None: the
    question has no win, only more or less)."""

    key: Callable[[str], Any]
    worth: Callable[[str, int], float]
    unit: str
    win: Callable[[str], bool] | None = None


def _number(text: str) -> int:
    return int(text.split("=", 1)[1])


def _this_turn_p(answer: str) -> tuple[Fraction, bool]:
    if answer == "forced":
        return Fraction(1), True
    if answer.startswith("possible p="):
        return Fraction(answer[len("possible p="):]), True
    return Fraction(0), False


_DD = re.compile(r"place ([0-9]+) shared ([0-9]+) tallest ([0-9]+) second ([0-9]+)\Z")


def _dd(answer: str) -> tuple[int, int, int, int]:
    m = _DD.match(answer)
    if not m:
        raise KifuError(f"not a double-dummy value: {answer!r}")
    p, s, t1, t2 = (int(x) for x in m.groups())
    return p, s, t1, t2


def _dd_worth(answer: str, players: int) -> float:
    """The seats placed below the player, a shared place counting half for each seat that
    shares it: ``players - 1`` for a sole first place, 0 for a sole last."""
    place, shared, _, _ = _dd(answer)
    return players - place - (shared - 1) / 2


def _yes(answer: str) -> bool:
    return answer == "yes" or answer.startswith("yes ")


_YES_NO = Scale(key=lambda a: int(_yes(a)), worth=lambda a, n: float(_yes(a)), unit="wins",
                win=_yes)
_POINTS = Scale(key=_number, worth=lambda a, n: float(_number(a)), unit="points")

NO_BONUS = 100
"""``lianxian-least-bonus``: the bonus a placement that does not reach K counts as."""

SCALES: dict[str, Scale] = {
    "tweak-this-turn": Scale(
        key=_this_turn_p, worth=lambda a, n: float(_this_turn_p(a)[0]), unit="probability",
        win=lambda a: a == "forced"),
    "tweak-within": Scale(
        key=lambda a: (1, -_number(a)) if _yes(a) else (0, 0),
        worth=lambda a, n: float(_yes(a)), unit="wins", win=_yes),
    "best-points": _POINTS,
    "double-dummy": Scale(
        key=lambda a: (lambda v: (-v[0], -v[1], v[2], v[3]))(_dd(a)), worth=_dd_worth,
        unit="places", win=lambda a: _dd(a)[0] == 1),
    "towai-out-this-turn": _YES_NO,
    "towai-win-round": _YES_NO,
    "alice-bard-wins": _YES_NO,
    "lianxian-best": _POINTS,
    "lianxian-finish": _YES_NO,
    "lianxian-least-bonus": Scale(
        key=lambda a: -NO_BONUS if a == "none" else -_number(a),
        worth=lambda a, n: -float(NO_BONUS if a == "none" else _number(a)),
        unit="bonus points"),
}
"""Every registered question's scale (a test checks that none is missing)."""

OPEN_HANDS: dict[str, str] = {
    "tweak-this-turn": "every card known (hands, deck order, T! pile)",
    "tweak-within": "every card known (hands, deck order, T! pile), others against",
    "best-points": "every card known (hands, deck order, T! pile), others against",
    "double-dummy": "double dummy: every hand known, the others against",
    "towai-out-this-turn": "every hand and the deck order known",
    "towai-win-round": "every hand and the deck order known, the others against",
    "alice-bard-wins": "every hand known, the others against the Bard",
}
"""What a question's search sees that the player at the table did not (as BBO says
"double dummy"); a question not named here uses only what its player sees."""

DEFAULT_QUESTIONS: dict[str, tuple[str, ...]] = {
    "tweak": ("tweak-this-turn", "best-points"),
    "graph-t": ("double-dummy",),
    "towai": ("towai-out-this-turn", "towai-win-round"),
    "lianxian": ("lianxian-best", "lianxian-finish"),
    "alice": ("alice-bard-wins",),
}
"""The questions ``kifu analyze`` asks of each game's records (``--question`` picks one)."""

_PLAYER: dict[str, Callable[[State], int]] = {
    "tweak": lambda s: s.mover,  # type: ignore[attr-defined]
    "graph-t": lambda s: s.turn,  # type: ignore[attr-defined]
    "towai": lambda s: s.mover,  # type: ignore[attr-defined]
    "lianxian": lambda s: s.mover,  # type: ignore[attr-defined]
    "alice": lambda s: s.bard,  # type: ignore[attr-defined]
}
"""The player a game's questions are about, in a position where they apply."""


def question_player(game_id: str, state: State) -> int:
    """The seat a question of ``game_id`` is asked for at ``state``."""
    return _PLAYER[game_id](state)


def scale_of(question: Question | str) -> Scale:
    name = question if isinstance(question, str) else question.name
    try:
        return SCALES[name]
    except KeyError:
        raise KifuError(f"question {name} has no scale for kifu analyze") from None


# --- which positions ------------------------------------------------------------------

DD_CARDS: dict[int, int] = {2: 8, 3: 6, 4: 5}
"""GRAPH-T: ``double-dummy`` is asked once every hand holds at most this many cards, by the
number of players (``--dd-cards K`` sets one K for all): the most cards at which a judged
ply still takes well under a second. Measured with the compiled searcher on every judged
ply of 12 seeded games each (CPU, 2026-11-26): 2 players at 8 cards median 5 ms, max
15 ms; 3 players at 6 cards median 2 ms, p95 0.14 s, max 0.23 s (at 7: p95 0.94 s, max
5.0 s); 4 players at 5 cards median 2 ms, p95 0.05 s, max 0.09 s (at 6: p95 1.8 s, max
2.9 s). ``docs/puzzles.md``, "Analysis"; ``benchmarks/test_analyze.py``."""
TOWAI_CARDS = 6
"""TOWAI: ``towai-win-round`` is asked once the hands hold at most this many cards between
them. Its proof search grows fast and unevenly with the cards (every judged ply of 8 seeded
greedy games each of 2, 3 and 4 players, CPU, 2026-11-26): at 6 cards median 0.4 ms, max
0.55 s; at 7 max 1.8 s and one ply past the 200,000-node budget; at 8, 8 of 38 past it;
at 10 median 0.65 s."""
BUDGET_NODES = 200_000
"""The default node budget of one search."""


LEVEL = "fast"
"""The evaluator's level of the ``value`` judgement by default (``kifu.bots.evaluate.LEVELS``):
the one that keeps a 3-player single-round TWEAK record within 20x python-chess perft 4
(``benchmarks/test_analyze.py``, ``docs/puzzles.md``, "Analysis")."""


class Limits(msgspec.Struct, frozen=True):
    """When the costly questions are asked, how much each search may do, and the budget of
    the ``value`` judgement."""

    dd_cards: int | None = None
    """GRAPH-T's K for every player count (None: :data:`DD_CARDS` by player count)."""
    towai_cards: int = TOWAI_CARDS
    budget_nodes: int | None = BUDGET_NODES
    budget_seconds: float | None = None
    level: str | None = LEVEL
    """The evaluator's level of the ``value`` judgement (None: no ``value`` judgement, only
    the exact questions, as before issue 34)."""
    seed: int = 0
    """The seed of the ``value`` judgement (each ply's evaluation is seeded from it and the
    ply, so the analysis of a record is the same on any machine and any worker)."""
    chart: bool = True
    """Value every seat's share at each valued ply (``PlyReport.shares``, the page's chart);
    False leaves them out (the strength run, ``kifu.lab.strength``, needs only the losses)."""

    def budget(self) -> Budget:
        return Budget(nodes=self.budget_nodes, seconds=self.budget_seconds)


def dd_cards(players: int) -> int:
    """The default K of GRAPH-T's ``double-dummy`` for ``players`` seats."""
    return DD_CARDS.get(players, min(DD_CARDS.values()))


def in_scope(question: Question, state: State, limits: Limits) -> bool:
    """Whether ``question`` (which applies to ``state``) is asked there."""
    name = question.name
    if name == "double-dummy":
        k = limits.dd_cards if limits.dd_cards is not None else dd_cards(state.n)
        return max(state.hand(s).bit_count() for s in range(state.n)) <= k  # type: ignore[attr-defined]
    if name == "towai-win-round":
        return sum(state.hand_size(s) for s in range(state.n)) <= limits.towai_cards  # type: ignore[attr-defined]
    return True


def questions_of(game_id: str, only: str | None = None) -> list[Question]:
    """The exact questions asked of a game's records: ``only`` (a question spec) if it is of
    this game (none if it is of another, or if it is ``value``, the judgement that is not a
    question), else :data:`DEFAULT_QUESTIONS`."""
    if only == VALUE:
        return []
    if only is not None:
        q = get_question(only)
        scale_of(q)
        return [q] if q.game == game_id else []
    return [get_question(spec) for spec in DEFAULT_QUESTIONS.get(game_id, ())]


# --- results ---------------------------------------------------------------------------

BEST_LISTED = 12
"""How many best first actions a judgement lists (``best_count`` says how many there are)."""

SEVERITY = {"??": 4, "?": 3, "?!": 2, "!": 1}

VALUE = "value"
"""The name of the judgement from the mover's information (not a question: it has no exact
answer), in ``--json``'s ``question``, in ``[%value value: ...]`` and for ``-Q value``."""
SHARE = "share"
"""The unit of the ``value`` judgement: the expected pairwise share
(``kifu.bots.profiles.pairwise``)."""

INACCURACY = 0.10
"""A ``value`` loss from this many share points up is marked ``?!`` (inaccuracy)."""
MISTAKE = 0.20
"""... from this many up ``?`` (mistake)."""
BLUNDER = 0.30
"""... from this many up ``??`` (blunder)."""
NOISE_Z = 2.0
"""A ``value`` mark is given only where the loss exceeds this many standard errors of the
paired difference (``diff_stderr``): clear of the evaluator's sampling noise."""


class Judgement(msgspec.Struct, omit_defaults=True):
    """One question (or the ``value`` judgement) judged at one ply."""

    question: str
    """The question spec (``tweak-this-turn``), or ``value``."""
    value: str | float
    """The value of the position before the action: the question's answer; for ``value``,
    the mover's expected share (the value of its best action)."""
    played: str | float
    """The value of the action played, in the same form."""
    best: list[str]
    """Best first actions (``actor text``), at most :data:`BEST_LISTED`, in legal order;
    for ``value``, the best valued actions, best first."""
    best_count: int
    """How many first actions reach the position's value."""
    legal: int
    """How many legal first actions there were."""
    loss: float
    """``worth(value) - worth(played)`` in :attr:`unit` (0 when the best was played)."""
    unit: str
    open_hands: str | None = None
    """What the search sees that the player did not (``double dummy: ...``), if anything."""
    mark: str | None = None
    """``??``, ``?``, ``?!``, ``!`` or None (see the module's docstring)."""
    is_best: bool = True
    """Whether the action played reaches the position's value."""
    note: str | None = None
    """The mark, or a worse answer that costs nothing in the unit, in words."""
    best_values: list[float] | None = None
    """``value``: the value of each action of :attr:`best`."""
    value_stderr: float | None = None
    """``value``: the standard error of :attr:`value`."""
    played_stderr: float | None = None
    """``value``: the standard error of :attr:`played`."""
    loss_stderr: float | None = None
    """``value``: the standard error of the loss, paired over the same worlds."""
    valued: int | None = None
    """``value``: how many actions the evaluator valued (its candidates, and the one played)."""
    worlds: int | None = None
    """``value``: the worlds (samples) the evaluation used."""
    exact: bool | None = None
    """``value``: the value is exact (a position the mover knows whole, solved)."""
    level: str | None = None
    """``value``: the evaluator's level."""


class PlyReport(msgspec.Struct, tag_field="kind", tag="ply", omit_defaults=True):
    """One judged ply of one record (``kifu analyze --json``: one line each)."""

    file: str
    record: int
    """The record's number in its file (1 = the first)."""
    ply: int
    """The action's number in the record (1 = the first action, as in error messages); the
    position judged is the one before it (``kifu replay --ply PLY-1``)."""
    seat: int
    actor: str
    action: str
    """The action played, as written in the record."""
    judgements: list[Judgement]
    mark: str | None = None
    """The most severe mark of the judgements."""
    mark_from: str | None = None
    """Which judgement the mark comes from: ``value`` (the mover's information) or an exact
    question's spec (an exact question's ``??`` outranks a ``value`` mark of the same
    severity)."""
    shares: list[float] | None = None
    """Every seat's expected pairwise share before the action, as the mover sees it (its
    sampled worlds played on by the game's rollout policy): the page's chart."""
    player: str | None = None
    """The seat's name in the ``Players`` header."""
    position: str | None = None
    """The position line before the action."""
    unsolved: list[str] = msgspec.field(default_factory=list)
    """Questions whose search ran past its budget here (not judged)."""


class SeatSummary(msgspec.Struct, omit_defaults=True):
    """One seat's figures over a record."""

    seat: int
    player: str
    judged: int
    """Decisions of this seat judged."""
    best: int
    """Of them, those where the action played was best for every question judged."""
    best_share: float
    """``best / judged`` (0 when nothing was judged)."""
    wins_missed: int
    """Plies marked ``??``."""
    mistakes: int
    """Plies marked ``?``."""
    only_moves: int
    """Plies marked ``!``."""
    lost: dict[str, float]
    """Question -> the value lost over the record, in that question's unit."""
    unsolved: int = 0
    inaccuracies: int = 0
    """Plies marked ``?!``."""
    decisions: int = 0
    """This seat's decisions with a choice (two legal actions or more)."""
    valued: int = 0
    """Of them, those the ``value`` judgement judged."""
    mean_loss: float | None = None
    """The mean ``value`` loss a decision, in share units (None: nothing valued)."""
    accuracy: float | None = None
    """0-100, from the ``value`` losses as lichess derives accuracy from win chances
    (:func:`accuracy`; None: nothing valued)."""


class RecordSummary(msgspec.Struct, tag_field="kind", tag="summary", omit_defaults=True):
    """One record's summary (``kifu analyze --json``: the line after its plies)."""

    file: str
    record: int
    game: str
    rules: str
    players: list[str]
    plies: int
    """Actions in the record."""
    judged: int
    """Plies judged (at least one question)."""
    questions: list[str]
    units: dict[str, str]
    """Question -> the unit of its loss."""
    seats: list[SeatSummary]
    open_hands: dict[str, str] = msgspec.field(default_factory=dict)
    """Question -> what its search sees that the players did not."""
    unsolved: int = 0
    decisions: int = 0
    """Player decisions with a choice (two legal actions or more)."""
    valued: int = 0
    """Of them, those the ``value`` judgement judged."""
    level: str | None = None
    """The evaluator's level of the ``value`` judgement (None: not asked)."""


class RecordAnalysis(msgspec.Struct):
    """A record's analysis: its judged plies, its summary, and the annotated record."""

    plies: list[PlyReport]
    summary: RecordSummary
    record: Record


def analysis_schema() -> dict[str, Any]:
    """The JSON Schema of ``kifu analyze --json`` lines (``kifu schema analysis``): each
    line is a ply (``"kind": "ply"``) or a record's summary (``"kind": "summary"``)."""
    schema = msgspec.json.schema(PlyReport | RecordSummary)
    schema["description"] = ("One line of kifu analyze --json: a judged ply (kind ply), or "
                             "the summary of a record (kind summary), after its plies.")
    return schema


_ENCODER = msgspec.json.Encoder()


def to_json_lines(analysis: RecordAnalysis) -> bytes:
    """The ``--json`` lines of one record: its plies, then its summary."""
    lines = [_ENCODER.encode(p) for p in analysis.plies]
    lines.append(_ENCODER.encode(analysis.summary))
    return b"\n".join(lines) + b"\n"


# --- judging ---------------------------------------------------------------------------


NOTES: dict[str, str] = {
    "??": "a forced win thrown away",
    "?": "value lost",
    "!": "the only winning action, found (the game's default choice would have missed it)",
}
"""The words of an exact question's marks."""

ZERO_LOSS_NOTES: dict[str, str] = {
    "tweak-this-turn": "no chance lost, but a TWEAK this turn that only the others' help "
                       "could allow is now out of reach",
    "double-dummy": "the same place, but a lower stack",
}
"""The words of a worse answer that costs nothing in the question's unit (no mark)."""


def judge(question: Question, sol: Solution, played: str, players: int,
          default: str | None = None) -> Judgement | None:
    """Compare the action ``played`` (``actor text``, canonical) with a complete solution
    of the position before it; None when the solution has no value for it (a position the
    question settles before any action). ``default``: the game's default choice
    (``actor text``; its ``greedy`` bot's): an only winning action it would also have
    played is not worth a ``!``."""
    values = {v.action: v.value for v in sol.values}
    got = values.get(played)
    if got is None:
        return None
    scale = scale_of(question)
    answer = sol.answer
    best = [v.action for v in sol.values if v.value == answer]
    vkey, pkey = scale.key(answer), scale.key(got)
    is_best = got == answer or not pkey < vkey
    loss = max(0.0, scale.worth(answer, players) - scale.worth(got, players))
    mark = note = None
    if scale.win is not None and scale.win(answer) and not scale.win(got):
        mark = "??"
    elif not is_best and loss > 1e-12:
        mark = "?"
    elif not is_best:  # a worse answer at no cost in the unit: words, no mark
        note = ZERO_LOSS_NOTES.get(question.name,
                                   f"no {scale.unit} lost, but a worse answer ({got})")
    elif (scale.win is not None and scale.win(answer) and sol.winning == 1
          and len(sol.values) > 1 and (default is None or default not in best)):
        mark = "!"
    if mark is not None:
        note = NOTES[mark]
    return Judgement(
        question=question.spec, value=answer, played=got, best=best[:BEST_LISTED],
        best_count=len(best), legal=len(sol.values), loss=round(loss, 6), unit=scale.unit,
        open_hands=OPEN_HANDS.get(question.name), mark=mark, is_best=is_best, note=note,
    )


# --- the value judgement: the mover's information ---------------------------------------


def value_mark(loss: float, loss_stderr: float) -> str | None:
    """The mark of a ``value`` loss (share units): ``??`` from :data:`BLUNDER`, ``?`` from
    :data:`MISTAKE`, ``?!`` from :data:`INACCURACY`, and only where the loss is more than
    :data:`NOISE_Z` standard errors of the paired difference (clear of the noise)."""
    if loss <= NOISE_Z * loss_stderr:
        return None
    if loss >= BLUNDER - 1e-9:
        return "??"
    if loss >= MISTAKE - 1e-9:
        return "?"
    if loss >= INACCURACY - 1e-9:
        return "?!"
    return None


VALUE_NOTES = {"??": "blunder: share lost", "?": "mistake: share lost",
               "?!": "inaccuracy: share lost"}
"""The words of a ``value`` mark."""


def move_accuracy(loss: float) -> float:
    """One decision's accuracy, 0-100, from its ``value`` loss in share units: lichess's
    curve of a move's accuracy against the drop in win percentage (lila
    ``AccuracyPercent.fromWinPercents``: ``103.1668 exp(-0.04354 d) - 3.1669``, plus 1
    for the analysis's own imprecision, within 0-100), with the drop ``d`` taken as the
    loss in share percentage points (a share is a win probability in a two-player game)."""
    d = 100.0 * loss
    if d <= 0:
        return 100.0
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * d) - 3.166924740191411 + 1
    return min(100.0, max(0.0, raw))


HARMONIC_FLOOR = 1.0
"""A decision's accuracy counts at least this much in the harmonic mean (one total loss
would otherwise make a seat's accuracy half its plain mean, whatever else it did)."""


def accuracy(losses: Sequence[float]) -> float | None:
    """A seat's accuracy, 0-100, from its decisions' ``value`` losses: the mean of the plain
    mean and the harmonic mean of :func:`move_accuracy`, as lichess's game accuracy (which
    also weights the plain mean by the volatility of the win chances: not here, where the
    values of successive plies come from different seats' information). None for no
    decision."""
    if not losses:
        return None
    accs = [move_accuracy(x) for x in losses]
    mean = sum(accs) / len(accs)
    harmonic = len(accs) / sum(1 / max(HARMONIC_FLOOR, a) for a in accs)
    return round((mean + harmonic) / 2, 1)


def ply_seed(seed: int, ply: int) -> int:
    """The evaluator's seed at ``ply`` of a record analysed with ``seed``."""
    return Rng((seed * 1_000_003 + ply) & MASK64).next64()


def _played_value(game: Game, state: State, seat: int, ev: Evaluation, action: Action,
                  level: str, seed: int) -> ActionValue:
    """The action played, valued in the same worlds as the evaluation's best action (the
    evaluator values at most a level's candidates: an action outside them is valued here
    beside the best, with the same seed, so the difference is paired)."""
    for av in ev.actions:
        if av.action == action:
            return av
    best = ev.actions[0]
    rows, _exact = sample_rows(game, state, seat, [best.action, action],
                               level_of(game, level), Rng(seed), ev.omniscient)
    m, se = mean_se([r[1] for r in rows])
    d_se = mean_se([r[0] - r[1] for r in rows])[1]
    return ActionValue(action, m, se, d_se)


def value_judgement(game: Game, state: State, action: Action, *, level: str = LEVEL,
                    seed: int = 0) -> Judgement:
    """The ``value`` judgement of ``action`` by the seat to move at ``state`` (which has at
    least two legal actions), from that seat's information
    (:func:`kifu.bots.evaluate.evaluate`): the position's value (its best action's), the
    value of the action played, the loss (at least 0, share units), the best actions with
    their values, the standard errors and the mark (:func:`value_mark`)."""
    return _value(game, state, action, level=level, seed=seed)[0]


def _value(game: Game, state: State, action: Action, *, level: str,
           seed: int) -> tuple[Judgement, Action]:
    """:func:`value_judgement`, and the best action."""
    seat = state.to_move
    assert seat is not None and seat >= 0
    ev = evaluate(game, state, seat, level=level, seed=seed)
    mine = _played_value(game, state, seat, ev, action, level, seed)
    extra = [] if mine in ev.actions else [mine]
    valued = len(ev.actions) + len(extra)
    best = ev.actions[0]
    if mine.value > best.value:  # the action played beats the evaluator's candidates
        best = mine
    loss = max(0.0, best.value - mine.value)
    loss_se = 0.0 if mine is best else mine.diff_stderr
    mark = value_mark(loss, loss_se)
    ranked = sorted([*ev.actions, *extra], key=lambda av: -av.value)
    shown = ranked[:BEST_SHOWN_VALUE]
    text = [f"{actor_name(seat)} {game.format_action(state, av.action)}" for av in shown]
    return Judgement(
        question=VALUE, value=round(best.value, 4), played=round(mine.value, 4),
        best=text, best_count=sum(1 for av in ranked if av.value >= best.value - 1e-12),
        legal=len(state.legal_actions()), loss=round(loss, 4), unit=SHARE, mark=mark,
        is_best=loss <= 1e-12, note=VALUE_NOTES.get(mark or ""),
        best_values=[round(av.value, 4) for av in shown],
        value_stderr=round(best.stderr, 4), played_stderr=round(mine.stderr, 4),
        loss_stderr=round(loss_se, 4), valued=valued, worlds=ev.worlds, exact=ev.exact,
        level=ev.level,
    ), best.action


BEST_SHOWN_VALUE = 3
"""How many valued actions a ``value`` judgement lists, best first."""


def seat_shares(game: Game, state: State, seat: int, *, level: str = LEVEL, seed: int = 0,
                first: Action | None = None) -> list[float]:
    """Every seat's expected pairwise share of ``state`` as ``seat`` sees it: the level's
    worlds drawn from ``seat``'s information (the true position if it knows it whole), in
    each ``first`` played (the mover's best action, if given), then the game's rollout
    policy (``kifu.bots.profiles``) to the end (or to its horizon, then the profile's soft
    score margins). The chart of an analysed record: the evaluator gives one seat's value,
    this gives every seat's in the same worlds, so they add up to ``players / 2``; the
    mover's share here estimates the same thing as the judgement's value (its best action
    followed by the rollout policy, in other draws of its worlds), except where the
    evaluator solved the position exactly."""
    lvl = level_of(game, level)
    prof = profile(game.id)
    n = state.n
    draw = ((lambda _r: state.copy()) if knows_all(state, seat)
            else game.world_sampler(state, seat))
    rng = Rng(seed)
    play_rng = Rng(0)
    cls = game.bots.get(prof.rollout) or game.bots["random"]
    policy = [cls(s, play_rng) for s in range(n)]
    chance = game.chance_action
    totals = [0.0] * n
    for _ in range(lvl.worlds):
        world = draw(rng)
        play_rng.state = rng.next64() & MASK64
        if first is not None:
            world.push(first)
        decisions = 0
        while True:
            mover = world.to_move
            if mover is None:
                got = shares(world, game.id)  # the game's tie-breaks, as the evaluator's
                break
            if mover == DEALER:
                world.push(chance(world, play_rng))
                continue
            if prof.horizon is not None and decisions >= prof.horizon:
                got = soft_margins(prof.scores(world), prof.scale)
                break
            world.push(policy[mover].choose(world))
            decisions += 1
        for s in range(n):
            totals[s] += got[s]
    return [round(t / lvl.worlds, 4) for t in totals]


def worst_mark(marks: Iterable[str | None]) -> str | None:
    """The most severe of ``marks`` (``??`` > ``?`` > ``?!`` > ``!``), None if there is none."""
    found = [m for m in marks if m]
    return max(found, key=SEVERITY.__getitem__) if found else None


def mark_of(judgements: Sequence[Judgement]) -> tuple[str | None, str | None]:
    """The ply's mark (the most severe of its judgements') and the judgement it comes from
    (an exact question before ``value`` at the same severity: a proven thrown-away win
    stays the exact question's ``??``)."""
    mark = worst_mark(j.mark for j in judgements)
    if mark is None:
        return None, None
    exact = [j for j in judgements if j.mark == mark and j.question != VALUE]
    return mark, (exact[0] if exact else judgements[[j.mark for j in judgements].index(mark)]
                  ).question


def _fmt(x: float) -> str:
    return f"{x:.3f}"


def annotate_move(move: Move, report: PlyReport) -> Move:
    """``move`` with the analysis of its ply: the mark, and ``[%value]``/``[%best]`` tokens
    in its comment (``[%shares]``: every seat's share as the mover sees it; ``[%markby]``:
    where the mark comes from), old tokens replaced, other comment text kept."""
    tokens = []
    for j in report.judgements:
        if j.question == VALUE:
            assert isinstance(j.value, float) and isinstance(j.played, float)
            tokens.append(value_token(VALUE, _fmt(j.value), _fmt(j.played)))
            if not j.is_best:
                tokens.append(best_token(VALUE, [f"{a} ({_fmt(v)})" for a, v in
                                                 zip(j.best, j.best_values or [], strict=True)]))
            continue
        tokens.append(value_token(j.question, str(j.value), str(j.played)))
        if not j.is_best:
            tokens.append(best_token(j.question, j.best, j.best_count))
    if report.shares is not None:
        tokens.append(shares_token([_fmt(x) for x in report.shares]))
    if report.mark_from is not None:
        tokens.append(markby_token(report.mark_from))
    return Move(move.actor, move.text, with_tokens(move.comment, tokens),
                report.mark)  # type: ignore[arg-type]


class Decision(NamedTuple):
    """A judged decision: the ply (1 = the first action), the seat, the move as written, the
    position line before it, the action played (``actor text``, canonical), the position
    solved (a fresh state from the line), and each question asked with its solution and
    judgement (None when the solution has no value for the action), and the questions past
    the budget."""

    ply: int
    seat: int
    move: Move
    line: str
    played: str
    state: State
    solved: list[tuple[Question, Solution, Judgement | None]]
    unsolved: list[str]


def decisions(loc: Located | Record, *, question: str | None = None,
              limits: Limits | None = None) -> Iterator[Decision]:
    """The decisions of a record that its game's questions judge (the record is replayed
    first: an illegal action raises the located
    :class:`~kifu.notation.replay.ReplayError`)."""
    limits = limits or Limits()
    rec = loc.record if isinstance(loc, Located) else loc
    game, setup = setup_of(loc)
    actions = replay(loc, check_result=True).actions
    asked = questions_of(game.id, question)
    if not asked:
        return
    budget = limits.budget()
    state = game.new_state(setup.players, setup.variant)
    for i, (move, action) in enumerate(zip(rec.moves, actions, strict=True), 1):
        mover = state.to_move
        if mover is not None and mover != DEALER:
            d = _decision(game, state, action, move, i, asked, limits, budget, setup.players)
            if d is not None:
                yield d
        state.push(action)


def _decision(game: Game, state: State, action: Action, move: Move, ply: int,
              asked: list[Question], limits: Limits, budget: Budget,
              players: int) -> Decision | None:
    applying = [q for q in asked if q.applies(state) is None]
    if not applying:
        return None
    mover = state.to_move
    assert mover is not None
    if question_player(game.id, state) != mover:
        return None
    applying = [q for q in applying if in_scope(q, state, limits)]
    if not applying:
        return None
    line = state.to_line()
    played = f"{actor_name(mover)} {game.format_action(state, action)}"
    solved: list[tuple[Question, Solution, Judgement | None]] = []
    unsolved: list[str] = []
    fresh = game.from_line(line)  # the position as kifu solve sees it
    default: str | None = None
    for q in applying:
        sol = q.solve(fresh, budget)
        if not sol.complete:
            unsolved.append(q.spec)
            continue
        if default is None and sol.winning == 1:
            pick = default_action(game, state, mover)
            default = f"{actor_name(mover)} {game.format_action(state, pick)}"
        solved.append((q, sol, judge(q, sol, played, players, default)))
    return Decision(ply, mover, move, line, played, fresh, solved, unsolved)


def analyze_record(loc: Located | Record, *, file: str = "<record>", index: int = 1,
                   question: str | None = None, limits: Limits | None = None
                   ) -> RecordAnalysis:
    """Analyse one record: its judged plies, its summary and the annotated record (the
    record is replayed first: an illegal action raises the located
    :class:`~kifu.notation.replay.ReplayError`). Every player decision with a choice gets
    the ``value`` judgement (unless ``limits.level`` is None or ``question`` names an exact
    question); the exact questions add theirs where they apply."""
    limits = limits or Limits()
    rec = loc.record if isinstance(loc, Located) else loc
    game, setup = setup_of(loc)
    actions = replay(loc, check_result=True).actions
    asked = questions_of(game.id, question)
    level = limits.level if question in (None, VALUE) else None
    if level is not None:
        level_of(game, level)  # an unknown level is refused before any work
    names = rec.players
    reports: list[PlyReport] = []
    moves = list(rec.moves)
    budget = limits.budget()
    counts = [[0, 0] for _ in range(setup.players)]  # per seat: decisions, valued
    state = game.new_state(setup.players, setup.variant)
    for i, (move, action) in enumerate(zip(rec.moves, actions, strict=True), 1):
        mover = state.to_move
        if mover is None or mover == DEALER:
            state.push(action)
            continue
        choice = len(state.legal_actions()) > 1
        judgements: list[Judgement] = []
        ply_shares = None
        if choice:
            counts[mover][0] += 1
            if level is not None:
                seed = ply_seed(limits.seed, i)
                j, best = _value(game, state, action, level=level, seed=seed)
                judgements.append(j)
                if limits.chart:
                    ply_shares = seat_shares(game, state, mover, level=level, seed=seed,
                                             first=best)
                counts[mover][1] += 1
        d = (_decision(game, state, action, move, i, asked, limits, budget, setup.players)
             if asked else None)
        unsolved: list[str] = []
        line = None
        if d is not None:
            judgements += [j for _q, _s, j in d.solved if j is not None]
            unsolved, line = d.unsolved, d.line
        if judgements or unsolved:
            mark, mark_from = mark_of(judgements)
            report = PlyReport(
                file=file, record=index, ply=i, seat=mover, actor=move.actor,
                action=move.text, judgements=judgements, mark=mark, mark_from=mark_from,
                shares=ply_shares, player=names[mover] if mover < len(names) else None,
                position=line or state.to_line(), unsolved=unsolved,
            )
            reports.append(report)
            moves[i - 1] = annotate_move(move, report)
        state.push(action)
    annotated = Record(rec.headers, moves, rec.comment)
    summary = _summary(file, index, game.id, rec, setup.players, len(rec.moves), asked,
                       reports, names, counts, level)
    return RecordAnalysis(reports, summary, annotated)


def _summary(file: str, index: int, game_id: str, rec: Record, players: int, plies: int,
             asked: list[Question], reports: list[PlyReport], names: list[str],
             counts: list[list[int]], level: str | None) -> RecordSummary:
    seats = []
    for s in range(players):
        mine = [r for r in reports if r.seat == s]
        judged = [r for r in mine if r.judgements]
        best = sum(1 for r in judged if all(j.is_best for j in r.judgements))
        lost: dict[str, float] = {}
        losses = []
        for r in judged:
            for j in r.judgements:
                lost[j.question] = round(lost.get(j.question, 0.0) + j.loss, 6)
                if j.question == VALUE:
                    losses.append(j.loss)
        seats.append(SeatSummary(
            seat=s, player=names[s] if s < len(names) else f"p{s}", judged=len(judged),
            best=best, best_share=round(best / len(judged), 4) if judged else 0.0,
            wins_missed=sum(1 for r in judged if r.mark == "??"),
            mistakes=sum(1 for r in judged if r.mark == "?"),
            only_moves=sum(1 for r in judged if r.mark == "!"),
            lost=lost, unsolved=sum(1 for r in mine if r.unsolved),
            inaccuracies=sum(1 for r in judged if r.mark == "?!"),
            decisions=counts[s][0], valued=counts[s][1],
            mean_loss=round(sum(losses) / len(losses), 4) if losses else None,
            accuracy=accuracy(losses),
        ))
    specs = [q.spec for q in asked] + ([VALUE] if level is not None else [])
    units = {q.spec: scale_of(q).unit for q in asked}
    if level is not None:
        units[VALUE] = SHARE
    return RecordSummary(
        file=file, record=index, game=game_id, rules=rec.rules, players=list(names),
        plies=plies, judged=sum(1 for r in reports if r.judgements), questions=specs,
        units=units, seats=seats,
        open_hands={q.spec: OPEN_HANDS[q.name] for q in asked if q.name in OPEN_HANDS},
        unsolved=sum(1 for r in reports if r.unsolved),
        decisions=sum(c[0] for c in counts), valued=sum(c[1] for c in counts), level=level,
    )


# --- text ------------------------------------------------------------------------------


def _num(x: float) -> str:
    return f"{x:.4g}"


def _part(j: Judgement) -> str:
    if j.question == VALUE:
        assert isinstance(j.value, float) and isinstance(j.played, float)
        part = f"value: {_fmt(j.value)} -> {_fmt(j.played)}"
        if j.loss:
            part += f" (lost {_fmt(j.loss)} ± {_fmt(j.loss_stderr or 0.0)})"
        if not j.is_best:
            part += "; best " + ", ".join(
                f"{a} {_fmt(v)}" for a, v in zip(j.best, j.best_values or [], strict=True))
        return part
    part = f"{j.question}: {j.value} -> {j.played}"
    if j.loss:
        part += f" (lost {_num(j.loss)})"
    if not j.is_best:
        more = j.best_count - min(3, len(j.best))
        part += "; best " + ", ".join(j.best[:3]) + (f" (+{more} more)" if more else "")
    if j.note and not j.mark:
        part += f" [{j.note}]"
    return part


def format_report(analysis: RecordAnalysis, *, every_ply: bool = False) -> str:
    """The text report of one record: a line saying what was judged, one line per marked
    ply (every judged ply with ``every_ply``), and a table of the seats."""
    s = analysis.summary
    out = [f"{s.file}#{s.record}: {s.game} ({s.rules}), {len(s.players)} players, "
           f"{s.plies} plies, {s.judged} judged"
           + (f"; {s.valued} of {s.decisions} decisions valued" if s.level else "")]
    for q in s.questions:
        if q == VALUE:
            out.append(f"  value: loss in share points from the mover's information "
                       f"(evaluator level {s.level}); ?! from {INACCURACY:g}, ? from "
                       f"{MISTAKE:g}, ?? from {BLUNDER:g}, each beyond {NOISE_Z:g} standard "
                       "errors")
            continue
        seen = s.open_hands.get(q)
        out.append(f"  {q}: loss in {s.units[q]}" + (f"; open hands: {seen}" if seen else ""))
    if not s.questions:
        out.append("  no question of this game was asked")
    for p in analysis.plies:
        if not (every_ply or p.mark or p.unsolved):
            continue
        head = f"  ply {p.ply:<4} {p.actor} {p.action}" + (f" {p.mark}" if p.mark else "")
        if p.mark_from:
            why = next((j.note for j in p.judgements
                        if j.question == p.mark_from and j.mark == p.mark), None)
            head += f" ({p.mark_from}" + (f": {why})" if why else ")")
        parts = [_part(j) for j in p.judgements]
        parts += [f"{q}: past the search budget" for q in p.unsolved]
        out.append(head + "   " + " | ".join(parts))
    rows = [("seat", "player", "judged", "best", "??", "?", "?!", "!", "accuracy", "lost")]
    for seat in s.seats:
        share = f"{seat.best} ({round(100 * seat.best_share)}%)" if seat.judged else "-"
        lost = ", ".join(f"{q} {_num(v)}" for q, v in seat.lost.items() if v) or "0"
        acc = "-" if seat.accuracy is None else f"{seat.accuracy:.1f}"
        rows.append((f"p{seat.seat}", seat.player, str(seat.judged), share,
                     str(seat.wins_missed), str(seat.mistakes), str(seat.inaccuracies),
                     str(seat.only_moves), acc, lost))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for r in rows:
        out.append("  " + "  ".join([*(c.ljust(w) for c, w in zip(r, widths, strict=False)),
                                     r[-1]]).rstrip())
    if s.unsolved:
        out.append(f"  {s.unsolved} ply(s) past the search budget were not judged "
                   "(--budget-nodes, --budget-seconds)")
    return "\n".join(out) + "\n"


# --- many records ------------------------------------------------------------------------

RECORDS_PER_CHUNK = 2


class Job(msgspec.Struct, frozen=True):
    """What a worker needs to analyse one record."""

    loc: Located
    file: str
    index: int


def _chunk(args: tuple[list[Job], str | None, Limits]) -> list[RecordAnalysis]:
    jobs, question, limits = args
    return [analyze_record(j.loc, file=j.file, index=j.index, question=question,
                           limits=limits) for j in jobs]


def analyze_records(jobs: Iterable[Job], *, question: str | None = None,
                    limits: Limits | None = None, workers: int = 1, dask: str | None = None,
                    chunk_size: int = RECORDS_PER_CHUNK,
                    on_record: Callable[[], None] | None = None) -> Iterator[RecordAnalysis]:
    """The analyses of ``jobs``, in order, computed in chunks on the executor seam."""
    limits = limits or Limits()
    if question is not None and question != VALUE:
        scale_of(get_question(question))

    def chunks() -> Iterator[tuple[list[Job], str | None, Limits]]:
        batch: list[Job] = []
        for job in jobs:
            batch.append(job)
            if len(batch) == chunk_size:
                yield batch, question, limits
                batch = []
        if batch:
            yield batch, question, limits

    for results in map_chunks(_chunk, chunks(), workers=workers, dask=dask):
        for r in results:
            if on_record is not None:
                on_record()
            yield r


def known_games() -> list[str]:
    """Games with questions to analyse."""
    return [g for g in games.ids() if g in DEFAULT_QUESTIONS]


__all__ = [
    "BLUNDER", "DEFAULT_QUESTIONS", "INACCURACY", "LEVEL", "LEVELS", "MISTAKE", "NOISE_Z",
    "OPEN_HANDS", "SCALES", "SHARE", "VALUE", "Decision", "Job", "Judgement", "Limits",
    "PlyReport", "RecordAnalysis", "RecordSummary", "Scale", "SeatSummary", "accuracy",
    "analysis_schema", "analyze_record", "analyze_records", "annotate_move", "decisions",
    "format_report", "in_scope", "judge", "mark_of", "move_accuracy", "question_player",
    "questions_of", "scale_of", "seat_shares", "to_json_lines", "value_judgement",
    "value_mark", "worst_mark",
]
