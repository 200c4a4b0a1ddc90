"""Shared inputs of the benchmark suite: perft cases, seeded positions, a record corpus.

Every input is built from fixed seeds, so two runs time the same work. Benchmarks live here,
not in ``tests/`` (the normal ``pytest`` run collects ``testpaths = tests`` only); run them
with ``pytest benchmarks --benchmark-only``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kifu import games
from kifu.core.game import DEALER, Game, State
from kifu.core.rng import Rng
from kifu.notation.perftfile import PerftCase, read_perft

ROOT = Path(__file__).resolve().parent.parent
PERFT_DIR = ROOT / "fixtures" / "perft"


def load_game(gid: str) -> Game:
    """The game, or a skip saying why it cannot be benchmarked (not landed, broken)."""
    try:
        return games.get(gid)
    except Exception as e:  # a game being written may not import yet
        pytest.skip(f"{gid} does not import ({type(e).__name__}: {e}); its benchmarks wait")


def perft_cases(gid: str) -> list[PerftCase]:
    path = PERFT_DIR / f"{gid}.perft"
    return read_perft(path) if path.exists() else []


def per_second(benchmark, **amounts: float) -> None:
    """Store ``amount / median`` for each named amount in ``benchmark.extra_info`` (e.g.
    ``nodes_per_s``), beside the amount itself."""
    stats = getattr(benchmark, "stats", None)
    for name, amount in amounts.items():
        benchmark.extra_info[name] = amount
        if stats is not None:
            benchmark.extra_info[f"{name}_per_s"] = round(amount / stats.stats.median, 1)


CHESS_PERFT_4 = 197_281
"""python-chess perft 4 from the start position: the anchor every speed figure is set against."""


def chess_perft(board, depth: int) -> int:
    """python-chess's own perft (its test suite's), the last level counted in bulk
    (``legal_moves.count()``), as kifu's perft counts it. Shared by the benchmarks and
    ``tools/dd_anchor.py``, ``tools/perft_ratio.py``, which time it beside kifu's work."""
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += chess_perft(board, depth - 1)
        board.pop()
    return nodes


def random_play(state: State, game: Game, rng: Rng, plies: int | None = None) -> State:
    """Push uniformly random actions (the dealer's drawn by ``chance_action``) until the
    game ends or ``plies`` actions have been played."""
    k = 0
    while state.to_move is not None and (plies is None or k < plies):
        if state.to_move == DEALER:
            state.push(game.chance_action(state, rng))
        else:
            state.push(rng.choice(state.legal_actions()))
        k += 1
    return state


@pytest.fixture(scope="session")
def tweak_positions() -> list[State]:
    """Typical TWEAK positions: every player turn of 12 seeded random single-round games
    (2 to 6 players), as independent states."""
    game = games.get("tweak")
    variant = game.parse_rules("tweak/1;rounds=1")
    out = []
    for seed in range(12):
        state = game.new_state(2 + seed % 5, variant)
        rng = Rng(seed)
        while state.to_move is not None:
            if state.to_move == DEALER:
                state.push(game.chance_action(state, rng))
                continue
            out.append(game.from_line(state.to_line()))
            state.push(rng.choice(state.legal_actions()))
    return out


@pytest.fixture(scope="session")
def tweak_worst() -> State:
    """The 12-card-table position of ``fixtures/perft/tweak.perft`` (759 captures)."""
    (case,) = [c for c in perft_cases("tweak") if c.id == "3p-table-12"]
    return games.get("tweak").from_line(case.position)


@pytest.fixture(scope="session")
def tweak_corpus():
    """200 typical single-round 3-player TWEAK records (greedy bots, seeds 0..199): the
    records, their canonical text and their JSON."""
    from kifu.lab.play import play_record
    from kifu.notation.record import format_records, record_to_json

    game = games.get("tweak")
    variant = game.parse_rules("tweak/1;rounds=1")
    records = [
        play_record(game, ["greedy"] * 3, seed, variant, date="2026.01.01") for seed in range(200)
    ]
    text = format_records(records)
    json = b"[" + b",".join(record_to_json(r) for r in records) + b"]"
    return records, text, json


# --- large corpora for validation and the archive (built once per session) ------------------

CORPUS_RECORDS = 10_000


def _play_range(args: tuple[str, int, int]) -> str:
    """The canonical text of the seeded games ``lo..hi`` of one game (TWEAK: single-round,
    3 greedy bots; GRAPH-T: 2-4 random bots, full game)."""
    from kifu.lab.play import play_record
    from kifu.notation.record import format_records

    gid, lo, hi = args
    game = games.get(gid)
    if gid == "tweak":
        variant = game.parse_rules("tweak/1;rounds=1")
        recs = [play_record(game, ["greedy"] * 3, s, variant, date="2026.01.01")
                for s in range(lo, hi)]
    else:
        recs = [play_record(game, ["random"] * (2 + s % 3), s, None, date="2026.01.01")
                for s in range(lo, hi)]
    return format_records(recs)


def build_corpus(gid: str, n: int = CORPUS_RECORDS) -> str:
    """``n`` seeded records of ``gid`` as one canonical text (played on 2 processes)."""
    import concurrent.futures as cf

    step = 500
    parts = [(gid, lo, min(n, lo + step)) for lo in range(0, n, step)]
    with cf.ProcessPoolExecutor(max_workers=2) as pool:
        return "\n".join(pool.map(_play_range, parts))


@pytest.fixture(scope="session")
def big_corpora(tmp_path_factory) -> dict[str, Path]:
    """10,000 records each of TWEAK and GRAPH-T, written to files in a session tmp dir."""
    out = {}
    folder = tmp_path_factory.mktemp("corpora")
    for gid in ("tweak", "graph-t"):
        load_game(gid)
        path = folder / f"{gid}-{CORPUS_RECORDS}.kifu"
        path.write_text(build_corpus(gid), encoding="utf-8")
        out[gid] = path
    return out
