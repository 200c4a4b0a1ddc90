"""``kifu games``, ``kifu schema`` and ``kifu perft``."""

from __future__ import annotations

import time

import click
import msgspec

from kifu import games
from kifu.bots import bot_descriptions, search_parameters
from kifu.cli.common import echo_json, handle_errors
from kifu.cli.options import non_negative
from kifu.core.errors import KifuError, NotationError
from kifu.core.game import perft


@click.command("games", short_help="List the games, their players, bots and rule variants.")
@click.option("--json", "as_json", is_flag=True, help="As JSON.")
@handle_errors
def games_cmd(as_json) -> None:
    """List the games kifu implements: players, default rules, bots, and each variant field
    (set with --set FIELD=VALUE or in a rules spec) with its default and meaning."""
    from kifu.core.variant import describe_fields

    rows = []
    for gid in games.ids():
        g = games.get(gid)
        rows.append({"id": g.id, "title": g.title, "players": [g.min_players, g.max_players],
                     "rules": g.rules_spec(), "bots": bot_descriptions(g),
                     "fields": [msgspec.structs.asdict(f) for f in describe_fields(g.Variant)]})
    if as_json:
        echo_json(rows)
        return
    table = [["GAME", "TITLE", "PLAYERS", "RULES", "BOTS"]] + [
        [r["id"], r["title"], "{}-{}".format(*r["players"]), r["rules"], ", ".join(r["bots"])]
        for r in rows]
    click.echo(_aligned(table))
    click.echo("\nVariant fields (kifu play GAME --set FIELD=VALUE, or in --rules):")
    for r in rows:
        click.echo(f"\n{r['id']}")
        fields = [[f"  {f['name']}", f["default"] or '""', f["meaning"]] for f in r["fields"]]
        click.echo(_aligned([["  FIELD", "DEFAULT", "MEANING"], *fields]))
    click.echo("\nThe searchers take parameters in their name, e.g. pimc:worlds=16 "
               "(each game's defaults in BOTS above; docs/bots.md):")
    for bot, params in search_parameters().items():
        for key, meaning in params.items():
            click.echo(f"  {bot}:{key}=  {meaning}")


def _aligned(rows: list[list[str]]) -> str:
    """Columns padded to their widest cell (the last column is not padded)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join("  ".join([*(c.ljust(w) for c, w in zip(row, widths, strict=False)),
                                row[-1]]).rstrip() for row in rows)


@click.command(short_help="Print the JSON Schema of a record, a puzzle or a report.")
@click.argument("kind", type=click.Choice(["record", "puzzle", "match", "simulate",
                                           "analysis"]), default="record")
def schema(kind) -> None:
    """Print the JSON Schema of a record (default), a puzzle, a match report, a simulation
    report or a line of an analysis (their JSON forms: kifu validate/replay --json, kifu
    puzzles, kifu match --json, kifu simulate --json, kifu analyze --json)."""
    import json

    if kind == "match":
        from kifu.lab.match import match_json_schema

        click.echo(json.dumps(match_json_schema(), indent=2))
        return
    if kind == "simulate":
        from kifu.lab.simulate import simulate_json_schema

        click.echo(json.dumps(simulate_json_schema(), indent=2))
        return
    if kind == "analysis":
        from kifu.lab.analyze import analysis_schema

        click.echo(json.dumps(analysis_schema(), indent=2))
        return
    if kind == "puzzle":
        from kifu.notation.puzzle import puzzle_json_schema

        click.echo(json.dumps(puzzle_json_schema(), indent=2))
        return
    from kifu.notation.record import json_schema

    click.echo(json.dumps(json_schema(), indent=2))


@click.command("perft", short_help="Count the leaves of the action tree below a position.")
@click.argument("game_name", metavar="GAME")
@click.argument("position", metavar="POSITION")
@click.option("-d", "--depth", type=int, default=3, show_default=True,
              callback=non_negative("--depth"), help="Plies below the position (0 or more).")
@click.option("--divide", is_flag=True, help="Count per first action.")
@click.option("--json", "as_json", is_flag=True)
@handle_errors
def perft_cmd(game_name, position, depth, divide, as_json) -> None:
    """Count the leaves of the action tree DEPTH plies below POSITION (a position line).

    Dealer actions are expanded; the last level is counted in bulk.
    """
    game = games.get(game_name)
    if divide and depth < 1:
        raise KifuError("--divide needs --depth 1 or more")
    try:
        state = game.from_line(position)
    except NotationError as e:
        raise e.at(path="POSITION") from None
    t0 = time.perf_counter()
    parts = {}
    if divide:
        for a in state.legal_actions():
            text = game.format_action(state, a)
            state.push(a)
            parts[text] = perft(state, depth - 1)
            state.pop()
        nodes = sum(parts.values())
    else:
        nodes = perft(state, depth)
    dt = time.perf_counter() - t0
    if as_json:
        echo_json({"depth": depth, "nodes": nodes, "seconds": dt, "divide": parts or None})
        return
    for text, count in parts.items():
        click.echo(f"{text}: {count}")
    click.echo(f"perft {depth}: {nodes} nodes in {dt:.3f}s ({nodes / max(dt, 1e-9):,.0f}/s)")
