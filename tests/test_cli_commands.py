"""The commands over every game: play with mixed bots, replay's options, diff under other
rules (GRAPH-T's two readings of "grey open"), help = docs, and bad input everywhere."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest

from kifu import games
from kifu.cli.main import all_commands
from kifu.core.errors import KifuError
from kifu.notation.reader import parse_records
from kifu.notation.replay import replay

ROOT = Path(__file__).resolve().parent.parent
GT_FIXTURES = sorted((ROOT / "fixtures" / "graph-t").glob("*.kifu"))


def one_line_error(r, *needles: str) -> None:
    assert r.exit_code != 0, r.output
    assert "Traceback" not in r.output
    err = r.stderr.strip()
    assert err and "\n" not in err, err
    for n in needles:
        assert n in err, err


# --- play ---------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", games.ids())
def test_play_every_game_with_mixed_bots(game_id, run, tmp_path) -> None:
    game = games.get(game_id)
    n = game.min_players + 1 if game.max_players > game.min_players else game.min_players
    bots = [list(game.bots)[s % len(game.bots)] for s in range(n)]
    r = run("play", game_id, "-n", str(n), "--bots", ",".join(bots), "--games", "3",
            "-s", "4", "-o", "g.kifu")
    assert r.exit_code == 0, r.output
    records = parse_records((tmp_path / "g.kifu").read_text())
    assert len(records) == 3 and [rec.headers["Seed"] for rec in records] == ["4", "5", "6"]
    for rec in records:
        assert rec.players == bots
        replay(rec)


def test_play_progress_bar_on_long_runs(run) -> None:
    r = run("play", "tweak", "-n", "2", "--set", "rounds=1", "--games", "12", "-o", "c.kifu")
    assert r.exit_code == 0 and "playing tweak" in r.stderr
    r = run("play", "tweak", "-n", "2", "--set", "rounds=1", "--games", "12", "--silent",
            "-o", "c.kifu")
    assert r.exit_code == 0 and r.stderr == ""


@pytest.mark.parametrize("args,needle", [
    (("--games", "0"), "--games must be at least 1"),
    (("--seed", "²"), "not a plain ASCII integer"),
    (("--seed=--5",), "not a plain ASCII integer"),
    (("--seed", "9" * 5000), "at most 40 digits"),
    (("--seed", "a\x07b"), "control character"),
    (("--date", "a\nb"), "--date"),
    (("--date", "2026-11-23"), "YYYY.MM.DD"),
    (("--date", "2026.13.01"), "no month 13"),
    (("--bots", "random"), "names 1 bots for 2 players"),
    (("--bot", "nobody"), "no bot 'nobody'"),
    (("--set", "x=1"), "unknown variant field 'x'"),
    (("--rules", "graph-t/1"), "not for tweak"),
])
def test_play_rejects_bad_options(args, needle, run, tmp_path) -> None:
    r = run("play", "tweak", "-n", "2", *args, "-o", "out.kifu")
    one_line_error(r, needle)
    assert not (tmp_path / "out.kifu").exists()


def test_text_seeds_and_unknown_dates(run) -> None:
    a = run("play", "tweak", "-n", "2", "-s", "tuesday club", "--date", "????.??.??").stdout
    assert '[Seed "tuesday club"]' in a and '[Date "????.??.??"]' in a
    assert run("play", "tweak", "-n", "2", "-s", "-3", "--date", "2026.??.??").exit_code == 0


# --- replay -------------------------------------------------------------------------------

@pytest.fixture
def corpus(run, tmp_path) -> Path:
    r = run("play", "graph-t", "-n", "3", "--bots", "ai,random,greedy", "--games", "3", "-s",
            "1", "--date", "2026.11.23", "-o", "c.kifu")
    assert r.exit_code == 0
    return tmp_path / "c.kifu"


def test_replay_all_and_records(run, corpus) -> None:
    recs = parse_records(corpus.read_text())
    total = len(recs[0].moves)
    r = run("replay", "c.kifu", "--all", "-f", "position")
    lines = r.stdout.strip().split("\n")
    assert len(lines) == total + 1 and lines[-1] == run(
        "replay", "c.kifu", "-f", "position").stdout.strip()
    r = run("replay", "c.kifu", "--all", "--ply", "4", "-f", "json")
    objs = [json.loads(x) for x in r.stdout.strip().split("\n")]
    assert [o["ply"] for o in objs] == [0, 1, 2, 3, 4]
    r = run("replay", "c.kifu", "--records", "all", "-f", "json")
    finals = [json.loads(x) for x in r.stdout.strip().split("\n")]
    assert [o["record"] for o in finals] == [1, 2, 3]
    assert all(o["to_move"] is None and o["result"] for o in finals)
    r = run("replay", "c.kifu", "--records", "2-3", "--ply", "2", "-f", "position")
    assert len(r.stdout.strip().split("\n")) == 2
    cut = run("replay", "c.kifu", "--records", "all", "--ply", "7", "-f", "record").stdout
    assert [len(rec.moves) for rec in parse_records(cut)] == [7, 7, 7]
    assert run("validate", "-", input=cut).exit_code == 0
    one_line_error(run("replay", "c.kifu", "--records", "3-1"), "--records")
    one_line_error(run("replay", "c.kifu", "--records", "x"), "--records")


def test_replay_index_streams_past_earlier_records(run, tmp_path, corpus) -> None:
    text = corpus.read_text()
    # spoil the moves of record 1: --index 2 skips them unread, --index 1 sees them
    first, _, rest = text.partition("\n\n[Game")
    spoiled = first.replace("\nd deal ", "\nd deal {unclosed ", 1) + "\n\n[Game" + rest
    (tmp_path / "s.kifu").write_text(spoiled)
    r = run("replay", "s.kifu", "--index", "2", "-f", "position")
    assert r.exit_code == 0
    assert r.stdout == run("replay", "c.kifu", "--index", "2", "-f", "position").stdout
    one_line_error(run("replay", "s.kifu", "--index", "1"), "s.kifu:")
    one_line_error(run("replay", "c.kifu", "--index", "9"), "no record #9")
    one_line_error(run("replay", "c.kifu", "--index", "0"), "--index")


def test_replay_player_by_number_actor_or_name(run, tmp_path) -> None:
    assert run("play", "tweak", "-n", "3", "-s", "2", "-o", "t.kifu").exit_code == 0
    text = (tmp_path / "t.kifu").read_text().replace(
        "greedy, greedy, greedy", "Ann, Bob, Cy", 1)
    (tmp_path / "n.kifu").write_text(text)
    a = run("replay", "n.kifu", "--ply", "5", "-f", "position", "--player", "1").stdout
    assert a == run("replay", "n.kifu", "--ply", "5", "-f", "position", "--player",
                    "p1").stdout
    assert a == run("replay", "n.kifu", "--ply", "5", "-f", "position", "--player",
                    "Bob").stdout
    assert a == run("replay", "n.kifu", "--ply", "5", "-f", "position", "--seat", "1").stdout
    assert "?" in a and a != run("replay", "n.kifu", "--ply", "5", "-f", "position").stdout
    one_line_error(run("replay", "n.kifu", "--player", "Zed"), "no such seat")
    one_line_error(run("replay", "n.kifu", "--player", "7"), "no such seat")
    data = json.loads(run("replay", "n.kifu", "--ply", "5", "-f", "json", "--player",
                          "Cy").stdout)
    assert data["seat"] == "p2" and data["position"].count("?")


def test_replay_stepper_reads_commands(run, corpus) -> None:
    positions = run("replay", "c.kifu", "--all", "-f", "position").stdout.strip().split("\n")
    r = run("replay", "c.kifu", "--step", "-f", "position",
            input="n\n\np\nj 10\n5\nj 999\nwhat\n?\nq\n")
    assert r.exit_code == 0
    shown = [line.split("> ")[-1] for line in r.stdout.split("\n")
             if line.split("> ")[-1].startswith("graph-t/")]
    assert shown == [positions[i] for i in (0, 1, 2, 1, 10, 5)]
    assert "no ply 999" in r.stdout and "unknown command 'what'" in r.stdout
    assert "ply 5/" in r.stdout
    r = run("replay", "c.kifu", "--step", "--ply", "3", "-f", "position", input="")
    assert r.exit_code == 0 and positions[3] in r.stdout


@pytest.mark.parametrize("ply", ["-100000", "100000", "-54"])
def test_replay_out_of_range_ply(ply, run, corpus) -> None:
    total = len(parse_records(corpus.read_text())[0].moves)
    if ply == "-54":
        ply = str(-(total + 1))
    one_line_error(run("replay", "c.kifu", "--ply", ply), "out of range")
    assert run("replay", "c.kifu", "--ply", str(-total), "-f", "position").exit_code == 0


# --- diff under other rules -----------------------------------------------------------------

def outcome(rec, grey_open: str):
    """The outcome of a record under a reading of "grey open", computed by replaying it
    with its Rules header rewritten (not through kifu diff)."""
    game = games.get("graph-t")
    variant = game.parse_rules(rec.headers["Rules"])
    import msgspec

    spec = game.rules_spec(msgspec.structs.replace(variant, grey_open=grey_open))
    other = type(rec)({**rec.headers, "Rules": spec}, rec.moves, rec.comment)
    try:
        state = replay(other, check_result=False).state
    except KifuError as e:
        return ("refused", getattr(e, "ply", None))
    res = state.result()
    return ("result", res.scores, res.ranks) if res else ("unfinished",)


def test_diff_lists_exactly_the_graph_t_records_grey_open_changes(run, tmp_path) -> None:
    records = [rec for p in GT_FIXTURES for rec in parse_records(p.read_text())]
    (tmp_path / "gt.kifu").write_text("\n".join(p.read_text() for p in GT_FIXTURES))
    expected = {i for i, rec in enumerate(records, 1)
                if outcome(rec, "other") != outcome(rec, "anyone")}
    found = set()
    for reading in ("other", "anyone"):
        r = run("diff", "gt.kifu", "--set", f"grey_open={reading}", "--json")
        data = json.loads(r.stdout)
        assert data["records"] == len(records)
        changed = {d["index"] for d in data["diffs"] if d["outcome_changed"]}
        assert r.exit_code == (1 if data["differ"] else 0)
        text = run("diff", "gt.kifu", "--set", f"grey_open={reading}").stdout
        listed = {int(m) for m in re.findall(r"^#(\d+): (?:refused|result)", text, re.M)}
        assert listed == changed
        found |= changed
    assert found == expected
    assert expected, "the fixtures should hold a record that grey_open changes"


@pytest.mark.parametrize("game_id", games.ids())
def test_diff_rules_every_game_compares_positions(game_id, run, tmp_path) -> None:
    game = games.get(game_id)
    r = run("play", game_id, "-n", str(game.min_players), "--games", "2", "-o", "c.kifu")
    assert r.exit_code == 0
    same = run("diff", "c.kifu", "--rules", game.rules_spec(), "--json")
    assert same.exit_code == 0 and json.loads(same.stdout)["differ"] == 0
    for variant in game.example_variants:
        r = run("diff", "c.kifu", "--rules", game.rules_spec(variant), "--json")
        data = json.loads(r.stdout)
        for d in data["diffs"]:
            if d["same"]:
                continue
            assert d["outcome_changed"] or d["position_ply"] is not None
            if d["ply"] is not None:
                assert d["error"] and d["result_b"] is None
        assert r.exit_code == (1 if data["differ"] else 0)


def test_diff_rejects_a_bad_spec_up_front(run, tmp_path) -> None:
    assert run("play", "tweak", "-n", "2", "--games", "2", "-o", "c.kifu").exit_code == 0
    one_line_error(run("diff", "c.kifu", "--rules", "tweak/1;x=1"), "unknown variant field")
    one_line_error(run("diff", "nope.kifu", "--rules", "tweak/1;x=1"), "unknown variant")
    one_line_error(run("diff", "c.kifu", "--rules", "chess/1"), "unknown game 'chess'")
    one_line_error(run("diff", "c.kifu", "--rules", "graph-t/1"), "are for graph-t")
    one_line_error(run("diff", "c.kifu", "--set", "grey_open=anyone"), "unknown variant")
    one_line_error(run("diff", "c.kifu", "--set", "rounds"), "expected name=value")


# --- help and docs ------------------------------------------------------------------------

def _commands():
    for name, command in all_commands().items():
        if isinstance(command, click.Group):
            for sub, subcommand in command.commands.items():
                yield f"{name} {sub}", name, subcommand
        else:
            yield name, name, command


def test_help_and_docs_name_the_same_options(run) -> None:
    doc = (ROOT / "docs" / "cli.md").read_text()
    for full, name, command in _commands():
        head = f"## kifu {full}\n" if f"## kifu {full}\n" in doc else f"## kifu {name}\n"
        assert head in doc, f"docs/cli.md has no section for kifu {full}"
        section = doc.split(head, 1)[1].split("\n## ", 1)[0]
        r = run(*full.split(), "--help")
        assert r.exit_code == 0 and "Usage:" in r.stdout
        for p in command.params:
            if isinstance(p, click.Option) and not p.hidden:
                named = [o for o in p.opts if re.search(rf"(?<![\w-]){o}\b", section)]
                assert named, f"docs/cli.md kifu {full} does not name {p.opts}"
                assert any(o in r.stdout for o in p.opts)


# --- bad input, everywhere ----------------------------------------------------------------

BAD_RECORD = '[Game "tweak"]\n[Rules "tweak/1"]\n[Players "a, b"]\n\nd dealer p0\nq1 R3\n'
WRONG_FIELD = '[Game "tweak"]\n[Rules "tweak/1;colour=R"]\n[Players "a, b"]\n\nd dealer p0\n'
UNKNOWN_GAME = '[Game "chess"]\n[Rules "chess/1"]\n[Players "a, b"]\n\nd e4\n'


@pytest.mark.parametrize("args,needle", [
    (("play", "chess", "-n", "2"), "unknown game 'chess'"),
    (("record", "chess", "-n", "2", "-o", "r.kifu"), "unknown game 'chess'"),
    (("perft", "chess", "x/1"), "unknown game 'chess'"),
    (("trace", "check", "chess"), "unknown game 'chess'"),
    (("trace", "regenerate", "chess", "--dir", "t"), "unknown game 'chess'"),
    (("validate", "missing.kifu"), "missing.kifu"),
    (("replay", "missing.kifu"), "missing.kifu"),
    (("diff", "missing.kifu", "b.kifu"), "missing.kifu"),
    (("diff", "missing.kifu", "--set", "rounds=1"), "missing.kifu"),
    (("record", "--resume", "missing.kifu"), "missing.kifu"),
    (("validate", "bad.kifu"), "bad.kifu:6:1"),
    (("replay", "bad.kifu"), "bad.kifu:6:1"),
    (("replay", "bad.kifu", "--records", "all"), "bad.kifu:6:1"),
    (("diff", "bad.kifu", "bad.kifu"), "bad.kifu:6:1"),
    (("diff", "bad.kifu", "--set", "rounds=1"), "bad.kifu:6:1"),
    (("record", "--resume", "bad.kifu"), "bad.kifu:6:1"),
    (("replay", "field.kifu"), "unknown variant field 'colour'"),
    (("validate", "field.kifu"), "unknown variant field 'colour'"),
    (("diff", "field.kifu", "--set", "rounds=1"), "unknown variant field 'colour'"),
    (("record", "--resume", "field.kifu"), "unknown variant field 'colour'"),
    (("replay", "game.kifu"), "unknown game 'chess'"),
    (("record", "--resume", "game.kifu"), "unknown game 'chess'"),
    (("replay", "utf.kifu"), "utf.kifu:1:1: invalid UTF-8"),
    (("replay", "utf.kifu", "--records", "all"), "invalid UTF-8"),
    (("diff", "utf.kifu", "--set", "rounds=1"), "invalid UTF-8"),
    (("record", "--resume", "utf.kifu"), "utf.kifu:1:1: invalid UTF-8"),
    (("replay", "good.kifu", "--ply", "999"), "out of range"),
    (("replay", "good.kifu", "--ply", "-999"), "out of range"),
    (("replay", "good.kifu", "--step", "--ply", "999"), "out of range"),
    (("replay", "good.kifu", "--all", "-f", "record"), "--all"),
    (("perft", "tweak", "tweak/1 nonsense"), "TWEAK position"),
    (("perft", "tweak", "tweak/1 T0 r1d1 t7 0,0 R6O5G4/R2O2Y2 R3Y1 G5G6G1 - -/- -/-",
      "--depth", "-1"), "--depth must be 0 or more"),
    (("play", "tweak", "-n", "2", "--set", "rounds=x"), "rounds"),
    (("record", "tweak", "-n", "2", "--set", "colour=R", "-o", "r.kifu"), "colour"),
])
def test_every_command_rejects_bad_input_in_one_line(args, needle, run, tmp_path) -> None:
    (tmp_path / "bad.kifu").write_text(BAD_RECORD)
    (tmp_path / "field.kifu").write_text(WRONG_FIELD)
    (tmp_path / "game.kifu").write_text(UNKNOWN_GAME)
    (tmp_path / "utf.kifu").write_bytes(b"\xff[Game")
    run("play", "tweak", "-n", "2", "--set", "rounds=1", "-o", "good.kifu")
    one_line_error(run(*args), needle)
