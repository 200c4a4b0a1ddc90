"""Markdown tables of ``kifu match --json`` reports (the ladders of docs/bots.md).

    python tools/ladder_table.py docs/bots/*.json

Prints, for each report, its settings, the per-bot figures and the head-to-head lines, so
the tables in docs/bots.md can be checked against the raw JSON kept beside them.
"""

from __future__ import annotations

import json
import sys


def fig(f: dict, digits: int, sign: bool = False) -> str:
    if f["estimate"] is None:
        return "-"
    fmt = f"{{:{'+' if sign else ''}.{digits}f}}"
    if f["low"] is None:
        return fmt.format(f["estimate"])
    return f"{fmt.format(f['estimate'])} [{fmt.format(f['low'])}, {fmt.format(f['high'])}]"


def table(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        r = json.load(fh)
    out = [f"`{path}`: `{r['rules']}`, {r['players']} players, {r['deals']} deals x "
           f"{len(r['seatings'])} seatings = {r['games']} games, seed {r['seed']}", "",
           "| bot | games | mean rank | win rate | mean score | Elo |",
           "|---|---|---|---|---|---|"]
    for b in r["by_bot"]:
        out.append(f"| `{b['bot']}` | {b['games']} | {fig(b['mean_rank'], 3)} | "
                   f"{fig(b['win_rate'], 3)} | {fig(b['mean_score'], 2)} | "
                   f"{fig(b['elo'], 0, True)} |")
    out += ["", "| head to head | comparisons | share won by the first | Elo difference |",
            "|---|---|---|---|"]
    for p in r["pairs"]:
        out.append(f"| `{p['a']}` vs `{p['b']}` | {p['comparisons']} | {fig(p['score'], 3)} | "
                   f"{fig(p['elo'], 0, True)} |")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print("\n".join(table(p) for p in sys.argv[1:]))
