"""Error quality: every game's invalid fixtures cover at least 10 kinds of illegal action
(distinct ``[rule ...]`` ids), and each error names the ply, the actor, the action, the rule
broken and, where there are any, the legal actions."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kifu import games
from kifu.core.errors import KifuError
from kifu.notation.reader import read_records
from kifu.notation.replay import ReplayError, legal_texts, replay, replay_states

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"
MIN_KINDS = 10
RULE = re.compile(r"\[rule ([^\]]+)\]")


def _invalid(gid: str) -> list[Path]:
    return sorted((FIX / gid / "invalid").glob("*.kifu"))


@pytest.mark.parametrize("gid", games.ids())
def test_invalid_fixtures_cover_ten_kinds_of_illegal_action(gid: str) -> None:
    kinds = set()
    for path in _invalid(gid):
        err = path.with_suffix(".err").read_text(encoding="utf-8")
        kinds.update(RULE.findall(err))
    assert len(kinds) >= MIN_KINDS, f"{gid}: only {len(kinds)} kinds: {sorted(kinds)}"


def _cases() -> list[Path]:
    return [p for gid in games.ids() for p in _invalid(gid)]


@pytest.mark.parametrize("path", _cases(), ids=lambda p: p.relative_to(FIX).as_posix())
def test_illegal_action_error_names_ply_actor_action_rule_legal(path: Path) -> None:
    rel = path.relative_to(ROOT).as_posix()
    try:
        for loc in read_records(path.read_text(encoding="utf-8"), path=rel):
            replay(loc)
    except ReplayError as e:
        error = e
    except KifuError:
        return  # a syntax or header error: located, no ply to name
    else:
        pytest.fail("an invalid fixture replays")
    message = str(error)
    assert message.startswith(f"{rel}:"), message
    if not error.rule or error.rule == "result":
        return
    move = loc.record.moves[error.ply - 1]
    assert f"ply {error.ply}: {move.actor} {move.text!r}: " in message
    assert f"[rule {error.rule}]" in message
    *_, state = (s for _, s in zip(range(error.ply), replay_states_safe(loc), strict=False))
    legal = legal_texts(games.get(loc.record.game), state) if state.to_move is not None else ()
    if legal:
        assert "; legal: " + ", ".join(legal[:3]) in message, "legal actions not listed"
    else:
        assert "; legal:" not in message


def replay_states_safe(loc):
    """The states before each ply, up to the bad one (copies, so they stay as they were)."""
    it = replay_states(loc)
    try:
        for state in it:
            yield state.copy()
    except KifuError:
        return


def test_game_names_are_ascii() -> None:
    """A game id with Unicode whitespace or letters is unknown (ids are ASCII)."""
    from kifu import games
    from kifu.core.errors import VariantError

    assert games.canonical_id(" TWEAK") == "tweak"
    for name in ("\u3000tweak", "tweak\u00a0", "twеak"):  # the last has a Cyrillic e
        with pytest.raises(VariantError):
            games.canonical_id(name)
