"""What every command shares: one-line errors, JSON output, variant options. Reading record
files and writing outputs live in :mod:`kifu.notation.files`."""

from __future__ import annotations

import functools
import math
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


PATH_METAVARS = ("FILE", "PATH", "ARCHIVE", "DIR")
"""Options and arguments whose value names a file (by their metavar's first word)."""

PATH_NAMES = ("output", "db", "html", "store", "cards", "resume", "directory", "files",
              "paths", "file")
"""... or by their name (an ``-o`` without a metavar)."""


def refuse_empty_paths(ctx: click.Context | None = None) -> None:
    """An empty file name (``--db ''``, ``-o ''``, ``validate ''``) is a mistake, never the
    current folder or a default file: refused in one line naming the option."""
    ctx = ctx or click.get_current_context(silent=True)
    if ctx is None:
        return
    for param in ctx.command.params:
        metavar = (param.metavar or "").split("|")[0].rstrip(".").strip("[]")
        if metavar not in PATH_METAVARS and param.name not in PATH_NAMES:
            continue
        value = ctx.params.get(param.name or "")
        if value == "" or (isinstance(value, (tuple, list)) and "" in value):
            name = max(param.opts, key=len) if isinstance(param, click.Option) else \
                (param.metavar or param.name or "FILE")
            raise CliError(f"{name}: the file name is empty")


def refuse_non_finite(ctx: click.Context | None = None) -> None:
    """A number option that is NaN or infinite (``--budget-seconds nan``) would turn a
    limit off or make no sense: refused in one line naming the option, for every option."""
    ctx = ctx or click.get_current_context(silent=True)
    if ctx is None:
        return
    for param in ctx.command.params:
        value = ctx.params.get(param.name or "")
        values = value if isinstance(value, (tuple, list)) else (value,)
        if any(isinstance(v, float) and not math.isfinite(v) for v in values):
            name = max(param.opts, key=len) if param.opts else param.name
            raise CliError(f"{name}: not a finite number ({value!r})")


def handle_errors(func: F) -> F:
    """Run a command in its :func:`kifu.core.command.command_scope` (its outputs replaced
    together at its end, none of them when it fails or is stopped by Ctrl-C, SIGTERM or
    SIGHUP) and turn kifu's errors (and unreadable files) into a one-line message and exit
    code 1; SIGTERM and SIGHUP end it with 128 + the signal's number, as a shell counts
    them."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from kifu.core.command import Terminated, command_scope, reader_gone

        try:
            refuse_empty_paths()
            refuse_non_finite()
            with command_scope():
                return func(*args, **kwargs)
        except Terminated as e:
            click.echo(f"stopped by {e.args[0]}", err=True)
            raise SystemExit(128 + e.signum) from None
        except KifuError as e:
            raise CliError(str(e)) from None
        except BrokenPipeError:  # the reader went away (| head): stop quietly
            reader_gone()
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
