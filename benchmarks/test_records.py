"""Record notation: parse and format, text and JSON, on a corpus of 200 typical single-round
3-player TWEAK records (greedy bots, seeds 0..199, ~28 actions and ~460 bytes each; built by
the ``tweak_corpus`` fixture). The issue's target: parsing >= 20,000 records/s."""

from __future__ import annotations

from kifu.notation.reader import HeadersOnly, read_records
from kifu.notation.record import format_records, record_to_json, records_from_json
from kifu.notation.replay import replay

from .conftest import load_game, per_second


def _sizes(corpus, text: bool = True) -> dict[str, float]:
    records, txt, json = corpus
    size = len(txt.encode("utf-8")) if text else len(json)
    return {"records": len(records), "MB": size / 1e6}


def test_parse_text(benchmark, tweak_corpus) -> None:
    load_game("tweak")
    records, text, _ = tweak_corpus
    benchmark.group = "records: text"
    located = benchmark(lambda: list(read_records(text)))
    assert [loc.record for loc in located] == records
    per_second(benchmark, **_sizes(tweak_corpus))


def test_parse_text_headers_only(benchmark, tweak_corpus) -> None:
    records, text, _ = tweak_corpus
    benchmark.group = "records: text"
    headers = benchmark(lambda: list(read_records(text, visitor=HeadersOnly)))
    assert len(headers) == len(records)
    per_second(benchmark, **_sizes(tweak_corpus))


def test_format_text(benchmark, tweak_corpus) -> None:
    records, text, _ = tweak_corpus
    benchmark.group = "records: text"
    assert benchmark(format_records, records) == text
    per_second(benchmark, **_sizes(tweak_corpus))


def test_parse_and_replay(benchmark, tweak_corpus) -> None:
    """Parse, then replay every action through the engine (legality checked): what
    ``kifu validate`` does."""
    load_game("tweak")
    text = tweak_corpus[1]

    def run() -> int:
        return sum(len(replay(loc).state.history) for loc in read_records(text))

    benchmark.group = "records: text"
    plies = benchmark.pedantic(run, rounds=5, warmup_rounds=1)
    per_second(benchmark, plies=plies, **_sizes(tweak_corpus))


def test_parse_json(benchmark, tweak_corpus) -> None:
    records, _, json = tweak_corpus
    benchmark.group = "records: JSON"
    assert benchmark(records_from_json, json) == records
    per_second(benchmark, **_sizes(tweak_corpus, text=False))


def test_format_json(benchmark, tweak_corpus) -> None:
    records, _, json = tweak_corpus
    benchmark.group = "records: JSON"

    def run() -> bytes:
        return b"[" + b",".join([record_to_json(r) for r in records]) + b"]"

    assert benchmark(run) == json
    per_second(benchmark, **_sizes(tweak_corpus, text=False))
