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
from collections.abc import Iterator, Sequence
from pathlib import Path

from kifu import games
from kifu.bots import classic_bots, play_actions
from kifu.core.errors import KifuError
from kifu.core.game import DEALER, Game, State, actor_name, parse_actor
from kifu.core.variant import Variant, variant_fields
from kifu.notation.files import write_output

SEPARATOR = " | "
NOT_ENUMERABLE = "(a chance event: not enumerable)"
MAX_BYTES = 200_000
"""Traces are kept small: games are dropped from a file until it fits."""
GAMES_PER_TRACE = 3


class TraceMismatch(KifuError):
    """The first line where a stored trace and the engine disagree."""

    def __init__(self, path: str, line: int, expected: str, got: str, where: str = ""):
        self.path, self.line, self.expected, self.got = path, line, expected, got
        col = next((i for i, (a, b) in enumerate(zip(expected, got, strict=False))
                    if a != b),
                   min(len(expected), len(got)))
        self.col = col + 1
        super().__init__(
            f"{path}:{line}: the trace differs from the engine here"
            f"{' (' + where + ')' if where else ''}, from column {self.col}\n"
            f"  stored: {expected}\n  engine: {got}"
        )


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
                old.unlink()
        for name, variant in wanted.items():
            path = directory / name
            write_output(str(path), generate(game, variant))
            written.append(path)
    return written


def _game_of(path: Path) -> str | None:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("game "):
                return line[5:].strip()
    return None


def retrace(lines: Sequence[str], path: str = "<trace>") -> Iterator[tuple[int, str]]:
    """The lines the engine gives for a stored trace, ``(line number, text)``, following the
    trace's own actions. A stored action the engine refuses ends it with a message line."""
    game: Game | None = None
    variant: Variant | None = None
    state: State | None = None
    ply = 0
    for lineno, raw in enumerate(lines, 1):
        line = raw.rstrip("\n")
        if not line or line.startswith("#"):
            yield lineno, line
            continue
        word, _, rest = line.partition(" ")
        if word == "game":
            game = games.get(rest)
            yield lineno, f"game {game.id}"
        elif word == "rules":
            assert game is not None, f"{path}:{lineno}: rules before game"
            variant = game.parse_rules(rest)
            yield lineno, f"rules {game.rules_spec(variant)}"
        elif word == "record":
            assert game is not None and variant is not None
            fields = rest.split()
            players = int(fields[fields.index("players") + 1])
            state = game.new_state(players, variant)
            ply = 0
            yield lineno, line
        elif word in ("ply", "position", "legal", "result"):
            assert game is not None and state is not None
            if word == "ply":
                yield lineno, f"ply {ply}"
            elif word == "position":
                yield lineno, f"position {state.to_line()}"
            elif word == "legal":
                yield lineno, _legal_line(game, state)
            else:
                yield lineno, _end_line(state)
        elif word == "action":
            assert game is not None and state is not None
            actor, _, text = rest.partition(" ")
            mover = state.to_move
            if mover is None:
                yield lineno, "(the game is over: no action)"
                return
            if parse_actor(actor) != mover:
                yield lineno, f"action {actor_name(mover)} ... (it is {actor_name(mover)}'s turn)"
                return
            try:
                action = game.parse_action(state, text)
                state.check(action)
            except KifuError as e:
                yield lineno, f"(the engine refuses {actor} {text}: {e})"
                return
            yield lineno, f"action {actor} {game.format_action(state, action)}"
            state.push(action)
            ply += 1
        else:
            yield lineno, f"(not a trace line: {line[:60]})"
            return


def check_trace(path: Path | str) -> int:
    """Replay a stored trace; raise :class:`TraceMismatch` at the first differing line.
    Returns the number of lines checked."""
    path = Path(path)
    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    count = 0
    for lineno, got in retrace(lines, str(path)):
        stored = lines[lineno - 1]
        if got != stored:
            raise TraceMismatch(str(path), lineno, stored, got, _where(lines, lineno))
        count += 1
    if count != len(lines):
        raise TraceMismatch(str(path), count + 1, lines[count], "(the engine stops here)")
    return count


def _where(lines: Sequence[str], lineno: int) -> str:
    """``record 2, ply 17``: where line ``lineno`` of a trace is."""
    record = ply = None
    for line in lines[lineno - 1 :: -1]:
        if ply is None and line.startswith("ply "):
            ply = line[4:]
        if line.startswith("record "):
            record = line.split()[1]
            break
    parts = [f"record {record}"] if record else []
    if ply is not None:
        parts.append(f"ply {ply}")
    return ", ".join(parts)


def default_directory() -> Path:
    """``fixtures/traces`` of the source tree kifu runs from, else of the working directory."""
    here = Path(__file__).resolve().parents[2] / "fixtures" / "traces"
    return here if here.is_dir() else Path("fixtures") / "traces"
