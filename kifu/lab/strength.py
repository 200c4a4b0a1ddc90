"""Does ``kifu analyze``'s judgement track strength? (issue 34): match records of bots of
known strength, analysed, and their mean ``value`` loss per decision compared.

Each deal of each game is played once by the four bots of :data:`BOTS` (four seats, the
seats rotated by the deal's number, so every bot sits in every seat equally often over four
deals); every record is analysed with :func:`kifu.lab.analyze.analyze_record` at the
evaluator level :data:`LEVEL` (``normal``; the value judgement alone, as ``kifu analyze
-Q value --level normal`` gives it: the exact questions and the chart's shares do not enter
the losses and are left out). Each bot's mean loss per decision (share units) is taken per
deal, then over deals: the deal is the cluster (its four seats share the cards), so the
intervals are t intervals over deals of per-deal means, and the gaps between two bots are
paired by deal (:func:`kifu.lab.stats.paired_difference_ci`). The same is done with the
*held-out* loss of every decision (:func:`held_out_loss`), the check that the order is not
an artefact of the judgement's bias (the best of several noisy values, clamped at 0).

    python -m kifu.lab.strength --deals 40 --workers 2 [--games tweak,graph-t] [--level normal]

prints, per game, each bot's decisions, mean loss, held-out loss and accuracy with 95%
intervals, and the gaps random - greedy, greedy - pimc and pimc - expert by both losses;
``--json FILE`` keeps the rows.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections.abc import Callable, Sequence

import msgspec

from kifu import games
from kifu.bots.evaluate import LEVELS, candidates, level_of, sample_rows
from kifu.bots.profiles import profile
from kifu.core.command import reader_gone
from kifu.core.executor import map_chunks
from kifu.core.game import Action, Game, State
from kifu.core.rng import Rng
from kifu.lab.analyze import VALUE, Limits, accuracy, analyze_record, ply_seed, value_mark
from kifu.lab.play import play_record
from kifu.lab.stats import Interval, mean_ci, paired_difference_ci
from kifu.notation.replay import replay

BOTS = ("random", "greedy", "pimc", "expert")
"""The bots, weakest first (the match ladders of ``docs/bots.md``; ``expert`` is the
evaluator's bot)."""

RULES: dict[str, str] = {
    "tweak": "tweak/1;rounds=1",
    "graph-t": "graph-t/1;grey=false;black=false",
    "towai": "towai/1;wins=1",
    "lianxian": "lianxian/1;finish=20",
    "alice": "alice/1",
}
"""The rules of the run, by game: the ladders' (``docs/bots.md``), one round where a game
has rounds."""

PLAYERS = 4

LEVEL = "normal"
"""The evaluator's level of the run's judgement. Not ``kifu analyze``'s default (``fast``,
8 worlds, for speed): at 8 worlds the loss of a decision between actions of nearly equal
worth is mostly noise, and the loss is the best of the valued actions (picked on the same
worlds) minus the one played, clamped at 0, so that noise biases every bot's loss upwards
by about as much as the gaps being measured (calibration deals of seed ``cal``, not the
run's; docs/puzzles.md, "Does accuracy track strength?")."""


class Row(msgspec.Struct, frozen=True):
    """One bot's decisions in one record."""

    game: str
    deal: int
    bot: str
    seat: int
    decisions: int
    losses: list[float]
    """The ``value`` loss of each decision (share units)."""
    stderrs: list[float]
    """Their standard errors."""
    marks: list[str]
    """The marks of its decisions (``?!``, ``?``, ``??``) from the ``value`` judgement."""
    held_out: list[float] = []
    """The held-out loss of each decision (:func:`held_out_loss`; empty in rows written
    before it was measured)."""


def seating(deal: int, bots: Sequence[str] = BOTS) -> list[str]:
    """The bots in seat order for ``deal``: rotated by the deal's number."""
    k = deal % len(bots)
    return [*bots[k:], *bots[:k]]


HELD_OUT_SEED = 1
"""The held-out loss draws its worlds from seeds of its own (``ply_seed(1, ply)``), not the
judgement's (``ply_seed(0, ply)``)."""


def held_out_loss(game: Game, state: State, action: Action, *, level: str = LEVEL,
                  seed: int = 0) -> float:
    """A loss without the winner's curse, for the strength run's check: the evaluator's
    candidates and the action played (:func:`kifu.bots.evaluate.sample_rows`, the
    level's worlds from the mover's information, common random numbers) are valued in
    every world; the worlds are split in two halves (even and odd draws), the best action
    is picked on one half and it and the action played are valued on the other, and the
    two ways round are averaged. Each way round is an unbiased estimate of the true worth
    of the picked action minus the played one's (its noise no longer favours the picked
    action), so the loss is not clamped at 0 and may be negative; its mean over many
    decisions is at most the mean true loss (the picked action may not be the truly best).
    Where the evaluation is exact (one world), it is the exact loss."""
    seat = state.to_move
    assert seat is not None and seat >= 0
    lvl = level_of(game, level)
    acts = candidates(game, state, profile(game.id), lvl.actions)
    if action not in acts:
        acts = [*acts, action]
    rows, _exact = sample_rows(game, state, seat, acts, lvl, Rng(seed), False)
    p = acts.index(action)
    if len(rows) < 2:
        return max(rows[0]) - rows[0][p]

    def mean(half: list[list[float]], k: int) -> float:
        return sum(r[k] for r in half) / len(half)

    halves = (rows[0::2], rows[1::2])
    total = 0.0
    for pick, judge in (halves, halves[::-1]):
        best = max(range(len(acts)), key=lambda k: mean(pick, k))
        total += mean(judge, best) - mean(judge, p)
    return total / 2


def play_and_judge(game_id: str, deal: int, *, seed: str = "34", level: str = LEVEL,
                   bots: Sequence[str] = BOTS, held_out: bool = True) -> list[Row]:
    """One deal of ``game_id``: played, analysed, one row a seat (with the held-out loss of
    every valued decision, unless ``held_out`` is False)."""
    game = games.get(game_id)
    variant = game.parse_rules(RULES[game_id])
    seats = seating(deal, bots)
    rec = play_record(game, seats, f"{seed}:{game_id}:{deal}", variant)
    a = analyze_record(rec, question=VALUE, limits=Limits(level=level, chart=False))
    other: dict[int, float] = {}
    if held_out:
        valued = {p.ply for p in a.plies if any(j.question == VALUE for j in p.judgements)}
        state = game.new_state(len(seats), variant)
        for i, act in enumerate(replay(rec).actions, 1):
            if i in valued:
                other[i] = round(held_out_loss(game, state, act, level=level,
                                               seed=ply_seed(HELD_OUT_SEED, i)), 6)
            state.push(act)
    rows = []
    for s, bot in enumerate(seats):
        js = [(p.ply, j, p.mark if p.mark_from == VALUE else None) for p in a.plies
              if p.seat == s for j in p.judgements if j.question == VALUE]
        rows.append(Row(game_id, deal, bot, s, a.summary.seats[s].decisions,
                        [j.loss for _, j, _ in js], [j.loss_stderr or 0.0 for _, j, _ in js],
                        [m for _, _, m in js if m],
                        [other[i] for i, _, _ in js] if held_out else []))
    return rows


def _chunk(args: tuple[str, list[int], str, str]) -> list[list[Row]]:
    game_id, deals, seed, level = args
    return [play_and_judge(game_id, d, seed=seed, level=level) for d in deals]


def run(game_ids: Sequence[str], deals: int, *, seed: str = "34", level: str = LEVEL,
        workers: int = 1, chunk: int = 2, progress: bool = False, first: int = 0,
        on_rows: Callable[[list[Row]], None] | None = None) -> list[Row]:
    """Deals ``first`` .. ``first + deals - 1`` of every game, played and judged (the same
    rows whatever the workers)."""
    end = first + deals
    jobs = [(g, list(range(i, min(i + chunk, end))), seed, level)
            for g in game_ids for i in range(first, end, chunk)]
    out: list[Row] = []
    for k, rows in enumerate(map_chunks(_chunk, jobs, workers=workers), 1):
        for r in rows:
            out.extend(r)
            if on_rows is not None:
                on_rows(r)
        if progress:
            print(f"  {k}/{len(jobs)} chunks", file=sys.stderr, flush=True)
    return out


class BotFigure(msgspec.Struct, frozen=True):
    bot: str
    decisions: int
    mean_loss: Interval
    """Mean loss per decision, over deals (each deal's mean), with its 95% interval."""
    accuracy: Interval
    """The seat accuracy (``kifu.lab.analyze.accuracy``) per record, over deals."""
    marks: dict[str, int]
    held_out: Interval | None = None
    """Mean held-out loss per decision (:func:`held_out_loss`), over deals, with its 95%
    interval (None where the rows have none)."""


class Gap(msgspec.Struct, frozen=True):
    weaker: str
    stronger: str
    difference: Interval
    """Mean over deals of (the weaker's mean loss - the stronger's), paired by deal."""
    held_out: Interval | None = None
    """The same with the held-out loss."""


def summarize(rows: Sequence[Row], game_id: str,
              bots: Sequence[str] = BOTS) -> tuple[list[BotFigure], list[Gap]]:
    """Each bot's figures in one game, and the gaps between neighbours in ``bots``."""
    mine = [r for r in rows if r.game == game_id]
    deals = sorted({r.deal for r in mine})
    per: dict[str, dict[int, Row]] = {b: {} for b in bots}
    for r in mine:
        per[r.bot][r.deal] = r
    figs = []
    means: dict[str, list[float]] = {}
    held: dict[str, list[float]] = {}
    for b in bots:
        rs = [per[b][d] for d in deals if d in per[b]]
        means[b] = [sum(r.losses) / len(r.losses) if r.losses else 0.0 for r in rs]
        if all(len(r.held_out) == len(r.losses) for r in rs) and any(r.held_out for r in rs):
            held[b] = [sum(r.held_out) / len(r.held_out) if r.held_out else 0.0 for r in rs]
        accs = [accuracy(r.losses) or 100.0 for r in rs]
        marks: dict[str, int] = {}
        for r in rs:  # from the losses, so the thresholds of this version count
            for loss, se in zip(r.losses, r.stderrs, strict=True):
                m = value_mark(loss, se)
                if m is not None:
                    marks[m] = marks.get(m, 0) + 1
        figs.append(BotFigure(b, sum(len(r.losses) for r in rs), mean_ci(means[b]),
                              mean_ci(accs), marks,
                              mean_ci(held[b]) if b in held else None))
    gaps = [Gap(w, s, paired_difference_ci(means[w], means[s]),
                paired_difference_ci(held[w], held[s]) if w in held and s in held else None)
            for w, s in itertools.pairwise(bots)
            if len(means[w]) == len(means[s])]
    return figs, gaps


def _iv(iv: Interval, digits: int = 4) -> str:
    return f"{iv.estimate:.{digits}f} [{iv.low:.{digits}f}, {iv.high:.{digits}f}]"


def _verdict(d: Interval) -> str:
    return "> 0" if d.low > 0 else "< 0" if d.high < 0 else "includes 0"


def format_summary(rows: Sequence[Row], game_ids: Sequence[str]) -> str:
    out = []
    for g in game_ids:
        figs, gaps = summarize(rows, g)
        deals = len({r.deal for r in rows if r.game == g})
        out.append(f"{g} ({RULES[g]}, {PLAYERS} players, {deals} deals)")
        out.append("| bot | decisions | mean loss | held-out loss | accuracy | ?! | ? | ?? |")
        out.append("|---|---|---|---|---|---|---|---|")
        for f in figs:
            held = _iv(f.held_out) if f.held_out is not None else "-"
            out.append(f"| `{f.bot}` | {f.decisions} | {_iv(f.mean_loss)} | {held} | "
                       f"{_iv(f.accuracy, 1)} | {f.marks.get('?!', 0)} | "
                       f"{f.marks.get('?', 0)} | {f.marks.get('??', 0)} |")
        for gap in gaps:
            line = f"- {gap.weaker} - {gap.stronger}: {_iv(gap.difference)} "
            line += f"({_verdict(gap.difference)})"
            if gap.held_out is not None:
                line += f"; held-out {_iv(gap.held_out)} ({_verdict(gap.held_out)})"
            out.append(line)
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """``python -m kifu.lab.strength``: the run, its summary on stdout (exit 0); 1 when the
    reader of stdout went away (``| head``), quietly."""
    try:
        return _main(argv)
    except BrokenPipeError:
        reader_gone()
        return 1


def _main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m kifu.lab.strength", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--first", type=int, default=0, help="the first deal's number (to extend a "
                    "run: the rows of two runs with disjoint deals add up)")
    ap.add_argument("--games", default=",".join(RULES))
    ap.add_argument("--level", default=LEVEL, choices=list(LEVELS),
                    help="the evaluator's level of the judgement "
                    f"and of the held-out loss (default {LEVEL}; kifu analyze's is fast)")
    ap.add_argument("--seed", default="34")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", default=None, help="write the rows (JSON lines) to this file")
    ap.add_argument("--rows", default=None,
                    help="summarise the rows of these files (comma-separated) instead")
    args = ap.parse_args(argv)
    game_ids = args.games.split(",")
    unknown = [g for g in game_ids if g not in RULES]
    if unknown:
        ap.error(f"--games: unknown {', '.join(map(repr, unknown))} (known: {', '.join(RULES)})")
    if args.deals < 1 or args.workers < 1:
        ap.error("--deals and --workers must be at least 1")
    if args.rows:
        rows = []
        for name in args.rows.split(","):
            with open(name, encoding="utf-8") as f:
                rows += [msgspec.json.decode(line, type=Row) for line in f if line.strip()]
        game_ids = [g for g in game_ids if any(r.game == g for r in rows)]
    else:
        def keep(deal_rows: list[Row]) -> None:  # each deal's rows as soon as it is judged
            if args.json:
                with open(args.json, "ab") as f:
                    f.write(b"".join(msgspec.json.encode(r) + b"\n" for r in deal_rows))

        rows = []
        for g in game_ids:  # one game at a time, its rows kept as it ends
            got = run([g], args.deals, seed=args.seed, level=args.level,
                      workers=args.workers, progress=True, first=args.first,
                      on_rows=keep)
            rows.extend(got)
            print(format_summary(got, [g]), flush=True)
    print(format_summary(rows, game_ids))
    return 0


if __name__ == "__main__":
    sys.exit(main())
