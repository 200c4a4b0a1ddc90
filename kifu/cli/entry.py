"""The ``kifu`` executable's entry point: the outputs that depend on nothing but kifu itself,
printed without importing click.

``kifu --help`` is what people type first and what scripts call to probe for kifu, and
``kifu games`` what they type next; through click, the command table and (for ``games``)
every engine, they cost about 2.4 and 4 times a bare ``python -c pass`` (click alone is
about 2.1 times). Their text depends only on the code: the command table
(:data:`kifu.cli.main.COMMANDS`), the group's docstring, the registered games, their bots
and variant fields. So it is kept rendered in :mod:`kifu.cli._rendered` and printed as is
for exactly these argument lists (:data:`RENDERED`):

- ``--help`` / ``-h``, when the output is at least click's full width (80 columns, the
  width a pipe gets): narrower terminals get click's wrapping;
- ``games`` and ``games --json``, whose tables are never wrapped.

Anything else, and a stream that cannot hold the text in its encoding, goes to click.
``tests/test_entry.py`` renders each output with click and fails if
:mod:`kifu.cli._rendered` differs (``python -m kifu.cli.entry --write`` rewrites it), so
the copies cannot drift from what click prints.
"""

from __future__ import annotations

import sys

RENDERED: dict[tuple[str, ...], str] = {
    ("--help",): "HELP", ("-h",): "HELP",
    ("games",): "GAMES", ("games", "--json"): "GAMES_JSON",
}
"""The argument lists printed from a rendered copy: the name of the copy in
:mod:`kifu.cli._rendered`."""

WIDTH = 80
"""click's widest help (``HelpFormatter``'s ``max_width``): a terminal (or a pipe, which
counts as 80) of at least this many columns gets text WIDTH - 2 wide, always the same."""


def _columns() -> int:
    import shutil

    return shutil.get_terminal_size().columns


def render(args: list[str]) -> str:
    """What click prints for ``kifu ARGS`` at full width."""
    from click.testing import CliRunner

    from kifu.cli.main import cli

    result = CliRunner().invoke(cli, args, prog_name="kifu", terminal_width=WIDTH - 2)
    assert result.exit_code == 0, result.output
    return result.output


def render_help() -> str:
    """``kifu --help`` as click renders it at full width."""
    return render(["--help"])


def _copy(args: list[str]) -> str | None:
    name = RENDERED.get(tuple(args))
    if name is None or (name == "HELP" and _columns() < WIDTH):
        return None
    from kifu.cli import _rendered

    return getattr(_rendered, name)


def main() -> None:
    text = _copy(sys.argv[1:])
    if text is not None:
        try:  # a stream that cannot hold the text (PYTHONIOENCODING=ascii): click copes
            data = text.encode(sys.stdout.encoding or "utf-8")
            out = sys.stdout.buffer
        except (UnicodeEncodeError, LookupError, AttributeError):
            pass
        else:
            out.write(data)
            out.flush()
            return
    from kifu.cli.main import main as click_main

    click_main()


def write_rendered() -> None:
    """Rewrite :mod:`kifu.cli._rendered` from what click prints now."""
    from pathlib import Path

    copies: dict[str, str] = {}
    for args, name in RENDERED.items():
        copies.setdefault(name, render(list(args)))
    parts = ['# ruff: noqa: E501\n'
             '"""What click prints for the argument lists of :data:`kifu.cli.entry.RENDERED`,\n'
             'written by ``python -m kifu.cli.entry --write``; do not edit."""\n']
    for name, text in copies.items():
        lines = "".join(f"    {line!r}\n" for line in text.splitlines(keepends=True))
        parts.append(f"{name} = (\n{lines})\n")
    path = Path(__file__).with_name("_rendered.py")
    path.write_text("\n".join(parts), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write_rendered()
    else:
        main()
