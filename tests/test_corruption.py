"""Changing any one action of a played record into an illegal one is caught at that ply,
with the rule broken, for every game."""

from __future__ import annotations

import pytest

from kifu import games
from kifu.core.errors import KifuError
from kifu.lab.play import play_record
from kifu.notation.reader import read_records
from kifu.notation.record import Move, Record, format_record
from kifu.notation.replay import replay, replay_states

CANDIDATES = {
    "tweak": ["R1", "P6xP6", "R3xO1", "!J+", "!S", "!B", "!T p1", "pass", "steal R1",
              "deal R1 !T", "dealer p0", "Z9"],
    "graph-t": ["R1", "R1g", "K6g", "G", "K6", "P5g", "lead p0", "deal R1/R2", "Q7"],
}


@pytest.mark.parametrize("gid", sorted(CANDIDATES))
def test_every_ply_corrupted(gid: str) -> None:
    game = games.get(gid)
    n = game.min_players + 1
    record = play_record(game, ["random"] * n, 7, game.parse_rules(
        "tweak/1;rounds=1" if gid == "tweak" else game.rules_spec()))
    text = format_record(record)
    (loc,) = read_records(text)
    legal_now = []
    for state in replay_states(loc):
        if state.to_move is None:
            break
        legal_now.append({game.format_action(state, a) for a in state.legal_actions()})
    checked = 0
    for i, move in enumerate(record.moves):
        for cand in CANDIDATES[gid]:
            if cand in legal_now[i] or cand == move.text:
                continue
            moves = list(record.moves)
            moves[i] = Move(move.actor, cand)
            bad = format_record(Record(record.headers, moves))
            with pytest.raises(KifuError) as info:
                for located in read_records(bad, path="g.kifu"):
                    replay(located)
            message = str(info.value)
            header_lines = len(record.headers) + 1
            assert message.startswith(f"g.kifu:{header_lines + i + 1}:"), message
            assert f"ply {i + 1}: {move.actor} {cand!r}: " in message, message
            assert "[rule " in message and "\n" not in message
            checked += 1
    assert checked > len(record.moves)
