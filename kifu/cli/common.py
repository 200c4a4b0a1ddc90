"""What every command shares: one-line errors, JSON output, variant options. Reading record
files and writing outputs live in :mod:`kifu.notation.files`."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click
import msgspec

from kifu.core.errors import KifuError

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
        except BrokenPipeError:  # the reader went away (| head): stop quietly
            with contextlib.suppress(Exception):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())  # no second error when Python exits
            raise SystemExit(1) from None
        except OSError as e:
            why = e.strerror or str(e) or type(e).__name__
            raise CliError(f"{e.filename}: {why}" if e.filename is not None else why) from None

    return wrapper  # type: ignore[return-value]


def echo_json(obj: Any) -> None:
    import json  # here, not at start-up: most commands print no JSON

    click.echo(json.dumps(msgspec.to_builtins(obj), ensure_ascii=False, indent=2))


def parse_variant_options(game: Any, rules: str | None, sets: tuple[str, ...]) -> Any:
    """A variant from ``--rules SPEC`` and/or ``--set field=value`` options."""
    spec = rules or game.rules_spec()
    if sets:
        spec = ";".join([spec, *sets])
    return game.parse_rules(spec)
