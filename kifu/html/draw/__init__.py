"""Drawers: one SVG picture of a position per game, and a generic fallback.

A drawer module ``kifu.html.draw.<game>`` has ``draw(state, seat) -> str`` (one ``<svg>``;
``seat`` is ``None`` for the full position, or the seat whose view to draw: it must then
show only what that seat can see, exactly as ``state.view(seat)`` does; an optional
``names`` argument gets the players' names for the seats). It may also have
``public_move(state, actor, text, seat) -> str`` saying how an action played from ``state``
reads to ``seat`` (a deal is hidden, a lead is not); without it every dealer action is
hidden from a seat's view and every player action is shown. ``scores(state, seat)`` and
``SCORE_TITLE`` give the per-seat running score the viewer charts under the picture.

A game with no drawer module still works: :func:`generic` draws what every game has (the
seats and whose turn it is) and the page shows the game's own ``render()`` text beside it.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable, Collection, Sequence
from types import ModuleType

from kifu import games
from kifu.core.game import DEALER, State
from kifu.html.svg import MUTED, item, seat_badge_named, svg, text

_DRAWERS: dict[str, str] = {
    "tweak": "kifu.html.draw.tweak",
    "graph-t": "kifu.html.draw.graph_t",
    "towai": "kifu.html.draw.towai",
    "lianxian": "kifu.html.draw.lianxian",
    "alice": "kifu.html.draw.alice",
}
"""Game id -> drawer module (imported on first use)."""

HIDDEN_MOVE = "(hidden)"


def has_drawer(game_id: str) -> bool:
    return game_id in _DRAWERS


def _module(game_id: str) -> ModuleType | None:
    name = _DRAWERS.get(game_id)
    return importlib.import_module(name) if name else None


def drawer(game_id: str, public: Collection[int] = (),
           names: Sequence[str] = ()) -> Callable[[State, int | None], str]:
    """The ``draw(state, seat)`` function for a game (the generic one if it has none).
    ``public``: seats whose hands the rules make public (GRAPH-T's open-hand AI players), for
    a drawer whose ``draw`` takes a ``public`` argument; ``names``: the players' names (the
    ``Players`` header), shown on the seats by a drawer whose ``draw`` takes ``names``."""
    mod = _module(game_id)
    if mod is not None:
        params = inspect.signature(mod.draw).parameters
        extra: dict[str, object] = {}
        if public and "public" in params:
            extra["public"] = frozenset(public)
        if names and "names" in params:
            extra["names"] = tuple(names)
        return functools.partial(mod.draw, **extra) if extra else mod.draw
    title = games.get(game_id).title
    return lambda state, seat: generic(state, seat, title, names)


def score_line(game_id: str) -> tuple[str, Callable[[State, int | None], list[float]]] | None:
    """(what the numbers are, ``scores(state, seat)``) for a game whose drawer module has
    ``scores``: each seat's running score at a position, as ``seat`` may know it (None:
    the whole position). The viewer charts it over the game. None for other games."""
    mod = _module(game_id)
    if mod is None or not hasattr(mod, "scores"):
        return None
    return getattr(mod, "SCORE_TITLE", "score"), mod.scores


def public_move(game_id: str, state: State, actor: str, action_text: str,
                seat: int | None) -> str:
    """The text of an action as ``seat`` may see it (``seat=None``: as written)."""
    if seat is None:
        return action_text
    mod = _module(game_id)
    if mod is not None and hasattr(mod, "public_move"):
        return mod.public_move(state, actor, action_text, seat)
    return HIDDEN_MOVE if actor == "d" else action_text


def generic(state: State, seat: int | None, title: str = "",
            names: Sequence[str] = ()) -> str:
    """The seats in a row with the one to move marked (and the players' names), and the
    result once it is over."""
    n = state.n
    mover = state.to_move
    width = max(640, 20 + 110 * n)
    body = [text(16, 28, title, size=20, weight="bold")]
    x = 16.0
    for s in range(n):
        body += seat_badge_named(x, 44, s, names, seat == s, mover == s, chars=12)
        x += 110
    result = state.result()
    if result is not None:
        status = "game over: " + ", ".join(
            f"p{s} {result.scores[s]} (#{result.ranks[s]})" for s in range(n))
    elif mover == DEALER:
        status = "the dealer acts (chance)"
    else:
        status = f"p{mover} to move"
    note = state.turn_note()
    if note and result is None:
        status += f" {note}"
    body.append(item(status, text(16, 112, status, size=14, fill=MUTED)))
    return svg(width, 124, body, f"{title}: {status}")
