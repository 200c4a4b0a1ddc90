"""kifu (棋譜, "game record"): rules engines, a shared notation, puzzles and an archive for
five modern card games: TWEAK, GRAPH-T, TOWAI, Lianxian Jihua and Alice."""

__version__ = "0.1.0"
