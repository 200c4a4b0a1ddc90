"""Lianxian's rule variants (defaults = the rulings, ``docs/rules/lianxian.md``)."""

from __future__ import annotations

from kifu.core.errors import VariantError
from kifu.core.variant import Variant, variant_fields
from kifu.games.lianxian.board import load_board

GAME_ID = "lianxian"
RULES_VERSION = 1


class LianxianVariant(Variant, frozen=True):
    """Every field's default is the rulings."""

    board: str = "default"
    """The board, by name: a file ``<board>.board`` (spaces, owners, lines, finish lines,
    seating)."""
    team: bool = False
    """The 2-vs-2 team game for 4 players (ruling 8): figure-8 seating, team result."""
    finish: int = 0
    """The finish line; 0 = the board's line for the player count (45 / 40 / 35)."""

    def validate(self) -> None:
        load_board(self.board)
        if self.finish < 0:
            raise VariantError("finish must be >= 0 (0 = the board's finish line)")


_SPECS: dict[LianxianVariant, str] = {}


def rules_spec(variant: LianxianVariant) -> str:
    s = _SPECS.get(variant)
    if s is None:
        s = ";".join([f"{GAME_ID}/{RULES_VERSION}"]
                     + [f"{k}={v}" for k, v in variant_fields(variant)])
        _SPECS[variant] = s
    return s
