"""Puzzle themes: short words saying what a puzzle is about (the ``Themes`` header), as
lichess tags its puzzles (``fork``, ``mateIn2``): the question, the kind of answer, and what
the solution's first action (or line) does in the game: the T! card a TWEAK needs and the
Thief's odds, a GRAPH-T grey lead, a TOWAI combo or Twai effect, a Lianxian set or run, an
Alice cover, drink or Caterpillar choice.

:func:`themes` is filled in by ``kifu puzzles generate`` and ``kifu puzzles mine``;
``--theme`` selects by it. Each theme is a token of lower-case letters, digits and ``-``,
``=``, ``/`` (``odds-2/3``), as the puzzle notation requires (``docs/notation.md``).
"""

from __future__ import annotations

from collections.abc import Callable

from kifu.core.game import Game, State
from kifu.puzzles import Question, Solution

_T_CARDS = {"!J": "joker", "!S": "shifter", "!T": "thief", "!B": "bomb"}


def _answer_kind(answer: str) -> list[str]:
    if answer == "forced":
        return ["forced"]
    if answer.startswith("possible p="):
        return ["possible", "odds-" + answer[len("possible p="):]]
    if answer in ("yes", "no", "none"):
        return [answer]
    if answer.startswith("yes turns="):
        return ["yes", "turns-" + answer[len("yes turns="):]]
    if answer.startswith("place "):
        place, shared = answer.split()[1], answer.split()[3]
        return ["first-place" if place == "1" else f"place-{place}"] + (
            ["shared-place"] if shared != "1" else [])
    return []


def _mine(line: list[str], state: State) -> list[str]:
    """The items of ``line`` played by the player to move at ``state``."""
    actor = line[0].split(" ", 1)[0] if line else ""
    return [item.split(" ", 1)[1] for item in line if item.split(" ", 1)[0] == actor]


def _tweak(state: State, question: Question, sol: Solution) -> list[str]:
    out = []
    mine = _mine(sol.line, state)
    for text in mine:
        for token, word in _T_CARDS.items():
            if text.startswith(token) and word not in out:
                out.append(word)
    last = mine[-1] if mine else ""
    if "x" in last:
        out.append("capture")
    if len(mine) > 1 and not out:
        out.append("long-line")
    if any(item.startswith("d steal") for item in sol.line):
        out.append("thief-draw")
    return out


def _graph_t(state: State, question: Question, sol: Solution) -> list[str]:
    out = []
    first = sol.line[0].split(" ", 1)[1] if sol.line else ""
    lead = not state.trick  # type: ignore[attr-defined]
    grey = first.endswith("g") or first == "G"
    if lead:
        out.append("grey-lead" if grey else "lead")
    else:
        out.append("grey-follow" if grey else "follow")
    most = max(state.hand(s).bit_count() for s in range(state.n))  # type: ignore[attr-defined]
    out.append(f"endgame-{most}")
    if getattr(state.variant, "grey_wins", "") == "trump":  # type: ignore[attr-defined]
        out.append("trump")
    return out


def _towai(state: State, question: Question, sol: Solution) -> list[str]:
    from kifu.games.towai.cards import EFFECT, TOKEN

    out = []
    mine = _mine(sol.line, state)
    if mine and mine[0].startswith(("day ", "night ")):
        out.append("lead")
    if any(t.startswith("+") for t in mine):
        out.append("combo")
    for text in mine:
        card = text.rsplit(" ", 1)[-1].lstrip("+")
        for code, name in EFFECT.items():
            if card == TOKEN[code] and name.lower() not in out:
                out.append(name.lower())  # a Twai effect: draw, reset, swap
    return out


def _lianxian(state: State, question: Question, sol: Solution) -> list[str]:
    first = sol.line[0].split(" ", 1)[1] if sol.line else ""
    if "@" not in first:
        return [first.split(" ", 1)[0]] if first else []
    tiles = [item.split("@", 1)[0] for item in first.split(",")]
    out = [f"tiles-{len(tiles)}"]
    if len(tiles) > 1:
        numbers = {t[1:] for t in tiles}
        suits = {t[0] for t in tiles}
        if len(numbers) == 1:
            out.append("set")
        elif len(suits) == 1:
            out.append("run")
        else:
            out.append("mixed-combo")
    return out


def _alice(state: State, question: Question, sol: Solution) -> list[str]:
    first = sol.line[0].split(" ", 1)[1] if sol.line else ""
    if first == "drink":
        return ["drink"]
    if first in ("grow", "stay", "shrink"):
        return ["caterpillar"]
    if "@" in first:
        slot = first.split("@", 1)[1]
        index = {"A1": 0, "N1": 1, "V": 2, "A2": 3, "N2": 4}.get(slot)
        filled = index is not None and bool(state.slots[index])  # type: ignore[attr-defined]
        return ["cover" if filled else "fill"]
    return [first.split(" ", 1)[0]] if first else []


_GAME_THEMES: dict[str, Callable[[State, Question, Solution], list[str]]] = {
    "tweak": _tweak,
    "graph-t": _graph_t,
    "towai": _towai,
    "lianxian": _lianxian,
    "alice": _alice,
}


def themes(game: Game, state: State, question: Question, sol: Solution) -> list[str]:
    """The themes of the puzzle ``question`` at ``state`` with its solution ``sol``: the
    question's name, the kind of answer, ``only-move`` when one first action reaches it,
    and the game's own words for the line."""
    return themes_of(game, state, question, sol.answer, sol.line, sol.winning,
                     len(sol.values))


def themes_of(game: Game, state: State, question: Question, answer: str, line: list[str],
              winning: int, legal: int) -> list[str]:
    """:func:`themes` from a puzzle's parts: its answer, its line, how many first actions
    reach the answer and how many there are."""
    out = [question.name, *_answer_kind(answer)]
    if winning == 1 and legal > 1:
        out.append("only-move")  # exactly one first action reaches the answer
    extra = _GAME_THEMES.get(game.id)
    if extra is not None and line:
        out += extra(state, question, Solution(answer, [], line, 0, 0.0, True, winning))
    seen: list[str] = []
    for t in out:
        if t and t not in seen:
            seen.append(t)
    return seen


__all__ = ["themes", "themes_of"]
