"""What every puzzle question shares: the :class:`Question` contract, the :class:`Solution`
it returns, the per-first-action :class:`ActionValue`, and the search :class:`Budget`.

A question is a small object with a name (``tweak-within``), the game it is asked of, an
optional integer argument (``tweak-within 2``), and three methods: :meth:`Question.applies`
(can it be asked of this position?), :meth:`Question.solve` (run an exhaustive search from
:mod:`kifu.puzzles.search`) and :meth:`Question.parse_answer` (the canonical form of an
answer text). The puzzle notation (:mod:`kifu.notation.puzzle`) and ``kifu solve`` use
nothing else, so a game adds questions by writing one module (``kifu/puzzles/<game>.py``)
and one line in the registry (``kifu/puzzles/__init__.py``).
"""

from __future__ import annotations

import os
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import msgspec

from kifu.core.errors import NotationError
from kifu.core.game import Action, Game, State, actor_name
from kifu.core.variant import short

UNKNOWN = "unknown"
"""The answer of a search that ran out of its :class:`Budget`."""


DEFAULT_MEMORY = 1 << 30
"""The memory a search may take unless told otherwise (1 GiB): its tables are sized to
stay well inside it, on any machine."""


class Budget(msgspec.Struct, frozen=True):
    """How much a search may do: at most ``nodes`` positions visited, ``seconds`` of wall
    time (``None``: no limit) and ``memory`` bytes more than the process held when it
    started (default :data:`DEFAULT_MEMORY`; ``None``: no ceiling).

    The memory ceiling bounds the search's tables: each transposition table or memo gets a
    size cap from it and a replacement rule, so a long search keeps running in bounded
    memory (it revisits what it had to forget). As a last resort the search also watches
    the process's resident memory and stops past the ceiling. A search past its budget
    stops at once and reports ``complete=False`` with the reason (:data:`REASONS`); the
    question's answer is then ``unknown``."""

    nodes: int | None = None
    seconds: float | None = None
    memory: int | None = DEFAULT_MEMORY


UNLIMITED = Budget()
"""No limit on nodes or time; the default memory ceiling."""

REASONS = {
    "nodes": "the node budget ran out",
    "seconds": "the time budget ran out",
    "memory": "the memory ceiling was reached",
}
"""Why a search stopped early: :attr:`OutOfBudget.reason` -> the text ``kifu solve``
shows."""


class OutOfBudget(Exception):
    """A search spent its :class:`Budget`; ``reason`` is a key of :data:`REASONS`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


try:
    _PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
    _PAGE_SIZE = 4096
_STATM: list[int] = []
"""``[pid, fd]``: ``/proc/self/statm`` kept open by the process ``pid`` (a forked child
inherits the descriptor, which names its parent's entry, so it opens its own)."""


def resident_bytes() -> int | None:
    """The process's resident memory now (Linux: ``/proc/self/statm``), else its peak
    (``getrusage``), else ``None``.

    Every search reads it when it starts (and every few thousand nodes), so the file stays
    open and each read is one ``pread``: 0.9 against 6.3 microseconds for an open, a read
    and a close, about 8% of a warm ``tweak-this-turn`` on the 12-card table (12 searches)."""
    try:
        pid = os.getpid()
        if not _STATM or _STATM[0] != pid:
            fd = os.open("/proc/self/statm", os.O_RDONLY | os.O_CLOEXEC)
            if _STATM:
                os.close(_STATM[1])  # the parent's, inherited
            _STATM[:] = [pid, fd]
        return int(os.pread(_STATM[1], 128, 0).split()[1]) * _PAGE_SIZE
    except (OSError, ValueError, IndexError, AttributeError):
        pass
    try:  # pragma: no cover - not Linux
        import resource
        import sys

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024
    except (ImportError, OSError):  # pragma: no cover
        return None


class Meter:
    """What one search has spent of its :class:`Budget`, shared by every search in
    :mod:`kifu.puzzles` (the generic ones of :mod:`kifu.puzzles.search` and the GRAPH-T
    double dummy): the search counts its nodes against :attr:`max_nodes` itself (the hot
    path) and calls :meth:`check` every few thousand nodes for the clock and the memory;
    :meth:`entries` sizes its tables."""

    def __init__(self, budget: Budget | None = None) -> None:
        budget = budget or UNLIMITED
        self.budget = budget
        self.max_nodes = budget.nodes
        self.deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        self.memory = budget.memory
        self.rss0 = resident_bytes() if budget.memory is not None else None
        self.grown: int | None = None
        """How much the process had grown at the last :meth:`check` (``None``: unknown)."""
        self.cap = 1 << 62
        self._share: float | None = None

    def check(self) -> None:
        """Raise :class:`OutOfBudget` if the time is up or the process has grown past
        the memory ceiling since the search started."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfBudget("seconds")
        if self.rss0 is not None:
            now = resident_bytes()
            if now is not None:
                self.grown = now - self.rss0
                if self.grown > self.memory:  # type: ignore[operator]
                    raise OutOfBudget("memory")

    def entries(self, entry_bytes: int, share: float = 0.5) -> int:
        """The cap of a search's tables: how many entries of about ``entry_bytes`` each fit
        in ``share`` of the memory ceiling (at least 64; no cap without a ceiling). It is
        also kept (:attr:`cap`) for :meth:`full`."""
        if self.memory is not None:
            self.cap = max(64, int(self.memory * share) // entry_bytes)
            self._share = self.memory * share
        return self.cap

    def full(self, entries: int) -> bool:
        """Whether tables holding ``entries`` should drop some: past the cap, or past
        their share of the ceiling as the process's growth measures it (the entries may
        cost more than estimated); the first time that happens the cap becomes what they
        hold, so that they do not creep up again (freed memory is reused, not returned,
        so the growth does not fall back)."""
        if entries > self.cap:
            return True
        if self._share is not None and self.grown is not None and self.grown > self._share:
            self._share = None
            self.cap = max(64, entries)
            return True
        return False


class ActionValue(msgspec.Struct, frozen=True):
    """The value of one legal first action, as DDS gives a score per card: ``action`` is
    the text as in records (``"p0 R3xO1Y2"``), ``value`` the value of the position after it,
    written in the question's answer form (``"possible p=1/2"``)."""

    action: str
    value: str


class Solution(msgspec.Struct):
    """The result of :meth:`Question.solve`.

    - ``answer``: the canonical answer text, ``unknown`` when the budget ran out;
    - ``values``: the value of every legal first action, in ``legal_actions()`` order (the
      ones solved before the budget ran out, if it did);
    - ``line``: one principal line from the position, each item ``"actor text"``;
    - ``nodes``: positions visited; ``seconds``: wall time;
    - ``complete``: ``False`` if the budget ran out;
    - ``winning``: how many first actions reach the answer's value (1 = a unique solution);
    - ``reason``: when the budget ran out, which part (a key of :data:`REASONS`).
    """

    answer: str
    values: list[ActionValue]
    line: list[str]
    nodes: int
    seconds: float
    complete: bool
    winning: int
    reason: str | None = None

    @property
    def failing(self) -> int:
        """How many first actions do not reach the answer's value."""
        return len(self.values) - self.winning

    def difficulty(self) -> str:
        """The ``Difficulty`` header: ``nodes=N line=L failing=F``."""
        return f"nodes={self.nodes} line={len(self.line)} failing={self.failing}"


class Question(ABC):
    """A question that can be asked of a position of one game.

    Subclasses set the class attributes and implement :meth:`applies`, :meth:`solve` and
    :meth:`parse_answer`. An instance is one question with its argument, e.g.
    ``Within(2)`` for ``tweak-within 2``; its :attr:`spec` is that text.
    """

    name: ClassVar[str]
    """The question's name, as in ``--question`` and the ``Question`` header."""
    game: ClassVar[str]
    """The id of the game it is asked of."""
    summary: ClassVar[str]
    """One line for ``--help`` and ``docs/puzzles.md``."""
    arg: ClassVar[str | None] = None
    """The name of its integer argument (``"N"``), or ``None`` if it takes none."""
    arg_range: ClassVar[tuple[int, int]] = (1, 99)
    """The allowed values of the argument, inclusive."""

    def __init__(self, arg: int | None = None) -> None:
        if self.arg is None:
            if arg is not None:
                raise NotationError(f"question {self.name} takes no argument")
        else:
            if arg is None:
                raise NotationError(f"question {self.name} needs an argument: "
                                    f"{self.name} {self.arg}")
            lo, hi = self.arg_range
            if not lo <= arg <= hi:
                raise NotationError(
                    f"question {self.name}: {self.arg} must be {lo}..{hi}, not {arg}"
                )
        self.value = arg

    @property
    def spec(self) -> str:
        """The canonical text of the question (``tweak-within 2``)."""
        return self.name if self.value is None else f"{self.name} {self.value}"

    def __repr__(self) -> str:
        return f"<Question {self.spec}>"

    @abstractmethod
    def applies(self, state: State) -> str | None:
        """``None`` if the question can be asked of ``state``, else why not (one line,
        e.g. ``"the deck is not empty"``)."""

    @abstractmethod
    def solve(self, state: State, budget: Budget = UNLIMITED) -> Solution:
        """Answer the question for ``state`` (which is left as it was)."""

    def candidate(self, state: State) -> bool:
        """For ``kifu puzzles generate``: whether to try ``state`` (where the question
        applies) as a puzzle; a question narrows it to positions small enough to solve
        quickly. Default: every one."""
        return True

    def interesting(self, solution: Solution) -> bool:
        """For ``kifu puzzles generate``: whether a solved position (with one winning first
        action) makes a puzzle. Default: always; "no" answers are usually dull."""
        return True

    @abstractmethod
    def parse_answer(self, text: str) -> str:
        """The canonical form of an answer text; raise :class:`NotationError` (col relative
        to ``text``) if it is not an answer of this question. ``unknown`` is never a valid
        stated answer."""

    def read_answer(self, text: str, expected: str, words: tuple[str, ...] = (),
                    form: re.Pattern[str] | None = None) -> tuple[str, re.Match[str] | None]:
        """For :meth:`parse_answer`: ``text`` with its white space folded, if it is one of
        ``words`` (the match is then ``None``) or matches ``form``; anything else is a bad
        answer, told with what was ``expected``."""
        t = " ".join(text.split())
        if t in words:
            return t, None
        m = form.match(t) if form is not None else None
        if m is None:
            raise NotationError(f"bad answer {short(text)} to {self.name}: expected {expected}",
                                line=1, col=1)
        return t, m


class YesNoQuestion(Question):
    """A question answered ``yes`` or ``no``."""

    def parse_answer(self, text: str) -> str:
        return self.read_answer(text, "yes or no", ("yes", "no"))[0]


def yes_no(ok: bool) -> str:
    """``"yes"`` or ``"no"``."""
    return "yes" if ok else "no"


def unsolved(nodes: int, seconds: float, reason: str | None,
             values: list[ActionValue] | None = None) -> Solution:
    """The :class:`Solution` of a search that ran out of its budget (answer ``unknown``),
    with the ``values`` of the first actions solved before it did, if any."""
    return Solution(UNKNOWN, values or [], [], nodes, seconds, False, 0, reason)


def solved(game: Game, state: State, answer: str, values: Iterable[tuple[Action, str]],
           line: Iterable[Action], nodes: int, seconds: float,
           text: Callable[[Action], str] | None = None) -> Solution:
    """The :class:`Solution` of a complete search from ``state``: ``values`` pairs each legal
    first action with its value text (those equal to ``answer`` are the winning ones), and
    ``line`` is the principal line. ``text`` writes an action from ``state`` (default: the
    game's ``format_action``; a question may pass a memoised one)."""
    actor = f"{actor_name(state.to_move)} "  # type: ignore[arg-type]
    write: Any = text or (lambda a: game.format_action(state, a))
    vals = [ActionValue(actor + write(a), v) for a, v in values]
    winning = sum(1 for v in vals if v.value == answer)
    return Solution(answer, vals, line_texts(game, state, line), nodes, seconds, True, winning)


def line_texts(game: Game, state: State, actions: Iterable[Action]) -> list[str]:
    """The texts (``"actor text"``) of ``actions`` played in turn from ``state`` (which is
    left as it was)."""
    out = []
    pushed = 0
    try:
        for a in actions:
            out.append(f"{actor_name(state.to_move)} {game.format_action(state, a)}")  # type: ignore[arg-type]
            state.push(a)
            pushed += 1
    finally:
        for _ in range(pushed):
            state.pop()
    return out


def action_text(game: Game, state: State, action: Action) -> str:
    """``"actor text"`` of one action from ``state``."""
    return f"{actor_name(state.to_move)} {game.format_action(state, action)}"  # type: ignore[arg-type]
