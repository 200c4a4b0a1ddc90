"""Golden traces (OpenSpiel's "playthroughs"): seeded bot games written out ply by ply.

A trace file holds a few games of one game under one rule variant. At every ply it lists
the position line, the legal actions and the action taken, so any change to the rules
engine shows up as the first line that differs::

    # kifu trace: tweak under tweak/1 (kifu trace regenerate rewrites this file)
    game tweak
    rules tweak/1

    record 1 seed 1 players 2 bots random,greedy
    ply 0
    position tweak/1 F ...
    legal dealer p0 | dealer p1
    action d dealer p1
    ply 1
    ...
    result 60 41

Checking a trace replays the *stored* actions (not the bots), recomputing every position,
legal list and result; :func:`check_trace` raises :class:`TraceMismatch` at the first line
that differs, with the file, the line, the stored text and the engine's.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from kifu import games
from kifu.bots import classic_bots, play_actions
from kifu.core.errors import KifuError, NotationError
from kifu.core.game import DEALER, Game, State, actor_name, parse_actor
from kifu.core.text import read_text_file
from kifu.core.variant import Variant, short, variant_fields
from kifu.notation.files import remove_output, write_output

SEPARATOR = " | "
NOT_ENUMERABLE = "(a chance event: not enumerable)"
MAX_BYTES = 200_000
"""Traces are kept small: games are dropped from a file until it fits."""
GAMES_PER_TRACE = 3


class TraceMismatch(KifuError):
    """The first line where a stored trace and the engine disagree. The two lines are
    quoted around the first column that differs, at most :data:`QUOTED` characters each."""

    def __init__(self, path: str, line: int, expected: str, got: str, where: str = ""):
        self.path, self.line, self.expected, self.got = path, line, expected, got
        col = next((i for i, (a, b) in enumerate(zip(expected, got, strict=False))
                    if a != b),
                   min(len(expected), len(got)))
        self.col = col + 1
        super().__init__(
            f"{path}:{line}: the trace differs from the engine here"
            f"{' (' + where + ')' if where else ''}, from column {self.col}\n"
            f"  stored: {_around(expected, col)}\n  engine: {_around(got, col)}"
        )


QUOTED = 160
"""How many characters of a differing line a mismatch quotes."""


def _around(line: str, col: int) -> str:
    """``line`` cut to :data:`QUOTED` characters around index ``col`` (marked ``...``, with
    the line's length)."""
    if len(line) <= QUOTED:
        return line
    start = max(0, min(col - QUOTED // 4, len(line) - QUOTED))
    piece = line[start : start + QUOTED]
    return (("..." if start else "") + piece + ("..." if start + QUOTED < len(line) else "")
            + f" ({len(line)} characters)")


MAX_TRACE_FILE = 4_000_000
"""The largest trace file read, in bytes (20 times :data:`MAX_BYTES`; ``docs/notation.md``,
"Limits")."""
_RECORD = re.compile(r"record [1-9][0-9]{0,5} seed -?[0-9]{1,20} players ([1-9][0-9]?) "
                     r"bots [a-z0-9_-]+(?:,[a-z0-9_-]+)*\Z")
"""A trace's record line, as :func:`game_lines` writes it."""


def variant_slug(game: Game, variant: Variant | None) -> str:
    """The file name stem of a variant's trace: ``tweak``, ``tweak__rounds=1``... (a long
    value is written as a short hash of it: ``backs=h6ddd6e43``)."""
    fields = []
    for k, v in variant_fields(variant) if variant is not None else []:
        if len(v) > 16 or (not v.replace(",", "").replace("_", "").isalnum() and v):
            v = "h" + hashlib.sha256(v.encode()).hexdigest()[:8]
        fields.append(f"{k}={v}")
    return "__".join([game.id, *fields])


def missing_traces(directory: Path) -> list[str]:
    """The trace files a registered game should have and ``directory`` lacks."""
    return [
        name
        for gid in games.ids()
        for name in expected_files(games.get(gid))
        if not (directory / name).exists()
    ]


def trace_variants(game: Game) -> list[Variant]:
    """The default variant and every example variant (each once)."""
    out: list[Variant] = [game.Variant()]
    for v in game.example_variants:
        if v not in out:
            out.append(v)
    return out


def expected_files(game: Game) -> dict[str, Variant]:
    """``{file name: variant}`` of the traces a game must have."""
    return {variant_slug(game, v) + ".trace": v for v in trace_variants(game)}


def _legal_line(game: Game, state: State) -> str:
    legal = state.legal_actions()
    if not legal:
        if state.to_move == DEALER:
            return "legal " + NOT_ENUMERABLE
        return "legal -"
    return "legal " + SEPARATOR.join(game.format_action(state, a) for a in legal)


def _ply_lines(game: Game, state: State, ply: int) -> list[str]:
    return [f"ply {ply}", f"position {state.to_line()}", _legal_line(game, state)]


def _end_line(state: State) -> str:
    result = state.result()
    return "result " + (result.to_text() if result is not None else "*")


def game_lines(game: Game, variant: Variant, players: int, seed: int,
               bots: Sequence[str], index: int) -> list[str]:
    """The trace of one bot game."""
    actions = play_actions(game, bots, seed, variant)
    state = game.new_state(players, variant)
    lines = [f"record {index} seed {seed} players {players} bots {','.join(bots)}"]
    for ply, action in enumerate(actions):
        lines += _ply_lines(game, state, ply)
        lines.append(f"action {actor_name(state.to_move)} "  # type: ignore[arg-type]
                     f"{game.format_action(state, action)}")
        state.push(action)
    lines += _ply_lines(game, state, len(actions))[:2]
    lines.append(_end_line(state))
    return lines


def generate(game: Game, variant: Variant, *, games_count: int = GAMES_PER_TRACE) -> str:
    """A trace of ``games_count`` seeded bot games (fewer if the file would be too big)."""
    bot_names = classic_bots(game)
    head = [
        f"# kifu trace: {game.id} under {game.rules_spec(variant)} "
        "(kifu trace regenerate rewrites this file)",
        f"game {game.id}",
        f"rules {game.rules_spec(variant)}",
    ]
    blocks = []
    span = game.max_players - game.min_players + 1
    for i in range(games_count):
        players = game.min_players + (i % span)
        bots = [bot_names[(i + s) % len(bot_names)] for s in range(players)]
        blocks.append(game_lines(game, variant, players, i + 1, bots, i + 1))
    while True:
        text = "\n".join(head + [line for b in blocks for line in ["", *b]]) + "\n"
        if len(text.encode()) <= MAX_BYTES or len(blocks) == 1:
            return text
        blocks.pop()


def regenerate(directory: Path, game_ids: Sequence[str] | None = None) -> list[Path]:
    """Rewrite the traces of ``game_ids`` (default: every game) under ``directory``; remove
    the stale traces of those games. Returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for gid in game_ids or games.ids():
        game = games.get(gid)
        wanted = expected_files(game)
        for old in directory.glob(f"{game.id}*.trace"):
            if old.name not in wanted and _game_of(old) == game.id:
                remove_output(str(old))  # with the traces written, at the end
        for name, variant in wanted.items():
            path = directory / name
            write_output(str(path), generate(game, variant))
            written.append(path)
    return written


def _game_of(path: Path) -> str | None:
    """The game a trace file names in its first lines (``game ID``), or None: only its first
    4,096 bytes are read."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    for line in head.split("\n")[:-1] if len(head) == 4096 else head.split("\n"):
        if line.startswith("game "):
            return line[5:].strip()
    return None


def retrace(lines: Sequence[str], path: str = "<trace>") -> Iterator[tuple[int, str]]:
    """The lines the engine gives for a stored trace, ``(line number, text)``, following the
    trace's own actions. A stored action the engine refuses ends it with a message line; a
    line out of place or malformed (``rules`` before ``game``, a ``record`` line without its
    fields, a ply before any record) raises a :class:`NotationError` at it."""
    game: Game | None = None
    variant: Variant | None = None
    state: State | None = None
    ply = 0
    for lineno, raw in enumerate(lines, 1):
        line = raw.rstrip("\n")

        def bad(message: str, col: int = 1, _lineno: int = lineno) -> NotationError:
            return NotationError(message, line=_lineno, col=col, path=path)

        if not line or line.startswith("#"):
            yield lineno, line
            continue
        word, _, rest = line.partition(" ")
        if word == "game":
            try:
                game = games.get(rest)
            except KifuError as e:
                raise bad(str(e), 6) from None
            variant = state = None
            yield lineno, f"game {game.id}"
        elif word == "rules":
            if game is None:
                raise bad("a rules line before the game line")
            try:
                variant = game.parse_rules(rest)
            except KifuError as e:
                raise bad(str(e), 7) from None
            state = None
            yield lineno, f"rules {game.rules_spec(variant)}"
        elif word == "record":
            if game is None or variant is None:
                raise bad("a record before the game and rules lines")
            m = _RECORD.match(line)
            if not m:
                raise bad(f"expected 'record N seed S players P bots B,...', got {short(line)}")
            players = int(m.group(1))
            try:
                game.check_players(players)
                state = game.new_state(players, variant)
            except KifuError as e:
                raise bad(str(e), m.start(1) + 1) from None
            ply = 0
            yield lineno, line
        elif word in ("ply", "position", "legal", "result", "action"):
            if game is None or state is None:
                raise bad(f"a {word} line before the first record line")
            if word == "ply":
                yield lineno, f"ply {ply}"
            elif word == "position":
                yield lineno, f"position {state.to_line()}"
            elif word == "legal":
                yield lineno, _legal_line(game, state)
            elif word == "result":
                yield lineno, _end_line(state)
            else:
                actor, _, text = rest.partition(" ")
                mover = state.to_move
                if mover is None:
                    yield lineno, "(the game is over: no action)"
                    return
                try:
                    seat = parse_actor(actor)
                except NotationError as e:
                    raise bad(e.message, 8) from None
                if seat != mover:
                    yield lineno, (f"action {actor_name(mover)} ... (it is "
                                   f"{actor_name(mover)}'s turn)")
                    return
                try:
                    action = game.parse_action(state, text)
                    state.check(action)
                except KifuError as e:
                    yield lineno, f"(the engine refuses {actor} {short(text)}: {e})"
                    return
                yield lineno, f"action {actor} {game.format_action(state, action)}"
                state.push(action)
                ply += 1
        else:
            yield lineno, f"(not a trace line: {short(line)})"
            return


def check_trace(path: Path | str) -> int:
    """Replay a stored trace; raise :class:`TraceMismatch` at the first differing line, a
    :class:`NotationError` at a malformed one (or for a file that is not UTF-8 or is
    longer than :data:`MAX_TRACE_FILE`). Returns the number of lines checked."""
    text = read_text_file(path, limit=MAX_TRACE_FILE, what="a trace file")
    return check_trace_text(text, str(path))


def check_trace_text(text: str, name: str = "<trace>") -> int:
    """:func:`check_trace` for the text of a trace file named ``name``."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    count = 0
    for lineno, got in retrace(lines, name):
        stored = lines[lineno - 1]
        if got != stored:
            raise TraceMismatch(name, lineno, stored, got, _where(lines, lineno))
        count += 1
    if count != len(lines):
        raise TraceMismatch(name, count + 1, lines[count], "(the engine stops here)")
    return count


def _where(lines: Sequence[str], lineno: int) -> str:
    """``record 2, ply 17``: where line ``lineno`` of a trace is."""
    record = ply = None
    for line in lines[lineno - 1 :: -1]:
        if ply is None and line.startswith("ply "):
            ply = line[4:16]  # lines before lineno matched the engine: short numbers
        if line.startswith("record "):
            record = line[7:].split(" ", 1)[0][:12]
            break
    parts = [f"record {record}"] if record else []
    if ply is not None:
        parts.append(f"ply {ply}")
    return ", ".join(parts)


def default_directory() -> Path:
    """``fixtures/traces`` of the source tree kifu runs from, else of the working directory."""
    here = Path(__file__).resolve().parents[2] / "fixtures" / "traces"
    return here if here.is_dir() else Path("fixtures") / "traces"
