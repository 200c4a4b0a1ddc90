"""The game-independent bots (``pimc``, ``ismcts``) and ``kifu match``: names with
parameters, legal play from random positions of every game, the same seed giving the same
game, and a match report that does not depend on the number of workers."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kifu import games
from kifu.bots import bot_descriptions, bot_names, classic_bots, make_bot, play_actions
from kifu.cli.main import cli
from kifu.core.errors import VariantError
from kifu.core.game import DEALER
from kifu.core.rng import Rng
from kifu.lab.match import seatings, summarize
from kifu.notation.reader import parse_records
from kifu.notation.replay import replay

SMALL = {"pimc": "pimc:worlds=2", "ismcts": "ismcts:iters=6:worlds=2"}
QUICK = {"tweak": (2, "tweak/1;rounds=1"), "graph-t": (3, "graph-t/1;grey=false;black=false"),
         "towai": (3, "towai/1;wins=1"), "lianxian": (2, "lianxian/1;finish=8"),
         "alice": (3, "alice/1;turns=2")}


def test_every_game_has_the_searchers_and_classic_bots_are_unchanged():
    for gid in games.ids():
        g = games.get(gid)
        names = bot_names(g)
        assert names[-2:] == ["pimc", "ismcts"]
        assert "pimc" not in classic_bots(g) and "ismcts" not in classic_bots(g)
        assert any(d.startswith("pimc:worlds=") for d in bot_descriptions(g))


def test_listed_searchers_are_their_defaults():
    """``kifu games`` lists each searcher with this game's defaults, quiet ones the
    profile changes included (TWEAK's expert rolls out with tactics, the others greedy):
    the listed name builds the bot the bare name builds."""
    for gid in games.ids():
        g = games.get(gid)
        for d in bot_descriptions(g):
            if ":" not in d:
                continue
            listed = make_bot(g, d, 0, Rng(1))
            bare = make_bot(g, d.partition(":")[0], 0, Rng(1))
            assert listed.params == bare.params, d  # type: ignore[attr-defined]
    tweak = next(d for d in bot_descriptions(games.get("tweak")) if d.startswith("expert:"))
    assert tweak.endswith(":rollout=tactics:others=greedy")


@pytest.mark.parametrize("name,match", [
    ("pimc:worlds=0", "worlds must be in 1..10000"),
    ("pimc:worlds=x", "not an integer"),
    ("pimc:depth=3", r"known: worlds=N, actions=N"),
    ("pimc:worlds=3:worlds=4", "given twice"),
    ("ismcts:c=-1", "c must be in"),
    ("greedy:x=1", "takes no parameters"),
    ("minimax", r"known: random, greedy.*pimc:worlds="),
])
def test_bad_bot_names_say_what_is_known(name, match):
    with pytest.raises(VariantError, match=match):
        make_bot(games.get("tweak"), name, 0, Rng(0))


def test_parameters_reach_the_bot():
    bot = make_bot(games.get("towai"), "ismcts:iters=9:c=0.25", 1, Rng(0))
    assert bot.params["iters"] == 9 and bot.params["c"] == 0.25
    assert bot.params["worlds"] == 8  # TOWAI's default


def _position(gid: str, seed: int, plies: int):
    game = games.get(gid)
    n, spec = QUICK[gid]
    state = game.new_state(n, game.parse_rules(spec))
    rng = Rng(seed)
    k = 0
    while state.to_move is not None and k < plies:
        if state.to_move == DEALER:
            state.push(game.chance_action(state, rng))
        else:
            state.push(rng.choice(state.legal_actions()))
        k += 1
    return game, state


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(gid=st.sampled_from(sorted(QUICK)), seed=st.integers(0, 10_000),
       plies=st.integers(0, 120), which=st.sampled_from(sorted(SMALL)))
def test_search_bots_play_legal_actions(gid, seed, plies, which):
    game, state = _position(gid, seed, plies)
    if state.to_move is None or state.to_move == DEALER:
        return
    legal = state.legal_actions()
    bot = make_bot(game, SMALL[which], state.to_move, Rng(seed))
    before = state.to_line()
    action = bot.choose(state)
    assert action in legal
    assert state.to_line() == before, "choosing must not change the position"


@pytest.mark.parametrize("gid", sorted(QUICK))
def test_same_seed_same_game(gid):
    game = games.get(gid)
    n, spec = QUICK[gid]
    variant = game.parse_rules(spec)
    names = ([SMALL["pimc"], SMALL["ismcts"]] + ["greedy"] * n)[:n]
    a = play_actions(game, names, "s1", variant)
    b = play_actions(game, names, "s1", variant)
    assert a == b


def test_seatings_permute_every_bot_over_every_seat():
    assert seatings(["a", "b", "c"], 3) == [("a", "b", "c"), ("a", "c", "b"), ("b", "a", "c"),
                                            ("b", "c", "a"), ("c", "a", "b"), ("c", "b", "a")]
    with pytest.raises(VariantError):
        seatings(["a", "b", "c"], 2)


def test_summary_by_hand():
    from kifu.lab.match import GameOutcome

    # two deals of a 2-seat match: a wins 3 of the 4 games (one per seating)
    deals = [[GameOutcome(0, ("a", "b"), (5, 1), (1, 2)), GameOutcome(0, ("b", "a"), (2, 3),
                                                                        (2, 1))],
             [GameOutcome(1, ("a", "b"), (0, 4), (2, 1)), GameOutcome(1, ("b", "a"), (1, 1),
                                                                        (1, 1))]]
    r = summarize("x", "x/1", ["a", "b"], 2, deals, 0, resamples=50)
    a = r.bot_lines[0]
    assert a.bot == "a" and a.games == 4
    # deal means of a: rank 1 and (2 + 1) / 2, wins 1 and (0 + 1) / 2 (a shared first is a
    # win), score (5 + 3) / 2 and (0 + 1) / 2
    assert a.mean_rank.estimate == 1.25
    assert a.win_rate.estimate == 0.75
    assert a.mean_score.estimate == 2.25
    pair = r.pair_lines[0]
    assert (pair.a, pair.b, pair.comparisons) == ("a", "b", 4)
    assert pair.score.estimate == 0.625  # deal means 1 and (0 + 0.5) / 2


@pytest.fixture
def run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, list(args), catch_exceptions=False)

    return invoke


def test_match_same_report_with_one_and_two_workers(run, tmp_path):
    args = ["match", "towai", "--set", "wins=1", "--players", "3", "--bots",
            "pimc:worlds=2,ismcts:iters=5:worlds=2,greedy", "--games", "3", "--seed", "4",
            "--silent", "--json"]
    one = run(*args, "--workers", "1", "-o", "one.kifu")
    two = run(*args, "--workers", "2", "--chunk-size", "1", "-o", "two.kifu")
    assert one.exit_code == 0, one.output
    assert one.output == two.output
    report = json.loads(one.output)
    assert report["deals"] == 3 and report["games"] == 18  # six orders of three bots
    assert [b["bot"] for b in report["by_bot"]] == ["pimc:worlds=2", "ismcts:iters=5:worlds=2",
                                                    "greedy"]
    assert (tmp_path / "one.kifu").read_text() == (tmp_path / "two.kifu").read_text()
    records = list(parse_records((tmp_path / "one.kifu").read_text()))
    assert len(records) == 18
    for rec in records:
        replay(rec)  # raises on any illegal action or a wrong Result
    text = run("match", "towai", "--set", "wins=1", "--bots", "greedy,random", "--games",
               "2", "--silent")
    assert "greedy vs random" in text.output


def test_match_schema_and_bad_bots(run):
    schema = json.loads(run("schema", "match").output)
    assert "MatchReport" in json.dumps(schema)
    r = run("match", "tweak", "--bots", "pimc:worlds=0,greedy", "--games", "1")
    assert r.exit_code == 1 and "worlds must be in" in r.output + (r.stderr or "")


def test_record_with_a_bot_seat_and_resume(run, tmp_path):
    from kifu.notation.reader import parse_records

    r = CliRunner().invoke(cli, ["record", "towai", "--players", "2", "--seed", "3", "--set",
                                 "wins=1", "--bots", "p1=pimc:worlds=2", "-o",
                                 str(tmp_path / "g.kifu")], input="", catch_exceptions=False)
    assert r.exit_code == 0, r.output
    text = (tmp_path / "g.kifu").read_text()
    assert '[Bots "p1=pimc:worlds=2"]' in text
    assert "\np1 " in text  # the bot has played p1's first turn (it leads)
    # the person plays on; each time, the bot answers
    for _ in range(40):
        rec = parse_records((tmp_path / "g.kifu").read_text())[0]
        state = replay(rec).state
        if state.to_move is None:
            break
        assert state.to_move == 0
        game = games.get("towai")
        move = game.format_action(state, state.legal_actions()[0])
        r = CliRunner().invoke(cli, ["record", "--resume", str(tmp_path / "g.kifu")],
                               input=move + "\n", catch_exceptions=False)
        assert r.exit_code == 0, r.output
    bad = CliRunner().invoke(cli, ["record", "towai", "--players", "2", "--bots", "p5=pimc",
                                   "-o", str(tmp_path / "h.kifu")])
    assert bad.exit_code == 1


def test_generate_with_a_search_bot():
    from kifu.lab.generate import generate_puzzles

    found = list(generate_puzzles("graph-t", "double-dummy", count=1, seed=1, players=3,
                                  max_games=4, bot="pimc:worlds=2"))
    assert found and found[0].source.startswith("generate graph-t")
    with pytest.raises(VariantError):
        list(generate_puzzles("graph-t", "double-dummy", count=1, seed=1, players=3,
                              bot="pimc:nope=1"))


@pytest.mark.parametrize("gid, players, rules", [("graph-t", 4, "graph-t/1;grey=false;black=false"),
                                                 ("tweak", 4, "tweak/1;rounds=1")])
def test_expert_normal_is_the_deep_budget_in_graph_t_and_tweak(gid, players, rules):
    """GRAPH-T's and TWEAK's `normal` level is the common `deep` budget (docs/bots.md,
    "Ladders of expert", third session): `expert` chooses as `expert:level=deep` does from
    the same stream, while TOWAI keeps three times the common `normal` and Alice the
    common one."""
    from kifu.bots.evaluate import LEVELS, level_of

    game = games.get(gid)
    for field in ("worlds", "refine", "exact_nodes"):
        assert getattr(level_of(game, "normal"), field) == getattr(LEVELS["deep"], field)
    assert level_of(games.get("towai"), "normal").worlds == 3 * LEVELS["normal"].worlds
    assert level_of(games.get("alice"), "normal") == LEVELS["normal"]
    rng = Rng(f"normal-is-deep:{gid}")
    state = game.new_state(players, game.parse_rules(rules))
    greedy = [make_bot(game, "greedy", s, rng.fork(s + 1)) for s in range(players)]
    dealer = rng.fork(0)
    compared = 0
    while state.to_move is not None and compared < 3:
        mover = state.to_move
        if mover == DEALER:
            state.push(game.chance_action(state, dealer))
            continue
        if len(state.legal_actions()) > 1 and len(state.history) % 3 == 0:
            picks = {make_bot(game, spec, mover, Rng(compared)).choose(state)
                     for spec in ("expert", "expert:level=deep")}
            assert len(picks) == 1
            compared += 1
        state.push(greedy[mover].choose(state))
    assert compared == 3
