"""The kifu error hierarchy. Every error is a ``ValueError`` with a one-line message."""

from __future__ import annotations

from collections.abc import Callable, Iterable

MAX_MESSAGE = 2_000
"""The longest error message, in characters. Messages quote a short excerpt of bad input
(``kifu.core.variant.short``); a message that would still be longer is clipped here, so no
input is echoed whole. The fuzz targets treat a clipped message as a bug to fix at its
source (``CLIPPED`` in the message)."""
CLIPPED = "[message clipped"


def clip_message(text: str, limit: int = MAX_MESSAGE) -> str:
    """``text`` cut to ``limit`` characters, saying so (``[message clipped: N characters]``).

    >>> clip_message("x" * 5000, 60)
    'xxxxxxxxxxxxxxxxxxxxxx... [message clipped: 5000 characters]'
    """
    if len(text) <= limit:
        return text
    tail = f"... {CLIPPED}: {len(text)} characters]"
    return text[: max(0, limit - len(tail))] + tail


class KifuError(ValueError):
    """Base class of every error kifu raises on bad input. Its message is at most
    :data:`MAX_MESSAGE` characters (longer ones are clipped)."""

    def __init__(self, *args: object) -> None:
        if args and isinstance(args[0], str) and len(args[0]) > MAX_MESSAGE:
            args = (clip_message(args[0]), *args[1:])
        super().__init__(*args)


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
    for what, codes in (("extra", extra), ("missing", missing)):
        if codes:  # at most SHOWN of them: the list may come from a huge input
            more = f" and {len(codes) - SHOWN} more" if len(codes) > SHOWN else ""
            parts.append(f"{what} {text(sorted(codes)[:SHOWN])}{more}")
    return ", ".join(parts)


SHOWN = 40
"""How many cards :func:`multiset_diff` names of each kind."""
