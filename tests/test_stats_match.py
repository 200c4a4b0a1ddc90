"""The statistics of ``kifu match`` (issue 33): intervals that stay inside their range
(Wilson at the effective number of trials, percentile bootstraps over deals), checked
against scipy and cases worked by hand; the seatings (every order, Williams designs); the
pairwise share with tie-breaks; and memory flat in the number of deals (issue 35), under
an address-space limit rather than a timer."""

from __future__ import annotations

import json
import math
import os
import resource
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from kifu.bots.profiles import pairwise, tiebreak_keys
from kifu.core.game import Result
from kifu.lab import stats as ks
from kifu.lab.match import GameOutcome, seatings, summarize, williams

ROOT = Path(__file__).resolve().parents[1]


# --- cluster_proportion_ci ------------------------------------------------------------


@pytest.mark.parametrize("confidence", [0.8, 0.9, 0.95, 0.99])
def test_independent_trials_give_wilson_as_scipy(confidence) -> None:
    """One 0/1 value per cluster is plain Wilson: scipy's binomtest interval."""
    for n in (1, 2, 5, 17, 100, 1000):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            if not 0 <= k <= n:
                continue
            iv = ks.cluster_proportion_ci([1.0] * k + [0.0] * (n - k), confidence)
            ref = sps.binomtest(k, n).proportion_ci(confidence, method="wilson")
            assert iv.low == pytest.approx(ref.low, rel=1e-12, abs=1e-15), (n, k)
            assert iv.high == pytest.approx(ref.high, rel=1e-12, abs=1e-15), (n, k)


def test_clustered_values_by_hand() -> None:
    """Four deals worth 1, 1, 0 and 1/2: p = 5/8, the variance of the mean
    ((3/8)^2 2 + (5/8)^2 + (1/8)^2) / 4 / 4 = 11/256, so 60/11 effective trials."""
    iv = ks.cluster_proportion_ci([1.0, 1.0, 0.0, 0.5])
    n = (5 / 8) * (3 / 8) / (11 / 256)
    assert n == pytest.approx(60 / 11)
    z = sps.norm.ppf(0.975)
    centre = (5 / 8 + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt((5 / 8) * (3 / 8) / n + z * z / (4 * n * n))
    assert (iv.estimate, iv.low, iv.high) == pytest.approx((5 / 8, centre - half,
                                                            centre + half), rel=1e-12)
    # the effective trials never exceed the games behind the values
    capped = ks.cluster_proportion_ci([1.0, 1.0, 0.0, 0.5], trials=5)
    assert capped.high - capped.low > iv.high - iv.low


def test_the_issue_case_stays_inside() -> None:
    """`random` winning 1 game of 200 deals x 2 seatings gave [-0.002, 0.012] with a t
    interval; every deal all-or-nothing: Wilson over deals."""
    values = [0.5] + [0.0] * 199
    iv = ks.cluster_proportion_ci(values, trials=400)
    assert 0.0 < iv.low < 0.0025 < iv.high < 0.03
    never = ks.cluster_proportion_ci([0.0] * 200, trials=400)
    assert never.low == 0.0 and never.high == pytest.approx(
        sps.binomtest(0, 200).proportion_ci(method="wilson").high, rel=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=60),
       st.floats(0.5, 0.999))
def test_cluster_interval_inside_zero_one(values, confidence) -> None:
    iv = ks.cluster_proportion_ci(values, confidence)
    assert 0.0 <= iv.low <= iv.estimate + 1e-12 and iv.estimate - 1e-12 <= iv.high <= 1.0
    r = ks.scaled_cluster_ci([1 + 3 * v for v in values], 1.0, 4.0, confidence)
    assert 1.0 <= r.low <= r.high <= 4.0


@given(st.floats(0.001, 0.999), st.integers(2, 60))
def test_float_noise_is_no_spread(p, n) -> None:
    """Clusters equal but for float rounding (p + k/10 - k/10) have no spread: the same
    interval as exactly equal ones (one trial a cluster), not a point from a variance of
    1e-34, in cluster_proportion_ci and in bootstrap_means' fallback."""
    noisy = [p + 0.1 * (k % 7) - 0.1 * (k % 7) for k in range(n)]
    exact = ks.cluster_proportion_ci([p] * n)
    iv = ks.cluster_proportion_ci(noisy)
    assert (iv.low, iv.high) == pytest.approx((exact.low, exact.high))
    assert exact.high - exact.low > 0.01
    b = ks.bootstrap_means(np.array(noisy)[:, None], resamples=50, bounds=[(0.0, 1.0)])[0]
    assert (b.low, b.high) == pytest.approx((exact.low, exact.high))


# --- bootstrap_means ------------------------------------------------------------------


def test_bootstrap_means_is_scipys_percentile_bootstrap() -> None:
    """One block of resamples: the same draws as scipy.stats.bootstrap with that seed."""
    rng = np.random.default_rng(3)
    x = rng.random((80, 3))
    mine = ks.bootstrap_means(x, resamples=999, seed=11, confidence=0.9)
    for j in range(3):
        ref = sps.bootstrap((x[:, j],), np.mean, n_resamples=999, method="percentile",
                            confidence_level=0.9, rng=np.random.default_rng(11))
        assert mine[j].estimate == pytest.approx(x[:, j].mean(), rel=1e-12)
        assert mine[j].low == pytest.approx(ref.confidence_interval.low, rel=1e-9)
        assert mine[j].high == pytest.approx(ref.confidence_interval.high, rel=1e-9)


def test_bootstrap_in_blocks_keeps_its_range_and_its_memory(monkeypatch) -> None:
    monkeypatch.setattr(ks, "BLOCK_CELLS", 1000)  # many small blocks
    x = np.column_stack([np.r_[np.ones(99), 0.0], np.full(100, 2.0),
                         np.r_[np.ones(50), np.full(50, 3.0)]])
    ivs = ks.bootstrap_means(x, resamples=500, seed=2, bounds=[(0, 1), (1, 3), (1, 3)])
    assert 0.0 <= ivs[0].low <= 0.99 <= ivs[0].high <= 1.0
    # no spread: Wilson at one trial a deal on the scaled value, not a point
    assert ivs[1].estimate == 2.0 and 1.0 <= ivs[1].low < 2.0 < ivs[1].high <= 3.0
    assert 1.0 <= ivs[2].low < 2.0 < ivs[2].high <= 3.0
    blocks = list(ks.bootstrap_blocks(100, 25, 0))
    assert sum(len(b) for b in blocks) == 25 and all(b.size <= 1000 for b in blocks)
    assert all((b.sum(axis=1) == 100).all() for b in blocks)


def _tables(clusters, players):
    k = len(players)
    wins = np.zeros((len(clusters), k, k))
    games = np.zeros((len(clusters), k, k))
    for c, cl in enumerate(clusters):
        for i, j, s in cl:
            a, b = players.index(i), players.index(j)
            wins[c, a, b] += s
            wins[c, b, a] += 1 - s
            games[c, a, b] += 1
            games[c, b, a] += 1
    return wins, games


def test_elo_counts_fits_as_elo() -> None:
    clusters = [[("a", "b", 1.0), ("a", "c", 0.5)], [("b", "c", 0.0), ("a", "b", 0.0)],
                [("a", "c", 1.0), ("b", "c", 1.0)], [("a", "b", 1.0)]]
    players = ["a", "b", "c"]
    wins, games = _tables(clusters, players)
    old = ks.elo(clusters, players, resamples=200, seed=1)
    new = ks.elo_counts(wins, games, players, resamples=200, seed=1)
    for p in players:
        assert new.rating(p).estimate == pytest.approx(old.rating(p).estimate, abs=1e-9)
        assert new.rating(p).low <= new.rating(p).estimate <= new.rating(p).high


@pytest.mark.parametrize("deals", [1, 2, 5, 40])
def test_elo_interval_does_not_collapse_when_every_deal_is_the_same(deals) -> None:
    """Every deal won by ``a`` (two comparisons a deal): the bootstrap has no spread, so
    the difference's interval is the Elo image of Wilson's interval at one trial a deal,
    with the fit's virtual tie; the upper bound is the estimate, as the share's is 1.
    Before, ``kifu match tweak --players 2 --set rounds=1 --bots greedy,random --games 2``
    gave Elo +382 [+382, +382] beside the share 1.000 [0.342, 1.000]."""
    players = ["a", "b"]
    clusters = [[("a", "b", 1.0), ("a", "b", 1.0)]] * deals
    wins, games = _tables(clusters, players)
    low_share = ks.proportion_ci(deals, deals).low
    g = 2 * deals
    expect_low = ks.elo_from_score((low_share * g + 0.5) / (g + 1))
    expect_point = ks.elo_from_score((g + 0.5) / (g + 1))
    for table in (ks.elo(clusters, players, resamples=99),
                  ks.elo_counts(wins, games, players, resamples=99)):
        d = table.difference("a", "b")
        assert d.estimate == pytest.approx(expect_point, abs=1e-6)
        assert d.low == pytest.approx(expect_low, abs=1e-6)
        assert d.high == pytest.approx(d.estimate, abs=1e-9)
        assert d.low < d.estimate
        r = table.rating("a")
        assert r.low == pytest.approx(d.low / 2, abs=1e-6)
        assert r.high == pytest.approx(d.estimate / 2, abs=1e-6)
        assert table.rating("b").low == pytest.approx(-d.estimate / 2, abs=1e-6)


def test_one_deal_with_a_pair_that_never_met_leaves_its_ratings_undefined() -> None:
    """One deal, ``c`` met nobody: a-b's difference gets the Wilson image, but a rating
    that needs a difference with no interval stays undefined (NaN), not a point."""
    t = ks.elo([[("a", "b", 1.0)]], ["a", "b", "c"], resamples=9)
    ab = t.difference("a", "b")
    assert ab.low < ab.estimate == pytest.approx(ab.high)
    for p in "abc":
        r = t.rating(p)
        assert math.isnan(r.low) and math.isnan(r.high)


def test_elo_interval_keeps_the_bootstrap_where_it_has_spread() -> None:
    """Three players: ``a`` beats ``b`` in every deal, the other pairs vary, so every
    resample still moves every fitted figure: each interval is the plain bootstrap's."""
    import kifu.lab.stats as mod

    players = ["a", "b", "c"]
    rng = np.random.default_rng(4)
    clusters = [[("a", "b", 1.0), ("a", "c", float(rng.integers(2))),
                 ("b", "c", float(rng.integers(2)))] for _ in range(30)]
    wins, games = _tables(clusters, players)
    t = ks.elo_counts(wins, games, players, resamples=199, seed=2)
    others = [(x, y) for x in range(3) for y in range(3) if x != y]
    point = mod._ratings_of(np.ones((1, 30)), wins, games, 1.0, others)[0]
    fits = np.concatenate([mod._ratings_of(c, wins, games, 1.0, others)
                           for c in ks.bootstrap_blocks(30, 199, 2)])
    low, high = mod._percentiles(fits, 0.95)
    got = [*t.ratings, *t.differences.values()]
    assert [iv.estimate for iv in got] == pytest.approx(list(point))
    assert [iv.low for iv in got] == pytest.approx(list(low))
    assert [iv.high for iv in got] == pytest.approx(list(high))
    assert t.difference("a", "b").low < t.difference("a", "b").estimate


def test_elo_intervals_of_three_players_in_identical_deals_hold_their_estimates() -> None:
    """Every deal the same (a beats b and c, b and c tie): nothing to resample, and every
    interval reaches past its estimate on the side the data leave open."""
    players = ["a", "b", "c"]
    clusters = [[("a", "b", 1.0), ("a", "c", 1.0), ("b", "c", 0.5)]] * 6
    t = ks.elo(clusters, players, resamples=99)
    for iv in [*t.ratings, *t.differences.values()]:
        assert iv.low <= iv.estimate <= iv.high and iv.low < iv.high
    ab = t.difference("a", "b")
    assert ab.high == pytest.approx(ab.estimate) and ab.low < ab.estimate
    bc = t.difference("b", "c")
    assert bc.low < bc.estimate < bc.high

# --- seatings, pairwise ------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_williams_design_is_balanced(n) -> None:
    rows = williams(n)
    assert len(rows) == (n if n % 2 == 0 else 2 * n)
    for pos in range(n):
        assert Counter(r[pos] for r in rows) == Counter({i: len(rows) // n for i in range(n)})
    follows = Counter((r[i], r[i + 1]) for r in rows for i in range(n - 1))
    assert set(follows) == {(a, b) for a in range(n) for b in range(n) if a != b}
    assert len(set(follows.values())) == 1


def test_seatings_every_order_or_a_design() -> None:
    assert len(seatings(["a", "b", "c", "d"], 4)) == 24
    assert len(seatings(["a", "b"], 4)) == 6  # aabb's distinct orders
    five = seatings(list("abcde"), 5)
    assert len(five) == 10 and five[0] == tuple("abcde")
    assert all(sorted(s) == list("abcde") for s in five)
    six = seatings(list("abcdef"), 6)
    assert len(six) == 6
    assert seatings(["a"], 3) == [("a", "a", "a")]


def test_pairwise_breaks_ties_by_keys() -> None:
    res = Result((1, 0, 0, 0), (1, 2, 2, 2))
    assert pairwise(res, 1) == pytest.approx(1 / 3)  # two ties: half each
    keys = (-0.0, -3.0, -1.0, -3.0)  # cards left: seat 2 holds fewest of the losers
    assert pairwise(res, 2, keys) == pytest.approx(2 / 3)
    assert pairwise(res, 1, keys) == pytest.approx(0.5 / 3)
    assert pairwise(res, 0, keys) == 1.0
    assert pairwise(res, 1, keys, against=3) == 0.5
    assert pairwise(res, 2, keys, against=1) == 1.0
    shares = [pairwise(res, s, keys) for s in range(4)]
    assert sum(shares) == pytest.approx(2.0)  # n / 2: every comparison shared out


def test_towai_tiebreak_is_cards_left() -> None:
    from kifu import games

    game = games.get("towai")
    state = game.from_line("towai/1;wins=1 E day -/D3/D4D5 - - - -:0 1,0,0 f0t3")
    assert tiebreak_keys("towai", state) == (0.0, -1.0, -2.0)
    assert tiebreak_keys("tweak", state) is None


def test_summary_shares_use_the_tiebreak() -> None:
    deal = [GameOutcome(0, ("a", "b", "c"), (1, 0, 0), (1, 2, 2), (0.0, -1.0, -4.0)),
            GameOutcome(0, ("b", "c", "a"), (1, 0, 0), (1, 2, 2), (0.0, -2.0, -2.0))]
    r = summarize("towai", "towai/1;wins=1", ["a", "b", "c"], 3, [deal, deal], 0,
                  resamples=20)
    share = {b.bot: b.share.estimate for b in r.bot_lines}
    # a: 1 (first), then a tie with c on cards: 1/4; b: 1/2 then 1; c: 0 then 1/4
    assert share == pytest.approx({"a": 0.625, "b": 0.75, "c": 0.125})
    pair = {(p.a, p.b): p.score.estimate for p in r.pair_lines}
    assert pair[("a", "c")] == pytest.approx(0.75)
    assert r.tiebreak.startswith("cards left")


def test_match_intervals_stay_in_range(tmp_path) -> None:
    """The issue's command (fewer deals): every interval inside its range."""
    from click.testing import CliRunner

    from kifu.cli.main import cli

    out = CliRunner().invoke(cli, ["match", "tweak", "--players", "2", "--set", "rounds=1",
                                   "--bots", "greedy,random", "--games", "100", "--json",
                                   "-q"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    for b in report["by_bot"]:
        assert 1 <= b["mean_rank"]["low"] <= b["mean_rank"]["high"] <= 2
        assert 0 <= b["win_rate"]["low"] <= b["win_rate"]["high"] <= 1
        assert 0 <= b["share"]["low"] <= b["share"]["high"] <= 1
    for p in report["pairs"]:
        assert 0 <= p["score"]["low"] <= p["score"]["high"] <= 1
    assert "every distinct order" in report["design"]



def test_match_elo_interval_of_identical_deals_is_not_a_point() -> None:
    """Two deals, `greedy` wins all four games: the share is 1.000 [0.342, 1.000], and the
    Elo difference's interval reaches down as far (it was +382 [+382, +382])."""
    from click.testing import CliRunner

    from kifu.cli.main import cli

    out = CliRunner().invoke(cli, ["match", "tweak", "--players", "2", "--set", "rounds=1",
                                   "--bots", "greedy,random", "--games", "2", "--json", "-q"])
    assert out.exit_code == 0, out.output
    report = json.loads(out.output)
    (pair,) = report["pairs"]
    assert pair["score"]["estimate"] == 1.0 and pair["score"]["low"] < 0.5
    assert pair["elo"]["low"] < 0 < pair["elo"]["estimate"] == pair["elo"]["high"]
    for b in report["by_bot"]:
        assert b["elo"]["low"] < b["elo"]["high"]


# --- memory flat in the number of deals (issue 35) -------------------------------------

LIMIT_AS = 256 * 1024 * 1024
"""The address space the child may use. ``kifu match towai --bots greedy,random`` over
6,000 deals needs more on bc460f0 (it kept every game, and its Elo bootstrap drew all its
resamples at once: an ``(999, deals)`` array); here about 200 MB whatever the deals."""


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_AS, LIMIT_AS))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS as on Linux")
def test_match_memory_is_flat_in_the_deals() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), OPENBLAS_NUM_THREADS="1",
               OMP_NUM_THREADS="1")
    res = subprocess.run([sys.executable, "-m", "kifu.cli.main", "match", "towai",
                          "--players", "2", "--set", "wins=1", "--bots", "greedy,random",
                          "--games", "6000", "-q", "--json"], capture_output=True,
                         timeout=600, preexec_fn=_limited, env=env)
    assert res.returncode == 0, res.stderr.decode()[-800:]
    report = json.loads(res.stdout)
    assert report["deals"] == 6000 and report["games"] == 12000
