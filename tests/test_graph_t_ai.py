"""The rulebook's AI player (ruling 9), table-driven.

Each row: the mover's hand, the trick so far (p0 led it; ``-`` = the mover leads), the
players, the grey players, the rules, and the one play the three rules pick. Every answer
was worked out by hand from the ruling, as the comment says:

  1. the pure grey card if it is legal ("any grey play" with ai_grey=any);
  2. else, of the legal plays of the required colour (leading: every colour-side play), the
     highest level; ties: the colour with the most cards in hand;
  3. else, of the non-grey colour with the most cards in hand, the highest level, on its
     colour side (its grey side when a grey play is required).
  Remaining ties: black > purple > sky blue > yellow > red.
"""

from __future__ import annotations

import pytest
from graph_t_helpers import GAME, position

from kifu.core.rng import Rng

D = "graph-t/1"
ANY = "graph-t/1;ai_grey=any"
ANYONE = "graph-t/1;grey_open=anyone"

CASES = [
    # (hand, trick, players, grey players, rules, expected, why)
    ("R1Y2B3G", "-", 2, "-", D, "B3",
     "lead, grey not open so G is illegal; rule 2 over all colour sides: B3 has level 3"),
    ("G", "-", 2, "-", D, "G",
     "lead holding only the grey card: it is legal (ruling 3), rule 1 plays it"),
    ("R1Y2G", "-", 2, "p1", D, "G",
     "lead, grey open (p1 made a grey play): the grey card is legal, rule 1"),
    ("R1Y2G", "-", 2, "p0", D, "Y2",
     "lead; only the leader p0 has played grey, so grey is not open (ruling 2 'other'): "
     "G is illegal, rule 2 takes the highest level, Y2"),
    ("R1Y2G", "-", 2, "p0", ANYONE, "G",
     "same hand with grey_open=anyone: p0's own grey play opens grey, rule 1 plays G"),
    ("R2Y3K1", "-", 2, "p1", D, "Y3",
     "lead, grey open but no grey card: rule 2, highest level Y3 (3) over R2 (2), K1 (1)"),
    ("Y2B1B2", "-", 2, "-", D, "B2",
     "lead: Y2 and B2 share level 2; sky blue has 2 cards in hand, yellow 1"),
    ("R2Y2", "-", 2, "-", D, "Y2",
     "lead: level 2 tie, one card each; colour order yellow > red"),
    ("R1R1R1P1K1K1", "-", 2, "-", D, "R1",
     "lead: all level 1; red has 3 cards (black 2, purple 1): the count beats colour order"),
    ("K6P5G", "-", 2, "-", D, "K6",
     "lead, grey not open: G illegal; highest level K6"),
    ("B1B4K1K4P4", "-", 2, "-", D, "K4",
     "lead: level 4 tie B4/K4/P4; black has 2 cards, the others 1"),
    ("Y3B3P3", "-", 2, "-", D, "P3",
     "lead: level 3 three ways, one card each: purple > sky blue > yellow"),
    ("R2Y3K6", "R1", 2, "-", D, "R2",
     "follow red holding red: only red colour sides are legal; rule 2 gives R2"),
    ("R1R2G", "R1", 2, "-", D, "R2",
     "follow red holding red, no grey play in the trick: G illegal; rule 2 highest red R2"),
    ("Y1Y2B3G", "R1", 2, "-", D, "G",
     "void in red: any play is legal, so G is; rule 1"),
    ("Y1Y2B3", "R1", 2, "-", D, "Y2",
     "void in red, no G: no red play (rule 2 empty); rule 3: yellow has the most cards "
     "(2), its highest level Y2, colour side, though B3 is a higher level"),
    ("Y1B3", "R1", 2, "-", D, "B3",
     "void in red: yellow and sky blue 1 card each; colour order sky blue > yellow: B3"),
    ("R1R2Y1Y3P5", "K1", 2, "-", D, "Y3",
     "void in black: red and yellow 2 cards each, yellow ranks higher; highest yellow Y3"),
    ("R1Y3G", "P1g", 2, "p0", D, "G",
     "grey lead: the grey card is a legal grey play; rule 1"),
    ("R1Y1Y2B4", "P1g", 2, "p0", D, "Y2g",
     "grey lead, no G: the required colour is grey and the only grey *card* is G, so rule "
     "3 with a grey play required: yellow has the most cards (2), highest level Y2, grey "
     "side"),
    ("R1Y3B4B4", "P1g", 2, "p0", D, "R1g",
     "grey lead: sky blue has the most cards but B4 and Y3 are top-level (no grey side); "
     "the only legal play is R1g (rule 3 among legal grey sides)"),
    ("R2Y3Y3", "P1g", 2, "p0", D, "Y3",
     "grey lead but no grey play possible (all top-level, no G): any play (ruling 5); "
     "rule 3, colour side: yellow has 2 cards, Y3"),
    ("Y2Y3G", "Y1K2g", 3, "p1", D, "G",
     "follow yellow after a grey play in this trick: any grey play is allowed, so G is "
     "legal; rule 1"),
    ("R1Y2Y3", "Y1K2g", 3, "p1", D, "Y3",
     "follow yellow after a grey play, no G: rule 2 over yellow colour sides, Y3"),
    ("R1Y2B4", "-", 2, "p1", ANY, "Y2g",
     "ai_grey=any, lead with grey open: grey sides R1g and Y2g are legal; chosen as in "
     "rule 3: red and yellow 1 card each, yellow ranks higher: Y2g"),
    ("R1R2", "R1", 2, "-", ANY, "R2",
     "ai_grey=any following red with red in hand: no grey play legal; rule 2 R2"),
    ("Y1Y2B1", "R1", 2, "-", ANY, "Y2g",
     "ai_grey=any, void in red: grey sides legal; yellow has most cards (2), highest "
     "level Y2, grey side"),
    ("R1K5G", "-", 2, "p1", ANY, "G",
     "ai_grey=any still prefers the pure grey card when it is legal"),
    ("B2P2P1K1", "B1", 3, "-", D, "B2",
     "three players, follow sky blue holding B2: only B2 is legal"),
]


@pytest.mark.parametrize(
    ("hand", "trick", "n", "greyed", "rules", "expected", "why"), CASES,
    ids=[f"{c[0]}|{c[1]}|{c[4].partition(';')[2] or 'default'}" for c in CASES],
)
def test_ai_picks(hand, trick, n, greyed, rules, expected, why) -> None:
    state = position(hand, trick, n=n, greyed=greyed, rules=rules)
    for name in ("ai", "graph-t-ai"):
        bot = GAME.bots[name](state.turn, Rng(0))
        action = bot.choose(state)
        assert state.is_legal(action)
        assert GAME.format_action(state, action) == expected, why


def test_enough_cases() -> None:
    assert len(CASES) >= 20
