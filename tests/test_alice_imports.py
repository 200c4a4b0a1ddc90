"""Issue 22: the Alice package has no import cycle, counting imports inside functions (a lazy
import is still a cycle: ``state`` used to import ``position`` inside ``to_line`` while
``position`` imported ``state`` at the top)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import kifu.games.alice as pkg

PKG = "kifu.games.alice"
HERE = Path(pkg.__file__).parent


def imports_of(path: Path) -> set[str]:
    """The package's modules ``path`` imports anywhere in its body (functions included)."""
    mods = {p.stem for p in HERE.glob("*.py")}
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            if name.startswith(PKG + "."):
                mod = name[len(PKG) + 1:].split(".")[0]
                if mod in mods:
                    out.add(mod)
    out.discard(path.stem)
    return out


def graph() -> dict[str, set[str]]:
    return {p.stem: imports_of(p) for p in HERE.glob("*.py") if p.stem != "__init__"}


def test_no_import_cycle() -> None:
    g = graph()
    try:
        order = list(TopologicalSorter(g).static_order())
    except CycleError as e:  # pragma: no cover - the failure message
        raise AssertionError(f"import cycle in {PKG}: {e.args[1]}") from None
    assert order.index("state") < order.index("position")
    assert "position" not in g["state"], "state must not import position (issue 22)"
    assert "state" not in g["text"] and "state" not in g["layout"]


def test_the_checker_sees_lazy_imports(tmp_path: Path) -> None:
    src = tmp_path / "x.py"
    src.write_text("def f():\n    from kifu.games.alice.position import render\n"
                   "    from kifu.games.alice import codec\n", encoding="utf-8")
    assert imports_of(src) == {"position", "codec"}
