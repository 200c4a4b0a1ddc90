"""Regenerate ``fixtures/perft/tweak.perft``: ``python benchmarks/make_tweak_perft.py``.

Each position is reached from a seed by uniformly random play (the dealer's and the players'
choices drawn from one :class:`~kifu.core.Rng`), stopped at the first position that fits;
two are then edited by moving cards between zones (so every card is still accounted for and
the line still passes ``from_line``'s consistency check) to reach the cases that random play
rarely meets: every kind of T! card in one hand, and a 12-card table. The counts are computed
with :func:`kifu.core.game.perft` (not a benchmark: not collected by pytest).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from kifu import games
from kifu.core.game import DEALER, perft
from kifu.core.rng import Rng
from kifu.games.tweak.cards import CODE_OF
from kifu.games.tweak.state import TURN, TweakState

OUT = Path(__file__).resolve().parent.parent / "fixtures" / "perft" / "tweak.perft"
GAME = games.get("tweak")


def reach(players: int, seed: int, fits: Callable[[TweakState], bool]) -> TweakState:
    """Random play from ``seed`` up to the first position (a turn, no T! card used yet)
    where ``fits`` holds."""
    s = GAME.new_state(players)
    rng = Rng(seed)
    while s.to_move is not None:
        if s.to_move == DEALER:
            s.apply(GAME.chance_action(s, rng))
            continue
        if s.phase == TURN and not s.tused and fits(s):
            return s
        s.apply(rng.choice(s.legal_actions()))
    raise LookupError(f"seed {seed}: no fitting position")


def move_cards(s: TweakState, cards: str, src: str, dst: str) -> None:
    """Move ``cards`` from zone ``src`` to zone ``dst`` (``table``, ``tpile``, ``deck``,
    ``hand<seat>``, ``pile<seat>``, ``held<seat>``), keeping zones sorted."""

    def get(z: str) -> tuple[int, ...]:
        if z == "table":
            return s.table
        if z == "tpile":
            return s.tpile[s.tpos :]
        if z == "deck":
            return s.deck[s.dpos :]
        field, seat = {"hand": "hands", "pile": "piles", "held": "held"}[z[:4]], int(z[4:])
        return getattr(s, field)[seat]

    def put(z: str, v: tuple[int, ...], keep_order: bool) -> None:
        if z in ("tpile", "deck"):
            setattr(s, z, v)
            setattr(s, "tpos" if z == "tpile" else "dpos", 0)
        elif z == "table":
            s.table = tuple(sorted(v))
        else:
            field, seat = {"hand": "hands", "pile": "piles", "held": "held"}[z[:4]], int(z[4:])
            zones = list(getattr(s, field))
            zones[seat] = tuple(sorted(v))
            setattr(s, field, tuple(zones))

    moved = [CODE_OF[cards[i : i + 2]] for i in range(0, len(cards), 2)]
    left = list(get(src))
    for c in moved:
        left.remove(c)  # in order: a pile keeps its order
    put(src, tuple(left), True)
    put(dst, get(dst) + tuple(moved), False)


def positions() -> list[tuple[str, str, int]]:
    """(id, position line, deepest depth)."""
    out = []
    # 2 players, the first turn of the game.
    s = reach(2, 11, lambda s: True)
    out.append(("2p-first-turn", s.to_line(), 7))
    # 3 players, mid-round: the mover holds one T! card of each kind (Thief -> the dealer's
    # steal, Bomb -> the victims' places, Joker, Shifter), 5 cards left in the deck.
    s = reach(3, 2886, lambda s: len(set(s.held[s.mover])) >= 3)
    move_cards(s, "!B", "tpile", f"held{s.mover}")
    out.append(("3p-every-t-card", s.to_line(), 6))
    # 4 players, mid-round, T! cards held.
    s = reach(4, 7, lambda s: len(s.deck_left()) <= 16 and any(s.held))
    out.append(("4p-mid-round", s.to_line(), 7))
    # 5 players, mid-round.
    s = reach(5, 3, lambda s: len(s.deck_left()) <= 30 and len(s.table) >= 4)
    out.append(("5p-mid-round", s.to_line(), 6))
    # 6 players near the deck's end: 1 card left, then empty hands are skipped (ruling 8)
    # and the round ends (a shuffle: those paths count 0).
    s = reach(6, 1, lambda s: len(s.deck_left()) == 1)
    out.append(("6p-deck-end", s.to_line(), 6))
    # The worst case: a 12-card table of low cards, a 3-card hand, T! cards held.
    out.append(("3p-table-12", worst_case().to_line(), 2))
    return out


def worst_case() -> TweakState:
    """3 players; p1 to move with R1 Y2 G3 and every kind of T! card, facing a 12-card table
    of every 1, 2 and 3 (R1 O1 Y1 G1 R2 .. G3), target 10: 759 distinct captures."""
    s = GAME.new_state(3)
    left = list(s.components())

    def take(text: str) -> tuple[int, ...]:
        cards = [CODE_OF[t] for t in text.split()]
        for c in cards:
            left.remove(c)
        return tuple(cards)

    s.round, s.dealer, s.phase, s.mover = 1, 0, TURN, 1
    s.table = tuple(sorted(take("R1 O1 Y1 G1 R2 O2 Y2 G2 R3 O3 Y3 G3")))
    s.hands = tuple(tuple(sorted(take(h))) for h in ("R4 O5 Y6", "R1 Y2 G3", "G5 G6 O6"))
    s.held = ((), tuple(sorted(take("!T !J !S !B"))), ())
    s.deck, s.dpos = take("G4 R5 R6 O4 Y4 Y5"), 0  # G4 on top: target 10
    s.tpile, s.tpos = take("!T !J !T !S !J !T"), 0
    s.piles = (tuple(sorted(left[:4])), tuple(sorted(left[4:])), ())
    s._present = s.components()  # every card is in play, as after a deal
    s.check_invariants()
    return s


def main() -> None:
    blocks = ["# TWEAK perft positions (regenerate: python benchmarks/make_tweak_perft.py)."]
    for pid, line, depth in positions():
        state = GAME.from_line(line)
        lines = [f"id {pid}", "game tweak", f"position {line}"]
        for d in range(1, depth + 1):
            lines.append(f"perft {d} {perft(state, d)}")
        blocks.append("\n".join(lines))
        print("\n".join(lines), file=sys.stderr)
    OUT.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
