"""Alice worlds: the other hands, the face-down roles and (while they are being chosen) the
other Characters, drawn to agree with what a seat has seen.

Known to ``seat``: everything its view shows (its hand and role, the face-up roles, the
sentence, the Characters once chosen, the discards, the story, every SP), and from
``state.history`` when it starts with the role deal:

- every role that has been face up, even after it turned face down again (ruling 4), and
  where roles went in a swap (ruling 13: the winner takes the loser's face-up role and the
  loser gets the winner's, so a role known before the swap stays known);
- how many nouns, verbs and adjectives each other hand holds: the opening deal is 2/1/2,
  a Clean Phase draw names its deck, and every card that leaves a hand is shown. A ♥Q
  redeal (ruling 16) mixes the pooled hands, so after one a hand's cards are of unknown
  types, except those drawn since (a card played later is counted against the known types
  first, which keeps every consistent hand possible).

The cards nobody sees are those of the set in no visible zone (the decks are the rest).
The sampler fills each hidden hand's typed places from the unseen cards of that type,
then its untyped places from all that is left, each card equally likely, and deals the
roles nobody has seen at random among the seats whose role is unknown. Without a history
from the start, only the face-up roles are known and hands are untyped.
"""

from __future__ import annotations

from collections.abc import Callable

from kifu.core.game import Game, State
from kifu.core.rng import Rng
from kifu.core.worlds import from_start
from kifu.games.alice.actions import Deal
from kifu.games.alice.cards import CODE_TYPE, TOKEN, TOKEN_RE, card_set
from kifu.games.alice.layout import NONE
from kifu.games.alice.state import AliceState

TYPES = 3


class Knowledge:
    """What ``seat`` knows beyond its view: roles and the types of the other hands."""

    def __init__(self, n: int):
        self.roles: list[int | None] = [None] * n
        self.typed: list[list[int]] = [[0] * TYPES for _ in range(n)]
        self.wild: list[int] = [0] * n
        self.tracked = False


def knowledge(state: State, seat: int, game: Game) -> Knowledge:
    """Replay ``state.history`` (when it starts with the role deal) as ``seat`` saw it."""
    n = state.n
    k = Knowledge(n)
    s = from_start(game, state)
    if s is None:
        return k
    deals = 0
    for a in state.history:
        before_roles = s.roles  # type: ignore[attr-defined]
        before = s.hands  # type: ignore[attr-defined]
        s.push(a)
        roles, shown = s.roles, s.shown  # type: ignore[attr-defined]
        if before_roles and roles != before_roles:  # a swap: the known roles move along
            moved = [p for p in range(n) if roles[p] != before_roles[p]]
            if len(moved) == 2:
                a_, b_ = moved
                k.roles[a_], k.roles[b_] = k.roles[b_], k.roles[a_]
        if roles:
            k.roles[seat] = roles[seat]
            for p in range(n):
                if shown >> p & 1:
                    k.roles[p] = roles[p]
        after = s.hands  # type: ignore[attr-defined]
        if isinstance(a, Deal):
            deals += 1
            for p in range(n):
                if deals == 1:
                    k.typed[p] = [sum(1 for c in after[p] if CODE_TYPE[c] == t)
                                  for t in range(TYPES)]
                    k.wild[p] = 0
                else:
                    k.typed[p] = [0] * TYPES
                    k.wild[p] = len(after[p])
            continue
        if after is before:
            continue
        for p in range(n):
            if after[p] == before[p]:
                continue
            old, new = set(before[p]), set(after[p])
            for c in old - new:  # shown as it left (played, discarded, chosen, bought)
                t = CODE_TYPE[c]
                if k.typed[p][t] > 0:
                    k.typed[p][t] -= 1
                elif k.wild[p] > 0:
                    k.wild[p] -= 1
            for c in new - old:  # a draw: its deck is named
                k.typed[p][CODE_TYPE[c]] += 1
    k.tracked = s.key() == state.key()
    return k if k.tracked else Knowledge(n)


def world_sampler(state: State, seat: int, game: Game, *, by_line: bool = False
                  ) -> Callable[[Rng], State]:
    """Work out what ``seat`` knows once; the returned function draws one world per call.

    The first world is read from its position line (with every check of the reader); the
    next ones are copies of it with the drawn hands, hidden Characters and face-down roles
    set and the decks worked out again, as the reader does (issue 33, ninth session: the
    same worlds, field by field; ``by_line=True`` reads every world from its line, the
    reference tests/test_speed9_alice.py compares with)."""
    n = state.n
    fields = state.to_line().split(" ")
    view = state.view(seat).split(" ")
    cs = card_set(state.variant.cards)
    letters = "".join(r.letter for r in cs.roles)
    seen = {TOKEN.index(m.group(0)) for f in view[1:] for m in TOKEN_RE.finditer(f)}
    unseen = [c for c in cs.cards if c not in seen]
    know = knowledge(state, seat, game)
    hands = state.hands  # type: ignore[attr-defined]
    others = [p for p in range(n) if p != seat]
    slots: dict[int, list[int]] = {}  # per seat: the type of each hidden place (-1: any)
    for p in others:
        size = len(hands[p])
        if know.tracked and sum(know.typed[p]) + know.wild[p] == size:
            slots[p] = [t for t in range(TYPES) for _ in range(know.typed[p][t])]
            slots[p] += [-1] * know.wild[p]
        else:
            slots[p] = [-1] * size
    chars = fields[8].split("/")
    vchars = view[8].split("/")
    hidden_chars = [p for p in others if vchars[p] == "?" and chars[p] != "-"]
    role_field = fields[5]
    known = {p: know.roles[p] for p in range(n) if know.roles[p] is not None}
    if role_field != "-":
        for p in range(n):
            if role_field[p].isupper() or p == seat:
                known[p] = letters.index(role_field[p].upper())
    unknown_seats = [p for p in range(n) if p not in known]
    free_roles = [r for r in range(len(letters)) if r not in known.values()]
    first: list[AliceState] = []  # the first world, as read (kept unchanged)
    fixed: set[int] = set()  # the cards outside hands and Characters (the reader's "have")

    def draw(rng: Rng) -> State:
        pool = {t: [c for c in unseen if CODE_TYPE[c] == t] for t in range(TYPES)}
        new_hands: dict[int, list[int]] = {p: [] for p in others}
        new_chars = list(chars)
        char_codes: dict[int, int] = {}
        for p in hidden_chars:  # a Character being chosen is a noun
            c = pool[0].pop(rng.below(len(pool[0])))
            char_codes[p] = c
            new_chars[p] = TOKEN[c]
        for p in others:
            for t in slots[p]:
                if t >= 0:
                    new_hands[p].append(pool[t].pop(rng.below(len(pool[t]))))
        for p in others:
            for t in slots[p]:
                if t < 0:
                    left = pool[0] + pool[1] + pool[2]
                    c = left[rng.below(len(left))]
                    pool[CODE_TYPE[c]].remove(c)
                    new_hands[p].append(c)
        dealt: list[int] | None = None
        if role_field != "-" and unknown_seats:
            dealt = rng.shuffled(free_roles)
        if first and not by_line:
            w = first[0].copy()
            hs = list(w.hands)
            for p in others:
                hs[p] = tuple(sorted(new_hands[p]))
            w.hands = tuple(hs)
            if char_codes:
                cs_ = list(w.chars)
                for p, c in char_codes.items():
                    cs_[p] = c
                w.chars = tuple(cs_)
            if dealt is not None:
                rs = list(w.roles)
                for p, r in zip(unknown_seats, dealt, strict=False):
                    rs[p] = r
                w.roles = tuple(rs)
            have = set(fixed)
            for h in w.hands:
                have.update(h)
            have.update(x for x in w.chars if x != NONE)
            w.deck = tuple(x for x in w._tb.deck_all if x not in have)
            return w
        text = fields[7].split("/")
        for p in others:
            text[p] = "".join(TOKEN[c] for c in sorted(new_hands[p])) or "-"
        out = list(fields)
        out[7] = "/".join(text)
        out[8] = "/".join(new_chars)
        if dealt is not None:
            roles = list(role_field)
            for p, r in zip(unknown_seats, dealt, strict=False):
                roles[p] = letters[r].lower()
            out[5] = "".join(roles)
        w = game.from_line(" ".join(out))
        if not first:
            assert isinstance(w, AliceState)
            first.append(w.copy())
            for i, pile in enumerate(w.slots):
                fixed.update(pile[1:] if i == 1 else pile)
            fixed.update(w.discard)
            fixed.update(w.story)
        return w

    return draw


__all__ = ["Knowledge", "knowledge", "world_sampler"]
