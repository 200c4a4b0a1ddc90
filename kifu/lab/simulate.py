"""``kifu simulate``: what a rule change does to play, measured on paired seeds.

Game ``i`` of a simulation is played from the seed ``S + i`` under *every* rule set (common
random numbers): the dealer's actions come from ``Rng(S + i).fork(0)`` and each seat's bot
from ``.fork(seat + 1)``, exactly as ``kifu play --seed S+i``, so two rule sets start from
the same deal wherever their rules allow it and a difference between them is the rules'
doing, not the cards'. Seeds are cut into chunks and mapped with
:func:`kifu.core.executor.map_chunks` (results in chunk order), and nothing measured depends
on time, so a report is the same bytes whatever the executor.

Each game gives one :class:`GameRow` (its length, result, the game's own event counts from
``kifu/games/<game>/metrics.py``, its turn order, the quality measures and action kinds of
:mod:`kifu.lab.quality`), which the chunk folds at once into running sums
(:class:`kifu.lab.running.Moments`, a few counters): a worker sends back sums, not games,
and a simulation's memory does not grow with its number of games (only ``-o``/``--db``,
which keep every record's text, do). :func:`analyse` turns the sums into a
:class:`SimulationReport`:

- per rule set, every metric's mean with its 95% t interval (Wilson's for a rate), seat
  and turn-order win rates, mean place and score, ties, games cut by the safety cap, and a
  chi-square test of fairness by seat and by position in the turn order;
- per compared pair, the paired difference B - A of every metric over the seeds (a t
  interval on the per-seed differences), its p-value, and a verdict that calls a change
  only when Holm's procedure over every test of the report rejects it
  (:mod:`kifu.lab.multiple` says why Holm), marking a call near its edge; the share of
  seeds whose winner changes.

``--sweep`` (:mod:`kifu.lab.sweep`) compares each value of a field with the first, and
``--confirm`` re-runs the called changes on the next block of seeds (:func:`confirm`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec

from kifu import games
from kifu.bots import make_bot, make_bots
from kifu.core.errors import VariantError
from kifu.core.executor import map_chunks
from kifu.core.game import DEALER, Game, State
from kifu.core.rng import Rng
from kifu.core.variant import Variant
from kifu.lab.running import Moments

GAMES_PER_CHUNK = 16
"""Seeds a chunk plays (under every rule set)."""
MAX_PLIES = 100_000
"""The default safety cap: a game still going after this many plies is cut (and counted)."""
MAX_BINS = 24
"""The most bins of a histogram in the report."""
FORMAT = 1
"""The version of the JSON report (``kifu schema simulate``)."""


# --- playing ------------------------------------------------------------------------------

class Setup(msgspec.Struct, frozen=True):
    """What every chunk needs: the game, the seats' bots, the rule sets (specs), the cap,
    whether to keep the records' text, and the pairs of rule sets compared (``(a, b)``
    indexes; every pair when empty)."""

    game: str
    players: int
    bots: tuple[str, ...]
    rules: tuple[str, ...]
    max_plies: int = MAX_PLIES
    records: bool = False
    pairs: tuple[tuple[int, int], ...] = ()
    decisiveness: str | None = None


class GameRow(msgspec.Struct, array_like=True, gc=False):
    """One game under one rule set: its seed, length, whether the safety cap cut it, the
    result (``None`` when unfinished), the game's own counts (in the order of its
    ``METRICS``), when asked for the canonical record, the turn order (seats in the order
    they first moved), the quality measures (:data:`kifu.lab.quality.QUALITY` order) and
    the seats' actions of each kind (:func:`kifu.lab.quality.action_kinds` order)."""

    seed: int
    plies: int
    capped: bool
    scores: tuple[int, ...] | None
    ranks: tuple[int, ...] | None
    events: tuple[int, ...]
    text: str | None = None
    order: tuple[int, ...] = ()
    quality: tuple[float | None, ...] = ()
    kinds: tuple[int, ...] = ()


def play_game(game: Game, bots: Sequence[str], seed: int | str, variant: Variant | None,
              max_plies: int = MAX_PLIES) -> tuple[State, bool]:
    """Play one bot game from ``seed`` (the seeding of :func:`kifu.bots.play_actions`) and
    return the final state and whether the safety cap cut it."""
    state = game.new_state(len(bots), variant)
    rng = Rng(seed)
    dealer = rng.fork(0)
    seats = make_bots(game, bots, rng)
    chance = game.chance_action
    for _ in range(max_plies):
        seat = state.to_move
        if seat is None:
            return state, False
        state.apply(chance(state, dealer) if seat == DEALER else seats[seat].choose(state))
    return state, state.to_move is not None


def row_of(game: Game, state: State, seed: int, *, capped: bool = False,
           text: str | None = None, evaluator: str | None = None) -> GameRow:
    """The :class:`GameRow` of a played (or replayed) game; with ``evaluator`` (a level of
    ``kifu.bots.evaluate``) its decisiveness is the evaluator's."""
    from kifu.lab.quality import measure

    module = games.metrics_of(game.id)
    counts = module.metrics(state)
    result = state.result()
    order, quality, kinds = measure(game.id, state, evaluator, seed)
    return GameRow(seed, len(state.history), capped,
                   None if result is None else tuple(result.scores),
                   None if result is None else tuple(result.ranks),
                   tuple(counts[name] for name in module.METRICS), text, order, quality,
                   kinds)


def pairs_of(setup: Setup) -> tuple[tuple[int, int], ...]:
    """The compared pairs: ``setup.pairs``, or every pair ``a < b``."""
    k = len(setup.rules)
    return setup.pairs or tuple((a, b) for a in range(k) for b in range(a + 1, k))


def _chunk(job: tuple[Setup, list[int]]) -> Chunk:
    """One chunk: every seed of it under every rule set, folded into running sums (module
    level: pickled)."""
    setup, seeds = job
    game = games.get(setup.game)
    variants = [game.parse_rules(spec) for spec in setup.rules]
    layout = Layout.of(setup.game, setup.players)
    pairs = pairs_of(setup)
    out = Chunk([SetStats.empty(layout) for _ in variants],
                [PairStats.empty(layout) for _ in pairs],
                [[] for _ in variants] if setup.records else None)
    for seed in seeds:
        values = []
        rows = []
        for r, variant in enumerate(variants):
            state, capped = play_game(game, setup.bots, seed, variant, setup.max_plies)
            text = None
            if setup.records:
                from kifu.notation.record import format_record
                from kifu.notation.replay import record_from_actions

                text = format_record(record_from_actions(
                    game, list(setup.bots), state.history, variant=variant,
                    headers={"Seed": str(seed)}))
                assert out.texts is not None
                out.texts[r].append(text)
            if setup.decisiveness is None:
                row = row_of(game, state, seed, capped=capped)
            else:
                row = row_of(game, state, seed, capped=capped, evaluator=setup.decisiveness)
            rows.append(row)
            values.append(out.sets[r].add(layout, row))
        for p, (a, b) in enumerate(pairs):
            out.pairs[p].add(values[a], values[b], rows[a], rows[b])
    return out


class Simulation(msgspec.Struct):
    """The outcome of a simulation: per rule set and per compared pair the running sums,
    and (asked with ``records=True``) every record's text, ``texts[r][i]`` for game ``i``
    under rule set ``r``."""

    setup: Setup
    seed: int
    games: int
    sets: list[SetStats]
    pairs: list[PairStats]
    texts: list[list[str]] | None = None


def rule_sets(game: Game, rules: Sequence[str], sets: Sequence[str]) -> list[str]:
    """The canonical specs to compare: every ``--rules`` (default: the game's default
    rules), then, with ``--set``, the first of them with those fields changed."""
    from kifu.notation.diff import apply_sets

    specs = list(rules) or [game.rules_spec()]
    variants = [game.parse_rules(s) for s in specs]
    if sets:
        variants.append(apply_sets(game, variants[0], sets))
    return [game.rules_spec(v) for v in variants]


def check_bots(game: Game, players: int, bots: Sequence[str]) -> tuple[str, ...]:
    """The bot of every seat: one name for all, or one per seat (checked by the registry)."""
    names = list(bots)
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise VariantError(f"--bots names {len(names)} bots for {players} players")
    for seat, name in enumerate(names):
        make_bot(game, name, seat, Rng(0))  # an unknown name is refused here, with the list
    return tuple(names)


def simulate(game_id: str, players: int, games_count: int, seed: int, rules: Sequence[str],
             bots: Sequence[str], *, max_plies: int = MAX_PLIES, records: bool = False,
             workers: int = 1, dask: str | None = None, chunk_size: int = GAMES_PER_CHUNK,
             on_progress: Callable[[int], None] | None = None,
             pairs: Sequence[tuple[int, int]] = (), decisiveness: str | None = None,
             ) -> Simulation:
    """Play ``games_count`` games (seeds ``seed``, ``seed + 1``, ...) under every rule set
    of ``rules`` (specs, e.g. from :func:`rule_sets`) and compare ``pairs`` (every pair by
    default). ``on_progress(k)`` is told of each chunk of ``k`` seeds done, in order.
    ``decisiveness``: a level of ``kifu.bots.evaluate`` to measure decisiveness by the
    evaluator (None: by the score leader)."""
    game = games.get(game_id)
    game.check_players(players)
    if games_count < 1:
        raise VariantError(f"--games must be at least 1, not {games_count}")
    if max_plies < 1:
        raise VariantError(f"--max-plies must be at least 1, not {max_plies}")
    specs = tuple(game.rules_spec(game.parse_rules(s)) for s in rules)
    if not specs:
        raise VariantError("simulate needs at least one rule set")
    for spec in specs:  # a variant the player count cannot play is refused before any game
        game.new_state(players, game.parse_rules(spec))
    if decisiveness is not None:
        from kifu.bots.evaluate import LEVELS

        if decisiveness not in LEVELS:
            raise VariantError(f"--decisiveness {decisiveness!r}: score or an evaluator level "
                               f"({', '.join(LEVELS)})")
    setup = Setup(game.id, players, check_bots(game, players, bots), specs, max_plies, records,
                  tuple((int(a), int(b)) for a, b in pairs), decisiveness)
    layout = Layout.of(game.id, players)
    jobs = ((setup, list(range(seed + k, seed + min(k + chunk_size, games_count))))
            for k in range(0, games_count, chunk_size))
    total = Chunk([SetStats.empty(layout) for _ in specs],
                  [PairStats.empty(layout) for _ in pairs_of(setup)],
                  [[] for _ in specs] if records else None)
    for part in map_chunks(_chunk, jobs, workers=workers, dask=dask):
        total.merge(part)
        if on_progress is not None:
            on_progress(part.sets[0].games)
    return Simulation(setup, seed, games_count, total.sets, total.pairs, total.texts)


def from_rows(setup: Setup, seed: int, rows: Sequence[Sequence[GameRow]]) -> Simulation:
    """A :class:`Simulation` of games already played: ``rows[r][i]`` is game ``i`` under
    rule set ``r`` (paired by ``i``; the tests pair independent games this way to see what
    a report calls when nothing changes)."""
    layout = Layout.of(setup.game, setup.players)
    total = Chunk([SetStats.empty(layout) for _ in setup.rules],
                  [PairStats.empty(layout) for _ in pairs_of(setup)])
    count = len(rows[0])
    for i in range(count):
        values = [st.add(layout, rs[i]) for st, rs in zip(total.sets, rows, strict=True)]
        for p, (a, b) in enumerate(pairs_of(setup)):
            total.pairs[p].add(values[a], values[b], rows[a][i], rows[b][i])
    return Simulation(setup, seed, count, total.sets, total.pairs)


def records_text(sim: Simulation) -> str:
    """Every record of a simulation (asked with ``records=True``), rule set after rule set,
    one blank line apart: the corpus of ``kifu simulate -o``."""
    return "\n".join(text for texts in sim.texts or [] for text in texts)


# --- the metrics --------------------------------------------------------------------------

class MetricInfo(msgspec.Struct, frozen=True):
    """A metric of the report: its name, its group (``length``, ``score``, ``outcome``,
    ``quality``, ``seat``, ``turn``, ``event``, ``kind``), what it counts, and whether it
    is a rate (0 or 1 a game: its mean is a share, with Wilson's interval, and its
    differences are in points of percentage)."""

    name: str
    group: str
    meaning: str
    rate: bool = False


_WORDS = {  # group or name -> (word when B is lower, word when higher, unit)
    "plies": ("shorter", "longer", "plies"),
    "turns": ("shorter", "longer", "turns"),
    "rounds": ("shorter", "longer", "rounds"),
    "score": ("lower", "higher", "points"),
    "margin": ("narrower", "wider", "points"),
    "spread": ("narrower", "wider", "points"),
    "rate": ("less often", "more often", "pp"),
    "rank": ("better", "worse", "places"),
    "event": ("fewer", "more", "a game"),
    "decisiveness": ("earlier", "later", "of the game"),
    "branching": ("fewer", "more", "choices"),
}
POSITIONS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
"""The names of the positions in the turn order."""
HISTOGRAMS = ("plies", "scores", "lead_changes", "decisions")
"""The distributions a report keeps (drawn only where they vary)."""


def metric_infos(game_id: str, players: int) -> list[MetricInfo]:
    """Every metric of a report for ``players`` seats of ``game_id``, in report order."""
    from kifu.lab.quality import QUALITY, QUALITY_RATES, action_kinds

    module = games.metrics_of(game_id)
    own = module.METRICS
    rates = getattr(module, "RATES", frozenset())
    out = [MetricInfo("plies", "length", "actions in the game, the dealer's included")]
    for name in ("turns", "rounds"):
        if name in own:
            out.append(MetricInfo(name, "length", own[name]))
    out += [
        MetricInfo("score_mean", "score", "the seats' mean score"),
        MetricInfo("score_top", "score", "the highest score (the winner's)"),
        MetricInfo("margin", "score", "the highest score minus the second highest"),
        MetricInfo("spread", "score", "the highest score minus the lowest"),
        MetricInfo("tie", "outcome", "1 when two or more seats share first place", True),
    ]
    out += [MetricInfo(name, "quality", meaning, name in QUALITY_RATES)
            for name, meaning in QUALITY.items()]
    for s in range(players):
        out.append(MetricInfo(f"win_p{s}", "seat", f"1 when p{s} placed first (shared or not)",
                              True))
    for s in range(players):
        out.append(MetricInfo(f"rank_p{s}", "seat", f"p{s}'s place (1 = first)"))
    for s in range(players):
        out.append(MetricInfo(f"score_p{s}", "seat", f"p{s}'s score"))
    for k in range(players):
        out.append(MetricInfo(f"win_{POSITIONS[k]}", "turn",
                              f"1 when the {POSITIONS[k]} player in the turn order placed "
                              f"first (shared or not)", True))
    for k in range(players):
        out.append(MetricInfo(f"rank_{POSITIONS[k]}", "turn",
                              f"the {POSITIONS[k]} player's place (1 = first)"))
    out += [MetricInfo(name, "event", meaning, name in rates) for name, meaning in own.items()
            if name not in ("turns", "rounds")]
    out += [MetricInfo(f"act_{kind}", "kind", f"{kind} actions chosen by the seats")
            for kind in action_kinds(game_id)]
    return out


def _words(info: MetricInfo) -> tuple[str, str, str]:
    name = info.name
    if info.group == "length":
        return _WORDS[name]
    if name in ("margin", "spread", "decisiveness", "branching"):
        return _WORDS[name]
    if info.rate:
        return _WORDS["rate"]
    if name.startswith("rank_"):
        return _WORDS["rank"]
    if info.group in ("score", "seat", "turn"):
        return _WORDS["score"]
    return _WORDS["event"]


class Layout(msgspec.Struct, frozen=True):
    """Where each metric sits in a game's value vector, and how to fill it."""

    game: str
    players: int
    names: tuple[str, ...]
    own: tuple[str, ...]
    rates: frozenset[str]

    @classmethod
    def of(cls, game_id: str, players: int) -> Layout:
        infos = metric_infos(game_id, players)
        return cls(game_id, players, tuple(i.name for i in infos),
                   tuple(games.metrics_of(game_id).METRICS),
                   frozenset(i.name for i in infos if i.rate))

    def values(self, row: GameRow) -> list[float | None]:
        """Every metric's value in one game (``None`` where undefined: a score of an
        unfinished game)."""
        from kifu.lab.quality import QUALITY, action_kinds

        v: dict[str, float | None] = {"plies": float(row.plies)}
        for name, x in zip(self.own, row.events, strict=True):
            v[name] = float(x)
        for name, q in zip(QUALITY, row.quality, strict=False):
            v[name] = q
        for kind, c in zip(action_kinds(self.game), row.kinds, strict=False):
            v[f"act_{kind}"] = float(c)
        scores, ranks, n = row.scores, row.ranks, self.players
        if scores is not None and ranks is not None:
            top = sorted(scores, reverse=True)
            v["score_mean"] = sum(scores) / len(scores)
            v["score_top"] = float(top[0])
            v["margin"] = float(top[0] - top[1]) if len(top) > 1 else 0.0
            v["spread"] = float(top[0] - top[-1])
            v["tie"] = float(sum(1 for r in ranks if r == 1) > 1)
            for s in range(n):
                v[f"win_p{s}"] = float(ranks[s] == 1)
                v[f"rank_p{s}"] = float(ranks[s])
                v[f"score_p{s}"] = float(scores[s])
            order = row.order or tuple(range(n))
            for k, s in enumerate(order[:n]):
                v[f"win_{POSITIONS[k]}"] = float(ranks[s] == 1)
                v[f"rank_{POSITIONS[k]}"] = float(ranks[s])
        return [v.get(name) for name in self.names]


def metric_values(game_id: str, players: int,
                  rows: Sequence[GameRow]) -> dict[str, list[float | None]]:
    """Every metric's value in each game (``None`` where undefined)."""
    layout = Layout.of(game_id, players)
    columns: list[list[float | None]] = [[] for _ in layout.names]
    for row in rows:
        for col, x in zip(columns, layout.values(row), strict=True):
            col.append(x)
    return dict(zip(layout.names, columns, strict=True))


# --- the running sums ---------------------------------------------------------------------

class SetStats(msgspec.Struct):
    """One rule set's games, as running sums: each metric's :class:`Moments`, the
    distributions of :data:`HISTOGRAMS` (value -> games), the single-winner games by seat
    and by position in the turn order, and which seat moved first."""

    games: int
    finished: int
    capped: int
    moments: list[Moments]
    hists: dict[str, dict[int, int]]
    single_seat: list[int]
    single_turn: list[int]
    first_seat: list[int]

    @classmethod
    def empty(cls, layout: Layout) -> SetStats:
        n = layout.players
        return cls(0, 0, 0, [Moments() for _ in layout.names], {h: {} for h in HISTOGRAMS},
                   [0] * n, [0] * n, [0] * n)

    def add(self, layout: Layout, row: GameRow) -> list[float | None]:
        """Take one game; returns its value vector."""
        values = layout.values(row)
        for m, x in zip(self.moments, values, strict=True):
            if x is not None:
                m.add(x)
        self.games += 1
        self.capped += row.capped
        h = self.hists
        h["plies"][row.plies] = h["plies"].get(row.plies, 0) + 1
        for name in ("lead_changes", "decisions"):
            k = layout.names.index(name)
            if values[k] is not None:
                x = int(values[k])  # type: ignore[arg-type]
                h[name][x] = h[name].get(x, 0) + 1
        if row.order:
            self.first_seat[row.order[0]] += 1
        if row.ranks is not None and row.scores is not None:
            self.finished += 1
            for s in row.scores:
                h["scores"][s] = h["scores"].get(s, 0) + 1
            firsts = [s for s, r in enumerate(row.ranks) if r == 1]
            if len(firsts) == 1:
                self.single_seat[firsts[0]] += 1
                order = row.order or tuple(range(layout.players))
                self.single_turn[order.index(firsts[0])] += 1
        return values

    def merge(self, other: SetStats) -> None:
        self.games += other.games
        self.finished += other.finished
        self.capped += other.capped
        for m, o in zip(self.moments, other.moments, strict=True):
            m.merge(o)
        for name, counts in other.hists.items():
            mine = self.hists.setdefault(name, {})
            for x, c in counts.items():
                mine[x] = mine.get(x, 0) + c
        for a, b in ((self.single_seat, other.single_seat),
                     (self.single_turn, other.single_turn),
                     (self.first_seat, other.first_seat)):
            for k, c in enumerate(b):
                a[k] += c


class PairStats(msgspec.Struct):
    """Two rule sets on the same seeds: each metric's paired differences B - A as running
    sums, the seeds finished under both and those whose winners differ."""

    diffs: list[Moments]
    both: int = 0
    moved: int = 0

    @classmethod
    def empty(cls, layout: Layout) -> PairStats:
        return cls([Moments() for _ in layout.names])

    def add(self, va: Sequence[float | None], vb: Sequence[float | None], ra: GameRow,
            rb: GameRow) -> None:
        for m, x, y in zip(self.diffs, va, vb, strict=True):
            if x is not None and y is not None:
                m.add(y - x)
        if ra.ranks is not None and rb.ranks is not None:
            self.both += 1
            self.moved += _winners(ra) != _winners(rb)

    def merge(self, other: PairStats) -> None:
        for m, o in zip(self.diffs, other.diffs, strict=True):
            m.merge(o)
        self.both += other.both
        self.moved += other.moved


class Chunk(msgspec.Struct):
    """What a chunk sends back: its rule sets' and pairs' sums (and texts, if kept)."""

    sets: list[SetStats]
    pairs: list[PairStats]
    texts: list[list[str]] | None = None

    def merge(self, other: Chunk) -> None:
        for a, b in zip(self.sets, other.sets, strict=True):
            a.merge(b)
        for p, q in zip(self.pairs, other.pairs, strict=True):
            p.merge(q)
        if self.texts is not None and other.texts is not None:
            for t, u in zip(self.texts, other.texts, strict=True):
                t.extend(u)


def _winners(row: GameRow) -> tuple[int, ...]:
    return tuple(s for s, r in enumerate(row.ranks or ()) if r == 1)


# --- the report ---------------------------------------------------------------------------

class Figure(msgspec.Struct, frozen=True):
    """An estimate with its 95% interval (``low``/``high`` ``None`` where undefined: fewer
    than two samples) over ``n`` samples."""

    estimate: float | None
    low: float | None
    high: float | None
    n: int


def _figure(iv: Any, digits: int = 4) -> Figure:
    def r(x: float) -> float | None:
        return None if math.isnan(x) else round(x, digits)

    return Figure(r(iv.estimate), r(iv.low), r(iv.high), iv.n)


class MetricSummary(msgspec.Struct, frozen=True):
    """A metric over the games of one rule set: the mean with its 95% interval (Student's t;
    Wilson's for a rate, a metric that is 0 or 1 a game), the standard deviation, the
    smallest and largest value."""

    mean: Figure
    sd: float | None
    min: float | None
    max: float | None


class SeatSummary(msgspec.Struct, frozen=True):
    """One seat (or one position in the turn order) over the finished games: first places
    (shared or not), the win rate (Wilson interval), the mean place and the mean score
    (t intervals; the score is left out, ``n`` 0, for a position in the turn order)."""

    seat: int
    wins: int
    win_rate: Figure
    mean_rank: Figure
    mean_score: Figure


class Fairness(msgspec.Struct, frozen=True):
    """Is every seat (or position) equally likely to win? Pearson's chi-square over the
    games with a single winner (``counts`` per seat); ``fair`` is ``p_value >= 0.05``;
    ``small`` warns that an expected count is below 5."""

    games: int
    counts: list[int]
    chi2: float
    df: int
    p_value: float
    fair: bool
    small: bool


class RuleSetSummary(msgspec.Struct, frozen=True):
    """Everything measured under one rule set. ``turns`` is the seat summary by position in
    the turn order (first player, second, ...), ``turn_fairness`` its chi-square, and
    ``first_seats`` how often each seat moved first; ``notes`` say where a metric reads
    differently under these rules."""

    rules: str
    games: int
    finished: int
    capped: int
    ties: int
    tie_rate: Figure
    metrics: dict[str, MetricSummary]
    seats: list[SeatSummary]
    fairness: Fairness | None
    turns: list[SeatSummary] = []
    turn_fairness: Fairness | None = None
    first_seats: list[int] = []
    notes: list[str] = []


class Change(msgspec.Struct, frozen=True):
    """A metric under B minus under A, paired by seed: the mean difference with its own 95%
    interval, its p-value (paired t test) and its p-value adjusted over the report's family
    (Holm); ``changed`` when the adjusted p-value is below 0.05; ``edge`` when the call is
    near its edge (:func:`kifu.lab.multiple.near_edge`); ``effect`` the difference in
    units of the metric's standard deviation (Cohen's d over A's and B's games; null when
    both are constant and equal); ``new`` when the metric is 0 in every game of A and not
    of B; the verdict in words."""

    difference: Figure
    changed: bool
    verdict: str
    p_value: float | None = None
    adjusted: float | None = None
    edge: bool = False
    effect: float | None = None
    new: bool = False


class Comparison(msgspec.Struct, frozen=True):
    """Rule set ``b`` against rule set ``a`` (indexes into ``rules``), on the same seeds:
    ``winner_changed`` is the share of seeds (both games finished) whose winners differ;
    ``order`` lists the metrics by decreasing effect size, the calls first."""

    a: int
    b: int
    rules_a: str
    rules_b: str
    paired: int
    winners_changed: int
    winner_changed: Figure
    changes: dict[str, Change]
    order: list[str] = []


class Histogram(msgspec.Struct, frozen=True):
    """A distribution per rule set: ``counts[r][k]`` values of rule set ``r`` in
    ``[edges[k], edges[k + 1])`` (the same bins for every rule set); ``varies`` is false
    when every value is the same (the report then does not draw it)."""

    metric: str
    edges: list[int]
    counts: list[list[int]]
    varies: bool = True


class Family(msgspec.Struct, frozen=True):
    """The family of calls: ``method`` (``holm``), ``tests`` (every metric of every
    comparison with a difference in some game), the level ``alpha``, ``chance`` (how many
    calls per-metric 95% intervals would make by chance alone: ``alpha * tests``),
    ``calls`` made and ``unadjusted`` (how many per-metric intervals exclude 0)."""

    method: str
    tests: int
    alpha: float
    chance: float
    calls: int
    unadjusted: int


class Confirmed(msgspec.Struct, frozen=True):
    """One call re-tested on a fresh block of seeds: the first verdict, the fresh one, its
    Holm-adjusted p-value over the calls confirmed, and whether it replicates (same
    direction, adjusted p < 0.05)."""

    a: int
    b: int
    metric: str
    first: str
    fresh: str
    adjusted: float
    replicates: bool


class Confirmation(msgspec.Struct, frozen=True):
    """``--confirm``: the called changes re-run on seeds ``seed .. seed + games - 1``."""

    seed: int
    games: int
    calls: list[Confirmed]


class TargetValue(msgspec.Struct, frozen=True):
    """The target metric under one value of a sweep: its mean with its interval, whether
    the mean meets the target and whether the whole interval does."""

    value: str
    mean: Figure
    meets: bool
    surely: bool


class Sweep(msgspec.Struct, frozen=True):
    """``--sweep FIELD=V1,V2,...``: rule set ``k`` is the first rule set with ``field`` set
    to ``values[k]``; each value is compared with the first. With ``--target``: the
    target (``plies<=80``), each value's figure, the values whose mean meets it
    (``meeting``) and whose whole interval does (``surely``), the meeting value whose mean
    is nearest the target (``closest``: the value that hits it), and where a numeric field
    crosses it between two neighbouring values (linear interpolation of the means)."""

    field: str
    values: list[str]
    target: str | None = None
    targets: list[TargetValue] = []
    meeting: list[str] = []
    surely: list[str] = []
    closest: str | None = None
    crossing: float | None = None


class SimulationReport(msgspec.Struct, frozen=True):
    """The report of ``kifu simulate --json`` (``kifu schema simulate``)."""

    format: int
    game: str
    players: int
    games: int
    seed: int
    bots: list[str]
    max_plies: int
    rules: list[str]
    metrics: list[MetricInfo]
    rule_sets: list[RuleSetSummary]
    comparisons: list[Comparison]
    histograms: list[Histogram]
    family: Family | None = None
    confirmation: Confirmation | None = None
    sweep: Sweep | None = None
    decisiveness: str = "score"


def simulate_json_schema() -> dict[str, Any]:
    """The JSON Schema of :class:`SimulationReport` (``kifu schema simulate``)."""
    return msgspec.json.schema(SimulationReport)


def _fairness_of(counts: list[int]) -> Fairness | None:
    from kifu.lab.stats import seat_fairness

    test = seat_fairness(counts)
    return None if test is None else Fairness(
        sum(counts), test.counts, round(test.chi2, 4), test.df, round(test.p_value, 6),
        test.p_value >= 0.05, test.small)


def _notes(game_id: str, spec: str) -> list[str]:
    from kifu.lab.quality import notes

    return notes(game_id, spec)


def summary_of(layout: Layout, spec: str, st: SetStats) -> RuleSetSummary:
    """The figures of one rule set from its running sums."""
    from kifu.lab.stats import proportion_ci

    index = {name: k for k, name in enumerate(layout.names)}
    metrics = {}
    for name, m in zip(layout.names, st.moments, strict=True):
        if name in layout.rates:
            mean = proportion_ci(int(m.total), m.n) if m.n else m.interval()
        else:
            mean = m.interval()
        sd = None if m.n < 2 else round(m.sd(), 4)
        metrics[name] = MetricSummary(_figure(mean), sd, m.lo, m.hi)
    n = layout.players

    def seat(k: int, win: str, rank: str, score: str | None) -> SeatSummary:
        w = st.moments[index[win]]
        wins = int(w.total)
        mean_score = st.moments[index[score]].interval() if score else Moments().interval()
        return SeatSummary(k, wins, _figure(proportion_ci(wins, st.finished)),
                           _figure(st.moments[index[rank]].interval()), _figure(mean_score))

    seats = [seat(s, f"win_p{s}", f"rank_p{s}", f"score_p{s}") for s in range(n)]
    turns = [seat(k, f"win_{POSITIONS[k]}", f"rank_{POSITIONS[k]}", None) for k in range(n)]
    ties = st.finished - sum(st.single_seat)
    return RuleSetSummary(spec, st.games, st.finished, st.capped, ties,
                          _figure(proportion_ci(ties, st.finished)), metrics, seats,
                          _fairness_of(st.single_seat), turns, _fairness_of(st.single_turn),
                          list(st.first_seat), _notes(layout.game, spec))


def summarize(game_id: str, players: int, spec: str, rows: Sequence[GameRow]) -> RuleSetSummary:
    """The figures of one rule set's games (the games need not be paired with anything)."""
    layout = Layout.of(game_id, players)
    st = SetStats.empty(layout)
    for row in rows:
        st.add(layout, row)
    return summary_of(layout, spec, st)


def _num(x: float, scale: float, digits: int | None = None) -> str:
    """A magnitude with as many decimals as its scale needs: 51, 4.2, 0.31."""
    if digits is None:
        digits = 0 if scale >= 10 else 1 if scale >= 1 else 2
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.00"


def _interval_words(info: MetricInfo, iv: Any) -> tuple[str, str]:
    """The difference in words, the direction word and the rest: ``("shorter", "by 51
    plies [48, 54]")``, bounds as magnitudes, decimals enough that the bound nearer zero
    does not read as zero."""
    low, high, est = iv.low, iv.high, iv.estimate
    less, more, unit = _words(info)
    k = 100.0 if unit == "pp" else 1.0
    scale = max(abs(low), abs(high)) * k
    word = less if est < 0 else more
    a, b = sorted((abs(low) * k, abs(high) * k)) if (low > 0) == (high > 0) else \
        (low * k, high * k)
    digits = 0 if scale >= 10 else 1 if scale >= 1 else 2
    while float(f"{abs(a):.{digits}f}") == 0 and a != 0 and digits < 6:
        digits += 1
    return word, f"by {_num(abs(est) * k, scale, digits)} {unit} " \
                 f"[{_num(a, scale, digits)}, {_num(b, scale, digits)}]"


def verdict(info: MetricInfo, iv: Any, adjusted: float | None = None) -> tuple[bool, str]:
    """Whether the paired difference ``iv`` (B - A) shows a change, and the words for it.
    Without ``adjusted`` (a p-value adjusted over the family) a change is called when the
    interval excludes zero: ``shorter by 51 plies [48, 54]``; otherwise ``no detectable
    change (-0.4 [-1.2, 0.3])``. With it, a change is called only when ``adjusted`` is
    below 0.05 (``(near the edge: adjusted p 0.021)`` when it is at least 0.005), and an
    interval that excludes zero on its own without surviving the family reads ``not
    called: +4.7 pp [1.1, 8.2] on its own, adjusted p 0.31``."""
    from kifu.lab.multiple import ALPHA, near_edge

    low, high, est = iv.low, iv.high, iv.estimate
    if iv.n < 2 or math.isnan(low) or math.isnan(high):
        return False, f"too few paired games ({iv.n})"
    unit = _words(info)[2]
    k = 100.0 if unit == "pp" else 1.0
    if low == high == est == 0.0:
        return False, "no change in any game"
    scale = max(abs(low), abs(high)) * k
    own = iv.excludes(0.0)
    called = own if adjusted is None else (adjusted < ALPHA and own)
    if called:
        word, rest = _interval_words(info, iv)
        edge = "" if adjusted is None or not near_edge(adjusted) else \
            f" (near the edge: adjusted p {adjusted:.2g})"
        return True, f"{word} {rest}{edge}"
    sign = "+" if float(_num(est * k, scale)) > 0 else ""
    if own:
        return False, f"not called: {sign}{_num(est * k, scale)} {unit} " \
                      f"[{_num(low * k, scale)}, {_num(high * k, scale)}] on its own, " \
                      f"adjusted p {adjusted:.2g}"
    return False, f"no detectable change ({sign}{_num(est * k, scale)} {unit} " \
                  f"[{_num(low * k, scale)}, {_num(high * k, scale)}])"


def _effect(diff: float, a: Moments, b: Moments) -> float | None:
    """Cohen's d: the mean difference over the pooled standard deviation of A and B."""
    va = a.variance() if a.n > 1 else 0.0
    vb = b.variance() if b.n > 1 else 0.0
    pooled = math.sqrt((va + vb) / 2)
    if pooled == 0.0:
        return None if diff == 0 else math.copysign(999.0, diff)
    return round(diff / pooled, 4)


def _compare(layout: Layout, infos: Sequence[MetricInfo], a: int, b: int,
             specs: Sequence[str], sets: Sequence[SetStats], pair: PairStats,
             adjusted: dict[str, float] | None) -> Comparison:
    from kifu.lab.stats import proportion_ci

    changes = {}
    for info in infos:
        k = layout.names.index(info.name)
        d = pair.diffs[k]
        iv = d.interval()
        adj = None if adjusted is None else adjusted.get(info.name, 1.0)
        changed, words = verdict(info, iv, adj)
        ma, mb = sets[a].moments[k], sets[b].moments[k]
        new = ma.n > 0 and ma.lo == ma.hi == 0 and mb.n > 0 and (mb.lo != 0 or mb.hi != 0)
        if new and not words.startswith(("no change", "too few")):
            words = f"new (0 under {_letter(a)}): {words}"
        p = d.p_value()
        from kifu.lab.multiple import near_edge

        changes[info.name] = Change(
            _figure(iv), changed, words, None if math.isnan(p) else round(p, 6),
            None if adj is None else round(adj, 6),
            bool(changed and adj is not None and near_edge(adj)),
            None if d.n == 0 else _effect(d.mean, ma, mb), new)

    def key(name: str) -> tuple[int, float]:
        ch = changes[name]
        return (0 if ch.changed else 1, -abs(ch.effect or 0.0))

    order = sorted(changes, key=key)
    return Comparison(a, b, specs[a], specs[b], pair.both, pair.moved,
                      _figure(proportion_ci(pair.moved, pair.both)), changes, order)


def _letter(k: int) -> str:
    return chr(ord("A") + k) if k < 26 else f"R{k}"


def histogram(metric: str, columns: Sequence[Sequence[float] | dict[int, int]]) -> Histogram:
    """Integer-aligned bins shared by every column (at most :data:`MAX_BINS`); a column is
    a list of values or a ``value -> count`` table."""
    tables = [c if isinstance(c, dict) else _count(c) for c in columns]
    every = [x for t in tables for x in t]
    if not every:
        return Histogram(metric, [], [[] for _ in columns], False)
    lo, hi = min(every), max(every)
    width = max(1, math.ceil((hi - lo + 1) / MAX_BINS))
    bins = (hi - lo) // width + 1
    edges = [lo + k * width for k in range(bins + 1)]
    counts = []
    for t in tables:
        c = [0] * bins
        for v, k in t.items():
            c[(v - lo) // width] += k
        counts.append(c)
    return Histogram(metric, edges, counts, lo != hi)


def _count(values: Sequence[float]) -> dict[int, int]:
    out: dict[int, int] = {}
    for v in values:
        out[int(v)] = out.get(int(v), 0) + 1
    return out


def family(layout: Layout, pairs: Sequence[PairStats],
           method: str = "holm") -> tuple[Family, list[dict[str, float]]]:
    """The report's family of tests (every metric of every pair whose differences are
    not all 0) and each test's adjusted p-value, per pair."""
    from kifu.lab.multiple import ALPHA, adjust, chance_calls

    keys: list[tuple[int, str]] = []
    ps: list[float] = []
    unadjusted = 0
    for p, pair in enumerate(pairs):
        for name, d in zip(layout.names, pair.diffs, strict=True):
            if d.n < 2 or (d.lo == d.hi == 0):
                continue  # no difference in any game: no test (it could never be called)
            keys.append((p, name))
            ps.append(d.p_value())
            unadjusted += d.interval().excludes(0.0)
    adj = adjust(ps, method)
    out: list[dict[str, float]] = [{} for _ in pairs]
    for (p, name), x in zip(keys, adj, strict=True):
        out[p][name] = x
    calls = sum(1 for x in adj if x < ALPHA)
    return Family(method, len(ps), ALPHA, round(chance_calls(len(ps)), 2), calls,
                  unadjusted), out


def analyse(sim: Simulation, method: str = "holm") -> SimulationReport:
    """The report of a simulation: every rule set summarised, every compared pair compared,
    the calls controlled over the report's family (``holm``, or ``bh``)."""
    setup = sim.setup
    gid, n = setup.game, setup.players
    specs = list(setup.rules)
    layout = Layout.of(gid, n)
    # a kind of action no seat ever chose under any rule set (the dealer's) is left out
    infos = [i for i in metric_infos(gid, n) if i.group != "kind" or any(
        st.moments[k].hi for st in sim.sets for k in [layout.names.index(i.name)])]
    sets = [summary_of(layout, spec, st) for spec, st in zip(specs, sim.sets, strict=True)]
    fam, adjusted = family(layout, sim.pairs, method)
    comparisons = [_compare(layout, infos, a, b, specs, sim.sets, pair, adj)
                   for (a, b), pair, adj in zip(pairs_of(setup), sim.pairs, adjusted,
                                                strict=True)]
    hists = [histogram(h, [st.hists[h] for st in sim.sets]) for h in HISTOGRAMS]
    return SimulationReport(FORMAT, gid, n, sim.games, sim.seed, list(setup.bots),
                            setup.max_plies, specs, infos, sets, comparisons, hists, fam,
                            decisiveness=setup.decisiveness or "score")


def compare(game_id: str, players: int, a: int, b: int, specs: Sequence[str],
            rows_a: Sequence[GameRow], rows_b: Sequence[GameRow]) -> Comparison:
    """Rule set ``b`` against ``a``, game by game (``rows_a[i]`` and ``rows_b[i]`` were
    played from the same seed), each metric on its own (no family: :func:`analyse` has
    it)."""
    if len(rows_a) != len(rows_b):
        raise ValueError("paired rule sets need the same games")
    layout = Layout.of(game_id, players)
    sa, sb = SetStats.empty(layout), SetStats.empty(layout)
    pair = PairStats.empty(layout)
    for x, y in zip(rows_a, rows_b, strict=True):
        pair.add(sa.add(layout, x), sb.add(layout, y), x, y)
    stats = [SetStats.empty(layout) for _ in specs]
    stats[a], stats[b] = sa, sb
    return _compare(layout, metric_infos(game_id, players), a, b, specs, stats, pair, None)


def confirm(sim: Simulation, report: SimulationReport, *, games_count: int | None = None,
            workers: int = 1, dask: str | None = None, chunk_size: int = GAMES_PER_CHUNK,
            on_progress: Callable[[int], None] | None = None) -> SimulationReport:
    """``--confirm``: re-run the report's called changes on the next block of seeds
    (``seed + games`` on, ``games_count`` games, by default as many as the first run) and
    say of each whether it replicates: the same direction and a Holm-adjusted p-value
    below 0.05 over the calls confirmed. Returns the report with its ``confirmation``."""
    from kifu.lab.multiple import holm, replicated

    setup = sim.setup
    pairs = pairs_of(setup)
    calls = [(k, name) for k, c in enumerate(report.comparisons)
             for name in c.order if c.changes[name].changed]
    count = games_count or sim.games
    start = sim.seed + sim.games
    if not calls:
        return msgspec.structs.replace(report, confirmation=Confirmation(start, 0, []))
    wanted = sorted({pairs[k] for k, _ in calls})
    fresh = simulate(setup.game, setup.players, count, start, setup.rules, setup.bots,
                     max_plies=setup.max_plies, workers=workers, dask=dask,
                     chunk_size=chunk_size, on_progress=on_progress, pairs=wanted,
                     decisiveness=setup.decisiveness)
    layout = Layout.of(setup.game, setup.players)
    infos = {i.name: i for i in report.metrics}
    where = {pair: p for p, pair in enumerate(wanted)}
    ps, tests = [], []
    for k, name in calls:
        d = fresh.pairs[where[pairs[k]]].diffs[layout.names.index(name)]
        p = d.p_value()
        ps.append(1.0 if math.isnan(p) else p)
        tests.append(d)
    out = []
    for (k, name), d, adj in zip(calls, tests, holm(ps), strict=True):
        c = report.comparisons[k]
        first = c.changes[name]
        _, words = verdict(infos[name], d.interval(), adj)
        ok = replicated(first.difference.estimate or 0.0, d.mean, adj)
        out.append(Confirmed(c.a, c.b, name, first.verdict, words, round(adj, 6), ok))
    return msgspec.structs.replace(report, confirmation=Confirmation(start, count, out))


# --- as text ------------------------------------------------------------------------------

def format_figure(f: Figure, *, pct: bool = False) -> str:
    """A figure as the report prints it, in the CLI and in the HTML alike: as many decimals
    as its scale needs (``124 [123, 124]``, ``4.5 [4.5, 4.6]``, ``0.31 [0.28, 0.34]``),
    a rate in percent (``33% [31, 35]``)."""
    if f.estimate is None:
        return "-"
    if f.estimate == f.low == f.high == 0:
        return "0"
    k = 100.0 if pct else 1.0
    scale = max(abs(f.estimate * k), abs((f.high or 0) * k))
    est = _num(f.estimate * k, scale)
    if f.low is None or f.high is None:
        return est + ("%" if pct else "")
    return f"{est}{'%' if pct else ''} [{_num(f.low * k, scale)}, {_num(f.high * k, scale)}]"


_fig = format_figure


def _table(rows: list[list[str]], head: list[str]) -> Iterator[str]:
    widths = [max(len(r[k]) for r in [head, *rows]) for k in range(len(head))]
    for r in [head, *rows]:
        yield "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()


def family_sentence(fam: Family) -> str:
    """The family of calls in one sentence (the CLI's and the HTML's)."""
    method = "Holm" if fam.method == "holm" else "Benjamini-Hochberg"
    guard = ("the chance of even one false call in this report is at most 5%"
             if fam.method == "holm" else "at most 5% of the calls are expected to be false")
    return (f"{fam.tests} test(s) in this report: with nothing changed, 95% intervals alone "
            f"would call about {fam.chance:g} of them by chance; calls are made after "
            f"{method} over the whole report ({guard}): {fam.calls} call(s), "
            f"{fam.unadjusted} interval(s) excluding 0 on their own")


def format_text(report: SimulationReport) -> str:
    """The report as plain text (what ``kifu simulate`` prints without ``--json``)."""
    letters = [_letter(k) for k in range(len(report.rules))]
    last = report.seed + report.games - 1
    out = [f"kifu simulate {report.game}: {report.players} players, {report.games} game(s) "
           f"per rule set (seeds {report.seed}..{last}), bots {', '.join(report.bots)}"]
    out += [f"{x} = {spec}" for x, spec in zip(letters, report.rules, strict=True)]
    if report.decisiveness != "score":
        out.append(f"decisiveness by the evaluator (level {report.decisiveness}, the eventual "
                   f"winner's expected share from its own information, at each tenth)")
    for x, rs in zip(letters, report.rule_sets, strict=True):
        out += [f"note ({x}): {note}" for note in rs.notes]
    out.append("")
    out += summary_table(report.metrics, report.players, letters, report.rule_sets)
    if report.sweep is not None:
        out.append("")
        out += sweep_lines(report)
    if report.family is not None and report.comparisons:
        out.append("")
        out.append(family_sentence(report.family) + ".")
    for c in report.comparisons:
        out.append("")
        out.append(f"{letters[c.b]} - {letters[c.a]}, paired on {report.games} seed(s), "
                   f"largest effect first:")
        names = c.order or list(c.changes)
        lines = [[name, c.changes[name].verdict] for name in names]
        lines.append(["winner", f"changes on {_fig(c.winner_changed, pct=True)} of the "
                                f"{c.paired} seed(s) finished under both"])
        out += _table(lines, ["metric", "verdict"])
        called = [n for n in names if c.changes[n].changed]
        edge = [n for n in called if c.changes[n].edge]
        out.append(f"changed: {', '.join(called) if called else 'nothing detectable'}"
                   + (f" (near the edge: {', '.join(edge)}; try --confirm)" if edge else ""))
    if report.confirmation is not None:
        conf = report.confirmation
        out.append("")
        if not conf.calls:
            out.append("--confirm: no change was called, nothing to confirm")
        else:
            out.append(f"--confirm: the calls on seeds {conf.seed}..{conf.seed + conf.games - 1}"
                       f" (Holm over the {len(conf.calls)} call(s)):")
            rows = [[f"{letters[x.b]} - {letters[x.a]}", x.metric,
                     "replicates" if x.replicates else "does not replicate", x.fresh]
                    for x in conf.calls]
            out += _table(rows, ["pair", "metric", "", "on the fresh seeds"])
    return "\n".join(out) + "\n"


def sweep_lines(report: SimulationReport) -> list[str]:
    """The sweep as text (``--sweep``, :mod:`kifu.lab.sweep`): each metric (rows) against
    each value (columns), then the target's answer."""
    sw = report.sweep
    assert sw is not None
    out = [f"--sweep {sw.field}: each metric by value (mean [95% CI]; every value on the "
           f"same seeds, each compared with {sw.field}={sw.values[0]} below)"]
    rows = []
    for info in report.metrics:
        if info.group in ("seat", "kind") or (info.group == "turn" and info.name != "win_first"):
            continue
        rows.append([info.name] + [_fig(rs.metrics[info.name].mean, pct=info.rate)
                                   for rs in report.rule_sets])
    out += _table(rows, [sw.field, *sw.values])
    if sw.target is not None:
        out.append("")
        out.append(f"--target {sw.target}: " + "; ".join(
            f"{r.value}: {_fig(r.mean, pct=_is_rate(report, sw.target))}"
            + (" meets it" if r.surely else " meets it (its interval reaches past)"
               if r.meets else "") for r in sw.targets))
        if sw.closest is None:
            out.append(f"no value meets {sw.target}")
        else:
            sure = "its whole interval meets it" if sw.closest in sw.surely else \
                "its interval reaches past the target: run more games before trusting it"
            out.append(f"the value that hits {sw.target}: {sw.field}={sw.closest} (of those "
                       f"meeting it, the nearest the target; {sure})")
        if sw.crossing is not None:
            out.append(f"the means cross the target near {sw.field}={sw.crossing:g} (linear "
                       "interpolation between neighbouring values: worth a run of its own)")
    return out


def _is_rate(report: SimulationReport, target: str) -> bool:
    name = re.match(r"\s*([a-z][a-z0-9_]*)", target)
    return name is not None and any(i.name == name[1] and i.rate for i in report.metrics)


def summary_table(infos: Sequence[MetricInfo], players: int, labels: Sequence[str],
                  sets: Sequence[RuleSetSummary]) -> list[str]:
    """The per-rule-set figures as a text table, one column per rule set (``labels``)."""
    rows = [["games"] + [f"{s.games} ({s.finished} finished, {s.capped} capped)"
                         for s in sets]]
    for info in infos:
        if info.group in ("seat", "turn"):
            continue
        rows.append([info.name] + [_fig(s.metrics[info.name].mean, pct=info.rate)
                                   if info.name in s.metrics else "-" for s in sets])
    for seat in range(players):
        rows.append([f"p{seat} wins"] + [_fig(s.seats[seat].win_rate, pct=True) for s in sets])
    for seat in range(players):
        rows.append([f"p{seat} mean place"] + [_fig(s.seats[seat].mean_rank) for s in sets])
    for seat in range(players):
        rows.append([f"p{seat} mean score"] + [_fig(s.seats[seat].mean_score) for s in sets])
    rows.append(["seats fair?"] + [_fairness(s.fairness) for s in sets])
    if all(s.turns for s in sets):
        for k in range(players):
            rows.append([f"{POSITIONS[k]} player wins"]
                        + [_fig(s.turns[k].win_rate, pct=True) for s in sets])
        rows.append(["turn order fair?"] + [_fairness(s.turn_fairness) for s in sets])
        rows.append(["moved first (p0..)"] + [" ".join(str(x) for x in s.first_seats)
                                              for s in sets])
    return list(_table(rows, ["per rule set (mean [95% CI])", *labels]))


def _fairness(f: Fairness | None) -> str:
    if f is None:
        return "-"
    verdict_ = "yes" if f.fair else "no"
    small = ", few games" if f.small else ""
    return f"{verdict_} (chi2 {f.chi2:.1f}, {f.df} df, p {f.p_value:.3g}{small})"


__all__ = [
    "Chunk",
    "GameRow",
    "Layout",
    "PairStats",
    "SetStats",
    "Setup",
    "Simulation",
    "SimulationReport",
    "Sweep",
    "TargetValue",
    "analyse",
    "compare",
    "confirm",
    "format_figure",
    "format_text",
    "from_rows",
    "metric_infos",
    "play_game",
    "records_text",
    "row_of",
    "rule_sets",
    "simulate",
    "simulate_json_schema",
    "summarize",
    "summary_table",
    "sweep_lines",
]
