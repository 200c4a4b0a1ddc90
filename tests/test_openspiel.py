"""kifu's games as OpenSpiel games (kifu/interop/openspiel.py), checked by OpenSpiel's own
tests: ``pyspiel.random_sim_test`` with serialization for every game at every seat count
under the default rules and each example variant, OpenSpiel's ISMCTS playing full games
through ``pyspiel.evaluate_bots``; and by kifu: an OpenSpiel game's history replayed through
kifu gives a record ``kifu validate`` accepts, with the same returns."""

from __future__ import annotations

import pickle
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (the kifu[openspiel] extra: "
    "pip install -e '.[openspiel]')")

from kifu import games  # noqa: E402
from kifu.bots.profiles import pairwise  # noqa: E402
from kifu.core.game import DEALER  # noqa: E402
from kifu.core.rng import Rng  # noqa: E402
from kifu.interop import openspiel  # noqa: E402
from kifu.interop.bridge import GAME_IDS, Position, history_ids  # noqa: E402


def _cases() -> list[tuple[str, int, str]]:
    out = []
    for gid in GAME_IDS:
        game = games.get(gid)
        specs = [""] + [game.rules_spec(v) for v in game.example_variants]
        if gid == "lianxian":
            specs.append("lianxian/1;team=true")  # 2 vs 2: four players only
        for n in range(game.min_players, game.max_players + 1):
            for spec in specs:
                try:
                    game.new_state(n, game.parse_rules(spec) if spec else None)
                except Exception:  # a variant some seat counts cannot play (2 vs 2)
                    continue
                out.append((gid, n, spec))
    return out


CASES = _cases()
SHORT = {"tweak": (3, "tweak/1;rounds=1"), "graph-t": (3, ""), "towai": (3, "towai/1;wins=1"),
         "lianxian": (2, "lianxian/1;finish=12"), "alice": (4, "alice/1;turns=3")}
"""Short games for the tests that play with search."""


def random_game(game, seed: int):
    """An OpenSpiel state played to the end: chance by its probabilities, players uniform."""
    r = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(r.choices(ids, probs)[0])
        else:
            state.apply_action(r.choice(state.legal_actions()))
    return state


def test_every_game_is_registered() -> None:
    names = set(pyspiel.registered_names())
    assert {f"kifu_{g.replace('-', '_')}" for g in GAME_IDS} <= names
    assert "kifu_graph_t" in names


@pytest.mark.parametrize(("gid", "players", "rules"), CASES,
                         ids=[f"{g}-{n}-{r or 'default'}" for g, n, r in CASES])
def test_random_sim_test(gid: str, players: int, rules: str) -> None:
    game = openspiel.load(gid, players, rules)
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("gid", GAME_IDS)
def test_ismcts_plays_full_games(gid: str) -> None:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    players, rules = SHORT[gid]
    game = openspiel.load(gid, players, rules)
    rs = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=np.random.RandomState(s))
            for s in range(players)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
    assert len(returns) == players
    assert sum(returns) == pytest.approx(players / 2)  # constant-sum pairwise shares
    assert all(0.0 <= r <= 1.0 for r in returns)


@pytest.mark.parametrize("gid", GAME_IDS)
def test_history_replays_through_kifu(gid: str, run, tmp_path) -> None:
    players, rules = SHORT[gid]
    game = openspiel.load(gid, players, rules)
    state = random_game(game, 3)
    # OpenSpiel's history (its action ids, chance picks included) replayed by kifu's side
    # of the bridge alone, into a record
    pos = game.setup.start()
    for i in state.history():
        pos.apply_id(i)
    assert pos.record_text() == state.record()
    (tmp_path / "g.kifu").write_text(pos.record_text())
    out = run("validate", "g.kifu")
    assert out.exit_code == 0, out.output
    # the returns again, from kifu's own replay of the record
    from kifu.notation.reader import parse_record
    from kifu.notation.replay import replay

    rep = replay(parse_record(state.record()))
    result = rep.state.result()
    assert result is not None
    assert state.returns() == [pairwise(result, s) for s in range(players)]
    # and the record's actions dealt back into OpenSpiel ids reach the same position
    again = game.new_initial_state()
    for i in history_ids(game.setup, rep.actions):
        again.apply_action(i)
    assert str(again) == str(state) and again.returns() == state.returns()


@pytest.mark.parametrize("gid", GAME_IDS)
def test_scores_option(gid: str) -> None:
    players, rules = SHORT[gid]
    game = openspiel.load(gid, players, rules, returns="scores")
    state = random_game(game, 5)
    assert state.returns() == [float(s) for s in state.pos.state.result().scores]
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


@pytest.mark.parametrize("gid", GAME_IDS)
def test_action_ids_name_kifu_actions(gid: str) -> None:
    """Every legal id decodes to a legal kifu action whose text ``action_to_string`` gives,
    and encodes back to itself; chance outcomes are distinct, positive and sum to 1."""
    players, rules = SHORT[gid]
    game = openspiel.load(gid, players, rules)
    r = random.Random(11)
    state = game.new_initial_state()
    kgame = games.get(gid)
    while not state.is_terminal():
        pos: Position = state.pos
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert len({i for i, _ in outcomes}) == len(outcomes)
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert all(0 <= i < game.max_chance_outcomes() for i, _ in outcomes)
            ids, probs = zip(*outcomes, strict=True)
            state.apply_action(r.choices(ids, probs)[0])
            continue
        ids = state.legal_actions()
        assert len(ids) == len(pos.state.legal_actions())
        for i in ids:
            a = pos.action_of(i)
            assert pos.id_of(a) == i
            assert state.action_to_string(state.current_player(), i) == \
                kgame.format_action(pos.state, a)
        state.apply_action(r.choice(ids))


def test_fixed_ids_are_documented_values() -> None:
    """A few ids from the tables of docs/interop.md."""
    from kifu.games.graph_t.actions import Play
    from kifu.games.towai import actions as ta
    from kifu.games.tweak import actions as wa
    from kifu.interop.bridge import GraphTCodec, TowaiCodec, TweakCodec

    assert GraphTCodec().fixed(Play(5, True)) == 11
    assert TowaiCodec().fixed(ta.Lead(1, 3)) == 20
    assert TowaiCodec().fixed(ta.PASS) == 69
    assert TweakCodec().fixed(wa.Place(7)) == 7
    assert TweakCodec().fixed(wa.UseThief(2)) == 47


@pytest.mark.parametrize("gid", GAME_IDS)
def test_resample_keeps_what_the_seat_knows(gid: str) -> None:
    players, rules = SHORT[gid]
    game = openspiel.load(gid, players, rules)
    r = random.Random(2)
    state = game.new_initial_state()
    checked = 0
    sampler = iter(random.Random(9).random() for _ in range(10_000))
    while not state.is_terminal() and checked < 8:
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(r.choices(ids, probs)[0])
            continue
        p = state.current_player()
        world = state.resample_from_infostate(p, lambda: next(sampler))
        assert world.information_state_string(p) == state.information_state_string(p)
        assert world.legal_actions() == state.legal_actions()
        assert world.pos.view(p) == state.pos.view(p)
        checked += 1
        state.apply_action(r.choice(state.legal_actions()))
    assert checked == 8


@pytest.mark.parametrize("gid", GAME_IDS)
def test_serialization_goes_through_the_record(gid: str) -> None:
    """A state pickles as kifu's record and the picks of a shuffle being dealt."""
    players, rules = SHORT[gid]
    game = openspiel.load(gid, players, rules)
    state = game.new_initial_state()
    r = random.Random(4)
    for _ in range(60):  # into the first deal or past it
        if state.is_terminal():
            break
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(r.choices(ids, probs)[0])
        else:
            state.apply_action(r.choice(state.legal_actions()))
    reduced = state.pos.__reduce__()
    assert "[Game " in reduced[1][4]  # a kifu record
    back = pickle.loads(pickle.dumps(state.pos))
    assert back.state.to_line() == state.pos.state.to_line() and back.picks == state.pos.picks
    copy = game.deserialize_state(state.serialize())
    assert str(copy) == str(state)


@pytest.mark.parametrize("gid", GAME_IDS)
def test_clones_and_deserialized_states_read_their_own_position(gid: str) -> None:
    """``pos`` is a slot and ``current_player`` a C-level reader of it, both set again by
    ``KifuState.__setattr__`` when pyspiel's clone or deserialization sets the copied
    ``__dict__``: a copy's player must follow the copy's own moves, not the original's."""
    players, rules = SHORT[gid]
    game = openspiel.load(gid, players, rules)
    state = game.new_initial_state()
    r = random.Random(2)
    seen = 0
    while not state.is_terminal() and seen < 40:
        copies = [state.clone(), game.deserialize_state(state.serialize())]
        for c in copies:
            assert c.pos is not state.pos and c.pos is c.position
            assert c.current_player() == state.current_player() == state.pos.player
            assert c.history() == state.history() and str(c) == str(state)
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            a = r.choices(ids, probs)[0]
        else:
            a = r.choice(state.legal_actions())
        before = state.current_player()
        copies[0].apply_action(a)  # the clone moves on, the original stays
        assert state.current_player() == before and state.pos.player == before
        assert copies[0].current_player() == copies[0].pos.player
        state.apply_action(a)
        assert copies[0].current_player() == state.current_player()
        assert str(copies[0]) == str(state)
        seen += 1
    assert seen > 10


def test_bad_parameters_are_refused() -> None:
    from kifu.core.errors import KifuError

    with pytest.raises(KifuError, match=r"takes 2\.\.4 players, not 7"):
        pyspiel.load_game("kifu_graph_t", {"players": 7})
    with pytest.raises(KifuError, match="rounds"):
        pyspiel.load_game("kifu_tweak", {"rules": "tweak/1;rounds:x"})


def test_rules_parameter_round_trips_through_the_game_string() -> None:
    game = openspiel.load("tweak", 3, "tweak/1;colours=RGBP;t_cards=TJSBB;rounds=1")
    again = pyspiel.load_game(str(game))
    assert again.setup.variant == game.setup.variant and again.num_players() == 3


@pytest.mark.parametrize("gid", GAME_IDS)
def test_kifu_match_takes_openspiel_ismcts(gid: str, run) -> None:
    players, rules = SHORT[gid]
    args = ["match", gid, "--bots", "random,openspiel-ismcts:sims=3", "--players",
            str(players), "--games", "1", "--json"]
    if rules:
        args += ["--rules", rules]
    out = run(*args)
    assert out.exit_code == 0, out.output
    assert "openspiel-ismcts:sims=3" in out.output


def test_openspiel_mcts_is_the_all_seeing_cheater(run) -> None:
    from kifu.interop.bots import make

    bot = make(games.get("graph-t"), "openspiel-mcts:sims=4", 0, Rng(1))
    assert bot.open_hand
    out = run("match", "graph-t", "--bots", "random,openspiel-mcts:sims=4", "--players", "2",
              "--games", "1")
    assert out.exit_code == 0, out.output


def test_bad_bot_parameters_are_one_line(run) -> None:
    out = run("match", "graph-t", "--bots", "random,openspiel-ismcts:sims=zero",
              "--players", "2", "--games", "1")
    assert out.exit_code != 0
    assert "sims must be a number" in out.output
    assert "Traceback" not in out.output


def test_a_world_mid_deal_is_the_position_itself() -> None:
    game = openspiel.load("graph-t", 3)
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.pos.picks and state.pos.seat == DEALER
    world = state.pos.world(0, Rng(1))
    assert world.picks == state.pos.picks


def test_the_example_of_docs_interop_runs(tmp_path) -> None:
    """The example script of docs/interop.md (it uses PettingZoo too)."""
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (kifu[pettingzoo])")
    doc = Path(__file__).resolve().parent.parent / "docs" / "interop.md"
    m = re.search(r"<!-- example -->\n```python\n(.*?)```", doc.read_text("utf-8"), re.S)
    assert m, "docs/interop.md has no example block"
    script = tmp_path / "example.py"
    script.write_text(m.group(1))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         timeout=600, check=False)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("ISMCTS against uniform random, mean pairwise share: ")
    assert 0.0 <= float(lines[0].rsplit(" ", 1)[1]) <= 1.0
    assert re.fullmatch(r'\[Result "\d+ \d+"\]', lines[1]), lines[1]


def test_openspiel_bots_are_deterministic(run) -> None:
    """The same match twice gives the same report: OpenSpiel's ISMCTS draws its worlds
    from the bot's seeded stream (its own sampler is seeded from the clock)."""
    args = ("match", "graph-t", "--bots", "random,openspiel-ismcts:sims=4", "--players", "3",
            "--games", "1", "--json")
    first, second = run(*args), run(*args)
    assert first.exit_code == 0, first.output
    assert first.output == second.output


@pytest.mark.parametrize("gid", GAME_IDS)
def test_python_shortcuts_agree_with_pyspiel(gid: str) -> None:
    # KifuState answers legal_actions and is_chance_node in Python; pyspiel's own C++
    # methods (which call back into the bridge) must give the same at every node
    players, rules = SHORT[gid]
    game = openspiel.load(gid, players, rules)
    state = game.new_initial_state()
    r = random.Random(7)
    nodes = 0
    while not state.is_terminal() and nodes < 400:
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for p in [*range(players)] + [pyspiel.PlayerId.CHANCE] * state.is_chance_node():
            assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
        state.apply_action(r.choice(state.legal_actions()))
        nodes += 1
    assert nodes > 0
    assert state.legal_actions() == pyspiel.State.legal_actions(state)


@pytest.mark.parametrize("gid", GAME_IDS)
def test_pick_outcomes_and_legal_ids_are_worked_out_afresh(gid: str) -> None:
    """At every pick of random games, the outcome list (read from a table of ready pairs
    for TOWAI) is each item left in the pool with probability copies left / items left,
    recounted from the plan's pool and the picks made; at every player node the legal ids
    (read by the engine's shared legal tuple for TOWAI) are the generic definition's."""
    from collections import Counter

    from kifu.interop.bridge import Codec

    players, rules = SHORT[gid]
    game = openspiel.load(gid, players, rules)
    codec = game.setup.codec
    picks_seen = players_seen = 0
    for seed in range(3):
        r = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            pos: Position = state.pos
            if state.is_chance_node():
                plan = pos.plan()
                if plan is not None:
                    done, start = len(pos.picks), 0
                    for pool, count in zip(plan.pools, plan.counts, strict=True):
                        if done < start + count:
                            left = Counter(pool) - Counter(pos.picks[start:])
                            break
                        start += count
                    total = sum(left.values())
                    want = [(c, left[c] / total) for c in sorted(left)]
                    assert state.chance_outcomes() == want
                    assert pos.chance_outcomes() == want
                    picks_seen += 1
                ids, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(r.choices(ids, probs)[0])
            else:
                acts = pos.state.legal_actions()
                ids, by_id = Codec.index(codec, acts)
                assert state.legal_actions() == ids
                got_ids, got_acts = pos.legal_pairs()
                assert got_ids == ids and list(got_acts) == [by_id[i] for i in ids]
                players_seen += 1
                state.apply_action(r.choice(state.legal_actions()))
    assert picks_seen > 20 and players_seen > 20


@pytest.mark.parametrize("gid", GAME_IDS)
def test_enumerated_chance_nodes_match_kifus_outcomes(gid: str) -> None:
    """At every chance node kifu enumerates (a first player, a draw, a steal), the
    bridge's outcomes (read through its identity table once the engine's objects are
    known) are exactly kifu's ``chance_outcomes``: each action's number field as the id,
    its probability as a float, ids strictly ascending; the same again at a fresh copy."""
    from kifu.interop.bridge import chance_id

    players, rules = SHORT[gid]
    game = openspiel.load(gid, players, rules)
    seen = 0
    for seed in range(4):
        r = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            pos: Position = state.pos
            if state.is_chance_node():
                if pos.plan() is None:
                    want = sorted((chance_id(a), float(p), a)
                                  for a, p in pos.state.chance_outcomes())
                    ids = [i for i, _p, _a in want]
                    assert ids == sorted(set(ids))
                    got = pos._chance_actions()
                    assert got[0] == ids
                    assert list(got[1]) == [a for _i, _p, a in want]
                    assert got[2] == [p for _i, p, _a in want]
                    assert state.chance_outcomes() == [(i, p) for i, p, _a in want]
                    seen += 1
                ids, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(r.choices(ids, probs)[0])
            else:
                state.apply_action(r.choice(state.legal_actions()))
    assert seen > 0


@pytest.mark.parametrize("gid", GAME_IDS)
def test_state_shortcuts_agree_with_the_position(gid: str) -> None:
    # KifuState's chance_outcomes and _apply_action do the position's common cases
    # themselves (a pick inside its pile, a known legal id): at every node of a random
    # game they must answer and move exactly as Position's own methods on a copy
    players, rules = SHORT[gid]
    game = openspiel.load(gid, players, rules)
    state = game.new_initial_state()
    r = random.Random(5)
    picks = plays = 0
    while not state.is_terminal():
        pos: Position = state.pos
        if state.is_chance_node():
            assert state.chance_outcomes() == pos.chance_outcomes()
            ids, probs = zip(*state.chance_outcomes(), strict=True)
            i = r.choices(ids, probs)[0]
            picks += pos._pile is not None
        else:
            i = r.choice(state.legal_actions())
            plays += 1
        twin = pos.copy()
        twin.apply_id(i)
        state.apply_action(i)
        assert (pos.state.to_line(), pos.picks, pos.seat, pos.player, pos.actions) == \
            (twin.state.to_line(), twin.picks, twin.seat, twin.player, twin.actions)
        if pos.seat == -1:  # the next node's outcomes too (a pile carried on)
            assert state.chance_outcomes() == twin.chance_outcomes()
    assert picks > 0 and plays > 0
