"""OpenSpiel's searches as kifu bots, for ``kifu match`` (``kifu/lab/outside.py``).

- ``openspiel-ismcts[:sims=N][:rollouts=R][:uct=C]``: OpenSpiel's information-set MCTS
  (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) with random rollouts; its worlds come
  from the game's ``resample_from_infostate``, that is kifu's world sampler, so it sees only
  what its seat could know.
- ``openspiel-mcts[:sims=N][:rollouts=R][:uct=C]``: OpenSpiel's MCTS
  (``open_spiel.python.algorithms.mcts.MCTSBot``) searching the true position: an
  **all-seeing** cheater (it reads every hidden card), a yardstick only.

The C++ ``pyspiel.ISMCTSBot`` cannot search a Python game in OpenSpiel 2.0.2 (it calls
``ResampleFromInfostate``, which Python games cannot override there), so the Python ISMCTS
is the one used; it is the same algorithm (Cowling, Powley and Whitehouse 2012).
"""

from __future__ import annotations

from typing import ClassVar

from kifu.core.errors import VariantError
from kifu.core.game import Action, Bot, Game, State
from kifu.core.rng import Rng
from kifu.interop.bridge import Position

NAMES = ("openspiel-ismcts", "openspiel-mcts")
"""The bot names this module makes."""

DEFAULTS = {"sims": 100, "rollouts": 1, "uct": 2.0}


def parse(name: str) -> tuple[str, dict[str, float]]:
    """Split ``openspiel-ismcts:sims=50`` into its base and parameters (checked)."""
    base, _, rest = name.partition(":")
    if base not in NAMES:
        raise VariantError(f"no OpenSpiel bot {base!r} (known: {', '.join(NAMES)})")
    params: dict[str, float] = dict(DEFAULTS)
    for part in filter(None, rest.split(":")):
        k, eq, v = part.partition("=")
        if not eq or k not in DEFAULTS:
            raise VariantError(f"{base} takes {', '.join(f'{p}=' for p in DEFAULTS)} "
                               f"(not {part!r})")
        try:
            params[k] = float(v) if k == "uct" else int(v)
        except ValueError:
            raise VariantError(f"{base}: {k} must be a number, not {v!r}") from None
        if params[k] <= 0:
            raise VariantError(f"{base}: {k} must be positive")
    if params["sims"] < 2:
        raise VariantError(f"{base}: sims must be at least 2 (OpenSpiel's search expands its "
                           "root on the first simulation and visits it from the second)")
    return base, params


class OpenSpielBot(Bot):
    """A kifu bot that asks an OpenSpiel search for each decision."""

    name: ClassVar[str] = "openspiel-ismcts"

    def __init__(self, seat: int, rng: Rng, *, game: Game, spec: str) -> None:
        super().__init__(seat, rng)
        self.kind, self.params = parse(spec)
        self.game = game
        self.open_hand = self.kind == "openspiel-mcts"

    def choose(self, state: State) -> Action:
        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        from kifu.interop import openspiel

        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        spiel = openspiel.load(self.game.id, state.n, self.game.rules_spec(state.variant))
        copy = state.copy()
        copy.history = list(state.history)
        ostate = spiel.new_initial_state(Position(spiel.setup, copy))
        rs = np.random.RandomState(self.rng.next64() % (1 << 32))
        p = self.params
        evaluator = mcts.RandomRolloutEvaluator(int(p["rollouts"]), rs)
        if self.kind == "openspiel-ismcts":
            bot = ismcts.ISMCTSBot(spiel, evaluator, p["uct"], int(p["sims"]), random_state=rs,
                                   final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                                   allow_inconsistent_action_sets=True)
            # its own resampling asks pyspiel.UniformProbabilitySampler, seeded from the
            # clock: the worlds are drawn from the bot's seeded stream instead
            bot.set_resampler(lambda s, player: s.resample_from_infostate(player, rs.uniform))
        else:
            bot = mcts.MCTSBot(spiel, p["uct"], int(p["sims"]), evaluator, random_state=rs,
                               solve=False)
        return ostate.pos.action_of(bot.step(ostate))


def make(game: Game, name: str, seat: int, rng: Rng) -> Bot:
    """The OpenSpiel bot named ``name`` for ``seat`` (raises :class:`VariantError`)."""
    parse(name)
    try:
        import open_spiel  # noqa: F401
    except ImportError:
        raise VariantError(f"{name} needs OpenSpiel: pip install 'kifu[openspiel]'") from None
    return OpenSpielBot(seat, rng, game=game, spec=name)
