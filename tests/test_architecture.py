"""The house rules of docs/architecture.md, checked: the layers only point down (import-linter,
the contract in pyproject.toml), no module is part of an import cycle, and ``kifu --help``
imports nothing heavy."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import pytest
from import_helpers import loaded_modules

ROOT = Path(__file__).resolve().parent.parent
LINT = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which(
    "lint-imports"
)
pytestmark = pytest.mark.skipif(LINT is None, reason="import-linter is not installed "
                                "(pip install -e '.[dev]' brings it)")


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([LINT, "--no-cache"], cwd=root, env=env, capture_output=True,
                          text=True, check=False)


def test_the_layers_only_point_down() -> None:
    r = _lint(ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "1 kept, 0 broken" in r.stdout


def test_an_upward_import_breaks_the_contract(tmp_path: Path) -> None:
    """The contract is not vacuous: a copy of the package with one import from the core up
    into the CLI fails it, naming that import."""
    shutil.copytree(ROOT / "kifu", tmp_path / "kifu",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    rng = tmp_path / "kifu" / "core" / "rng.py"
    rng.write_text(rng.read_text() + "\nimport kifu.cli.common  # a deliberate violation\n")
    r = _lint(tmp_path)
    assert r.returncode != 0
    assert "kifu.core.rng -> kifu.cli.common" in r.stdout


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    adj = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(adj):
        if root in index:
            continue
        work = [(root, iter(adj[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(adj[w])))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_the_cycle_finder_finds_a_cycle() -> None:
    class Fake:
        modules = frozenset("abcd")

        @staticmethod
        def find_modules_directly_imported_by(m: str) -> set[str]:
            return {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}[m]

    assert _cycles(Fake()) == [["a", "b", "c"]]  # type: ignore[arg-type]


# None left (alice and lianxian broke theirs up); this list only ever shrinks.
KNOWN_CYCLES = [
]


def test_no_import_cycles() -> None:
    """Lazy imports inside functions count too: a cycle hidden by one is still a cycle."""
    cycles = _cycles(grimp.build_graph("kifu"))
    assert [c for c in cycles if c not in KNOWN_CYCLES] == []


HEAVY = ("sqlite_utils", "sqlite3", "kifu.archive", "kifu.puzzles", "kifu.games.",
         "kifu.notation", "kifu.html", "kifu.lab", "concurrent.futures", "dask")




def test_help_loads_only_the_command_table() -> None:
    """``kifu --help`` (what every script pays first) loads click and the command table:
    no command module, no engine, not even msgspec."""
    loaded = loaded_modules(["--help"])
    assert sorted(m for m in loaded if m.startswith("kifu")) == ["kifu", "kifu.cli",
                                                                 "kifu.cli.main"]
    assert not [m for m in loaded if m.startswith(("msgspec", *HEAVY))]


def test_a_command_help_imports_nothing_heavy() -> None:
    heavy = sorted(m for m in loaded_modules(["games", "--help"]) if m.startswith(HEAVY))
    assert heavy == [], heavy


NEVER_AT_START = ("sqlite_utils", "sqlite3", "kifu.archive", "kifu.html", "kifu.lab",
                  "concurrent.futures", "multiprocessing", "dask", "distributed", "numpy",
                  "scipy", "hashlib", "json")
"""What none of ``kifu --help``, ``kifu games`` and a one-position ``kifu solve`` needs
(issue 26): each of these costs a script that calls kifu in a loop on every call."""

ONE_POSITION = ["solve", "tweak", "tweak/1 T0 r1d1 t7 0,0 R3/Y1 O5 - !T -/- !J/-",
                "-Q", "tweak-this-turn"]


def test_games_loads_the_engines_and_no_solver() -> None:
    """``kifu games`` describes every game (its engine), the searchers' parameters, and
    nothing else: no solver (TOWAI's ``out`` bot is listed by name), no notation, no
    archive, no worker pool, no JSON unless asked."""
    loaded = loaded_modules(["games"])
    heavy = [m for m in loaded if m.startswith((*NEVER_AT_START, "kifu.puzzles",
                                                "kifu.notation", "kifu.bots.towai"))]
    assert heavy == [], heavy
    assert {m.split(".")[2] for m in loaded if m.startswith("kifu.games.")} == {
        "alice", "graph_t", "lianxian", "towai", "tweak"}


def test_solve_one_position_loads_its_game_and_question_only() -> None:
    """A one-position ``kifu solve`` loads one engine and one question (with the shared
    search): not the other games, not the bots above the engines, no archive."""
    loaded = loaded_modules(ONE_POSITION)
    assert {m.split(".")[2] for m in loaded if m.startswith("kifu.games.")} == {"tweak"}
    assert sorted(m for m in loaded if m.startswith("kifu.puzzles.")) == [
        "kifu.puzzles.base", "kifu.puzzles.search", "kifu.puzzles.tweak"]
    heavy = [m for m in loaded if m.startswith((*NEVER_AT_START, "kifu.bots"))]
    assert heavy == [], heavy


def test_help_loads_nothing_a_command_needs() -> None:
    assert not [m for m in loaded_modules(["--help"]) if m.startswith(NEVER_AT_START)]
