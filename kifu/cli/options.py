"""Options several commands share (the sqlite-utils habit: one decorator, one check).

Each check turns bad input into a one-line :class:`~kifu.cli.common.CliError` (exit code 1)
instead of click's multi-line usage error, as every other kind of bad input is reported.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any, TypeVar

import click

from kifu.cli.common import CliError
from kifu.core.variant import short

F = TypeVar("F", bound=Callable[..., Any])

_INT = re.compile(r"-?[0-9]+\Z")
_DATE = re.compile(r"([0-9]{4}|\?{4})\.([0-9]{2}|\?\?)\.([0-9]{2}|\?\?)\Z")
MAX_SEED_DIGITS = 40
MAX_SEED_TEXT = 200


def parse_seed(text: str) -> int | str:
    """A seed: a plain ASCII integer (``7``, ``-3``) or a text without control characters.

    Text that looks like a number but is not a plain ASCII integer (``²``, ``--5``, ``+5``,
    ``٣``) is refused rather than hashed as text, since it is almost surely a mistake.

    >>> parse_seed("7"), parse_seed("tuesday club")
    (7, 'tuesday club')
    """
    if _INT.match(text):
        if len(text.lstrip("-")) > MAX_SEED_DIGITS:
            raise CliError(f"--seed: an integer seed has at most {MAX_SEED_DIGITS} digits")
        return int(text)
    if not text:
        raise CliError("--seed: the seed is empty")
    if len(text) > MAX_SEED_TEXT:
        raise CliError(f"--seed: a text seed has at most {MAX_SEED_TEXT} characters")
    bad = next((c for c in text if unicodedata.category(c)[0] == "C"), None)
    if bad is not None:
        raise CliError(f"--seed: the seed may not contain the control character {bad!r}")
    if text[0] in "+-" or all(c.isnumeric() for c in text):
        raise CliError(f"--seed: {short(text)} is not a plain ASCII integer (0-9, an optional "
                       "leading -); give an integer or a text seed")
    return text


def parse_date(text: str) -> str:
    """A ``Date`` tag: ``YYYY.MM.DD``, with ``??`` for an unknown part (``2026.??.??``)."""
    m = _DATE.match(text)
    if not m:
        raise CliError(f"--date: {short(text)} is not YYYY.MM.DD (or ????.??.?? when unknown)")
    _year, month, day = m.groups()
    if month != "??" and not 1 <= int(month) <= 12:
        raise CliError(f"--date: there is no month {month}")
    if day != "??" and not 1 <= int(day) <= 31:
        raise CliError(f"--date: there is no day {day}")
    return text


def seed_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    return None if value is None else parse_seed(value)


def date_callback(ctx: click.Context, param: click.Parameter, value: str | None) -> Any:
    return None if value is None else parse_date(value)


def variant_options(func: F) -> F:
    """``--rules SPEC`` and ``--set FIELD=VALUE`` (repeatable)."""
    func = click.option("--set", "sets", multiple=True, metavar="FIELD=VALUE",
                        help="Change one variant field (repeatable), e.g. --set rounds=1.")(func)
    return click.option("--rules", default=None, metavar="SPEC",
                        help="A rules spec, e.g. 'tweak/1;rounds=1'.")(func)


def _at_least(name: str, low: int,
              words: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A callback refusing values below ``low``: "``name`` must be ``words``"."""

    def check(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        if value is not None and value < low:
            raise CliError(f"{name} must be {words}, not {value}")
        return value

    return check


def positive(name: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A callback refusing values below 1 (``--games 0``)."""
    return _at_least(name, 1, "at least 1")


def seconds_callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Refuse NaN, which passes a ``click.FloatRange`` and would turn a time limit off."""
    if value is not None and value != value:
        raise CliError(f"{param.opts[-1] if param.opts else 'seconds'}: not a number of "
                       "seconds")
    return value


def non_negative(name: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A callback refusing negative values (``perft --depth -1``)."""
    return _at_least(name, 0, "0 or more")


INPUTS = "kifu.inputs"
"""``ctx.meta`` key: the files an option read (``--cards``), which no output may replace."""


def option_inputs(ctx: click.Context | None = None) -> list[str]:
    """The files the options of the running command read (see :data:`INPUTS`)."""
    ctx = ctx or click.get_current_context(silent=True)
    return list(ctx.meta.get(INPUTS, ())) if ctx is not None else []


_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*([kmgt]?)(?:i?b)?\Z", re.IGNORECASE)


def parse_size(text: str) -> int:
    """A memory size: bytes, or with a unit K, M, G, T (powers of 1024; ``KB``, ``MiB``
    alike).

    >>> parse_size("512M"), parse_size("1.5G"), parse_size("4096")
    (536870912, 1610612736, 4096)
    """
    m = _SIZE.match(text.strip()) if len(text) <= 40 else None  # 400 digits: no float
    if not m:
        raise CliError(f"--max-memory: not a size: {text[:40]!r} (e.g. 512M, 2G)")
    size = int(float(m.group(1)) * 1024 ** " kmgt".index(m.group(2).lower() or " "))
    if size < 1:
        raise CliError(f"--max-memory: the size must be at least one byte, not {text!r}")
    return size


def max_memory_option(func: F) -> F:
    """``--max-memory SIZE``: the memory a puzzle search may take (its tables are sized
    for it; default 1G)."""
    from kifu.puzzles.base import DEFAULT_MEMORY

    return click.option(
        "--max-memory", "max_memory", metavar="SIZE", default=str(DEFAULT_MEMORY),
        callback=lambda ctx, param, value: parse_size(value),
        help="The memory a search may take, e.g. 512M, 4G (default 1G); past it the "
             "answer is 'unknown'.")(func)


def _load_cards(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """Load and register an Alice card-set file; its set's name (or None)."""
    if value is None:
        return None
    if ctx is not None:
        ctx.meta.setdefault(INPUTS, []).append(value)
    from kifu import games
    from kifu.core.errors import KifuError

    try:
        variant = games.get("alice").variant_with_cards(value)  # type: ignore[attr-defined]
    except KifuError as e:
        raise CliError(str(e)) from None
    except OSError as e:
        raise CliError(f"{value}: {e.strerror or e}") from None
    # worker processes (spawned, or Dask workers elsewhere) must know the set too
    from kifu.core.executor import add_worker_setup
    from kifu.games.alice.cards import card_set, register

    add_worker_setup(register, card_set(variant.cards))
    return variant.cards


def cards_option(*, use: bool) -> Callable[[F], F]:
    """``--cards FILE``: an Alice card set (docs/rules/alice.md), loaded and checked before
    anything else. With ``use`` the command gets the set's name (to play with it); without,
    the set is only registered, so records and positions that name it can be read."""
    help_text = (
        "Alice: play with the card set in FILE (its name goes into the Rules header)."
        if use else "Alice: load the card set in FILE first, so records naming it can be read."
    )
    return click.option("--cards", "cards", metavar="FILE", default=None, callback=_load_cards,
                        expose_value=use, is_eager=True, help=help_text)


def with_cards(game: Any, variant: Any, cards: str | None) -> Any:
    """``variant`` playing with the card set ``cards`` (from :func:`cards_option`)."""
    if cards is None:
        return variant
    if game.id != "alice":
        raise CliError(f"--cards is for alice, not {game.id}")
    import msgspec

    return msgspec.structs.replace(variant, cards=cards)


def output_option(help_text: str) -> Callable[[F], F]:
    """``-o/--output FILE`` with no default (the command gets ``output``, None when not
    given)."""
    return click.option("-o", "--output", default=None, metavar="FILE", help=help_text)


def quiet_option(help_text: str = "No progress bar and no summary: errors only.",
                 *, old: tuple[str, ...] = ()) -> Callable[[F], F]:
    """``-q/--quiet`` (every command that prints a progress bar or a summary has it), and
    ``old`` spellings kept as hidden aliases (``play --silent``). The command gets a
    ``quiet`` keyword argument."""

    def alias(ctx: click.Context, param: click.Parameter, value: bool) -> None:
        if value:
            ctx.meta["kifu.quiet"] = True
            if "quiet" in ctx.params:
                ctx.params["quiet"] = True

    def merge(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
        return bool(value or ctx.meta.get("kifu.quiet"))

    def decorate(func: F) -> F:
        for name in old:
            func = click.option(name, is_flag=True, hidden=True, expose_value=False,
                                callback=alias)(func)
        return click.option("-q", "--quiet", "quiet", is_flag=True, callback=merge,
                            help=help_text)(func)

    return decorate


class QuestionCommand(click.Command):
    """A command with ``--question/-Q`` and ``-q/--quiet``: ``-q`` was the question's short
    option before it meant ``--quiet`` everywhere, so a usage error in a command line that
    has ``-q`` says so."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        had_q = "-q" in args
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as e:
            if had_q:
                e.message += " (-q is --quiet; give the question with --question or -Q)"
            raise
