"""kifu's games for outside frameworks: OpenSpiel (``kifu[openspiel]``) and PettingZoo
(``kifu[pettingzoo]``), and OpenSpiel's bots as kifu bots. ``docs/interop.md``.

The layer sits between ``kifu.notation`` and ``kifu.lab``: it drives the engines and the
world samplers (games, bots), writes records for serialization (notation), and ``kifu
match`` reaches OpenSpiel's bots through ``kifu/lab/outside.py`` without the bots layer
importing upward.

:mod:`kifu.interop.bridge` (this package's core) imports neither framework; the
framework modules (:mod:`kifu.interop.openspiel`, :mod:`kifu.interop.pettingzoo`) import
theirs and raise :class:`ImportError` naming the extra when it is missing.
"""
