"""Random ``kifu`` command lines, built from the click command tree, run in this process
through click's ``CliRunner`` (``tests/test_cli_fuzz.py`` and ``fuzz/cli_campaign.py``).

Every command and subcommand is found by walking the tree of ``kifu.cli.main`` (commands
added later are fuzzed with no change here). A line is a command path, then its options in
random order, each under its real name, a mangled name (a typo, the wrong case, ``=``
joined, a stray dash) or missing, with a random value of the option's type (valid, at an
edge, out of range, not a value of that type at all) or a file from a small pool in a
temporary folder: a record, several records, a puzzle file, an archive, an Alice card set,
a folder, a FIFO, binary junk, an empty file, a missing file, a symlink loop.

What must hold (:func:`verdict`): exit code 0, 1 or 2; ``result.exception`` is ``None`` or
``SystemExit``; no traceback in the output. A line that runs longer than its time limit is
reported apart (``"slow"``): work that is only long is not a failure here.

``archive serve`` runs every check but starts no server (its Datasette call is replaced).
Options that only make a command work longer (a perft depth, a game count, a node budget)
get small valid values or invalid ones, never huge valid ones, and every search gets a
small budget first (which the line may override), so a line is quick.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

GAME_NAMES = ["tweak", "graph-t", "towai", "alice", "lianxian", "TWEAK", "graph_t", "chess", ""]
HOSTILE = ["", " ", "-", "--", "x", "é", "\udcff", "\u202e", "ſ", "²", "٣", "a" * 300,
           "{", "[", '"', "'", ";", "=", "%s", "\\", "\t", "\n", "*", "?", "..",
           "x" * 10_000, "p0", "p99", "d", "!", "9" * 400, "1" * 30 + "G", "1e999", "-0"]
INTS = ["0", "1", "2", "3", "-1", "-0", "+1", "1.5", "1e3", "x", "", "0x10", "٣", "²",
        str(2**31), str(2**63 - 1), str(2**63), str(2**64), str(-(2**63) - 1), "9" * 40,
        "9" * 5000, " 1", "1_000"]
SMALL_INTS = ["0", "1", "2", "-1", "x", "", "٣", str(2**64), "9" * 5000]
FLOATS = ["0", "0.1", "0.5", "-1", "nan", "inf", "-inf", "1e999", "x", "", "1e-300", "0x1p3"]
WORK_OPTIONS = {
    "--depth": ["0", "1", "2"],
    "--games": ["1", "2", "3"],
    "--count": ["1", "2"],
    "--budget-nodes": ["1", "10", "500", "2000"],
    "--budget-seconds": ["0", "0.05", "0.2"],
    "--max-games": ["0", "1", "2", "3"],
    "--max-seconds": ["0.01", "0.5"],
    "--workers": ["1", "1", "1", "2"],
    "--timeout": ["0.1", "0.3"],
}
"""Options that only make a line longer: their valid values stay small."""
BOUNDS: dict[str, list[str]] = {
    "solve": ["--budget-nodes", "3000", "--budget-seconds", "0.3"],
    "puzzles generate": ["--max-games", "2", "--max-seconds", "1", "--budget-nodes", "3000"],
    "trace regenerate": ["--dir", "{pool}/traces"],
    "trace check": ["--dir", "{pool}/traces"],
    "archive query": ["--timeout", "0.3"],
    "perft": ["--depth", "1"],
}
"""Put before the random options: a line may override them with its own (small) values."""
DASK = ["junk", "", "inproc://x", "ucx://1.2.3.4:5", "tls://", "tcp://"]
"""``--dask`` values that fail without waiting for a network (``local`` is never drawn)."""


@dataclass
class Pool:
    """The files a line may name, in a temporary folder (rebuilt from a clean copy every
    few hundred lines, since outputs may overwrite them)."""

    where: Path
    files: dict[str, str] = field(default_factory=dict)

    def path(self, name: str) -> str:
        return self.files.get(name, str(self.where / name))


def _sample_positions() -> dict[str, list[str]]:
    sys.path.insert(0, str(ROOT / "fuzz"))
    import targets

    from kifu import games

    return {gid: list(targets.sample_states(gid)[0][:6]) for gid in games.ids()}


def _questions() -> list[str]:
    from kifu.puzzles import QUESTIONS

    out = []
    for name in QUESTIONS:
        out += [name, f"{name} 2", f"{name} 0", f"{name} x", f"{name} {'9' * 30}"]
    return [*out, "nope", "", "double-dummy 3 4"]


def make_pool(where: Path) -> Pool:
    """Build the pool of files under ``where`` (made empty first)."""
    from kifu.archive import Archive
    from kifu.cli.main import cli

    if where.exists():
        shutil.rmtree(where)
    where.mkdir(parents=True)
    pool = Pool(where)
    runner = CliRunner()
    record = where / "g.kifu"
    runner.invoke(cli, ["play", "tweak", "-n", "3", "-s", "4", "--silent", "-o", str(record)])
    many = where / "many.kifu"
    runner.invoke(cli, ["play", "graph-t", "-n", "3", "--games", "3", "--silent", "-o",
                        str(many)])
    jsonl = where / "g.jsonl"
    runner.invoke(cli, ["play", "towai", "-n", "3", "--json", "--silent", "-o", str(jsonl)])
    unfinished = where / "live.kifu"
    runner.invoke(cli, ["record", "tweak", "-n", "2", "-s", "3", "-o", str(unfinished)],
                  input="")
    puzzles = where / "p.kifu"
    puzzles.write_bytes((FIXTURES / "puzzles" / "tweak.kifu").read_bytes())
    cards = where / "c.cards"
    cards.write_bytes((ROOT / "kifu" / "games" / "alice" / "cards" / "tea-party.cards")
                      .read_bytes())
    db = where / "a.db"
    with Archive(str(db)) as a:
        a.import_paths([str(record), str(many), str(puzzles)])
    (where / "dir").mkdir()
    (where / "dir" / "x.kifu").write_bytes(record.read_bytes())
    (where / "traces").mkdir()
    os.mkfifo(where / "fifo")
    (where / "junk.bin").write_bytes(bytes(random.Random(1).randrange(256) for _ in range(3000)))
    (where / "empty").write_bytes(b"")
    (where / "ro.kifu").write_bytes(record.read_bytes())
    os.chmod(where / "ro.kifu", 0o444)
    (where / "loop").symlink_to(where / "loop")
    (where / "link.kifu").symlink_to(record)
    pool.files = {p.name: str(p) for p in where.iterdir()}
    pool.files["missing"] = str(where / "missing.kifu")
    pool.files["nodir"] = str(where / "no" / "such" / "x.kifu")
    return pool


class Lines:
    """A stream of random command lines for every command of the tree."""

    def __init__(self, pool: Pool, seed: int):
        from kifu.cli.main import all_commands

        self.pool = pool
        self.rng = random.Random(seed)
        self.commands: list[tuple[list[str], click.Command]] = []
        for name, cmd in all_commands().items():
            self._walk([name], cmd)
        self.positions = _sample_positions()
        self.questions = _questions()
        self.last = ""

    def _walk(self, path: list[str], cmd: click.Command) -> None:
        if isinstance(cmd, click.Group):
            for name, sub in sorted(cmd.commands.items()):
                self._walk([*path, name], sub)
            return
        self.commands.append((path, cmd))

    # --- values -----------------------------------------------------------------------------
    def file(self) -> str:
        r = self.rng
        if r.random() < 0.05:
            return "-"
        if r.random() < 0.03:
            return r.choice(["/dev/zero", "/proc/self/status"])  # read only
        return r.choice(list(self.pool.files.values()))

    def position(self) -> str:
        r = self.rng
        gid = r.choice(sorted(self.positions))
        line = r.choice(self.positions[gid])
        if r.random() < 0.3:
            toks = line.split(" ")
            i = r.randrange(len(toks))
            toks[i] = r.choice(HOSTILE[:20] + INTS[:8])
            line = " ".join(toks)
        return line

    def text(self) -> str:
        r = self.rng
        pick = r.random()
        if pick < 0.35:
            return self.file()
        if pick < 0.5:
            return r.choice(GAME_NAMES)
        if pick < 0.6:
            return self.position()
        if pick < 0.7:
            return r.choice(self.questions)
        return r.choice(HOSTILE)

    def value(self, param: click.Parameter, name: str) -> str:
        r = self.rng
        t = param.type
        if name in WORK_OPTIONS and r.random() < 0.85:
            return r.choice(WORK_OPTIONS[name])
        if name == "--dask":
            return r.choice(DASK)
        if name in ("--sql",):
            return r.choice(["select 1", "select * from records", "select zeroblob(100)",
                             "delete from records", "select 1; select 2", "pragma x=1",
                             "with recursive c(x) as (select 1 union all select x+1 from c)"
                             " select x from c", r.choice(HOSTILE)])
        if name in ("--set",):
            return r.choice(["rounds=1", "cap=5", "nope=1", "rounds=x", "=", "", "rounds",
                             f"rounds={'9' * 30}", "cards=x"])
        if name in ("--rules",):
            return r.choice(["tweak/1", "tweak/1;rounds=1", "graph-t/1", "towai/1;cap=5",
                             "alice/1", "lianxian/1", "tweak/9", "x", "", "tweak/1;;"])
        if name in ("--question", "-Q"):
            return r.choice(self.questions)
        if name in ("--position",):
            return self.position()
        if name in ("--seed", "-s"):
            return r.choice(["0", "7", "-3", "tuesday", "", "²", "+5", "9" * 41, "\x07",
                             "x" * 300])
        if name in ("--date", "--from", "--to"):
            return r.choice(["2026.11.23", "2026.??.??", "????.??.??", "2026.13.01", "x", ""])
        if isinstance(t, click.Choice):
            return r.choice([*t.choices, "nope", ""])
        if isinstance(t, (click.types.IntParamType, click.IntRange)):
            if name in WORK_OPTIONS:  # invalid values only, past the small valid ones
                return r.choice(["0", "-1", "x", "", str(2**64), "9" * 5000, "٣"])
            if name in ("--players", "-n", "--index", "--ply", "--player"):
                return r.choice([*SMALL_INTS, "3", "4", "6", "7"])
            return r.choice(INTS)
        if isinstance(t, (click.types.FloatParamType, click.FloatRange)):
            if name in WORK_OPTIONS:
                return r.choice(["-1", "nan", "x", "", "-inf"])
            return r.choice(FLOATS)
        return self.text()

    # --- names ------------------------------------------------------------------------------
    def mangle(self, name: str) -> str:
        r = self.rng
        kind = r.randrange(6)
        if kind == 0 and len(name) > 3:
            i = r.randrange(2, len(name))
            return name[:i] + name[i + 1 :]
        if kind == 1:
            return name.upper()
        if kind == 2:
            return "-" + name
        if kind == 3:
            return name + r.choice(["x", "-", "="])
        if kind == 4:
            return name.lstrip("-")
        return r.choice(["--help", "-h", "--version", "--", "-", "--no-such-option"])

    # --- lines ------------------------------------------------------------------------------
    def line(self) -> list[str]:
        r = self.rng
        path, cmd = r.choice(self.commands)
        self.last = " ".join(path)
        args: list[str] = list(path)
        if r.random() < 0.03:  # a mangled command name
            args[-1] = self.mangle(args[-1])
        key = " ".join(path)
        args += [a.replace("{pool}", str(self.pool.where)) for a in BOUNDS.get(key, [])]
        opts = [p for p in cmd.params if isinstance(p, click.Option)]
        chosen = r.sample(opts, k=min(len(opts), r.randrange(0, 5)))
        for p in chosen:
            name = r.choice(p.opts + p.secondary_opts)
            if r.random() < 0.06:
                name = self.mangle(name)
            if getattr(p, "is_flag", False) or getattr(p, "count", False):
                args.append(name)
                continue
            value = self.value(p, p.opts[-1] if p.opts[-1].startswith("--") else name)
            if r.random() < 0.1 and name.startswith("--"):
                args.append(f"{name}={value}")
            elif r.random() < 0.03:
                args.append(name)  # the value missing
            else:
                args += [name, value]
        for a in (p for p in cmd.params if isinstance(p, click.Argument)):
            if r.random() < 0.08:
                continue  # a missing argument
            n = a.nargs if a.nargs > 0 else r.randrange(0, 3)
            for _ in range(n):
                args.append(self._argument(a))
        if r.random() < 0.05:
            args.append(r.choice(HOSTILE))  # one argument too many
        r.shuffle(args[len(path):]) if r.random() < 0.05 else None
        return args

    def _argument(self, a: click.Argument) -> str:
        r = self.rng
        name = a.name or ""
        if isinstance(a.type, click.Choice):
            return r.choice([*a.type.choices, "nope"])
        if name in ("game_name", "names"):
            return r.choice(GAME_NAMES)
        if name == "position":
            return self.position() if r.random() < 0.8 else self.text()
        if name == "source":
            return r.choice([self.file(), r.choice(GAME_NAMES), "all"])
        return self.file() if r.random() < 0.85 else self.text()


# --- running ------------------------------------------------------------------------------------


class FifoPeer:
    """Two threads at the other end of the pool's FIFO: one writes a few bytes to each
    reader that opens it, one drains each writer, so a line naming the FIFO as an input or
    an output is not left waiting for a peer that never comes."""

    def __init__(self, fifo: Path):
        import threading

        self.fifo = fifo
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._feed, daemon=True),
                        threading.Thread(target=self._drain, daemon=True)]

    def __enter__(self) -> FifoPeer:
        for t in self.threads:
            t.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for flags in (os.O_RDONLY | os.O_NONBLOCK, os.O_WRONLY | os.O_NONBLOCK):
            with contextlib.suppress(OSError):  # wake a thread blocked in open()
                os.close(os.open(self.fifo, flags))
        for t in self.threads:
            t.join(timeout=5)

    def _feed(self) -> None:
        import time

        while not self.stop.is_set():
            with contextlib.suppress(OSError):
                fd = os.open(self.fifo, os.O_WRONLY)
                try:
                    os.write(fd, b"[Game \"tweak\"]\n\np0 R3\n")
                finally:
                    os.close(fd)
            time.sleep(0.01)

    def _drain(self) -> None:
        import time

        while not self.stop.is_set():
            with contextlib.suppress(OSError):
                fd = os.open(self.fifo, os.O_RDONLY)
                try:
                    while os.read(fd, 65536):
                        pass
                finally:
                    os.close(fd)
            time.sleep(0.01)


class LineTimeout(BaseException):
    """A line ran past its time limit (not an ``Exception``: nothing catches it)."""


@contextlib.contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise LineTimeout()

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@dataclass
class Outcome:
    args: list[str]
    verdict: str  # "ok", "slow", or what went wrong
    exit_code: int | None = None
    detail: str = ""


def verdict(result: Any) -> str:
    """``ok``, or why the result of a line is a failure."""
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        return f"escape: {type(exc).__name__}: {exc}"[:300]
    if result.exit_code not in (0, 1, 2):
        return f"exit code {result.exit_code}"
    out = result.output
    if "Traceback (most recent call last)" in out:
        if "LineTimeout" in out:  # the time limit struck inside a finaliser: slow
            return "slow"
        return "a traceback in the output"
    return "ok"


def run_line(args: list[str], seconds: float, env: dict[str, str]) -> Outcome:
    from kifu.cli.main import cli

    runner = CliRunner(env=env)
    try:
        with time_limit(seconds):
            result = runner.invoke(cli, args, input="")
    except LineTimeout:
        return Outcome(args, "slow")
    v = verdict(result)
    detail = ""
    if v != "ok":
        import traceback

        if result.exc_info is not None and result.exception is not None \
                and not isinstance(result.exception, SystemExit):
            detail = "".join(traceback.format_exception(*result.exc_info))[-3000:]
        else:
            detail = result.output[-3000:]
    return Outcome(args, v, result.exit_code, detail)


def campaign(count: int, seed: int, where: Path, *, seconds: float = 10.0,
             refresh: int = 300,
             on_outcome: Callable[[int, Outcome], None] | None = None) -> dict[str, Any]:
    """Run ``count`` random lines; the tally (by verdict and exit code) and the failures."""
    import kifu.notation.trace as trace_module

    where.mkdir(parents=True, exist_ok=True)
    cwd = where / "cwd" / "sub"  # a line's relative outputs (.., ../..) stay under where
    cwd.mkdir(parents=True, exist_ok=True)
    pool_dir = where / "pool"
    env = {"KIFU_DB": str(pool_dir / "a.db"), "COLUMNS": "80"}
    tally: dict[str, Any] = {"lines": 0, "ok": 0, "slow": 0, "failures": 0,
                             "exit": {0: 0, 1: 0, 2: 0}, "by_command": {}}
    failures: list[Outcome] = []
    safe_traces = where / "default-traces"
    safe_traces.mkdir(exist_ok=True)
    old_default = trace_module.default_directory
    trace_module.default_directory = lambda: safe_traces  # never the repository's fixtures
    import kifu.archive.browse as browse

    real_serve = browse.serve

    def serve(db: str, **kw: Any) -> None:  # every check, but no server left running
        real_serve(db, **kw, run=lambda args: None)

    browse.serve = serve
    old_cwd = os.getcwd()
    try:
        lines: Lines | None = None
        peer: FifoPeer | None = None
        for i in range(count):
            if i % refresh == 0:
                os.chdir(cwd)
                for p in pool_dir.glob("**/*") if pool_dir.exists() else ():
                    with contextlib.suppress(OSError):
                        if not p.is_symlink() and stat.S_ISREG(p.lstat().st_mode):
                            os.chmod(p, 0o644)
                if peer is not None:
                    peer.__exit__()
                pool = make_pool(pool_dir)
                peer = FifoPeer(pool_dir / "fifo").__enter__()
                if lines is None:
                    lines = Lines(pool, seed)
                lines.pool = pool
            assert lines is not None
            args = lines.line()
            out = run_line(args, seconds, env)
            os.chdir(cwd)
            tally["lines"] += 1
            tally["by_command"][lines.last] = tally["by_command"].get(lines.last, 0) + 1
            if out.verdict == "ok":
                tally["ok"] += 1
                tally["exit"][out.exit_code] = tally["exit"].get(out.exit_code, 0) + 1
            elif out.verdict == "slow":
                tally["slow"] += 1
            else:
                tally["failures"] += 1
                failures.append(out)
            if on_outcome is not None:
                on_outcome(i, out)
    finally:
        if peer is not None:
            peer.__exit__()
        trace_module.default_directory = old_default
        browse.serve = real_serve
        os.chdir(old_cwd)
    tally["failure_list"] = failures
    return tally
