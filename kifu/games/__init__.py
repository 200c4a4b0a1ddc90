"""The game registry: ``kifu.games.get("tweak")``.

Each game lives in its own package and is imported on first use, so the CLI starts fast.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from kifu.core.game import Game
from kifu.core.registry import _REGISTRY, PLANNED, canonical_id, ids

_LOADED: dict[str, Game] = {}


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


def metrics_of(name: str) -> ModuleType:
    """The module of a game's own event counts (``kifu/games/<game>/metrics.py``): its
    ``METRICS`` (name -> one-line meaning), ``metrics(state) -> dict[str, int]`` and,
    optionally, ``RATES`` (the counts that are 0 or 1 a game, reported as shares).

    >>> list(metrics_of("graph-t").METRICS)[:2]
    ['turns', 'tricks']
    """
    module, _attr = _REGISTRY[canonical_id(name)]
    return importlib.import_module(f"{module}.metrics")


__all__ = ["PLANNED", "canonical_id", "get", "ids", "metrics_of"]
