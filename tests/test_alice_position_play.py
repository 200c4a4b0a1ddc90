"""Issue 21: every Alice position line the reader accepts can be played. The reader refuses,
with an error located at the field (line 1, its column), the lines whose fields the engine
cannot play on: before, some of them ended ``kifu perft``/``kifu solve`` in ``IndexError``
or ``negative shift count``, left a seat to move with no legal action, or lost cards.

Found by mutating valid lines (fixtures, and positions of seeded games) field by field and
playing each line the reader accepts (``fuzz/targets.py``'s ``play_alice``: perft 2 with
the engine's invariants at every node, the texts of the legal actions, the views, and the
``alice-bard-wins`` question on a small budget); the same target runs under atheris
(``python fuzz/run.py play_alice``)."""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kifu import games
from kifu.core.errors import KifuError, NotationError
from kifu.core.rng import Rng
from kifu.notation.perftfile import read_perft

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "fuzz"))

import targets  # noqa: E402

GAME = games.get("alice")
FIELDS = targets.ALICE_FIELDS

# Valid positions of seeded 3-player games, one of each phase met (the bases below).
PLAY = ("alice/1 play p1 0 p0 hqr 0,0,0:0 nD8aH5aC13/nH7vC10aS6aS8/nC2vS11aH3aH7 "
        "nC8/nD13/nC13 -/nC8@p0/vC1@p0/-/- 0/-/0 - - -,-,-,0,0,0,-,0,0,-,-,-")
SWAP = ("alice/1 swap p2 2 p2 HQr 0,0,1:1 nS9nD8nC11aC13/nH7vS10aS8/vD12aD2 nC8/nD13/nC13 "
        "aC3@p0/nC13@p2/vS11@p2/aH7@p2/nS2@p1 012/-/0 nC4vC10aH5 aH3vC1aS6nC2 "
        "p2,p1,p1,1,0,0,-,2,0,-,p0,-")
ADJUST = ("alice/1;cards=tea-party adjust p0 3 p0 PHc 0,1,0:1 nH3aC1/vS6aS2aH12aC2/"
          "nC12vD11aH5 nS12/nH8/nH5 aC11@p1/nS12@p0/vD1@p0/aD6@p2/nD4@p0 012/-/0 vD6aH11aC4 "
          "aD7vS11aC10nC13aC5vH5aH10nS13 p1,p2,sys,1,0,0,-,0,0,-,-,-")
CLEAN = ("alice/1 clean p1 0 p1 aCr 0,0,0:1 nS7vD5aD6aC1/aS8aH5aH1/nH5vD1aC11aC2 "
         "nD6/nD2/nC2 -/-/-/-/- 012/-/0 - aC7vD9aD3nC8 sys,p1,sys,0,0,0,-,1,0,-,p2,-")
CHAR = ("alice/1 char p0 0 - hqr 0,0,0:0 nD8nC8vC1aH5aC13/nH7nD13vC10aS6aS8/"
        "nC2nC13vS11aH3aH7 -/-/- -/-/-/-/- -/-/0 - - -,-,-,0,0,0,-,0,0,-,-,-")
FORCED = ("alice/1 forced d 5 p0 QHR 0,0,1:2 nD8nC11aD12aC10/nD10vS3vS10vC3aD11/"
          "vD12aS10aD2aD7 nC8/nD13/nC13 -/nC8@p0/-/-/- 0/0/0 nS9nC4vS9vC10aH5aC13 "
          "aH3vC1aS6nC2aC3vS11aH7nS2aC6vD11aS8nH7 -,-,-,1,0,0,-,0,0,v,-,-")
BARD = ("alice/1 bard p0 0 p0 hqr 0,0,0:0 nD8vC1aH5aC13/nH7vC10aS6aS8/nC2vS11aH3aH7 "
        "nC8/nD13/nC13 -/nC8@p0/-/-/- -/-/0 - - -,-,-,0,0,0,-,0,0,-,-,-")


def field(line: str, name: str, value: str) -> str:
    f = line.split(" ")
    f[FIELDS.index(name)] = value
    return " ".join(f)


def column(line: str, name: str) -> int:
    return [m.start() + 1 for m in re.finditer(r"\S+", line)][FIELDS.index(name)]


# (what was wrong, base, field changed, its new value, what today's code did)
REFUSED = [
    ("no roles after the roles phase", PLAY, "roles", "-", "IndexError in _win_test"),
    ("a swap with the system as loser", SWAP, "check", "p2,sys,p1,1,0,0,-,2,0,-,p0,-",
     "IndexError in _swap"),
    ("a swap with no loser", SWAP, "check", "p2,-,p1,1,0,0,-,2,0,-,p0,-",
     "negative shift count in _swap"),
    ("a swap on an incomplete sentence", SWAP, "sentence",
     "aC3@p0/nC13@p2/vS11@p2/-/nS2@p1", "IndexError in _after_swap"),
    ("the Caterpillar's choice on an incomplete sentence", ADJUST, "sentence",
     "aC11@p1/nS12@p0/vD1@p0/-/nD4@p0", "IndexError in totals"),
    ("the Caterpillar's choice with no opponent", ADJUST, "check",
     "p1,p2,-,1,0,0,-,0,0,-,-,-", "negative shift count in skill"),
    ("no next Bard after the check", CLEAN, "check", "sys,p1,sys,0,0,0,-,1,0,-,-,-",
     "negative shift count in _bard_verb when the Clean Phase ends"),
    ("a seat to choose a Character holding no noun", CHAR, "hands",
     "nD8nC8vC1aH5aC13/nH7nD13vC10aS6aS8/vS11aH3aH7", "no legal action for p2"),
    ("the Bard's forced verb drawn from another deck", FORCED, "check",
     "-,-,-,1,0,0,-,0,0,a,-,-", "an adjective played onto V"),
    ("a verb on V before the Bard opens", BARD, "sentence", "-/nC8@p0/vD1@p1/-/-",
     "vD1 lost when the Bard plays"),
    ("a playing phase after the last turn", PLAY, "turns", "10", "turn 11 of 10 played"),
    ("a Clean Phase seat with nothing to do", CLEAN, "hands",
     "nS7vD5aD6aC1/aS8aH5aH1aH2/nH5vD1aC11aC2", "draws offered to a full hand"),
]


@pytest.mark.parametrize(("why", "base", "name", "value", "before"), REFUSED,
                         ids=[r[0] for r in REFUSED])
def test_unplayable_lines_are_refused_where_they_go_wrong(why, base, name, value,
                                                          before) -> None:
    GAME.from_line(base)  # the base line is fine
    line = field(base, name, value)
    with pytest.raises(NotationError) as e:
        GAME.from_line(line)
    assert (e.value.line, e.value.col) == (1, column(line, name)), (why, str(e.value))


BAD_CARDS = [  # (field, value, offset of the bad token in the field)
    ("hands", "nD8aH5aC13/nH7vC10aS6aX8/nC2vS11aH3aH7", 21),
    ("chars", "nC8/nX13/nC13", 4),
    ("sentence", "-/nC8@p0/vC1@p0/aQ2@p1/-", 16),
    ("discard", "aS1nS0", 3),
    ("story", "nS2vV1", 3),
]


@pytest.mark.parametrize(("name", "value", "off"), BAD_CARDS, ids=[b[0] for b in BAD_CARDS])
def test_a_bad_card_is_located_at_its_token(name, value, off) -> None:
    """The card lists' errors carried a column but no line (``<text>: expected a card``)."""
    line = field(PLAY, name, value)
    with pytest.raises(NotationError) as e:
        GAME.from_line(line)
    assert (e.value.line, e.value.col) == (1, column(line, name) + off), str(e.value)
    assert str(e.value).startswith(f"<text>:1:{column(line, name) + off}: {name}: ")


# --- the search: mutations of valid lines, each accepted line played -------------------------

def valid_lines() -> list[str]:
    """Lines of the perft and puzzle fixtures and of seeded games (every 5th position)."""
    out = [c.position for c in read_perft(ROOT / "fixtures" / "perft" / "alice.perft")]
    text = (ROOT / "fixtures" / "puzzles" / "alice.kifu").read_text(encoding="utf-8")
    out += re.findall(r'^\[Position "(.*)"\]$', text, re.M)
    for seed in range(12):
        rng = Rng(seed)
        spec = (None, "alice/1;cards=tea-party", "alice/1;turns=3")[seed % 3]
        s = GAME.new_state(3 + seed % 4, GAME.parse_rules(spec) if spec else None)
        ply = 0
        while s.to_move is not None:
            if ply % 5 == 0:
                out.append(s.to_line())
            acts = s.legal_actions()
            s.apply(rng.choice(acts) if acts else GAME.chance_action(s, rng))
            ply += 1
        out.append(s.to_line())
    return out


LINES = valid_lines()


def mutated(key: int) -> str:
    rnd = random.Random(key)
    line = rnd.choice(LINES)
    for _ in range(rnd.randint(1, 3)):
        line = targets.mutate_alice_line(line, rnd, LINES)
    return line


def play(line: str) -> bool:
    """True if the reader accepted ``line`` (then it was played); False if it refused it
    with a located error. Anything else escaping fails the test."""
    try:
        targets.play_alice(line.encode())
    except NotationError as e:
        assert e.line == 1 and e.col is not None and 1 <= e.col <= len(line) + 1, str(e)
        return False
    except KifuError:
        return True
    return True


@settings(max_examples=300, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2**64))
def test_accepted_lines_play(key: int) -> None:
    play(mutated(key))


def test_a_sweep_of_mutations_plays_and_accepts_some() -> None:
    """2,000 seeded mutations: nothing escapes, and the search is not vacuous (some mutated
    lines are accepted and played, most are refused)."""
    accepted = sum(play(mutated(key)) for key in range(2000))
    assert 100 < accepted < 1900, accepted


def test_valid_lines_are_accepted_and_play() -> None:
    for line in LINES[::2]:
        assert play(line), line
