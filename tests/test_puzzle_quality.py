"""Puzzles worth solving (issue 37): answers in plain words, ratings, near-duplicates, a cap
per theme, the trainer page's data, the slow-question warning.

The mixed-corpus acceptance test and the held-out rating check are in
``tests/test_mine_corpus.py``; the trainer in a real browser in
``tests/test_trainer_browser.py``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kifu.cli.main import cli
from kifu.lab import rating, variety
from kifu.notation.puzzle import Puzzle, format_puzzles, load_puzzles, parse_puzzles
from kifu.notation.wording import _WORDS, action_words, answer_words, odds_words
from kifu.puzzles import QUESTIONS, get_question

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted((ROOT / "fixtures" / "puzzles").glob("*.kifu"))


def fixture_puzzles() -> list:
    return [lp for path in FIXTURES for lp in load_puzzles(str(path))]


# --- plain words -----------------------------------------------------------------------------


def test_every_question_has_words() -> None:
    names = set(QUESTIONS)
    names |= {lp.puzzle.question.split(" ", 1)[0] for lp in fixture_puzzles()}
    assert names <= set(_WORDS), names - set(_WORDS)


def test_the_issue_s_examples_in_words() -> None:
    dd = answer_words("double-dummy", "place 2 shared 1 tallest 417 second 0")
    assert dd.startswith("2nd place") and "tallest stack 6.95 cards" in dd
    assert "417" not in dd
    assert answer_words("double-dummy", "place 1 shared 3 tallest 60 second 30") == (
        "1st place shared with 2 other players, your tallest stack 1 card, the second "
        "0.5 cards")
    assert odds_words("1/2") == "a 1 in 2 chance"
    assert "a 1 in 2 chance" in answer_words("tweak-this-turn", "possible p=1/2")
    assert "p=" not in answer_words("tweak-this-turn", "possible p=2/3")
    assert answer_words("tweak-within 3", "yes turns=2") == "a TWEAK forced within 2 turns of yours"
    assert answer_words("lianxian-least-bonus 4", "none").startswith("no placement scores 4")
    assert action_words("graph-t", "Y1g") == "Y1 on its grey side"
    assert action_words("tweak", "O4xO2Y2Y2") == "capture O2 Y2 Y2 with O4"
    assert action_words("towai", "day D5") == "lead D5 by day"


def test_every_fixture_answer_and_first_action_value_has_words() -> None:
    """Every stated answer and every first action's value of the bundled puzzles is said in
    words that differ from the exact text (the words never fall back to it)."""
    from kifu.puzzles import Budget

    seen = 0
    for lp in fixture_puzzles():
        p = lp.puzzle
        assert answer_words(p.question, p.answer) != p.answer
        q = get_question(p.question)
        from kifu import games

        sol = q.solve(games.get(p.game).from_line(p.position), Budget(nodes=2_000_000))
        for v in sol.values:
            words = answer_words(p.question, v.value)
            assert words and words != v.value
            seen += 1
    assert seen > 100


def test_solve_text_says_the_answer_in_words_and_json_keeps_exact_values() -> None:
    path = str(ROOT / "fixtures" / "puzzles" / "graph-t.kifu")
    r = CliRunner().invoke(cli, ["solve", path])
    assert r.exit_code == 0, r.output
    assert "in words: 1st place, your tallest stack 1 card, no second stack" in r.output
    assert re.search(r"^  \* p0 R2 +place 1 shared 1 tallest 60 second 0  = 1st place",
                     r.output, re.M)
    r = CliRunner().invoke(cli, ["solve", path, "--json"])
    first = json.loads(r.output.split("\n")[0])
    assert first["answer"] == "place 1 shared 1 tallest 60 second 0"
    assert "words" not in json.dumps(first)
    r = CliRunner().invoke(cli, ["solve", "--check", str(ROOT / "fixtures" / "puzzles")])
    assert r.exit_code == 0 and "wrong" not in r.output


def test_the_sheet_says_values_in_words_and_a_wrong_click_hides_the_target(tmp_path) -> None:
    from kifu.html.assets import PUZZLE_JS

    r = CliRunner().invoke(cli, ["html", str(FIXTURES[1])])
    assert r.exit_code == 0
    assert "In words: " in r.output
    assert "short of" not in PUZZLE_JS and "item.answer + \". Try" not in PUZZLE_JS


# --- ratings ---------------------------------------------------------------------------------


def test_chance_and_rate_are_monotone() -> None:
    assert rating.chance(1500, 1500) == pytest.approx(0.5)
    assert rating.chance(1500, 1900) == pytest.approx(1 / 11)
    solvers = [s.bot for s in rating.SOLVERS]

    def r(found: float) -> float:
        return rating.rate([rating.Trial(b, found, 1.0) for b in solvers])[0]

    values = [r(f) for f in (0.0, 0.25, 0.5, 0.75, 1.0)]
    assert values == sorted(values, reverse=True)  # found more often: rated lower
    _low, rd_low = rating.rate([rating.Trial(b, 1.0, 1.0) for b in solvers])
    assert rd_low < rating.PRIOR_SD


def test_fit_recovers_the_order_of_the_solvers() -> None:
    """Synthetic trials from known ratings: the fit puts the solvers back in order."""
    from kifu.core.rng import Rng

    truth = {"random": 800.0, "a": 1200.0, "b": 1500.0, "c": 1800.0}
    rng = Rng(3)
    table = []
    for i in range(150):
        pr = 900 + (i % 15) * 80
        row = []
        for b, s in truth.items():
            k = sum(rng.below(10_000) < 10_000 * rating.chance(s, pr) for _ in range(4))
            row.append(rating.Trial(b, float(k), 4.0))
        table.append(row)
    fitted, puzzles = rating.fit(table)
    order = sorted(fitted, key=fitted.get)
    assert order == ["random", "a", "b", "c"]
    assert abs(fitted["c"] - truth["c"]) < 200
    assert len(puzzles) == len(table)


def test_wilson_and_bands() -> None:
    lo, hi = rating.wilson(5, 10)
    assert 0 <= lo < 0.5 < hi <= 1
    b = rating.bands([(1000.0, True), (1100.0, True), (1500.0, False), (1600.0, False),
                      (1300.0, True), (1400.0, False)], 3)
    assert [x.puzzles for x in b] == [2, 2, 2] and b[0].share == 1.0 and b[-1].share == 0.0


def test_rating_tags_on_a_fixture_puzzle() -> None:
    lp = next(iter(load_puzzles(str(ROOT / "fixtures" / "puzzles" / "tweak.kifu"))))
    trials = rating.puzzle_trials(lp.puzzle)
    assert trials and [t.bot for t in trials] == [s.bot for s in rating.SOLVERS]
    p = rating.with_rating(lp.puzzle, trials)
    assert 0 < float(p.tags["Rating"]) < 3000 and "random=" in p.tags["RatedBy"]
    assert rating.puzzle_trials(lp.puzzle) == trials  # seeded by the puzzle


def test_ladders_keep_the_held_out_bot_out() -> None:
    """Every game's ladder is the common one in rating order; Lianxian asks
    ``ismcts:iters=40`` 8 trials and adds ``defensive`` (the soft rungs are an experiment,
    on no ladder). Each game's held-out bot is on no ladder, and Lianxian's is of no rung's
    family (issue 37)."""
    common = tuple(sorted(rating.SOLVERS, key=lambda s: s.rating))
    for g in ("tweak", "graph-t", "towai", "alice"):
        assert rating.solvers_for(g) == common
        assert rating.held_out_for(g) == rating.HELD_OUT
    lx = rating.solvers_for("lianxian")
    assert rating.solvers_for("setup") == lx  # the alias
    assert [(s.bot, s.rating) for s in lx] == sorted(
        [(s.bot, s.rating) for s in (*common, *rating.GAME_SOLVERS["lianxian"])],
        key=lambda x: x[1])
    assert {s.bot: s.trials for s in lx}["ismcts:iters=40"] == 8
    assert {s.bot: s.trials for s in lx}["defensive"] == 1
    for g in ("tweak", "graph-t", "towai", "alice", "lianxian"):
        ladder = {s.bot for s in rating.solvers_for(g)}
        assert rating.HELD_OUT not in ladder and rating.held_out_for(g) not in ladder
    assert rating.held_out_for("setup") == rating.GAME_HELD_OUT["lianxian"]
    assert rating.family(rating.held_out_for("lianxian")) not in {
        rating.family(s.bot) for s in lx}
    assert rating.HELD_OUT not in {s.bot for s in rating.SOFT_RUNGS}
    assert rating.family("soft:t=0.5") == rating.family("defensive") == "greedy"
    assert rating.family("ismcts:iters=40") == rating.family(rating.HELD_OUT)


def test_place_puts_a_rung_back_where_it_was() -> None:
    """Synthetic trials from known ratings: a new rung is placed near its true rating by
    the others (:func:`kifu.lab.rating.place`), higher for a stronger rung."""
    from kifu.core.rng import Rng

    rng = Rng("place")
    ladder = {s.bot: s.rating for s in rating.SOLVERS}

    def table(true: float) -> list[list[rating.Trial]]:
        out = []
        for i in range(300):
            pr = 900.0 + 1000.0 * i / 300
            row = []
            for b, s in [*ladder.items(), ("new", true)]:
                if b == "random":
                    continue
                k = sum(rng.below(10_000) < 10_000 * rating.chance(s, pr) for _ in range(4))
                row.append(rating.Trial(b, float(k), 4.0))
            out.append(row)
        return out

    weak = rating.place(table(1200.0), "new", {**ladder, "new": 0.0})
    strong = rating.place(table(1600.0), "new", {**ladder, "new": 0.0})
    assert abs(weak - 1200.0) < 120 and abs(strong - 1600.0) < 120 and weak < strong


def test_soft_bot_is_seeded_and_cools_to_greedy() -> None:
    """The soft bot is deterministic for a seed, plays legal actions, at a tiny temperature
    scores what greedy scores, and at a large one spreads over many actions."""
    from kifu import games
    from kifu.bots.profiles import profile
    from kifu.core.rng import Rng

    game = games.get("lianxian")
    lp = next(iter(load_puzzles(str(ROOT / "fixtures" / "puzzles" / "lianxian.kifu"))))
    state = game.from_line(lp.puzzle.position)
    seat = state.to_move
    prof = profile("lianxian")

    def gain(a: object) -> float:
        s = state.copy()
        before = prof.scores(s)[seat]
        s.push(a)  # type: ignore[arg-type]
        return prof.scores(s)[seat] - before

    def pick(name: str, seed: int) -> object:
        return rating.ladder_bot(game, name, seat, Rng(seed)).choose(state.copy())

    assert pick("soft:t=0.25", 5) == pick("soft:t=0.25", 5)
    greedy = rating.ladder_bot(game, "greedy", seat, Rng(0)).choose(state.copy())
    assert gain(pick("soft:t=0.001", 1)) == gain(greedy)
    legal = state.legal_actions()
    hot = {pick("soft:t=100", k) for k in range(20)}
    assert hot <= set(legal) and (len(hot) > 5 or len(legal) <= 5)


def test_lianxian_puzzle_trials_with_the_soft_rungs() -> None:
    """The soft rungs can be passed as a ladder: seeded trials, rated on the scale."""
    lp = next(iter(load_puzzles(str(ROOT / "fixtures" / "puzzles" / "lianxian.kifu"))))
    ladder = [*rating.SOLVERS, *rating.SOFT_RUNGS]
    trials = rating.puzzle_trials(lp.puzzle, solvers=ladder)
    assert trials and [t.bot for t in trials] == [s.bot for s in ladder]
    assert rating.puzzle_trials(lp.puzzle, solvers=ladder) == trials  # seeded by the puzzle
    p = rating.with_rating(lp.puzzle, trials)
    assert "soft:t=0.125=" in p.tags["RatedBy"] and 0 < float(p.tags["Rating"]) < 3000


# --- variety ----------------------------------------------------------------------------------


def _p(i: int, source: str, motifs: list[str], answer: str = "forced",
       first: str | None = None) -> Puzzle:
    return Puzzle("tweak", "tweak/1", f"pos{i}", "tweak-this-turn", answer=answer,
                  solution=[f"p0 {first or f'R{i}'}"], source=source,
                  tags={"Themes": " ".join(["tweak-this-turn", "forced", *motifs])},
                  comment=f"1 of {2 + i % 5} first actions reach forced")


def test_near_duplicates_same_game_within_three_plies_and_same_pattern() -> None:
    ps = [_p(0, "g.kifu#1@ply10", ["thief"]), _p(1, "g.kifu#1@ply13", ["joker"]),
          _p(2, "g.kifu#1@ply14", ["bomb"]), _p(3, "g.kifu#2@ply10", ["thief"]),
          _p(4, "g.kifu#3@ply40", ["joker"], first="R9"),
          _p(5, "g.kifu#4@ply40", ["joker"], first="R9")]
    kept = variety.drop_near_duplicates(ps)
    where = [variety.game_and_ply(p) for p in kept]
    for i, (g, ply) in enumerate(where):
        assert all(not (g == g2 and abs(ply - ply2) <= 3) for g2, ply2 in where[:i])
    assert len({variety.pattern(p) for p in kept}) == len(kept)
    assert [p.position for p in kept if p.source.startswith("g.kifu#1@")] in (
        ["pos0", "pos2"], ["pos1"])
    assert sum(p.source.startswith(("g.kifu#3", "g.kifu#4")) for p in kept) == 1


MOTIFS = ["thief", "joker", "bomb", "shifter", "thief-draw", "long-line"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.sampled_from(MOTIFS), max_size=2, unique=True), max_size=40),
       st.sampled_from([0.2, 0.3, 0.5]), st.one_of(st.none(), st.integers(1, 30)))
def test_capped_never_lets_a_theme_past_the_cap(motif_lists, share, count) -> None:
    ranked = [_p(i, f"g#{i}@ply0", m, answer=["forced", "no"][i % 2])
              for i, m in enumerate(motif_lists)]
    out = variety.capped(ranked, count=count, max_share=share)
    assert count is None or len(out) <= count
    assert len({p.position for p in out}) == len(out)
    for t in MOTIFS:
        assert sum(t in variety.motifs(p) for p in out) <= share * len(out) + 1e-9
    plain = [p for p in ranked if not variety.motifs(p)]
    if count is None:  # puzzles without a motif never count against the cap
        assert len(out) >= len(plain)


def test_generic_themes_are_not_motifs() -> None:
    p = _p(0, "g#1@ply0", ["thief", "capture", "odds-1/2", "only-move", "endgame-5"])
    assert variety.motifs(p) == ["thief"]


# --- time you can see -----------------------------------------------------------------------


def test_a_slow_question_says_so_before_it_starts(monkeypatch) -> None:
    from kifu.lab import generate

    monkeypatch.setitem(generate.SLOW, ("towai-win-round", 3), 70.0)
    monkeypatch.setitem(generate.SLOW, ("towai-win-round", 2), 13.0)
    said = generate.slow_warning("towai", "towai-win-round", 3, 8)
    assert "slow" in said and "--players 2" in said and "-n" in said and "min" in said
    assert generate.slow_warning("towai", "towai-win-round", 3, 0) == ""
    assert generate.slow_warning("tweak", "tweak-this-turn", 3, 8) == ""


def test_generate_shows_positions_found_and_an_eta() -> None:
    r = CliRunner().invoke(cli, ["puzzles", "generate", "tweak", "-Q", "tweak-this-turn",
                                 "-n", "2", "--players", "3"])
    assert r.exit_code == 0, r.output
    assert re.search(r"generating: \d+ game\(s\), \d+ positions tried, \d+ puzzle\(s\) "
                     r"found for \d+ wanted, .* ETA", r.stderr)
    assert "In words: " in r.stdout


# --- the trainer's data -----------------------------------------------------------------------


def test_trainer_maps_every_first_action_to_a_card_or_a_button() -> None:
    """Every bundled puzzle: the trainer offers each legal first action once (on a card of
    the board or as a button), exactly the winning ones are right, and the line's first
    action is on a card wherever the action names one."""
    from kifu.html.trainer import trainer_item
    from kifu.notation.puzzle import check_puzzle

    on_cards = total = 0
    for lp in fixture_puzzles():
        item = trainer_item(check_puzzle(lp))
        if not item:
            continue
        first = item["steps"][0]
        offered = sorted([k for _, ks in first["picks"] for k in ks] + first["free"])
        assert offered == list(range(len(first["opts"])))
        assert sum(o[2] for o in first["opts"]) == item["winning"]
        line_k = next(k for k, o in enumerate(first["opts"]) if o[0] == first["act"])
        assert first["opts"][line_k][2] == 1
        total += 1
        on_cards += any(line_k in ks for _, ks in first["picks"])
        assert item["answer"] and "p=" not in item["answer"]
    assert total > 60 and on_cards >= 0.9 * total


def test_trainer_page_select_and_refusals(tmp_path) -> None:
    path = str(ROOT / "fixtures" / "puzzles" / "tweak.kifu")
    r = CliRunner().invoke(cli, ["html", path, "--trainer", "--select", "game=tweak,count=2"])
    assert r.exit_code == 0, r.output
    page = r.output
    assert "default-src 'none'" in page and "localStorage" in page
    assert not re.search(r"(src|href)=\"https?:", page)
    data = json.loads(re.search(r'id="kifu-data">(.*?)</script>', page).group(1))
    assert 1 <= len(data["puzzles"]) <= 2
    r = CliRunner().invoke(cli, ["html", path, "--trainer", "--select", "colour=red"])
    assert r.exit_code == 1 and "--select" in r.output
    record = str(ROOT / "fixtures" / "tweak" / "single-round-2p.kifu")
    r = CliRunner().invoke(cli, ["html", record, "--trainer"])
    assert r.exit_code == 1 and "puzzle file" in r.output


def test_mine_shows_records_positions_found_and_an_eta() -> None:
    path = str(ROOT / "fixtures" / "tweak" / "missed-win-2p.kifu")
    r = CliRunner().invoke(cli, ["puzzles", "mine", path, "--no-rating"])
    assert r.exit_code == 0, r.output
    assert re.search(r"mining: 1 of 1 records, \d+ positions tried, \d+ puzzle\(s\) found, "
                     r"ETA", r.stderr)
    assert "puzzle(s) kept of" in r.stderr
    assert "In words: " in r.stdout and "Rating" not in r.stdout


def test_the_issue_s_slow_run_is_announced_before_it_starts() -> None:
    """``kifu puzzles generate towai -Q towai-win-round -n 8`` (9 min 41 s in the issue with
    only a bar) says before playing a game that it is slow, and how to go faster."""
    r = CliRunner().invoke(cli, ["puzzles", "generate", "towai", "-Q", "towai-win-round",
                                 "-n", "8", "--max-games", "0"])
    assert r.exit_code == 1  # no game played: fewer puzzles than asked
    first = r.stderr.splitlines()[0]
    assert "towai-win-round with 3 players is slow" in first
    assert "--players 2" in first and "--max-seconds" in first


def test_rate_check_game_asks_each_games_held_out_bot(tmp_path) -> None:
    """``kifu puzzles rate --check game``: Lianxian's puzzles are checked by its own
    held-out bot (``expert:level=fast``), named in each row."""
    text = (ROOT / "fixtures" / "puzzles" / "lianxian.kifu").read_text(encoding="utf-8")
    some = [p for p in parse_puzzles(text) if p.question == "lianxian-best"][:2]
    path = tmp_path / "l.kifu"
    path.write_text(format_puzzles(some), encoding="utf-8")
    r = CliRunner().invoke(cli, ["puzzles", "rate", str(path), "--check", "game", "--tries",
                                 "1", "--bands", "1", "--json", "-q"])
    assert r.exit_code == 0, r.output
    (row,) = json.loads(r.output)
    assert row["game"] == "lianxian" and row["bot"] == rating.GAME_HELD_OUT["lianxian"]
    assert row["puzzles"] == len(some) and 0 <= row["found"] <= len(some)
