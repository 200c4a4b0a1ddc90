"""Puzzles: questions asked of a position, answered exactly by exhaustive search.

The registry maps each question's name to where it lives; a module is imported on first
use (like :mod:`kifu.games`), so ``kifu solve`` loads only what a file asks.

>>> get_question("tweak-within 2").spec
'tweak-within 2'
>>> questions_for("graph-t")
['double-dummy']

A game adds its questions with one line each in :data:`QUESTIONS` and a module
``kifu/puzzles/<game>.py`` (see ``docs/puzzles.md``).
"""

from __future__ import annotations

import importlib
import re

from kifu.core.errors import NotationError
from kifu.core.variant import short
from kifu.puzzles.base import UNKNOWN, ActionValue, Budget, Question, Solution

QUESTIONS: dict[str, tuple[str, str]] = {
    "tweak-this-turn": ("kifu.puzzles.tweak", "ThisTurn"),
    "tweak-within": ("kifu.puzzles.tweak", "Within"),
    "best-points": ("kifu.puzzles.tweak", "BestPoints"),
    "double-dummy": ("kifu.puzzles.graph_t", "DoubleDummy"),
    "towai-out-this-turn": ("kifu.puzzles.towai", "OutThisTurn"),
    "towai-win-round": ("kifu.puzzles.towai", "WinRound"),
    "alice-bard-wins": ("kifu.puzzles.alice", "BardWins"),
    "lianxian-best": ("kifu.puzzles.lianxian", "Best"),
    "lianxian-finish": ("kifu.puzzles.lianxian", "Finish"),
    "lianxian-least-bonus": ("kifu.puzzles.lianxian", "LeastBonus"),
}
"""Question name -> (module, class). Names are global: a new game's question takes a name
of its own (``towai-out-this-turn``)."""

_LOADED: dict[str, type[Question]] = {}
_SPEC = re.compile(r"([a-z][a-z0-9-]*)(?: ([0-9]+))?\Z")


def question_class(name: str) -> type[Question]:
    """The class of a question by name (raises :class:`NotationError` if unknown)."""
    cls = _LOADED.get(name)
    if cls is None:
        where = QUESTIONS.get(name)
        if where is None:
            raise NotationError(
                f"unknown question {short(name)} (known: {', '.join(sorted(QUESTIONS))})"
            )
        module, attr = where
        cls = _LOADED[name] = getattr(importlib.import_module(module), attr)
    return cls


def get_question(spec: str) -> Question:
    """The question named by ``spec``: a name and an optional integer argument separated by
    one space (``"tweak-within 3"``). Raises :class:`NotationError` (col relative to
    ``spec``) for an unknown name, a missing or unexpected argument, or bad syntax."""
    m = _SPEC.match(spec)
    if not m or not spec.isascii():
        raise NotationError(
            f"bad question {short(spec)}: expected a name and an optional number, e.g. "
            "'tweak-within 2'", line=1, col=1,
        )
    name, arg = m.group(1), m.group(2)
    if arg is not None and ((len(arg) > 1 and arg[0] == "0") or len(arg) > 6):
        raise NotationError(f"bad question argument {short(arg)}", line=1, col=len(name) + 2)
    cls = question_class(name)
    return cls(None if arg is None else int(arg))


def questions_for(game_id: str) -> list[str]:
    """The names of the questions that can be asked of ``game_id`` (in registry order)."""
    from kifu.games import canonical_id

    gid = canonical_id(game_id)
    return [name for name in QUESTIONS if question_class(name).game == gid]


__all__ = [
    "QUESTIONS",
    "UNKNOWN",
    "ActionValue",
    "Budget",
    "Question",
    "Solution",
    "get_question",
    "question_class",
    "questions_for",
]
