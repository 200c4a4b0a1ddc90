"""Numbers in a TOWAI position line: a located error for an absurdly long pass or turn
count, never a crash (the fuzz test found ``int()`` refusing a 4,309-digit pass count)."""

from __future__ import annotations

import pytest

from kifu import games
from kifu.core.errors import NotationError

GAME = games.get("towai")
LINE = "towai/1 P0 day N2T4/D3D4/N1N2 D3 N3 - {last} 0,0,0 {meta}"


@pytest.mark.parametrize("digits", [19, 4309, 5000])
def test_a_huge_pass_count_is_a_located_error(digits: int) -> None:
    last = "p2:" + "1" * digits
    with pytest.raises(NotationError) as e:
        GAME.from_line(LINE.format(last=last, meta="f0t1"))
    assert "last:passes: expected <last player>:<passes>" in str(e.value)


@pytest.mark.parametrize("digits", [19, 4309])
def test_a_huge_turn_count_is_a_located_error(digits: int) -> None:
    with pytest.raises(NotationError) as e:
        GAME.from_line(LINE.format(last="p2:0", meta="f0t" + "9" * digits))
    assert "first+turns: expected f<first player>t<turns>" in str(e.value)


def test_long_but_sane_counts_still_read() -> None:
    """18 digits still parse (the position is then refused for its own reasons)."""
    with pytest.raises(NotationError) as e:
        GAME.from_line(LINE.format(last="p2:0", meta="f0t" + "9" * 18))
    assert "turn cap" in str(e.value)
    state = GAME.from_line(LINE.format(last="p2:0", meta="f0t1"))
    assert state.to_line() == LINE.format(last="p2:0", meta="f0t1")
