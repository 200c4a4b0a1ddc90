"""The shared notation: records (headers + actions + comments) and position lines."""

from kifu.notation.reader import (
    SKIP,
    HeadersOnly,
    Located,
    RecordBuilder,
    Visitor,
    parse_record,
    parse_records,
    read_records,
)
from kifu.notation.record import (
    Move,
    Record,
    format_record,
    format_records,
    json_schema,
    record_from_json,
    record_to_json,
    records_from_json,
)

__all__ = [
    "SKIP",
    "HeadersOnly",
    "Located",
    "Move",
    "Record",
    "RecordBuilder",
    "Visitor",
    "format_record",
    "format_records",
    "json_schema",
    "parse_record",
    "parse_records",
    "read_records",
    "record_from_json",
    "record_to_json",
    "records_from_json",
]
