"""kifu's games as PettingZoo AEC environments (``pip install 'kifu[pettingzoo]'``).

>>> from kifu.interop.pettingzoo import env
>>> e = env("graph-t", players=3)
>>> e.reset(seed=1)
>>> e.agents, e.agent_selection in e.agents
(['player_0', 'player_1', 'player_2'], True)

Agents are ``player_0``..``player_{n-1}`` (seats ``p0``...). The dealer is not an agent:
the environment plays kifu's own dealer (``game.chance_action``, a whole shuffle at once)
from the seed given to ``reset``, so ``reset(seed=s)`` deals what kifu deals from
``Rng(s)``. Each agent observes a dict: ``observation``, a float32 vector (the seat
one-hot, then the seat's view line, one character a float, as OpenSpiel's observation
tensor) and ``action_mask``, an int8 vector over the action ids (``docs/interop.md``).
The action space is ``Discrete(num_actions)`` with those ids. Rewards are zero until the
end, then each seat's pairwise share (or its score with ``returns="scores"``).
``render()`` returns kifu's text picture of the position (``render_mode="ansi"``) or
prints it (``"human"``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as e:  # pragma: no cover - only without the extra
    raise ImportError("PettingZoo is not installed: pip install 'kifu[pettingzoo]' "
                      f"({e})") from None

from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.interop.bridge import Position, setup_for

VIEW_CHARS = {"tweak": 512, "graph-t": 256, "towai": 512, "lianxian": 512, "alice": 1024}
"""As :data:`kifu.interop.openspiel.VIEW_CHARS` (the same observation layout)."""


_BYTE_FLOAT = (np.arange(256) / 127.0).astype(np.float32)
"""byte -> byte / 127 as float32: one table read a character instead of a float64 division
and a cast (the same float32 values)."""


class Observation(dict):
    """An agent's observation: a dict with ``observation`` and ``action_mask`` whose
    ``observation`` vector is built the first time anyone reads it (the seat's view line is
    the dearest part of a step, and an agent that reads only the mask, or an environment
    stepped past, never pays it). It behaves as a plain dict of the two arrays: indexing,
    ``keys``, ``items``, ``values``, iteration, ``==``, copying and pickling all see the
    built vector, the same as an eager build at the step would give: it is the view of the
    environment's position if that has not moved on, else of the position replayed from
    the record to the step, so later steps do not change it. Reading ``action_mask`` is a
    plain dict lookup (the vector is built in ``__missing__``). :meth:`KifuEnv.observe`
    makes it: the mask set, ``_build`` the environment, position, ply and seat the vector
    is built from."""

    __slots__ = ("_build",)
    _build: tuple[KifuEnv, Position, int, int] | None

    def _fill(self) -> None:
        build = self._build
        if build is not None:
            self._build = None
            env, pos, ply, seat = build
            dict.__setitem__(self, "observation", env._vector(pos, ply, seat))
            dict.__setitem__(self, "action_mask", dict.pop(self, "action_mask"))

    def __missing__(self, key: str) -> np.ndarray:
        if key == "observation" and self._build is not None:
            self._fill()
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._fill()
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        return key in ("observation", "action_mask")

    def __len__(self) -> int:
        return 2

    def __iter__(self) -> Iterator[str]:
        self._fill()
        return dict.__iter__(self)

    def keys(self) -> Any:
        self._fill()
        return dict.keys(self)

    def values(self) -> Any:
        self._fill()
        return dict.values(self)

    def items(self) -> Any:
        self._fill()
        return dict.items(self)

    def copy(self) -> dict[str, np.ndarray]:
        self._fill()
        return dict(dict.items(self))

    def __eq__(self, other: object) -> bool:
        self._fill()
        if isinstance(other, Observation):
            other._fill()
        return dict.__eq__(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        self._fill()
        return dict.__repr__(self)

    def __reduce__(self) -> tuple:
        self._fill()
        return (dict, (dict(dict.items(self)),))


class KifuEnv(AECEnv):
    """One kifu game as an AEC environment."""

    metadata: ClassVar[dict] = {"render_modes": ["ansi", "human"], "name": "kifu",
                                "is_parallelizable": False}

    def __init__(self, game_id: str, players: int = 3, rules: str = "",
                 returns: str = "shares", render_mode: str | None = None) -> None:
        super().__init__()
        self.setup = setup_for(game_id, players, rules, returns)
        self.metadata = {**KifuEnv.metadata, "name": f"kifu_{self.setup.game.id}"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self.width = VIEW_CHARS[self.setup.game.id]
        n_actions = self.setup.codec.num_actions
        self._obs_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (players + self.width,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
        }) for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.pos: Position = self.setup.start()
        self._rng = Rng(0)
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self._n_actions = n_actions
        self._blank = [np.zeros(players + self.width, np.float32) for _ in range(players)]
        for s, blank in enumerate(self._blank):
            blank[s] = 1.0

    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self._act_spaces[agent]

    # --- the loop -------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = Rng(seed)
        self.pos = self.setup.start()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._deal()
        self.agent_selection = self._selected()

    def _deal(self) -> None:
        """Play the dealer's actions until a seat or the end: kifu's own dealer
        (``game.chance_action``, a whole shuffle at once) drawing from the environment's
        RNG, so ``reset(seed=s)`` deals what kifu's seeded dealer deals from ``Rng(s)``."""
        pos = self.pos
        if pos.seat == DEALER:
            deal, state, rng = self.setup.game.chance_action, pos.state, self._rng
            while pos.seat == DEALER:
                pos.play(deal(state, rng), checked=False)  # kifu's dealer: legal

    def _selected(self) -> str:
        seat = self.pos.seat
        return self.possible_agents[seat] if seat is not None and seat >= 0 else self.agents[0]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        pos = self.pos
        pos.apply_id(int(action))
        if pos.seat == DEALER:
            self._deal()
        # rewards are zero before the end and the cumulative ones are only set there, so
        # PettingZoo's clearing of both (every agent, every step) has nothing to do here
        if pos.seat is None:
            self._cumulative_rewards[agent] = 0.0
            self._clear_rewards()
            for a, r in zip(self.agents, pos.returns(), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[pos.seat]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Observation:
        seat = self._seat_of[agent]
        pos = self.pos
        ply = len(pos.actions)
        if pos.seat == seat:
            mask = self._mask(pos)
        else:
            mask = np.zeros(self._n_actions, np.int8)
        obs = Observation()
        obs["action_mask"] = mask  # dict's own methods: no Python call
        obs._build = (self, pos, ply, seat)  # what builds the vector, when read
        return obs

    def _mask(self, pos: Position) -> np.ndarray:
        """The int8 mask of the legal ids of the seat to move (a fresh array each call)."""
        ids = pos.legal_ids()
        if len(ids) > 64:
            mask = np.zeros(self._n_actions, np.int8)
            mask.put(ids, 1)
            return mask
        # a few ids: set in a bytearray, viewed as an array (about 2x faster than
        # NumPy's fancy indexing with a short list; a cache of masks made before, copied,
        # took fewer instructions but ran slower, its arrays read from all over memory)
        b = bytearray(self._n_actions)
        for i in ids:
            b[i] = 1
        return np.frombuffer(b, np.int8)

    def _vector(self, pos: Position, ply: int, seat: int) -> np.ndarray:
        """The observation vector of ``seat`` after the first ``ply`` kifu actions of
        ``pos``: from ``pos`` itself if it has not moved on since, else from those actions
        replayed (an observation read after later steps, or after a reset)."""
        if len(pos.actions) == ply:
            return self._tensor(pos.view(seat), seat)
        state = self.setup.game.new_state(self.setup.players, self.setup.variant)
        for a in pos.actions[:ply]:
            state.push(a)
        return self._tensor(state.view(seat), seat)

    def _tensor(self, line: str, seat: int) -> np.ndarray:
        """The observation vector of ``seat`` at ``pos``: the seat one-hot, then the seat's
        view line one byte a float (/127), zeros after it."""
        n = self.setup.players
        obs = self._blank[seat].copy()  # zeros but the seat's one-hot
        view = line.encode("ascii")
        k = len(view)
        if k > self.width:
            raise ValueError(f"a view of {k} characters is longer than {self.width}")
        _BYTE_FLOAT.take(np.frombuffer(view, np.uint8), out=obs[n:n + k])
        return obs

    def render(self) -> str | None:
        text = self.pos.state.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        return None

    def record(self) -> str:
        """The kifu record of the game so far (what ``kifu validate`` reads)."""
        return self.pos.record_text(list(self.possible_agents))


def env(game_id: str, players: int = 3, rules: str = "", returns: str = "shares",
        render_mode: str | None = None) -> KifuEnv:
    """An AEC environment of ``game_id`` (``tweak``, ``graph-t``, ``towai``, ``lianxian``,
    ``alice``) at ``players`` seats under ``rules`` (a kifu rules spec; empty: default)."""
    return KifuEnv(game_id, players, rules, returns, render_mode)
