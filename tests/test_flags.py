"""One set of flags (issue 27): ``-q/--quiet`` on every command that prints progress or a
summary (old spellings kept hidden), ``validate DIR`` like ``import DIR``, an import of a
missing file that creates no archive, and ``kifu games`` listing aligned columns and every
variant field with its default and meaning."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from kifu import games
from kifu.cli.main import all_commands, cli
from kifu.core.variant import describe_fields


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


QUIET = {("play",), ("validate",), ("solve",), ("diff",), ("puzzles", "generate"),
         ("archive", "import"), ("trace", "check"), ("trace", "regenerate"), ("simulate",)}
"""Every command that prints a progress bar or a summary besides what was asked."""


def _commands():
    for name, cmd in all_commands().items():
        if isinstance(cmd, click.Group):
            for sub, c in cmd.commands.items():
                yield (name, sub), c
        else:
            yield (name,), cmd


def test_quiet_is_spelled_the_same_everywhere() -> None:
    seen = set()
    for path, cmd in _commands():
        for p in cmd.params:
            if isinstance(p, click.Option) and "-q" in p.opts:
                assert p.opts == ["-q", "--quiet"] and p.is_flag, (path, p.opts)
                seen.add(path)
            if isinstance(p, click.Option) and "--question" in p.opts:
                assert "-q" not in p.opts, path
    assert seen >= QUIET, QUIET - seen


def test_quiet_and_the_old_silent(tmp_path) -> None:
    args = ["play", "tweak", "-n", "2", "--set", "rounds=1", "--games", "12", "-o",
            str(tmp_path / "a.kifu")]
    for extra in ([], ["-q"], ["--quiet"], ["--silent"]):
        r = CliRunner().invoke(cli, args + extra)
        assert r.exit_code == 0, r.output
        assert ("playing tweak" in r.stderr) == (not extra), (extra, r.stderr)
    assert "--silent" not in run("play", "--help").stdout


def test_validate_quiet_and_folders(tmp_path) -> None:
    import shutil
    from pathlib import Path

    src = sorted(Path("fixtures/towai").glob("*.kifu"))[:3]
    (tmp_path / "games" / "more").mkdir(parents=True)
    for i, f in enumerate(src):
        shutil.copy(f, tmp_path / "games" / ("more" if i else "") / f.name)
    (tmp_path / "games" / "notes.txt").write_text("not a record\n")
    r = run("validate", str(tmp_path / "games"))
    assert r.exit_code == 0, r.output
    assert r.stdout.count("1 of 1 record(s) valid") == 3
    r = run("validate", "-q", str(tmp_path / "games"))
    assert r.exit_code == 0 and r.stdout == ""
    r = run("validate", "fixtures/towai")  # its invalid/ folder is searched too
    assert r.exit_code == 1 and "invalid/" in r.stderr
    (tmp_path / "empty").mkdir()
    r = run("validate", str(tmp_path / "empty"))
    assert r.exit_code == 1 and "no record file" in r.stderr
    r = run("validate", str(tmp_path / "nope.kifu"))
    assert r.exit_code == 1 and r.stderr.strip().endswith("nope.kifu: no such file or folder")


def test_import_of_a_missing_file_creates_no_archive(tmp_path) -> None:
    db = tmp_path / "x.db"
    r = run("archive", "import", str(tmp_path / "missing.kifu"), "--db", str(db))
    assert r.exit_code == 1 and "missing.kifu: no such file or folder" in r.stderr
    assert not db.exists() and not list(tmp_path.glob("x.db*"))
    r = run("archive", "import", "fixtures/graph-t", str(tmp_path / "missing.kifu"),
            "--db", str(db))
    assert r.exit_code == 1 and not db.exists()


def test_solve_and_generate_quiet(tmp_path) -> None:
    r = run("solve", "--check", "fixtures/puzzles/graph-t.kifu", "-q")
    assert r.exit_code == 0 and r.stdout == "" and r.stderr == ""
    pos = run("replay", "fixtures/graph-t/2p-tie.kifu", "--ply", "-6", "-f",
              "position").stdout.strip()
    r = run("solve", "graph-t", pos, "-Q", "double-dummy", "-q")
    assert r.exit_code == 0 and len(r.stdout.splitlines()) == 1
    assert r.stdout.startswith("<command line>#1: double-dummy: place ")
    r = run("solve", "graph-t", pos, "-q", "double-dummy")
    assert r.exit_code == 2 and "-q is --quiet; give the question with --question or -Q" \
        in r.stderr
    r = run("puzzles", "generate", "tweak", "--question", "tweak-this-turn", "-n", "1",
            "--seed", "5", "-o", str(tmp_path / "p.kifu"), "-q")
    assert r.exit_code == 0 and r.stderr == "", r.stderr


def test_diff_quiet(tmp_path) -> None:
    r = run("diff", "-q", "fixtures/graph-t/2p-tie.kifu", "fixtures/graph-t/4p-tie.kifu")
    assert r.exit_code == 1 and r.stdout == "different game, rules or players\n"


def test_games_table_is_aligned_and_lists_the_variant_fields() -> None:
    r = run("games")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    table = lines[: 1 + len(games.ids())]
    for column in ("PLAYERS", "RULES", "BOTS"):
        at = table[0].index(column)
        for line in table[1:]:
            assert line[at - 2: at] == "  " and line[at] != " ", (column, line)
    for gid in games.ids():
        fields = describe_fields(games.get(gid).Variant)
        assert fields
        block = r.stdout.split(f"\n{gid}\n", 1)[1].split("\n\n", 1)[0].splitlines()
        assert block[0].split() == ["FIELD", "DEFAULT", "MEANING"]
        at = block[0].index("MEANING")
        for f, line in zip(fields, block[1:], strict=True):
            assert line.split()[0] == f.name and line[at:] == f.meaning
            assert len(f.meaning) > 20 and "\n" not in f.meaning, f
    data = json.loads(run("games", "--json").stdout)
    tweak = next(g for g in data if g["id"] == "tweak")
    rounds = next(f for f in tweak["fields"] if f["name"] == "rounds")
    assert rounds == {"name": "rounds", "type": "integer", "default": "0",
                      "meaning": "Stop after this many rounds whatever the totals; 0 = play "
                                 "to the threshold"}


@pytest.mark.parametrize("gid", games.ids())
def test_every_variant_field_has_a_meaning(gid: str) -> None:
    game = games.get(gid)
    for f in describe_fields(game.Variant):
        assert f.meaning and not f.meaning[0].islower(), (gid, f)
        # the default round-trips through a rules spec
        game.parse_rules(f"{game.rules_spec()};{f.name}={f.default}")
