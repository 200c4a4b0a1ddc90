"""The fast replay path gives exactly the old path's verdicts; validation keeps nothing per
record; N workers give one process's output."""

from __future__ import annotations

import gc
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu import games
from kifu.cli.main import cli
from kifu.core.errors import KifuError
from kifu.notation import replay as replay_mod
from kifu.notation.batch import FileSummary, Validation, iter_file, report_record
from kifu.notation.reader import read_records
from kifu.notation.replay import FastReplayer, replay

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"
VALID = sorted(p for g in games.ids() for p in (FIX / g).glob("*.kifu"))
INVALID = sorted(p for g in games.ids() for p in (FIX / g / "invalid").glob("*.kifu"))


def verdict(fn, loc) -> str:
    """The final position, or the error message: what two replay paths must agree on."""
    try:
        state = fn(loc)
    except KifuError as e:
        return f"error: {e}"
    state = getattr(state, "state", state)
    return f"ok: {state.to_line()} {len(state.history)}"


def old(loc):
    return replay(loc)


FAST = FastReplayer()  # shared across tests, so its caches carry over as in a long run


@pytest.mark.parametrize("path", VALID + INVALID, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_fast_path_matches_replay_on_every_fixture(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    rel = path.relative_to(ROOT).as_posix()
    try:
        locs = list(read_records(text, path=rel))
    except KifuError:
        pytest.skip("a syntax error: no record reaches replay (the reader's own test)")
    assert locs
    for loc in locs:
        assert verdict(FAST.play, loc) == verdict(old, loc)
    if path in INVALID:
        expected = path.with_suffix(".err").read_text(encoding="utf-8").strip()
        got = [verdict(FAST.play, loc) for loc in locs]
        assert f"error: {expected}" in got


def _corrupt(rng: random.Random, lines: list[str], game_texts: list[str]) -> list[str]:
    """One random damage to a record's lines: another action text, another actor, a line
    dropped or doubled, two lines swapped, a wrong Result."""
    out = list(lines)
    acts = [i for i, line in enumerate(out) if line[:1] in ("p", "d") and " " in line]
    i = rng.choice(acts)
    actor, _, text = out[i].partition(" ")
    kind = rng.randrange(6)
    if kind == 0:
        out[i] = f"{actor} {rng.choice(game_texts)}"
    elif kind == 1:
        out[i] = f"{rng.choice(['d', 'p0', 'p1', 'p2', 'p5', 'p07'])} {text}"
    elif kind == 2:
        del out[i]
    elif kind == 3:
        out.insert(i, out[i])
    elif kind == 4:
        j = rng.choice(acts)
        out[i], out[j] = out[j], out[i]
    else:
        out = [line if not line.startswith("[Result") else '[Result "1 2"]' for line in out]
    return out


def test_fast_path_matches_replay_on_corrupted_records() -> None:
    rng = random.Random(12)
    texts = {}
    for p in VALID:
        gid = p.parent.name
        for line in p.read_text(encoding="utf-8").split("\n"):
            if line[:1] == "p" and " " in line:
                texts.setdefault(gid, set()).add(line.partition(" ")[2])
    pool = {g: sorted(t) for g, t in texts.items()}
    checked = errors = 0
    for _ in range(400):
        path = rng.choice(VALID)
        lines = path.read_text(encoding="utf-8").split("\n")
        bad = "\n".join(_corrupt(rng, lines, pool[path.parent.name]))
        try:
            locs = list(read_records(bad, path="c.kifu"))
        except KifuError:
            continue
        for loc in locs:
            a, b = verdict(FAST.play, loc), verdict(old, loc)
            assert a == b
            checked += 1
            errors += a.startswith("error")
    assert checked > 300 and errors > 200  # the damage mostly breaks records


def test_action_memo_is_bounded(monkeypatch) -> None:
    monkeypatch.setattr(replay_mod, "MEMO_LIMIT", 5)
    fast = FastReplayer()
    for p in [p for p in VALID if p.parent.name in ("tweak", "graph-t")][:6]:
        for loc in read_records(p.read_text(encoding="utf-8")):
            fast.play(loc)
    assert fast._memos and all(len(m) <= 5 for m in fast._memos.values())


def _corpus(n: int, bad_every: int = 0) -> str:
    """``n`` records cycling through a few valid fixtures (every ``bad_every``-th broken)."""
    texts = [p.read_text(encoding="utf-8") for p in VALID if "single-round" in p.name]
    out = []
    for k in range(n):
        t = texts[k % len(texts)]
        if bad_every and k % bad_every == bad_every - 1:
            t = t.replace('[Result "', '[Result "9', 1)
        out.append(t)
    return "\n".join(out)


def _reports_alive() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects()
               if type(o) is dict and "record" in o and "ok" in o and "file" in o)


@pytest.mark.parametrize("every", [False, True])
def test_validation_keeps_no_report_per_record(tmp_path, every) -> None:
    """Memory does not grow with the number of records: however many records were checked,
    the reports alive are the few the caller holds."""
    alive = []
    for n in (60, 600):
        (tmp_path / "c.kifu").write_text(_corpus(n, bad_every=50))
        run = Validation(report_all=True, every=every)
        gen = run.run([str(tmp_path / "c.kifu")])
        bad = 0
        for item in gen:
            if isinstance(item, FileSummary):
                assert (item.count, item.ok) == (n, n - n // 50)
            elif not item["ok"]:
                bad += 1
            del item
        assert bad == n // 50 and run.checked == n and run.bad == n // 50
        alive.append(_reports_alive())
    assert alive[0] == alive[1] <= 1


def test_workers_give_one_process_output(tmp_path) -> None:
    text = _corpus(40, bad_every=7)
    lines = text.split("\n")
    lines.insert(len(lines) // 2, "{an open comment")
    lines.insert(len(lines) // 2 + 1, "[Looks \"like a header\"]")
    lines.insert(len(lines) // 2 + 2, "}")
    (tmp_path / "a.kifu").write_text("\n".join(lines))
    (tmp_path / "b.kifu").write_text(text + "\nq1 R3\n" + text)  # a syntax error mid-file
    for name in ("a.kifu", "b.kifu"):
        path = str(tmp_path / name)
        one = list(iter_file(path, report_record, workers=1))
        for size in (1, 3, 16):
            assert list(iter_file(path, report_record, workers=2, chunk_records=size)) == one


def test_cli_json_is_streamed_and_parses(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.kifu").write_text(_corpus(30, bad_every=10))
    runner = CliRunner()
    r = runner.invoke(cli, ["validate", "--all", "--json", "c.kifu"])
    assert r.exit_code == 1
    report = json.loads(r.stdout)
    assert report["ok"] is False and report["checked"] == 30
    assert [x["record"] for x in report["records"] if not x["ok"]] == [10, 20, 30]
    r2 = runner.invoke(cli, ["validate", "--all", "--json", "-w", "2", "c.kifu"])
    assert r2.stdout == r.stdout


@pytest.mark.parametrize("gid", games.ids())
def test_step_is_check_then_push(gid: str) -> None:
    """``State.step`` (the fast path's per-action call) accepts exactly what ``check``
    accepts, with the same error, reaches the same position and ``to_move`` as ``push``,
    leaves the state unchanged when it raises, and is undone by ``pop``. Tried on random
    playouts under every example variant, with each position's legal actions and actions
    legal at other positions (mostly illegal here)."""
    from kifu.core.errors import IllegalActionError
    from kifu.core.game import DEALER
    from kifu.core.rng import Rng

    game = games.get(gid)
    rng = random.Random(12)
    seen: dict = {}  # distinct actions met so far, tried at later positions
    tried = 0
    for k, variant in enumerate((None, *game.example_variants)):
        n = game.min_players + k % (game.max_players - game.min_players + 1)
        state = game.new_state(n, variant)
        chance = Rng(k)
        plies = 0
        while state.to_move is not None and plies < 80:
            plies += 1
            if state.to_move == DEALER:
                good = game.chance_action(state, chance)
            else:
                good = rng.choice(state.legal_actions())
            others = list(seen)
            for action in [good, *rng.sample(others, min(24, len(others)))]:
                before = state.key()
                try:
                    state.check(action)
                    want = None
                except IllegalActionError as e:
                    want = str(e)
                probe = state.copy()
                try:
                    mover = probe.step(action)
                    got = None
                except IllegalActionError as e:
                    got = str(e)
                    assert probe.key() == before  # nothing played
                assert got == want
                tried += 1
                if want is None:
                    ref = state.copy()
                    ref.push(action)
                    assert probe.key() == ref.key() and mover == ref.to_move
                    assert probe.pop() == action and probe.key() == before
            seen[good] = None
            state.step(good)
    assert tried > 100


@pytest.mark.parametrize("gid", games.ids())
def test_a_copy_of_a_new_state_is_a_new_state(gid: str) -> None:
    """FastReplayer starts each record from ``copy()`` of a kept new state: under every
    example variant, the copy plays a random game exactly as a new state does."""
    from kifu.core.game import DEALER
    from kifu.core.rng import Rng

    game = games.get(gid)
    for k, variant in enumerate((None, *game.example_variants)):
        n = game.min_players + k % (game.max_players - game.min_players + 1)
        template = game.new_state(n, variant)
        a, b = game.new_state(n, variant), template.copy()
        assert b.history == [] and b is not template
        f = template.copy()
        f.forward_only()  # played by step, as the fast path plays
        chance, rng = Rng(k), random.Random(k)
        plies = 0
        while True:
            assert a.key() == b.key() and a.to_line() == b.to_line()
            assert a.to_move == b.to_move and a.result() == b.result()
            assert f.key() == a.key() and f.history == a.history
            if a.to_move is None or plies == 60:
                break
            plies += 1
            if a.to_move == DEALER:
                action = game.chance_action(a, chance)
            else:
                action = rng.choice(a.legal_actions())
            a.apply(action)
            b.apply(action)
            assert f.step(action) == a.to_move
        assert template.key() == game.new_state(n, variant).key()  # left as it was
        if f.history:
            last = f.history[-1]
            try:
                undone = f.pop()
            except IndexError:
                continue  # a forward-only state may refuse to undo
            assert undone == last
