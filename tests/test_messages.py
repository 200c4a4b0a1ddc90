"""Error messages that say what is really wrong (issue 27): a Players header naming the
wrong number of players, a position line without its rules, a bad ``--question`` named as
such, and ``kifu diff`` telling "the same game" (the archive's identity) from "the same
game, rules and players"."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from kifu import games
from kifu.cli.main import cli


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def record(game_id: str, players: int, seed: int) -> str:
    r = run("play", game_id, "-n", str(players), "-s", str(seed), "--date", "2026.01.02")
    assert r.exit_code == 0, r.output
    return r.stdout


def drop_last_name(text: str) -> str:
    return re.sub(r'\[Players "(.*), [^,"]*"\]', r'[Players "\1"]', text, count=1)


@pytest.mark.parametrize("game_id", [g for g in games.ids() if games.get(g).min_players < 3
                                     or games.get(g).max_players > 3])
def test_players_header_with_a_name_missing(game_id: str, tmp_path) -> None:
    game = games.get(game_id)
    n = game.min_players + 1
    bad = drop_last_name(record(game_id, n, 3))
    (tmp_path / "g.kifu").write_text(bad)
    for cmd in (["validate", "g.kifu"], ["replay", "g.kifu"], ["html", "g.kifu", "-o", "x"]):
        r = run(*[str(tmp_path / c) if c.endswith(".kifu") else c for c in cmd])
        assert r.exit_code == 1
        line = r.stderr.strip().splitlines()[-1]
        assert re.match(rf".*g\.kifu:3:2: Players: the header names {n - 1} player",
                        line), line
        assert f"p{n - 1} acts in this record (a {n}-seat game): is a name missing?" in line


def test_players_header_with_a_name_too_many(tmp_path) -> None:
    text = record("tweak", 3, 1).replace('[Players "greedy, greedy, greedy"]',
                                         '[Players "greedy, greedy, greedy, x"]')
    r = run("validate", "-", input=text)
    assert r.exit_code == 1
    assert "<stdin>:3:2: Players: the header names 4 players, but no seat above p2 acts" \
        in r.stderr and "is there a name too many?" in r.stderr


def test_a_mistyped_actor_is_not_blamed_on_the_header() -> None:
    r = run("validate", "fixtures/graph-t/invalid/no-such-seat.kifu")
    assert "there is no seat p5" in r.stderr and "Players:" not in r.stderr


def test_position_line_without_its_rules() -> None:
    line = record("graph-t", 2, 1)
    pos = run("replay", "-", "--ply", "8", "-f", "position", input=line).stdout.strip()
    bare = pos.split(" ", 1)[1]
    r = run("solve", "graph-t", bare, "--question", "double-dummy")
    assert r.exit_code == 1
    assert r.stderr.startswith("POSITION: a position line starts with its rules, e.g. "
                               "graph-t/1;"), r.stderr
    r = run("perft", "graph-t", bare)
    assert r.exit_code == 1 and "a position line starts with its rules, e.g. graph-t/1" \
        in r.stderr and "unknown game" not in r.stderr
    r = run("solve", "tweak", pos, "--question", "tweak-within 2")
    assert "POSITION: the position is of game 'graph-t', not tweak" in r.stderr


def test_bad_question_is_located_at_the_option() -> None:
    pos = run("replay", "fixtures/graph-t/2p-tie.kifu", "--ply", "8", "-f",
              "position").stdout.strip()
    r = run("solve", "graph-t", pos, "--question", "nonsense")
    assert r.exit_code == 1
    assert r.stderr.startswith("--question: unknown question 'nonsense' (known: ")
    assert "<text>" not in r.stderr and "<command line>" not in r.stderr


def test_diff_tells_the_same_game_from_the_same_setup(tmp_path) -> None:
    text = record("tweak", 3, 2)
    commented = text.replace("\nd dealer", "\n{club night}\nd dealer", 1)
    commented = re.sub(r"(\np\d \S+)\n", r"\1 {a fine capture}\n", commented, count=1)
    (tmp_path / "a.kifu").write_text(text)
    (tmp_path / "b.kifu").write_text(commented)
    r = run("diff", str(tmp_path / "a.kifu"), str(tmp_path / "b.kifu"))
    assert r.exit_code == 1 and r.stdout.startswith("the same game (the archive stores it "
                                                    "once): only comments or layout differ")
    data = json.loads(run("diff", "--json", str(tmp_path / "a.kifu"),
                          str(tmp_path / "b.kifu")).stdout)
    assert data["same_game"] and data["same_setup"] and not data["identical"]
    other = re.sub(r"\[Date \"[^\"]*\"\]", '[Date "2026.01.03"]', text)
    (tmp_path / "c.kifu").write_text(other)
    r = run("diff", str(tmp_path / "a.kifu"), str(tmp_path / "c.kifu"))
    assert r.stdout.startswith("same game, rules and players; different records")
    r = run("diff", str(tmp_path / "a.kifu"), "-", input=text.replace("greedy, greedy, greedy",
                                                                     "x, y, z"))
    assert r.stdout.startswith("different game, rules or players")
