"""kifu's games as OpenSpiel Python games (``pip install 'kifu[openspiel]'``).

Importing this module registers ``kifu_tweak``, ``kifu_graph_t``, ``kifu_towai``,
``kifu_lianxian`` and ``kifu_alice``; each takes the parameters ``players`` (a seat count),
``rules`` (a kifu rules spec such as ``tweak/1;rounds=1``; empty for the default rules) and
``returns`` (``shares``: kifu's pairwise share, constant-sum, n/2 in all; ``scores``: the
game's own scores, general-sum). ``docs/interop.md`` has the action ids, the chance nodes,
the observations and an example.

>>> import pyspiel
>>> from kifu.interop import openspiel as _
>>> game = pyspiel.load_game("kifu_graph_t", {"players": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 20)
"""

from __future__ import annotations

from bisect import bisect_left
from functools import partial
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as e:  # pragma: no cover - only without the extra
    raise ImportError("OpenSpiel is not installed: pip install 'kifu[openspiel]' "
                      f"(open-spiel) ({e})") from None

from kifu import games
from kifu.bots import MAX_PLIES
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.interop.bridge import GAME_IDS, TERMINAL, Position, setup_for

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
if int(pyspiel.PlayerId.CHANCE) != DEALER or _TERMINAL != TERMINAL:  # pragma: no cover
    raise ImportError("OpenSpiel's chance or terminal player id is not the bridge's")

_BYTE_FLOAT = (np.arange(256) / 127.0).astype(np.float32)
"""byte -> byte / 127 as float32 (the tensor's values, one table read a character)."""

VIEW_CHARS = {"tweak": 512, "graph-t": 256, "towai": 512, "lianxian": 512, "alice": 1024}
"""The length of the ``view`` tensor: one float per character of the seat's view line
(its byte value / 127), zeros after it. A longer view raises (the tests play every game to
the end at every seat count under this bound)."""


def short_name(game_id: str) -> str:
    """``kifu_tweak``, ``kifu_graph_t``...: OpenSpiel's name of a kifu game."""
    return "kifu_" + game_id.replace("-", "_")


def spiel_rules(spec: str) -> str:
    """A kifu rules spec as an OpenSpiel parameter value: OpenSpiel's game strings split
    on ``=`` and ``,``, so ``=`` is written ``:`` and ``,`` is written ``+``
    (``tweak/1;rounds:1``). :func:`kifu_rules` reads either form.

    >>> spiel_rules("tweak/1;backs=7,8;rounds=1")
    'tweak/1;backs:7+8;rounds:1'
    """
    return spec.replace("=", ":").replace(",", "+")


def kifu_rules(value: str) -> str:
    """The kifu rules spec of an OpenSpiel ``rules`` value (either form).

    >>> kifu_rules("tweak/1;backs:7+8;rounds:1")
    'tweak/1;backs=7,8;rounds=1'
    """
    return value.replace(":", "=").replace("+", ",")


def _game_type(game_id: str, returns: str = "shares") -> pyspiel.GameType:
    game = games.get(game_id)
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"kifu {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.CONSTANT_SUM if returns == "shares"
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": max(3, game.min_players), "rules": "",
                                 "returns": "shares"},
    )


class KifuGame(pyspiel.Game):
    """One kifu game at one seat count and rules, as an OpenSpiel game."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", max(3, games.get(self.game_id).min_players)))
        rules = kifu_rules(str(params.get("rules", "")))
        returns = str(params.get("returns", "shares"))
        self.setup = setup_for(self.game_id, players, rules, returns)
        scores = returns == "scores"
        info = pyspiel.GameInfo(
            num_distinct_actions=self.setup.codec.num_actions,
            max_chance_outcomes=self.setup.codec.max_chance,
            num_players=players,
            min_utility=-1e9 if scores else 0.0,
            max_utility=1e9 if scores else 1.0,
            utility_sum=None if scores else players / 2,
            max_game_length=MAX_PLIES,
        )
        super().__init__(_game_type(self.game_id, returns), info,
                         {"players": players, "rules": spiel_rules(rules),
                          "returns": returns})

    def new_initial_state(self, position: Position | None = None) -> KifuState:
        return KifuState(self, position)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KifuObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return KifuObserver(self, perfect_recall)


class _PlayerReader(partial):
    """``partial(getattr, position, "player")``: the state's ``current_player`` as a
    C-level callable (pyspiel's C++ ``apply_action`` calls ``current_player`` back at
    every step; a Python method costs about 70 ns more a call). A deep copy is the
    reader itself: :meth:`KifuState.__setattr__` binds a new one to the state's own
    position whenever ``pos``, ``position`` or ``current_player`` is set (pyspiel's
    ``clone`` deep-copies each attribute of a Python state on its own, so a copied reader
    would read a second copy of the position)."""

    def __deepcopy__(self, memo: dict) -> _PlayerReader:
        return self


class KifuState(pyspiel.State):
    """An OpenSpiel state over a :class:`kifu.interop.bridge.Position` (``pos``)."""

    # ``pos`` is a slot: every method reads it, and a slot is read in about 6 ns where an
    # attribute of a pybind11 object's ``__dict__`` takes about 27 (a step reads it four
    # times). pyspiel's clone and serialization copy the ``__dict__`` only, so the position
    # is there too, as ``position``; __setattr__ keeps the two (and the reader) together.
    __slots__ = ("__dict__", "pos")

    def __init__(self, game: KifuGame, position: Position | None = None) -> None:
        super().__init__(game)
        self.pos = position if position is not None else game.setup.start()

    def __setattr__(self, name: str, value: Any) -> None:
        # ``pos`` (or ``position``) and ``current_player`` are set together: by __init__,
        # and by pyspiel's clone and deserialization (which set every item of the
        # original's ``__dict__``: ``position``, ``current_player``); the reader always
        # reads this state's own position
        put = pyspiel.State.__setattr__
        if name == "pos" or name == "position":
            put(self, "pos", value)
            put(self, "position", value)
            put(self, "current_player", _PlayerReader(getattr, value, "player"))
            return
        if name == "current_player":
            value = _PlayerReader(getattr, self.pos, "player")
        put(self, name, value)

    def current_player(self) -> int:  # shadowed by each state's reader (__setattr__)
        # kifu's DEALER is OpenSpiel's CHANCE (-1); C++ asks this at every apply_action:
        # the position keeps the answer (``Position.player``)
        return self.pos.player

    def _legal_actions(self, player: int) -> list[int]:
        # pyspiel asks this for any player: a seat not to move has none (OpenSpiel's rule)
        seat = self.pos.seat
        if seat is None:
            return []
        if seat == DEALER:
            return [c for c, _p in self.pos.chance_outcomes()]
        return self.pos.legal_ids() if player == seat else []

    # The next two answer from Python what pyspiel's C++ would answer by calling back into
    # Python (current_player, _legal_actions) and converting the list both ways: the same
    # values, a crossing less per call from Python (C++ callers still take the C++ path).
    def legal_actions(self, player: int | None = None) -> list[int]:
        pos = self.pos
        seat = pos.seat
        if player is not None and player != seat:  # rare: pyspiel's own answer
            return pyspiel.State.legal_actions(self, player)
        if seat is None:
            return []
        if seat == DEALER:
            return [c for c, _p in pos.chance_outcomes()]
        legal = pos._legal
        if legal is None:  # Position.legal_ids, written out: a call less a step
            codec = pos.setup.codec
            of = codec.legal_of
            legal = pos._legal = (of(pos.state) if of is not None
                                  else codec.pairs(pos.state.legal_actions()))
        return list(legal[0])

    def is_chance_node(self) -> bool:
        return self.pos.seat == DEALER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        pos = self.pos
        left = pos._pile
        if left is not None:  # a pick whose pile is counted: Position's case, written out
            rows = pos._rows
            if rows is not None:  # Position.chance_outcomes's table, written out
                row = rows[pos._left_n]
                return [row[c][k] for c, k in left.items()]
            total = pos._left_n  # ascending: built from a sorted pool
            return [(c, k / total) for c, k in left.items()]
        return pos.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        # pyspiel's C++ apply_action calls this at every step. Position.apply_id's two
        # common cases are written out here (a Python call less a step): a player's legal
        # id once the legal list is known, and a pick that does not end its pile; every
        # other case (and any error) is Position.apply_id's own.
        pos = self.pos
        seat = pos.seat
        if seat is not None and seat >= 0:
            legal = pos._legal
            if legal is not None:
                ids = legal[0]
                i = bisect_left(ids, action)
                if i < len(ids) and ids[i] == action:
                    act = legal[1][i]
                    state = pos.state
                    state.push(act)  # from the legal list: known legal
                    pos.seat = seat = state.to_move
                    pos.player = _TERMINAL if seat is None else seat
                    pos.actions.append(act)
                    pos._views = None
                    pos._plan = False
                    pos._legal = None
                    pos._chance = None
                    return
        elif seat is not None:
            pile = pos._pile
            if pile is not None:
                k = pile.get(action, 0)
                picks = pos.picks
                if k > 0 and len(picks) + 1 < pos._seg_end:
                    if k == 1:
                        del pile[action]
                    else:
                        pile[action] = k - 1
                    pos._left_n -= 1
                    picks.append(action)
                    return
        pos.apply_id(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.pos.action_text(DEALER if player < 0 else player, action)

    def is_terminal(self) -> bool:
        return self.pos.seat is None

    def returns(self) -> list[float]:
        return self.pos.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> KifuState:
        """A state ``player_id`` cannot tell from this one, drawn by kifu's world sampler
        (seeded from one draw of ``probability_sampler``)."""
        seed = int(float(probability_sampler()) * (1 << 53))
        return KifuState(self.get_game(), self.pos.world(player_id, Rng(seed)))

    def record(self) -> str:
        """The kifu record of the game so far (what ``kifu validate`` reads)."""
        return self.pos.record_text()

    def __str__(self) -> str:
        line = self.pos.state.to_line()
        if self.pos.picks:
            line += " picks " + ",".join(map(str, self.pos.picks))
        return line


class KifuObserver:
    """Observation (``p<seat> `` + the seat's view line) and information state (the same
    with the ply count); tensors: the seat one-hot and the view line's characters."""

    def __init__(self, game: KifuGame, perfect_recall: bool) -> None:
        n = game.setup.players
        self.perfect_recall = perfect_recall
        self.width = VIEW_CHARS[game.game_id]
        self.tensor = np.zeros(n + self.width, np.float32)
        self.dict = {"seat": self.tensor[:n], "view": self.tensor[n:]}

    def set_from(self, state: KifuState, player: int) -> None:
        self.tensor.fill(0)
        self.dict["seat"][player] = 1
        view = state.pos.view(player).encode("ascii")
        if len(view) > self.width:
            raise ValueError(f"a view of {len(view)} characters is longer than the "
                             f"tensor's {self.width}")
        self.dict["view"][:len(view)] = _BYTE_FLOAT[np.frombuffer(view, np.uint8)]

    def string_from(self, state: KifuState, player: int) -> str:
        head = f"p{player}"
        if self.perfect_recall:
            head += f" ply {len(state.pos.actions)}"
        return f"{head} {state.pos.view(player)}"


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for gid in GAME_IDS:
        name = short_name(gid)
        if name in registered:
            continue
        cls = type(f"Kifu_{name}", (KifuGame,), {"game_id": gid})
        pyspiel.register_game(_game_type(gid), cls)


_register()


def load(game_id: str, players: int, rules: str = "", returns: str = "shares") -> KifuGame:
    """``pyspiel.load_game`` for a kifu game id (``tweak``...)."""
    return pyspiel.load_game(short_name(games.get(game_id).id),
                             {"players": players, "rules": spiel_rules(rules),
                              "returns": returns})


def state_from_actions(game: KifuGame, actions: list) -> KifuState:
    """An OpenSpiel state that played kifu ``actions`` from the start (each shuffle as its
    picks, so the OpenSpiel history is complete)."""
    from kifu.interop.bridge import history_ids

    state = game.new_initial_state()
    for i in history_ids(game.setup, actions):
        state.apply_action(i)
    return state
