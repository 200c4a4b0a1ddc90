"""What every command shares: reading record files, writing output safely, errors."""

from __future__ import annotations

import functools
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click
import msgspec

from kifu.core.errors import KifuError, NotationError
from kifu.notation.reader import Located, read_records
from kifu.notation.record import records_from_json

F = TypeVar("F", bound=Callable[..., Any])


class CliError(click.ClickException):
    """A located one-line error, printed as is on stderr, exit code 1."""

    exit_code = 1

    def show(self, file: Any = None) -> None:
        click.echo(self.message, err=True)


def handle_errors(func: F) -> F:
    """Turn kifu's errors (and unreadable files) into a one-line message and exit code 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except KifuError as e:
            raise CliError(str(e)) from None
        except OSError as e:
            name = e.filename if e.filename is not None else ""
            raise CliError(f"{name}: {e.strerror or e}") from None

    return wrapper  # type: ignore[return-value]


def display_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


def read_text(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def is_json(text: str) -> bool:
    """JSON starts with ``{`` or ``[{``; a text record starts with ``[Tag``."""
    s = text.lstrip()
    if s.startswith("{"):
        return True
    return s.startswith("[") and s[1:].lstrip()[:1] in ("{", "]")


def load_records(path: str) -> Iterator[Located]:
    """The records of a file (``-`` for stdin), text or JSON, with their locations."""
    name = display_name(path)
    if path != "-" and not is_json_path(path):
        with open(path, encoding="utf-8") as f:
            head = f.read(1024)
            if not is_json(head):
                f.seek(0)
                yield from read_records(f, path=name)
                return
    text = read_text(path)
    if not is_json(text):
        yield from read_records(text, path=name)
        return
    try:
        records = records_from_json(text)
    except (msgspec.DecodeError, msgspec.ValidationError) as e:
        raise NotationError(f"bad JSON record: {e}", path=name) from None
    for r in records:
        yield Located(r, name, 0, [], {})


def is_json_path(path: str) -> bool:
    return path.endswith((".json", ".ndjson"))


def write_output(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (``-`` = stdout) atomically: a failure never leaves a half
    written file, and an existing file is replaced only once the new one is complete."""
    if path == "-":
        click.echo(text, nl=False)
        return
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".kifu-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def echo_json(obj: Any) -> None:
    click.echo(json.dumps(msgspec.to_builtins(obj), ensure_ascii=False, indent=2))


def parse_variant_options(game: Any, rules: str | None, sets: tuple[str, ...]) -> Any:
    """A variant from ``--rules SPEC`` and/or ``--set field=value`` options."""
    spec = rules or game.rules_spec()
    if sets:
        spec = ";".join([spec, *sets])
    return game.parse_rules(spec)
