"""The game-quality measures, the turn order and the sweeps of ``kifu simulate`` (issue 36),
each against a naive recount from its one-line definition, or a worked case."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kifu import games
from kifu.cli.main import cli
from kifu.core.errors import VariantError
from kifu.lab import simulate as lab
from kifu.lab import sweep
from kifu.lab.quality import CLOSE, QUALITY, action_kinds, measure, standing, turn_order


def naive(gid: str, state):
    """Every quality measure recounted from its definition, the slow way: a fresh state
    replayed action by action, all legal actions listed, standings compared by hand."""
    game = games.get(gid)
    replay = game.new_state(state.n, state.variant)
    lead, leaders_after, movers = None, [], []
    changes = decisions = choices = forced = 0
    kinds: dict[str, int] = {}
    for action in state.history:
        seat = replay.to_move
        if seat != -1:
            if seat not in movers:
                movers.append(seat)
            legal = replay.legal_actions()
            decisions += 1
            choices += len(legal)
            forced += len(legal) == 1
            kinds[type(action).__name__.lower()] = kinds.get(type(action).__name__.lower(), 0) + 1
        replay.apply(action)
        scores = standing(gid, replay)
        top = [s for s in range(state.n) if scores[s] == max(scores)]
        leaders_after.append(set(top))
        if len(top) == 1:
            if lead is not None and top[0] != lead:
                changes += 1
            lead = top[0]
    result = state.result()
    winners = {s for s, r in enumerate(result.ranks) if r == 1}
    plies = len(state.history)
    two_thirds = -(-2 * plies // 3)  # the position after ply ceil(2/3 of the plies)
    comeback = not (leaders_after[two_thirds - 1] & winners)
    s = sorted(result.scores, reverse=True)
    close = s[0] - s[1] <= CLOSE[gid]
    # the last ply after which no winner led, counted from the start
    behind = [k + 1 for k, lead_set in enumerate(leaders_after) if not lead_set & winners]
    settled = behind[-1] if behind else 0
    return movers, {"lead_changes": changes, "comeback": float(comeback),
                    "close": float(close), "decisiveness": settled / plies,
                    "decisions": decisions, "branching": choices / decisions,
                    "forced": forced}, kinds


@pytest.mark.parametrize("gid, players", [("tweak", 3), ("graph-t", 3), ("towai", 4),
                                          ("lianxian", 3), ("alice", 4)])
def test_quality_measures_are_their_definitions(gid, players):
    game = games.get(gid)
    for seed in range(1, 6):
        state, capped = lab.play_game(game, ["random"] * players, seed, None)
        assert not capped
        order, quality, kinds = measure(gid, state)
        movers, ref, ref_kinds = naive(gid, state)
        assert dict(zip(QUALITY, quality, strict=True)) == pytest.approx(ref)
        assert order[:len(movers)] == tuple(movers) and sorted(order) == list(range(players))
        assert {k: c for k, c in zip(action_kinds(gid), kinds, strict=True) if c} == ref_kinds


def test_turn_order_follows_the_drawn_first_player():
    # TOWAI draws the first player (`d first p2`): the turn order starts there
    game = games.get("towai")
    firsts = set()
    for seed in range(1, 30):
        state, _ = lab.play_game(game, ["greedy"] * 4, seed, None)
        order, _, _ = measure("towai", state)
        first = next(a for a in state.history if type(a).__name__ == "First")
        text = game.format_action(game.new_state(4), first)
        assert text.endswith(f"p{order[0]}"), text
        firsts.add(order[0])
    assert len(firsts) > 1
    assert turn_order(4, [2, 3]) == (2, 3, 0, 1)
    assert turn_order(3, []) == (0, 1, 2)


def test_turn_metrics_are_seat_metrics_reordered():
    rows = [lab.row_of(games.get("towai"), lab.play_game(games.get("towai"), ["greedy"] * 4,
                                                         s, None)[0], s) for s in range(1, 40)]
    values = lab.metric_values("towai", 4, rows)
    for i, row in enumerate(rows):
        for k, seat in enumerate(row.order):
            name = lab.POSITIONS[k]
            assert values[f"win_{name}"][i] == values[f"win_p{seat}"][i]
            assert values[f"rank_{name}"][i] == values[f"rank_p{seat}"][i]
    s = lab.summarize("towai", 4, "towai/1", rows)
    assert sum(s.first_seats) == 39
    assert sum(t.wins for t in s.turns) == sum(x.wins for x in s.seats)


# --- sweeps ---------------------------------------------------------------------------------

def test_parse_sweep_and_target():
    assert sweep.parse_sweep("cap=30,40,60") == ("cap", ["30", "40", "60"])
    assert sweep.parse_sweep("cap=30..33") == ("cap", ["30", "31", "32", "33"])
    assert sweep.parse_sweep("threshold=40..80:20") == ("threshold", ["40", "60", "80"])
    assert sweep.parse_target("win_first < 45%") == ("win_first", "<", 0.45)
    assert sweep.parse_target("plies>=12.5") == ("plies", ">=", 12.5)
    for bad in ("cap", "cap=", "cap=5", "cap=5..1", "cap=1,1", "cap=1,,2", "cap=1..99"):
        with pytest.raises(VariantError):
            sweep.parse_sweep(bad)
    for bad in ("plies", "plies<<3", "<=3"):
        with pytest.raises(VariantError):
            sweep.parse_target(bad)


def test_sweep_is_paired_and_finds_its_target():
    game = games.get("tweak")
    values = ["1", "2", "4"]
    specs = sweep.sweep_specs(game, "tweak/1", "rounds", values)
    assert specs[0] == "tweak/1;rounds=1"
    pairs = sweep.sweep_pairs(len(specs))
    assert pairs == [(0, 1), (0, 2)]
    sim = lab.simulate("tweak", 2, 20, 1, specs, ["greedy"], pairs=pairs)
    rep = sweep.answer(lab.analyse(sim), "rounds", values, "plies>=1")
    sw = rep.sweep
    assert [c.b for c in rep.comparisons] == [1, 2] and all(c.a == 0 for c in rep.comparisons)
    assert sw.meeting == values and [t.meets for t in sw.targets] == [True] * 3
    assert sw.closest == "1"  # the nearest mean to plies >= 1
    # every value on the same seeds: each value's games are those of a plain simulation
    alone = lab.analyse(lab.simulate("tweak", 2, 20, 1, [specs[1]], ["greedy"]))
    assert alone.rule_sets[0].metrics == rep.rule_sets[1].metrics
    # the crossing by linear interpolation between the means of 1 and 2 rounds
    means = [rs.metrics["plies"].mean.estimate for rs in rep.rule_sets]
    assert means[0] < means[1] < means[2]
    goal = (means[0] + means[1]) / 2
    rep2 = sweep.answer(lab.analyse(sim), "rounds", values, f"plies>={goal:.4f}")
    assert rep2.sweep.meeting == ["2", "4"] and rep2.sweep.closest == "2"
    assert rep2.sweep.crossing == pytest.approx(1.5, abs=0.01)
    # "surely": the whole interval past the target
    assert [t.surely for t in rep2.sweep.targets] == [
        t.mean.low >= goal for t in rep2.sweep.targets]
    assert sweep.answer(lab.analyse(sim), "rounds", values, "plies<=0").sweep.closest is None
    # plies <= a goal between 2 and 4 rounds: 1 and 2 rounds meet it, 2 is nearest
    goal2 = (means[1] + means[2]) / 2
    rep3 = sweep.answer(lab.analyse(sim), "rounds", values, f"plies<={goal2:.4f}")
    assert rep3.sweep.meeting == ["1", "2"] and rep3.sweep.closest == "2"
    text = lab.format_text(rep2)
    assert "the value that hits plies>=" in text and "cross the target near rounds=1.5" in text


def test_cli_sweep_table_and_target():
    r = CliRunner().invoke(cli, ["simulate", "tweak", "-n", "2", "--games", "8", "-q",
                                 "--rules", "tweak/1;rounds=1", "--sweep",
                                 "threshold=0,40,300", "--target", "plies<=40"])
    assert r.exit_code == 0, r.output
    assert "--sweep threshold: each metric by value" in r.stdout
    assert "--target plies<=40:" in r.stdout
    assert "B - A, paired on 8 seed(s)" in r.stdout and "C - A, paired" in r.stdout
    bad = CliRunner().invoke(cli, ["simulate", "tweak", "--games", "2", "--target", "plies<=4"])
    assert bad.exit_code == 1 and "--target needs --sweep" in bad.output


def test_players_default_to_the_usual_count():
    r = CliRunner().invoke(cli, ["simulate", "towai", "--games", "2", "-q", "--json"])
    assert r.exit_code == 0, r.output
    import json

    assert json.loads(r.stdout)["players"] == 4


def test_decisiveness_by_the_evaluator_is_its_definition():
    # at each tenth of the game (the next seat's turn when the dealer is to act), the
    # eventual winner's expected pairwise share from its own information; settled from the
    # first tenth after which it stays >= 0.8; 1.0 when the last tenth is below
    from kifu.bots.evaluate import evaluate
    from kifu.lab.quality import SETTLED, settled_by_evaluator

    game = games.get("graph-t")
    state, _ = lab.play_game(game, ["greedy"] * 3, 4, None)
    winners = [s for s, r in enumerate(state.result().ranks) if r == 1]
    mask = sum(1 << s for s in winners)
    plies = len(state.history)
    shares = []
    for k in range(1, 10):
        at = plies * k // 10
        replay = game.new_state(3)
        for a in state.history[:at]:
            replay.apply(a)
        while replay.to_move == -1:
            replay.apply(state.history[len(replay.history)])
        shares.append(max(evaluate(game, replay, s, level="fast", seed=7 * 16 + k).value
                          for s in winners) if replay.to_move is not None else 1.0)
    below = [k for k in range(1, 10) if shares[k - 1] < SETTLED]
    expected = (below[-1] + 1) / 10 if below else 0.1
    assert settled_by_evaluator("graph-t", state, mask, "fast", seed=7) == expected
    _, quality, _ = measure("graph-t", state, "fast", 7)
    assert quality[3] == expected
