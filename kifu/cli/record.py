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
import time
import unicodedata

import click

from kifu import games
from kifu.cli.common import CliError, handle_errors, parse_variant_options
from kifu.cli.options import (
    cards_option,
    date_callback,
    output_option,
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
from kifu.notation.files import check_output, open_output, write_output
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


LOCK_PREFIX, LOCK_SUFFIX = ".", ".kifu-lock"
"""The lock of record ``F`` is ``.F.kifu-lock`` beside it (``RecordLock``)."""


class RecordLock:
    """One writer per record file: an advisory lock (``fcntl.flock``) on ``.F.kifu-lock``
    beside ``F`` (its real path), holding the holder's pid and start time.

    The record file itself is replaced by rename when a game ends, so it cannot carry the
    lock; the lock file is removed by its holder on release, and a holder killed with
    SIGKILL leaves a file whose lock the kernel has released (the next writer takes it)."""

    def __init__(self, path: str):
        self.path = path
        real = os.path.realpath(path)
        self.lock_path = os.path.join(os.path.dirname(real),
                                      LOCK_PREFIX + os.path.basename(real) + LOCK_SUFFIX)
        self.fd = -1

    def acquire(self) -> None:
        import fcntl

        for _ in range(20):  # a holder removing its lock file as we open it: try again
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as e:
                raise KifuError(f"{self.path}: cannot lock the record ({self.lock_path}: "
                                f"{e.strerror or e})") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.read(fd, 200).decode("utf-8", "replace").strip()
                os.close(fd)
                raise KifuError(
                    f"{self.path} is being recorded by another kifu "
                    f"({holder or 'a process that is starting'}); only one writer at a "
                    "time: carry on there, or stop it first") from None
            try:
                current = os.stat(self.lock_path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                current = False
            if current:
                break
            os.close(fd)
        else:  # pragma: no cover - twenty holders in a row
            raise KifuError(f"{self.path}: cannot lock the record; try again")
        self.fd = fd
        since = time.strftime("%Y-%m-%d %H:%M:%S")
        with contextlib.suppress(OSError):  # who holds it: only informative (a full disk)
            os.ftruncate(fd, 0)
            os.write(fd, f"pid {os.getpid()}, since {since}\n".encode())

    def release(self) -> None:
        if self.fd < 0:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.lock_path)
        os.close(self.fd)  # closing releases the lock
        self.fd = -1


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
        self.bots: dict = {}  # seat -> Bot: seats a bot plays (--bots p1=pimc)

    # --- the file ---------------------------------------------------------------------
    def open(self, *, create: bool) -> None:
        """Write the file in canonical form (atomically) and open it for appending."""
        text = format_record(self.record)
        if create:  # whole or not at all: never an empty file on a full disk
            with open_output(self.path, exclusive=True, now=True) as out:
                out.write(text)
        else:
            with open(self.path, encoding="utf-8", newline="") as f:
                if f.read() != text:
                    write_output(self.path, text, now=True)
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
        """Append one action line and sync it; a failed write (a full disk) is cut away
        again, so the file keeps exactly the actions before it, and names the file."""
        end = os.fstat(self.fd).st_size
        data = self._line(move).encode("utf-8")
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view) :]
            os.fsync(self.fd)
        except OSError as e:
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, end)
                os.fsync(self.fd)
            raise KifuError(
                f"{self.path}: cannot write: {e.strerror or e}; the record keeps its "
                f"{len(self.record.moves)} plies before this one (kifu record --resume "
                f"{self.path} carries on)") from None
        self.offsets.append(end)
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
        write_output(self.path, format_record(self.record), now=True)
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
        self.append(move)
        self.state.push(action)
        self.actions.append(action)
        self.auto.append(auto)
        return move

    def deal_from_seed(self) -> list[Move]:
        """Play the dealer's actions the seed gives and the bot seats' choices, until a
        person is to move (``undo`` takes them back with the action typed before)."""
        moves = []
        while True:
            mover = self.state.to_move
            if self.rng is not None and mover == DEALER:
                action = self.game.chance_action(self.state, self.rng)
            elif mover is not None and mover in self.bots:
                action = self.bots[mover].choose(self.state)
            else:
                return moves
            self.state.check(action)
            moves.append(self.push(action, True))

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
@output_option("The record file to write (it must not exist yet).")
@click.option("--resume", default=None, metavar="FILE",
              help="Continue the unfinished record in FILE.")
@click.option("--bots", "bots", default=None, metavar="SEAT=BOT,...",
              help="Seats a bot plays beside the people, e.g. p1=pimc,p2=greedy (kifu games "
                   "lists the bots); written to the Bots header, so --resume keeps them.")
@handle_errors
def record(game_name, players, names, seed, rules, sets, cards, date, output, resume,
           bots) -> None:
    """Record a game as it is played: type each action at the prompt.

    The player to move is named at the prompt; ? lists the legal actions, undo takes one
    back, show [SEAT] prints the position (or one seat's view), quit stops. Every accepted
    action is appended to FILE and fsynced at once; kifu record --resume FILE continues an
    unfinished record. Actions may also be piped on stdin, one a line.
    Example: kifu record tweak --players 3 --seed 7 -o game.kifu
    """
    if resume is not None:
        if game_name or output or players or names or seed is not None or rules or sets \
                or bots:
            raise KifuError("--resume FILE takes no GAME and no other option")
        if resume == "-":
            raise KifuError("--resume needs the record's file, not stdin")
        path = resume
    else:
        if game_name is None:
            raise KifuError("record needs a GAME (or --resume FILE)")
        if output is None:
            raise KifuError("record needs -o FILE, the record to write")
        if output == "-":
            raise KifuError("record writes a real file (-o FILE), not stdout")
        path = output
    if resume is None or os.path.lexists(resume):
        check_output(path)  # a folder, a read-only file: refused before anything is typed
    lock = RecordLock(path)
    lock.acquire()
    try:
        if resume is not None:
            rec = _resumed(resume)
        else:
            if os.path.lexists(output):
                raise KifuError(f"{output} exists; continue it with --resume {output}, or "
                                "choose another file")
            rec = _new(game_name, players, names, seed, rules, sets, cards, date, output,
                       bots)
        try:
            _loop(rec)
        finally:
            rec.close()
    finally:
        lock.release()


def _check_name(name: str) -> str:
    if not name or name != name.strip() or "," in name or '"' in name or any(
        unicodedata.category(c)[0] == "C" for c in name
    ):
        raise KifuError(f"--names: bad player name {short(name)} (no commas, quotes or "
                        "control characters, no leading or trailing spaces)")
    return nfc(name)


def _bot_seats(game: Game, text: str, players: int, seed: int | str | None) -> dict:
    """``p1=pimc,p2=greedy`` -> seat -> (bot name, bot); each bot draws from its own
    stream of the seed."""
    from kifu.bots import make_bot

    out = {}
    for item in text.replace(",", " ").split():
        who, eq, name = item.partition("=")
        try:
            seat = parse_actor(who)
        except ValueError as e:
            raise KifuError(f"--bots {item!r}: {e}") from None
        if not eq or not name or not 0 <= seat < players or seat in out:
            raise KifuError(f"--bots {item!r}: expected SEAT=BOT for a seat p0..p{players - 1}"
                            ", each seat once")
        rng = Rng(seed if seed is not None else "record").fork(seat + 1)
        out[seat] = (name, make_bot(game, name, seat, rng))
    return dict(sorted(out.items()))


def _new(game_name, players, names, seed, rules, sets, cards, date, output,
         bots=None) -> Recorder:
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
    seated = _bot_seats(game, bots, players, seed) if bots else {}
    if seated:
        headers["Bots"] = " ".join(f"{actor_name(s)}={name}" for s, (name, _) in seated.items())
    rec = Recorder(game, game.new_state(players, variant), Record(headers, []), output, seed)
    rec.bots = {s: bot for s, (_, bot) in seated.items()}
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
    if record.headers.get("Bots"):
        rec.bots = {s: bot for s, (_, bot) in
                    _bot_seats(game, record.headers["Bots"], setup.players, seed).items()}
    for a in rep.actions:
        rec.state.push(a)
    rec.adopt(rep.actions)
    rec.open(create=False)
    if rec.state.to_move is not None or record.headers.get("Result") == UNFINISHED:
        click.echo(f"resuming {path} after ply {len(rep.actions)}")
    else:
        raise KifuError(f"{path} is finished already (Result {short(record.headers['Result'])})")
    return rec


MAX_ENTRY = 10_000
"""The longest line read at the prompt, in bytes (a longer one is refused)."""


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
    line = sys.stdin.readline(MAX_ENTRY + 1)
    if len(line) > MAX_ENTRY:
        raise KifuError(f"<stdin>: a line longer than {MAX_ENTRY} characters")
    return line or None


class Refused(Exception):
    """A piped line that was refused: it ends the recording."""


def _loop(rec: Recorder) -> None:
    """Read entries until the game ends or the input does. At a terminal a refused entry
    is explained and the prompt repeats; from a pipe or a file the first refused line ends
    the recording (exit code 1): the record keeps exactly the actions before it, and the
    message names the input line (``<stdin>:LINE: ...``)."""
    tty = sys.stdin.isatty()
    lineno = 0
    stopped = ""

    def refuse(message: str) -> None:
        if tty:
            click.echo(message, err=True)
            return
        raise Refused(f"<stdin>:{lineno}: {message}")

    for m in rec.deal_from_seed():
        click.echo(f"{m.actor} {m.text}")
    try:
        while rec.state.to_move is not None:
            hint = rec.dealer_hint()
            if hint:
                click.echo(hint)
            line = _read(rec.prompt(), tty)
            if line is None:
                click.echo("")
                break
            lineno += 1
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
                    refuse(str(e).replace("--player", "show"))
                    continue
                click.echo(picture(rec.state, seat, rec.public))
                continue
            try:
                action = rec.parse(entry)
            except (NotationError, IllegalActionError) as e:
                reason = e.message if isinstance(e, NotationError) else str(e)
                refuse(f"refused {short(entry)}: {reason} (? lists the legal actions)")
                continue
            m = rec.push(action, False)
            click.echo(f"{m.actor} {m.text}")
            for m in rec.deal_from_seed():
                click.echo(f"{m.actor} {m.text}")
    except Refused as e:
        stopped = str(e)
        click.echo(stopped, err=True)
    if rec.state.to_move is None:
        result = rec.finish()
        click.echo(f"game over after {len(rec.actions)} plies: Result {result!r}; "
                   f"{rec.path} is complete")
    else:
        click.echo(f"{rec.path}: {len(rec.actions)} plies saved; carry on with: "
                   f"kifu record --resume {rec.path}")
    if stopped:
        raise SystemExit(1)
