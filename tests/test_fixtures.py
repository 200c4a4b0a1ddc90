"""Every fixture of every game: legal records replay and are canonical; invalid records fail
with exactly the error recorded beside them; perft counts hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from kifu import games
from kifu.core.errors import KifuError
from kifu.core.game import perft
from kifu.notation.perftfile import read_perft
from kifu.notation.reader import read_records
from kifu.notation.record import format_records
from kifu.notation.replay import replay

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"

VALID = sorted(p for g in games.ids() for p in (FIX / g).glob("*.kifu"))
INVALID = sorted(p for g in games.ids() for p in (FIX / g / "invalid").glob("*.kifu"))
PERFT = [(f.stem, c) for f in sorted((FIX / "perft").glob("*.perft")) for c in read_perft(f)]


def rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", VALID, ids=rel)
def test_valid_record_replays_and_is_canonical(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    located = list(read_records(text, path=rel(path)))
    assert located, "no record in file"
    for loc in located:
        rep = replay(loc)
        assert rep.state.is_terminal() or loc.record.headers["Result"] == "*"
    assert format_records([loc.record for loc in located]) == text, "not canonical text"


@pytest.mark.parametrize("path", INVALID, ids=rel)
def test_invalid_record_gives_expected_error(path: Path) -> None:
    expected = path.with_suffix(".err").read_text(encoding="utf-8").strip()
    with pytest.raises(KifuError) as info:
        for loc in read_records(path.read_text(encoding="utf-8"), path=rel(path)):
            replay(loc)
    assert str(info.value) == expected


@pytest.mark.parametrize("case", [c for _, c in PERFT], ids=[f"{g}-{c.id}" for g, c in PERFT])
def test_perft(case) -> None:
    game = games.get(case.game)
    state = game.from_line(case.position)
    for depth, nodes in case.counts:
        assert perft(state, depth) == nodes, f"perft {depth}"
    assert state.to_line() == case.position, "perft must leave the position unchanged"


def test_every_game_has_fixtures() -> None:
    for gid in games.ids():
        assert list((FIX / gid).glob("*.kifu")), f"{gid} has no fixture records"
