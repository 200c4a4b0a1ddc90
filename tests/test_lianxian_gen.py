"""The placement generator against a naive enumeration (every assignment of held tiles to
allowed spaces, filtered by the rule as defined, scored from an explicit link graph)."""

from __future__ import annotations

from lianxian_helpers import naive_placements, random_position

from kifu.core.rng import Rng
from kifu.games.lianxian import placements as gen


def generated(st):
    args = (st.board, st.tops(), st.racks[st.mover] | st.public, st.seating.allowed[st.mover])
    got = gen.generate(*args)
    return got, gen.generate(*args, build=False)


def test_generator_matches_naive_on_500_positions() -> None:
    rng = Rng(20261123)
    for i in range(500):
        n = 2 + i % 3
        team = n == 4 and i % 2 == 0
        st = random_position(rng, n, team=team, fill=0.5 + (i % 6) / 10,
                             rack=1 + i % 4, public=i % 5)
        got, count = generated(st)
        cells = [c for c, _ in got]
        assert len(set(cells)) == len(cells), "each placement exactly once"
        assert count == len(cells), "count mode agrees with build mode"
        want = naive_placements(st)
        assert dict(got) == want, st.to_line()
        for c in cells[:20]:
            assert st.is_legal(gen_place(c))


def gen_place(cells):
    from kifu.games.lianxian.actions import Place

    return Place(cells)


def test_generator_matches_unpruned_naive_on_small_positions() -> None:
    """The naive enumeration without its one shortcut (tiles sharing neither number nor
    suit skipped), on positions with few tiles."""
    rng = Rng(7)
    for i in range(40):
        n = 3 + i % 2
        st = random_position(rng, n, fill=0.7, rack=2, public=1 + i % 2)
        got, _ = generated(st)
        assert dict(got) == naive_placements(st, prune=False), st.to_line()


def test_points_and_bonus_of_placements_match_push() -> None:
    """The scores the generator reports are what push adds to the track."""
    rng = Rng(99)
    for i in range(60):
        st = random_position(rng, 2 + i % 3)
        for pl in st.placements()[:10]:
            before = st.scores
            st.push(pl.action)
            gained = tuple(a - b for a, b in zip(st.scores, before, strict=True))
            st.pop()
            want = tuple(pl.points if s == st.mover else pl.bonus[s] for s in range(st.n))
            assert gained == want
