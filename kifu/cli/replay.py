"""``kifu replay``: the position after N plies of a record, every position, one seat's view,
an interactive stepper, and whole files of records in one process."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from typing import Any

import click
import msgspec

from kifu.cli.common import handle_errors
from kifu.cli.options import cards_option
from kifu.core.errors import KifuError
from kifu.core.game import Game, State, actor_name
from kifu.core.variant import short
from kifu.notation.files import display_name, load_records
from kifu.notation.reader import SKIP, Located, RecordBuilder
from kifu.notation.record import Record, format_record
from kifu.notation.replay import legal_texts
from kifu.notation.replay import replay as replay_record
from kifu.notation.views import open_seats, parse_seat, picture, seat_view


class _Skipping(RecordBuilder):
    """Builds only the records ``wanted(index)`` accepts; skips the moves of the others."""

    def __init__(self, path: str, wanted):
        super().__init__(path)
        self.wanted = wanted
        self.index = 0

    def begin_record(self, line: int) -> None:
        self.index += 1
        super().begin_record(line)

    def end_headers(self) -> Any:
        return None if self.wanted(self.index) else SKIP

    def end_record(self) -> Any:
        return (self.index, super().end_record() if self.wanted(self.index) else None)


def iter_records(path: str, wanted=lambda i: True) -> Iterator[tuple[int, Located]]:
    """``(index, record)`` for each record of ``path`` that ``wanted(index)`` accepts, read
    as a stream: the moves of the other records of a text file are skipped, not parsed."""
    vis = _Skipping(display_name(path), wanted)
    count = 0
    for item in load_records(path, visitor=vis):
        if isinstance(item, tuple):  # a text record, through the skipping visitor
            i, loc = item
            if loc is not None:
                yield i, loc
        else:  # a JSON record (JSON lines are read one at a time)
            count += 1
            if wanted(count):
                yield count, item


def pick_record(path: str, index: int) -> Located:
    """Record ``index`` (1 = the first) of ``path``, reading no further than it."""
    if index < 1:
        raise KifuError(f"--index must be at least 1, not {index}")
    for _i, loc in iter_records(path, lambda i: i == index):
        return loc
    raise KifuError(f"{path}: there is no record #{index}")


def parse_records_option(text: str) -> tuple[int, int | None]:
    """``all`` -> (1, None); ``N`` -> (N, N); ``A-B`` -> (A, B); ``A-`` -> (A, None)."""
    t = text.strip()
    if t == "all":
        return 1, None
    lo, dash, hi = t.partition("-")
    try:
        if not (lo.isascii() and lo.isdecimal()) or (hi and not (hi.isascii()
                                                               and hi.isdecimal())):
            raise ValueError
        a = int(lo)
        b = (int(hi) if hi else None) if dash else a
    except ValueError:
        raise KifuError(f"--records {short(text)}: give all, N, A-B or A-") from None
    if a < 1 or (b is not None and b < a):
        raise KifuError(f"--records {short(text)}: records are numbered from 1, A-B with A <= B")
    return a, b


def resolve_ply(ply: int | None, total: int, path: str) -> int:
    """The ply to stop after: ``None`` = the end, a negative N counts from the end."""
    if ply is None:
        return total
    upto = ply if ply >= 0 else total + ply
    if not 0 <= upto <= total:
        raise KifuError(f"{path}: --ply {ply} is out of range: the record has {total} plies "
                        f"(give 0..{total}, or -{total}..-1 to count from the end)")
    return upto


class Shown:
    """How to show positions of one record: the format and the seat."""

    def __init__(self, loc: Located, index: int, fmt: str, player: str | None):
        self.loc, self.index, self.fmt = loc, index, fmt
        self.total = len(loc.record.moves)
        names = loc.record.players
        self.seat: int | None = None
        self.public: frozenset[int] = frozenset()
        self.player = player
        self.names = names

    def bind(self, game: Game, state: State) -> None:
        if self.player is not None:
            self.seat = parse_seat(self.player, self.names, state.n)
            self.public = open_seats(game, self.names)

    def text(self, game: Game, state: State, done: int) -> str:
        line = seat_view(state, self.seat, self.public)
        fmt = self.fmt
        if fmt == "position":
            return line
        if fmt == "json" or fmt == "jsonl":
            result = state.result()
            mover = state.to_move
            obj = {
                "record": self.index,
                "game": game.id,
                "rules": game.rules_spec(state.variant),
                "ply": done,
                "to_move": None if mover is None else actor_name(mover),
                "seat": None if self.seat is None else actor_name(self.seat),
                "position": line,
                "legal": list(legal_texts(game, state))
                if self.seat is None or self.seat == mover else [],
                "result": None if result is None else {"scores": result.scores,
                                                       "ranks": result.ranks},
            }
            if fmt == "jsonl":
                return json.dumps(obj, ensure_ascii=False)
            return json.dumps(msgspec.to_builtins(obj), ensure_ascii=False, indent=2)
        if fmt == "record":
            rec = self.loc.record
            part = Record(dict(rec.headers), rec.moves[:done], rec.comment)
            if done < self.total:
                part.headers["Result"] = "*"
            return format_record(part).rstrip("\n")
        head = f"{self.loc.path} #{self.index}, after ply {done} of {self.total}"
        body = picture(state, self.seat, self.public)
        tail = f"position: {line}"
        return "\n".join((head, body, tail))


@click.command("replay", short_help="Replay a record and show a position.")
@click.argument("file", metavar="FILE")
@click.option("--ply", type=int, default=None,
              help="Stop after this many actions (default: the whole record; "
                   "negative counts from the end). Out of range is an error.")
@click.option("--all", "every", is_flag=True,
              help="Show every position in turn, from ply 0 to --ply (default: the end).")
@click.option("--index", type=int, default=1, show_default=True,
              help="Which record of the file (1 = the first); the file is read as a stream "
                   "up to that record.")
@click.option("--records", "records", default=None, metavar="all|N|A-B",
              help="Replay these records of the file in one process (all, N, A-B, A-).")
@click.option("-f", "--format", "fmt", default="text", show_default=True,
              type=click.Choice(["text", "position", "json", "record"]),
              help="text: a picture for people; position: the one-line position; json: "
                   "position, legal actions and result (one line per position with --all "
                   "or --records); record: the record so far, canonical.")
@click.option("--player", "player", default=None, metavar="P",
              help="Show only what seat P can see (P = 1, p1 or a player's name): hidden "
                   "cards are ? in the picture and in the position line.")
@click.option("--seat", "player", default=None, hidden=True)
@cards_option(use=False)
@click.option("--step", is_flag=True,
              help="An interactive stepper: n(ext), p(revious), j(ump) N, q(uit).")
@handle_errors
def replay(file, ply, every, index, records, fmt, player, step) -> None:
    """Replay a record of FILE and show the position after --ply actions.

    Examples: kifu replay g.kifu --ply 10 --format position;
    kifu replay g.kifu --player p1 --all; kifu replay corpus.kifu --records all -f position
    """
    try:
        _replay(file, ply, every, index, records, fmt, player, step)
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        raise SystemExit(1) from None


def _replay(file, ply, every, index, records, fmt, player, step) -> None:
    if fmt == "record" and every:
        raise KifuError("--all shows positions; it does not go with --format record")
    if step and (every or records):
        raise KifuError("--step goes with one record, not with --all or --records")
    if records is not None:
        lo, hi = parse_records_option(records)
        bad = 0
        many = fmt == "json"
        for i, loc in iter_records(file, lambda i: i >= lo and (hi is None or i <= hi)):
            if fmt in ("text", "record") and i > lo:
                click.echo("")  # a blank line between records, as in a record file
            try:
                _show(loc, i, ply, every, "jsonl" if many else fmt, player)
            except KifuError as e:
                bad += 1
                click.echo(str(e), err=True)
            if hi is not None and i >= hi:
                break
        if bad:
            raise SystemExit(1)
        return
    loc = pick_record(file, index)
    if step:
        _stepper(loc, index, ply, fmt, player)
        return
    _show(loc, index, ply, every, "jsonl" if every and fmt == "json" else fmt, player)


def _show(loc: Located, index: int, ply: int | None, every: bool, fmt: str,
          player: str | None) -> None:
    shown = Shown(loc, index, fmt, player)
    upto = resolve_ply(ply, shown.total, loc.path)
    if not every:
        rep = replay_record(loc, upto=None if upto == shown.total else upto)
        shown.bind(rep.game, rep.state)
        click.echo(shown.text(rep.game, rep.state, upto))
        return
    rep = replay_record(loc, upto=0, check_result=False)
    game, state = rep.game, rep.state
    shown.bind(game, state)
    actions = replay_record(loc, upto=upto, check_result=False).actions
    sep = "\n" if fmt == "text" else ""
    click.echo(shown.text(game, state, 0))
    for done, action in enumerate(actions, 1):
        state.push(action)
        click.echo(sep + shown.text(game, state, done))


STEP_HELP = "n or Enter: next ply; p: previous; j N (or just N): jump to ply N; q: quit"


def _stepper(loc: Located, index: int, ply: int | None, fmt: str, player: str | None) -> None:
    """Step through a record, reading commands from stdin (a terminal or a pipe)."""
    shown = Shown(loc, index, fmt, player)
    actions = replay_record(loc, check_result=False).actions
    total = len(actions)
    state = replay_record(loc, upto=0, check_result=False)
    game, st = state.game, state.state
    shown.bind(game, st)
    at = 0

    def go(target: int) -> None:
        nonlocal at
        while at < target:
            st.push(actions[at])
            at += 1
        while at > target:
            st.pop()
            at -= 1

    go(resolve_ply(ply, total, loc.path) if ply is not None else 0)
    click.echo(shown.text(game, st, at))
    click.echo(f"[{STEP_HELP}]")
    while True:
        click.echo(f"ply {at}/{total}> ", nl=False)
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line:
            click.echo("")
            return
        cmd = line.strip().split()
        word = cmd[0].lower() if cmd else "n"
        arg = cmd[1] if len(cmd) > 1 else None
        if word in ("q", "quit", "exit"):
            return
        if word in ("n", "next"):
            target = at + 1
        elif word in ("p", "prev", "previous", "b", "back"):
            target = at - 1
        elif word in ("j", "jump", "g", "goto") or (word.isascii() and word.lstrip("-")
                                                     .isdecimal()):
            raw = arg if word in ("j", "jump", "g", "goto") else word
            if raw is None or not raw.isascii() or not raw.lstrip("-").isdecimal() \
                    or len(raw) > 9:
                click.echo(f"jump needs a ply number 0..{total}")
                continue
            target = int(raw) if not raw.startswith("-") else total + int(raw)
        elif word in ("?", "h", "help"):
            click.echo(STEP_HELP)
            continue
        else:
            click.echo(f"unknown command {short(line.strip())}: {STEP_HELP}")
            continue
        if not 0 <= target <= total:
            click.echo(f"no ply {target}: the record has plies 0..{total}")
            continue
        go(target)
        click.echo(shown.text(game, st, at))

