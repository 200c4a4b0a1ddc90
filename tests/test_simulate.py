"""kifu simulate: paired seeds, the same report on any executor, verdicts that call a change
only when the interval excludes zero (and no more often than the nominal 5% when nothing
changed), the command's outputs."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats as sps

from kifu import games
from kifu.cli.main import cli
from kifu.lab import simulate as lab
from kifu.lab.stats import paired_difference_ci
from kifu.notation.files import load_records
from kifu.notation.record import format_record
from kifu.notation.replay import replay

ONE_ROUND = "tweak/1;rounds=1"


def report(game: str, players: int, count: int, seed: int, specs, bots=("greedy",), **kw):
    return lab.analyse(lab.simulate(game, players, count, seed, specs, list(bots), **kw))


def played_rows(gid: str, players: int, count: int, seed: int, spec: str,
                bots=("greedy",)) -> list[lab.GameRow]:
    """The rows of ``count`` games (a simulation keeps sums only; a test wants games)."""
    game = games.get(gid)
    variant = game.parse_rules(spec)
    names = list(bots) * (players if len(bots) == 1 else 1)
    out = []
    for seed_ in range(seed, seed + count):
        state, capped = lab.play_game(game, names, seed_, variant)
        out.append(lab.row_of(game, state, seed_, capped=capped))
    return out


def test_games_are_kifu_play_games():
    # game i under each rule set is the game `kifu play --seed S+i` plays under it
    game = games.get("tweak")
    sim = lab.simulate("tweak", 2, 3, 5, [ONE_ROUND, "tweak/1;rounds=1;empty_capture=true"],
                       ["greedy", "random"], records=True)
    from kifu.lab.play import play_record

    for r, spec in enumerate(sim.setup.rules):
        for i, text in enumerate(sim.texts[r]):
            rec = play_record(game, ["greedy", "random"], 5 + i, game.parse_rules(spec))
            assert text == format_record(rec)


def test_same_report_on_any_executor():
    specs = [ONE_ROUND, "tweak/1;rounds=1;threshold=0;t_cards=TJ"]
    base = msgspec.json.encode(report("tweak", 3, 10, 1, specs))
    assert msgspec.json.encode(report("tweak", 3, 10, 1, specs, chunk_size=3)) == base
    assert msgspec.json.encode(report("tweak", 3, 10, 1, specs, workers=2,
                                      chunk_size=4)) == base


def test_rule_set_against_itself_changes_nothing():
    rep = report("tweak", 3, 30, 7, [ONE_ROUND, ONE_ROUND])
    (c,) = rep.comparisons
    assert not any(ch.changed for ch in c.changes.values())
    assert all(ch.verdict == "no change in any game" for ch in c.changes.values())
    assert c.winners_changed == 0


def test_threshold_60_shortens_tweak():
    # the acceptance question at a small scale (benchmarks/test_simulate.py runs 2000)
    game = games.get("tweak")
    specs = lab.rule_sets(game, ["tweak/1"], ["threshold=60"])
    assert specs == ["tweak/1", "tweak/1;threshold=60"]
    rep = report("tweak", 3, 40, 1, specs)
    plies = rep.comparisons[0].changes["plies"]
    assert plies.changed and plies.difference.high < 0
    assert plies.verdict.startswith("shorter by ")
    assert rep.comparisons[0].changes["rounds"].changed


def test_false_changes_near_nominal_on_games():
    # Nothing changes between two halves of one rule set's games (different seeds, so the
    # "pairs" are independent and the mean difference is 0): over 50 repetitions the
    # plies metric should be called changed about 5% of the time. If the intervals are
    # right the count X is Binomial(50, 0.05) (mean 2.5): P(X >= 8) = 0.003, so X <= 7 is
    # the tolerance; an interval covering only 85% would give X >= 8 half of the time.
    game = games.get("tweak")
    k = 16
    rows = played_rows("tweak", 2, 2 * k * 50, 1000, ONE_ROUND)
    false = 0
    for rep in range(50):
        a = rows[2 * k * rep: 2 * k * rep + k]
        b = rows[2 * k * rep + k: 2 * k * (rep + 1)]
        c = lab.compare(game.id, 2, 0, 1, [ONE_ROUND, ONE_ROUND], a, b)
        false += c.changes["plies"].changed
    assert sps.binom.sf(7, 50, 0.05) < 0.004
    assert false <= 7


@pytest.mark.parametrize("draw", ["normal", "poisson"])
def test_false_changes_near_nominal_in_the_stats_layer(draw):
    # 2000 paired samples of 30 with no true difference: the share of intervals excluding
    # 0 is Binomial(2000, 0.05)/2000 if they cover 95%: sd 0.49%, so [3.5%, 6.5%] is +-3 sd
    rng = np.random.default_rng(24)
    calls = 0
    for _ in range(2000):
        if draw == "normal":
            a, b = rng.normal(100, 15, 30), rng.normal(100, 15, 30)
        else:
            a, b = rng.poisson(3.0, 30), rng.poisson(3.0, 30)
        calls += paired_difference_ci(b, a).excludes(0.0)
    assert 0.035 <= calls / 2000 <= 0.065


def test_verdict_words():
    info = lab.MetricInfo("plies", "length", "")
    from kifu.lab.stats import Interval

    assert lab.verdict(info, Interval(-51.2, -54.1, -48.3, 100)) == (
        True, "shorter by 51 plies [48, 54]")
    assert lab.verdict(info, Interval(0.4, -1.2, 2.0, 100)) == (
        False, "no detectable change (+0.4 plies [-1.2, 2.0])")
    rate = lab.MetricInfo("win_p0", "seat", "", rate=True)
    assert lab.verdict(rate, Interval(0.031, 0.012, 0.05, 100)) == (
        True, "more often by 3.1 pp [1.2, 5.0]")
    assert lab.verdict(info, Interval(1.0, float("nan"), float("nan"), 1))[0] is False


def test_summary_figures_by_hand():
    # three finished 2-seat games: scores (10, 4), (6, 6) shared, (3, 9)
    rows = [lab.GameRow(1, 30, False, (10, 4), (1, 2), (0,) * 11, order=(1, 0)),
            lab.GameRow(2, 40, False, (6, 6), (1, 1), (0,) * 11, order=(0, 1)),
            lab.GameRow(3, 50, False, (3, 9), (2, 1), (0,) * 11, order=(1, 0))]
    s = lab.summarize("towai", 2, "towai/1", rows)
    assert s.finished == 3 and s.ties == 1
    assert s.metrics["plies"].mean.estimate == 40 and s.metrics["plies"].sd == 10
    assert s.metrics["margin"].mean.estimate == pytest.approx((6 + 0 + 6) / 3)
    assert s.seats[0].wins == 2 and s.seats[1].wins == 2
    assert s.seats[0].mean_rank.estimate == pytest.approx(4 / 3, abs=1e-4)
    # the fairness test counts single-winner games only: one each
    assert s.fairness.games == 2 and s.fairness.counts == [1, 1] and s.fairness.p_value == 1
    # by turn order: p1 moved first in games 1 and 3 (winning game 3), p0 in game 2 (a
    # shared first place): the first player won 2 of 3, the second 2 of 3
    assert [t.wins for t in s.turns] == [2, 2]
    assert s.turn_fairness.counts == [1, 1] and s.first_seats == [1, 2]
    # plies 30, 40, 50: t interval 40 +- t(0.975, 2) * 10 / sqrt(3)
    half = 4.302652729911275 * 10 / 3 ** 0.5
    assert s.metrics["plies"].mean.low == pytest.approx(40 - half, abs=1e-4)


def test_histograms_share_bins():
    h = lab.histogram("plies", [[3, 4, 30], [10]])
    assert h.edges[0] == 3 and h.edges[-1] > 30
    assert [sum(c) for c in h.counts] == [3, 1]
    assert len(h.edges) == len(h.counts[0]) + 1 <= lab.MAX_BINS + 1
    assert h.varies and not lab.histogram("plies", [[53, 53], {53: 4}]).varies


# --- the command ----------------------------------------------------------------------------

def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_cli_json_records_db_and_html(tmp_path):
    out, db, page = tmp_path / "c.kifu", tmp_path / "c.db", tmp_path / "r.html"
    r = run("simulate", "graph-t", "-n", "3", "--games", "6", "--set", "grey_open=anyone",
            "--json", "-q", "-o", str(out), "--db", str(db), "--html", str(page))
    assert r.exit_code == 0, r.output
    rep = msgspec.json.decode(r.stdout, type=lab.SimulationReport)
    assert rep.rules == ["graph-t/1", "graph-t/1;grey_open=anyone"]
    locs = list(load_records(str(out)))
    assert len(locs) == 12
    assert all(replay(loc).state.result() is not None for loc in locs)
    assert [loc.record.headers["Rules"] for loc in locs] == ["graph-t/1"] * 6 + [
        "graph-t/1;grey_open=anyone"] * 6
    assert page.read_text().startswith("<!DOCTYPE html>")
    # the archive's figures for rule set A are the simulation's
    s = run("archive", "stats", "--db", str(db), "--by", "rules", "--json")
    groups = json.loads(s.stdout)
    assert [g["rules"] for g in groups] == rep.rules
    a = msgspec.json.decode(json.dumps(groups[0]["summary"]), type=lab.RuleSetSummary)
    assert a.metrics == rep.rule_sets[0].metrics and a.seats == rep.rule_sets[0].seats


def test_cli_text_report():
    r = run("simulate", "towai", "-n", "2", "--games", "5", "--rules", "towai/1;wins=1",
            "--rules", "towai/1;wins=1;cap=30", "-q")
    assert r.exit_code == 0
    assert "A = towai/1;wins=1" in r.stdout and "B = towai/1;cap=30;wins=1" in r.stdout
    assert "B - A, paired on 5 seed(s)" in r.stdout and "seats fair?" in r.stdout
    assert "turn order fair?" in r.stdout and "first player wins" in r.stdout


@pytest.mark.parametrize("args, message", [
    (["--bots", "greedy,nobody"], "has no bot 'nobody'"),
    (["--bots", "greedy,greedy,greedy"], "names 3 bots for 2 players"),
    (["--rules", "graph-t/1"], "not for tweak"),
    (["--set", "colour=R"], "unknown variant field"),
    (["-o", "-"], "need a file"),
    (["--seed", "tuesday"], "needs an integer seed"),
])
def test_cli_errors(args, message):
    r = CliRunner().invoke(cli, ["simulate", "tweak", "-n", "2", "--games", "2", *args])
    assert r.exit_code == 1 and message in r.output and "Traceback" not in r.output


def test_cli_outputs_never_over_each_other_or_an_input(tmp_path):
    same = str(tmp_path / "x")
    r = CliRunner().invoke(cli, ["simulate", "tweak", "-n", "2", "--games", "2", "-o", same,
                                 "--html", same])
    assert r.exit_code == 1 and "given twice" in r.output
    cards = tmp_path / "mine.cards"
    text = Path("kifu/games/alice/cards/default.cards").read_text()
    cards.write_text(text)
    r = CliRunner().invoke(cli, ["simulate", "alice", "-n", "3", "--games", "2", "--cards",
                                 str(cards), "-o", str(cards)])
    assert r.exit_code == 1 and "given twice" in r.output
    assert cards.read_text() == text


def test_schema_simulate():
    r = run("schema", "simulate")
    schema = json.loads(r.stdout)
    props = schema["$defs"]["SimulationReport"]["properties"]
    assert {"rules", "rule_sets", "comparisons", "histograms", "metrics"} <= set(props)


def test_verdict_bounds_never_read_as_zero():
    from kifu.lab.stats import Interval

    info = lab.MetricInfo("rank_p2", "seat", "")
    changed, words = lab.verdict(info, Interval(-0.04, -0.07, -0.002, 2000))
    assert changed and words == "better by 0.040 places [0.002, 0.070]"


def test_strong_bot_report_same_on_two_workers_and_a_dask_local_cluster():
    # issue 36: a strong bot's run spreads over workers or a cluster, the same bytes
    pytest.importorskip("distributed", reason="needs the dask extra: pip install 'kifu[dask]'")
    args = ["simulate", "graph-t", "--games", "2", "--bots", "expert:level=fast", "--json",
            "-q", "--chunk-size", "1", "--set", "grey_open=anyone"]
    one = run(*args)
    assert one.exit_code == 0, one.output
    assert json.loads(one.stdout)["bots"] == ["expert:level=fast"] * 3
    assert run(*args, "-w", "2").stdout == one.stdout
    assert run(*args, "--dask", "local", "-w", "2").stdout == one.stdout
