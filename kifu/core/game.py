"""The Game contract every kifu game implements.

A :class:`Game` is a stateless description of one game: its id, its rule-variant struct, its
notation codec and its bots. A :class:`State` is one mutable position with ``apply``/``undo``:
search walks the tree with ``push``/``pop`` instead of copying, and ``copy()`` is cheap
because every zone inside a state is an immutable tuple that copies share.

Whose decision it is: ``state.to_move`` is a seat ``0..n-1``, :data:`DEALER` for chance
(shuffles, deals, random steals), or ``None`` once the game is over. Every chance event is a
dealer action with an explicit outcome, so a list of actions replays with no RNG.
"""

from __future__ import annotations

import importlib
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterator, Sequence
from fractions import Fraction
from typing import Any, ClassVar, NoReturn

import msgspec

from kifu.core.errors import IllegalActionError, KifuError, NotationError, VariantError
from kifu.core.registry import canonical_id
from kifu.core.rng import Rng
from kifu.core.variant import Variant, rules_spec, short, variant_from_pairs

DEALER = -1
"""The seat number of the dealer, who makes every chance decision."""


def actor_name(seat: int) -> str:
    """``d`` for the dealer, ``p0``.. for the players."""
    return "d" if seat == DEALER else f"p{seat}"


def parse_actor(text: str) -> int:
    """The seat of an actor token (``d``, ``p0``, ``p1``...); raises :class:`NotationError`
    (column 1 of the token) otherwise.

    >>> parse_actor("p2"), parse_actor("d") == DEALER
    (2, True)
    """
    if text == "d":
        return DEALER
    digits = text[1:]
    if (
        2 <= len(text) <= 7
        and text[0] == "p"
        and digits.isascii()
        and digits.isdecimal()
        and (digits[0] != "0" or len(digits) == 1)
    ):
        return int(digits)
    raise NotationError(f"bad actor {short(text)}: expected d or p0, p1, ... (ASCII digits)",
                        col=1)


class Action(msgspec.Struct, frozen=True):
    """Base class of every game's actions: small, frozen and hashable."""


class Result(msgspec.Struct, frozen=True):
    """The outcome of a game: a score and a rank (1 = first, shared ranks allowed) per seat."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]

    @classmethod
    def from_keys(cls, scores: tuple[int, ...], keys: tuple[Any, ...] | None = None) -> Result:
        """Ranks by ``keys`` (default: the scores), higher is better; equal keys share a rank.

        >>> Result.from_keys((30, 41, 30)).ranks
        (2, 1, 2)
        """
        keys = scores if keys is None else keys
        ranks = tuple(1 + sum(1 for other in keys if other > k) for k in keys)
        return cls(tuple(scores), ranks)

    def to_text(self) -> str:
        """The ``Result`` header value: the seats' scores, space-separated."""
        return " ".join(str(s) for s in self.scores)


class State(ABC):
    """One position of a game, mutable, with an undo stack.

    Subclasses keep every zone as an immutable value (ints and tuples), so that ``copy`` is a
    shallow copy, ``key`` is a tuple of fields and the undo stack holds snapshots.
    """

    game: ClassVar[Game]
    __slots__ = ("history", "n", "variant")

    variant: Any
    n: int
    history: list[Action]

    def __init__(self, n: int, variant: Any) -> None:
        """What every game's state starts with: ``n`` seats, the rules, no history and an
        empty undo stack (``_undo``, a slot of each game's state)."""
        self.n = n
        self.variant = variant
        self.history = []
        self._undo: list[tuple] = []

    # --- whose turn, the end ------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat to act, :data:`DEALER` for a chance event, ``None`` when the game is over."""

    def is_terminal(self) -> bool:
        return self.to_move is None

    def turn_note(self) -> str:
        """Why ``to_move`` is to act, when that is not simply their turn (for messages,
        e.g. ``"to answer p0's Bomb"``); empty by default."""
        return ""

    @abstractmethod
    def result(self) -> Result | None:
        """The final result, or ``None`` while the game goes on."""

    # --- actions ------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action, each distinct action once (empty for a terminal state, and for
        a chance event whose outcomes are not enumerable, such as a shuffle)."""

    def chance_outcomes(self) -> list[tuple[Action, Fraction]] | None:
        """At a dealer node: every distinct outcome with its exact probability (the
        probabilities sum to 1), or ``None`` where the outcomes are not enumerable (a
        shuffle). Probabilities count physical components: a card held twice is twice as
        likely to be drawn. The exhaustive solver (``kifu.puzzles``) weighs chance nodes by
        these; at a player's node the answer is ``None``."""
        return None

    def count_legal(self) -> int:
        """``len(self.legal_actions())``; games override it with a cheaper count."""
        return len(self.legal_actions())

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalActionError:
            return False
        return True

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` (with the rule broken) unless ``action`` is legal.

        The default tests membership in ``legal_actions()``. A game whose chance events are
        not enumerable (a shuffle or deal: ``legal_actions()`` is empty there) overrides this
        to validate such an action directly, then defers to ``super().check``."""
        if self.to_move is None:
            raise IllegalActionError("the game is over", rule="end")
        if action in self.legal_actions():
            return
        self.refuse(action)

    def refuse(self, action: Action) -> NoReturn:
        """Raise the :class:`IllegalActionError` :meth:`explain_illegal` gives for
        ``action`` (how every ``check`` ends when the action is not legal)."""
        message, rule = self.explain_illegal(action)
        raise IllegalActionError(message, rule=rule)

    def explain_illegal(self, action: Action) -> tuple[str, str]:
        """Why ``action`` is illegal here: (message, rule id). Games override this."""
        return (f"{action!r} is not legal here", "")

    def apply(self, action: Action) -> Action:
        """Check ``action``, then play it. Returns the action applied."""
        self.check(action)
        self.push(action)
        return action

    def forward_only(self) -> None:
        """Allow the state to keep no undo snapshots from now on: for a state that is only
        played forward (the fast replay path). A game that skips them (where that saves
        time) raises ``IndexError`` on ``pop``, as with nothing to undo; a ``copy()`` keeps
        snapshots again. The default keeps them."""
        return None

    def step(self, action: Action) -> int | None:
        """Check ``action``, play it, and return the new ``to_move``: ``check`` then
        ``push``, in one call (the fast replay path's per-action step).

        Raises what ``check`` raises, with the state unchanged; the ply is undone by ``pop``
        like any other. A game may override this to share work between the two."""
        self.check(action)
        self.push(action)
        return self.to_move

    @abstractmethod
    def push(self, action: Action) -> None:
        """Play ``action`` without checking it (for search; like python-chess ``push``)."""

    @abstractmethod
    def pop(self) -> Action:
        """Undo the last action and return it."""

    # --- identity -----------------------------------------------------------------------
    @abstractmethod
    def key(self) -> Hashable:
        """A hashable key equal for equal positions (history excluded)."""

    @abstractmethod
    def copy(self) -> State:
        """An independent state at the same position (the undo stack is not copied)."""

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.key() == other.key()  # type: ignore[union-attr]

    def __hash__(self) -> int:
        return hash(self.key())

    def set_fields(self, **values: Any) -> None:
        """Set each named attribute (how a position reader fills a fresh state)."""
        for name, value in values.items():
            setattr(self, name, value)

    def check_invariants(self) -> None:
        """Raise ``AssertionError`` if the state is inconsistent (a card lost or duplicated,
        a count out of range). Used by the property tests after every action."""
        return None

    # --- text ---------------------------------------------------------------------------
    @abstractmethod
    def to_line(self) -> str:
        """The position line: everything needed to resume play, in one canonical line."""

    @abstractmethod
    def view(self, seat: int) -> str:
        """The position line as ``seat`` sees it: cards hidden from that seat become ``?``."""

    @abstractmethod
    def render(self) -> str:
        """A multi-line text picture of the position for people."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_line()}>"


class Bot(ABC):
    """A deterministic player: the same seed and the same positions give the same choices."""

    name: ClassVar[str]
    peeks: ClassVar[bool] = False
    """Whether :meth:`choose` may read a part of the position its seat cannot see (an
    oracle, or a heuristic that looks at a hidden card). Such a bot is labelled so in
    ``docs/bots.md``, and the searchers ask it for their default choice only in worlds
    sampled from the seat's information (``kifu.bots.evaluate.default_action``)."""

    def __init__(self, seat: int, rng: Rng):
        self.seat = seat
        self.rng = rng

    @abstractmethod
    def choose(self, state: State) -> Action:
        """A legal action for ``state`` (whose ``to_move`` is this bot's seat)."""


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    name = "random"

    def choose(self, state: State) -> Action:
        return self.rng.choice(state.legal_actions())


class Game(ABC):
    """A game: metadata, the rules-variant struct, the notation codec, the bots."""

    id: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    rules_version: ClassVar[int] = 1
    Variant: ClassVar[type[Variant]]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    bots: ClassVar[dict[str, type[Bot]]] = {"random": RandomBot}
    example_variants: ClassVar[tuple[Variant, ...]] = ()
    """Interesting non-default variants, for property tests (random playouts under each)."""
    parse_is_stateless: ClassVar[bool] = False
    """True when ``parse_action`` ignores its state (the same text always gives the same
    action or the same error): fast replay may then memoise action text -> action."""

    # --- states -------------------------------------------------------------------------
    state_class: ClassVar[Callable[[int, Any], State]]
    """The game's state, built as ``state_class(players, variant)``."""

    def new_state(self, players: int, variant: Variant | None = None) -> State:
        """The state before the first dealer action (the default rules when ``variant`` is
        None)."""
        self.check_players(players)
        variant = variant if variant is not None else self.Variant()
        self.check_variant(variant, players)
        return self.state_class(players, variant)

    def check_variant(self, variant: Variant, players: int) -> None:  # noqa: B027 (a hook)
        """Raise :class:`VariantError` when ``variant`` cannot be played by ``players``
        (:meth:`new_state` asks; the default accepts any)."""

    @abstractmethod
    def from_line(self, line: str) -> State:
        """Parse a position line (raises :class:`NotationError`)."""

    # --- the codec ----------------------------------------------------------------------
    @abstractmethod
    def parse_action(self, state: State, text: str) -> Action:
        """The action meant by ``text`` for the actor to move in ``state``.

        Raises :class:`NotationError` (with ``col`` relative to ``text``, 1-based) when the
        text is not an action of this game, and :class:`IllegalActionError` when it names
        something that cannot be (a card the actor does not hold...)."""

    @abstractmethod
    def format_action(self, state: State, action: Action) -> str:
        """The canonical text of ``action`` played from ``state``."""

    @abstractmethod
    def chance_action(self, state: State, rng: Rng) -> Action:
        """A dealer action for ``state`` drawn from ``rng`` (how a seed expands)."""

    # --- worlds (hidden information) ----------------------------------------------------
    def world_sampler(self, state: State, seat: int) -> Callable[[Rng], State]:
        """What ``seat`` knows of ``state``, worked out once, as a function that draws
        *worlds*: full states ``seat`` cannot tell from ``state`` (the same ``view(seat)``,
        and nothing that contradicts what earlier actions showed it, read from
        ``state.history`` when that starts at the beginning of the game), with the hidden
        parts drawn uniformly from what is consistent. Each game writes it in
        ``kifu/games/<game>/worlds.py`` (which parts count as known: ``docs/bots.md``).

        The default raises :class:`KifuError`: the game has no sampler."""
        raise KifuError(f"{self.id} has no world sampler (kifu/games/<game>/worlds.py)")

    def sample_world(self, state: State, seat: int, rng: Rng) -> State:
        """One world for ``seat`` drawn from ``rng`` (see :meth:`world_sampler`, which a
        caller drawing many worlds of one position should use instead)."""
        return self.world_sampler(state, seat)(rng)

    # --- variants -----------------------------------------------------------------------
    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise VariantError(
                f"{self.id} takes {self.min_players}..{self.max_players} players, not {players}"
            )

    def rules_spec(self, variant: Variant | None = None) -> str:
        """The canonical rules token, e.g. ``tweak/1;rounds=1``."""
        variant = variant if variant is not None else self.Variant()
        return rules_spec(self.id, self.rules_version, variant)

    def parse_rules(self, spec: str) -> Variant:
        """The variant named by a rules token (raises :class:`VariantError`)."""
        if not (spec.isascii() and spec.isprintable()) or " " in spec:
            raise VariantError(f"a rules spec is one token of printable ASCII, not {short(spec)}")
        head, *fields = spec.split(";")
        name, _, version = head.partition("/")
        if canonical_id(name) != self.id:
            raise VariantError(f"rules {short(spec)} are not for {self.id}")
        if version and version != str(self.rules_version):
            raise VariantError(
                f"{self.id} rules version {version[:40]} is not known (this kifu has "
                f"{self.rules_version})"
            )
        pairs = []
        for f in fields:
            k, eq, v = f.partition("=")
            if not eq or not k:
                raise VariantError(f"bad variant field {short(f)}: expected name=value")
            pairs.append((k, v))
        return variant_from_pairs(self.Variant, pairs)

    def split_line(self, line: str) -> tuple[Variant, list[str]]:
        """Split a position line into its variant and its remaining fields (a position line
        is printable ASCII; anything else is refused at its column)."""
        if not (line.isascii() and line.isprintable()):
            at = next(i for i, c in enumerate(line) if not " " <= c <= "~")
            raise NotationError(f"a position line is printable ASCII; {line[at]!r} is not",
                                line=1, col=at + 1)
        if len(line) > 100_000:
            raise NotationError("a position line may have at most 100000 characters",
                                line=1, col=100_001)
        fields = line.split()
        if not fields:
            raise NotationError("empty position line", line=1, col=1)
        try:
            variant = self.parse_rules(fields[0])
        except VariantError as e:
            raise NotationError(self._rules_token_error(fields[0], e), line=1, col=1) from None
        return variant, fields[1:]

    def split_fields(self, line: str, names: Sequence[str]) -> tuple[Variant, list[str], list[int]]:
        """:meth:`split_line`, then the remaining fields checked to be as many as ``names``
        (a located error otherwise), with the 1-based column of each."""
        variant, fields = self.split_line(line)
        cols = [m.start() + 1 for m in re.finditer(r"\S+", line)][1:]
        if len(fields) != len(names):
            article = "an" if self.id[0] in "aeiou" else "a"
            raise NotationError(
                f"{article} {self.id} position has {len(names) + 1} fields "
                f"(rules, {', '.join(names)}), not {len(fields) + 1}", line=1,
                col=cols[len(names)] if len(fields) > len(names) else len(line) + 1)
        return variant, fields, cols

    def _rules_token_error(self, token: str, error: VariantError) -> str:
        """What is wrong with the first field of a position line: a line that does not
        start with a rules token at all is told so (not "unknown game 'R1R2...'")."""
        name = token.split(";", 1)[0].split("/", 1)[0]
        try:
            canonical_id(name)
        except VariantError:
            return (f"a position line starts with its rules, e.g. {self.rules_spec()}; "
                    f"{short(token, 24)} is not a rules token")
        return str(error)

    def __repr__(self) -> str:
        return f"<Game {self.id}>"


def perft(state: State, depth: int) -> int:
    """Count the leaves of the action tree ``depth`` plies deep (dealer actions included).

    Like chess perft, a path that reaches the end of the game (or a shuffle, whose outcomes
    are not enumerable) before ``depth`` plies counts 0. The last level is counted in bulk
    with ``count_legal``.
    """
    if depth <= 0:
        return 1
    if depth == 1:
        return state.count_legal()
    total = 0
    push, pop = state.push, state.pop
    if depth == 2:  # the level above the leaves, inlined: most calls would land here
        count = state.count_legal
        for action in state.legal_actions():
            push(action)
            total += count()
            pop()
        return total
    for action in state.legal_actions():
        push(action)
        total += perft(state, depth - 1)
        pop()
    return total


def walk(state: State, depth: int) -> Iterator[State]:
    """Every state reached by exactly ``depth`` plies (the same state object, mutated)."""
    if depth == 0:
        yield state
        return
    for action in state.legal_actions():
        state.push(action)
        yield from walk(state, depth - 1)
        state.pop()


def check_deal_size(hands: tuple, n: int, rule: str) -> None:
    """Refuse a deal that does not give one hand to each of the ``n`` seats."""
    if len(hands) != n:
        raise IllegalActionError(f"the deal has {len(hands)} hands for {n} players", rule=rule)


def worlds_in(module: str) -> Callable[[Game, State, int], Callable[[Rng], State]]:
    """A :meth:`Game.world_sampler` that calls ``world_sampler(state, seat, game)`` of
    ``module`` (``kifu/games/<game>/worlds.py``), imported when first asked: loading a game
    does not load its sampler until a bot needs one."""

    def world_sampler(self: Game, state: State, seat: int) -> Callable[[Rng], State]:
        return importlib.import_module(module).world_sampler(state, seat, self)

    world_sampler.__doc__ = Game.world_sampler.__doc__
    return world_sampler
