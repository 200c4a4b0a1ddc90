"""Lianxian worlds: the hidden racks, the bag and the tiles of a Swap under way, drawn to
agree with what a seat sees.

Known to ``seat``: the board (every stack, covered tiles included: each was placed face
up), the public hand, its own rack and, in the 2-vs-2 game, its partner's (ruling 8), the
size of every rack and of the bag, and the pawns (its view). The 50 tiles are all
different and all known, so the unseen tiles are exactly those of the hidden racks, of the
bag and, during another seat's Swap, of the tiles it is returning.

From ``state.history`` (when it starts at the beginning of the game) the seat also knows
*when* some unseen tiles went into the bag: every tile a recycle put back (they lay on the
board), and every tile ``seat`` (or its partner) returned in a Swap. Such a tile can only
be on a rack that drew a tile since, and a rack cannot hold more of them than it drew
since, net of what it placed or returned after (:func:`rack_history`). A rack is possible
exactly when its tiles can be traced to its draws, each tile to a draw after the tile
last went into the bag and every tile that left the rack (placed face up: known; returned
in another seat's Swap: unseen) to a draw before it left; tracing the tiles that must
leave first to the earliest draw that fits is optimal (an interval-point matching).

Drawn: the unseen tiles dealt uniformly among the hidden racks, the tiles set aside and
the bag (the bag is unordered), among the deals in which every hidden rack is possible:
the tiles are grouped by the time they went into the bag (never seen: one group), each
rack's possible mixtures of groups are listed once, and
:class:`kifu.core.worlds.ChoiceDeal` deals within them. The tiles another seat is
setting aside in a Swap under way are checked with its rack afterwards (a world failing
it is drawn again: still uniform).

Not used: nothing the seat sees of when the *others'* returned tiles went back (it does
not see them), and the bots' reasons for a swap or a pass (no seat models another's
policy).
"""

from __future__ import annotations

from collections.abc import Callable

from kifu.core.errors import KifuError
from kifu.core.game import Game, State
from kifu.core.rng import Rng
from kifu.core.worlds import ChoiceDeal, deal_into, from_start
from kifu.games.lianxian.actions import Deal, Draw, Place, Recycle, Swap
from kifu.games.lianxian.tiles import scan_tiles, tiles_text

TRIES = 10_000
"""Draws tried before giving up (the real position is always a world, so this is never
reached unless almost no deal agrees with the history)."""

NEVER = -1
"""The entry time of a tile not known to have gone into the bag since the deal."""

OPEN = 1 << 30
"""The deadline of a tile still on the rack."""


def _tiles(text: str) -> list[int]:
    return [] if text == "-" else scan_tiles(text)


def _text(tiles: list[int]) -> str:
    return tiles_text(sum(1 << t for t in tiles))


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class RackHistory:
    """What ``seat`` knows of one hidden rack's past: the times it drew (``sources``; the
    deal counts as time 0) and the tiles that left it as ``(entry, time)`` intervals (a
    placed tile must have been drawn after it ``entry``-ed the bag, before ``time``; a tile
    returned unseen in a Swap has entry :data:`NEVER`); ``swap_time`` is when a Swap under
    way set its tiles aside (they left the rack then)."""

    def __init__(self) -> None:
        self.sources: list[int] = []
        self.sinks: list[tuple[int, int]] = []
        self.swap_time = OPEN

    def possible(self, rack: list[int], aside: list[int], entry: dict[int, int]) -> bool:
        """Can ``rack`` (and the tiles it set aside) be traced to this history's draws?"""
        return self.possible_entries([entry.get(t, NEVER) for t in rack],
                                     [entry.get(t, NEVER) for t in aside])

    def possible_entries(self, rack: list[int], aside: list[int]) -> bool:
        """:meth:`possible` for tiles given by their entry times."""
        if all(e == NEVER for e in rack) and all(e == NEVER for e in aside):
            return True  # only tiles of unknown past: the real rack's tracing serves
        sinks = self.sinks + [(e, OPEN) for e in rack] + [(e, self.swap_time) for e in aside]
        sinks.sort(key=lambda iv: (iv[1], -iv[0]))
        free = sorted(self.sources)
        for lo, hi in sinks:  # earliest deadline first, earliest draw that fits
            for i, t in enumerate(free):
                if lo < t < hi:
                    del free[i]
                    break
            else:
                return False
        return True


def rack_history(state: State, seat: int, game: Game) -> tuple[dict[int, RackHistory],
                                                               dict[int, int]] | None:
    """Per hidden seat its :class:`RackHistory`, and the time each tile last went into the
    bag as far as ``seat`` saw (recycled, or returned by ``seat`` or its partner); ``None``
    when the history does not start at the beginning of the game."""
    s = from_start(game, state)
    if s is None:
        return None
    n = state.n
    partner = state.partner(seat)  # type: ignore[attr-defined]
    known = {seat, partner}
    racks = {r: RackHistory() for r in range(n) if r not in known}
    entry: dict[int, int] = {}
    swapper = -1
    for time, a in enumerate(state.history, start=1):
        mover = s.mover  # type: ignore[attr-defined]
        bag = s.bag  # type: ignore[attr-defined]
        before = s.racks  # type: ignore[attr-defined]
        s.push(a)
        if isinstance(a, Deal):
            entry.clear()
            for r in racks:
                racks[r].sources += [0] * len(a.racks[r])
        elif isinstance(a, Draw):
            for r, h in racks.items():
                if (s.racks[r] >> a.tile) & 1:  # type: ignore[attr-defined]
                    h.sources.append(time)
        elif isinstance(a, Place) and mover in racks:
            left = before[mover] & ~s.racks[mover]  # type: ignore[attr-defined]
            racks[mover].sinks += [(entry.get(t, NEVER), time) for t in _bits(left)]
        elif isinstance(a, Swap):
            swapper = mover
            if mover in racks:
                racks[mover].swap_time = time
        gained = s.bag & ~bag  # type: ignore[attr-defined]
        if gained:
            if isinstance(a, Recycle) or swapper in known:
                for t in _bits(gained):
                    entry[t] = time
            elif swapper in racks:  # its Swap is over: the tiles it returned, unseen
                h = racks[swapper]
                h.sinks += [(NEVER, h.swap_time)] * gained.bit_count()
                h.swap_time = OPEN
            if not isinstance(a, Recycle):
                swapper = -1
    if s.key() != state.key():
        return None
    return racks, entry


def _mixes(total: int, caps: list[int]):
    """Every tuple of ``len(caps)`` counts at most ``caps`` adding up to ``total``."""
    if not caps:
        if total == 0:
            yield ()
        return
    for k in range(min(caps[0], total) + 1):
        for rest in _mixes(total - k, caps[1:]):
            yield (k, *rest)


def world_sampler(state: State, seat: int, game: Game) -> Callable[[Rng], State]:
    """Work out what ``seat`` knows once; the returned function draws one world per call."""
    n = state.n
    fields = state.to_line().split(" ")
    partner = state.partner(seat)  # type: ignore[attr-defined]
    racks = [_tiles(r) for r in fields[3].split("/")]
    hidden = [s for s in range(n) if s != seat and s != partner]
    status = fields[1].split(":")
    aside: list[int] = []
    swapper = -1
    if len(status) >= 4 and status[1] == "swap" and int(status[0][1:]) in hidden:
        aside = _tiles(status[3])
        swapper = int(status[0][1:])
    else:
        status = []
    bag = _tiles(fields[5])
    unseen = [t for s in hidden for t in racks[s]] + aside + bag
    sizes = [len(racks[s]) for s in hidden] + [len(aside), len(bag)]
    known = rack_history(state, seat, game)
    past, entry = known if known is not None else ({}, {})
    groups: dict[int, list[int]] = {}
    for t in unseen:
        groups.setdefault(entry.get(t, NEVER), []).append(t)
    if len(groups) > 1 and past:  # some unseen tiles have a known past
        times = list(groups)
        caps = [len(groups[e]) for e in times]
        allowed = {i: {mix for mix in _mixes(sizes[i], caps)
                       if past[s].possible_entries(
                           [e for e, k in zip(times, mix, strict=True) for _ in range(k)], [])}
                   for i, s in enumerate(hidden) if s in past}
        deal = ChoiceDeal(groups, sizes, allowed)
        at = {t: e for e, ts in groups.items() for t in ts}
        swap_check = past.get(swapper) if aside else None
        i_swapper = hidden.index(swapper) if swap_check is not None else -1
    else:
        deal = None

    def deal_once(rng: Rng) -> list[list[int]]:
        if deal is None:
            return deal_into(rng, unseen, sizes)
        for _ in range(TRIES):  # the tiles set aside: rejection (a Swap under way)
            parts = deal.sample(rng)
            if swap_check is None or swap_check.possible_entries(
                    [at[t] for t in parts[i_swapper]], [at[t] for t in parts[-2]]):
                return parts
        raise KifuError(f"no world for p{seat} found in {TRIES} tries")

    def draw(rng: Rng) -> State:
        parts = deal_once(rng)
        new = list(racks)
        for s, part in zip(hidden, parts, strict=False):
            new[s] = sorted(part)
        fields[3] = "/".join(_text(r) for r in new)
        if status:
            status[3] = _text(parts[-2])
            fields[1] = ":".join(status)
        fields[5] = _text(parts[-1])
        return game.from_line(" ".join(fields))

    return draw


__all__ = ["RackHistory", "rack_history", "world_sampler"]
