"""``kifu match``: bots against each other over many deals, seats rotated, with intervals.

Deal ``i`` of a match is played from the seed ``"<seed>:<i>"`` (the dealer's actions
come from it, so every seating of a deal starts from the same cards) once under each
distinct rotation of the bots over the seats, so no bot profits from a seat. The bots are
listed for the seats in order and repeated to fill them (``A,B`` at four seats is
``A,B,A,B``). Deals are cut into chunks and mapped with
:func:`kifu.core.executor.map_chunks`, which returns them in order, and nothing measured
depends on time, so the report is the same bytes with any number of workers.

Per bot: the seat-games it played, its mean rank, win rate (first place, shared or not)
and mean score, each with a 95% t interval over *deals* (a deal's rotations share its
cards, so the bot's mean over them is one sample), and an Elo rating from every pairwise
comparison of two seats held by different bots (a Bradley-Terry fit with a bootstrap
interval over deals, :func:`kifu.lab.stats.elo`). Per pair of bots: the share of their
head-to-head comparisons the first won (ties half) with its interval over deals, and the
Elo difference with its interval.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations

import msgspec

from kifu import games
from kifu.core.errors import VariantError
from kifu.core.executor import map_chunks
from kifu.lab.outside import check_bot, play_actions  # kifu.bots plus outside bots
from kifu.lab.stats import Interval, elo, mean_ci
from kifu.notation.record import format_record
from kifu.notation.replay import record_from_actions

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
    """One game of a match: the bot at each seat, the scores and ranks."""

    deal: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    ranks: tuple[int, ...]


class Figure(msgspec.Struct, frozen=True):
    """An estimate with its 95% interval (``None`` where undefined) over ``n`` samples."""

    estimate: float | None
    low: float | None
    high: float | None
    n: int


class BotLine(msgspec.Struct, frozen=True):
    """One bot's figures over the match."""

    bot: str
    games: int
    mean_rank: Figure
    win_rate: Figure
    mean_score: Figure
    elo: Figure


class PairLine(msgspec.Struct, frozen=True):
    """Two bots head to head: ``score`` is the share of the comparisons between a seat of
    ``a`` and a seat of ``b`` that ``a`` won (ties count half); ``elo`` is Elo(a) -
    Elo(b)."""

    a: str
    b: str
    comparisons: int
    score: Figure
    elo: Figure


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


def match_json_schema() -> dict:
    """The JSON Schema of :class:`MatchReport`."""
    return msgspec.json.schema(MatchReport)


def seatings(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every distinct rotation of the bots over the seats (the list repeated to fill them).

    >>> seatings(["a", "b"], 3)
    [('a', 'b', 'a'), ('b', 'a', 'a'), ('a', 'a', 'b')]
    >>> seatings(["a", "b"], 4)
    [('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]
    """
    if not bots:
        raise VariantError("a match needs at least one bot")
    if len(bots) > players:
        raise VariantError(f"{len(bots)} bots for {players} seats: give at most one a seat")
    base = [bots[i % len(bots)] for i in range(players)]
    out: list[tuple[str, ...]] = []
    for r in range(players):
        rot = tuple(base[r:] + base[:r])
        if rot not in out:
            out.append(rot)
    return out


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
            res = _result_of(game, variant, actions, len(seats))
            outcomes.append(GameOutcome(i, tuple(seats), res.scores, res.ranks))
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
    return result


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


def summarize(game_id: str, rules: str, bots: Sequence[str], players: int,
              outcomes: Sequence[Sequence[GameOutcome]], seed: int | str,
              resamples: int = 999) -> MatchReport:
    """The report of a match from its outcomes, grouped by deal."""
    names = list(dict.fromkeys(bots))
    per_deal: dict[str, dict[str, list[float]]] = {b: {"rank": [], "win": [], "score": []}
                                                   for b in names}
    pair_share: dict[tuple[str, str], list[float]] = {p: [] for p in combinations(names, 2)}
    pair_count: dict[tuple[str, str], int] = dict.fromkeys(pair_share, 0)
    clusters = []
    games_of = dict.fromkeys(names, 0)
    for deal in outcomes:
        acc = {b: [0.0, 0.0, 0.0, 0] for b in names}
        share = {p: [0.0, 0] for p in pair_share}
        cluster = []
        for g in deal:
            for s, b in enumerate(g.seats):
                a = acc[b]
                a[0] += g.ranks[s]
                a[1] += 1.0 if g.ranks[s] == 1 else 0.0
                a[2] += g.scores[s]
                a[3] += 1
                games_of[b] += 1
            for s, t in combinations(range(len(g.seats)), 2):
                bs, bt = g.seats[s], g.seats[t]
                if bs == bt:
                    continue
                x = 1.0 if g.ranks[s] < g.ranks[t] else 0.5 if g.ranks[s] == g.ranks[t] else 0.0
                cluster.append((bs, bt, x))
                key, val = ((bs, bt), x) if (bs, bt) in share else ((bt, bs), 1.0 - x)
                share[key][0] += val
                share[key][1] += 1
        clusters.append(cluster)
        for b, (rk, wn, sc, k) in acc.items():
            if k:
                per_deal[b]["rank"].append(rk / k)
                per_deal[b]["win"].append(wn / k)
                per_deal[b]["score"].append(sc / k)
        for p, (v, k) in share.items():
            if k:
                pair_share[p].append(v / k)
                pair_count[p] += k
    table = elo(clusters, names, seed=_seed_int(seed), resamples=resamples) if len(names) > 1 \
        else None
    bot_lines = []
    for b in names:
        rating = table.rating(b) if table is not None else Interval(0.0, 0.0, 0.0, 0)
        bot_lines.append(BotLine(b, games_of[b], _figure(mean_ci(per_deal[b]["rank"])),
                                 _figure(mean_ci(per_deal[b]["win"])),
                                 _figure(mean_ci(per_deal[b]["score"])), _figure(rating)))
    pair_lines = []
    for a, b in pair_share:
        assert table is not None
        pair_lines.append(PairLine(a, b, pair_count[(a, b)], _figure(mean_ci(pair_share[(a, b)])),
                                   _figure(table.difference(a, b))))
    n_games = sum(len(d) for d in outcomes)
    seats_list = seatings(bots, players)
    return MatchReport(game_id, rules, players, names, [list(s) for s in seats_list],
                       len(outcomes), n_games, str(seed), 0.95, bot_lines, pair_lines)


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
             f"seed {report.seed}; 95% intervals over deals"]
    rows = [("bot", "games", "mean rank", "win rate", "mean score", "Elo")]
    for b in report.bot_lines:
        rows.append((b.bot, str(b.games), iv(b.mean_rank, 3), iv(b.win_rate, 3),
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
    "GameOutcome",
    "MatchReport",
    "match_json_schema",
    "play_match",
    "report_text",
    "seatings",
    "summarize",
]
