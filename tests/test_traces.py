"""Golden traces: every game and every example variant has one, each replays line for line,
and a changed rule constant fails with a readable first difference."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu import games
from kifu.cli.main import cli
from kifu.notation import trace
from kifu.notation.trace import (
    MAX_BYTES,
    TraceMismatch,
    check_trace,
    expected_files,
    missing_traces,
)

TRACES = Path(__file__).resolve().parent.parent / "fixtures" / "traces"
FILES = sorted(TRACES.glob("*.trace"))


def test_every_registered_game_has_its_traces() -> None:
    missing = missing_traces(TRACES)
    assert not missing, (
        f"no golden trace for {', '.join(missing)}: run `kifu trace regenerate GAME` "
        "and commit fixtures/traces/"
    )


def test_a_game_without_traces_is_caught(tmp_path) -> None:
    expected = {name for gid in games.ids() for name in expected_files(games.get(gid))}
    assert set(missing_traces(tmp_path)) == expected
    assert len(expected) >= len(games.ids())


def test_no_stale_or_oversized_trace() -> None:
    wanted = {name for gid in games.ids() for name in expected_files(games.get(gid))}
    for path in FILES:
        assert path.name in wanted, f"{path.name}: no registered game variant has this trace"
        assert path.stat().st_size <= MAX_BYTES, f"{path.name} is over {MAX_BYTES} bytes"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_trace_replays_line_for_line(path: Path) -> None:
    lines = check_trace(path)
    text = path.read_text()
    assert lines == text.count("\n")
    # a trace is not empty: at least one game with positions, legal lists and actions
    assert text.count("\naction ") >= 10 and "\nresult " in text


def test_a_changed_rule_constant_fails_with_the_first_difference(monkeypatch) -> None:
    from kifu.games.tweak import state as tweak_state

    path = TRACES / "tweak.trace"
    check_trace(path)
    # TWEAK's end-of-game threshold for 2 players (a table looked up when a game starts)
    monkeypatch.setitem(tweak_state.THRESHOLDS, 2, 10)
    with pytest.raises(TraceMismatch) as info:
        check_trace(path)
    e = info.value
    message = str(e)
    assert re.match(rf"{re.escape(str(path))}:{e.line}: the trace differs from the engine "
                    r"here \(record 1, ply \d+\), from column \d+\n", message), message
    assert f"\n  stored: {e.expected}\n  engine: {e.got}" in message
    assert e.expected == path.read_text().split("\n")[e.line - 1]
    assert e.expected != e.got
    # the CLI says the same and exits 1
    r = CliRunner().invoke(cli, ["trace", "check", "tweak", "--dir", str(TRACES)])
    assert r.exit_code == 1
    assert f"tweak.trace:{e.line}: the trace differs" in r.stderr


def test_a_refused_action_is_reported(tmp_path) -> None:
    src = (TRACES / "graph-t.trace").read_text().split("\n")
    i = next(k for k, line in enumerate(src) if line.startswith("action p"))
    src[i] = re.sub(r"^action (p\d+) .*", r"action \1 Q9", src[i])
    bad = tmp_path / "graph-t.trace"
    bad.write_text("\n".join(src))
    with pytest.raises(TraceMismatch) as info:
        check_trace(bad)
    assert info.value.line == i + 1 and "the engine refuses" in info.value.got


def test_regenerate_rewrites_the_same_files(tmp_path) -> None:
    r = CliRunner().invoke(cli, ["trace", "regenerate", "graph-t", "--dir", str(tmp_path)])
    assert r.exit_code == 0, r.output
    names = sorted(p.name for p in tmp_path.glob("*.trace"))
    assert names == sorted(expected_files(games.get("graph-t")))
    for name in names:
        assert (tmp_path / name).read_text() == (TRACES / name).read_text(), name
    # a stale trace of the game is removed, other files are left alone
    (tmp_path / "graph-t__grey=maybe.trace").write_text("# old\ngame graph-t\n")
    (tmp_path / "notes.txt").write_text("keep")
    CliRunner().invoke(cli, ["trace", "regenerate", "graph-t", "--dir", str(tmp_path)])
    assert not (tmp_path / "graph-t__grey=maybe.trace").exists()
    assert (tmp_path / "notes.txt").exists()
    r = CliRunner().invoke(cli, ["trace", "check", "graph-t", "--dir", str(tmp_path)])
    assert r.exit_code == 0 and r.stdout.count("lines match") == len(names)


def test_trace_size_is_bounded(monkeypatch) -> None:
    monkeypatch.setattr(trace, "MAX_BYTES", 1000)
    game = games.get("tweak")
    text = trace.generate(game, game.Variant(rounds=1))
    assert text.count("\nrecord ") == 1  # games were dropped until one is left
