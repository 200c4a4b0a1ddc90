"""Game records: headers plus a list of actions, each with its actor, and comments.

The canonical text of a record (``format_record``) is::

    [Game "tweak"]
    [Rules "tweak/1"]
    [Players "Ann, Bob, Cy"]
    [Date "2026.11.22"]
    [Result "41 30 12"]

    {an optional comment on the whole record}
    d dealer p2
    d deal R1O3Y2... !T!J...
    p0 R3xO1Y2 {a comment on this action}

The grammar is in ``docs/notation.md``. The JSON form is the msgspec encoding of
:class:`Record`, with a JSON Schema from :func:`json_schema`.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any

import msgspec

ROSTER = ("Game", "Rules", "Players", "Date", "Result")
"""The tags every record has, written first and in this order."""

HEADER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
ACTOR = re.compile(r"(?:d|p(?:0|[1-9][0-9]*))\Z")
UNFINISHED = "*"


class Move(msgspec.Struct, frozen=True, omit_defaults=True):
    """One action of a record: its actor (``d``, ``p0``..), its text, an optional comment."""

    actor: str
    text: str
    comment: str | None = None


class Record(msgspec.Struct, omit_defaults=True):
    """A game record. ``headers`` keeps the tag order of the source."""

    headers: dict[str, str]
    moves: list[Move] = msgspec.field(default_factory=list)
    comment: str | None = None

    @property
    def game(self) -> str:
        return self.headers.get("Game", "")

    @property
    def rules(self) -> str:
        return self.headers.get("Rules", "")

    @property
    def players(self) -> list[str]:
        return split_players(self.headers.get("Players", ""))

    def to_text(self) -> str:
        return format_record(self)

    def content_hash(self) -> str:
        """SHA-256 of the canonical text: the record's identity in an archive."""
        return hashlib.sha256(format_record(self).encode("utf-8")).hexdigest()


def split_players(value: str) -> list[str]:
    """The names of a ``Players`` tag (comma-separated; the count is the number of seats)."""
    if not value.strip():
        return []
    return [p.strip() for p in value.split(",")]


def join_players(names: Iterable[str]) -> str:
    return ", ".join(names)


def escape_value(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _check_comment(text: str) -> None:
    if "}" in text or "{" in text:
        raise ValueError(f"a comment may not contain braces: {text!r}")
    if not text or text != " ".join(text.split()):
        raise ValueError(f"a comment must be non-empty words with single spaces: {text!r}")


def format_record(record: Record) -> str:
    """The canonical text of ``record`` (ends with a newline)."""
    out = []
    headers = record.headers
    names = [k for k in ROSTER if k in headers] + [k for k in headers if k not in ROSTER]
    for name in names:
        if not HEADER_NAME.match(name):
            raise ValueError(f"bad header name {name!r}")
        value = headers[name]
        if "\n" in value or "\r" in value:
            raise ValueError(f"header {name} spans lines")
        out.append(f'[{name} "{escape_value(value)}"]')
    out.append("")
    if record.comment is not None:
        _check_comment(record.comment)
        out.append("{" + record.comment + "}")
    for m in record.moves:
        if not ACTOR.match(m.actor):
            raise ValueError(f"bad actor {m.actor!r}")
        text = m.text
        if not text or text != " ".join(text.split()) or "{" in text or "}" in text:
            raise ValueError(f"action text must be single-spaced tokens: {text!r}")
        if m.comment is None:
            out.append(f"{m.actor} {text}")
        else:
            _check_comment(m.comment)
            out.append(f"{m.actor} {text} {{{m.comment}}}")
    return "\n".join(out) + "\n"


def format_records(records: Iterable[Record]) -> str:
    """Several records, separated by one blank line."""
    return "\n".join(format_record(r) for r in records)


# --- JSON ---------------------------------------------------------------------------------

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(Record)
_list_decoder = msgspec.json.Decoder(list[Record])


def record_to_json(record: Record) -> bytes:
    return _encoder.encode(record)


def record_from_json(data: bytes | str) -> Record:
    """Decode one record (raises ``msgspec.ValidationError`` / ``DecodeError``)."""
    return _decoder.decode(data)


def records_from_json(data: bytes | str) -> list[Record]:
    """A JSON document holding one record or a list of records, or JSON lines (one record
    a line, as ``kifu play --json`` writes)."""
    text = data if isinstance(data, str) else data.decode("utf-8")
    if text.lstrip().startswith("["):
        return _list_decoder.decode(text)
    lines = [line for line in text.split("\n") if line.strip()]
    if len(lines) > 1 and all(line.lstrip().startswith("{") for line in lines):
        return [_decoder.decode(line) for line in lines]
    return [_decoder.decode(text)]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a record (``kifu schema``)."""
    return msgspec.json.schema(Record)
