"""Issue 33, seventh session (TWEAK hands): the hands rung runs with today's ``expert``
parameters, and the disagreement diagnosis (``tools/tweak_disagree.py``) classifies
TWEAK's actions as the rules define them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from test_tweak_tactics import GAME, _positions

from kifu.bots import make_bot
from kifu.core.rng import Rng
from kifu.games.tweak.actions import Capture, Place, UseBomb, UseJoker, UseShifter, UseThief
from kifu.games.tweak.state import BOMB_PHASE

_SPEC = importlib.util.spec_from_file_location(
    "tweak_disagree", Path(__file__).resolve().parent.parent / "tools" / "tweak_disagree.py")
assert _SPEC is not None and _SPEC.loader is not None
TOOL = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(TOOL)


def test_the_hands_rung_is_todays_expert_seeing_the_hands():
    """``expert:cheat=hands`` takes TWEAK's ``expert`` defaults (margin, rollouts, the
    others' policy) and differs from ``expert`` and from the cheater only in ``cheat``."""
    fair = make_bot(GAME, "expert", 0, Rng(1))
    hands = make_bot(GAME, "expert:cheat=hands", 0, Rng(1))
    cheater = make_bot(GAME, "expert:cheat=1", 0, Rng(1))
    assert fair.params["margin"] == 0.5
    assert fair.params["rollout"] == "tactics" and fair.params["others"] == "greedy"
    for bot, cheat in ((hands, "hands"), (cheater, "1")):
        assert bot.params["cheat"] == cheat
        assert {k: v for k, v in bot.params.items() if k != "cheat"} == \
            {k: v for k, v in fair.params.items() if k != "cheat"}


def test_kind_follows_the_rules():
    """A capture of every table card is a TWEAK, of part of it a capture; a Bomb victim's
    card is a gift; T! uses by their card's name. Checked over the legal actions of seeded
    games against a naive recount of the table."""
    seen = set()
    for state in _positions(6):
        for a in state.legal_actions():
            k = TOOL.kind(state, a)
            seen.add(k)
            if isinstance(a, Capture):
                whole = sorted(a.taken) == sorted(state.table)
                assert k == ("TWEAK" if whole else "capture")
            elif isinstance(a, Place):
                assert k == ("gift" if state.phase == BOMB_PHASE else "place")
            else:
                assert k == {UseJoker: "Joker", UseShifter: "Shifter", UseThief: "Thief",
                             UseBomb: "Bomb"}.get(type(a), k)
    assert {"TWEAK", "capture", "place", "Joker", "Thief"} <= seen


def test_disagreement_classes():
    """The class names the cheater's side first and groups captures, places and T! uses."""
    dc = TOOL.disagreement_class
    assert dc("place", "TWEAK") == "expert captures (TWEAK), the cheater places"
    assert dc("capture", "place") == "the cheater captures (capture), expert places"
    assert dc("capture", "TWEAK") == "capture: a TWEAK against another capture"
    assert dc("capture", "capture") == "capture: another capture"
    assert dc("place", "place") == "place: another card"
    assert dc("Thief", "place") == "the cheater uses a Thief, expert plays its card"
    assert dc("TWEAK", "Joker") == "expert uses a Joker, the cheater plays its card"
    assert dc("Thief", "Thief") == "T!: the same Thief, another victim or sign"
    assert dc("gift", "gift") == "Bomb victim: another card"


def test_play_on_is_deterministic_and_common_seeded():
    """A play-on from the same position, action and tag gives the same share (the bots and
    the dealer replay), a share in [0, 1]."""
    for state in _positions(1):
        if state.to_move == 0 and len(state.legal_actions()) > 1 and len(state.deck_left()) < 6:
            a = state.legal_actions()[0]
            before = state.to_line()
            x = TOOL.play_on(GAME, state, a, "t")
            assert x == TOOL.play_on(GAME, state, a, "t")
            assert 0.0 <= x <= 1.0
            assert state.to_line() == before
            return
    raise AssertionError("no late decision of seat 0 in the seeded game")
