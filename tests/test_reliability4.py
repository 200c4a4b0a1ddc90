"""Issue 35, the fourth reliability round: one regression test (or a few) per row of the
issue's table that is this branch's (the memory of ``kifu match --games N`` and the running
sums of ``simulate`` are tested with their own branches). Each failed on main ``bc460f0``:
an output left empty or mixed, an input replaced, memory past a limit, a command that
blocked, a limit that did not hold. The output policy as a whole (every writing command,
each stop signal at several points) is ``tests/test_faults.py``.

Memory is checked with a resource limit in a child process (``RLIMIT_AS`` 400 MB) or with
tracemalloc in this one, never with a timer.
"""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kifu.archive import Archive
from kifu.cli.main import all_commands, cli

ROOT = Path(__file__).resolve().parent.parent
LIMIT_AS = 400 << 20
"""The address space of a child that reads a hostile file (the issue's figure)."""


def run(*args: object, stdin: bytes | str | None = None):
    return CliRunner().invoke(cli, [str(a) for a in args], input=stdin)


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_AS, LIMIT_AS))


def kifu(*args: object, stdin=None, limit: bool = False, cwd: Path | None = None,
         timeout: float = 300) -> subprocess.CompletedProcess:
    """``kifu ARGS`` in a child (``limit``: with 400 MB of address space); the timeout only
    turns a hang into a failure, it measures nothing."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "kifu.cli.main", *map(str, args)],
                          stdin=stdin, capture_output=True, timeout=timeout, env=env, cwd=cwd,
                          preexec_fn=_limited if limit else None)


def one_line(proc: subprocess.CompletedProcess) -> str:
    """A child that failed with exit code 1 and one line on stderr, no traceback."""
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 1, (proc.returncode, err[-800:])
    assert "Traceback" not in err and "MemoryError" not in err, err[-800:]
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, lines[:5]
    return lines[0]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "g.kifu"
    r = run("play", "tweak", "-n", "3", "--seed", "1", "--date", "2026.11.28", "-o", path)
    assert r.exit_code == 0, r.output
    return path


# --- row 1: Ctrl-C in puzzles generate before a puzzle is found -------------------------------

LX_GENERATE = ("puzzles", "generate", "lianxian", "--question", "lianxian-least-bonus 1",
               "--count", "1", "--seed", "0", "--budget-nodes", "200")


def _default_stop_signals() -> None:
    """In the child before exec: the stop signals at their default action, as a terminal
    gives them. An ignored signal stays ignored across exec (nohup's way), and in a full
    run of the suite this process may have SIGINT and SIGHUP ignored by then (seen: both
    tests timed out at 120 s in two full runs while SIGTERM's passed; alone they pass), so
    the child would not have been stopped at all."""
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)


@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_before_a_puzzle_is_found_keeps_the_output(sig: str, tmp_path: Path) -> None:
    """The issue's command, stopped by each signal before it finds a puzzle: keep.kifu
    stays as it was (main: 0 bytes after Ctrl-C)."""
    keep = tmp_path / "keep.kifu"
    keep.write_text("[Game \"tweak\"]\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "kifu.cli.main", *LX_GENERATE, "-o",
                             str(keep)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env, preexec_fn=_default_stop_signals)
    # started: the progress bar (on a pipe: its first line) is on stderr once the command runs
    assert proc.stderr is not None
    proc.stderr.read1(1)  # type: ignore[attr-defined]
    time.sleep(0.5)  # into the games (the first puzzle takes much longer than this)
    proc.send_signal(getattr(signal, sig))
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode != 0
    assert keep.read_text() == "[Game \"tweak\"]\n", err.decode()[-500:]
    assert not list(tmp_path.glob(".kifu-*"))
    assert b"Traceback" not in err


def test_an_interrupted_generate_that_found_nothing_writes_nothing(tmp_path: Path,
                                                                   monkeypatch) -> None:
    """The same in this process, with the search interrupted at once: nothing written, and
    the line says so."""
    import kifu.cli.puzzles as cmd

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
        yield  # a generator, as generate_puzzles is

    monkeypatch.setattr(cmd, "generate_puzzles", interrupted)
    keep = tmp_path / "keep.kifu"
    keep.write_text("old\n")
    r = run(*LX_GENERATE, "-o", keep, "-q")
    assert r.exit_code == 1
    assert keep.read_text() == "old\n"
    assert "interrupted before a puzzle was found: no output was changed" in r.output


# --- row 2: an input is never its output ------------------------------------------------------

@pytest.mark.parametrize("spelling", ["-", "/dev/stdin", "/proc/self/fd/0", "/dev/fd/0"])
def test_stdin_by_any_name_is_never_the_output(spelling: str, record: Path,
                                               tmp_path: Path) -> None:
    """``kifu html - -o g.kifu < g.kifu`` (main: exit 0, the record replaced by the page)."""
    if not os.path.exists(spelling) and spelling != "-":
        pytest.skip(f"no {spelling} here")
    g = tmp_path / "g.kifu"
    g.write_bytes(record.read_bytes())
    with open(g, "rb") as f:
        line = one_line(kifu("html", spelling, "-o", g, stdin=f))
    name = "<stdin>" if spelling == "-" else spelling
    assert line == f"{g}: the output is also an input ({name}); write to another file"
    assert g.read_bytes() == record.read_bytes()


@pytest.mark.parametrize("how", ["symlink", "hard link", "stdout"])
def test_links_and_stdout_onto_an_input_are_refused(how: str, record: Path,
                                                    tmp_path: Path) -> None:
    g = tmp_path / "g.kifu"
    g.write_bytes(record.read_bytes())
    if how == "stdout":  # kifu html g.kifu >> g.kifu
        with open(g, "ab") as out:
            proc = subprocess.run([sys.executable, "-m", "kifu.cli.main", "html", str(g)],
                                  stdout=out, stderr=subprocess.PIPE,
                                  env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=120)
        assert "<stdout>: the output is also an input" in one_line(proc)
    else:
        other = tmp_path / "other.kifu"
        (other.symlink_to if how == "symlink" else other.hardlink_to)(g)
        assert "the output is also an input" in one_line(kifu("html", other, "-o", g))
    assert g.read_bytes() == record.read_bytes()


def test_pipes_devices_and_symlinked_outputs_are_still_written(record: Path,
                                                               tmp_path: Path) -> None:
    """What docs/cli.md promises stays: -o /dev/null, -o a FIFO (a pipe), -o a symlink
    (its target replaced), -o /dev/stdout into a pipe."""
    assert kifu("html", record, "-o", "/dev/null").returncode == 0
    target = tmp_path / "target.html"
    target.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(target)
    assert kifu("html", record, "-o", link).returncode == 0
    assert link.is_symlink() and target.read_text().startswith("<!DOCTYPE html>")
    fifo = tmp_path / "p.html"
    os.mkfifo(fifo)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "kifu.cli.main", "html", str(record), "-o",
                             str(fifo)], env=env, stderr=subprocess.PIPE)
    with open(fifo, "rb") as f:
        page = f.read()
    assert proc.wait(timeout=120) == 0
    assert page.startswith(b"<!DOCTYPE html>")
    piped = kifu("html", record, "-o", "/dev/stdout")
    assert piped.returncode == 0 and piped.stdout.startswith(b"<!DOCTYPE html>")


# --- row 3: Ctrl-C in simulate's output phase -------------------------------------------------

def test_simulate_outputs_are_replaced_together(tmp_path: Path, monkeypatch) -> None:
    """Ctrl-C while simulate replaces -o F, --db A and --html H: all three old or all three
    new (main: F new, A and H old). The signal is sent at the first rename, the moment
    main left the outputs mixed."""
    f, a, h = tmp_path / "F.kifu", tmp_path / "A.db", tmp_path / "H.html"
    f.write_text("old\n")
    h.write_text("old\n")
    Archive(str(a)).close()
    real_replace = os.replace
    sent = []

    def replace(src, dst, *args, **kwargs):
        real_replace(src, dst, *args, **kwargs)
        if not sent:
            sent.append(dst)
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(os, "replace", replace)
    r = run("simulate", "tweak", "-n", "3", "--games", "4", "-o", f, "--db", a, "--html", h,
            "-q")
    monkeypatch.setattr(os, "replace", real_replace)
    assert sent, "no output was renamed"
    with Archive(str(a), readonly=True) as arch:
        stored = len(list(arch.export()))
    new = [f.read_text() != "old\n", stored == 4, h.read_text() != "old\n"]
    assert new in ([True] * 3, [False] * 3), (new, r.output[-300:])
    assert not list(tmp_path.glob(".kifu-*"))


# --- row 4: the Lianxian placements memo ------------------------------------------------------

def test_the_lianxian_memos_are_bounded_by_bytes(monkeypatch) -> None:
    """The games of ``generate lianxian --question 'lianxian-least-bonus 2'`` filled the
    placements memo by entries of about 38 KB, 65,536 of them (854 MB after 90 s). With
    the bound lowered to 512 KiB, what the memos really hold (tracemalloc) stays under it
    (main: 1.4 MB after three games)."""
    import gc
    import tracemalloc

    from kifu.games.lianxian import state as st
    from kifu.lab.generate import puzzles_from_game

    monkeypatch.setattr(st, "MEMO_BYTES", 1 << 19, raising=False)
    st.clear_caches()
    gc.collect()
    tracemalloc.start()
    try:
        for i in range(3):
            puzzles_from_game("lianxian", "lianxian-least-bonus 2", 3, 0, i, 200, 2)
        gc.collect()
        full = tracemalloc.get_traced_memory()[0]
        for memo in (st._PLACES, st._SWAPS, st._DRAWS):
            memo.clear()
        gc.collect()
        held = full - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
        st.clear_caches()
    assert held <= 1 << 19, f"the memos held {held:,} bytes"


def test_the_charge_of_an_entry_is_an_upper_bound_of_its_size() -> None:
    """Each memo entry is charged at least what it holds (so MEMO_BYTES bounds bytes)."""
    import gc
    import tracemalloc

    from kifu.games.lianxian import state as st
    from kifu.lab.generate import puzzles_from_game

    st.clear_caches()
    gc.collect()
    tracemalloc.start()
    try:
        for i in range(2):
            puzzles_from_game("lianxian", "lianxian-least-bonus 2", 3, 0, i, 200, 2)
        gc.collect()
        full = tracemalloc.get_traced_memory()[0]
        charged = st.memo_bytes()
        entries = len(st._PLACES) + len(st._SWAPS) + len(st._DRAWS)
        for memo in (st._PLACES, st._SWAPS, st._DRAWS):
            memo.clear()
        gc.collect()
        held = full - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
        st.clear_caches()
    assert entries > 5
    assert held <= charged, (held, charged)


def test_the_least_bonus_2_run_ends(tmp_path: Path) -> None:
    """The issue's command with a game limit ends with its one line (each search is bounded
    by --budget-nodes; the run by --max-games, 10,000 by default)."""
    r = run("puzzles", "generate", "lianxian", "--question", "lianxian-least-bonus 2",
            "--count", "1", "--seed", "0", "--budget-nodes", "200", "--max-games", "2", "-q",
            "-o", tmp_path / "out.kifu")
    assert r.exit_code == 1
    assert "only 0 of 1 puzzle(s) found in 2 game(s)" in r.output


# --- row 5: a 32 MB JSON record of a million moves --------------------------------------------

@pytest.fixture(scope="module")
def big_json(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A record of 1.2 M moves as one JSON line (32.4 MB, under the 32 MiB limit), as a
    document over two lines, and as a list."""
    d = tmp_path_factory.mktemp("json")
    moves = ",".join(['{"actor":"p0","text":"O3"}'] * 1_200_000)
    rec = '{"headers":{"Game":"tweak","Players":"a, b"},"moves":[' + moves + "]}"
    paths = {"line": d / "line.json", "document": d / "document.json", "list": d / "list.json"}
    paths["line"].write_text(rec)
    paths["document"].write_text(rec.replace('"moves":', '\n"moves":', 1))
    paths["list"].write_text("[" + rec + "]")
    return paths


@pytest.mark.parametrize("command", ["validate", "html", "archive import"])
@pytest.mark.parametrize("kind", ["line", "document", "list"])
def test_a_million_json_moves_stop_at_the_limit(command: str, kind: str,
                                                big_json: dict[str, Path],
                                                tmp_path: Path) -> None:
    """Within 400 MB of address space, the error about the 100,000-action limit (main: 1.1
    GB, a MemoryError here)."""
    path = big_json[kind]
    extra = {"validate": ["-q"], "html": ["-o", tmp_path / "p.html"],
             "archive import": ["--db", tmp_path / "a.db", "-q"]}[command]
    proc = kifu(*command.split(), path, *extra, limit=True)
    err = proc.stderr.decode()
    assert proc.returncode == 1 and "Traceback" not in err and "MemoryError" not in err, err
    assert "a record may have at most 100000 actions, not 1200000" in err


# --- row 6: analyze and mine on a million bad records -----------------------------------------

@pytest.fixture(scope="module")
def header_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ho") / "ho.kifu"
    path.write_text('[Game "tweak"]\n\n' * 1_500_000)  # 24 MB
    return path


@pytest.mark.parametrize("command", ["validate", "analyze", "puzzles mine"])
def test_a_million_bad_records_stop_at_the_first(command: str, header_only: Path) -> None:
    """Within 400 MB (main: analyze and mine held all 1.5 M records first, 1.25 GB)."""
    line = one_line(kifu(*command.split(), header_only, "-q", limit=True))
    assert line == f"{header_only}:1:1: missing header [Rules ...]"


# --- row 8: a FIFO in a folder ---------------------------------------------------------------

@pytest.mark.parametrize("command", ["validate", "archive import", "puzzles mine", "analyze"])
def test_a_fifo_in_a_folder_is_skipped_and_named(command: str, record: Path,
                                                 tmp_path: Path) -> None:
    """A FIFO p.kifu beside a record (main: blocked for ever opening it)."""
    d = tmp_path / "d"
    d.mkdir()
    (d / "a.kifu").write_bytes(record.read_bytes())
    os.mkfifo(d / "p.kifu")
    extra = ["--db", tmp_path / "a.db"] if command == "archive import" else []
    if command in ("puzzles mine", "analyze"):
        extra = ["-q", "-Q", "tweak-this-turn"] + (["-o", tmp_path / "o.kifu"]
                                                  if command == "puzzles mine" else [])
    proc = kifu(*command.split(), d, *extra, timeout=240)
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    assert f"{d / 'p.kifu'}: skipped: a FIFO, not a regular file" in err


# --- row 9: archive query --sql prints a bounded number of rows -------------------------------

COUNT = "with recursive c(x) as (select 1 union all select x + 1 from c where x < 2500) " \
        "select x from c"


def test_sql_prints_at_most_the_default_rows(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    Archive(str(db)).close()
    r = run("archive", "query", "--db", db, "--sql", COUNT, "-f", "json")
    assert r.exit_code == 0, r.output
    assert r.stdout.count("\n") == 1000
    assert "--sql: the first 1000 row(s) shown; --limit N for more, --limit 0 for all" \
        in r.stderr
    everything = run("archive", "query", "--db", db, "--sql", COUNT, "-f", "json", "--limit",
                     "0")
    assert everything.stdout.count("\n") == 2500 and not everything.stderr
    some = run("archive", "query", "--db", db, "--sql", COUNT, "-f", "json", "--limit", "7")
    assert some.stdout.count("\n") == 7


# --- row 10: NaN and infinities ---------------------------------------------------------------

FLOAT_OPTIONS = {
    ("analyze", "--budget-seconds"): ["analyze", "{record}"],
    ("archive query", "--timeout"): ["archive", "query", "--db", "{db}", "--sql", "select 1"],
    ("puzzles generate", "--max-seconds"): ["puzzles", "generate", "tweak", "-Q",
                                            "tweak-this-turn", "-n", "1"],
    ("solve", "--budget-seconds"): ["solve", str(ROOT / "fixtures" / "puzzles" / "tweak.kifu")],
    # issue 37's selection of puzzles by rating and theme share
    **{("puzzles generate", opt): ["puzzles", "generate", "tweak", "-Q", "tweak-this-turn",
                                   "-n", "1"]
       for opt in ("--min-rating", "--max-rating", "--max-share")},
    **{("puzzles mine", opt): ["puzzles", "mine", "{record}"]
       for opt in ("--min-rating", "--max-rating", "--max-share")},
}
"""Every float option of the CLI and a command line to give it to (a test checks the list
is complete)."""


def _float_options() -> set[tuple[str, str]]:
    found = set()

    def walk(cmd: click.Command, path: str) -> None:
        if isinstance(cmd, click.Group):
            for name, sub in cmd.commands.items():
                walk(sub, f"{path} {name}".strip())
            return
        for p in cmd.params:
            kind = p.type
            if isinstance(kind, (click.types.FloatParamType, click.FloatRange)):
                found.add((path, max(p.opts, key=len)))

    for name, cmd in all_commands().items():
        walk(cmd, name)
    return found


def test_every_float_option_is_listed() -> None:
    assert _float_options() == set(FLOAT_OPTIONS)


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN"])
@pytest.mark.parametrize("where", sorted(FLOAT_OPTIONS))
def test_float_options_refuse_nan_and_infinities(where: tuple[str, str], value: str,
                                                 record: Path, tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    Archive(str(db)).close()
    args = [a.format(record=record, db=db) for a in FLOAT_OPTIONS[where]]
    r = run(*args, where[1], value)
    assert r.exit_code in (1, 2), r.output
    assert "Traceback" not in r.output
    assert where[1] in r.output
    if value.lower() == "nan":  # what passed on main
        assert r.exit_code == 1


# --- row 11: empty paths ----------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["simulate", "tweak", "-n", "3", "--games", "2", "--db", ""],
    ["simulate", "tweak", "-n", "3", "--games", "2", "-o", ""],
    ["simulate", "tweak", "-n", "3", "--games", "2", "--html", ""],
    ["play", "tweak", "-n", "3", "-o", ""],
    ["puzzles", "generate", "tweak", "-Q", "tweak-this-turn", "-n", "1", "--db", ""],
    ["archive", "query", "--db", ""],
    ["archive", "import", "", "--db", "x.db"],
    ["validate", ""],
])
def test_empty_paths_are_refused(args: list[str], tmp_path: Path, monkeypatch) -> None:
    """``simulate --db ''`` wrote ./kifu.db on main."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("KIFU_DB", raising=False)
    r = run(*args)
    assert r.exit_code == 1, r.output
    assert "the file name is empty" in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


# --- row 12: archive serve on a taken port or a bad host --------------------------------------

@pytest.fixture
def archive_db(tmp_path: Path, record: Path) -> Path:
    db = tmp_path / "a.db"
    assert run("archive", "import", record, "--db", db, "-q").exit_code == 0
    return db


def test_serve_on_a_taken_port_is_one_line(archive_db: Path) -> None:
    pytest.importorskip("datasette", reason="archive serve needs Datasette (kifu[serve])")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        line = one_line(kifu("archive", "serve", "--db", archive_db, "--port", port))
    assert line == f"127.0.0.1:{port}: cannot listen: Address already in use"


@pytest.mark.parametrize("host", ["no-such-host.invalid", "999.1.1.1"])
def test_serve_on_a_bad_host_is_one_line(host: str, archive_db: Path) -> None:
    pytest.importorskip("datasette", reason="archive serve needs Datasette (kifu[serve])")
    line = one_line(kifu("archive", "serve", "--db", archive_db, "--host", host, "--port",
                         "0"))
    assert line.startswith(f"--host {host}: not an address to listen on")


# --- row 13: a large actor number -------------------------------------------------------------

def test_a_large_actor_number_costs_no_memory(record: Path, tmp_path: Path) -> None:
    """``p999999`` in a 6 KB record made a set of a million seats (114 MB): now the error
    comes within a few MB of traced memory."""
    import tracemalloc

    text = record.read_text().replace("\np1 ", "\np999999 ", 1)
    bad = tmp_path / "act.kifu"
    bad.write_text(text)
    run("validate", record)  # warm: the engine's imports are not what is measured
    tracemalloc.start()
    try:
        r = run("validate", bad)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert r.exit_code == 1
    assert "there is no seat p999999 in a 3-player game [rule actor]" in r.output
    assert peak < 16 << 20, f"{peak:,} bytes"



def test_archive_import_refuses_its_archive_as_stdin(archive_db: Path) -> None:
    """``archive import - --db a.db < a.db`` (main: the check skipped ``-``)."""
    before = archive_db.read_bytes()
    with open(archive_db, "rb") as f:
        line = one_line(kifu("archive", "import", "-", "--db", archive_db, stdin=f))
    assert line == f"<stdin>: the archive (--db {archive_db}) is also an input; import from " \
                   "another file"
    assert archive_db.read_bytes() == before


def test_stdout_is_written_where_no_temporary_file_can_be_made(monkeypatch) -> None:
    """Standard output waits for the commit in a spool: in memory when the temporary folder
    cannot be written (a read-only system must still print records)."""
    import tempfile

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "TemporaryFile", refuse)
    r = run("play", "tweak", "-n", "3", "--seed", "1", "--date", "2026.11.28")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith('[Game "tweak"]\n')
