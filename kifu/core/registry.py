"""The names of kifu's games: ids, aliases, and the module implementing each.

Plain data, so that :mod:`kifu.core.game` can name games (``Game.parse_rules``) without
importing :mod:`kifu.games`; the engines are loaded by :func:`kifu.games.get`.
"""

from __future__ import annotations

from kifu.core.errors import VariantError
from kifu.core.variant import short

# id -> (module, a Game instance or class); aliases map to ids.
_REGISTRY: dict[str, tuple[str, str]] = {
    gid: (f"kifu.games.{gid.replace('-', '_')}", "GAME")
    for gid in ("tweak", "graph-t", "towai", "alice", "lianxian")
}
_ALIASES: dict[str, str] = {
    "graph_t": "graph-t", "grapht": "graph-t", "unoalice": "alice", "setup": "lianxian",
}

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
        raise VariantError(f"game {short(name)} is not implemented yet (known: {', '.join(ids())})")
    raise VariantError(f"unknown game {short(name)} (known: {', '.join(ids())})")
