"""``kifu simulate``: what a rule change does to play, measured on paired seeds.

Game ``i`` of a simulation is played from the seed ``S + i`` under *every* rule set (common
random numbers): the dealer's actions come from ``Rng(S + i).fork(0)`` and each seat's bot
from ``.fork(seat + 1)``, exactly as ``kifu play --seed S+i``, so two rule sets start from
the same deal wherever their rules allow it and a difference between them is the rules'
doing, not the cards'. Seeds are cut into chunks and mapped with
:func:`kifu.core.executor.map_chunks` (results in chunk order), and nothing measured depends
on time, so a report is the same bytes whatever the executor.

Each game gives one :class:`GameRow`: its length, result and the game's own event counts
(``kifu/games/<game>/metrics.py``). :func:`analyse` turns the rows into a
:class:`SimulationReport`:

- per rule set, every metric's mean with its 95% t interval, seat win rates (Wilson),
  mean rank and score per seat, ties, games cut by the safety cap, and a chi-square test
  of seat fairness;
- per pair of rule sets, the paired difference B - A of every metric over the seeds (a t
  interval on the per-seed differences), the share of seeds whose winner changes, and a
  verdict per metric that calls a change only when the interval excludes zero.

The intervals are per metric (95% each): with many metrics a few "changes" at the edge of
their interval are expected by chance (docs/designers.md).
"""

from __future__ import annotations

import math
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
    """What every chunk needs: the game, the seats' bots, the rule sets (specs) and the cap."""

    game: str
    players: int
    bots: tuple[str, ...]
    rules: tuple[str, ...]
    max_plies: int = MAX_PLIES
    records: bool = False


class GameRow(msgspec.Struct, array_like=True, gc=False):
    """One game under one rule set: its seed, length, whether the safety cap cut it, the
    result (``None`` when unfinished), the game's own counts (in the order of its
    ``METRICS``) and, when asked for, the canonical record."""

    seed: int
    plies: int
    capped: bool
    scores: tuple[int, ...] | None
    ranks: tuple[int, ...] | None
    events: tuple[int, ...]
    text: str | None = None


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
           text: str | None = None) -> GameRow:
    """The :class:`GameRow` of a played (or replayed) game."""
    module = games.metrics_of(game.id)
    counts = module.metrics(state)
    result = state.result()
    return GameRow(seed, len(state.history), capped,
                   None if result is None else tuple(result.scores),
                   None if result is None else tuple(result.ranks),
                   tuple(counts[name] for name in module.METRICS), text)


def _chunk(job: tuple[Setup, list[int]]) -> list[list[GameRow]]:
    """One chunk: every seed of it under every rule set (module level: pickled)."""
    setup, seeds = job
    game = games.get(setup.game)
    variants = [game.parse_rules(spec) for spec in setup.rules]
    out = []
    for seed in seeds:
        rows = []
        for variant in variants:
            state, capped = play_game(game, setup.bots, seed, variant, setup.max_plies)
            text = None
            if setup.records:
                from kifu.notation.record import format_record
                from kifu.notation.replay import record_from_actions

                text = format_record(record_from_actions(
                    game, list(setup.bots), state.history, variant=variant,
                    headers={"Seed": str(seed)}))
            rows.append(row_of(game, state, seed, capped=capped, text=text))
        out.append(rows)
    return out


class Simulation(msgspec.Struct):
    """The raw outcome of a simulation: ``rows[r][i]`` is game ``i`` under rule set ``r``."""

    setup: Setup
    seed: int
    games: int
    rows: list[list[GameRow]]


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
             on_progress: Callable[[int], None] | None = None) -> Simulation:
    """Play ``games_count`` games (seeds ``seed``, ``seed + 1``, ...) under every rule set
    of ``rules`` (specs, e.g. from :func:`rule_sets`). ``on_progress(k)`` is told of each
    chunk of ``k`` seeds done, in order."""
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
    setup = Setup(game.id, players, check_bots(game, players, bots), specs, max_plies, records)
    seeds = [seed + i for i in range(games_count)]
    jobs = ((setup, seeds[k:k + chunk_size]) for k in range(0, games_count, chunk_size))
    rows: list[list[GameRow]] = [[] for _ in specs]
    for part in map_chunks(_chunk, jobs, workers=workers, dask=dask):
        for per_seed in part:
            for r, row in enumerate(per_seed):
                rows[r].append(row)
        if on_progress is not None:
            on_progress(len(part))
    return Simulation(setup, seed, games_count, rows)


def records_text(sim: Simulation) -> str:
    """Every record of a simulation (asked with ``records=True``), rule set after rule set,
    one blank line apart: the corpus of ``kifu simulate -o``."""
    return "\n".join(row.text or "" for rows in sim.rows for row in rows)


# --- the metrics --------------------------------------------------------------------------

class MetricInfo(msgspec.Struct, frozen=True):
    """A metric of the report: its name, its group (``length``, ``score``, ``outcome``,
    ``seat``, ``event``), what it counts, and whether it is a rate (0 or 1 a game: its
    mean is a share, with Wilson's interval, and its differences are in points of
    percentage)."""

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
}


def metric_infos(game_id: str, players: int) -> list[MetricInfo]:
    """Every metric of a report for ``players`` seats of ``game_id``, in report order."""
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
    for s in range(players):
        out.append(MetricInfo(f"win_p{s}", "seat", f"1 when p{s} placed first (shared or not)",
                              True))
    for s in range(players):
        out.append(MetricInfo(f"rank_p{s}", "seat", f"p{s}'s place (1 = first)"))
    for s in range(players):
        out.append(MetricInfo(f"score_p{s}", "seat", f"p{s}'s score"))
    out += [MetricInfo(name, "event", meaning, name in rates) for name, meaning in own.items()
            if name not in ("turns", "rounds")]
    return out


def _words(info: MetricInfo) -> tuple[str, str, str]:
    name = info.name
    if info.group == "length":
        return _WORDS[name]
    if name in ("margin", "spread"):
        return _WORDS[name]
    if info.rate:
        return _WORDS["rate"]
    if name.startswith("rank_"):
        return _WORDS["rank"]
    if info.group in ("score", "seat"):
        return _WORDS["score"]
    return _WORDS["event"]


def metric_values(game_id: str, players: int,
                  rows: Sequence[GameRow]) -> dict[str, list[float | None]]:
    """Every metric's value in each game (``None`` where undefined: a score of an
    unfinished game)."""
    own = list(games.metrics_of(game_id).METRICS)
    col = {name: k for k, name in enumerate(own)}
    values: dict[str, list[float | None]] = {i.name: [] for i in metric_infos(game_id, players)}
    for row in rows:
        v: dict[str, float | None] = {"plies": float(row.plies)}
        for name in own:
            v[name] = float(row.events[col[name]])
        scores, ranks = row.scores, row.ranks
        if scores is not None and ranks is not None:
            top = sorted(scores, reverse=True)
            v["score_mean"] = sum(scores) / len(scores)
            v["score_top"] = float(top[0])
            v["margin"] = float(top[0] - top[1]) if len(top) > 1 else 0.0
            v["spread"] = float(top[0] - top[-1])
            v["tie"] = float(sum(1 for r in ranks if r == 1) > 1)
            for s in range(players):
                v[f"win_p{s}"] = float(ranks[s] == 1)
                v[f"rank_p{s}"] = float(ranks[s])
                v[f"score_p{s}"] = float(scores[s])
        for name, column in values.items():
            column.append(v.get(name))
    return values


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
    """One seat over the finished games: first places (shared or not), the win rate
    (Wilson interval), the mean place and the mean score (t intervals)."""

    seat: int
    wins: int
    win_rate: Figure
    mean_rank: Figure
    mean_score: Figure


class Fairness(msgspec.Struct, frozen=True):
    """Is every seat equally likely to win? Pearson's chi-square over the games with a
    single winner (``counts`` per seat); ``fair`` is ``p_value >= 0.05``; ``small`` warns
    that an expected count is below 5."""

    games: int
    counts: list[int]
    chi2: float
    df: int
    p_value: float
    fair: bool
    small: bool


class RuleSetSummary(msgspec.Struct, frozen=True):
    """Everything measured under one rule set."""

    rules: str
    games: int
    finished: int
    capped: int
    ties: int
    tie_rate: Figure
    metrics: dict[str, MetricSummary]
    seats: list[SeatSummary]
    fairness: Fairness | None


class Change(msgspec.Struct, frozen=True):
    """A metric under B minus under A, paired by seed: the mean difference with its 95%
    interval; ``changed`` when the interval excludes zero; the verdict in words."""

    difference: Figure
    changed: bool
    verdict: str


class Comparison(msgspec.Struct, frozen=True):
    """Rule set ``b`` against rule set ``a`` (indexes into ``rules``), on the same seeds:
    ``winner_changed`` is the share of seeds (both games finished) whose winners differ."""

    a: int
    b: int
    rules_a: str
    rules_b: str
    paired: int
    winners_changed: int
    winner_changed: Figure
    changes: dict[str, Change]


class Histogram(msgspec.Struct, frozen=True):
    """A distribution per rule set: ``counts[r][k]`` values of rule set ``r`` in
    ``[edges[k], edges[k + 1])`` (the same bins for every rule set)."""

    metric: str
    edges: list[int]
    counts: list[list[int]]


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


def simulate_json_schema() -> dict[str, Any]:
    """The JSON Schema of :class:`SimulationReport` (``kifu schema simulate``)."""
    return msgspec.json.schema(SimulationReport)


def _present(values: Sequence[float | None]) -> list[float]:
    return [v for v in values if v is not None]


def summarize(game_id: str, players: int, spec: str, rows: Sequence[GameRow]) -> RuleSetSummary:
    """The figures of one rule set's games (the games need not be paired with anything)."""
    from kifu.lab.stats import mean_ci, proportion_ci, seat_fairness

    values = metric_values(game_id, players, rows)
    rates = {i.name for i in metric_infos(game_id, players) if i.rate}
    metrics = {}
    for name, column in values.items():
        xs = _present(column)
        # a rate (0 or 1 a game) gets Wilson's interval, which stays within [0, 1]
        mean = proportion_ci(int(sum(xs)), len(xs)) if name in rates else mean_ci(xs)
        sd = None
        if len(xs) > 1:
            m = sum(xs) / len(xs)
            sd = round(math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)), 4)
        metrics[name] = MetricSummary(_figure(mean), sd, min(xs, default=None),
                                      max(xs, default=None))
    done = [r for r in rows if r.ranks is not None]
    seats = []
    for s in range(players):
        wins = sum(1 for r in done if r.ranks[s] == 1)  # type: ignore[index]
        seats.append(SeatSummary(
            s, wins, _figure(proportion_ci(wins, len(done))),
            _figure(mean_ci([float(r.ranks[s]) for r in done])),  # type: ignore[index]
            _figure(mean_ci([float(r.scores[s]) for r in done])),  # type: ignore[index]
        ))
    single = [r.ranks.index(1) for r in done  # type: ignore[union-attr]
              if sum(1 for x in r.ranks if x == 1) == 1]  # type: ignore[union-attr]
    ties = len(done) - len(single)
    test = seat_fairness([single.count(s) for s in range(players)])
    fairness = None if test is None else Fairness(
        len(single), test.counts, round(test.chi2, 4), test.df, round(test.p_value, 6),
        test.p_value >= 0.05, test.small)
    return RuleSetSummary(spec, len(rows), len(done), sum(1 for r in rows if r.capped), ties,
                          _figure(proportion_ci(ties, len(done))), metrics, seats, fairness)


def _num(x: float, scale: float, digits: int | None = None) -> str:
    """A magnitude with as many decimals as its scale needs: 51, 4.2, 0.31."""
    if digits is None:
        digits = 0 if scale >= 10 else 1 if scale >= 1 else 2
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.00"


def verdict(info: MetricInfo, iv: Any) -> tuple[bool, str]:
    """Whether the paired difference ``iv`` (B - A) shows a change, and the words for it:
    ``shorter by 51 plies [48, 54]`` when the interval excludes zero, ``no detectable
    change (-0.4 [-1.2, 0.3])`` when it does not."""
    low, high, est = iv.low, iv.high, iv.estimate
    if iv.n < 2 or math.isnan(low) or math.isnan(high):
        return False, f"too few paired games ({iv.n})"
    less, more, unit = _words(info)
    k = 100.0 if unit == "pp" else 1.0
    if low == high == est == 0.0:
        return False, "no change in any game"
    scale = max(abs(low), abs(high)) * k
    if iv.excludes(0.0):
        word = less if est < 0 else more
        a, b = sorted((abs(low) * k, abs(high) * k))
        # enough decimals that the bound nearer zero does not read as zero
        digits = 0 if scale >= 10 else 1 if scale >= 1 else 2
        while float(f"{a:.{digits}f}") == 0 and digits < 6:
            digits += 1
        return True, f"{word} by {_num(abs(est) * k, scale, digits)} {unit} " \
                     f"[{_num(a, scale, digits)}, {_num(b, scale, digits)}]"
    sign = "+" if float(_num(est * k, scale)) > 0 else ""
    return False, f"no detectable change ({sign}{_num(est * k, scale)} {unit} " \
                  f"[{_num(low * k, scale)}, {_num(high * k, scale)}])"


def compare(game_id: str, players: int, a: int, b: int, specs: Sequence[str],
            rows_a: Sequence[GameRow], rows_b: Sequence[GameRow]) -> Comparison:
    """Rule set ``b`` against ``a``, game by game (``rows_a[i]`` and ``rows_b[i]`` were
    played from the same seed)."""
    from kifu.lab.stats import paired_difference_ci, proportion_ci

    if len(rows_a) != len(rows_b):
        raise ValueError("paired rule sets need the same games")
    va = metric_values(game_id, players, rows_a)
    vb = metric_values(game_id, players, rows_b)
    changes = {}
    for info in metric_infos(game_id, players):
        pairs = [(x, y) for x, y in zip(va[info.name], vb[info.name], strict=True)
                 if x is not None and y is not None]
        iv = paired_difference_ci([y for _, y in pairs], [x for x, _ in pairs])
        changed, words = verdict(info, iv)
        changes[info.name] = Change(_figure(iv), changed, words)
    both = [(x, y) for x, y in zip(rows_a, rows_b, strict=True)
            if x.ranks is not None and y.ranks is not None]
    moved = sum(1 for x, y in both if _winners(x) != _winners(y))
    return Comparison(a, b, specs[a], specs[b], len(both), moved,
                      _figure(proportion_ci(moved, len(both))), changes)


def _winners(row: GameRow) -> tuple[int, ...]:
    return tuple(s for s, r in enumerate(row.ranks or ()) if r == 1)


def histogram(metric: str, columns: Sequence[Sequence[float]]) -> Histogram:
    """Integer-aligned bins shared by every column (at most :data:`MAX_BINS`)."""
    every = [int(v) for col in columns for v in col]
    if not every:
        return Histogram(metric, [], [[] for _ in columns])
    lo, hi = min(every), max(every)
    width = max(1, math.ceil((hi - lo + 1) / MAX_BINS))
    bins = (hi - lo) // width + 1
    edges = [lo + k * width for k in range(bins + 1)]
    counts = []
    for col in columns:
        c = [0] * bins
        for v in col:
            c[(int(v) - lo) // width] += 1
        counts.append(c)
    return Histogram(metric, edges, counts)


def analyse(sim: Simulation) -> SimulationReport:
    """The report of a simulation: every rule set summarised, every pair compared."""
    setup = sim.setup
    gid, n = setup.game, setup.players
    specs = list(setup.rules)
    sets = [summarize(gid, n, spec, rows) for spec, rows in zip(specs, sim.rows, strict=True)]
    comparisons = [compare(gid, n, a, b, specs, sim.rows[a], sim.rows[b])
                   for a in range(len(specs)) for b in range(a + 1, len(specs))]
    hists = [
        histogram("plies", [[r.plies for r in rows] for rows in sim.rows]),
        histogram("scores", [[s for r in rows if r.scores is not None for s in r.scores]
                             for rows in sim.rows]),
    ]
    return SimulationReport(FORMAT, gid, n, sim.games, sim.seed, list(setup.bots),
                            setup.max_plies, specs, metric_infos(gid, n), sets, comparisons,
                            hists)


# --- as text ------------------------------------------------------------------------------

def _fig(f: Figure, *, pct: bool = False) -> str:
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


def _table(rows: list[list[str]], head: list[str]) -> Iterator[str]:
    widths = [max(len(r[k]) for r in [head, *rows]) for k in range(len(head))]
    for r in [head, *rows]:
        yield "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()


def format_text(report: SimulationReport) -> str:
    """The report as plain text (what ``kifu simulate`` prints without ``--json``)."""
    letters = [chr(ord("A") + k) if k < 26 else f"R{k}" for k in range(len(report.rules))]
    last = report.seed + report.games - 1
    out = [f"kifu simulate {report.game}: {report.players} players, {report.games} game(s) "
           f"per rule set (seeds {report.seed}..{last}), bots {', '.join(report.bots)}"]
    out += [f"{x} = {spec}" for x, spec in zip(letters, report.rules, strict=True)]
    out.append("")
    out += summary_table(report.metrics, report.players, letters, report.rule_sets)
    for c in report.comparisons:
        out.append("")
        out.append(f"{letters[c.b]} - {letters[c.a]}, paired on {report.games} seed(s) "
                   f"(a change is called only when its 95% interval excludes 0):")
        lines = [[name, ch.verdict] for name, ch in c.changes.items()]
        lines.append(["winner", f"changes on {_fig(c.winner_changed, pct=True)} of the "
                                f"{c.paired} seed(s) finished under both"])
        out += _table(lines, ["metric", "verdict"])
        called = [n for n, ch in c.changes.items() if ch.changed]
        out.append(f"changed: {', '.join(called) if called else 'nothing detectable'}")
    return "\n".join(out) + "\n"


def summary_table(infos: Sequence[MetricInfo], players: int, labels: Sequence[str],
                  sets: Sequence[RuleSetSummary]) -> list[str]:
    """The per-rule-set figures as a text table, one column per rule set (``labels``)."""
    rows = [["games"] + [f"{s.games} ({s.finished} finished, {s.capped} capped)"
                         for s in sets]]
    for info in infos:
        if info.group == "seat":
            continue
        rows.append([info.name] + [_fig(s.metrics[info.name].mean, pct=info.rate)
                                   for s in sets])
    for seat in range(players):
        rows.append([f"p{seat} wins"] + [_fig(s.seats[seat].win_rate, pct=True) for s in sets])
    for seat in range(players):
        rows.append([f"p{seat} mean place"] + [_fig(s.seats[seat].mean_rank) for s in sets])
    for seat in range(players):
        rows.append([f"p{seat} mean score"] + [_fig(s.seats[seat].mean_score) for s in sets])
    rows.append(["seats fair?"] + [_fairness(s.fairness) for s in sets])
    return list(_table(rows, ["per rule set (mean [95% CI])", *labels]))


def _fairness(f: Fairness | None) -> str:
    if f is None:
        return "-"
    verdict_ = "yes" if f.fair else "no"
    small = ", few games" if f.small else ""
    return f"{verdict_} (chi2 {f.chi2:.1f}, {f.df} df, p {f.p_value:.3g}{small})"


__all__ = [
    "GameRow",
    "Setup",
    "Simulation",
    "SimulationReport",
    "analyse",
    "compare",
    "format_text",
    "metric_infos",
    "play_game",
    "records_text",
    "row_of",
    "rule_sets",
    "simulate",
    "simulate_json_schema",
    "summarize",
    "summary_table",
]
