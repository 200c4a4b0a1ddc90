"""``--cards FILE``: an Alice card set from a file, for the commands that start games, and
loaded first by the commands that read records naming it."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _registry(monkeypatch):
    """A card set loaded here stays in this test: the registries are restored after it."""
    from kifu.games.alice import cards

    monkeypatch.setattr(cards, "_SETS", dict(cards._SETS))
    monkeypatch.setattr(cards, "_TABLES", dict(cards._TABLES))
    # validate's replayer caches each record's setup (its variant, naming the set): a fresh
    # one, so no later test ships a variant that names a set only this test loaded
    from kifu.notation import batch, replay

    monkeypatch.setattr(batch, "_REPLAYER", replay.FastReplayer())
    # and the worker setups that ship a loaded set to worker processes
    from kifu.core import executor

    monkeypatch.setattr(executor, "_SETUPS", [])


def test_play_with_a_card_file_then_validate_and_replay_with_it(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "kifu/games/alice/cards/tea-party.cards").read_text(encoding="utf-8")
    Path("mine.cards").write_text(text.replace("\nset tea-party", "\nset mine-only"))
    run = CliRunner().invoke
    r = run(cli, ["play", "alice", "-n", "3", "--seed", "4", "--cards", "mine.cards",
                  "-o", "g.kifu"])
    assert r.exit_code == 0, r.output
    assert '[Rules "alice/1;cards=mine-only"]' in Path("g.kifu").read_text()
    r = run(cli, ["validate", "--cards", "mine.cards", "g.kifu"])
    assert r.exit_code == 0 and "1 of 1 record(s) valid" in r.output, r.output
    r = run(cli, ["replay", "--cards", "mine.cards", "g.kifu", "--ply", "3", "-f", "position"])
    assert r.exit_code == 0 and r.output.startswith("alice/1;cards=mine-only "), r.output


def test_bad_card_options_are_one_line_errors(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bad.cards").write_text("set x\nrole A 3 no_such_skill Someone\n")
    run = CliRunner().invoke
    for args, words in (
        (["play", "tweak", "-n", "2", "--cards", "bad.cards"], "bad.cards:"),
        (["play", "alice", "-n", "3", "--cards", "missing.cards"], "missing.cards"),
        (["play", "alice", "-n", "3", "--cards", "bad.cards"], "bad.cards:2:"),
    ):
        r = run(cli, args)
        assert r.exit_code == 1, (args, r.output)
        lines = r.output.strip().splitlines()
        assert len(lines) == 1 and words in lines[0] and "Traceback" not in r.output, r.output


def test_a_loaded_card_set_reaches_spawned_worker_processes(tmp_path) -> None:
    """A worker process that did not fork from this one (spawned here; a Dask worker in
    ``tests/test_dask.py``) learns a ``--cards`` set through the executor's worker setups."""
    import concurrent.futures as cf
    import multiprocessing

    from kifu.cli.options import _load_cards
    from kifu.core import executor
    from kifu.games.alice import cards

    text = (ROOT / "kifu/games/alice/cards/tea-party.cards").read_text(encoding="utf-8")
    card_file = tmp_path / "spawn.cards"
    card_file.write_text(text.replace("\nset tea-party", "\nset spawn-only"))
    assert _load_cards(None, None, str(card_file)) == "spawn-only"  # type: ignore[arg-type]
    ctx = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
        got = list(executor.map_chunks(cards.card_set, ["spawn-only", "default"], pool=pool))
    assert [c.name for c in got] == ["spawn-only", "default"]
    assert got[0] == cards.card_set("spawn-only")
