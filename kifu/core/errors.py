"""The kifu error hierarchy. Every error is a ``ValueError`` with a one-line message."""

from __future__ import annotations

from collections.abc import Callable, Iterable


class KifuError(ValueError):
    """Base class of every error kifu raises on bad input."""


class NotationError(KifuError):
    """Text that does not follow the notation grammar, with its location."""

    def __init__(self, message: str, *, line: int = 0, col: int = 0, path: str | None = None):
        self.message = message
        self.line = line
        self.col = col
        self.path = path
        super().__init__(self.located())

    def located(self) -> str:
        where = self.path or "<text>"
        if self.line:
            where += f":{self.line}:{self.col}"
        return f"{where}: {self.message}"

    def at(self, *, path: str | None = None, line_offset: int = 0) -> NotationError:
        """The same error relocated (a file name, or lines counted from an outer text)."""
        return NotationError(
            self.message,
            line=self.line + line_offset if self.line else 0,
            col=self.col,
            path=path if path is not None else self.path,
        )


class IllegalActionError(KifuError):
    """An action that the rules do not allow in this state.

    ``rule`` names the rule broken (e.g. ``"tweak 5: capture sum"``); ``legal`` lists the
    legal actions as text, when the caller asked for them.
    """

    def __init__(self, message: str, *, rule: str = "", legal: tuple[str, ...] = ()):
        self.message = message
        self.rule = rule
        self.legal = tuple(legal)
        text = message
        if rule:
            text += f" [rule {rule}]"
        super().__init__(text)


class AmbiguousActionError(IllegalActionError):
    """Action text that matches more than one legal action."""


class VariantError(KifuError):
    """An unknown game, rules version or variant field."""


def multiset_diff(given: Iterable[int], wanted: Iterable[int],
                  text: Callable[[list[int]], str]) -> str:
    """What ``given`` has too many of and lacks against ``wanted`` (multisets of card codes),
    for a message: ``"extra R1, missing Y2"``; ``text`` writes a sorted list of codes.

    >>> multiset_diff([1, 1, 2], [1, 3], lambda cs: ",".join(map(str, cs)))
    'extra 1,2, missing 3'
    """
    extra = list(given)
    missing = []
    for c in wanted:
        if c in extra:
            extra.remove(c)
        else:
            missing.append(c)
    parts = []
    if extra:
        parts.append(f"extra {text(sorted(extra))}")
    if missing:
        parts.append(f"missing {text(sorted(missing))}")
    return ", ".join(parts)
