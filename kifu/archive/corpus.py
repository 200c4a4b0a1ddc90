"""An archive as a corpus: simulated records in, the figures of ``kifu simulate`` out.

:func:`add_text` stores records given as text (``kifu simulate --db``); :func:`stats_by`
replays the stored records (their canonical text) and summarises them per rule set or per
line-up of players with :func:`kifu.lab.simulate.summarize`, the same figures a simulation
reports for one rule set, so a played corpus and a simulated one read side by side
(``kifu archive stats --by rules``).
"""

from __future__ import annotations

import io
from typing import Any

import msgspec

from kifu import games
from kifu.archive.rows import record_row
from kifu.archive.store import Archive, Filters, ImportStats, _select
from kifu.core.errors import KifuError
from kifu.lab.simulate import GameRow, MetricInfo, RuleSetSummary, metric_infos, row_of, summarize
from kifu.notation.files import read_stream
from kifu.notation.reader import parse_record
from kifu.notation.replay import FastReplayer

BY = ("rules", "players")
"""What :func:`stats_by` groups by."""


def add_text(archive: Archive, text: str, *, source: str) -> ImportStats:
    """Store every record of ``text`` (canonical notation); a record that does not replay
    is an error (these are records kifu wrote), and nothing of it is stored."""
    return archive.add_rows(text_rows(text, source=source))


def text_rows(text: str, *, source: str) -> list[Any]:
    """The archive rows of every record of ``text`` (what :func:`add_text` stores; built
    first, so that they can be stored later in one transaction: ``kifu simulate --db``)."""
    replayer = FastReplayer()
    rows = []
    for index, loc in enumerate(read_stream(io.BytesIO(text.encode("utf-8")), source,
                                            keep_text=True), 1):
        row = record_row(replayer, loc, index)
        if isinstance(row, dict):
            raise KifuError(row.get("error", f"{source}: record {index} is invalid"))
        rows.append(row)
    return rows


class Group(msgspec.Struct, frozen=True):
    """The records of one game, player count and rule set (and, by players, one line-up
    of names in seat order), summarised."""

    game: str
    players: int
    rules: str
    lineup: str | None
    metrics: list[MetricInfo]
    summary: RuleSetSummary


def stats_by(archive: Archive, by: str, filters: Filters | None = None) -> list[Group]:
    """Every group of records (``by="rules"``: game, player count and ``Rules``; ``by=
    "players"``: also the ``Players`` tag), in the order each group first appears, each
    replayed and summarised as one rule set of a simulation. Record ids stand in for seeds
    (nothing is paired)."""
    if by not in BY:
        raise KifuError(f"--by {by!r}: expected one of {', '.join(BY)}")
    sql, params = _select(filters or Filters(),
                          "r.id, r.game, r.nplayers, r.rules, r.players, r.text")
    replayer = FastReplayer()
    groups: dict[tuple[Any, ...], list[GameRow]] = {}
    for rid, game_id, n, rules, players, text in archive.db.execute(sql, params):
        key = (game_id, n, rules, players if by == "players" else None)
        state = replayer.play(parse_record(text))
        groups.setdefault(key, []).append(row_of(games.get(game_id), state, rid))
    return [Group(g, n, rules, lineup, metric_infos(g, n), summarize(g, n, rules, rows))
            for (g, n, rules, lineup), rows in groups.items()]

