"""Per-deal results of ``kifu match --json`` and the paired intervals of two reports on the
same deals (:mod:`kifu.lab.paired`, issue 33)."""

from __future__ import annotations

import json
import os

import msgspec
import numpy as np
import pytest

from kifu.lab import paired
from kifu.lab.match import GameOutcome, play_match, summarize
from kifu.lab.stats import bootstrap_means, cluster_proportion_ci


def _report(bots, seed, deals=12, players=3, game="tweak", rules="tweak/1;rounds=1"):
    outs = [d for d, _ in play_match(game, bots, players=players, deals=deals, seed=seed,
                                     rules=rules)]
    return summarize(game, rules, bots, players, outs, seed, resamples=50)


def test_per_deal_lines_recount_the_shares() -> None:
    """Each bot's share in the report is the mean over deals of its per-deal shares."""
    r = _report(["greedy", "random"], 5)
    assert len(r.per_deal) == r.deals == 12
    assert [d.deal for d in r.per_deal] == list(range(12))
    for line in r.per_deal:
        assert len(line.shares) == len(r.seatings)
        for row, seats in zip(line.shares, r.seatings, strict=True):
            for b, v in zip(r.bots, row, strict=True):
                assert (v is None) == (b not in seats)
                assert v is None or 0.0 <= v <= 1.0
    for b in r.bot_lines:
        per = paired.deal_shares(r, b.bot)
        assert sum(per.values()) / len(per) == pytest.approx(b.share.estimate, abs=1e-4)


def test_per_deal_share_is_the_mean_over_the_bots_seats() -> None:
    deal = [GameOutcome(0, ("a", "b", "a"), (3, 2, 1), (1, 2, 3)),
            GameOutcome(0, ("a", "a", "b"), (3, 2, 1), (1, 2, 3))]
    r = summarize("tweak", "x", ["a", "b"], 3, [deal], 0, resamples=10)
    # seating 1: a first (1) and last (0) -> 0.5, b 0.5; seating 2: a 1 and 0.5, b 0
    assert r.per_deal[0].shares == [[0.5, 0.5], [0.75, 0.0]]
    assert summarize("tweak", "x", ["a", "b"], 3, [deal], 0, resamples=10
                     ).bot_lines[0].share.estimate == pytest.approx(0.625)


def test_json_keeps_the_old_fields_and_adds_per_deal() -> None:
    from click.testing import CliRunner

    from kifu.cli.main import cli

    out = CliRunner().invoke(cli, ["match", "tweak", "--players", "2", "--set", "rounds=1",
                                   "--bots", "greedy,random", "--games", "6", "--seed", "3",
                                   "--json", "-q"])
    assert out.exit_code == 0, out.output
    rep = json.loads(out.output)
    for key in ("game", "rules", "players", "bots", "seatings", "deals", "games", "seed",
                "confidence", "by_bot", "pairs", "design", "tiebreak", "intervals"):
        assert key in rep
    assert len(rep["per_deal"]) == 6
    assert rep["per_deal"][0][0] == 0 and len(rep["per_deal"][0][1]) == len(rep["seatings"])
    assert paired.deal_shares(rep, "greedy").keys() == set(range(6))


def test_paired_difference_of_a_run_with_itself_is_zero() -> None:
    """No spread to resample: Wilson's interval at one trial a deal within [-1, 1], about
    0, not the point [0, 0] (12 deals show no more than that)."""
    r = _report(["greedy", "random"], 7)
    d = paired.paired_difference(r, "greedy", r, "greedy")
    assert (d.estimate, d.deals) == (0.0, 12)
    w = cluster_proportion_ci([0.5] * 12)  # 0 mapped from [-1, 1] to [0, 1]
    assert (d.low, d.high) == pytest.approx((2 * w.low - 1, 2 * w.high - 1))
    assert -1.0 < d.low < 0.0 < d.high < 1.0 and d.low == pytest.approx(-d.high)
    assert d.interval == paired.NO_SPREAD


def _const(bot: str, share: float, deals: int, noise: bool = False) -> dict:
    """A report of ``deals`` deals where ``bot`` takes ``share`` in every deal (written as
    share + 0.1 k - 0.1 k with ``noise``, so equal only to within float rounding)."""
    rows = [[i, [[share + 0.1 * (i % 3) - 0.1 * (i % 3) if noise else share, 1 - share]]]
            for i in range(deals)]
    return {"game": "g", "rules": "r", "players": 2, "seed": "1", "bots": [bot, "x"],
            "per_deal": rows}


@pytest.mark.parametrize("deals", [1, 2, 5, 40])
def test_a_difference_the_same_in_every_deal_is_not_a_point(deals: int) -> None:
    """Two-player runs whose shares saturate (1 against 0 in every deal) and one deal gave
    [d, d] before: now Wilson's interval at one trial a deal, inside the range, as kifu
    match's shares."""
    d = paired.paired_difference(_const("a", 1.0, deals), "a", _const("b", 0.0, deals), "b")
    w = cluster_proportion_ci([1.0] * deals)
    assert (d.estimate, d.high) == (1.0, 1.0)
    assert d.low == pytest.approx(2 * w.low - 1) and -1.0 <= d.low < 1.0
    assert d.interval == paired.NO_SPREAD
    g = paired.gap_target(_const("e", 0.75, deals), _const("c", 1.0, deals), "e", "c")
    assert g.estimate == pytest.approx(0.0)
    assert -1.5 <= g.low < 0.0 < g.high <= 1.5  # 0.0 in [-1.5, 1.5] is 0.5 in [0, 1]


def test_float_noise_is_no_spread() -> None:
    """0.5 + 0.1 k - 0.1 k is 0.5 to within rounding: the same interval as exact 0.5."""
    exact = paired.paired_difference(_const("a", 0.5, 30), "a", _const("b", 0.4, 30), "b")
    noisy = paired.paired_difference(_const("a", 0.5, 30, noise=True), "a",
                                     _const("b", 0.4, 30), "b")
    assert exact.high - exact.low > 0.3  # the fallback, not a point
    assert (noisy.low, noisy.high) == pytest.approx((exact.low, exact.high))
    assert noisy.interval == exact.interval == paired.NO_SPREAD


def test_paired_difference_is_the_bootstrap_of_the_per_deal_differences() -> None:
    a = _report(["greedy", "random"], 9)
    b = _report(["random", "greedy"], 9)  # same deals, other seat list
    d = paired.paired_difference(a, "greedy", b, "random")
    xa, xb = paired.deal_shares(a, "greedy"), paired.deal_shares(b, "random")
    diffs = np.array([[xa[i] - xb[i]] for i in range(12)])
    iv = bootstrap_means(diffs, resamples=paired.RESAMPLES, seed=0)[0]
    assert d.estimate == pytest.approx(float(np.mean(diffs)))
    assert (d.low, d.high) == pytest.approx((iv.low, iv.high))
    assert d.low <= d.estimate <= d.high and d.interval == paired.BOOTSTRAP
    assert d.estimate > 0.3  # greedy beats random by far: the test sees a real difference


def test_gap_target_per_deal() -> None:
    e = _report(["greedy", "random"], 11)
    c = _report(["greedy", "random"], 11)
    g = paired.gap_target(e, c, "greedy", "greedy")
    xe = paired.deal_shares(e, "greedy")
    assert g.estimate == pytest.approx(sum(xe.values()) / 12 - 0.5)


def test_reports_of_other_deals_are_refused() -> None:
    a = _report(["greedy", "random"], 1, deals=3)
    b = _report(["greedy", "random"], 2, deals=3)
    with pytest.raises(ValueError, match="seed"):
        paired.paired_difference(a, "greedy", b, "greedy")
    with pytest.raises(ValueError, match="not in the report"):
        paired.paired_difference(a, "pimc", a, "greedy")
    old = msgspec.to_builtins(a)
    old["per_deal"] = []
    with pytest.raises(ValueError, match="no per-deal"):
        paired.deal_shares(old, "greedy")


def test_main_reads_json_files(tmp_path, capsys) -> None:
    a = _report(["greedy", "random"], 4, deals=4)
    p = tmp_path / "a.json"
    p.write_bytes(msgspec.json.encode(a))
    assert paired.main([str(p), "greedy", str(p), "random"]) == 0
    line, js = capsys.readouterr().out.splitlines()
    assert line.startswith("greedy - random: +") and json.loads(js)["deals"] == 4
    assert line.endswith(f"(95%, {json.loads(js)['interval']})")
    one = tmp_path / "one.json"
    one.write_text(json.dumps(_const("a", 1.0, 1)))
    assert paired.main([str(one), "a", str(one), "a"]) == 0
    line, js = capsys.readouterr().out.splitlines()
    assert line.endswith(f"over 1 deal (95%, {paired.NO_SPREAD})")
    assert json.loads(js)["interval"] == paired.NO_SPREAD
    assert paired.main([str(p), "greedy", str(tmp_path / "none.json"), "random"]) == 1


def test_main_says_what_is_wrong_with_a_bad_report(tmp_path, capsys) -> None:
    not_json = tmp_path / "a.json"
    not_json.write_text("x\n")
    no_game = tmp_path / "b.json"
    no_game.write_text("{}\n")
    assert paired.main([str(not_json), "expert", str(no_game), "expert"]) == 1
    assert f"{not_json}: not JSON" in capsys.readouterr().err
    assert paired.main([str(no_game), "expert", str(no_game), "expert", "--gap"]) == 1
    err = capsys.readouterr().err
    assert "not a kifu match --json report: it has no 'game'" in err
    assert "Traceback" not in err


def test_main_stops_quietly_when_the_reader_goes_away(tmp_path) -> None:
    """``python -m kifu.lab.paired ... | head -0``: exit 1 and no traceback on stderr (the
    reader closed the pipe before the report was written)."""
    import subprocess
    import sys

    p = tmp_path / "a.json"
    p.write_bytes(msgspec.json.encode(_report(["greedy", "random"], 4, deals=4)))
    r, w = os.pipe()
    os.close(r)  # the reader is gone before anything is written
    proc = subprocess.run([sys.executable, "-m", "kifu.lab.paired", str(p), "greedy", str(p),
                           "random"], stdout=w, stderr=subprocess.PIPE, text=True,
                          check=False)
    os.close(w)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr
