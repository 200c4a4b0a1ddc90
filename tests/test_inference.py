"""Soft inference (kifu/bots/inference.py) and the games' rewind hooks: TOWAI's
(kifu/games/towai/worlds.py: ``rewind``) and TWEAK's (kifu/games/tweak/worlds.py)."""

from __future__ import annotations

import pytest

from kifu import games
from kifu.bots import make_bot, play_actions
from kifu.bots.inference import action_probability, inferred_draw, likelihood, resample
from kifu.bots.profiles import profile
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.games.towai.actions import PASS, PLAYS, Deal, Give, Lead, Pass, Play, Stop
from kifu.games.towai.bots import GreedyBot
from kifu.games.towai.cards import CODE_OF, NIB

# p0 led D7, played T7 in a combo and stopped; p1 (D4 D7 N1 N3 N5 T1 T6) is to follow a
# T7 by Day: it may play D7 or pass; greedy plays D7.
LINE = ("towai/1;wins=1 P1 day D6N1N3N4T7/D4D7N1N3N5T1T6/D3D3D3D4D4D5T6 D7T7 "
        "N4T4T2N4T3N3N4D6N5N5D7T2T5N2T2T3T4N5T5T1D3N1N3N2T3N2D7T5D5D5D5D4T1D6D6T7N2T6N1 "
        "- p0:0 0,0,0 f0t1")
D7 = CODE_OF["D7"]


def _towai():
    return games.get("towai")


def test_action_probability_is_epsilon_greedy_by_hand():
    game = _towai()
    pos = game.from_line(LINE)
    assert pos.legal_actions() == [PLAYS[D7], PASS]
    pol = GreedyBot(1, Rng(0))
    assert pol.choose(pos) == PLAYS[D7]
    assert action_probability(pol, pos, PLAYS[D7], 0.2) == pytest.approx(0.8 + 0.2 / 2)
    assert action_probability(pol, pos, PASS, 0.2) == pytest.approx(0.2 / 2)
    # without the D7 nothing fits: the pass is the only action, and a play is impossible
    nofit = pos.copy()
    nofit.hl[1] -= NIB[D7]
    assert nofit.legal_actions() == [PASS]
    assert action_probability(pol, nofit, PASS, 0.2) == 1.0
    assert action_probability(pol, nofit, PLAYS[D7], 0.2) == 0.0


def test_likelihood_by_hand():
    """A world's weight: the product over the steps of the prior-weighted mean over each
    step's alternatives (computed here by hand)."""
    game = _towai()
    pos = game.from_line(LINE)
    nofit = pos.copy()
    nofit.hl[1] -= NIB[D7]
    eps = 0.2
    assert likelihood(game, [[(pos, PASS, 1.0)], [(pos, PLAYS[D7], 1.0)]], eps) == \
        pytest.approx(0.1 * 0.9)
    # a pass judged over two alternatives: with the D7 (prior 1), without it (prior 3)
    assert likelihood(game, [[(pos, PASS, 1.0), (nofit, PASS, 3.0)]], eps) == \
        pytest.approx((1 * 0.1 + 3 * 1.0) / 4)
    # an action impossible in every alternative: weight 0, whatever the other steps
    assert likelihood(game, [[(pos, PLAYS[D7], 1.0)], [(nofit, PLAYS[D7], 1.0)]], eps) == 0.0
    assert likelihood(game, [], eps) == 1.0


def test_resample_is_systematic_and_deterministic():
    weights = [0.0, 1.0, 3.0, 0.0, 4.0]
    for seed in range(20):
        got = resample(weights, 16, Rng(seed))
        assert got == resample(weights, 16, Rng(seed))
        assert len(got) == 16
        # systematic resampling: index i appears floor or ceil of 16 w_i / sum(w) times
        for i, w in enumerate(weights):
            share = 16 * w / sum(weights)
            assert int(share) <= got.count(i) <= -int(-share)
    assert sorted(set(resample([0.0, 0.0, 0.0], 9, Rng(1)))) == [0, 1, 2]  # all 0: uniform


def _greedy_position(seed: int, decisions: int, players: int = 4, game=None,
                     rules: str = "towai/1;wins=1"):
    """A position (TOWAI unless ``game`` is given) of a seeded all-greedy one-round game
    after ``decisions`` player decisions (dealer actions after them played), its history
    from the start."""
    game = game if game is not None else _towai()
    state = game.new_state(players, game.parse_rules(rules))
    rng = Rng(seed)
    bots = [make_bot(game, "greedy", s, rng.fork(s + 1)) for s in range(players)]
    k = 0
    while state.to_move is not None:
        if state.to_move == DEALER:
            state.push(game.chance_action(state, rng))
            continue
        if k >= decisions:
            break
        state.push(bots[state.to_move].choose(state))
        k += 1
    return game, state


def _true_past(game, state, seat, window):
    """Independently of ``rewind``: the true positions of the other seats' last ``window``
    leads, follows, passes and stops since the last deal or Swap choice, newest first, and
    whether any other seat's hand grew after each."""
    s = game.new_state(state.n, state.variant)
    out: list[list] = []
    for a in state.history:
        if isinstance(a, (Deal, Give)):
            out = []
        mover = s.to_move
        entry = None
        if mover not in (None, DEALER, seat) and isinstance(a, (Lead, Play, Pass, Stop)):
            entry = [s.copy(), a, False]
            out.append(entry)
        before = [s.hand_size(p) for p in range(s.n)]
        s.push(a)
        for p in range(s.n):
            took = s.hand_size(p) - before[p] + (p == mover and isinstance(a, (Lead, Play)))
            if p == seat or took <= 0:
                continue
            for e in out:  # (a pass's own draw is judged over its alternatives)
                if not (e is entry and isinstance(a, Pass) and p == mover and took == 1):
                    e[2] = True
    return [tuple(e) for e in reversed(out[-window:])]


@pytest.mark.parametrize("seed", range(6))
def test_towai_rewind_gives_the_true_past_of_the_true_world(seed):
    """Rewinding the true position itself: every past position has the true public part
    (phase, mover, side, field, discards), every hand its true size, the observed action
    legal in every alternative; where no other seat took a card in since, the hands are
    exactly the true ones (one of the alternatives, at a pass)."""
    for decisions in range(4, 60, 5):
        game, state = _greedy_position(seed, decisions)
        if state.to_move is None:
            break
        seat = state.to_move
        hook = profile("towai").rewind(game, state, seat, 6)
        truth = _true_past(game, state, seat, 6)
        if hook is None:
            assert state.phase == 5 or not truth  # SWAP_PHASE, or nothing to weigh
            continue
        steps = hook(state.copy(), Rng(seed))
        assert len(steps) == len(truth)
        for step, (true, action, grew) in zip(steps, truth, strict=True):
            hands = []
            for past, act, prior in step:
                assert act == action and prior > 0
                assert act in past.legal_actions()
                assert (past.phase, past.mover, past.side, past.field, past.discards) == \
                    (true.phase, true.mover, true.side, true.field, true.discards)
                assert [past.hand_size(p) for p in range(state.n)] == \
                    [true.hand_size(p) for p in range(state.n)]
                assert past.hl[seat] == true.hl[seat]
                assert past.deck == ()
                hands.append(past.hl)
            if not grew:
                assert true.hl in hands


def test_inferred_worlds_never_break_an_impossible_action_and_repeat_for_a_seed():
    """With a hook that judges a play of D7 by p1 in each world's present, the worlds in
    which p1 holds no D7 get weight 0 and are never returned; the same seed gives the
    same worlds."""
    game = _towai()
    state = game.from_line(LINE)

    def hook(game_, state_, seat, window):
        return lambda world, rng: [[(world, PLAYS[D7], 1.0)]]

    got = inferred_draw(game, state, 0, hook, 40, Rng(5), eps=0.3, window=4)
    assert got is not None
    draw, note = got
    assert note["candidates"] == 80 and 0 < note["zero"] < 80
    worlds = [draw(Rng(0)) for _ in range(40)]
    assert all(w.count(1, D7) >= 1 for w in worlds)
    draw2, _ = inferred_draw(game, state, 0, hook, 40, Rng(5), eps=0.3, window=4)
    assert [w.key() for w in worlds] == [draw2(Rng(0)).key() for _ in range(40)]


def _true_world_weighs_more(game, position, decisions: range, tol: float) -> None:
    """Over seeded all-greedy games (``position(seed, decisions)``), the real position gets
    a weight at least ``1 - tol`` times the average sampled world's at three quarters of
    the decisions or more (the model is the opponents' own policy)."""
    hook_of = profile(game.id).rewind
    higher = total = 0
    for seed in range(3):
        for k in decisions:
            _, state = position(seed, k)
            if state.to_move in (None, DEALER):
                break
            seat = state.to_move
            hook = hook_of(game, state, seat, 8)
            if hook is None:
                continue
            rng = Rng(seed * 100 + k)
            true_w = likelihood(game, hook(state.copy(), rng), 0.1)
            draw = game.world_sampler(state, seat)
            mean_w = sum(likelihood(game, hook(draw(rng), rng), 0.1) for _ in range(30)) / 30
            total += 1
            higher += true_w >= mean_w * (1 - tol) if tol else true_w > mean_w
    assert total >= 8 and higher >= 0.75 * total


def test_inference_moves_the_worlds_toward_the_truth():
    """Over seeded all-greedy TOWAI games, the real position gets a higher weight than the
    average sampled world at most decisions (the model is the opponents' own policy)."""
    _true_world_weighs_more(_towai(), _greedy_position, range(8, 40, 6), 0.0)


def test_expert_with_inference_is_deterministic_and_off_by_default_elsewhere():
    game = _towai()
    variant = game.parse_rules("towai/1;wins=1")
    names = ["expert:level=fast:infer=0.1", "greedy", "greedy"]
    assert play_actions(game, names, "i1", variant) == play_actions(game, names, "i1", variant)
    # infer=0 is the sampler's worlds, as before
    plain = ["expert:level=fast:infer=0", "greedy", "greedy"]
    assert play_actions(game, plain, "i1", variant) == play_actions(game, plain, "i1", variant)
    for gid in ("graph-t", "lianxian", "alice"):
        assert profile(gid).rewind is None


def test_tempering_keeps_the_effective_sample_size():
    from kifu.bots.inference import _ess, _temper

    weights = [1e-9, 1e-6, 1e-3, 1.0, 0.0, 0.5]
    assert _ess([1.0] * 8) == pytest.approx(8.0)
    assert _ess(weights) < 2
    for power in (0.0, 0.3, 1.0):
        t = _temper(weights, power)
        assert t[4] == 0.0 and max(t) == 1.0  # a weight 0 stays 0; the largest is 1
    assert _ess(_temper(weights, 0.0)) == pytest.approx(5.0)  # power 0: every world alike


def test_weighted_means_by_hand():
    from kifu.bots.expert import _means

    rows = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
    assert _means(rows) == pytest.approx([2 / 3, 2 / 3])
    assert _means(rows, [3.0, 1.0, 0.0]) == pytest.approx([0.75, 0.25])


def test_assumed_worlds_read_every_pass_as_a_void():
    """The proposal's worlds (``assumed_sampler``): a seat that passed held no card that
    could follow then, so it holds now at most the cards it took in since of those kinds,
    less those it played since (counted here apart from the sampler, by replaying)."""
    from kifu.games.towai.cards import NUM, TWAI, TYPE
    from kifu.games.towai.worlds import assumed_sampler

    checked = {"assumed": 0, "plain": 0}
    kept = {"assumed": 0, "plain": 0}
    for seed, decisions in ((sd, d) for sd in range(4) for d in range(10, 70, 9)):
        game, state = _greedy_position(seed, decisions)
        if state.to_move is None:
            continue
        seat = state.to_move
        s = game.new_state(state.n, state.variant)
        passes = []  # (seat, kinds, cards it took in since, of those kinds played since)
        for a in state.history:
            if isinstance(a, Deal):
                passes = []
            mover = s.to_move
            before = [s.hand_size(p) for p in range(s.n)]
            if isinstance(a, Pass) and mover != seat:
                top, side = s.field[-1], s.side
                kinds = {c for c in range(17) if TYPE[c] in (TWAI, side)
                         and (NUM[c] >= NUM[top] if side == 0 else NUM[c] <= NUM[top])}
                passes.append([mover, kinds, 0])
            s.push(a)
            for e in passes:
                p = e[0]
                took = s.hand_size(p) - before[p] + (p == mover and isinstance(a, (Lead, Play)))
                e[2] += max(took, 0)
                if p == mover and isinstance(a, (Lead, Play)) and a.card in e[1]:
                    e[2] -= 1
        tight = [(p, kinds, budget) for p, kinds, budget in passes
                 if budget < state.hand_size(p)]
        if not tight:
            continue
        for name, sampler in (("assumed", assumed_sampler(state, seat, game)),
                              ("plain", game.world_sampler(state, seat))):
            rng = Rng(seed)
            for _ in range(10):
                w = sampler(rng)
                keep = all(sum(w.count(p, c) for c in kinds) <= budget
                           for p, kinds, budget in tight)
                kept[name] += keep
                checked[name] += 1
    # past 400 draws the sampler lets the voids go (as for the turns that ended by
    # themselves), so a few worlds may break them; the seat's own sampler does not read
    # passes at all
    assert checked["assumed"] >= 10
    assert kept["assumed"] >= 0.7 * checked["assumed"]
    assert kept["assumed"] > kept["plain"]


# --- TWEAK -------------------------------------------------------------------------------

# p1 (G2 B1 B2) is to move, the table O1 B3, the target 9: no capture fits, greedy places
# its cheapest card, B1.
TWEAK_LINE = ("tweak/1;rounds=1 T1 r1d3 t9 0,0,0,0 R3G6B5/G2B1B2/R2Y4B2/O5G1G3 O1B3 "
              "B6O3O3O1Y1R4O6R5G2R3O4Y2B4O2Y2O2R1B3G3R6G4Y1B1Y5Y3R1 !T!S!J!T!T!J!J!T!S!B "
              "-/R2Y6/-/Y3G1G5 -/-/-/-")


def _tweak():
    return games.get("tweak")


def test_tweak_likelihood_by_hand():
    """A world in which p1 held a 5 (B5 + O1 + B3 = 9, a TWEAK) makes its observed
    placing of B1 a deviation from greedy: its weight falls from (1 - eps) + eps / 3 to
    eps / 4 (three places and the capture)."""
    from kifu.games.tweak.actions import PLACE, Capture
    from kifu.games.tweak.cards import CODE_OF

    game = _tweak()
    pos = game.from_line(TWEAK_LINE)
    b1, b5, g2 = CODE_OF["B1"], CODE_OF["B5"], CODE_OF["G2"]
    assert len(pos.legal_actions()) == 3
    eps = 0.2
    assert likelihood(game, [[(pos, PLACE[b1], 1.0)]], eps) == pytest.approx(0.8 + 0.2 / 3)
    other = pos.copy()
    other.hands = (pos.hands[0], tuple(sorted((b1, CODE_OF["B2"], b5))), *pos.hands[2:])
    assert g2 not in other.hands[1]
    assert Capture(b5, tuple(sorted((CODE_OF["O1"], CODE_OF["B3"])))) in \
        other.legal_actions()
    assert len(other.legal_actions()) == 4
    assert likelihood(game, [[(other, PLACE[b1], 1.0)]], eps) == pytest.approx(0.2 / 4)
    # both steps at once: the product
    assert likelihood(game, [[(pos, PLACE[b1], 1.0)], [(other, PLACE[b1], 1.0)]], eps) == \
        pytest.approx((0.8 + 0.2 / 3) * 0.05)


def _tweak_greedy_position(seed: int, decisions: int, players: int = 4):
    """A TWEAK position of a seeded all-greedy one-round game after ``decisions`` player
    decisions (dealer actions after them played), its history from the start."""
    return _greedy_position(seed, decisions, players, _tweak(), "tweak/1;rounds=1")


def _tweak_true_past(game, state, seat, window):
    """Independently of ``rewind``: the true positions of the other seats' last ``window``
    decisions (not a pass), newest first, and whether another seat than ``seat`` drew a
    card from the deck into its hand at or after each."""
    from kifu.games.tweak.actions import Pass as TPass
    from kifu.games.tweak.actions import Steal

    s = game.new_state(state.n, state.variant)
    out: list[list] = []
    for a in state.history:
        mover = s.to_move
        if mover not in (None, DEALER, seat) and not isinstance(a, TPass):
            out.append([s.copy(), a, False])
        before = [len(h) for h in s.hands]
        dpos = s.dpos
        loser = s.victim if isinstance(a, Steal) else mover if hasattr(a, "card") else -1
        s.push(a)
        if s.dpos > dpos and any(len(s.hands[p]) - before[p] + (p == loser) > 0
                                 for p in range(s.n) if p != seat):
            for e in out:
                e[2] = True
    return [tuple(e) for e in reversed(out[-window:])]


@pytest.mark.parametrize("seed", range(5))
def test_tweak_rewind_gives_the_true_past_of_the_true_world(seed):
    """Rewinding the true position itself: every past position has the true public part
    (phase, mover, table, piles, held T! cards, target, deck and T! pile positions),
    ``seat``'s true hand, every other hand with the true backs, the true cards in the
    hands and the deck together, and the observed action legal; the mover's true hand is
    always one of the step's alternatives (which of a hand's cards of one back was drawn,
    the world does not say: each is an alternative), their priors sum to 1; where no
    other seat drew since, the step is exactly the true position."""
    from collections import Counter

    from kifu.games.tweak.cards import DEFAULT_BACKS

    exact = several = 0
    for decisions in range(2, 60, 5):
        game, state = _tweak_greedy_position(seed, decisions)
        if state.to_move in (None, DEALER):
            break
        seat = state.to_move
        hook = profile("tweak").rewind(game, state, seat, 6)
        truth = _tweak_true_past(game, state, seat, 6)
        if hook is None:
            assert not truth
            continue
        steps = hook(state.copy(), Rng(seed))
        assert len(steps) == len(truth)

        def unseen(st, seat=seat):
            return Counter(c for p in range(st.n) if p != seat for c in st.hands[p]) \
                + Counter(st.deck_left())

        for step, (true, action, drew) in zip(steps, truth, strict=True):
            m = true.to_move
            assert sum(prior for _, _, prior in step) == pytest.approx(1.0)
            assert true.hands[m] in [past.hands[m] for past, _, _ in step]
            several += len(step) > 1
            for past, act, prior in step:
                assert act == action and prior > 0
                assert act in past.legal_actions()
                pub = ("phase", "mover", "table", "piles", "held", "target", "dpos", "tpos",
                       "tused", "jdelta", "queue")
                assert [getattr(past, f) for f in pub] == [getattr(true, f) for f in pub]
                assert len(past.deck) == len(true.deck)
                assert past.hands[seat] == true.hands[seat]
                for p in range(state.n):
                    assert sorted(DEFAULT_BACKS[c] for c in past.hands[p]) == \
                        sorted(DEFAULT_BACKS[c] for c in true.hands[p])
                assert unseen(past) == unseen(true)
            if not drew:
                assert len(step) == 1 and step[0][0].key() == true.key()
                exact += 1
    assert exact > 0


def test_tweak_rewind_of_a_sampled_world_agrees_with_the_world():
    """For sampled worlds: the past deck is the world's deck with the cards drawn since
    on top (their backs those shown as the targets), every past position legal for the
    observed action, and the same stream gives the same past."""
    for seed in range(3):
        game, state = _tweak_greedy_position(seed, 23)
        seat = state.to_move
        hook = profile("tweak").rewind(game, state, seat, 8)
        draw = game.world_sampler(state, seat)
        rng = Rng(seed)
        for _ in range(20):
            w = draw(rng)
            steps = hook(w, Rng(7))
            assert [[(p.key(), a) for p, a, _ in st] for st in steps] == \
                [[(p.key(), a) for p, a, _ in st] for st in hook(w, Rng(7))]
            truth = _tweak_true_past(game, state, seat, 8)
            assert len(steps) == len(truth)
            now = w.deck_left()
            for st, (true, action, _) in zip(steps, truth, strict=True):
                for past, act, _ in st:
                    assert act == action and act in past.legal_actions()
                    left = past.deck_left()
                    assert len(left) == len(true.deck_left())
                    assert left[len(left) - len(now):] == now  # the world's deck below
                    assert past.target == true.target  # the drawn cards' backs, as shown


def test_tweak_inference_moves_the_worlds_toward_the_truth():
    """Over seeded all-greedy TWEAK games, the real position gets a weight at least the
    average sampled world's at most decisions (every world is alike late in a round)."""
    _true_world_weighs_more(_tweak(), _tweak_greedy_position, range(6, 40, 6), 1e-9)


def test_tweak_expert_with_inference_is_deterministic():
    """(``posterior=0``: TWEAK's ``expert`` plays on the posterior's worlds by default
    since the ninth session, and those replace inference's where both are on.)"""
    game = _tweak()
    variant = game.parse_rules("tweak/1;rounds=1")
    names = ["expert:level=fast:infer=0.1:posterior=0", "greedy", "greedy"]
    got = play_actions(game, names, "i1", variant)
    assert got == play_actions(game, names, "i1", variant)


def test_expert_worlds_parameter_scales_the_level():
    """``expert:worlds=K`` (to trade worlds for inference's cost): the first stage's
    worlds, the second stage and the solver's nodes scaled by the same factor; the
    level's own count plays exactly as the default."""
    from kifu.bots.evaluate import level_of
    from kifu.bots.expert import _scaled

    game = _tweak()
    lvl = level_of(game, "normal")
    two_thirds = _scaled(lvl, lvl.worlds * 2 // 3)
    assert (two_thirds.worlds, two_thirds.refine, two_thirds.exact_nodes) == \
        (lvl.worlds * 2 // 3, round(lvl.refine * 2 / 3), round(lvl.exact_nodes * 2 / 3))
    variant = game.parse_rules("tweak/1;rounds=1")
    fast = level_of(game, "fast").worlds
    same = [f"expert:level=fast:worlds={fast}", "greedy", "greedy"]
    assert play_actions(game, same, "w1", variant) == \
        play_actions(game, ["expert:level=fast", "greedy", "greedy"], "w1", variant)
