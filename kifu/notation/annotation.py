"""Analysis annotations inside comments: ``[%value Q: V -> P]``, ``[%best Q: A; B]``,
``[%shares S0 S1 ...]`` and ``[%markby Q]``.

A move's comment may hold structured tokens, as python-chess's ``[%eval 2.35]``: ``kifu
analyze`` writes the value of the position and of the action played for each question it
judged (``[%value tweak-this-turn: forced -> no]``; the judgement from the mover's
information is the question ``value``, in share units: ``[%value value: 0.612 -> 0.480]``)
and, when the action played was not among the best, the best first actions (``[%best
tweak-this-turn: p1 !J+]``; for ``value`` each with its value: ``[%best value: p1 R3
(0.612); p1 G4 (0.598)]``); every seat's expected share as the mover saw it (``[%shares
0.612 0.401 0.487]``, in seat order) and which judgement the move's mark comes from
(``[%markby value]``). Other text of the comment is kept around them. The grammar is in
``docs/notation.md`` ("Marks and values"); the mark itself (``??``) is a field of the move
(:class:`~kifu.notation.record.Move`).

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
_SHARES = re.compile(r"\[%shares ((?:-?[0-9.]+ ?)+)\]")
_MARKBY = re.compile(r"\[%markby (" + _SPEC + r")\]")
_ANY = re.compile(r"\[%(?:value|best|shares|markby) [^\]]*\]")
_VALUED = re.compile(r"(.*) \((-?[0-9.]+)\)\Z")


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


def shares_token(shares: list[str]) -> str:
    """``[%shares S0 S1 ...]``: every seat's expected share, in seat order."""
    return "[%shares " + " ".join(shares) + "]"


def markby_token(question: str) -> str:
    """``[%markby Q]``: the judgement the move's mark comes from."""
    return f"[%markby {question}]"


def parse_shares(comment: str | None) -> list[float] | None:
    """The ``[%shares ...]`` of a comment (None if it has none)."""
    if not comment or "[%shares " not in comment:
        return None
    m = _SHARES.search(comment)
    return [float(x) for x in m.group(1).split()] if m else None


def parse_markby(comment: str | None) -> str | None:
    """The ``[%markby Q]`` of a comment (None if it has none)."""
    if not comment or "[%markby " not in comment:
        return None
    m = _MARKBY.search(comment)
    return m.group(1) if m else None


def split_valued(item: str) -> tuple[str, float | None]:
    """An item of ``[%best value: ...]`` split into the action and its value
    (``p1 R3 (0.612)`` -> ``("p1 R3", 0.612)``; an item without a value: ``(item, None)``)."""
    m = _VALUED.match(item)
    return (m.group(1), float(m.group(2))) if m else (item, None)


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
    """The comment with every ``[%value ...]``, ``[%best ...]``, ``[%shares ...]`` and
    ``[%markby ...]`` token removed (None if nothing else is left)."""
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


__all__ = ["BEST_SHOWN", "Value", "best_token", "markby_token", "parse_best", "parse_markby",
           "parse_shares", "parse_values", "shares_token", "split_valued", "value_token",
           "with_tokens", "without_tokens"]
