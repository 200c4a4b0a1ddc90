"""Replaying records through their game's engine, with located errors."""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from kifu import games
from kifu.core.errors import IllegalActionError, KifuError, NotationError, VariantError
from kifu.core.game import DEALER, Action, Game, State, actor_name, parse_actor
from kifu.core.variant import Variant
from kifu.notation.reader import Located
from kifu.notation.record import UNFINISHED, Move, Record, excerpt, split_players

MAX_LEGAL_SHOWN = 24


class ReplayError(NotationError):
    """An action of a record that cannot be played, located in the file, with the ply,
    the actor, the action text, the rule broken and the legal actions."""

    def __init__(
        self,
        message: str,
        *,
        line: int = 0,
        col: int = 0,
        path: str | None = None,
        ply: int = 0,
        rule: str = "",
        legal: tuple[str, ...] = (),
    ):
        self.ply = ply
        self.rule = rule
        self.legal = legal
        super().__init__(message, line=line, col=col, path=path)


class Setup(msgspec.Struct, frozen=True):
    """What a record's headers say about the game: which, under which rules, how many."""

    game_id: str
    variant: Variant
    players: int


def setup_of(loc: Located | Record, *, path: str | None = None) -> tuple[Game, Setup]:
    """The game, variant and player count named by a record's headers."""
    rec, line_of, path = _unpack(loc, path)
    h = rec.headers
    for tag in ("Game", "Rules", "Players"):
        if tag not in h:
            raise NotationError(f"missing header [{tag} ...]", line=line_of(None), col=1,
                                path=path)
    try:
        game = games.get(h["Game"])
    except VariantError as e:
        raise NotationError(str(e), line=line_of("Game"), col=2, path=path) from None
    try:
        variant = game.parse_rules(h["Rules"])
    except VariantError as e:
        raise NotationError(f"Rules: {e}", line=line_of("Rules"), col=2, path=path) from None
    n = len(split_players(h["Players"]))
    try:
        game.check_players(n)
    except VariantError as e:
        raise NotationError(f"Players: {e}", line=line_of("Players"), col=2,
                            path=path) from None
    return game, Setup(game.id, variant, n)


def _unpack(loc: Located | Record, path: str | None):
    if isinstance(loc, Located):
        rec = loc.record

        def line_of(tag: str | None) -> int:
            return loc.header_lines.get(tag, loc.line) if tag else loc.line

        return rec, line_of, path or loc.path
    return loc, (lambda tag: 0), path or "<record>"


class Replay(msgspec.Struct):
    """The result of replaying a record: the game, the state reached, the actions played."""

    game: Game
    state: State
    actions: list[Action]


def replay(
    loc: Located | Record,
    *,
    upto: int | None = None,
    path: str | None = None,
    check_result: bool = True,
) -> Replay:
    """Replay ``loc`` (up to ``upto`` plies); raise :class:`ReplayError` on the first
    action that cannot be played, and when the ``Result`` tag disagrees with the game."""
    rec, line_of, path = _unpack(loc, path)
    game, setup = setup_of(loc, path=path)
    state = game.new_state(setup.players, setup.variant)
    move_lines = loc.move_lines if isinstance(loc, Located) else None
    actions: list[Action] = []
    moves = rec.moves if upto is None else rec.moves[: max(0, upto)]
    for ply, (move, action) in enumerate(_play(game, state, moves, move_lines, path), 1):
        del ply, move
        actions.append(action)
    if check_result and upto is None:
        _check_result(rec, game, state, line_of, path, len(rec.moves))
    return Replay(game, state, actions)


def _error(
    game: Game, state: State, move: Move, ply: int, line: int, path: str, message: str,
    rule: str = "", legal: tuple[str, ...] | None = None, col_in_text: int = 1,
) -> ReplayError:
    """A located error for the action ``move`` at ``ply``: the ply, the actor, the text,
    what is wrong, the rule and the legal actions."""
    if legal is None:
        legal = legal_texts(game, state)
    text = f"ply {ply}: {move.actor} {excerpt(move.text, 400)}: {message}"
    if rule:
        text += f" [rule {rule}]"
    if legal:
        shown = ", ".join(legal[:MAX_LEGAL_SHOWN])
        if len(legal) > MAX_LEGAL_SHOWN:
            shown += f", ... ({len(legal) - MAX_LEGAL_SHOWN} more)"
        text += f"; legal: {shown}"
    col = len(move.actor) + 1 + col_in_text if line else 0
    return ReplayError(text, line=line, col=col, path=path, ply=ply, rule=rule, legal=legal)


def _play(
    game: Game, state: State, moves: list[Move], move_lines: list[int] | None, path: str
) -> Iterator[tuple[Move, Action]]:
    for i, move in enumerate(moves):
        ply = i + 1
        line = move_lines[i] if move_lines else 0
        try:
            seat = parse_actor(move.actor)
        except ValueError as e:
            raise _error(game, state, move, ply, line, path, str(e), legal=()) from None
        mover = state.to_move
        if mover is None:
            raise _error(game, state, move, ply, line, path, "the game is already over",
                         rule="end", legal=())
        if seat != mover:
            if seat != DEALER and seat >= state.n:
                message = f"there is no seat {move.actor} in a {state.n}-player game"
                raise _error(game, state, move, ply, line, path, message, rule="actor")
            note = state.turn_note()
            message = f"it is {actor_name(mover)}'s turn{' ' + note if note else ''}, " \
                f"not {move.actor}'s"
            raise _error(game, state, move, ply, line, path, message, rule="turn")
        try:
            action = game.parse_action(state, move.text)
        except NotationError as e:
            raise _error(game, state, move, ply, line, path, e.message, rule="notation",
                         col_in_text=max(1, e.col)) from None
        except IllegalActionError as e:
            raise _error(game, state, move, ply, line, path, e.message, rule=e.rule) from None
        try:
            state.check(action)
        except IllegalActionError as e:
            raise _error(game, state, move, ply, line, path, e.message, rule=e.rule) from None
        state.push(action)
        yield move, action


def legal_texts(game: Game, state: State) -> tuple[str, ...]:
    return tuple(game.format_action(state, a) for a in state.legal_actions())


def _check_result(rec: Record, game: Game, state: State, line_of, path: str, plies: int) -> None:
    tag = rec.headers.get("Result", UNFINISHED).strip()
    result = state.result()
    if result is None:
        if tag != UNFINISHED:
            raise ReplayError(
                f"after ply {plies} the game is not over, so Result must be \"*\", not {tag!r}",
                line=line_of("Result"), col=2, path=path, ply=plies, rule="result",
            )
        return
    want = result.to_text()
    if tag != want:
        raise ReplayError(
            f"Result {tag!r} does not match the game, which ends {want!r}",
            line=line_of("Result"), col=2, path=path, ply=plies, rule="result",
        )


def replay_states(loc: Located | Record, *, path: str | None = None) -> Iterator[State]:
    """The state before the first action and after each action (one object, mutated)."""
    rec, _line_of, path = _unpack(loc, path)
    game, setup = setup_of(loc, path=path)
    state = game.new_state(setup.players, setup.variant)
    yield state
    move_lines = loc.move_lines if isinstance(loc, Located) else None
    for _ in _play(game, state, rec.moves, move_lines, path):
        yield state


def record_from_actions(
    game: Game,
    players: list[str],
    actions: list[Action],
    *,
    variant: Variant | None = None,
    headers: dict[str, str] | None = None,
) -> Record:
    """Write a played list of actions as a canonical record (the Result is computed)."""
    state = game.new_state(len(players), variant)
    moves = []
    for a in actions:
        seat = state.to_move
        if seat is None:
            raise KifuError("actions continue after the end of the game")
        moves.append(Move(actor_name(seat), game.format_action(state, a)))
        state.apply(a)
    result = state.result()
    h = {
        "Game": game.id,
        "Rules": game.rules_spec(variant),
        "Players": ", ".join(players),
        "Date": "????.??.??",
        "Result": result.to_text() if result else UNFINISHED,
    }
    for k, v in (headers or {}).items():
        if k not in ("Game", "Rules", "Players", "Result"):
            h[k] = v
    return Record(h, moves)
