"""Replaying records through their game's engine, with located errors."""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from kifu import games
from kifu.core.errors import IllegalActionError, KifuError, NotationError, VariantError
from kifu.core.game import DEALER, Action, Game, Result, State, actor_name, parse_actor
from kifu.core.variant import Variant, short
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


def players_mismatch(rec: Record, n: int) -> str | None:
    """Why the ``Players`` header seems to name the wrong number of players, judged from
    the actors of the record's moves (None when they agree): an action by ``p2`` in a
    2-player game means a name is missing; no action by the last seat while the others
    act means one name too many. Only asked once an action has failed, to say what is
    really wrong instead of the action's own error."""
    acts = [int(m.actor[1:]) for m in rec.moves
            if m.actor[:1] == "p" and m.actor[1:].isascii() and m.actor[1:].isdecimal()
            and len(m.actor) <= 7]
    seats = set(acts)
    if not seats:
        return None
    top = max(seats)
    every = len(seats) == top + 1  # every seat up to the top one acts (no set of them all:
    # p999999 would make a million, issue 35)
    # every seat up to the top one acts, more than once past the header's count: a seat
    # left out of the header, not a mistyped actor
    if top >= n and every and sum(a >= n for a in acts) >= 2:
        return (f"the header names {n} player(s), but p{top} acts in this record (a "
                f"{top + 1}-seat game): is a name missing?")
    if (len(seats) >= 2 and every and top < n - 1
            and len(rec.moves) > 4 * n):
        return (f"the header names {n} players, but no seat above p{top} acts in this "
                f"record (a {top + 1}-seat game): is there a name too many?")
    return None


def _players_error(rec: Record, n: int, line_of, path: str, err: ReplayError) -> ReplayError:
    """``err``, or the error at the ``Players`` header when it names the wrong number."""
    why = players_mismatch(rec, n)
    if why is None:
        return err
    if not callable(line_of):
        line_of = _unpack(line_of, path)[1]
    return ReplayError(f"Players: {why} (the first action that fails: {err.message})",
                       line=line_of("Players"), col=2, path=path, ply=err.ply,
                       rule="players", legal=())


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
    try:
        for _move, action in _play(game, state, moves, move_lines, path):
            actions.append(action)
    except ReplayError as e:
        raise _players_error(rec, setup.players, line_of, path, e) from None
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
        action = _step(game, state, move, i + 1, move_lines[i] if move_lines else 0, path)
        state.push(action)
        yield move, action


def _step(game: Game, state: State, move: Move, ply: int, line: int, path: str) -> Action:
    """The action of ``move`` at ``ply``, checked (not played); raises the located error."""
    try:
        seat = parse_actor(move.actor)
    except NotationError as e:
        raise _error(game, state, move, ply, line, path, e.message, legal=()) from None
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
    return action


def legal_texts(game: Game, state: State) -> tuple[str, ...]:
    return tuple(game.format_action(state, a) for a in state.legal_actions())


def _check_result(rec: Record, game: Game, state: State, line_of, path: str, plies: int) -> None:
    """Raise the located error of a ``Result`` tag the final state disagrees with.
    ``line_of`` is ``_unpack``'s line finder, or the record itself (the finder is then
    made only for an error)."""
    tag = rec.headers.get("Result", UNFINISHED).strip()
    result = state.result()
    if result is None:
        if tag != UNFINISHED:
            raise ReplayError(
                f"after ply {plies} the game is not over, so Result must be \"*\", "
                f"not {short(tag)}",
                line=_result_line(line_of, path), col=2, path=path, ply=plies, rule="result",
            )
        return
    # = result.to_text(), without its generator
    want = " ".join(map(str, result.scores)) if type(result) is Result else result.to_text()
    if tag != want:
        raise ReplayError(
            f"Result {short(tag)} does not match the game, which ends {short(want)}",
            line=_result_line(line_of, path), col=2, path=path, ply=plies, rule="result",
        )


def _result_line(line_of, path: str) -> int:
    if not callable(line_of):
        line_of = _unpack(line_of, path)[1]
    return line_of("Result")


def replay_states(loc: Located | Record, *, path: str | None = None) -> Iterator[State]:
    """The state before the first action and after each action (one object, mutated)."""
    rec, _line_of, path = _unpack(loc, path)
    game, setup = setup_of(loc, path=path)
    state = game.new_state(setup.players, setup.variant)
    yield state
    move_lines = loc.move_lines if isinstance(loc, Located) else None
    try:
        for _ in _play(game, state, rec.moves, move_lines, path):
            yield state
    except ReplayError as e:
        raise _players_error(rec, setup.players, _line_of, path, e) from None


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


# --- the fast path: many records, exact legality --------------------------------------------

_SEATS: dict[str, int] = {"d": DEALER, **{f"p{i}": i for i in range(100)}}
"""Actor tokens the fast loop knows; any other token goes the checked way (``_step``)."""
_ACTORS = tuple(f"p{i}" for i in range(100))
"""Each seat's actor token (what a game's ``run_moves`` compares a move's actor with)."""

MEMO_LIMIT = 50_000
"""Entries of an action memo before it is emptied (memory stays bounded)."""
MEMO_TEXT_MAX = 40
"""Longer action texts (deals) are rarely repeated, so they are not memoised."""
_NO_MEMO: dict[str, Action] = {}
"""Never written: the memo of a game whose parsing depends on the state."""


class FastReplayer:
    """Replays many records with exactly the legality checks and errors of :func:`replay`,
    doing once what can be done once.

    - A record's ``Game``/``Rules``/``Players`` headers are resolved once per distinct
      (game, rules, player count) and the result reused.
    - Each record starts from a ``copy()`` of a new state kept per setup (a copy of a new
      state is a new state; copying skips building the variant's tables again), played
      forward only (``State.forward_only``: no undo snapshots). The state returned cannot
      be popped.
    - For games whose ``parse_action`` ignores the state (``Game.parse_is_stateless``),
      action text -> action is memoised (bounded: the memo is emptied at
      :data:`MEMO_LIMIT` entries; texts longer than :data:`MEMO_TEXT_MAX` are not kept).
    - The per-action loop calls ``State.step`` (``check`` and ``push`` in one) directly;
      anything unusual (an unknown actor token, not the mover, text that does not parse, an
      illegal action) is handed to the same step :func:`replay` uses, which raises the same
      located error (legal actions are listed only then).
    - A game whose state has ``run_moves`` (TWEAK, GRAPH-T) plays a record's plain
      stretches in its own loop (the mover's token, a memoised or newly parsed text, the
      common kind of action, legal) and hands back the first move it does not take.

    >>> from kifu.notation.reader import parse_record
    >>> rec = parse_record('[Game "tweak"]\\n[Rules "tweak/1"]\\n[Players "a, b"]\\n'
    ...                    '[Result "*"]\\n\\nd dealer p1\\n')
    >>> FastReplayer().play(rec).to_move
    -1
    """

    def __init__(self) -> None:
        self._setups: dict[tuple[str, str, int], tuple[Game, Setup]] = {}
        self._memos: dict[str, dict[str, Action]] = {}
        self._fresh: dict[Setup, State] = {}
        self._plans: dict[tuple[str, str, int], tuple] = {}
        """Per (Game, Rules, player count) header key: what ``play`` needs to start a
        record (the game, the new state to copy, the action memo, whether ``step`` is
        the game's own), so a record of a known setup hashes no ``Setup``."""

    def setup(self, loc: Located | Record, *, path: str | None = None) -> tuple[Game, Setup]:
        """:func:`setup_of`, remembered per distinct (Game, Rules, player count)."""
        h = loc.record.headers if isinstance(loc, Located) else loc.headers
        game_tag, rules, players = h.get("Game"), h.get("Rules"), h.get("Players")
        if game_tag is None or rules is None or players is None:
            return setup_of(loc, path=path)  # raises the located error
        key = (game_tag, rules, players.count(",") + 1 if players.strip() else 0)
        found = self._setups.get(key)
        if found is None:
            found = setup_of(loc, path=path)
            if len(self._setups) >= 1000:
                self._setups.clear()
            self._setups[key] = found
        return found

    def _plan(self, loc: Located | Record, path: str | None) -> tuple:
        """The plan of ``loc``'s setup (see ``_plans``), made and kept; raises the located
        error of a bad ``Game``, ``Rules`` or ``Players`` header."""
        game, setup = self.setup(loc, path=path)
        template = self._fresh.get(setup)
        if template is None:
            template = game.new_state(setup.players, setup.variant)
            if len(self._fresh) >= 1000:
                self._fresh.clear()
            self._fresh[setup] = template
        memo = self._memos.get(game.id) if game.parse_is_stateless else None
        if memo is None and game.parse_is_stateless:
            memo = self._memos[game.id] = {}
        fused = type(template).step is not State.step  # else check and push: one call fewer
        # a game's run of plain moves (``run_moves``), for games with an action memo
        runs = memo is not None and getattr(type(template), "run_moves", None) is not None
        plan = (game, template, memo, fused, runs)
        h = loc.record.headers if isinstance(loc, Located) else loc.headers
        players = h["Players"]  # setup() found every header
        if len(self._plans) >= 1000:
            self._plans.clear()
        self._plans[(h["Game"], h["Rules"], players.count(",") + 1 if players.strip() else 0)] = (
            plan
        )
        return plan

    def play(
        self, loc: Located | Record, *, path: str | None = None, check_result: bool = True
    ) -> State:
        """Replay the whole record and return the final state; raise what :func:`replay`
        raises, word for word."""
        if type(loc) is Located:
            rec = loc.record
            move_lines: list[int] | None = loc.move_lines
            path = path or loc.path
        else:
            rec, _lines, path = _unpack(loc, path)  # type: ignore[assignment]
            move_lines = loc.move_lines if isinstance(loc, Located) else None
        h = rec.headers
        game_tag, rules, players = h.get("Game"), h.get("Rules"), h.get("Players")
        plan = None
        if game_tag is not None and rules is not None and players is not None:
            plan = self._plans.get(
                (game_tag, rules, players.count(",") + 1 if players.strip() else 0)
            )
        if plan is None:
            plan = self._plan(loc, path)
        game, template, memo, fused, runs = plan
        state = template.copy()  # a new state, without building its tables again
        state.forward_only()
        keep = memo is not None  # texts -> actions are memoised
        memo_get = memo.get if memo is not None else _NO_MEMO.get
        seat_of = _SEATS.get
        parse, step = game.parse_action, state.step
        run = state.run_moves if runs else None  # type: ignore[attr-defined]

        def resolve(text: str) -> Action | None:
            """A text the memo lacks, parsed and memoised (None: it does not parse, and
            the checked step will say why)."""
            try:
                action = parse(state, text)
            except (NotationError, IllegalActionError):
                return None
            if len(text) <= MEMO_TEXT_MAX:
                if len(memo) >= MEMO_LIMIT:  # type: ignore[arg-type]
                    memo.clear()  # type: ignore[union-attr]
                memo[text] = action  # type: ignore[index]
            return action

        moves = rec.moves
        end = len(moves)
        mover = state.to_move
        ply = 0  # the moves played so far
        while True:
            if run is not None and mover != DEALER:  # the game's own loop from here
                ply = run(moves, ply, memo_get, _ACTORS, resolve)
                mover = state.to_move
            if ply >= end:
                break
            move = moves[ply]
            ply += 1
            if seat_of(move.actor, -2) == mover:
                text = move.text
                action = memo_get(text)
                try:
                    if action is None:
                        action = parse(state, text)
                        if keep and len(text) <= MEMO_TEXT_MAX:
                            if len(memo) >= MEMO_LIMIT:  # type: ignore[arg-type]
                                memo.clear()  # type: ignore[union-attr]
                            memo[text] = action  # type: ignore[index]
                    if fused:
                        mover = step(action)
                    else:
                        state.check(action)
                        state.push(action)
                        mover = state.to_move
                    continue
                except (NotationError, IllegalActionError):
                    pass
            # anything unusual (an unknown actor token, not the mover, text that does not
            # parse, an illegal action): the checked step raises the error replay() gives,
            # with the legal actions
            try:
                action = _step(game, state, move, ply, move_lines[ply - 1] if move_lines else 0,
                               path)
            except ReplayError as e:
                raise _players_error(rec, state.n, loc, path, e) from None
            state.push(action)
            mover = state.to_move
        if check_result:
            _check_result(rec, game, state, loc, path, ply)
        return state


_DEFAULT = FastReplayer()


def replay_fast(loc: Located | Record, *, path: str | None = None) -> State:
    """Replay a whole record on the fast path (a shared :class:`FastReplayer`) and return
    its final state; the errors are exactly those of :func:`replay`."""
    return _DEFAULT.play(loc, path=path)
