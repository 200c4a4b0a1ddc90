"""The run of one command: what happens to its outputs when it ends, fails or is stopped.

Every ``kifu`` command runs in a :func:`command_scope` (``kifu.cli.common.handle_errors``):
its outputs (``kifu.notation.files.Outputs``) join the scope and are replaced together when
the command returns, and are left as they were when it raises. In the main process SIGTERM
and SIGHUP raise :class:`Terminated` (a ``KeyboardInterrupt``, as Ctrl-C raises one), so a
stopped command unwinds, runs its ``finally`` blocks and changes no output. This module is
small on purpose: ``kifu games`` runs in a scope too and must not load the notation.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised in the command's process as Ctrl-C raises
    ``KeyboardInterrupt``; ``signum`` is the signal."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


STOP_SIGNALS: tuple[int, ...] = tuple(getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP")
                                      if hasattr(signal, n))
"""The signals that stop a command; none of them leaves an output half replaced."""


class Scope:
    """One command's run: ``data`` for the parts that join it (the outputs), and what to do
    at its end (``commit`` when it returns, ``discard`` always, after)."""

    def __init__(self) -> None:
        self.data: dict[str, Any] = {}
        self._commits: list[Callable[[], Any]] = []
        self._discards: list[Callable[[], Any]] = []

    def at_end(self, commit: Callable[[], Any], discard: Callable[[], Any]) -> None:
        self._commits.append(commit)
        self._discards.append(discard)


_SCOPE: contextvars.ContextVar[Scope | None] = contextvars.ContextVar("kifu_scope",
                                                                      default=None)


def current() -> Scope | None:
    """The running command's scope (None outside a command: a library call)."""
    return _SCOPE.get()


@contextlib.contextmanager
def command_scope() -> Iterator[Scope]:
    """Run one command (see the module); nested calls share the outer scope."""
    scope = _SCOPE.get()
    if scope is not None:
        yield scope
        return
    scope = Scope()
    token = _SCOPE.set(scope)
    try:
        with _raise_on_stop():
            yield scope
            for commit in scope._commits:
                commit()
    finally:
        for discard in scope._discards:
            with contextlib.suppress(Exception):
                discard()
        _SCOPE.reset(token)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def _raise_on_stop() -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Terminated` in the block (where they still have
    their default action: ``nohup``'s ignored SIGHUP stays ignored). A forked worker that
    inherited the handler dies of the signal as it would have."""
    if not _main_thread():
        yield
        return
    pid = os.getpid()

    def stop(signum: int, frame: Any) -> None:
        if os.getpid() != pid:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise Terminated(signum)

    old: dict[int, Any] = {}
    for s in STOP_SIGNALS:
        if s == signal.SIGINT:
            continue
        with contextlib.suppress(ValueError, OSError):
            if signal.getsignal(s) == signal.SIG_DFL:
                old[s] = signal.signal(s, stop)
    try:
        yield
    finally:
        for s, handler in old.items():
            with contextlib.suppress(ValueError, OSError):
                signal.signal(s, handler)


@contextlib.contextmanager
def deferred_signals() -> Iterator[None]:
    """Hold SIGINT, SIGTERM and SIGHUP back for the block (the renames of a commit), then
    deliver them to the handlers they had. Only the main thread can do this; elsewhere the
    block runs as it is."""
    if not _main_thread():
        yield
        return
    got: list[int] = []
    old: dict[int, Any] = {}
    for s in STOP_SIGNALS:
        with contextlib.suppress(ValueError, OSError):
            old[s] = signal.signal(s, lambda signum, frame: got.append(signum))
    try:
        yield
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
        for s in dict.fromkeys(got):
            signal.raise_signal(s)


def reader_gone() -> None:
    """After a ``BrokenPipeError`` on stdout (the reader went away, as ``| head`` does):
    point stdout at the null device so that Python's flush at exit raises no second error.
    The caller then stops quietly with its exit code."""
    with contextlib.suppress(Exception):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())

