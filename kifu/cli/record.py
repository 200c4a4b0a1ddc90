"""``kifu record``: record a game as it is played at a real table, crash-safe.

The file is the only state: the headers are written first (with ``Result "*"``), each
accepted action is appended as one line and flushed and fsynced before the prompt returns,
``undo`` truncates the last line away, and the finished record's ``Result`` tag is written
by replacing the file atomically. Killing the process at any point loses no accepted
action, and ``kifu record --resume FILE`` carries on from the file alone (a seeded record
re-derives its dealer's random stream by replaying).
"""

from __future__ import annotations

import contextlib
import datetime
import os
import sys
import tempfile
import unicodedata

import click

from kifu import games
from kifu.cli.common import CliError, handle_errors, parse_variant_options
from kifu.cli.options import (
    cards_option,
    date_callback,
    parse_seed,
    seed_callback,
    variant_options,
    with_cards,
)
from kifu.core.errors import IllegalActionError, KifuError, NotationError
from kifu.core.game import DEALER, Action, Game, State, actor_name, parse_actor
from kifu.core.rng import Rng
from kifu.core.text import ascii_words, non_ascii_problem, read_text_file
from kifu.core.variant import short
from kifu.notation.reader import parse_records
from kifu.notation.record import ACTOR, UNFINISHED, Move, Record, format_record, nfc
from kifu.notation.replay import legal_texts, replay, setup_of
from kifu.notation.views import open_seats, parse_seat, picture

MAX_RESUME = 16_000_000
"""The largest file ``--resume`` reads, in bytes (one record: 100,000 actions fit in a few
megabytes; ``docs/notation.md``, "Limits")."""

HELP = """commands:
  ACTION        the action of the player to move, e.g. R3xO1 (or with its actor: p1 R3xO1)
  ?             list the legal actions (for the dealer: the form of the expected action)
  undo          take back the last action (a seeded deal is taken back with it)
  show [SEAT]   the position (only what SEAT may see: show 1, show p1, show Bob)
  quit          stop here; the file is kept and kifu record --resume FILE carries on
  help          this text"""


def _fsync_dir(path: str) -> None:
    try:
        fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def replace_durably(path: str, text: str) -> None:
    """Write ``text`` to a temporary file, fsync it, rename it over ``path`` (keeping the
    old file's mode), fsync the directory: the file is either the old or the new text."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".kifu-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        except FileNotFoundError:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _fsync_dir(path)


class Recorder:
    """One record being written: the state, the moves, the file, the dealer's stream."""

    def __init__(self, game: Game, state: State, record: Record, path: str,
                 seed: int | str | None):
        self.game, self.state, self.record, self.path = game, state, record, path
        self.seed = seed
        self.players = record.players
        self.public = open_seats(game, self.players)
        self.actions: list[Action] = []
        self.auto: list[bool] = []  # was action i drawn from the seed?
        self.rng = Rng(seed).fork(0) if seed is not None else None
        self.fd = -1
        self.offsets: list[int] = []  # the file offset where each move line starts

    # --- the file ---------------------------------------------------------------------
    def open(self, *, create: bool) -> None:
        """Write the file in canonical form (atomically) and open it for appending."""
        text = format_record(self.record)
        if create:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL
            fd = os.open(self.path, flags, 0o644)
            try:
                os.write(fd, text.encode("utf-8"))
                os.fsync(fd)
            finally:
                os.close(fd)
            _fsync_dir(self.path)
        else:
            with open(self.path, encoding="utf-8", newline="") as f:
                if f.read() != text:
                    replace_durably(self.path, text)
        prefix = format_record(Record(self.record.headers, [], self.record.comment))
        pos = len(prefix.encode("utf-8"))
        for m in self.record.moves:
            self.offsets.append(pos)
            pos += len(self._line(m).encode("utf-8"))
        self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND)

    @staticmethod
    def _line(m: Move) -> str:
        return format_record(Record({}, [m])).lstrip("\n")

    def append(self, move: Move) -> None:
        self.offsets.append(os.fstat(self.fd).st_size)
        os.write(self.fd, self._line(move).encode("utf-8"))
        os.fsync(self.fd)
        self.record.moves.append(move)

    def truncate(self) -> None:
        os.ftruncate(self.fd, self.offsets.pop())
        os.fsync(self.fd)
        self.record.moves.pop()

    def finish(self) -> str:
        result = self.state.result()
        assert result is not None
        self.record.headers["Result"] = result.to_text()
        self.close()
        replace_durably(self.path, format_record(self.record))
        return result.to_text()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    # --- play ---------------------------------------------------------------------------
    def push(self, action: Action, auto: bool) -> Move:
        seat = self.state.to_move
        assert seat is not None
        move = Move(actor_name(seat), self.game.format_action(self.state, action))
        self.state.push(action)
        self.append(move)
        self.actions.append(action)
        self.auto.append(auto)
        return move

    def deal_from_seed(self) -> list[Move]:
        """Play the dealer's actions the seed gives, until a player is to move."""
        moves = []
        while self.rng is not None and self.state.to_move == DEALER:
            action = self.game.chance_action(self.state, self.rng)
            self.state.check(action)
            moves.append(self.push(action, True))
        return moves

    def undo(self) -> list[Move]:
        """Take back the last action typed (and the seeded dealer actions after it)."""
        typed = [i for i, auto in enumerate(self.auto) if not auto]
        if not typed:
            return []
        keep = typed[-1]
        undone = []
        while len(self.actions) > keep:
            self.state.pop()
            self.actions.pop()
            self.auto.pop()
            undone.append(self.record.moves[-1])
            self.truncate()
        if self.rng is not None:  # rewind the dealer's stream to this point
            self.rng = self._rng_after(self.actions)
        return undone

    def _rng_after(self, actions: list[Action]) -> Rng:
        rng = Rng(self.seed).fork(0)  # type: ignore[arg-type]
        state = self.game.new_state(self.state.n, self.state.variant)
        for a in actions:
            if state.to_move == DEALER:
                self.game.chance_action(state, rng)
            state.push(a)
        return rng

    def adopt(self, actions: list[Action]) -> None:
        """Take over the actions already in a resumed file."""
        state = self.game.new_state(self.state.n, self.state.variant)
        rng = Rng(self.seed).fork(0) if self.seed is not None else None
        for a in actions:
            auto = False
            if rng is not None and state.to_move == DEALER:
                auto = self.game.chance_action(state, rng) == a
            state.push(a)
            self.auto.append(auto)
        self.actions = list(actions)
        self.rng = rng

    def parse(self, text: str) -> Action:
        """The action an entry means, checked (raises ``KifuError`` with the reason)."""
        state, game = self.state, self.game
        mover = state.to_move
        assert mover is not None
        problem = non_ascii_problem(text)
        if problem:  # action text is ASCII: a lookalike is refused, never read as ASCII
            raise NotationError(f"an action is ASCII: {problem[1]}", col=problem[0] + 1)
        first, _, rest = text.partition(" ")
        if rest and ACTOR.match(first):
            try:
                action = game.parse_action(state, text)
            except KifuError:
                seat = parse_actor(first)
                if seat != mover:
                    note = state.turn_note()
                    raise IllegalActionError(
                        f"it is {actor_name(mover)}'s turn{' ' + note if note else ''}, "
                        f"not {first}'s", rule="turn") from None
                action = game.parse_action(state, rest.strip())
        else:
            action = game.parse_action(state, text)
        state.check(action)
        return action

    # --- what to show -------------------------------------------------------------------
    def who(self) -> str:
        seat = self.state.to_move
        if seat == DEALER:
            return "the dealer (d)"
        assert seat is not None
        name = self.players[seat] if seat < len(self.players) else ""
        return f"{actor_name(seat)} ({name})" if name and name != actor_name(seat) \
            else actor_name(seat)

    def prompt(self) -> str:
        return f"ply {len(self.actions) + 1}, {self.who()} to move> "

    def dealer_form(self) -> str:
        """An example of the dealer action expected here (drawn from a fixed stream)."""
        try:
            example = self.game.chance_action(self.state.copy(), Rng(len(self.actions)))
            return self.game.format_action(self.state, example)
        except Exception:  # pragma: no cover - a game that cannot draw here
            return ""

    def legal_help(self) -> str:
        state, game = self.state, self.game
        if state.to_move == DEALER:
            outcomes = state.chance_outcomes()
            if outcomes:
                shown = ", ".join(f"{game.format_action(state, a)} ({p})" for a, p in outcomes)
                return f"the dealer's possible outcomes (with their chances): {shown}"
            form = self.dealer_form()
            return ("the dealer's action is not one of a short list: type what you see at "
                    f"the table, in this form: {form}" if form else
                    "type the dealer's action as seen at the table")
        legal = legal_texts(game, state)
        return f"{len(legal)} legal: " + ", ".join(legal)

    def dealer_hint(self) -> str:
        if self.state.to_move != DEALER:
            return ""
        form = self.dealer_form()
        return f"(the dealer acts: type what you see, e.g. {form}; ? for help)" if form else ""


@click.command("record", short_help="Record a game as it is played at a table.")
@click.argument("game_name", metavar="[GAME]", required=False)
@click.option("-n", "--players", type=int, default=None, help="Number of seats.")
@click.option("--names", default=None, metavar="A,B,...",
              help="The players' names, comma-separated (default p0, p1, ...).")
@click.option("-s", "--seed", default=None, callback=seed_callback,
              help="Let this seed play the dealer (the shuffles, deals, random steals); "
                   "without it the dealer's actions are typed as they are seen.")
@variant_options
@cards_option(use=True)
@click.option("--date", default=None, callback=date_callback,
              help="Date tag, YYYY.MM.DD (default: today).")
@click.option("-o", "--output", default=None, metavar="FILE",
              help="The record file to write (it must not exist yet).")
@click.option("--resume", default=None, metavar="FILE",
              help="Continue the unfinished record in FILE.")
@handle_errors
def record(game_name, players, names, seed, rules, sets, cards, date, output, resume) -> None:
    """Record a game as it is played: type each action at the prompt.

    The player to move is named at the prompt; ? lists the legal actions, undo takes one
    back, show [SEAT] prints the position (or one seat's view), quit stops. Every accepted
    action is appended to FILE and fsynced at once; kifu record --resume FILE continues an
    unfinished record. Actions may also be piped on stdin, one a line.
    Example: kifu record tweak --players 3 --seed 7 -o game.kifu
    """
    if resume is not None:
        if game_name or output or players or names or seed is not None or rules or sets:
            raise KifuError("--resume FILE takes no GAME and no other option")
        rec = _resumed(resume)
    else:
        if game_name is None:
            raise KifuError("record needs a GAME (or --resume FILE)")
        if output is None:
            raise KifuError("record needs -o FILE, the record to write")
        if output == "-":
            raise KifuError("record writes a real file (-o FILE), not stdout")
        if os.path.exists(output):
            raise KifuError(f"{output} exists; continue it with --resume {output}, or choose "
                            "another file")
        rec = _new(game_name, players, names, seed, rules, sets, cards, date, output)
    try:
        _loop(rec)
    finally:
        rec.close()


def _check_name(name: str) -> str:
    if not name or name != name.strip() or "," in name or '"' in name or any(
        unicodedata.category(c)[0] == "C" for c in name
    ):
        raise KifuError(f"--names: bad player name {short(name)} (no commas, quotes or "
                        "control characters, no leading or trailing spaces)")
    return nfc(name)


def _new(game_name, players, names, seed, rules, sets, cards, date, output) -> Recorder:
    game = games.get(game_name)
    roster = [_check_name(x.strip()) for x in names.split(",")] if names else None
    if players is None:
        if roster is None:
            raise KifuError("record needs --players N (or --names A,B,...)")
        players = len(roster)
    game.check_players(players)
    if roster is None:
        roster = [actor_name(s) for s in range(players)]
    if len(roster) != players:
        raise KifuError(f"--names gives {len(roster)} names for {players} players")
    variant = with_cards(game, parse_variant_options(game, rules, sets), cards)
    headers = {
        "Game": game.id,
        "Rules": game.rules_spec(variant),
        "Players": ", ".join(roster),
        "Date": date or datetime.date.today().strftime("%Y.%m.%d"),
        "Result": UNFINISHED,
    }
    if seed is not None:
        headers["Seed"] = str(seed)
    rec = Recorder(game, game.new_state(players, variant), Record(headers, []), output, seed)
    rec.open(create=True)
    return rec


def _resumed(path: str) -> Recorder:
    # bounded and strict UTF-8 (an invalid byte is reported at its line and column)
    text = read_text_file(path, limit=MAX_RESUME, what="a record file to resume")
    if text and not text.endswith("\n"):
        # a line cut short by a crash was never acknowledged: drop it, keep the rest
        keep, _, torn = text.rpartition("\n")
        click.echo(f"{path}: dropping the incomplete last line {torn[:60]!r}", err=True)
        text = keep + "\n"
    found = parse_records(text, path=path)
    if len(found) != 1:
        raise KifuError(f"{path}: --resume needs a file of exactly one record, not "
                        f"{len(found)}")
    record = found[0]
    game, setup = setup_of(record, path=path)
    rep = replay(record, path=path, check_result=False)
    seed_text = record.headers.get("Seed")
    seed = None
    if seed_text is not None:
        try:
            seed = parse_seed(seed_text)
        except CliError as e:
            raise KifuError(f"{path}: Seed header: {e.message}") from None
    rec = Recorder(game, game.new_state(setup.players, setup.variant), record, path, seed)
    for a in rep.actions:
        rec.state.push(a)
    rec.adopt(rep.actions)
    rec.open(create=False)
    if rec.state.to_move is not None or record.headers.get("Result") == UNFINISHED:
        click.echo(f"resuming {path} after ply {len(rep.actions)}")
    else:
        raise KifuError(f"{path} is finished already (Result {short(record.headers['Result'])})")
    return rec


def _read(prompt: str, tty: bool) -> str | None:
    """One line of input, ``None`` at the end; at a terminal with line editing."""
    if tty:
        with contextlib.suppress(ImportError):  # line editing and history for input()
            import readline  # noqa: F401
        try:
            return input(prompt) + "\n"
        except EOFError:
            return None
    click.echo(prompt, nl=False)
    sys.stdout.flush()
    return sys.stdin.readline() or None


def _loop(rec: Recorder) -> None:
    tty = sys.stdin.isatty()
    refused = 0
    for m in rec.deal_from_seed():
        click.echo(f"{m.actor} {m.text}")
    while rec.state.to_move is not None:
        hint = rec.dealer_hint()
        if hint:
            click.echo(hint)
        line = _read(rec.prompt(), tty)
        if line is None:
            click.echo("")
            break
        if not tty:
            click.echo(line.rstrip("\n"))
        entry = " ".join(ascii_words(line))  # U+00A0 and the like are no spaces
        if not entry:
            continue
        word, _, arg = entry.partition(" ")
        if entry in ("?", "legal"):
            click.echo(rec.legal_help())
            continue
        if entry in ("help", "h"):
            click.echo(HELP)
            continue
        if entry in ("quit", "q", "exit"):
            break
        if entry == "undo":
            undone = rec.undo()
            if not undone:
                click.echo("nothing to undo")
            for m in undone:
                click.echo(f"undone: {m.actor} {m.text}")
            continue
        if word == "show":
            try:
                seat = parse_seat(arg, rec.players, rec.state.n) if arg else None
            except KifuError as e:
                click.echo(str(e).replace("--player", "show"), err=True)
                continue
            click.echo(picture(rec.state, seat, rec.public))
            continue
        try:
            action = rec.parse(entry)
        except (NotationError, IllegalActionError) as e:
            refused += 1
            reason = e.message if isinstance(e, NotationError) else str(e)
            click.echo(f"refused {short(entry)}: {reason} (? lists the legal actions)", err=True)
            continue
        m = rec.push(action, False)
        click.echo(f"{m.actor} {m.text}")
        for m in rec.deal_from_seed():
            click.echo(f"{m.actor} {m.text}")
    if rec.state.to_move is None:
        result = rec.finish()
        click.echo(f"game over after {len(rec.actions)} plies: Result {result!r}; "
                   f"{rec.path} is complete")
    else:
        click.echo(f"{rec.path}: {len(rec.actions)} plies saved; carry on with: "
                   f"kifu record --resume {rec.path}")
    if refused and not tty:
        raise SystemExit(1)
