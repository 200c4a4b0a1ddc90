"""What one seat sees: the position line and the text picture with hidden cards as ``?``.

Every game's ``State.view(seat)`` masks what ``seat`` cannot see. Some rulebooks make a
player's hand public (GRAPH-T's AI players play with open hands): a game whose bots carry
``open_hand = True`` and whose ``view`` takes ``open_seats`` shows those seats' hands to
everyone. Every game's ``render(seat=...)`` draws the same picture as the full view with the
hidden cards as ``?``; a game whose ``render`` takes no ``seat`` (a new game, before it has
one) gets a generic picture drawn from the view line alone, so the picture can never show
more than the line.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Collection, Sequence

from kifu.bots import bot_class
from kifu.core.errors import KifuError
from kifu.core.game import DEALER, Game, State, actor_name
from kifu.core.variant import short


@functools.cache
def _takes(cls: type, method: str, parameter: str) -> bool:
    try:
        return parameter in inspect.signature(getattr(cls, method)).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins
        return False


def open_seats(game: Game, players: Sequence[str]) -> frozenset[int]:
    """The seats whose hands are public by the rules: those played by an open-hand bot
    (named in the ``Players`` header by the bot's name)."""
    seats = set()
    for seat, name in enumerate(players):
        cls = bot_class(game, name.strip())
        if cls is not None and getattr(cls, "open_hand", False):
            seats.add(seat)
    return frozenset(seats)


def seat_view(state: State, seat: int | None, public: Collection[int] = ()) -> str:
    """The position line as ``seat`` sees it (the full line for ``None``)."""
    if seat is None:
        return state.to_line()
    if public and _takes(type(state), "view", "open_seats"):
        return state.view(seat, open_seats=frozenset(public))  # type: ignore[call-arg]
    return state.view(seat)


def parse_seat(text: str, players: Sequence[str], n: int) -> int:
    """A seat named by number (``1``), actor (``p1``) or player name (``Bob``)."""
    t = text.strip()
    seat: int | None = None
    if t.isascii() and t.isdecimal():
        seat = int(t) if len(t) <= 6 else n
    elif len(t) >= 2 and t[0] == "p" and t[1:].isascii() and t[1:].isdecimal():
        seat = int(t[1:]) if len(t) <= 7 else n
    else:
        matches = [i for i, name in enumerate(players) if name == t]
        if len(matches) == 1:
            seat = matches[0]
        elif len(matches) > 1:
            raise KifuError(f"--player {short(text)}: several seats have that name; give p0, p1...")
    if seat is None or not 0 <= seat < n:
        raise KifuError(f"--player {short(text)}: there is no such seat in a {n}-player game "
                        f"(give 0..{n - 1}, p0..p{n - 1} or a player's name)")
    return seat


def picture(state: State, seat: int | None = None, public: Collection[int] = ()) -> str:
    """The text picture of ``state`` for people, as ``seat`` sees it (``None``: all)."""
    if seat is None:
        return state.render()
    if _takes(type(state), "render", "seat"):
        if public and _takes(type(state), "render", "open_seats"):
            return state.render(seat=seat, open_seats=frozenset(public))  # type: ignore[call-arg]
        return state.render(seat=seat)  # type: ignore[call-arg]
    return picture_from_view(seat_view(state, seat, public), state.n, seat, state.to_move)


def picture_from_view(line: str, n: int, seat: int, to_move: int | None) -> str:
    """A generic picture of a view line: one zone a line, per-seat zones split by seat."""
    fields = line.split()
    mover = "nobody (the game is over)" if to_move is None else (
        "the dealer" if to_move == DEALER else actor_name(to_move))
    out = [f"{fields[0] if fields else '?'}, {n} players, as {actor_name(seat)} sees it "
           "(hidden cards are ?)", f"to move: {mover}"]
    for i, field in enumerate(fields[1:], 1):
        parts = field.split("/")
        if n > 1 and len(parts) == n:
            zone = "  ".join(f"{'*' if s == seat else ' '}p{s} {p}" for s, p in enumerate(parts))
            out.append(f"{i:>3}: {zone}")
        else:
            out.append(f"{i:>3}: {field}")
    return "\n".join(out)
