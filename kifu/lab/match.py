"""``kifu match``: bots against each other over many deals, seats permuted, with intervals.

Deal ``i`` of a match is played from the seed ``"<seed>:<i>"`` (the dealer's actions
come from it, so every seating of a deal starts from the same cards) once under each
seating of :func:`seatings`: every distinct order of the bots around the table when there
are at most :data:`MAX_ORDERS` of them, else a Williams design (a balanced Latin square:
each bot once in each seat, each bot right before each other bot equally often). The bots
are listed for the seats in order and repeated to fill them (``A,B`` at four seats is
``A,B,A,B``). Deals are cut into chunks and mapped with
:func:`kifu.core.executor.map_chunks`, which returns them in order, and nothing measured
depends on time, so the report is the same bytes with any number of workers.

Per bot: the seat-games it played; its mean rank (the game's own ranks); its win rate
(first place, shared or not); its mean score; its *pairwise share* against the other seats
(:func:`kifu.bots.profiles.pairwise`, with the game's tie-break: the unit that compares
across games); and an Elo rating from every comparison of two seats held by different
bots (a Bradley-Terry fit). Per pair of bots: the share of their head-to-head comparisons
the first won (ties half) and the Elo difference. The unit of sample is the deal (its
seatings share the cards), and every interval stays inside its range: the win rate's is
Wilson's at the effective number of trials (:func:`kifu.lab.stats.cluster_proportion_ci`),
the shares' and mean ranks' are percentile bootstraps over deals
(:func:`kifu.lab.stats.bootstrap_means`), the mean score's a t interval (scores have no
bound), the Elo ratings' a bootstrap over deals with the same resamples.

Memory stays flat in the number of deals: :class:`Tally` keeps a few numbers per deal in
compact arrays, never the games themselves.
"""


from __future__ import annotations

import datetime
import math
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations, permutations

import msgspec

from kifu import games
from kifu.bots.profiles import pairwise, tiebreak_keys
from kifu.core.errors import VariantError
from kifu.core.executor import map_chunks
from kifu.core.game import Result
from kifu.lab.outside import check_bot, play_actions  # kifu.bots plus outside bots
from kifu.lab.stats import (
    Interval,
    bootstrap_means,
    cluster_proportion_ci,
    elo_counts,
    mean_ci,
)
from kifu.notation.record import format_record
from kifu.notation.replay import record_from_actions

MAX_ORDERS = 24
"""The most seatings a deal is played under when every distinct order is played (four
different bots at four seats); past it, a Williams design."""

DEALS_PER_CHUNK = 8
"""The most deals a chunk plays when the chunk size is left to :func:`chunk_deals`."""


def chunk_deals(deals: int, workers: int = 1) -> int:
    """Deals per chunk when none is given: :data:`DEALS_PER_CHUNK`, or fewer so that every
    worker gets about four chunks of a short match (a match of slow bots on few deals
    still spreads over the workers). A chunk is one round trip to a worker, a few ms of
    CPU in this process and the worker: 1,200 TWEAK deals of ``greedy,random`` in chunks of
    2 cost ``-w 2`` 23% more CPU than one process, in chunks of 8 (measured 2026-11-26).

    >>> chunk_deals(1200, 2), chunk_deals(10, 2), chunk_deals(1, 4)
    (8, 1, 1)
    """
    return max(1, min(DEALS_PER_CHUNK, deals // (4 * max(1, workers))))


class GameOutcome(msgspec.Struct, frozen=True):
    """One game of a match: the bot at each seat, the scores and ranks, and the game's
    tie-break keys (:func:`kifu.bots.profiles.tiebreak_keys`; ``None`` where it has none)."""

    deal: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    keys: tuple[float, ...] | None = None


class Figure(msgspec.Struct, frozen=True):
    """An estimate with its 95% interval (``None`` where undefined) over ``n`` samples."""

    estimate: float | None
    low: float | None
    high: float | None
    n: int


class BotLine(msgspec.Struct, frozen=True):
    """One bot's figures over the match; ``share`` is its pairwise share against the other
    seats (1 = ahead of all, 0.5 = even; :func:`kifu.bots.profiles.pairwise`)."""

    bot: str
    games: int
    mean_rank: Figure
    win_rate: Figure
    mean_score: Figure
    elo: Figure
    share: Figure | None = None


class PairLine(msgspec.Struct, frozen=True):
    """Two bots head to head: ``score`` is the share of the comparisons between a seat of
    ``a`` and a seat of ``b`` that ``a`` won (ties count half); ``elo`` is Elo(a) -
    Elo(b)."""

    a: str
    b: str
    comparisons: int
    score: Figure
    elo: Figure


class DealLine(msgspec.Struct, frozen=True, array_like=True):
    """One deal of a match: ``shares[r][b]`` is the pairwise share of bot ``b`` (the
    report's ``bots`` order) in the game of seating ``r`` (the report's ``seatings``
    order), the mean over its seats when it holds several, ``None`` where it holds none.
    Written as ``[deal, shares]``: two reports of the same seed and deals pair deal by deal
    (:mod:`kifu.lab.paired`)."""

    deal: int
    shares: list[list[float | None]]


class MatchReport(msgspec.Struct, frozen=True):
    """What ``kifu match --json`` writes (its schema: ``kifu schema match``)."""

    game: str
    rules: str
    players: int
    bots: list[str]
    seatings: list[list[str]]
    deals: int
    games: int
    seed: str
    confidence: float
    bot_lines: list[BotLine] = msgspec.field(name="by_bot")
    pair_lines: list[PairLine] = msgspec.field(name="pairs")
    design: str = ""
    """How the seatings were chosen (every order, or a Williams design)."""
    tiebreak: str = ""
    """What orders seats the game ranks equal, for the shares (``none``: ties count half)."""
    intervals: str = ""
    """How each interval is computed."""
    per_deal: list[DealLine] = msgspec.field(default_factory=list)
    """Every deal's shares per seating and bot (:class:`DealLine`), rounded to 6 decimals;
    empty in a report built with ``per_deal=False``."""


def match_json_schema() -> dict:
    """The JSON Schema of :class:`MatchReport`."""
    return msgspec.json.schema(MatchReport)


def seatings(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The seatings a deal is played under (the bot list repeated to fill the seats): every
    distinct order when there are at most :data:`MAX_ORDERS`, else the rows of a Williams
    design (:func:`williams`) over the seats, without repeats. The list as given comes
    first.

    >>> seatings(["a", "b"], 3)
    [('a', 'b', 'a'), ('a', 'a', 'b'), ('b', 'a', 'a')]
    >>> len(seatings(["a", "b", "c", "d"], 4)), len(seatings(list("abcde"), 5))
    (24, 10)
    """
    if not bots:
        raise VariantError("a match needs at least one bot")
    if len(bots) > players:
        raise VariantError(f"{len(bots)} bots for {players} seats: give at most one a seat")
    base = tuple(bots[i % len(bots)] for i in range(players))
    distinct = math.factorial(players)
    for b in set(base):
        distinct //= math.factorial(base.count(b))
    if distinct <= MAX_ORDERS:
        return list(dict.fromkeys(permutations(base)))
    rows = williams(players)
    label = {x: i for i, x in enumerate(rows[0])}  # relabelled: the first row is the list
    return list(dict.fromkeys(tuple(base[label[x]] for x in row) for row in rows))


def williams(n: int) -> list[list[int]]:
    """A Williams design for ``n`` seats: rows of seat indices in which every index stands
    once in every position, and every index right before every other equally often (``n``
    rows for even ``n``, ``2n`` for odd: the rows and their mirrors).

    >>> williams(4)
    [[0, 1, 3, 2], [1, 2, 0, 3], [2, 3, 1, 0], [3, 0, 2, 1]]
    """
    first, lo, hi = [0], 1, n - 1
    while len(first) < n:
        first.append(lo)
        lo += 1
        if len(first) < n:
            first.append(hi)
            hi -= 1
    rows = [[(x + r) % n for x in first] for r in range(n)]
    if n % 2:
        rows += [row[::-1] for row in rows]
    return rows


def design_of(bots: Sequence[str], players: int) -> str:
    """One line saying how :func:`seatings` chose the seatings."""
    k = len(seatings(bots, players))
    base = [bots[i % len(bots)] for i in range(players)]
    if len(set(base)) == 1:
        return "one seating (one bot)"
    distinct = math.factorial(players)
    for b in set(base):
        distinct //= math.factorial(base.count(b))
    if distinct <= MAX_ORDERS:
        return f"every distinct order of the bots over the seats ({k})"
    return (f"a Williams design ({k} of {distinct} orders): every bot once in every seat, "
            "every bot right before every other equally often")


def _play_chunk(args: tuple) -> list[tuple[list[GameOutcome], list[str]]]:
    """Play deals ``first..last-1`` under every seating: outcomes and record texts."""
    game_id, rules, seats_list, seed, first, last, records, date = args
    game = games.get(game_id)
    variant = game.parse_rules(rules)
    out = []
    for i in range(first, last):
        outcomes, texts = [], []
        deal_seed = f"{seed}:{i}"
        for r, seats in enumerate(seats_list):
            actions = play_actions(game, list(seats), deal_seed, variant)
            res, keys = _result_of(game, variant, actions, len(seats))
            outcomes.append(GameOutcome(i, tuple(seats), res.scores, res.ranks, keys))
            if records:
                rec = record_from_actions(game, list(seats), actions, variant=variant,
                                          headers={"Date": date, "Seed": deal_seed,
                                                   "Event": "kifu match",
                                                   "Round": f"{i + 1}.{r + 1}"})
                texts.append(format_record(rec))
        out.append((outcomes, texts))
    return out


def _result_of(game, variant, actions, n):
    state = game.new_state(n, variant)
    for a in actions:
        state.push(a)
    result = state.result()
    assert result is not None
    return result, tiebreak_keys(game.id, state)


def play_match(game_id: str, bots: Sequence[str], *, players: int, deals: int,
               seed: int | str = 0, rules: str | None = None, workers: int = 1,
               dask: str | None = None, chunk_size: int | None = None,
               records: bool = False, date: str | None = None,
               on_deal: Callable[[int], None] | None = None,
               ) -> Iterator[tuple[list[GameOutcome], list[str]]]:
    """Play the match deal by deal, in order: each deal's outcomes (one per seating) and,
    with ``records``, its records as text. Checks the game, players and bots first."""
    game = games.get(game_id)
    game.check_players(players)
    for b in dict.fromkeys(bots):
        check_bot(game, b)
    if deals < 1:
        raise VariantError(f"a match needs at least one deal, not {deals}")
    spec = game.rules_spec(game.parse_rules(rules) if rules else None)
    seats_list = seatings(bots, players)
    chunk_size = chunk_size or chunk_deals(deals, workers)
    date = date or datetime.date.today().strftime("%Y.%m.%d")
    chunks = ((game.id, spec, seats_list, seed, first, min(first + chunk_size, deals),
               records, date) for first in range(0, deals, chunk_size))
    done = 0
    for part in map_chunks(_play_chunk, chunks, workers=workers, dask=dask):
        for item in part:
            yield item
            done += 1
            if on_deal is not None:
                on_deal(done)


def _figure(iv: Interval) -> Figure:
    d = iv.to_dict()
    return Figure(d["estimate"], d["low"], d["high"], d["n"])


class Tally:
    """A match's figures gathered deal by deal in compact arrays (a few numbers per bot and
    pair per deal), so that memory does not grow with the games: :meth:`add` takes one
    deal's outcomes, :meth:`report` computes the intervals."""

    def __init__(self, bots: Sequence[str], players: int):
        self.names = list(dict.fromkeys(bots))
        self.players = players
        self.index = {b: i for i, b in enumerate(self.names)}
        k = len(self.names)
        self.pairs = list(combinations(range(k), 2))
        self.deals = 0
        self.games = 0
        self.games_of = [0] * k
        self.comparisons = [0] * len(self.pairs)
        # per deal: rank, win, score and share of each bot, then the share of each pair
        self.rows = array("d")
        # per deal: Elo's k x k table of scores and of comparisons
        self.wins = array("d")
        self.met = array("d")
        # per deal and seating: each bot's share in that game (NaN where it sat nowhere)
        self.seat_shares = array("d")
        self.per_deal_games = array("i")
        self.deal_ids = array("q")

    @property
    def width(self) -> int:
        return 4 * len(self.names) + len(self.pairs)

    def add(self, deal: Sequence[GameOutcome]) -> None:
        """Count one deal (its games under every seating)."""
        k = len(self.names)
        acc = [[0.0, 0.0, 0.0, 0.0, 0] for _ in range(k)]
        wins = [0.0] * (k * k)
        met = [0.0] * (k * k)
        per_game = []
        for g in deal:
            result = Result(g.scores, g.ranks)
            seats = [self.index[b] for b in g.seats]
            here = [0.0] * k
            count = [0] * k
            for s, b in enumerate(seats):
                a = acc[b]
                share = pairwise(result, s, g.keys)
                a[0] += g.ranks[s]
                a[1] += 1.0 if g.ranks[s] == 1 else 0.0
                a[2] += g.scores[s]
                a[3] += share
                a[4] += 1
                here[b] += share
                count[b] += 1
                self.games_of[b] += 1
            per_game += [h / c if c else math.nan for h, c in zip(here, count, strict=True)]
            for s, t in combinations(range(len(seats)), 2):
                bs, bt = seats[s], seats[t]
                if bs == bt:
                    continue
                x = pairwise(result, s, g.keys, against=t)
                wins[bs * k + bt] += x
                wins[bt * k + bs] += 1.0 - x
                met[bs * k + bt] += 1.0
                met[bt * k + bs] += 1.0
            self.games += 1
        row = []
        for a in acc:
            row += [v / a[4] for v in a[:4]] if a[4] else [math.nan] * 4
        for j, (a, b) in enumerate(self.pairs):
            n = met[a * k + b]
            row.append(wins[a * k + b] / n if n else math.nan)
            self.comparisons[j] += int(n)
        self.rows.extend(row)
        self.wins.extend(wins)
        self.met.extend(met)
        self.seat_shares.extend(per_game)
        self.per_deal_games.append(len(deal))
        self.deal_ids.append(deal[0].deal if deal else self.deals)
        self.deals += 1

    def deal_lines(self) -> list[DealLine]:
        """Every deal's shares per seating and bot (:class:`DealLine`)."""
        k = len(self.names)
        out, at = [], 0
        for i, played in zip(self.deal_ids, self.per_deal_games, strict=True):
            rows = []
            for _ in range(played):
                rows.append([None if math.isnan(v) else round(v, 6)
                             for v in self.seat_shares[at:at + k]])
                at += k
            out.append(DealLine(i, rows))
        return out

    def report(self, game_id: str, rules: str, bots: Sequence[str], seed: int | str,
               resamples: int = 999, per_deal: bool = True) -> MatchReport:
        import numpy as np

        k, n = len(self.names), self.players
        d = self.deals
        rows = np.frombuffer(self.rows, dtype=float).reshape(d, self.width) if d \
            else np.zeros((0, self.width))
        seed_int = _seed_int(seed)
        # the bounded means (rank, share per bot; share per pair): one joint bootstrap
        cols = [4 * i for i in range(k)] + [4 * i + 3 for i in range(k)] + \
            [4 * k + j for j in range(len(self.pairs))]
        bounds = [(1.0, float(n))] * k + [(0.0, 1.0)] * (k + len(self.pairs))
        boot = bootstrap_means(rows[:, cols], resamples=resamples, seed=seed_int,
                               bounds=bounds) if d else \
            [Interval(math.nan, math.nan, math.nan, 0)] * len(cols)
        table = elo_counts(np.frombuffer(self.wins, dtype=float),
                           np.frombuffer(self.met, dtype=float), self.names,
                           seed=seed_int, resamples=resamples) if k > 1 and d else None
        bot_lines = []
        for i, b in enumerate(self.names):
            wins = [v for v in rows[:, 4 * i + 1].tolist() if not math.isnan(v)]
            scores = [v for v in rows[:, 4 * i + 2].tolist() if not math.isnan(v)]
            rating = table.rating(b) if table is not None else Interval(0.0, 0.0, 0.0, 0)
            bot_lines.append(BotLine(
                b, self.games_of[i], _figure(boot[i]),
                _figure(cluster_proportion_ci(wins, trials=self.games_of[i])),
                _figure(mean_ci(scores)), _figure(rating),
                _figure(boot[k + i]) if k > 1 else None))
        pair_lines = []
        for j, (a, b) in enumerate(self.pairs):
            assert table is not None
            pa, pb = self.names[a], self.names[b]
            pair_lines.append(PairLine(pa, pb, self.comparisons[j], _figure(boot[2 * k + j]),
                                       _figure(table.difference(pa, pb))))
        seats_list = seatings(bots, n)
        keys = TIEBREAK_TEXT.get(game_id, "none: seats the game ranks equal share (half each)")
        return MatchReport(game_id, rules, n, self.names, [list(s) for s in seats_list],
                           d, self.games, str(seed), 0.95, bot_lines, pair_lines,
                           design_of(bots, n), keys, INTERVALS,
                           self.deal_lines() if per_deal else [])


TIEBREAK_TEXT = {"towai": "cards left in hand at the end, fewer first (round wins rank only "
                          "the winner); then half each"}
"""The tie-break of each game that has one, in words (:data:`kifu.bots.profiles.TIEBREAKS`)."""

INTERVALS = ("95%, over deals: mean rank and shares percentile bootstrap (999 resamples, "
             "seeded; Wilson at one trial a deal where every deal gives the same value), win "
             "rate Wilson at the effective number of trials, mean score Student's t, Elo "
             "bootstrap with the same resamples (where a pair's result is the same in every "
             "deal, the Elo image of its Wilson interval at one trial a deal)")


def summarize(game_id: str, rules: str, bots: Sequence[str], players: int,
              outcomes: Iterable[Sequence[GameOutcome]], seed: int | str,
              resamples: int = 999) -> MatchReport:
    """The report of a match from its outcomes, grouped by deal (:class:`Tally`)."""
    tally = Tally(bots, players)
    for deal in outcomes:
        tally.add(deal)
    return tally.report(game_id, rules, bots, seed, resamples)


def _seed_int(seed: int | str) -> int:
    if isinstance(seed, int):
        return seed & ((1 << 32) - 1)
    h = 0
    for ch in seed.encode():
        h = (h * 131 + ch) & ((1 << 32) - 1)
    return h


def report_text(report: MatchReport) -> str:
    """The report as a table for people."""

    def iv(f: Figure, digits: int, sign: bool = False) -> str:
        if f.estimate is None:
            return "-"
        fmt = f"{{:{'+' if sign else ''}.{digits}f}}"
        if f.low is None or f.high is None:
            return fmt.format(f.estimate)
        return f"{fmt.format(f.estimate)} [{fmt.format(f.low)}, {fmt.format(f.high)}]"

    lines = [f"kifu match {report.game} ({report.rules}): {report.players} players, "
             f"{report.deals} deals x {len(report.seatings)} seatings = {report.games} games, "
             f"seed {report.seed}; 95% intervals over deals",
             f"seatings: {report.design}; ties in rank: {report.tiebreak}"]
    rows = [("bot", "games", "share", "mean rank", "win rate", "mean score", "Elo")]
    for b in report.bot_lines:
        rows.append((b.bot, str(b.games), iv(b.share, 3) if b.share else "-",
                     iv(b.mean_rank, 3), iv(b.win_rate, 3),
                     iv(b.mean_score, 2), iv(b.elo, 0, sign=True)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    if report.pair_lines:
        lines.append("head to head (share of comparisons won by the first, ties half; "
                     "Elo difference):")
        for p in report.pair_lines:
            lines.append(f"  {p.a} vs {p.b}: {iv(p.score, 3)} over {p.comparisons} "
                         f"comparisons; Elo {iv(p.elo, 0, sign=True)}")
    return "\n".join(lines) + "\n"


__all__ = [
    "MAX_ORDERS",
    "DealLine",
    "GameOutcome",
    "MatchReport",
    "Tally",
    "design_of",
    "match_json_schema",
    "play_match",
    "report_text",
    "seatings",
    "summarize",
    "williams",
]
