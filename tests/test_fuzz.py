"""The hypothesis fuzz layer: every parser and loader gets random bytes and mutations of valid
inputs (deleted, duplicated, swapped, altered and spliced tokens, truncation, invalid UTF-8,
BOMs, CRLF and CR-only line ends, tabs, NUL, huge numbers, very long lines). Every input
either parses or raises ``KifuError`` (located when it comes from a file); nothing else
escapes. The targets are those of the atheris harnesses (``fuzz/targets.py``); inputs that
once failed are replayed from ``tests/fuzz_corpus/<parser>/``."""

from __future__ import annotations

import contextlib
import random
import re
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "fuzz"))

import targets  # noqa: E402

from kifu.cli.main import cli  # noqa: E402
from kifu.core.errors import KifuError  # noqa: E402

EXAMPLES = 2000
"""Generated inputs per parser."""

TARGETS = targets.all_targets()
CORPUS = ROOT / "tests" / "fuzz_corpus"

HOSTILE = [
    "", " ", "\t", "\x00", "\r", "\r\n", "\n", "\ufeff", "\x0b", "\xa0", "\u3000", "\u2028",
    "{", "}", "[", "]", '"', "\\", "%", "²", "٣", "ſ", "p٠", "-", "/", ";", "=", ",", "!",
    "d", "p0", "p1", "p99", "p" + "9" * 30, "9" * 5000, "-1", "0", "+1", "1_0", "١",
    "x" * 20000, "R" * 3000, "\udcff", "\U0001f600",
]
"""Tokens that have broken parsers before, or might."""

_TOKEN = re.compile(rb"\s+|[^\s]+")


def _mutate(data: bytes, ops: list[tuple[int, int, int, int]], splice: bytes) -> bytes:
    toks = _TOKEN.findall(data) or [b""]
    other = _TOKEN.findall(splice) or [b""]
    for op, i, j, k in ops:
        i %= len(toks)
        j %= len(toks)
        if op == 0 and len(toks) > 1:  # delete
            del toks[i]
        elif op == 1:  # duplicate
            toks.insert(i, toks[i])
        elif op == 2:  # swap
            toks[i], toks[j] = toks[j], toks[i]
        elif op == 3:  # alter: a hostile token
            toks[i] = HOSTILE[k % len(HOSTILE)].encode("utf-8", "surrogatepass")
        elif op == 4:  # splice: a token of another input
            toks[i] = other[k % len(other)]
        elif op == 5:  # truncate
            out = b"".join(toks)
            toks = [out[: k % (len(out) + 1)]]
        elif op == 6:  # invalid UTF-8 byte
            toks.insert(i, bytes([0x80 + k % 128]))
        elif op == 7:  # CRLF, or CR-only line ends
            toks = [b"".join(toks).replace(b"\n", b"\r\n" if k % 2 else b"\r")]
        elif op == 8:  # BOM
            toks.insert(0, b"\xef\xbb\xbf")
        elif op == 9:  # a tab or a NUL
            toks.insert(i, b"\t" if k % 2 else b"\x00")
        elif op == 10:  # a huge number
            toks.insert(i, b"1" * (10 + k % 5000))
        else:  # a very long line
            toks.insert(i, b"R3" * (1000 + k % 400_000))
    return b"".join(toks)


def mutation(seeds: list[bytes], key: int) -> bytes:
    """The mutation of one of ``seeds`` that ``key`` names (1 to 4 operations)."""
    rng = random.Random(key)
    ops = [(rng.randrange(12), rng.randrange(10**6), rng.randrange(10**6),
            rng.randrange(10**6)) for _ in range(rng.randint(1, 4))]
    return _mutate(rng.choice(seeds), ops, rng.choice(seeds))


def inputs(name: str) -> st.SearchStrategy[bytes]:
    """Random bytes or mutations of the parser's valid seeds (a mutation is drawn as one
    integer: hypothesis's own drawing would cost more than most parsers)."""
    seeds = targets.seeds(name)
    mutated = st.integers(0, 2**64).map(lambda key: mutation(seeds, key))
    return st.one_of(st.binary(max_size=200), mutated, mutated, mutated)


def run(name: str, data: bytes) -> None:
    with contextlib.suppress(KifuError):  # the target checks where an error says it is
        TARGETS[name](data)


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_parser_survives_fuzzing(name: str) -> None:
    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(inputs(name))
    def check(data: bytes) -> None:
        run(name, data)

    check()


def test_every_file_reader_is_fuzzed() -> None:
    """Puzzle files (text and JSON), card sets, boards and traces have targets, besides
    records, rules, perft files and every game's positions and actions."""
    for name in ("puzzle", "puzzle_json", "alice_cards", "lianxian_board", "trace"):
        assert name in TARGETS and targets.seeds(name) != [b""]


def _corpus() -> list[Path]:
    return sorted(p for p in CORPUS.glob("*/*") if p.is_file())


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: f"{p.parent.name}/{p.name[:16]}")
def test_corpus_input_is_handled(path: Path) -> None:
    """Every input that once escaped a parser now parses or gives a KifuError."""
    name = path.parent.name
    if name not in TARGETS:
        pytest.skip(f"parser {name} is not available here")
    run(name, path.read_bytes())


def test_corpus_is_replayed() -> None:
    assert _corpus(), "tests/fuzz_corpus/ keeps the inputs that once failed"


# --- through the CLI ----------------------------------------------------------------------


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(inputs("record_text"))
def test_cli_never_shows_a_traceback(data: bytes) -> None:
    """validate, replay -f record and diff answer every file with a result or one line;
    what validate accepts, replay -f record and diff accept too."""
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        f = str(Path(tmp) / "f.kifu")
        Path(f).write_bytes(data)
        v = runner.invoke(cli, ["validate", f])
        r = runner.invoke(cli, ["replay", "-f", "record", f])
        d = runner.invoke(cli, ["diff", f, f])
    for res in (v, r, d):
        assert res.exit_code in (0, 1), res.output
        assert res.exception is None or isinstance(res.exception, SystemExit), repr(
            res.exception)
        assert "Traceback" not in res.output
    if v.exit_code == 0 and "0 of 0" not in v.output:
        assert r.exit_code == 0, r.output
        assert d.exit_code == 0 and d.output.strip() == "identical", d.output


def test_cli_stdin_and_file_read_the_same(tmp_path: Path) -> None:
    """CR-only, CRLF and BOM files give the same answer from a file and from stdin."""
    text = (ROOT / "fixtures" / "tweak" / "bomb-4p.kifu").read_bytes()
    runner = CliRunner()
    f = str(tmp_path / "f.kifu")
    for data in (text, text.replace(b"\n", b"\r\n"), text.replace(b"\n", b"\r"),
                 b"\xef\xbb\xbf" + text, b"\xff" + text):
        Path(f).write_bytes(data)
        a = runner.invoke(cli, ["validate", "-q", f])
        b = runner.invoke(cli, ["validate", "-q", "-"], input=data)
        assert a.exit_code == b.exit_code
        assert a.output.replace(f, "<stdin>") == b.output
