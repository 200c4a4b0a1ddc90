"""``kifu analyze``'s value judgement (issue 34): every decision judged from the mover's
information, marks from the loss clear of the noise, accuracy per seat, the known-mistake
fixtures of every game, and accuracy that tracks strength on a small sample."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FIXTURES as FIX
from conftest import ROOT

from kifu import games
from kifu.bots.evaluate import evaluate, level_of
from kifu.cli.main import cli
from kifu.core.game import DEALER
from kifu.lab.analyze import (
    BLUNDER,
    INACCURACY,
    LEVEL,
    MISTAKE,
    NOISE_Z,
    SEVERITY,
    VALUE,
    Limits,
    accuracy,
    analyze_record,
    move_accuracy,
    value_judgement,
    value_mark,
)
from kifu.notation.annotation import parse_best, parse_markby, parse_shares, parse_values
from kifu.notation.files import load_records
from kifu.notation.reader import parse_record
from kifu.notation.replay import replay

MISTAKES = sorted(FIX.glob("*/mistake-*.kifu"))
SEEN_BY_EXACT = {"lianxian"}
"""Games whose exact questions are asked at every decision (``fixtures/mistakes.py``): the
known mistake may be seen by them too, but less severely than by the value judgement."""


def rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


@pytest.fixture(scope="module")
def mistakes() -> dict[Path, object]:
    out = {}
    for path in MISTAKES:
        (loc,) = load_records(str(path))
        out[path] = analyze_record(loc, file=rel(path))
    return out


def test_every_game_has_a_known_mistake_fixture() -> None:
    assert {p.parent.name for p in MISTAKES} == set(games.ids())


@pytest.mark.parametrize("path", MISTAKES, ids=rel)
def test_the_known_mistake_is_marked_by_the_value_judgement(path: Path, mistakes) -> None:
    """The ply the record comment names is marked (?!, ? or ??) by the value judgement at
    the default level, outside every exact question's window (none marks it or sees a loss
    there)."""
    rec = parse_record(path.read_text(encoding="utf-8"))
    ply = int(rec.comment.split("known mistake at ply ", 1)[1].split(":", 1)[0])
    a = mistakes[path]
    (p,) = [p for p in a.plies if p.ply == ply]
    assert p.mark in ("?!", "?", "??") and p.mark_from == VALUE
    (j,) = [j for j in p.judgements if j.question == VALUE]
    assert j.mark == p.mark and not j.is_best and j.best
    assert j.loss >= INACCURACY and j.loss > NOISE_Z * j.loss_stderr
    for e in p.judgements:
        if e.question == VALUE:
            continue
        if path.parent.name in SEEN_BY_EXACT:  # every decision is in an exact window there:
            assert SEVERITY.get(e.mark or "", 0) < SEVERITY[p.mark], e  # the value's is worse
        else:
            assert e.mark is None and e.loss == 0, e


@pytest.mark.parametrize("path", MISTAKES, ids=rel)
def test_every_decision_with_a_choice_is_judged(path: Path, mistakes) -> None:
    """At the default budget, at least 95% of the player decisions (here: all of them)."""
    a = mistakes[path]
    s = a.summary
    game = games.get(s.game)
    rec = parse_record(path.read_text(encoding="utf-8"))
    state = game.new_state(len(rec.players), game.parse_rules(rec.rules))
    choices = []
    for i, act in enumerate(replay(rec).actions, 1):
        if state.to_move not in (None, DEALER) and len(state.legal_actions()) > 1:
            choices.append(i)
        state.push(act)
    assert s.decisions == len(choices) and s.valued >= 0.95 * s.decisions
    valued = [p.ply for p in a.plies if any(j.question == VALUE for j in p.judgements)]
    assert valued == choices
    assert s.level == LEVEL and VALUE in s.questions and s.units[VALUE] == "share"
    for seat in s.seats:
        if seat.valued:
            assert 0 <= seat.accuracy <= 100 and seat.mean_loss >= 0


@pytest.mark.parametrize("path", MISTAKES, ids=rel)
def test_judgements_hold_together(path: Path, mistakes) -> None:
    a = mistakes[path]
    n = len(a.summary.players)
    for p in a.plies:
        for j in p.judgements:
            if j.question != VALUE:
                continue
            assert isinstance(j.value, float) and isinstance(j.played, float)
            assert 0 <= j.played <= j.value + 1e-9 <= 1 + 1e-9
            assert j.loss == pytest.approx(j.value - j.played, abs=2e-4) and j.loss >= 0
            assert j.best_values == sorted(j.best_values, reverse=True)
            assert j.best_values[0] == pytest.approx(j.value, abs=1e-4)
            assert j.value_stderr >= 0 and j.played_stderr >= 0 and j.loss_stderr >= 0
            assert j.mark == value_mark(j.loss, j.loss_stderr)
            assert j.legal >= 2 and j.valued >= 2 and j.worlds >= 1
        if not any(j.question == VALUE for j in p.judgements):
            assert p.shares is None  # a forced move an exact question judged
            continue
        assert p.shares is not None and len(p.shares) == n
        assert sum(p.shares) == pytest.approx(n / 2, abs=1e-3)  # pairwise shares add up
    # the annotated record carries the same
    for p in a.plies:
        if p.shares is None:
            continue
        m = a.record.moves[p.ply - 1]
        vals = {v.question: v for v in parse_values(m.comment)}
        (j,) = [j for j in p.judgements if j.question == VALUE]
        assert float(vals[VALUE].value) == pytest.approx(j.value, abs=6e-4)
        assert parse_shares(m.comment) == pytest.approx(p.shares, abs=6e-4)
        assert parse_markby(m.comment) == p.mark_from
        assert (VALUE in parse_best(m.comment)) == (not j.is_best)


def test_marks_need_the_loss_clear_of_the_noise() -> None:
    assert value_mark(INACCURACY - 0.001, 0.0) is None
    assert value_mark(INACCURACY, 0.0) == "?!"
    assert value_mark(MISTAKE, 0.0) == "?"
    assert value_mark(BLUNDER, 0.0) == "??"
    assert value_mark(1.0, 0.0) == "??"
    assert value_mark(0.3, 0.3 / NOISE_Z) is None  # within the noise: no mark
    assert value_mark(0.3, 0.3 / NOISE_Z - 0.01) == "??"
    assert INACCURACY < MISTAKE < BLUNDER


def test_accuracy_follows_lichess_curve() -> None:
    assert move_accuracy(0) == 100
    # lila: 103.1668 exp(-0.04354 d) - 3.1669 + 1 at a drop of d = 10 percentage points
    assert move_accuracy(0.10) == pytest.approx(103.1668100711649 * math.exp(-0.4354415386753951)
                                                - 2.166924740191411)
    xs = [move_accuracy(x / 100) for x in range(101)]
    assert all(a >= b for a, b in itertools.pairwise(xs)) and xs[-1] == 0
    assert accuracy([]) is None and accuracy([0.0, 0.0]) == 100
    assert accuracy([0.0] * 9 + [1.0]) < accuracy([0.0] * 9 + [0.1]) < 100
    # a mean of the plain and harmonic means, the latter floored: one total loss does not
    # zero a seat's accuracy
    assert 40 < accuracy([0.0] * 9 + [1.0]) < 95


def test_an_action_outside_the_evaluator_candidates_is_valued_beside_the_best() -> None:
    """The evaluator values at most a level's candidates; the action played is valued in the
    same worlds even when it is not one of them."""
    game = games.get("lianxian")
    (loc,) = load_records(str(FIX / "lianxian" / "no-blunder-2p.kifu"))
    rec = loc.record
    state = game.new_state(len(rec.players), game.parse_rules(rec.rules))
    lvl = level_of(game, LEVEL)
    checked = 0
    for act in replay(rec).actions:
        if state.to_move not in (None, DEALER) and len(state.legal_actions()) > lvl.actions:
            ev = evaluate(game, state, state.to_move, level=LEVEL, seed=5)
            outside = [a for a in state.legal_actions()
                       if all(av.action != a for av in ev.actions)]
            if outside:
                j = value_judgement(game, state, outside[0], level=LEVEL, seed=5)
                assert j.valued == len(ev.actions) + 1 and j.loss >= 0
                assert j.value >= j.played
                checked += 1
        state.push(act)
        if checked >= 2:
            break
    assert checked, "no decision with more legal actions than candidates"


def test_json_has_numbers_and_the_same_output_twice(tmp_path: Path) -> None:
    path = str(MISTAKES[0])
    res = CliRunner().invoke(cli, ["analyze", path, "--json", "-q"])
    assert res.exit_code == 0, res.output
    lines = [json.loads(x) for x in res.output.splitlines()]
    vals = [j for o in lines if o["kind"] == "ply" for j in o["judgements"]
            if j["question"] == VALUE]
    assert vals and all(j["unit"] == "share" for j in vals)
    for j in vals:
        for k in ("value", "played", "loss", "value_stderr", "played_stderr", "loss_stderr"):
            assert isinstance(j[k], (int, float)), k
    again = CliRunner().invoke(cli, ["analyze", path, "--json", "-q"])
    assert again.output == res.output  # seeded: the same judgement every time
    only = CliRunner().invoke(cli, ["analyze", path, "--json", "-q", "-Q", "value"])
    qs = {j["question"] for o in map(json.loads, only.output.splitlines())
          if o["kind"] == "ply" for j in o["judgements"]}
    assert qs == {VALUE}
    text = CliRunner().invoke(cli, ["analyze", path, "-q"]).output
    assert "accuracy" in text and "(value: " in text
    bad = CliRunner().invoke(cli, ["analyze", path, "-Q", "value", "--level", "off"])
    assert bad.exit_code == 1 and "nothing would be judged" in bad.output


def test_no_value_judgement_with_level_off() -> None:
    (loc,) = load_records(str(MISTAKES[0]))
    a = analyze_record(loc, limits=Limits(level=None))
    assert all(j.question != VALUE for p in a.plies for j in p.judgements)
    assert a.summary.level is None and a.summary.valued == 0


def test_a_question_mark_and_exclamation_round_trips_with_value_tokens() -> None:
    from kifu.notation.record import NAGS, format_record, record_from_json, record_to_json

    text = ('[Game "tweak"]\n\nd dealer p1\np1 R3 ?! {[%value value: 0.612 -> 0.480] '
            '[%best value: p1 G4 (0.612); p1 R3 (0.480)] [%shares 0.480 0.520] '
            '[%markby value] kept}\n')
    rec = parse_record(text)
    m = rec.moves[1]
    assert m.mark == "?!" and NAGS["?!"] == 6
    assert format_record(rec) == text and record_from_json(record_to_json(rec)) == rec
    assert parse_shares(m.comment) == [0.48, 0.52] and parse_markby(m.comment) == VALUE
    assert parse_best(m.comment)[VALUE] == (["p1 G4 (0.612)", "p1 R3 (0.480)"], 0)


STRENGTH_DEALS = 8


def test_accuracy_tracks_strength_on_a_small_sample() -> None:
    """The small version of the strength run (``python -m kifu.lab.strength``, documented in
    docs/puzzles.md): Lianxian, four seats (random, greedy, pimc, expert rotated by deal),
    8 deals, judged at the run's level (``normal``): the mean loss per decision orders
    random > greedy > pimc >= expert, the random - greedy gap's 95% interval over deals
    excludes 0 by the judgement's loss and by the held-out loss, and the accuracy orders
    the same way."""
    from kifu.lab import strength

    rows = [r for d in range(STRENGTH_DEALS)
            for r in strength.play_and_judge("lianxian", d)]
    assert {r.bot for r in rows} == set(strength.BOTS)
    assert all(r.seat == strength.seating(r.deal).index(r.bot) for r in rows)
    assert all(len(r.held_out) == len(r.losses) for r in rows)
    figs, gaps = strength.summarize(rows, "lianxian")
    loss = {f.bot: f.mean_loss.estimate for f in figs}
    assert loss["random"] > loss["greedy"] > loss["pimc"] >= loss["expert"]
    first = gaps[0]
    assert (first.weaker, first.stronger) == ("random", "greedy") and first.difference.low > 0
    assert first.held_out is not None and first.held_out.low > 0
    acc = {f.bot: f.accuracy.estimate for f in figs}
    assert acc["random"] < acc["greedy"] < acc["pimc"] <= acc["expert"]



@pytest.mark.parametrize("argv, says", [(["--level", "bogus"], "invalid choice: 'bogus'"),
                                        (["--games", "chess"], "unknown 'chess'"),
                                        (["--deals", "0"], "at least 1")])
def test_strength_run_refuses_bad_options_in_one_line(argv, says, capsys) -> None:
    from kifu.lab import strength

    with pytest.raises(SystemExit) as e:
        strength.main(argv)
    assert e.value.code == 2
    assert says in capsys.readouterr().err
