"""A large archive made cheaply (the export tests and ``benchmarks/test_archive_export.py``):
the fixtures imported once, then their rows copied in SQL until the archive holds ``n``
records. Each copy gets a new hash (the unique index holds) and keeps its text, so every
record still replays; nothing is validated again, which is what makes it cheap."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from kifu import games
from kifu.archive import Archive

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures"


def fixture_paths() -> list[str]:
    """Every game's fixture records and the puzzle fixtures."""
    return ([str(p) for g in games.ids() for p in sorted((FIX / g).glob("*.kifu"))]
            + [str(FIX / "puzzles")])


def grown_archive(path: str, n: int, *, batch: int = 5000) -> int:
    """An archive at ``path`` of the fixtures, copied until it holds ``n`` records (or the
    fixtures alone when they are more); returns the number of records."""
    with Archive(path) as a:
        a.import_paths(fixture_paths())
    conn = sqlite3.connect(path)
    try:
        cols = ("hash, game, rules, players, nplayers, date, result, winner, plies, tags, "
                "comments, text, source, winner_seats")
        base = conn.execute(f"SELECT id, {cols} FROM records ORDER BY id").fetchall()
        seats: dict[int, list[tuple]] = {}
        for rid, name, seat, score, rank, won, turn in conn.execute(
                "SELECT record_id, name, seat, score, rank, won, turn FROM record_players"):
            seats.setdefault(rid, []).append((name, seat, score, rank, won, turn))
        have = len(base)
        next_id = max(r[0] for r in base) + 1
        copy = 0
        conn.execute("BEGIN")
        while have < n:
            copy += 1
            rows, players = [], []
            for r in base:
                if have >= n or len(rows) >= batch:
                    break
                rows.append((next_id, f"{r[1]}-{copy}", *r[2:]))
                players += [(next_id, *s) for s in seats.get(r[0], ())]
                next_id += 1
                have += 1
            conn.executemany(f"INSERT INTO records (id, {cols}) VALUES "
                             f"({', '.join('?' * 15)})", rows)
            conn.executemany("INSERT INTO record_players (record_id, name, seat, score, rank, "
                             "won, turn) VALUES (?, ?, ?, ?, ?, ?, ?)", players)
        conn.execute("COMMIT")
    finally:
        conn.close()
    return max(have, len(base))
