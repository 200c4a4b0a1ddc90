"""The everyday fixes of issue 39: ``archive query`` says ``0 records``; ``stats --by
players`` heads its table by line-up and names each seat's player; the query table's
winner names the seat and the player; ``kifu play --names``."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from kifu.archive import Archive
from kifu.cli.main import cli
from kifu.notation.reader import parse_records


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def named_archive(tmp_path_factory) -> str:
    tmp = tmp_path_factory.mktemp("everyday")
    games = tmp / "g.kifu"
    r = run("play", "tweak", "-n", "3", "--names", "Ann,Bob,Cy", "--bots",
            "greedy,random,greedy", "--set", "rounds=1", "-s", "5", "--games", "4", "-q",
            "--date", "2026.11.28", "-o", str(games))
    assert r.exit_code == 0, r.output
    db = str(tmp / "a.db")
    with Archive(db) as a:
        assert a.import_paths([str(games)]).imported == 4
    return db


def test_play_names_the_players_and_keeps_the_bots(tmp_path) -> None:
    r = run("play", "graph-t", "-n", "2", "--names", " Ann , José ", "--bots", "ai,random",
            "-s", "3", "--date", "2026.11.28")
    assert r.exit_code == 0, r.output
    (rec,) = parse_records(r.stdout)
    assert rec.players == ["Ann", "José"]
    assert rec.headers["Bots"] == "ai, random"
    plain = run("play", "graph-t", "-n", "2", "--bots", "ai,random", "-s", "3",
                "--date", "2026.11.28")
    (bots,) = parse_records(plain.stdout)
    assert "Bots" not in bots.headers and bots.players == ["ai", "random"]
    assert [m.text for m in rec.moves] == [m.text for m in bots.moves]  # the same game
    checked = CliRunner().invoke(cli, ["validate", "-"], input=r.stdout)
    assert checked.exit_code == 0, checked.output


@pytest.mark.parametrize(("names", "says"), [
    ("Ann,Bob", "--names gives 2 name(s) for 3 players"),
    ("Ann,,Cy", "the name of seat p1 is empty"),
    ('Ann,B"ob,Cy', "the name of seat p1"),
])
def test_play_refuses_bad_names(names: str, says: str, tmp_path) -> None:
    out = tmp_path / "x.kifu"
    r = run("play", "tweak", "-n", "3", "--names", names, "-o", str(out))
    assert r.exit_code == 1 and says in r.stderr and "Traceback" not in r.output
    assert not out.exists()


def test_an_empty_query_says_0_records(named_archive) -> None:
    r = run("archive", "query", "--db", named_archive, "--player", "Zed")
    assert r.exit_code == 0 and r.stdout.strip() == "0 records"
    r = run("archive", "query", "--db", named_archive, "--player", "Zed", "-f", "json")
    assert r.exit_code == 0 and r.stdout == "" and r.stderr.strip() == "0 records"
    r = run("archive", "query", "--db", named_archive, "--sql",
            "SELECT id FROM records WHERE id < 0")
    assert r.exit_code == 0 and r.stdout.strip() == "0 records"
    r = run("archive", "puzzles", "--db", named_archive)
    assert r.exit_code == 0 and r.stdout.strip() == "0 puzzles"
    r = run("archive", "query", "--db", named_archive, "--player", "Ann")
    assert "0 records" not in r.stdout and r.stdout.count("Ann, Bob, Cy") == 4


def test_the_query_table_names_seat_and_player_of_the_winner(named_archive) -> None:
    with Archive(named_archive, readonly=True) as a:
        want = [(r["winner_seats"], r["players"]) for r in a.query()]
    r = run("archive", "query", "--db", named_archive)
    lines = r.stdout.splitlines()[2:]
    for line, (seats, players) in zip(lines, want, strict=True):
        names = players.split(", ")
        shown = ", ".join(f"p{s} {names[int(s)]}" for s in seats.split(","))
        assert shown in line, (line, shown)


def test_stats_by_players_is_per_line_up_with_names(named_archive) -> None:
    r = run("archive", "stats", "--db", named_archive, "--by", "players")
    assert r.exit_code == 0, r.output
    assert "per rule set" not in r.stdout
    assert "this line-up (mean [95% CI])" in r.stdout
    for seat, name in enumerate(("Ann", "Bob", "Cy")):
        assert f"p{seat} {name} wins" in r.stdout and f"p{seat} {name} mean place" in r.stdout
    table = [line for line in r.stdout.splitlines() if line.startswith(("games", "p2 Cy"))]
    import re

    starts = {re.search(r"\S  +(\S)", line).start(1) for line in table}
    assert len(starts) == 1, table  # the figures stay in one column
    r = run("archive", "stats", "--db", named_archive, "--by", "rules")
    assert "per rule set (mean [95% CI])" in r.stdout and "p0 wins" in r.stdout
