"""``kifu diff --rules/--set`` for a designer (issue 24): every kind of outcome on the README's
and the docs' examples: unchanged (a looser rule: pointed to kifu simulate), ends sooner
(with the result there and the winner), another result, not over at the record's end,
refused at an action the other rules forbid, not replayable (a different deck)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kifu import games
from kifu.cli.main import cli
from kifu.notation.diff import KINDS
from kifu.notation.files import load_records
from kifu.notation.replay import replay


@pytest.fixture(scope="module")
def corpora(tmp_path_factory):
    """30 TWEAK games at 3 players (default rules) and 30 GRAPH-T games at 3."""
    d = tmp_path_factory.mktemp("corpora")
    runner = CliRunner()
    for gid in ("tweak", "graph-t"):
        r = runner.invoke(cli, ["play", gid, "-n", "3", "--games", "30", "--seed", "1",
                                "-o", str(d / f"{gid}.kifu"), "--date", "2026.01.01"])
        assert r.exit_code == 0, r.output
    return d


def diff(*args: str):
    return CliRunner().invoke(cli, ["diff", *args])


def as_json(*args: str) -> dict:
    r = diff(*args, "--json")
    data = json.loads(r.stdout)
    assert r.exit_code == (1 if data["differ"] else 0)
    assert sum(data["summary"]["kinds"].values()) == data["records"]
    assert set(data["summary"]["kinds"]) == set(KINDS)
    return data


def test_loosening_the_readme_example_changes_nothing_and_says_so(corpora):
    path = str(corpora / "tweak.kifu")
    r = diff(path, "--rules", "tweak/1;empty_capture=true")
    assert r.exit_code == 0
    assert "0 of 30 record(s) differ" in r.stdout
    assert "summary: 30 unchanged" in r.stdout
    assert "try kifu simulate tweak -n 3 --rules 'tweak/1' --set empty_capture=true" in r.stdout
    data = as_json(path, "--rules", "tweak/1;empty_capture=true")
    assert data["summary"]["kinds"]["unchanged"] == 30
    assert all(d["kind"] == "unchanged" and d["plies_b"] == d["plies_a"] for d in data["diffs"])


def test_grey_open_anyone_the_docs_example(corpora):
    path = str(corpora / "graph-t.kifu")
    r = diff(path, "--set", "grey_open=anyone")
    assert r.exit_code == 0 and "summary: 30 unchanged" in r.stdout
    assert "kifu simulate graph-t -n 3 --rules 'graph-t/1' --set grey_open=anyone" in r.stdout


def test_threshold_60_ends_sooner_with_the_result_there(corpora):
    path = str(corpora / "tweak.kifu")
    data = as_json(path, "--set", "threshold=60")
    game = games.get("tweak")
    b = game.parse_rules("tweak/1;threshold=60")
    locs = list(load_records(path))
    assert data["summary"]["kinds"]["sooner"] == 30
    moved = 0
    for d, loc in zip(data["diffs"], locs, strict=True):
        assert d["kind"] == "sooner" and d["error"] is None and d["ply"] is None
        assert d["plies_b"] < d["plies_a"] == len(loc.record.moves)
        # the result there is the one B's rules give after plies_b plies of the record
        state = game.new_state(3, b)
        for a in _actions(loc)[: d["plies_b"]]:
            state.apply(a)
        assert state.to_move is None
        res = state.result()
        assert d["result_b"] == list(res.scores)
        assert d["winners_b"] == [s for s, r in enumerate(res.ranks) if r == 1]
        assert d["winner_changed"] == (d["winners_a"] != d["winners_b"])
        moved += d["winner_changed"]
    s = data["summary"]
    assert s["winners_changed"] == moved and s["with_results"] == 30
    assert s["mean_plies_b"] < s["mean_plies_a"]
    text = diff(path, "--set", "threshold=60").stdout
    first = data["diffs"][0]
    assert (f"#1: ends at ply {first['plies_b']} under threshold=60 (was {first['plies_a']}): "
            f"result {' '.join(map(str, first['result_b']))}, winner ") in text
    assert f"winners changed in {moved} of the 30 record(s)" in text
    assert f"mean length {s['mean_plies_a']} -> {s['mean_plies_b']} plies" in text


def _actions(loc) -> list:
    """The record's actions (replayed under its own rules)."""
    return list(replay(loc).actions)


def test_other_t_cards_cannot_be_replayed(corpora):
    path = str(corpora / "tweak.kifu")
    r = diff(path, "--set", "t_cards=TTTTJJJSS")
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    assert lines[0].startswith("#1 and 29 more: not replayable under t_cards=TTTTJJJSS")
    assert "this corpus cannot be replayed under them; try kifu simulate tweak -n 3 " \
           "--rules 'tweak/1' --set t_cards=TTTTJJJSS" in r.stdout
    assert len(lines) < 8  # told once, not once a record
    data = as_json(path, "--set", "t_cards=TTTTJJJSS")
    assert data["summary"]["kinds"]["unreplayable"] == 30
    assert all(d["ply"] == 2 and d["result_b"] is None for d in data["diffs"])


def test_refused_at_an_action_the_other_rules_forbid(corpora):
    path = str(corpora / "tweak.kifu")
    sevens = "tweak/1;backs=" + ",".join(["7"] * 36)
    data = as_json(path, "--rules", sevens)
    refused = [d for d in data["diffs"] if d["kind"] == "refused"]
    assert refused and all(d["error"] and d["result_b"] is None for d in refused)
    text = diff(path, "--rules", sevens).stdout
    i = refused[0]["index"]
    assert f"#{i}: refused at ply {refused[0]['ply']} under backs=" in text
    assert "an action those rules forbid" in text


def test_another_result_and_not_over(corpora):
    gt = as_json(str(corpora / "graph-t.kifu"), "--set", "grey_wins=trump")
    kinds = {d["kind"] for d in gt["diffs"]}
    assert "result" in kinds  # trump changes who takes some tricks, the plays stay legal
    for d in gt["diffs"]:
        if d["kind"] == "result":
            assert d["result_b"] != d["result_a"] and d["plies_b"] == d["plies_a"]
    longer = as_json(str(corpora / "tweak.kifu"), "--set", "threshold=300")
    assert longer["summary"]["kinds"]["unfinished"] == 30
    assert all(d["result_b"] is None and d["plies_b"] is None for d in longer["diffs"])
    text = diff(str(corpora / "tweak.kifu"), "--set", "threshold=300").stdout
    assert "#1: not over at the record's end" in text and "30 not over at their end" in text


def test_a_round_ended_by_the_turn_cap_is_said_so(tmp_path):
    # issue 36: TOWAI under cap=40 was "refused at ply 53 ... it is d's turn to shuffle and
    # deal round 2"; the truth is that round 1 ends at the turn cap there
    path = tmp_path / "towai.kifu"
    r = CliRunner().invoke(cli, ["play", "towai", "-n", "4", "--games", "20", "--seed", "1",
                                 "-o", str(path), "--date", "2026.01.01"])
    assert r.exit_code == 0, r.output
    data = as_json(str(path), "--set", "cap=40")
    over = [d for d in data["diffs"] if d["kind"] == "round_over"]
    assert over and data["summary"]["kinds"]["refused"] == 0
    game = games.get("towai")
    locs = list(load_records(str(path)))
    for d in over:
        assert d["reason"] == "at the turn cap" and d["round_b"] >= 1
        # replayed under cap=40 up to that ply, the round is over: the dealer is to deal
        # the next one, while the record has a seat playing on
        loc = locs[d["index"] - 1]
        state = game.new_state(4, game.parse_rules("towai/1;cap=40"))
        for action in _actions(loc)[:d["ply"] - 1]:
            state.apply(action)
        assert state.to_move == -1 and state.round == d["round_b"] + 1
        assert loc.record.moves[d["ply"] - 1].actor != "d"
    text = diff(str(path), "--set", "cap=40").stdout
    first = over[0]
    assert (f"#{first['index']}: round {first['round_b']} ends at the turn cap at ply "
            f"{first['ply'] - 1} under cap=40, where the record went on") in text
    assert "it is d's turn" not in text and "a round ends sooner" in text


def test_the_winner_is_named_by_seat_and_player(tmp_path):
    """A record that names its players (``kifu play --names``) has them beside the seats in
    the winner words of ``kifu diff --rules`` (issue 39: every message that names a seat
    names the player too)."""
    path = tmp_path / "named.kifu"
    r = CliRunner().invoke(cli, ["play", "tweak", "-n", "3", "--games", "4", "--seed", "1",
                                 "--names", "Ann,Bob,Cy", "-o", str(path),
                                 "--date", "2026.01.01"])
    assert r.exit_code == 0, r.output
    data = as_json(str(path), "--set", "threshold=60")
    names = ["Ann", "Bob", "Cy"]
    assert all(d["names"] == names for d in data["diffs"])
    text = diff(str(path), "--set", "threshold=60").stdout
    first = data["diffs"][0]
    assert first["kind"] == "sooner"
    winners = ", ".join(f"p{s} {names[s]}" for s in first["winners_b"])
    assert f"winner {winners}" in text
