"""Analysis annotations inside comments: ``[%value Q: V -> P]`` and ``[%best Q: A; B]``.

A move's comment may hold structured tokens, as python-chess's ``[%eval 2.35]``: ``kifu
analyze`` writes the value of the position and of the action played for each question it
judged (``[%value tweak-this-turn: forced -> no]``) and, when the action played was not
among the best, the best first actions (``[%best tweak-this-turn: p1 !J+]``). Other text of
the comment is kept around them. The grammar is in ``docs/notation.md`` ("Marks and
values"); the mark itself (``??``) is a field of the move (:class:`~kifu.notation.record.Move`).

>>> c = with_tokens("nice", [value_token("lianxian-best", "points=9", "points=4")])
>>> c
'[%value lianxian-best: points=9 -> points=4] nice'
>>> parse_values(c)
[Value(question='lianxian-best', value='points=9', played='points=4')]
>>> without_tokens(c)
'nice'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import msgspec

BEST_SHOWN = 3
"""How many best first actions a ``[%best ...]`` token names before ``(+N more)``."""

_SPEC = r"[a-z][a-z0-9-]*(?: [0-9]+)?"
_VALUE = re.compile(r"\[%value (" + _SPEC + r"): ([^\]]*?) -> ([^\]]*?)\]")
_BEST = re.compile(r"\[%best (" + _SPEC + r"): ([^\]]*?)(?: \(\+([0-9]+) more\))?\]")
_ANY = re.compile(r"\[%(?:value|best) [^\]]*\]")


class Value(msgspec.Struct, frozen=True):
    """One ``[%value ...]`` token: the question, the position's value, the played value."""

    question: str
    value: str
    played: str


def value_token(question: str, value: str, played: str) -> str:
    """``[%value Q: V -> P]``."""
    return f"[%value {question}: {value} -> {played}]"


def best_token(question: str, actions: list[str], total: int | None = None) -> str:
    """``[%best Q: A; B; C (+N more)]``: the first :data:`BEST_SHOWN` of ``actions``, and
    how many more of ``total`` (default: ``len(actions)``) there are."""
    shown = "; ".join(actions[:BEST_SHOWN])
    more = (len(actions) if total is None else total) - min(len(actions), BEST_SHOWN)
    return f"[%best {question}: {shown}" + (f" (+{more} more)]" if more > 0 else "]")


def parse_values(comment: str | None) -> list[Value]:
    """The ``[%value ...]`` tokens of a comment, in order."""
    if not comment or "[%value " not in comment:
        return []
    return [Value(q, " ".join(v.split()), " ".join(p.split()))
            for q, v, p in _VALUE.findall(comment)]


def parse_best(comment: str | None) -> dict[str, tuple[list[str], int]]:
    """Question -> (the best actions named, how many more there are) of a comment."""
    if not comment or "[%best " not in comment:
        return {}
    return {q: ([a.strip() for a in acts.split(";") if a.strip()], int(more or 0))
            for q, acts, more in _BEST.findall(comment)}


def without_tokens(comment: str | None) -> str | None:
    """The comment with every ``[%value ...]`` and ``[%best ...]`` token removed (None if
    nothing else is left)."""
    if not comment:
        return None
    rest = " ".join(_ANY.sub(" ", comment).split())
    return rest or None


def with_tokens(comment: str | None, tokens: Iterable[str]) -> str | None:
    """``comment`` with its old tokens replaced by ``tokens`` (first, then the rest of the
    comment's text)."""
    parts = [*tokens]
    rest = without_tokens(comment)
    if rest:
        parts.append(rest)
    return " ".join(parts) or None


__all__ = ["BEST_SHOWN", "Value", "best_token", "parse_best", "parse_values", "value_token",
           "with_tokens", "without_tokens"]
