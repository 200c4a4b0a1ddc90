"""TWEAK's root disagreements between the fair ``expert`` and its cheater, split by the
cheater's reason: the hands or the deck's order (issue 33, eighth session).

Reads the rows ``tools/tweak_disagree.py --out`` writes (``--versus cheater``: the
cheater's action x against ``expert``'s e at every decision of seat 0 with a choice, the
hands rung's choice beside them, each disagreement valued four ways) and splits the
disagreements two ways:

- *by the hands rung's choice* (``expert:cheat=hands``: every hand seen, the deck's order
  drawn again): it chooses as the cheater -> **hands** (seeing the hands is enough to
  leave ``expert``'s choice); as ``expert`` -> **deck's order** (seeing the hands is not);
  a third action -> **neither**. The hands rung decides from its own sampled deck orders,
  so a row's class is itself a draw.
- *by the hands value* (all-seeing but the deck: the true hands, the deck's order drawn
  again in each of 96 rollouts, x - e): above 0 -> **hands**, else **deck's order**.

For each part: the disagreements, the play-on value x - e (the game played on from each
action by the fair bot, 4 times with common seeds) with its 95% interval over
disagreements, the all-seeing value, the hands value, the fair estimate, the play-on summed
a game, and the decision kinds. Prints markdown, writes JSON with ``--out``::

    python tools/tweak_disagree_split.py docs/bots/i33-tw-r-diag-a.json ... --out split.json
"""

from __future__ import annotations

import argparse
import json
import os
from collections import Counter

import numpy as np

from kifu.lab.stats import bootstrap_means

KEYS = ("playon", "seeing", "hands_value", "fair")


def diff(row: dict, key: str) -> float:
    """x - e of one value of a disagreement (play-on: the mean over its play-ons)."""
    v = row[key]
    if key == "playon":
        return float(np.mean(v[0]) - np.mean(v[1]))
    return float(v[0] - v[1])


def interval(xs: list[float]) -> dict:
    """The mean and its 95% percentile-bootstrap interval (a single value: no interval)."""
    if not xs:
        return {"estimate": None, "low": None, "high": None}
    if len(xs) < 2:
        return {"estimate": xs[0], "low": None, "high": None}
    iv = bootstrap_means(np.array(xs, dtype=float)[:, None])[0]
    return {"estimate": float(iv.estimate), "low": float(iv.low), "high": float(iv.high)}


def by_hands_rung(row: dict) -> str:
    if row["hands"] == row["cheater"]:
        return "hands"
    if row["hands"] == row["expert"]:
        return "deck's order"
    return "neither"


def by_hands_value(row: dict) -> str:
    return "hands" if diff(row, "hands_value") > 0 else "deck's order"


def split(rows: list[dict]) -> dict:
    games = len({(r.get("file"), r["game"]) for r in rows})
    dis = [r for r in rows if "class" in r]
    out: dict = {"games": games, "decisions": len(rows), "disagreements": len(dis),
                 "splits": {}}
    for name, rule in (("by the hands rung's choice", by_hands_rung),
                       ("by the hands value", by_hands_value)):
        parts: dict = {}
        for part in ("hands", "deck's order", "neither", "all"):
            rs = dis if part == "all" else [r for r in dis if rule(r) == part]
            if not rs and part == "neither":
                continue
            entry = {"n": len(rs)}
            for key in KEYS:
                entry[key] = interval([diff(r, key) for r in rs])
            entry["playon_a_game"] = sum(diff(r, "playon") for r in rs) / max(games, 1)
            entry["kinds"] = dict(Counter(r["kind"] for r in rs))
            entry["classes"] = dict(Counter(r["class"] for r in rs).most_common())
            parts[part] = entry
        out["splits"][name] = parts
    return out


def _fmt(iv: dict) -> str:
    if iv["estimate"] is None:
        return "-"
    if iv["low"] is None:
        return f"{iv['estimate']:+.3f}"
    return f"{iv['estimate']:+.3f} [{iv['low']:+.3f}, {iv['high']:+.3f}]"


def report(res: dict) -> str:
    lines = [f"{res['games']} games, {res['decisions']} decisions with a choice, "
             f"{res['disagreements']} disagreements (the cheater's action x vs expert's e)"]
    for name, parts in res["splits"].items():
        lines += ["", f"Split {name}:", "",
                  "| reason | n | play-on, x - e [95%] | all-seeing, x - e | hands, x - e | "
                  "fair estimate, x - e | play-on summed, a game | at a T! turn start |",
                  "|---|---|---|---|---|---|---|---|"]
        for part, e in parts.items():
            t = e["kinds"].get("turn start, a T! card usable", 0)
            lines.append(f"| {part} | {e['n']} | {_fmt(e['playon'])} | {_fmt(e['seeing'])} | "
                         f"{_fmt(e['hands_value'])} | {_fmt(e['fair'])} | "
                         f"{e['playon_a_game']:+.3f} | {t} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rows", nargs="+", help="tools/tweak_disagree.py --out files")
    ap.add_argument("--out", help="write the split as JSON here")
    args = ap.parse_args()
    rows: list[dict] = []
    for path in args.rows:
        with open(path) as f:
            for r in json.load(f):
                if r.get("versus", "cheater") != "cheater":
                    raise SystemExit(f"{path}: rows of --versus hands, not the cheater")
                r["file"] = path
                rows.append(r)
    res = split(rows)
    res["files"] = args.rows
    print(report(res))
    if args.out:
        tmp = f"{args.out}.tmp{os.getpid()}"
        with open(tmp, "w") as f:
            json.dump(res, f, indent=1)
        os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
