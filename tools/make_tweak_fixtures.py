"""Regenerate the TWEAK fixture records: ``fixtures/tweak/*.kifu`` (legal games) and
``fixtures/tweak/invalid/*.kifu`` + ``.err`` (single corruptions of those games).

Run from the repository root::

    .venv/bin/python tools/make_tweak_fixtures.py          # write every fixture
    .venv/bin/python tools/make_tweak_fixtures.py --check  # fail if a file would change

Every legal fixture is a bot game (``kifu.bots.play_actions``) under a fixed variant and
bot line-up; the script tries seeds 1, 2, ... until the game shows the situation the
fixture is about (detected by replaying the actions and inspecting each state), so the
output is deterministic and byte-stable. The first occurrence of each such situation gets
a move comment, and the record comment says what the fixture covers.

Every invalid fixture is one realistic corruption of a legal fixture; its ``.err`` is
``str(error)`` of what ``read_records`` + ``replay`` raise on it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kifu import games
from kifu.core.errors import KifuError
from kifu.games.tweak import TweakVariant
from kifu.games.tweak.actions import (
    Capture,
    Deal,
    Pass,
    Place,
    Steal,
    UseBomb,
    UseJoker,
    UseShifter,
    UseThief,
)
from kifu.games.tweak.cards import BOMB, JOKER, SHIFTER, THIEF, TOKEN, cards_text
from kifu.games.tweak.state import BOMB_PHASE, DEAL, OVER, TURN, TweakState
from kifu.notation.reader import read_records
from kifu.notation.record import Move, Record, format_record
from kifu.notation.replay import record_from_actions, replay
from kifu.bots import play_actions

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "fixtures" / "tweak"
INVALID = OUT / "invalid"
DATE = "2026.11.22"
MAX_SEED = 5000
GAME = games.get("tweak")


# --- what happened in a game ----------------------------------------------------------------


@dataclass
class Step:
    """One ply of a game: who acted, the action, the state before it (as a copy), and the
    situations it shows (tags), each with a note for a move comment."""

    ply: int
    actor: int
    action: object
    before: TweakState
    notes: dict[str, str] = field(default_factory=dict)


@dataclass
class Trace:
    steps: list[Step]
    tags: set[str]
    final: TweakState

    def first(self, tag: str) -> Step | None:
        return next((s for s in self.steps if tag in s.notes), None)


def trace(n: int, variant: TweakVariant, actions: list) -> Trace:
    """Replay ``actions`` and tag the situations each ply shows."""
    state = GAME.new_state(n, variant)
    steps: list[Step] = []
    tags: set[str] = {f"{n}p"}
    for i, a in enumerate(actions):
        before = state.copy()
        actor = state.to_move
        step = Step(i, actor, a, before)
        notes = step.notes
        t = type(a)
        deck_before = before.deck_left()
        state.push(a)
        if t is Capture:
            if a.taken and len(a.taken) == len(before.table):
                if before.tpile_left():
                    won = TOKEN[before.tpile_left()[0]]
                    notes["tweak"] = f"TWEAK: the whole table is taken and p{actor} wins {won}"
                else:
                    notes["tweak-no-t"] = "TWEAK, but the T! pile is empty: no T! card"
                if state.phase == TURN and state.deck_left() and len(state.table) == 2:
                    notes["table-refill"] = (
                        f"the table was empty: 2 cards dealt to it ({cards_text(state.table)})"
                    )
            if not a.taken:
                notes["empty-capture"] = "empty capture: the hand card alone makes the target"
            if before.jdelta:
                key = "joker+capture" if before.jdelta > 0 else "joker-capture"
                notes[key] = f"a capture for {before.target + before.jdelta} with the Joker"
            if not deck_before:
                notes["target7-capture"] = "the deck is gone: the target is 7"
        elif t is UseJoker:
            sign = "+1" if a.delta > 0 else "-1"
            notes["joker+" if a.delta > 0 else "joker-"] = (
                f"Joker {sign}: target {before.target} becomes {before.target + a.delta}"
            )
        elif t is UseShifter:
            notes["shifter"] = (
                f"Shifter: {TOKEN[deck_before[0]]} goes from the deck to the table; "
                f"target {before.target} becomes {state.target}"
            )
            if state.target != before.target:
                notes["shifter-retarget"] = ""
        elif t is UseThief:
            notes["thief"] = f"Thief on p{a.victim}: the dealer draws one of their cards"
        elif t is Steal:
            notes["steal"] = f"the dealer draws {TOKEN[a.card]} from p{before.victim}'s hand"
        elif t is UseBomb:
            if state.phase == BOMB_PHASE:
                q = state.queue
                notes["bomb-victims"] = "Bomb: " + ", ".join(f"p{s}" for s in q) + (
                    " each put a card on the table, in turn order"
                )
                if len(q) >= 3:
                    notes["bomb-3-victims"] = ""
            else:
                notes["bomb-no-victim"] = "Bomb: no opponent holds a card; the Bomb is spent"
        elif t is Place and before.phase == BOMB_PHASE:
            notes["bomb-victim-place"] = f"p{actor} chooses {TOKEN[a.card]} for the Bomb"
        elif t is Pass:
            notes["pass"] = f"p{actor} has no cards: the turn is lost, then p{actor} refills"
        elif t is Deal:
            if before.round >= 1:
                notes["next-round"] = f"round {state.round}: p{state.dealer} deals"
            if not state.deck_left():
                notes["short-deal"] = "the deal uses every card: no deck, target 7"
        if before.phase == TURN and deck_before and not state.deck_left():
            notes["exhausted"] = "the deck is exhausted: the target is 7 from now on"
        if before.phase == TURN and state.phase == TURN and not state.deck_left() and (
            state.mover != before.mover and state.mover != (before.mover + 1) % n
            and t in (Place, Capture, Pass)
        ):
            notes["skip"] = "the deck is gone: players with empty hands are skipped"
        if before.phase in (TURN, BOMB_PHASE) and state.phase in (DEAL, OVER):
            totals = ",".join(str(x) for x in state.totals)
            left = cards_text(state.table)
            notes["round-end"] = f"round {state.round} ends; totals {totals}" + (
                f"; {left} left on the table score for nobody" if state.table else ""
            )
            if state.table:
                notes["leftovers"] = notes["round-end"]
        steps.append(step)
        tags.update(notes)
    res = state.result()
    if res is not None:
        if len(set(res.ranks)) < n:
            tags.add("tie")
        tags.add(f"rounds{state.round}")
        if state.round >= 2:
            tags.add("multi-round")
    return Trace(steps, tags, state)


# --- the legal fixtures ---------------------------------------------------------------------


@dataclass
class Spec:
    name: str
    bots: list[str]
    variant: TweakVariant
    need: set[str]
    covers: str
    comment_tags: tuple[str, ...] = ()
    """Tags whose first occurrence gets a move comment (``round-end``: every occurrence)."""
    first_seed: int = 1


R1 = TweakVariant(rounds=1)
SPECS = [
    Spec("single-round-2p", ["greedy", "greedy"], R1, {"exhausted", "leftovers"},
         "2 players, red+orange+yellow+green (36 cards), one round (rounds=1); table "
         "leftovers at the end score for nobody", ("exhausted", "round-end")),
    Spec("single-round-3p", ["greedy", "random", "greedy"], R1, {"exhausted"},
         "3 players, red+orange+yellow+green (36 cards), one round", ("exhausted", "round-end")),
    Spec("single-round-4p", ["greedy"] * 4, R1, {"exhausted"},
         "4 players, five colours with blue (45 cards), one round", ("exhausted", "round-end")),
    Spec("single-round-5p", ["greedy"] * 5, R1, {"exhausted"},
         "5 players, all six colours (54 cards), one round", ("exhausted", "round-end")),
    Spec("single-round-6p", ["greedy"] * 6, R1, {"exhausted"},
         "6 players, all six colours (54 cards), one round", ("exhausted", "round-end")),
    Spec("threshold-2p-full-game", ["greedy", "greedy"], TweakVariant(), {"multi-round"},
         "default rules, 2 players: rounds until a total reaches 140; each new round is dealt "
         "by the seat before the last dealer", ("next-round", "round-end")),
    Spec("threshold-3p-full-game", ["greedy", "random", "greedy"], TweakVariant(),
         {"multi-round"},
         "default rules, 3 players: rounds until a total reaches 120",
         ("next-round", "round-end")),
    Spec("threshold-6p-full-game", ["greedy"] * 6, TweakVariant(), {"multi-round"},
         "default rules, 6 players: rounds until a total reaches 60",
         ("next-round", "round-end")),
    Spec("thief-steal-3p", ["random", "greedy", "greedy"], R1, {"thief", "steal"},
         "the Thief: the user names a victim, the dealer draws a random card of that hand "
         "(steal) and it goes face up to the table", ("thief", "steal")),
    Spec("joker-plus-2p", ["greedy", "greedy"], R1, {"joker+capture"},
         "the Joker at +1, making a capture for target+1 that was not there otherwise",
         ("joker+", "joker+capture")),
    Spec("joker-minus-2p", ["greedy", "greedy"], R1, {"joker-capture"},
         "the Joker at -1, making a capture for target-1", ("joker-", "joker-capture")),
    Spec("shifter-2p", ["greedy", "greedy"], R1, {"shifter-retarget"},
         "the Shifter: the deck's top card goes to the table and the next back is the target",
         ("shifter",)),
    Spec("bomb-4p", ["random", "greedy", "random", "greedy"], R1,
         {"bomb-victims", "bomb-3-victims"},
         "the Bomb: every other player holding cards chooses one and puts it on the table, "
         "in turn order from the bomber's next seat", ("bomb-victims", "bomb-victim-place")),
    Spec("tweak-wins-t-card-2p", ["greedy", "greedy"], R1, {"tweak", "table-refill"},
         "a TWEAK: a capture of the whole table wins the top T! card; the empty table then "
         "gets 2 cards from the deck after the hand refill", ("tweak", "table-refill")),
    Spec("tweak-empty-t-pile-2p", ["greedy", "greedy"], TweakVariant(t_cards="J", rounds=1),
         {"tweak", "tweak-no-t"},
         "variant t_cards=J (a one-card T! pile): the first TWEAK wins the Joker, a later "
         "TWEAK wins nothing", ("tweak", "tweak-no-t")),
    Spec("pass-empty-hand-5p", ["random"] * 5,
         TweakVariant(t_cards="TTTTTTTTTBBBBBBBBBB", rounds=1), {"pass"},
         "variant t_cards=TTTTTTTTTBBBBBBBBBB (9 Thieves, 10 Bombs): a player who lost all "
         "three cards to T! cards loses the turn (pass) and refills to 3",
         ("pass", "thief", "bomb-victims")),
    Spec("deck-exhausted-target7-3p", ["random", "greedy", "greedy"], R1,
         {"exhausted", "target7-capture", "skip"},
         "deck exhaustion: the target is 7 from then on, no more refills, empty hands are "
         "skipped until every hand is played out", ("exhausted", "target7-capture", "skip",
                                                     "round-end")),
    Spec("table-leftovers-3p", ["greedy", "greedy", "greedy"], R1, {"leftovers"},
         "the round ends with cards on the table: they score for nobody", ("round-end",)),
    Spec("empty-capture-2p", ["greedy", "greedy"], TweakVariant(empty_capture=True, rounds=1),
         {"empty-capture"},
         "variant empty_capture=true: a hand card whose face is the target is a capture alone",
         ("empty-capture",)),
    Spec("colours-all-2p", ["greedy", "greedy"], TweakVariant(colours="ROYGBP", rounds=1),
         {"exhausted"},
         "variant colours=ROYGBP: all six colours (54 cards) with only 2 players",
         ("exhausted", "round-end")),
    Spec("colours-red-only-6p", ["greedy"] * 6,
         TweakVariant(colours="R", t_cards="", rounds=1), {"short-deal"},
         "variant colours=R, t_cards= (9 red cards, no T! cards) with 6 players: the deal "
         "runs out before every hand has 3 cards; no deck, no table, target 7",
         ("short-deal", "round-end")),
    Spec("t-cards-two-bombs-4p", ["random", "random", "greedy", "greedy"],
         TweakVariant(t_cards="TJSBB", rounds=1), {"bomb-victims", "tweak"},
         "variant t_cards=TJSBB (a 5-card T! pile with two Bombs)",
         ("tweak", "bomb-victims")),
    Spec("custom-backs-2p", ["greedy", "greedy"],
         TweakVariant(rounds=1, backs=tuple(7 + (i * 5) % 4 for i in range(36))),
         {"exhausted"},
         "variant backs=...: another table of back values (the targets), one per card code",
         ("exhausted",)),
    Spec("threshold-30-4p", ["greedy", "greedy", "random", "random"],
         TweakVariant(threshold=30), {"multi-round"},
         "variant threshold=30: several rounds until a total reaches 30",
         ("next-round", "round-end")),
    Spec("shared-rank-2p", ["greedy", "greedy"], R1, {"tie"},
         "equal totals share the rank: the Result names both scores, and both rank first",
         ("round-end",)),
]


def players_header(bots: list[str]) -> list[str]:
    return [f"{b}-{i}" for i, b in enumerate(bots)]


def find_game(spec: Spec, used: set) -> tuple[int, list, Trace]:
    """The first seed whose game shows ``spec.need`` and is not already a fixture."""
    n = len(spec.bots)
    for seed in range(spec.first_seed, MAX_SEED):
        game_id = (tuple(spec.bots), spec.variant, seed)
        if game_id in used:
            continue
        actions = play_actions(GAME, spec.bots, seed, spec.variant)
        tr = trace(n, spec.variant, actions)
        if spec.need <= tr.tags:
            used.add(game_id)
            return seed, actions, tr
    raise SystemExit(f"{spec.name}: no seed below {MAX_SEED} shows {sorted(spec.need)}")


def build_record(spec: Spec, seed: int, actions: list, tr: Trace) -> Record:
    record = record_from_actions(
        GAME, players_header(spec.bots), actions, variant=spec.variant,
        headers={"Date": DATE, "Seed": str(seed)},
    )
    record.headers["Date"] = DATE
    record.comment = f"fixture {spec.name}: {spec.covers}"
    moves = list(record.moves)
    done: set[str] = set()
    for step in tr.steps:
        texts = []
        for tag in spec.comment_tags:
            note = step.notes.get(tag)
            if note and (tag == "round-end" or tag not in done):
                done.add(tag)
                texts.append(note)
        if texts:
            moves[step.ply] = Move(moves[step.ply].actor, moves[step.ply].text,
                                   "; ".join(dict.fromkeys(texts)))
    record.moves = moves
    return record


# --- the invalid fixtures -------------------------------------------------------------------


@dataclass
class Bad:
    name: str
    base: str
    """The legal fixture it corrupts."""
    what: str
    """The corruption (the record comment and the README line)."""
    corrupt: Callable[[Record, Trace], Record]
    edit_text: Callable[[str], str] | None = None
    """A corruption of the text itself (syntax errors), after formatting."""


def _find(tr: Trace, pred: Callable[[Step], bool]) -> Step:
    for s in tr.steps:
        if pred(s):
            return s
    raise LookupError("no ply fits the corruption")


def _with_moves(record: Record, moves: list[Move]) -> Record:
    return Record(dict(record.headers), moves)


def _replace_move(record: Record, ply: int, actor: str | None = None,
                  text: str | None = None) -> Record:
    moves = list(record.moves)
    m = moves[ply]
    moves[ply] = Move(actor or m.actor, text or m.text)
    return _with_moves(record, moves)


def _insert_move(record: Record, ply: int, actor: int, text: str) -> Record:
    moves = list(record.moves)
    moves.insert(ply, Move(f"p{actor}", text))
    return _with_moves(record, moves)


def _is_turn_capture(s: Step) -> bool:
    return type(s.action) is Capture and s.before.phase == TURN


def _is_turn_place(s: Step) -> bool:
    return type(s.action) is Place and s.before.phase == TURN


def bad_capture_sum(record: Record, tr: Trace) -> Record:
    s = _find(tr, lambda s: _is_turn_capture(s) and len(s.action.taken) >= 2)
    a = s.action
    return _replace_move(record, s.ply, text=TOKEN[a.card] + "x" + cards_text(a.taken[1:]))


def bad_capture_not_on_table(record: Record, tr: Trace) -> Record:
    s = _find(tr, lambda s: _is_turn_capture(s) and len(s.action.taken) == 1)
    a = s.action
    face = a.taken[0] % 6
    other = next(
        colour * 6 + face for colour in range(6) if colour * 6 + face not in s.before.table
    )
    return _replace_move(record, s.ply, text=TOKEN[a.card] + "x" + TOKEN[other])


def bad_card_not_in_hand(record: Record, tr: Trace) -> Record:
    s = _find(tr, lambda s: _is_turn_place(s) and bool(s.before.table))
    hand = s.before.hands[s.actor]
    other = next(c for c in s.before.table if c not in hand)
    return _replace_move(record, s.ply, text=TOKEN[other])


def bad_wrong_actor(record: Record, tr: Trace) -> Record:
    s = _find(tr, lambda s: s.ply > 10 and _is_turn_place(s))
    return _replace_move(record, s.ply, actor=f"p{(s.actor + 1) % s.before.n}")


def bad_two_t_cards(record: Record, tr: Trace) -> Record:
    def others(s: Step) -> list[int]:
        left = list(s.before.held[s.actor])
        left.remove(JOKER if type(s.action) is UseJoker else SHIFTER)
        return left

    s = _find(tr, lambda s: type(s.action) in (UseJoker, UseShifter) and bool(others(s)))
    second = others(s)[0]
    opponent = (s.actor + 1) % s.before.n
    text = {THIEF: f"!T p{opponent}", JOKER: "!J+", SHIFTER: "!S", BOMB: "!B"}[second]
    return _insert_move(record, s.ply + 1, s.actor, text)


def bad_shifter_empty_deck(record: Record, tr: Trace) -> Record:
    def fits(s: Step) -> bool:
        b = s.before
        return (b.phase == TURN and not b.tused and not b.deck_left()
                and SHIFTER in b.held[s.actor] and bool(b.hands[s.actor]))

    s = _find(tr, fits)
    return _insert_move(record, s.ply, s.actor, "!S")


def bad_thief_empty_hand(record: Record, tr: Trace) -> Record:
    def fits(s: Step) -> bool:
        b = s.before
        return (b.phase == TURN and not b.tused and THIEF in b.held[s.actor]
                and bool(b.hands[s.actor])
                and any(not b.hands[v] for v in range(b.n) if v != s.actor))

    s = _find(tr, fits)
    b = s.before
    victim = next(v for v in range(b.n) if v != s.actor and not b.hands[v])
    return _insert_move(record, s.ply, s.actor, f"!T p{victim}")


def bad_pass_holding_cards(record: Record, tr: Trace) -> Record:
    s = _find(tr, lambda s: s.ply > 5 and _is_turn_place(s))
    return _replace_move(record, s.ply, text="pass")


def bad_deal_duplicate(record: Record, tr: Trace) -> Record:
    s = _find(tr, lambda s: type(s.action) is Deal)
    deck = list(s.action.deck)
    deck[1] = deck[0]
    return _replace_move(record, s.ply,
                         text=f"deal {cards_text(deck)} {cards_text(s.action.tpile)}")


def bad_malformed_token(record: Record, tr: Trace) -> Record:
    s = _find(tr, lambda s: _is_turn_capture(s) and len(s.action.taken) >= 2)
    a = s.action
    taken = [TOKEN[c] for c in a.taken]
    taken[1] = taken[1][0] + "7"
    return _replace_move(record, s.ply, text=TOKEN[a.card] + "x" + "".join(taken))


def bad_steal_not_in_hand(record: Record, tr: Trace) -> Record:
    s = _find(tr, lambda s: type(s.action) is Steal)
    hand = s.before.hands[s.before.victim]
    other = next(c for c in s.before.table if c not in hand)
    return _replace_move(record, s.ply, text=f"steal {TOKEN[other]}")


def bad_bomb_order(record: Record, tr: Trace) -> Record:
    s = _find(tr, lambda s: "bomb-3-victims" in s.notes)
    moves = list(record.moves)
    moves[s.ply + 1], moves[s.ply + 2] = moves[s.ply + 2], moves[s.ply + 1]
    return _with_moves(record, moves)


def bad_header(tag: str, value: Callable[[str], str]) -> Callable[[Record, Trace], Record]:
    def corrupt(record: Record, tr: Trace) -> Record:
        rec = _with_moves(record, list(record.moves))
        rec.headers[tag] = value(rec.headers[tag])
        return rec

    return corrupt


def drop_header(tag: str) -> Callable[[Record, Trace], Record]:
    def corrupt(record: Record, tr: Trace) -> Record:
        rec = _with_moves(record, list(record.moves))
        del rec.headers[tag]
        return rec

    return corrupt


def bad_after_end(record: Record, tr: Trace) -> Record:
    return _with_moves(record, [*record.moves, record.moves[-1]])


def bad_truncated(record: Record, tr: Trace) -> Record:
    return _with_moves(record, record.moves[:-1])


def same(record: Record, tr: Trace) -> Record:
    return _with_moves(record, list(record.moves))


def without_move_comments(record: Record, tr: Trace) -> Record:
    return _with_moves(record, [Move(m.actor, m.text) for m in record.moves])


def unclose_comment(text: str) -> str:
    lines = text.split("\n")
    i = next(k for k, line in enumerate(lines) if k > 12 and line.startswith("p"))
    lines[i] += " {the best capture here"
    return "\n".join(lines)


def unclose_record_comment(text: str) -> str:
    return text.replace("}\n", "\n", 1)


def unquote_date(text: str) -> str:
    return text.replace(f'[Date "{DATE}"]', f"[Date {DATE}]", 1)


BADS = [
    Bad("capture-sum-wrong", "single-round-2p",
        "a capture missing one of its table cards, so the faces do not reach the target",
        bad_capture_sum),
    Bad("capture-card-not-on-table", "single-round-3p",
        "a capture naming a card of the right face but a colour that is not on the table",
        bad_capture_not_on_table),
    Bad("place-card-not-in-hand", "single-round-2p",
        "a player places a card that is on the table, not in their hand", bad_card_not_in_hand),
    Bad("wrong-actor", "single-round-4p",
        "a turn credited to the next player (not their turn)", bad_wrong_actor),
    Bad("two-t-cards-one-turn", "joker-minus-2p",
        "a second T! card used in the same turn", bad_two_t_cards),
    Bad("shifter-empty-deck", "tweak-wins-t-card-2p",
        "the Shifter used once the deck is empty", bad_shifter_empty_deck),
    Bad("thief-empty-hand", "thief-steal-3p",
        "the Thief used on a player who holds no cards", bad_thief_empty_hand),
    Bad("pass-holding-cards", "single-round-3p",
        "pass written for a player who holds cards", bad_pass_holding_cards),
    Bad("deal-not-permutation", "single-round-2p",
        "a deal naming one card twice and leaving another out", bad_deal_duplicate),
    Bad("malformed-card-token", "single-round-2p",
        "a card token with face 7 inside a capture (a notation error with its column)",
        bad_malformed_token),
    Bad("steal-card-not-in-hand", "thief-steal-3p",
        "the Thief's draw names a card the victim does not hold", bad_steal_not_in_hand),
    Bad("bomb-victims-out-of-order", "bomb-4p",
        "the Bomb's second victim answers before the first", bad_bomb_order),
    Bad("missing-game-header", "single-round-2p", "the Game tag left out",
        drop_header("Game")),
    Bad("rules-unknown-version", "single-round-2p", "a Rules tag naming rules version 2",
        bad_header("Rules", lambda v: v.replace("tweak/1", "tweak/2"))),
    Bad("bad-rules-field", "single-round-2p", "a misspelt variant field in the Rules tag",
        bad_header("Rules", lambda v: v.replace("rounds=", "round="))),
    Bad("bad-rules-colours", "single-round-2p", "a colours variant without red",
        bad_header("Rules", lambda v: "tweak/1;colours=OYGB;rounds=1")),
    Bad("too-many-players", "single-round-6p", "seven names in the Players tag",
        bad_header("Players", lambda v: v + ", greedy-6")),
    Bad("header-syntax", "single-round-2p", "a header whose value is not quoted", same,
        unquote_date),
    Bad("wrong-result", "single-round-3p", "the Result tag with the scores in seat order "
        "reversed", bad_header("Result", lambda v: " ".join(reversed(v.split())))),
    Bad("truncated-result", "single-round-2p",
        "the last action lost, but the Result still gives final scores", bad_truncated),
    Bad("action-after-game-over", "single-round-2p",
        "an action written after the game is over", bad_after_end),
    Bad("unclosed-comment", "single-round-2p", "a move comment that is never closed", same,
        unclose_comment),
    Bad("unclosed-record-comment", "single-round-3p",
        "the record comment's closing brace left out (in a record without move comments)",
        without_move_comments, unclose_record_comment),
]


def error_of(text: str, path: str) -> str:
    """``str()`` of the error that reading and replaying ``text`` raises."""
    try:
        for loc in read_records(text, path=path):
            replay(loc)
    except KifuError as e:
        return str(e)
    raise SystemExit(f"{path}: replays without an error")


def readme(rows: list[tuple[str, str, str]], bad_rows: list[tuple[str, str, str]]) -> str:
    out = [
        "# TWEAK fixtures",
        "",
        "Generated by `tools/make_tweak_fixtures.py` (do not edit by hand: change the script",
        "and run `.venv/bin/python tools/make_tweak_fixtures.py`). Each legal record is a bot",
        "game from a seed, chosen as the first seed that shows the situation; its record",
        "comment says what it covers and move comments mark the moments. Each invalid record",
        "is one corruption of a legal one; its `.err` holds the exact error.",
        "",
        "| file | rules | covers |",
        "|---|---|---|",
    ]
    out += [f"| `{f}` | `{r}` | {c} |" for f, r, c in rows]
    out += ["", "## invalid/", "", "| file | corrupts | corruption |", "|---|---|---|"]
    out += [f"| `{f}` | `{b}` | {c} |" for f, b, c in bad_rows]
    return "\n".join(out) + "\n"


# --- main -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="fail if a file would change")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    files: dict[Path, str] = {}
    records: dict[str, Record] = {}
    traces: dict[str, Trace] = {}
    rows = []
    used: set = set()
    for spec in SPECS:
        seed, actions, tr = find_game(spec, used)
        rec = build_record(spec, seed, actions, tr)
        records[spec.name] = rec
        traces[spec.name] = tr
        files[OUT / f"{spec.name}.kifu"] = format_record(rec)
        rows.append((f"{spec.name}.kifu", GAME.rules_spec(spec.variant), spec.covers))
        if args.verbose:
            print(f"{spec.name}: seed {seed}, {len(actions)} plies, "
                  f"{tr.final.round} round(s)", file=sys.stderr)
    bad_rows = []
    for bad in BADS:
        try:
            rec = bad.corrupt(records[bad.base], traces[bad.base])
        except LookupError as e:
            raise SystemExit(f"{bad.name}: {e} in {bad.base}") from None
        rec.comment = f"invalid: {bad.what} (from {bad.base}.kifu)"
        text = format_record(rec)
        if bad.edit_text:
            text = bad.edit_text(text)
        rel = f"fixtures/tweak/invalid/{bad.name}.kifu"
        files[INVALID / f"{bad.name}.kifu"] = text
        files[INVALID / f"{bad.name}.err"] = error_of(text, rel) + "\n"
        bad_rows.append((f"invalid/{bad.name}.kifu", f"{bad.base}.kifu", bad.what))
    files[OUT / "README.md"] = readme(rows, bad_rows)
    changed = [p for p, t in files.items() if not p.exists() or p.read_text("utf-8") != t]
    if args.check:
        for p in changed:
            print(f"would change: {p.relative_to(ROOT)}", file=sys.stderr)
        return 1 if changed else 0
    INVALID.mkdir(parents=True, exist_ok=True)
    for p in changed:
        p.write_text(files[p], encoding="utf-8")
    print(f"{len(files)} files, {len(changed)} written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
