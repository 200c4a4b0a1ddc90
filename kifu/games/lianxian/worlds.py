"""Lianxian worlds: the hidden racks, the bag and the tiles of a Swap under way, drawn to
agree with what a seat sees.

Known to ``seat``: the board (every stack, covered tiles included: each was placed face
up), the public hand, its own rack and, in the 2-vs-2 game, its partner's (ruling 8), the
size of every rack and of the bag, and the pawns (its view). The 50 tiles are all
different and all known, so the unseen tiles are exactly those of the hidden racks, of the
bag and, during another seat's Swap, of the tiles it is returning; they are dealt
uniformly among those places (the bag is unordered).

Not used (a simplification): when an unseen tile was last seen. A tile ``seat`` returned
in a Swap, or one recycled from under the top tiles, went into the bag at a known moment,
so it can only be on a rack refilled since; telling which of a rack's tiles came after that
moment would need to know which rack tile each later placement used. The bag holds most
unseen tiles, so the error is small.
"""

from __future__ import annotations

from collections.abc import Callable

from kifu.core.game import Game, State
from kifu.core.rng import Rng
from kifu.core.worlds import deal_into
from kifu.games.lianxian.tiles import scan_tiles, tiles_text


def _tiles(text: str) -> list[int]:
    return [] if text == "-" else scan_tiles(text)


def _text(tiles: list[int]) -> str:
    return tiles_text(sum(1 << t for t in tiles))


def world_sampler(state: State, seat: int, game: Game) -> Callable[[Rng], State]:
    """Work out what ``seat`` knows once; the returned function draws one world per call."""
    n = state.n
    fields = state.to_line().split(" ")
    partner = state.partner(seat)  # type: ignore[attr-defined]
    racks = [_tiles(r) for r in fields[3].split("/")]
    hidden = [s for s in range(n) if s != seat and s != partner]
    status = fields[1].split(":")
    aside: list[int] = []
    if len(status) >= 4 and status[1] == "swap" and int(status[0][1:]) in hidden:
        aside = _tiles(status[3])
    else:
        status = []
    bag = _tiles(fields[5])
    unseen = [t for s in hidden for t in racks[s]] + aside + bag
    sizes = [len(racks[s]) for s in hidden] + [len(aside), len(bag)]

    def draw(rng: Rng) -> State:
        parts = deal_into(rng, unseen, sizes)
        new = list(racks)
        for s, part in zip(hidden, parts, strict=False):
            new[s] = part
        fields[3] = "/".join(_text(r) for r in new)
        if status:
            status[3] = _text(parts[-2])
            fields[1] = ":".join(status)
        fields[5] = _text(parts[-1])
        return game.from_line(" ".join(fields))

    return draw


__all__ = ["world_sampler"]
