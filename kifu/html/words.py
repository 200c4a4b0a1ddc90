"""Plain words for puzzle pages: each question asked as a player would say it ("p1 to play:
can you sweep the table this turn?"), and a puzzle's difficulty in words instead of the
search's figures."""

from __future__ import annotations

import re

from kifu.core.game import State, actor_name
from kifu.lab.analyze import question_player
from kifu.notation.wording import answer_words, value_words

_DIFFICULTY = re.compile(r"nodes=([0-9]+) line=([0-9]+) failing=([0-9]+)")


def _who(game_id: str, state: State) -> str:
    try:
        seat = question_player(game_id, state)
    except (KeyError, AttributeError):
        seat = state.to_move  # type: ignore[assignment]
    return actor_name(seat) if seat is not None and seat >= 0 else "the player"


def question_words(game_id: str, spec: str, state: State) -> str:
    """The question of a puzzle in plain words for its game, the player named."""
    who = _who(game_id, state)
    name, _, arg = spec.partition(" ")
    if name == "tweak-this-turn":
        return (f"{who} to play: can you sweep the table (a TWEAK) before your turn ends? "
                "Choose your first action.")
    if name == "tweak-within":
        return (f"{who} to play, every card known and the others against you: force a TWEAK "
                f"within your next {arg} turn(s). Choose your first action.")
    if name == "best-points":
        return (f"{who} to play, the deck is empty: win as many points as you can this round "
                "against everyone. Choose your first action.")
    if name == "double-dummy":
        lead = "lead" if not getattr(state, "trick", ()) else "play"
        return (f"Double dummy, every hand shown: {who} to {lead}. Finish as high as you can "
                "against everyone (then the tallest stacks). Choose your card.")
    if name == "towai-out-this-turn":
        return f"{who} to play: can you go out (play your last card) this turn?"
    if name == "towai-win-round":
        return (f"{who} to play, every hand and the deck known: win this round whatever the "
                "others do. Choose your first action.")
    if name == "alice-bard-wins":
        return (f"The Bard ({who}) to play, every hand known: win this turn's check whatever "
                "the others do. Choose your action.")
    if name == "lianxian-best":
        return f"{who} to place: score the most points you can this turn."
    if name == "lianxian-finish":
        return f"{who} to place: bring your pawn to the finish line this turn."
    if name == "lianxian-least-bonus":
        return (f"{who} to place: score at least {arg} points while giving the opponents the "
                "fewest bonus points.")
    return f"{who} to move: {spec}"


def difficulty_words(text: str | None) -> str | None:
    """``nodes=N line=L failing=F`` in words: easy, medium or hard, and why."""
    if not text:
        return None
    m = _DIFFICULTY.search(text)
    if not m:
        return text
    nodes, line, failing = (int(x) for x in m.groups())
    if line >= 4 or nodes >= 20_000:
        level = "hard"
    elif line <= 1 and nodes < 1_000:
        level = "easy"
    else:
        level = "medium"
    steps = "one action" if line <= 1 else f"a line of {line} actions"
    fail = ("no first action falls short" if failing == 0 else
            "one first action falls short" if failing == 1 else
            f"{failing} first actions fall short")
    return f"{level}: {steps}; {fail}"


__all__ = ["answer_words", "difficulty_words", "question_words", "value_words"]
