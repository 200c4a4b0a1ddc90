"""The Lianxian state: stacks on the board as tuples, racks, public hand, bag as tile
bitmasks; push/pop with an undo stack of immutable snapshots."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from math import comb
from operator import add

import msgspec

from kifu.core.errors import IllegalActionError, VariantError
from kifu.core.game import DEALER, Action, Result, State
from kifu.games.lianxian import placements as gen
from kifu.games.lianxian.actions import (
    DRAWS,
    FIRSTS,
    PASS,
    RECYCLE,
    Deal,
    Draw,
    First,
    Pass,
    Place,
    Recycle,
    Swap,
)
from kifu.games.lianxian.board import Board, load_board
from kifu.games.lianxian.layout import DEAL, FIRST, HAND, OVER, REFILL, SWAP, TURN
from kifu.games.lianxian.text import render as render_text
from kifu.games.lianxian.text import write_line
from kifu.games.lianxian.tiles import ALL_TILES, N_TILES, NUMBER, SUIT, TOKEN, tiles_of, tiles_text
from kifu.games.lianxian.variant import LianxianVariant

__all__ = ["DEAL", "FIRST", "HAND", "OVER", "REFILL", "SWAP", "TURN", "LianxianState",
           "Placement", "Seating", "seating_of"]

R_SETUP = "lianxian 1: setup"
R_LINK = "lianxian 2: links and combos"
R_PLACE = "lianxian 3: place"
R_SPACE = "lianxian 3: spaces you may use"
R_COMBO = "lianxian 3: one combo holds every placed tile"
R_SWAP = "lianxian 10: swap size"
R_PASS = "lianxian 10: pass only when no swap is possible"
R_REFILL = "lianxian 6: refill and recycle"
R_DRAW = "lianxian 9: draws"
R_TURN = "turn"


class Placement(msgspec.Struct, frozen=True, gc=False):
    """A legal placement with what it scores: the mover's points and each seat's bonus
    (0 for the mover)."""

    action: Place
    points: int
    bonus: tuple[int, ...]


class Seating:
    """Per-(board, players, team) tables: each seat's side, usable spaces, bonus spaces."""

    __slots__ = ("_gains", "allowed", "bonus", "finish", "sides")

    def __init__(self, board: Board, n: int, team: bool, finish: int):
        sides = board.seating(n, team)
        self.sides = sides
        empty = 0
        for side in range(len(board.sides)):
            if side not in sides:
                empty |= board.side_mask(side)
        centre = board.centre_mask()
        self.bonus = tuple(board.side_mask(s) for s in sides)
        self.allowed = tuple(centre | empty | b for b in self.bonus)
        self.finish = finish or board.finish_line(n, team)
        self._gains: dict[tuple[int, int], tuple[int, ...]] = {}

    def gains(self, seat: int, score: int) -> tuple[int, ...]:
        """What a placement by ``seat`` scoring the spaces ``score`` adds to each seat's
        pawn: the mover a point a space, every other seat a point for each of its bonus
        spaces (ruling 14), memoised."""
        got = self._gains.get((seat, score))
        if got is None:
            got = tuple(score.bit_count() if s == seat else (score & b).bit_count()
                        for s, b in enumerate(self.bonus))
            if len(self._gains) >= 1 << 16:
                self._gains.clear()
            self._gains[(seat, score)] = got
        return got


_SEATINGS: dict[tuple, Seating] = {}


def seating_of(variant: LianxianVariant, n: int) -> Seating:
    key = (variant, n)
    s = _SEATINGS.get(key)
    if s is None:
        if variant.team and n != 4:
            raise VariantError(f"the 2-vs-2 game (team=true) takes 4 players, not {n}")
        s = _SEATINGS[key] = Seating(load_board(variant.board), n, variant.team,
                                     variant.finish)
    return s


class LianxianState(State):
    __slots__ = (
        "_last", "_stacks", "_tops", "_undo", "aside", "bag", "board", "mover", "need_pub",
        "need_rack", "phase", "public", "racks", "recent", "recycle_due", "scores", "seating",
    )

    def __init__(self, n: int, variant: LianxianVariant):
        super().__init__(n, variant)
        self.board = load_board(variant.board)
        self.seating = seating_of(variant, n)
        self.phase = DEAL
        self.mover = -1
        """The seat whose turn it is (during a refill or swap: whose tiles are drawn)."""
        self.stacks = ((),) * self.board.size
        self._last: tuple | None = None
        """The placements ``legal_actions`` last listed at a turn (see ``_place``)."""
        self.racks: tuple[int, ...] = (0,) * n
        self.public = 0
        self.bag = ALL_TILES
        self.aside = 0
        """A swap's returned tiles, waiting to go into the bag after the new ones are drawn."""
        self.need_pub = 0
        self.need_rack = 0
        self.recycle_due = False
        self.scores: tuple[int, ...] = (0,) * n
        self.recent: tuple[int, ...] = ()
        """The seats that have placed, the most recent placer first (ruling 13)."""

    # --- whose turn, the end ------------------------------------------------------------
    @property
    def to_move(self) -> int | None:
        phase = self.phase
        if phase == TURN:
            return self.mover
        if phase == OVER:
            return None
        return DEALER

    def turn_note(self) -> str:
        if self.phase == REFILL:
            return f"to refill after p{self.mover}'s placement"
        if self.phase == SWAP:
            return f"to draw p{self.mover}'s swap"
        return ""

    @property
    def team(self) -> bool:
        return self.variant.team

    def partner(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.variant.team else None

    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        scores = self.scores
        recent = self.recent
        if not self.variant.team:
            rec = [0] * self.n
            for i, s in enumerate(recent):
                rec[s] = len(recent) - i
            return Result.from_keys(scores, tuple(zip(scores, rec, strict=True)))
        lo, hi = min(scores), max(scores)
        last = {s % 2 for s in range(4) if scores[s] == lo}
        first = {s % 2 for s in range(4) if scores[s] == hi}
        if len(last) == 1:
            win = 1 - last.pop()
        elif len(first) == 1:
            win = first.pop()
        else:
            win = recent[0] % 2
        return Result(tuple(scores), tuple(1 if s % 2 == win else 2 for s in range(4)))

    # --- queries ------------------------------------------------------------------------
    @property
    def stacks(self) -> tuple[tuple[int, ...], ...]:
        """Each space's tiles, bottom first; only the last (the top) counts. Setting it
        also sets the top of each space (``_tops``, -1 for an empty space), which the hot
        paths read."""
        return self._stacks

    @stacks.setter
    def stacks(self, stacks: tuple[tuple[int, ...], ...]) -> None:
        self._stacks = stacks
        self._tops = tuple([st[-1] if st else -1 for st in stacks])

    def tops(self) -> list[int]:
        return list(self._tops)

    def under_count(self) -> int:
        """The tiles under the tops: every tile on the board but the tops."""
        tops = self._tops
        return sum(map(len, self._stacks)) - len(tops) + tops.count(-1)

    def max_swap(self) -> int:
        """Ruling 10: the largest swap the mover may make (0: none is possible)."""
        rack = self.racks[self.mover].bit_count()
        supply = self.bag.bit_count()
        if supply < rack:
            supply += self.under_count()
        return min(HAND, rack, supply)

    def placements(self) -> list[Placement]:
        """Every legal placement of the player to move with its points and bonus."""
        if self.phase != TURN:
            return []
        seat = self.mover
        seating = self.seating
        bonus_masks = seating.bonus
        out = []
        scored: dict[int, tuple[int, tuple[int, ...]]] = {}
        for cells, score in gen.generate(self.board, self._tops,
                                         self.racks[seat] | self.public,
                                         seating.allowed[seat]):
            got = scored.get(score)
            if got is None:
                got = scored[score] = (score.bit_count(), tuple(
                    0 if s == seat else (score & b).bit_count()
                    for s, b in enumerate(bonus_masks)))
            out.append(Placement(Place(cells), got[0], got[1]))
        return out

    # --- actions ------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == TURN:
            seat = self.mover
            rack = self.racks[seat]
            self._last = last = _places(self.board, self._tops, rack | self.public,
                                        self.seating.allowed[seat])
            out: list[Action] = list(last[1])
            k = self.max_swap()
            if k:
                out += _swaps(rack, k)
            else:
                out.append(PASS)
            return out
        if phase in (REFILL, SWAP):
            if self.recycle_due:
                return [RECYCLE]
            return list(_draws(self.bag))
        if phase == FIRST:
            return list(FIRSTS[: self.n])
        return []

    def count_legal(self) -> int:
        phase = self.phase
        if phase == TURN:
            seat = self.mover
            rack = self.racks[seat]
            n = gen.count(self.board, self._tops, rack | self.public,
                          self.seating.allowed[seat])
            # max_swap() inline, and the swaps (or the pass) counted from a table: a copy
            # kept for perft, whose every leaf's parent lands here (tools/perft_ratio.py
            # lianxian-turns); tests/test_lianxian_perft.py holds it to legal_actions
            r = rack.bit_count()
            supply = self.bag.bit_count()
            if supply < r:
                supply += self.under_count()
            return n + _SWAP_COUNT[r][min(HAND, r, supply)]
        if phase in (REFILL, SWAP):
            return 1 if self.recycle_due else self.bag.bit_count()
        if phase == FIRST:
            return self.n
        return 0

    def chance_outcomes(self) -> list[tuple[Action, Fraction]] | None:
        """Ruling 9: each tile of the bag alike (each tile exists once); the recycle is
        certain; the first player uniform. The initial deal is a shuffle (``None``)."""
        phase = self.phase
        if phase in (REFILL, SWAP):
            if self.recycle_due:
                return [(RECYCLE, Fraction(1))]
            p = Fraction(1, self.bag.bit_count())
            return [(d, p) for d in _draws(self.bag)]
        if phase == FIRST:
            return [(a, Fraction(1, self.n)) for a in FIRSTS[: self.n]]
        return None

    def check(self, action: Action) -> None:
        problem = self._problem(action)
        if problem is not None:
            raise IllegalActionError(problem[0], rule=problem[1])

    def explain_illegal(self, action: Action) -> tuple[str, str]:
        return self._problem(action) or (f"{action!r} is legal here", "")

    def _problem(self, action: Action) -> tuple[str, str] | None:
        """Why ``action`` is illegal here (message, rule), or None if it is legal."""
        phase = self.phase
        t = type(action)
        if phase == OVER:
            return ("the game is over", "end")
        if phase == TURN:
            if t is Place:
                return self._place_problem(action)  # type: ignore[arg-type]
            if t is Swap:
                return self._swap_problem(action)  # type: ignore[arg-type]
            if t is Pass:
                k = self.max_swap()
                if k:
                    return (f"p{self.mover} can swap 1..{k} tiles, so may not pass", R_PASS)
                return None
            return (f"it is p{self.mover}'s turn to place, swap or pass", R_TURN)
        if phase in (REFILL, SWAP):
            if t is Recycle:
                if self.recycle_due:
                    return None
                return (f"no recycle is due: the bag holds {self.bag.bit_count()} tiles",
                        R_REFILL)
            if t is Draw:
                if self.recycle_due:
                    why = ("the bag is empty" if not self.bag else
                           f"the bag holds {self.bag.bit_count()} tiles, fewer than the swap "
                           "needs")
                    return (f"{why}: the tiles under the tops go back into the bag first "
                            "(recycle)", R_REFILL)
                tile = action.tile  # type: ignore[attr-defined]
                if not 0 <= tile < N_TILES:
                    return (f"no tile has code {tile}", R_DRAW)
                if not self.bag >> tile & 1:
                    return (f"{TOKEN[tile]} is not in the bag ({_where(self, tile)})", R_DRAW)
                return None
            return ("the dealer must draw (or recycle) now", R_REFILL)
        if phase == FIRST:
            if t is First:
                if 0 <= action.seat < self.n:  # type: ignore[attr-defined]
                    return None
                return (f"there is no seat p{action.seat} in a {self.n}-player game",  # type: ignore[attr-defined]
                        R_SETUP)
            return ("the dealer must name the first player", R_SETUP)
        if t is Deal:
            return self._deal_problem(action)  # type: ignore[arg-type]
        return ("the dealer must deal first", R_SETUP)

    def _deal_problem(self, deal: Deal) -> tuple[str, str] | None:
        centre = self.board.centre_mask().bit_count()
        if len(deal.centre) != centre:
            return (f"the deal puts one tile on each of the {centre} centre spaces, not "
                    f"{len(deal.centre)}", R_SETUP)
        if len(deal.racks) != self.n:
            return (f"the deal has {len(deal.racks)} racks for {self.n} players", R_SETUP)
        for s, r in enumerate(deal.racks):
            if len(r) != HAND:
                return (f"rack {s} gets {len(r)} tiles, not {HAND}", R_SETUP)
        if len(deal.public) != HAND:
            return (f"the public hand gets {len(deal.public)} tiles, not {HAND}", R_SETUP)
        seen: set[int] = set()
        for t in (*deal.centre, *(x for r in deal.racks for x in r), *deal.public):
            if not 0 <= t < N_TILES:
                return (f"no tile has code {t}", R_SETUP)
            if t in seen:
                return (f"the deal gives out {TOKEN[t]} twice (each tile exists once)",
                        R_SETUP)
            seen.add(t)
        return None

    def _place_problem(self, place: Place) -> tuple[str, str] | None:
        seat = self.mover
        board = self.board
        names = board.space_names
        cells = place.cells
        if not cells:
            return ("a placement puts at least one tile", R_PLACE)
        held = self.racks[seat] | self.public
        spaces: set[int] = set()
        tiles: set[int] = set()
        for p, t in cells:
            if not 0 <= p < board.size:
                return (f"the board has no space {p}", R_PLACE)
            if not 0 <= t < N_TILES:
                return (f"no tile has code {t}", R_PLACE)
            if t in tiles:
                return (f"{TOKEN[t]} is placed twice", R_PLACE)
            if p in spaces:
                return (f"two tiles on {names[p]} in one turn: each placed tile needs its own "
                        "space", R_PLACE)
            tiles.add(t)
            spaces.add(p)
            if not held >> t & 1:
                return (f"p{seat} holds no {TOKEN[t]} (rack {tiles_text(self.racks[seat])}, "
                        f"public {tiles_text(self.public)})", R_PLACE)
            if not self.seating.allowed[seat] >> p & 1:
                owner = [s for s, b in enumerate(self.seating.bonus) if b >> p & 1]
                if owner and owner[0] == self.partner(seat):
                    whose = f"p{owner[0]}'s (the partner's)"
                else:
                    whose = f"p{owner[0]}'s" if owner else "another player's"
                return (f"{names[p]} is {whose} bonus space; p{seat} may use the centre, "
                        "its own and unowned bonus spaces", R_SPACE)
        if list(cells) != sorted(cells):
            return ("placement cells must be sorted by space", R_PLACE)
        tops = self._tops
        if gen.one_combo(board, tops, cells):
            return None
        return (_combo_why(board, tops, cells), R_COMBO)

    def _swap_problem(self, swap: Swap) -> tuple[str, str] | None:
        seat = self.mover
        rack = self.racks[seat]
        k = self.max_swap()
        if len(swap.tiles) > HAND:
            return (f"a swap returns at most {HAND} tiles, not {len(swap.tiles)}", R_SWAP)
        for t in swap.tiles:
            if not (0 <= t < N_TILES and rack >> t & 1):
                where = "" if not (0 <= t < N_TILES) else (
                    " (public tiles cannot be swapped)" if self.public >> t & 1 else "")
                return (f"p{seat}'s rack holds no {TOKEN[t] if 0 <= t < N_TILES else t}"
                        f"{where}", R_SWAP)
        if len(set(swap.tiles)) != len(swap.tiles):
            return ("a swap names each tile once", R_SWAP)
        if not k:
            return ("no swap is possible: the bag and the tiles under the tops are empty",
                    R_SWAP)
        if not 1 <= len(swap.tiles) <= k:
            return (f"a swap returns 1..{k} tiles here, not {len(swap.tiles)} (at most "
                    f"{HAND}, the rack's {rack.bit_count()}, and what the bag and the "
                    f"under-tiles can supply: {self.bag.bit_count() + self.under_count()})",
                    R_SWAP)
        if list(swap.tiles) != sorted(swap.tiles):
            return ("swap tiles must be sorted", R_SWAP)
        return None

    # --- push / pop ---------------------------------------------------------------------
    def push(self, action: Action) -> None:
        self._undo.append((self.phase, self.mover, self._stacks, self._tops, self.racks,
                           self.public, self.bag, self.aside, self.need_pub, self.need_rack,
                           self.recycle_due, self.scores, self.recent))
        self.history.append(action)
        t = type(action)
        if t is Draw:
            self._draw(action.tile)  # type: ignore[attr-defined]
        elif t is Place:
            self._place(action)  # type: ignore[arg-type]
        elif t is Swap:
            tiles = action.tiles  # type: ignore[attr-defined]
            m = 0
            for x in tiles:
                m |= 1 << x
            seat = self.mover
            racks = list(self.racks)
            racks[seat] &= ~m
            self.racks = tuple(racks)
            self.aside = m
            self.need_rack = len(tiles)
            self.need_pub = 0
            self.recycle_due = self.bag.bit_count() < len(tiles)
            self.phase = SWAP
        elif t is Recycle:
            self._recycle()
        elif t is Pass:
            self.mover = (self.mover + 1) % self.n
        elif t is First:
            self.mover = action.seat  # type: ignore[attr-defined]
            self.phase = TURN
        elif t is Deal:
            self._deal(action)  # type: ignore[arg-type]
        else:
            self._undo.pop()
            self.history.pop()
            raise TypeError(f"not a Lianxian action: {action!r}")

    def _deal(self, deal: Deal) -> None:
        centre = [p for p in range(self.board.size) if self.board.owner[p] < 0]
        stacks = list(self.stacks)
        used = 0
        for p, t in zip(centre, deal.centre, strict=True):
            stacks[p] = (t,)
            used |= 1 << t
        racks = []
        for r in deal.racks:
            m = 0
            for t in r:
                m |= 1 << t
            racks.append(m)
            used |= m
        pub = 0
        for t in deal.public:
            pub |= 1 << t
        used |= pub
        self.stacks = tuple(stacks)
        self.racks = tuple(racks)
        self.public = pub
        self.bag = ALL_TILES & ~used
        self.phase = FIRST

    def _place(self, place: Place) -> None:
        seat = self.mover
        tops = self._tops
        cells = place.cells
        # the spaces that score: kept by legal_actions beside the placements it listed for
        # these tops (keyed by the Place objects it returned), else worked out
        last = self._last
        score = None
        if last is not None and last[0] == tops:
            score = last[2].get(id(place))
        if score is None:
            score = gen.score_mask(self.board, tops, cells)
        stacks = list(self._stacks)
        new_tops = list(tops)
        m = 0
        for p, t in cells:
            stacks[p] = (*stacks[p], t)
            new_tops[p] = t
            m |= 1 << t
        self._stacks = tuple(stacks)
        self._tops = tuple(new_tops)
        racks = list(self.racks)
        racks[seat] &= ~m
        self.racks = tuple(racks)
        self.public &= ~m
        self.scores = scores = tuple(map(add, self.scores, self.seating.gains(seat, score)))
        recent = self.recent
        if recent and recent[0] != seat:
            self.recent = (seat, *[s for s in recent if s != seat])
        elif not recent:
            self.recent = (seat,)
        if max(scores) >= self.seating.finish:
            self.phase = OVER  # ruling 12: no refill follows
            return
        self.need_pub = HAND - self.public.bit_count()
        self.need_rack = HAND - racks[seat].bit_count()
        self.phase = REFILL
        self._next_draw()

    def _next_draw(self) -> None:
        """After a placement or a draw of the refill: what the dealer does next."""
        if not (self.need_pub or self.need_rack):
            self._end_turn()
        elif not self.bag:
            if self.under_count():
                self.recycle_due = True
            else:  # ruling 11: nothing left to draw, the refill stops short
                self._end_turn()

    def _end_turn(self) -> None:
        self.need_pub = self.need_rack = 0
        self.recycle_due = False
        self.phase = TURN
        self.mover = (self.mover + 1) % self.n

    def _draw(self, tile: int) -> None:
        bit = 1 << tile
        self.bag &= ~bit
        if self.phase == SWAP:
            racks = list(self.racks)
            racks[self.mover] |= bit
            self.racks = tuple(racks)
            self.need_rack -= 1
            if not self.need_rack:
                self.bag |= self.aside
                self.aside = 0
                self._end_turn()
            return
        if self.need_pub:
            self.public |= bit
            self.need_pub -= 1
        else:
            racks = list(self.racks)
            racks[self.mover] |= bit
            self.racks = tuple(racks)
            self.need_rack -= 1
        self._next_draw()

    def _recycle(self) -> None:
        under = 0
        stacks = []
        for st in self._stacks:
            for t in st[:-1]:
                under |= 1 << t
            stacks.append(st[-1:])
        self._stacks = tuple(stacks)  # the tops stay
        self.bag |= under
        self.recycle_due = False

    def pop(self) -> Action:
        if not self._undo:
            raise IndexError("nothing to undo")
        (self.phase, self.mover, self._stacks, self._tops, self.racks, self.public, self.bag,
         self.aside, self.need_pub, self.need_rack, self.recycle_due, self.scores,
         self.recent) = self._undo.pop()
        return self.history.pop()

    # --- identity -----------------------------------------------------------------------
    def key(self) -> tuple:
        return (self.variant, self.n, self.phase, self.mover, self._stacks, self.racks,
                self.public, self.bag, self.aside, self.need_pub, self.need_rack,
                self.recycle_due, self.scores, self.recent)

    def copy(self) -> LianxianState:
        # written out, no shared helper (it would add a call to every copy; hot path:
        # benchmarks/test_bots.py::test_time_per_decision); pinned by
        # tests/test_properties.py::test_copy_is_independent
        s = LianxianState.__new__(LianxianState)
        s.n = self.n
        s.variant = self.variant
        s.history = []
        s._undo = []
        s.board = self.board
        s.seating = self.seating
        s._last = None
        (s.phase, s.mover, s._stacks, s._tops, s.racks, s.public, s.bag, s.aside, s.need_pub,
         s.need_rack, s.recycle_due, s.scores, s.recent) = (
            self.phase, self.mover, self._stacks, self._tops, self.racks, self.public,
            self.bag, self.aside, self.need_pub, self.need_rack, self.recycle_due,
            self.scores, self.recent)
        return s

    def check_invariants(self) -> None:
        seen = 0
        total = 0
        assert self._tops == tuple(st[-1] if st else -1 for st in self._stacks), "tops"
        zones = [t for st in self._stacks for t in st]
        for m in (*self.racks, self.public, self.bag, self.aside):
            zones.extend(tiles_of(m))
        for t in zones:
            assert not seen >> t & 1, f"tile {TOKEN[t]} in two places"
            seen |= 1 << t
            total += 1
        assert seen == ALL_TILES and total == N_TILES, "tiles lost"
        assert all(r.bit_count() <= HAND for r in self.racks), "a rack holds more than 4"
        assert self.public.bit_count() <= HAND, "the public hand holds more than 4"
        if self.phase == DEAL:
            assert self.bag == ALL_TILES
            return
        assert 0 <= self.mover < self.n or self.phase == FIRST
        assert all(sc >= 0 for sc in self.scores)
        if self.phase == OVER:
            assert max(self.scores) >= self.seating.finish
        else:
            assert max(self.scores) < self.seating.finish, "past the finish but not over"
        if self.phase == SWAP:
            assert self.aside and self.need_rack >= 1 and not self.need_pub
        else:
            assert not self.aside
        if self.phase == REFILL:
            assert self.need_pub + self.need_rack > 0
        if self.recycle_due:
            assert self.phase in (REFILL, SWAP) and self.under_count()
        assert len(set(self.recent)) == len(self.recent)

    # --- text ---------------------------------------------------------------------------
    def to_line(self) -> str:
        return write_line(self, None)

    view = write_line  # view(seat): the line with what ``seat`` cannot see hidden
    render = render_text


def _where(state: LianxianState, tile: int) -> str:
    for p, st in enumerate(state.stacks):
        if tile in st:
            where = "on top of" if st[-1] == tile else "under the top of"
            return f"it lies {where} {state.board.space_names[p]}"
    for s, r in enumerate(state.racks):
        if r >> tile & 1:
            return f"it is on p{s}'s rack"
    if state.public >> tile & 1:
        return "it is in the public hand"
    if state.aside >> tile & 1:
        return "it is one of the tiles being swapped back"
    return "?"


def _combo_why(board: Board, tops: list[int], cells) -> str:
    """Why no one combo holds the placed tiles, as precisely as it can be said."""
    names = board.space_names
    tiles = [t for _, t in cells]
    text = " ".join(f"{TOKEN[t]}@{names[p]}" for p, t in cells)
    if len({NUMBER[t] for t in tiles}) > 1 and len({SUIT[t] for t in tiles}) > 1:
        return (f"{text}: the placed tiles share neither a number nor a suit, so no one "
                "combo can hold them all")
    fin = gen.final_tops(tops, cells)
    for p, t in cells:  # a 10 next to the 1 of its suit (or the reverse)?
        if NUMBER[t] in (1, 10):
            other = t + 9 if NUMBER[t] == 1 else t - 9
            if any(fin[q] == other and board.adj[p] >> q & 1 for q in range(board.size)):
                return (f"{text}: {TOKEN[min(t, other)]} and {TOKEN[max(t, other)]} do not "
                        "link (a run stops at 10), so no one combo holds the placed tiles")
    if len(cells) == 1:
        return f"{text}: the tile links to no top tile next to it, so it forms no combo"
    return (f"{text}: after placing, no one combo holds every placed tile (a combo follows "
            "the lines with links of one kind)")


_SWAP_COUNT = tuple(
    tuple(sum(comb(r, i) for i in range(1, k + 1)) or 1 for k in range(HAND + 1))
    for r in range(HAND + 1))
"""``_SWAP_COUNT[r][k]``: the turn's actions other than placements with ``r`` rack tiles
and swaps of up to ``k`` allowed: every swap of 1..k tiles, or the pass when ``k`` is 0."""

_LIMIT = 1 << 16
_PLACES: dict[tuple, tuple] = {}
_SWAPS: dict[tuple[int, int], tuple[Swap, ...]] = {}
_DRAWS: dict[int, tuple[Draw, ...]] = {}

MEMO_BYTES = 64 << 20
"""The bytes the three memos above may hold together before they start again. An entry of
``_PLACES`` holds every placement of a position (thousands on an open board: about 300
bytes each), so a count of entries alone let them grow past 2 GB (issue 35); each entry is
charged an upper bound of its size (:data:`ENTRY_BYTES` and the per-item figures, checked
against tracemalloc by tests/test_reliability4.py)."""
ENTRY_BYTES = 640
"""The bytes of a memo entry besides its items: its key, the dict slot, the tuples."""
PLACE_BYTES, CELL_BYTES, SWAP_BYTES, DRAW_BYTES = 240, 72, 160, 8
"""Per placement (its ``Place``, its cells tuple, its score), per cell of a placement, per
swap (its ``Swap`` and tiles tuple), per draw (a reference: the draws are shared)."""
_memo_bytes = 0


def _charge(cost: int) -> None:
    """Make room for an entry of ``cost`` bytes (every memo starts again when they would
    hold more than :data:`MEMO_BYTES` together)."""
    global _memo_bytes
    if _memo_bytes + cost > MEMO_BYTES:
        for memo in (_PLACES, _SWAPS, _DRAWS):
            memo.clear()
        _memo_bytes = 0
    _memo_bytes += cost


def memo_bytes() -> int:
    """The bytes the memos are charged now (at most :data:`MEMO_BYTES`)."""
    return _memo_bytes


def clear_caches() -> None:
    """Forget every memo of the engine (for cold-cache benchmarks)."""
    global _memo_bytes
    for memo in (_PLACES, _SWAPS, _DRAWS):
        memo.clear()
    _memo_bytes = 0
    _SEATINGS.clear()
    gen.clear_caches()


def _places(board: Board, tops: tuple[int, ...], avail: int, allowed: int) -> tuple:
    """``(tops, placements, scores)`` for a turn: the ``Place`` of every placement in the
    generator's order, and the spaces each scores keyed by the id of its ``Place``
    (memoised per position: a search meets a board and hand again after each dealer
    draw)."""
    key = (board, tops, avail, allowed)
    got = _PLACES.get(key)
    if got is None:
        places = []
        scores = {}
        cost = ENTRY_BYTES
        for cells, score in gen.generate(board, tops, avail, allowed):
            place = Place(cells)
            places.append(place)
            scores[id(place)] = score
            cost += PLACE_BYTES + CELL_BYTES * len(cells)
        if len(_PLACES) >= _LIMIT:
            _PLACES.clear()
        _charge(cost)
        got = _PLACES[key] = (tops, tuple(places), scores)
    return got


def _swaps(rack: int, k: int) -> tuple[Swap, ...]:
    """Every swap of 1..k tiles of ``rack``."""
    got = _SWAPS.get((rack, k))
    if got is None:
        tiles = tiles_of(rack)
        got = tuple(Swap(combo) for size in range(1, k + 1)
                    for combo in combinations(tiles, size))
        if len(_SWAPS) >= _LIMIT:
            _SWAPS.clear()
        _charge(ENTRY_BYTES + SWAP_BYTES * len(got))
        _SWAPS[(rack, k)] = got
    return got


def _draws(bag: int) -> tuple[Draw, ...]:
    """The dealer's draws from ``bag``, in tile order."""
    got = _DRAWS.get(bag)
    if got is None:
        if len(_DRAWS) >= _LIMIT:
            _DRAWS.clear()
        got = tuple([DRAWS[t] for t in tiles_of(bag)])
        _charge(ENTRY_BYTES + DRAW_BYTES * len(got))
        _DRAWS[bag] = got
    return got
