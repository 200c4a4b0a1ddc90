"""``kifu analyze`` and ``kifu puzzles mine`` (issue 25): what they cost.

- a typical 3-player single-round TWEAK record (12 seeded games of greedy bots) analysed
  at the default budget: the value judgement at every decision with a choice (the
  evaluator at ``kifu.lab.analyze.LEVEL``) and the default questions (``tweak-this-turn``
  at every decision of a turn, ``best-points`` once the deck is empty): the target (issue
  34) is at most 20x python-chess perft 4 a record (median, CPU, the anchor timed in the
  same run); ``-k exact_only`` times the exact questions alone (the target of issue 25,
  under 1 s);
- GRAPH-T ``double-dummy`` per judged ply, by the most cards a hand holds (K - 1, K, K + 1
  for the default K, ``kifu.lab.analyze.DD_CARDS``), on the plies of 12 seeded 2-, 3- and
  4-player games: the reason for K;
- a corpus of 10,000 3-player single-round TWEAK records mined for ``tweak-this-turn``
  puzzles on 1 and 2 worker processes (``KIFU_MINE_RECORDS`` sets another size): records
  per second, and the same puzzles both ways.

Times are CPU seconds of this process (``time.process_time``: the machine is shared) except
for the mining, which runs in worker processes and is timed by the wall clock. Each
figure is set beside python-chess's perft 4 timed in the same run (``anchor_ratio``: the
figure over the anchor's median). Run ``pytest benchmarks/test_analyze.py
--benchmark-only``; the figures go to ``extra_info`` and to docs/puzzles.md ("Analysis").
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from benchmarks.conftest import CHESS_PERFT_4, chess_perft
from kifu import games
from kifu.core.game import DEALER
from kifu.lab.analyze import Job, Limits, analyze_record, dd_cards, in_scope, question_player
from kifu.lab.mine import mine
from kifu.lab.play import play_record
from kifu.notation.reader import read_records
from kifu.notation.record import format_records
from kifu.notation.replay import replay
from kifu.puzzles import Budget, get_question

GAMES = 12
MINE_RECORDS = int(os.environ.get("KIFU_MINE_RECORDS", "10000"))


def anchor() -> float:
    """python-chess perft 4 from the start position, CPU seconds (median of 3)."""
    chess = pytest.importorskip("chess", reason="python-chess (dev extra) is the anchor")
    times = []
    for _ in range(3):
        t = time.process_time()
        assert chess_perft(chess.Board(), 4) == CHESS_PERFT_4
        times.append(time.process_time() - t)
    return sorted(times)[1]


def tweak_records(n: int, start: int = 0) -> list:
    game = games.get("tweak")
    variant = game.parse_rules("tweak/1;rounds=1")
    return [play_record(game, ["greedy"] * 3, seed, variant) for seed in range(start, start + n)]


@pytest.mark.parametrize("mode", ["default", "exact_only"])
def test_tweak_3p_single_round_record(benchmark, mode: str) -> None:
    """Target: at most 20x python-chess perft 4 a record at the default budget (median);
    under 1 s with the exact questions alone."""
    records = tweak_records(GAMES)
    limits = Limits() if mode == "default" else Limits(level=None)
    per_record: list[float] = []
    judged = []
    valued = []

    def run() -> None:
        per_record.clear()
        for rec in records:
            t = time.process_time()
            a = analyze_record(rec, limits=limits)
            per_record.append(time.process_time() - t)
            judged.append(a.summary.judged)
            valued.append(a.summary.valued / max(1, a.summary.decisions))

    base_before = anchor()
    benchmark.group = "analyze"
    benchmark.pedantic(run, rounds=1 if mode == "default" else 3, iterations=1)
    times = sorted(per_record)
    median = times[len(times) // 2]
    base = min(base_before, anchor())  # the anchor before and after: the less loaded one
    benchmark.extra_info.update(
        mode=mode, level=limits.level, records=GAMES, median_s=round(median, 4),
        max_s=round(times[-1], 4), judged_per_record=round(sum(judged) / len(judged), 1),
        valued_share=round(min(valued), 4),
        anchor_chess_perft4_s=round(base, 4), anchor_ratio=round(median / base, 3),
        max_ratio=round(times[-1] / base, 3))
    if mode == "default":
        assert median / base <= 20, f"a record takes {median / base:.1f}x perft 4 (median)"
        assert min(valued) >= 0.95
    else:
        assert median < 1.0, f"a record takes {median:.2f} s (median)"


def _dd_plies(players: int, cards: int) -> list[str]:
    """Position lines of the judged plies (the player to move) of seeded GRAPH-T games
    where every hand holds at most ``cards`` cards."""
    game = games.get("graph-t")
    q = get_question("double-dummy")
    limits = Limits(dd_cards=cards)
    bots = ["ai", "greedy", "random", "ai"][:players]
    lines = []
    for seed in range(GAMES):
        rec = play_record(game, bots, seed)
        rep = replay(rec)
        state = game.new_state(players, game.parse_rules(rec.rules))
        for a in rep.actions:
            if (state.to_move not in (None, DEALER) and q.applies(state) is None
                    and question_player(game.id, state) == state.to_move
                    and in_scope(q, state, limits)):
                most = max(state.hand(s).bit_count() for s in range(state.n))
                if most == cards:
                    lines.append(state.to_line())
            state.push(a)
    return lines


@pytest.mark.parametrize("step", [-1, 0, 1], ids=["K-1", "K", "K+1"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_graph_t_per_judged_ply(benchmark, players: int, step: int) -> None:
    """A judged ply at K cards (``DD_CARDS``: 8, 6, 5 for 2, 3, 4 players) and at K +- 1:
    well under a second up to K."""
    cards = dd_cards(players) + step
    game = games.get("graph-t")
    q = get_question("double-dummy")
    lines = _dd_plies(players, cards)
    times: list[float] = []

    def run() -> None:
        times.clear()
        for line in lines:
            t = time.process_time()
            sol = q.solve(game.from_line(line), Budget(nodes=50_000_000))
            times.append(time.process_time() - t)
            assert sol.complete

    benchmark.group = f"analyze graph-t double-dummy per ply, {players} players"
    benchmark.pedantic(run, rounds=1, iterations=1)
    times.sort()
    median = times[len(times) // 2]
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    benchmark.extra_info.update(players=players, cards=cards, plies=len(times),
                                median_s=round(median, 5), p95_s=round(p95, 5),
                                max_s=round(times[-1], 5), default_k=dd_cards(players))
    if step <= 0:
        assert p95 < 0.5, f"{players} players at {cards} cards: p95 {p95:.2f} s"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("mine") / "corpus.kifu"
    path.write_text(format_records(tweak_records(MINE_RECORDS, start=1000)), encoding="utf-8")
    return path


FOUND: dict[int, list] = {}


@pytest.mark.parametrize("workers", [1, 2])
def test_mine_corpus(benchmark, corpus: Path, workers: int) -> None:
    """Records mined per second (wall clock), and the same puzzles on 1 and 2 workers."""
    jobs = [Job(loc, corpus.name, i)
            for i, loc in enumerate(read_records(corpus.read_text(encoding="utf-8")), 1)]
    found: list = []

    def run() -> None:
        found[:] = list(mine(jobs, question="tweak-this-turn", workers=workers,
                             chunk_size=64))

    benchmark.group = "mine"
    t = time.perf_counter()
    benchmark.pedantic(run, rounds=1, iterations=1)
    wall = time.perf_counter() - t
    FOUND[workers] = found
    benchmark.extra_info.update(records=len(jobs), puzzles=len(found), workers=workers,
                                wall_s=round(wall, 2),
                                records_per_s=round(len(jobs) / wall, 1),
                                question="tweak-this-turn")
    if 1 in FOUND and 2 in FOUND:
        assert FOUND[1] == FOUND[2]
