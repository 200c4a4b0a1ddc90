"""The kifu command line: exit codes, located one-line errors, - for stdin/stdout."""

from __future__ import annotations

import json
import re
from pathlib import Path

from kifu.cli.main import all_commands

ROOT = Path(__file__).resolve().parent.parent


def play(run, *extra: str) -> str:
    r = run("play", "tweak", "--players", "3", "--seed", "7", "--date", "2026.11.22", *extra)
    assert r.exit_code == 0, r.output
    return r.stdout


def test_play_validate_replay_round_trip(run, tmp_path) -> None:
    r = run("play", "tweak", "--players", "3", "--seed", "7", "-o", "g.kifu")
    assert r.exit_code == 0, r.output
    text = (tmp_path / "g.kifu").read_text()
    assert text.startswith('[Game "tweak"]\n[Rules "tweak/1"]\n[Players "greedy, greedy, greedy"]')
    assert "\nd deal " in text
    r = run("validate", "g.kifu")
    assert r.exit_code == 0 and "1 of 1 record(s) valid" in r.stdout
    r = run("replay", "g.kifu", "--ply", "10")
    assert r.exit_code == 0
    assert "after ply 10 of" in r.stdout and "position: tweak/1 " in r.stdout


def test_same_seed_same_record_and_seed_matters(run) -> None:
    assert play(run) == play(run)
    other = run("play", "tweak", "-n", "3", "-s", "8", "--date", "2026.11.22").stdout
    assert other != play(run)


def corrupt(text: str, ply: int, new: str) -> str:
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if re.match(r"(d|p\d) ", line))
    actor = lines[first + ply - 1].split()[0]
    lines[first + ply - 1] = f"{actor} {new}"
    return "\n".join(lines)


def test_an_illegal_action_is_located_with_ply_and_rule(run, tmp_path) -> None:
    text = play(run)
    # ply 3 is the first player's first action: a card nobody holds twice over
    (tmp_path / "bad.kifu").write_text(corrupt(text, 3, "P6xP6"))
    r = run("validate", "bad.kifu")
    assert r.exit_code == 1
    err = r.stderr.strip()
    assert "\n" not in err and "Traceback" not in r.output
    assert re.match(r"bad\.kifu:10:4: ply 3: p\d 'P6xP6': .*\[rule tweak 5: play a hand card\]"
                    r"; legal: ", err), err


def test_validate_reads_stdin_and_counts(run) -> None:
    text = play(run)
    r = run("validate", "-", input=text + "\n" + text)
    assert r.exit_code == 0 and "2 of 2 record(s) valid" in r.stdout


def test_validate_json_and_all(run, tmp_path) -> None:
    good = play(run)
    (tmp_path / "two.kifu").write_text(corrupt(good, 4, "pass") + "\n" + good)
    r = run("validate", "--all", "--json", "two.kifu")
    assert r.exit_code == 1
    report = json.loads(r.stdout)
    assert [rec["ok"] for rec in report["records"]] == [False, True]
    bad = report["records"][0]
    assert bad["ply"] == 4 and bad["line"] == 11 and bad["rule"].startswith("tweak")


def test_syntax_error_and_missing_file(run, tmp_path) -> None:
    (tmp_path / "s.kifu").write_text('[Game "tweak"]\n\nq1 R3\n')
    r = run("validate", "s.kifu")
    assert r.exit_code == 1 and r.stderr.startswith("s.kifu:3:1: expected an actor")
    r = run("replay", "nope.kifu")
    assert r.exit_code == 1 and "nope.kifu" in r.stderr and "Traceback" not in r.output


def test_replay_formats(run, tmp_path) -> None:
    (tmp_path / "g.kifu").write_text(play(run))
    pos = run("replay", "g.kifu", "--ply", "5", "-f", "position").stdout.strip()
    assert pos.startswith("tweak/1 ") and "\n" not in pos
    data = json.loads(run("replay", "g.kifu", "--ply", "5", "-f", "json").stdout)
    assert data["position"] == pos and data["ply"] == 5 and data["legal"]
    part = run("replay", "g.kifu", "--ply", "5", "-f", "record").stdout
    assert part.count("\np") + part.count("\nd ") == 5 and '[Result "*"]' in part
    assert run("validate", "-", input=part).exit_code == 0
    seat = run("replay", "g.kifu", "--ply", "5", "--seat", "0").stdout
    assert "?" in seat
    end = json.loads(run("replay", "g.kifu", "-f", "json").stdout)
    assert end["result"]["ranks"] and end["to_move"] is None
    r = run("replay", "g.kifu", "--ply", "100000")
    assert r.exit_code == 1 and "plies" in r.stderr


def test_diff(run, tmp_path) -> None:
    text = play(run)
    (tmp_path / "a.kifu").write_text(text)
    (tmp_path / "b.kifu").write_text(corrupt(text, 3, "X"))
    r = run("diff", "a.kifu", "a.kifu")
    assert r.exit_code == 0 and r.stdout.strip() == "identical"
    r = run("diff", "a.kifu", "b.kifu")
    assert r.exit_code == 1
    assert "first difference at ply 3:" in r.stdout and "b.kifu: p" in r.stdout
    assert "position before it: tweak/1 " in r.stdout
    r = run("diff", "--json", "a.kifu", "-", input=text.replace("greedy, greedy", "x, y", 1))
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert data["same_game"] is False and data["first"] is None


def test_output_is_atomic(run, tmp_path) -> None:
    (tmp_path / "keep.kifu").write_text("precious\n")
    r = run("play", "tweak", "-n", "3", "--bot", "nosuchbot", "-o", "keep.kifu")
    assert r.exit_code == 1 and "no bot 'nosuchbot'" in r.stderr
    assert (tmp_path / "keep.kifu").read_text() == "precious\n"
    assert not list(tmp_path.glob(".kifu-*"))


def test_variants_and_json_output(run) -> None:
    r = run("play", "tweak", "-n", "2", "--set", "rounds=1", "--json", "--games", "3")
    assert r.exit_code == 0
    lines = r.stdout.strip().split("\n")
    assert len(lines) == 3
    assert json.loads(lines[0])["headers"]["Rules"] == "tweak/1;rounds=1"
    assert run("validate", "-", input=r.stdout).exit_code == 0
    r = run("play", "tweak", "-n", "2", "--set", "colour=R")
    assert r.exit_code == 1 and "unknown variant field 'colour'" in r.stderr


def test_unknown_game_and_players(run) -> None:
    r = run("play", "chess", "-n", "2")
    assert r.exit_code == 1 and "unknown game 'chess'" in r.stderr
    r = run("play", "tweak", "-n", "9")
    assert r.exit_code == 1 and "2..6 players" in r.stderr


def test_games_schema_perft(run) -> None:
    r = run("games", "--json")
    ids = [g["id"] for g in json.loads(r.stdout)]
    assert "tweak" in ids
    schema = json.loads(run("schema").stdout)
    assert "$defs" in schema
    # a puzzle-like position: only some of the cards are in play
    line = "tweak/1 T0 r1d1 t7 0,0 G4O5R6/O2R2Y2 R3Y1 G5G6G1 - -/- -/-"
    r = run("perft", "tweak", line, "-d", "1", "--json")
    assert r.exit_code == 1 and "canonical order" in r.stderr
    line = "tweak/1 T0 r1d1 t7 0,0 R6O5G4/R2O2Y2 R3Y1 G5G6G1 - -/- -/-"
    r = run("perft", "tweak", line, "-d", "1", "--json")
    assert r.exit_code == 0, r.output
    # target 7 (back of G5): place R6, O5 or G4, or capture R6xY1 or G4xR3
    assert json.loads(r.stdout)["nodes"] == 5


def test_every_command_has_help_and_docs(run) -> None:
    doc = (ROOT / "docs" / "cli.md").read_text()
    for name, command in all_commands().items():
        assert command.help and len(command.help) > 20, name
        assert f"## kifu {name}" in doc, f"docs/cli.md has no section for kifu {name}"
        r = run(name, "--help")
        assert r.exit_code == 0 and "Usage:" in r.stdout


def test_diff_under_other_rules(run, tmp_path) -> None:
    r = run("play", "tweak", "-n", "3", "--set", "rounds=1", "--games", "5", "-o", "c.kifu")
    assert r.exit_code == 0
    same = run("diff", "c.kifu", "--rules", "tweak/1;rounds=1;threshold=10")
    assert same.exit_code == 0 and "0 of 5 record(s) differ" in same.stdout
    sevens = "tweak/1;rounds=1;backs=" + ",".join(["7"] * 36)
    r = run("diff", "c.kifu", "--rules", sevens, "--json")
    assert r.exit_code == 1
    data = json.loads(r.stdout)
    assert data["records"] == 5 and data["changed"] >= 1
    refused = [d for d in data["diffs"] if d["ply"]]
    assert refused and "[rule tweak 5: capture sum]" in refused[0]["error"]
    r = run("diff", "c.kifu")
    assert r.exit_code == 1 and "two records" in r.stderr
