"""The game registry: ``kifu.games.get("tweak")``.

Each game lives in its own package and is imported on first use, so the CLI starts fast.
"""

from __future__ import annotations

import importlib

from kifu.core.errors import VariantError
from kifu.core.game import Game

# id -> (module, a Game instance or class); aliases map to ids.
_REGISTRY: dict[str, tuple[str, str]] = {
    "tweak": ("kifu.games.tweak", "GAME"),
    "graph-t": ("kifu.games.graph_t", "GAME"),
    "towai": ("kifu.games.towai", "GAME"),
    "alice": ("kifu.games.alice", "GAME"),
    "lianxian": ("kifu.games.lianxian", "GAME"),
}
_ALIASES: dict[str, str] = {
    "graph_t": "graph-t", "grapht": "graph-t", "unoalice": "alice", "setup": "lianxian",
}
_LOADED: dict[str, Game] = {}

# Games of the project that are not implemented yet (named in errors, not loadable).
PLANNED: tuple[str, ...] = ()


def ids() -> list[str]:
    """The ids of every game this kifu implements."""
    return list(_REGISTRY)


def canonical_id(name: str) -> str:
    key = name.strip(" \t").lower() if name.isascii() else name  # ids are ASCII
    key = _ALIASES.get(key, key)
    if key in _REGISTRY:
        return key
    if key in PLANNED:
        raise VariantError(f"game {name!r} is not implemented yet (known: {', '.join(ids())})")
    raise VariantError(f"unknown game {name!r} (known: {', '.join(ids())})")


def get(name: str) -> Game:
    """The :class:`Game` for an id or alias (raises :class:`VariantError` if unknown).

    >>> get("tweak").rules_spec(), get("graph-t").title
    ('tweak/1', 'GRAPH-T')
    """
    gid = canonical_id(name)
    game = _LOADED.get(gid)
    if game is None:
        module, attr = _REGISTRY[gid]
        obj = getattr(importlib.import_module(module), attr)
        game = _LOADED[gid] = obj() if isinstance(obj, type) else obj
    return game
