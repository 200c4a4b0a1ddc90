"""Resource bounds: hostile sizes are refused with a located error, never read whole or
turned into a hang (docs/notation.md, "Limits"). The tests assert the error, not the time."""

from __future__ import annotations

import io
from collections.abc import Iterator

import msgspec
import pytest

from kifu import games
from kifu.core.errors import KifuError, NotationError
from kifu.notation.files import read_stream
from kifu.notation.perftfile import parse_perft
from kifu.notation.reader import read_records
from kifu.notation.record import (
    MAX_ACTIONS,
    MAX_LINE,
    Move,
    Record,
    format_record,
    record_from_json,
    record_to_json,
)
from kifu.notation.replay import replay

HEAD = '[Game "tweak"]\n[Rules "tweak/1"]\n[Players "a, b"]\n\n'


def _million_actions() -> Iterator[str]:
    yield from HEAD.splitlines(keepends=True)
    for _ in range(1_000_000):
        yield "p0 R3\n"


def test_a_record_of_a_million_actions_is_refused_at_the_limit() -> None:
    lines = _million_actions()
    with pytest.raises(NotationError) as info:
        for _ in read_records(lines, path="big.kifu"):
            pass
    assert str(info.value).startswith(f"big.kifu:{4 + MAX_ACTIONS + 1}:1:")
    assert "at most" in str(info.value)
    assert next(lines) == "p0 R3\n", "the reader stopped at the limit, the rest is unread"


def test_a_json_record_of_a_million_actions_is_refused() -> None:
    rec = Record({"Game": "tweak"}, [Move("p0", "R3")] * 1_000_000)
    with pytest.raises(NotationError, match="at most 100000 actions"):
        record_from_json(record_to_json(rec), path="big.json")
    with pytest.raises(NotationError, match="at most 100000 actions"):
        format_record(rec)


def test_a_10_mb_line_is_refused_without_being_read_whole() -> None:
    data = HEAD.encode() + b"p0 " + b"R3" * 5_000_000 + b"\n"
    f = io.BytesIO(data)
    with pytest.raises(NotationError) as info:
        list(read_stream(f, "long.kifu"))
    assert str(info.value).startswith(f"long.kifu:5:{MAX_LINE + 1}: line longer than")
    assert f.tell() < 2 * MAX_LINE, "the line was read whole"
    assert len(str(info.value)) < 200, "the error quotes a bounded excerpt"


def test_a_line_that_never_ends_is_refused() -> None:
    class Zero(io.RawIOBase):  # /dev/zero
        def readable(self) -> bool:
            return True

        def readinto(self, b) -> int:
            b[:] = bytes(len(b))
            return len(b)

    with pytest.raises(NotationError, match="line longer than"):
        list(read_stream(io.BufferedReader(Zero()), "zero"))


def test_a_long_bad_token_is_quoted_as_a_bounded_excerpt() -> None:
    text = HEAD + "q" * 900_000 + " R3\n"
    with pytest.raises(NotationError) as info:
        list(read_records(text, path="t.kifu"))
    assert len(str(info.value)) < 200


def test_a_header_with_a_million_players() -> None:
    names = ", ".join(["a"] * 1_000_000)
    with pytest.raises(NotationError, match="line longer than"):
        list(read_records(f'[Game "tweak"]\n[Players "{names}"]\n', path="p.kifu"))
    rec = Record({"Game": "tweak", "Rules": "tweak/1", "Players": names})
    with pytest.raises(NotationError, match="Players: a header value may have at most"):
        record_from_json(record_to_json(rec), path="p.json", line=1)
    rec.headers["Players"] = ",".join(["a"] * 400_000)  # under the value limit
    with pytest.raises(NotationError) as info:
        for loc in read_stream(io.BytesIO(b"\n" + record_to_json(rec)), "p.json"):
            replay(loc)
    assert str(info.value).startswith("p.json:2:")
    assert "Players" in str(info.value) and "not 400000" in str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        HEAD + "d dealer p" + "1" * 18 + "\n",  # a seat number of 10^18
        HEAD + "p" + "1" * 19 + " R3\n",  # an actor of 10^18
        HEAD + "d dealer p" + "1" * 5000 + "\n",  # past int()'s 4,300-digit limit
    ],
)
def test_huge_numbers_in_records_are_located_errors(text: str) -> None:
    with pytest.raises(KifuError) as info:
        for loc in read_records(text, path="n.kifu"):
            replay(loc)
    assert str(info.value).startswith("n.kifu:5:")
    assert len(str(info.value)) < 1000  # a bounded excerpt, not 5,000 digits


def test_huge_numbers_elsewhere() -> None:
    big = "1" * 19
    tweak = games.get("tweak")
    with pytest.raises(KifuError, match="at most 18"):
        tweak.parse_rules(f"tweak/1;rounds={big}")
    with pytest.raises(KifuError):
        tweak.parse_rules("tweak/1;rounds=" + "9" * 5000)
    with pytest.raises(KifuError):
        tweak.parse_rules("tweak/1;rounds=١")  # an Arabic-Indic digit is not ASCII
    line = tweak.new_state(2).to_line()
    for bad in (line.replace("r0", f"r{big}"), line.replace("r0", "r" + "1" * 5000)):
        with pytest.raises(NotationError):
            tweak.from_line(bad)
    with pytest.raises(NotationError) as info:
        parse_perft(f"id x\nposition {line}\nperft 1 {'9' * 19}\n", path="p.perft")
    assert str(info.value).startswith("p.perft:3:")
    with pytest.raises(NotationError):
        parse_perft(f"id x\nposition {line}\nperft {big} 1\n", path="p.perft")


def test_a_ply_of_10_to_the_18_replays_what_there_is() -> None:
    (loc,) = read_records(HEAD + "d dealer p1\n", path="g.kifu")
    rep = replay(loc, upto=10**18, check_result=False)
    assert len(rep.actions) == 1


def test_json_document_size_is_bounded() -> None:
    from kifu.notation.files import MAX_JSON

    data = b"[" + b" " * (MAX_JSON + 10) + b"]"
    with pytest.raises(NotationError, match="longer than 33554432 bytes"):
        list(read_stream(io.BytesIO(data), "big.json"))
    data = b"[\n" + b" \n" * (MAX_JSON // 2) + b"]"
    with pytest.raises(NotationError, match="a JSON document may have at most"):
        list(read_stream(io.BytesIO(data), "big.json"))


def test_unicode_digits_are_not_numbers() -> None:
    graph_t = games.get("graph-t")
    state = graph_t.new_state(3)
    for text in ("R²", "lead p²", "lead p٣", "Y٣"):
        with pytest.raises(KifuError):
            graph_t.parse_action(state, text)
    tweak = games.get("tweak")
    for text in ("!ſ", "dealer\u3000p1", "dealer p٠", "Y٣"):
        with pytest.raises(KifuError):
            tweak.parse_action(tweak.new_state(2), text)
    with pytest.raises(NotationError):
        record_from_json(msgspec.json.encode(
            {"headers": {"Game": "tweak"}, "moves": [{"actor": "p٠", "text": "R3"}]}))
