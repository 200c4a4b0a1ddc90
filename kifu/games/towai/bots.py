"""TOWAI bots.

``greedy`` reads only its own hand and the public field. The oracle bot ``out``, which asks
the puzzle solver for a sure way out, lives one layer up (``kifu.bots.towai``);
:func:`out_line` here is the same search written out over the engine alone, kept as a
cross-check.
"""

from __future__ import annotations

from kifu.core.game import Action, Bot, State
from kifu.games.towai.actions import GIVES, LEADS, PASS, PLAYS, STOP, Pass, Play, Rebuild, Stop
from kifu.games.towai.cards import DAY, NIGHT, NUM, RESET, TWAI, TYPE, count_of, kinds
from kifu.games.towai.state import (
    CHAIN,
    LEAD,
    PLAY,
    REBUILD,
    SWAP_PHASE,
    TowaiState,
)


def number_counts(hand: int) -> list[int]:
    """How many non-Twai cards of each number (0..7) a hand zone holds."""
    counts = [0] * 8
    for c in range(10):
        counts[NUM[c]] += count_of(hand, c)
    return counts


_PLAIN_NIBBLES = (1 << 40) - 1
"""The count int's nibbles of the ten Day and Night kinds (codes 0-9), all that
:func:`number_counts` reads."""
_NUMBER_COUNTS: dict[int, tuple[int, ...]] = {}
_NUMBER_COUNTS_MAX = 1 << 16


def _number_counts(hand: int) -> tuple[int, ...]:
    """:func:`number_counts` as a tuple, memoised by the hand's Day and Night nibbles (the
    rollouts' hot path; bounded: cleared past ``_NUMBER_COUNTS_MAX``)."""
    key = hand & _PLAIN_NIBBLES
    got = _NUMBER_COUNTS.get(key)
    if got is None:
        if len(_NUMBER_COUNTS) >= _NUMBER_COUNTS_MAX:
            _NUMBER_COUNTS.clear()
        got = _NUMBER_COUNTS[key] = tuple(number_counts(key))
    return got


class GreedyBot(Bot):
    """Sheds the numbers it holds most often and keeps its Twai cards for flips.

    - Lead: a Day or Night card of its most-held number, on the side that card fits; with
      only Twai cards, a Twai of its most-held number (a Reset first).
    - Follow: the Day or Night card of its most-held number (ties: the one that leaves the
      most room: the lowest by Day, the highest by Night); a Twai only when nothing else
      fits (a Reset first); otherwise pass.
    - Combo: every Day or Night card of the number; a Twai only if it is the last card or
      the flip lets a held card of the number follow; then stop.
    - Swap: gives a Day or Night card of its least-held number (a Twai only if it holds
      nothing else).

    Deterministic: ties go to the lower card code.
    """

    name = "greedy"

    def choose(self, state: State) -> Action:
        assert isinstance(state, TowaiState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return greedy_choice(state, legal)


def greedy_choice(state: TowaiState, legal: list[Action]) -> Action:
    seat = state.turn
    hand = state.hand(seat)  # type: ignore[arg-type]
    counts = _number_counts(hand)
    phase = state.phase
    if phase == SWAP_PHASE:
        plain = [a.card for a in legal if TYPE[a.card] != TWAI]  # type: ignore[attr-defined]
        if plain:
            return GIVES[min(plain, key=lambda c: (counts[NUM[c]], -c))]
        return legal[0]
    if phase == LEAD:
        held = kinds(state.held(seat))  # type: ignore[arg-type]
        plain = [c for c in held if TYPE[c] != TWAI]
        if plain:
            c = max(plain, key=lambda c: (counts[NUM[c]], -c))
            lead = LEADS[TYPE[c]][c]
        else:
            c = RESET if RESET in held else held[0]
            # the Twai flips the side: choose the side whose flip suits the hand less
            lead = LEADS[0][c]
        return lead if lead in legal else legal[0]
    cards = [a.card for a in legal if type(a) is Play]  # type: ignore[attr-defined]
    plain = [c for c in cards if TYPE[c] != TWAI]
    if phase == PLAY:
        if plain:
            if state.side == DAY:
                return PLAYS[max(plain, key=lambda c: (counts[NUM[c]], -NUM[c], -c))]
            return PLAYS[max(plain, key=lambda c: (counts[NUM[c]], NUM[c], -c))]
        if cards:
            return PLAYS[RESET if RESET in cards else cards[0]]
        return PASS
    # CHAIN
    if plain:
        return PLAYS[plain[0]]
    size = state.hand_size(seat)  # type: ignore[arg-type]
    flipped = 1 - state.side
    for c in cards:
        if size == 1:
            return PLAYS[c]
        for d in range(10):
            if NUM[d] == NUM[c] and TYPE[d] == (NIGHT if flipped else DAY) and count_of(hand, d):
                return PLAYS[c]
    return STOP


class TacticsPolicy(GreedyBot):
    """A rollout policy, not a bot: ``greedy`` that also sheds its Twai cards in combos.

    ``greedy`` ends a combo rather than play a Twai of the number, unless the Twai is its
    last card or the flip lets a held card of the number follow: it keeps its Twai cards for
    flips. Played against three ``greedy``, that keeping costs it: this policy, which
    continues every combo with a Twai of the number whenever ``greedy`` would stop (the
    lowest card code when more than one fits), scores about 0.55 against them (docs/bots.md,
    *Fifth session: TOWAI rollouts*). ``expert``'s departures from ``greedy`` are often
    such combos, which ``greedy`` rollouts never play; yet as ``expert``'s rollout policy
    (``expert:rollout=tactics``, off by default) it gained nothing that fresh deals
    confirmed (+0.009 [-0.015, +0.039] against ``greedy`` over 120 deals).

    With ``out_cards`` > 0 (the subclass :class:`FinishPolicy`), a mover holding at most
    that many cards first looks for a line that goes out this turn (:func:`out_line`, at
    most ``out_nodes`` nodes) and plays its first action. That search reads the deck and the
    other hands (a Draw's cards, the Swaps' gifts), which is fair inside a sampled world
    (its hands are that world's truth) but not for a player: neither policy is offered as
    one (``Towai.bots`` does not list them), though this one without the search reads only
    the mover's own hand.

    Deterministic: every other choice is ``greedy``'s.
    """

    name = "tactics"
    out_cards = 0
    out_nodes = 300

    def choose(self, state: State) -> Action:
        assert isinstance(state, TowaiState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return tactics_choice(state, legal, self.out_cards, self.out_nodes)


class FinishPolicy(TacticsPolicy):
    """:class:`TacticsPolicy` that first looks for a way out this turn with at most three
    cards in hand (a rollout policy: the search reads the world)."""

    name = "finish"
    out_cards = 3


def tactics_choice(state: TowaiState, legal: list[Action], out_cards: int = 0,
                   out_nodes: int = 300) -> Action:
    """:class:`TacticsPolicy`'s choice among ``legal`` (more than one action)."""
    if out_cards and state.phase in (LEAD, PLAY, CHAIN) and \
            state.hand_size(state.turn) <= out_cards:  # type: ignore[arg-type]
        line = out_line(state, out_nodes)
        if line:
            return line[0]
    pick = greedy_choice(state, legal)
    if type(pick) is Stop:
        for a in legal:
            if type(a) is Play:
                return a  # only a Twai of the number is left to continue with
    return pick


class ShedPolicy(TacticsPolicy):
    """A rollout policy (and the sixth session's root rule, ``expert:default=shed``):
    :class:`TacticsPolicy` that leads and follows with the card that sheds the most cards
    this turn.

    At a lead or a follow with more than one card to play, each candidate is played on with
    the mover's own combo (``tactics``' choices, :func:`turn_shed`) until the turn ends,
    another seat or the dealer is to move, or a Swap starts; the one that empties the most
    of the mover's hand is played (a candidate that wins the round at once first; ties:
    ``tactics``' own choice, then legal order). ``greedy`` leads its most-held number on
    the side of the card it leads, so with a Day and two Night cards of a number it leads
    the Day one by Day and cannot go on with the Nights; led by Night the three go at
    once. It never passes where ``tactics`` plays. What it reads is the mover's hand and
    the public field (the combo it plays out moves no card it cannot see: a Draw moves the
    others', and the play-out stops at a rebuild or a Swap), so it is fair and gives the
    same answer in every world the seat allows. As a player against three ``greedy``
    (2,000 seeded deals x 4 seats) it scores 0.585 [0.578, 0.592], +0.008 [+0.002,
    +0.015] over ``tactics`` (docs/bots.md, *Sixth session: TOWAI*). Not offered as a
    player (``Towai.bots`` does not list it)."""

    name = "shed"

    def choose(self, state: State) -> Action:
        assert isinstance(state, TowaiState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return shed_choice(state, legal)


def turn_shed(state: TowaiState, action: Action) -> int:
    """How many cards the mover sheds this turn by ``action`` followed by its own combo as
    :class:`TacticsPolicy` plays it (stopping where the turn ends, another seat or the
    dealer is to move, or a Swap starts); 99 when the round ends (the mover went out).
    ``state`` is left as it was."""
    seat = state.turn
    before = state.hand_size(seat)  # type: ignore[arg-type]
    depth = len(state.history)
    state.push(action)
    try:
        while state.to_move == seat and state.phase == CHAIN:
            legal = state.legal_actions()
            state.push(legal[0] if len(legal) == 1 else tactics_choice(state, legal))
        if state.to_move is None:
            return 99
        return before - state.hand_size(seat)  # type: ignore[arg-type]
    finally:
        while len(state.history) > depth:
            state.pop()


def shed_choice(state: TowaiState, legal: list[Action]) -> Action:
    """:class:`ShedPolicy`'s choice among ``legal`` (more than one action)."""
    pick = tactics_choice(state, legal)
    if state.phase not in (LEAD, PLAY):
        return pick
    plays = [a for a in legal if type(a) is not Pass and type(a) is not Stop]
    if len(plays) < 2 or type(pick) is Pass:
        return pick
    best, most = pick, turn_shed(state, pick)
    for a in plays:
        if a != pick:
            k = turn_shed(state, a)
            if k > most:
                best, most = a, k
    return best


def flexibility(card: int) -> int:
    """How many tops a card can follow on its own side: a Day card of number n follows Day
    tops up to n (``D7`` any, ``D3`` only a 3 or lower), a Night card of n Night tops down
    to n (``N1`` any, ``N5`` only a 5 or higher); a Twai fits either side (9)."""
    if TYPE[card] == DAY:
        return NUM[card]
    if TYPE[card] == NIGHT:
        return 8 - NUM[card]
    return 9


class FlexPolicy(ShedPolicy):
    """A rollout policy: :class:`ShedPolicy` that keeps its flexible cards.

    - Swap: gives its least flexible Day or Night card (:func:`flexibility`; ties: the
      least-held number, then ``greedy``'s order), a Twai only when it holds nothing else
      (as ``greedy``);
    - lead and follow: among the cards that shed the most this turn, the least flexible
      one (ties: ``tactics``' choice, then legal order).

    Fair, as ``shed``: it reads the mover's hand and the public field only. As a player
    against three ``greedy`` (2,000 seeded deals x 4 seats) it scores 0.610 [0.604, 0.618],
    +0.034 [+0.026, +0.041] over ``tactics`` (docs/bots.md, *Sixth session: TOWAI*). Not
    offered as a player."""

    name = "flex"

    def choose(self, state: State) -> Action:
        assert isinstance(state, TowaiState)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return flex_choice(state, legal)


def flex_choice(state: TowaiState, legal: list[Action]) -> Action:
    """:class:`FlexPolicy`'s choice among ``legal`` (more than one action)."""
    phase = state.phase
    if phase == SWAP_PHASE:
        counts = _number_counts(state.hand(state.turn))  # type: ignore[arg-type]
        plain = [a.card for a in legal if TYPE[a.card] != TWAI]  # type: ignore[attr-defined]
        if plain:
            return GIVES[min(plain, key=lambda c: (flexibility(c), counts[NUM[c]], -c))]
        return legal[0]
    pick = tactics_choice(state, legal)
    if phase not in (LEAD, PLAY) or type(pick) is Pass:
        return pick
    plays = [a for a in legal if type(a) is not Pass and type(a) is not Stop]
    if len(plays) < 2:
        return pick
    return max(plays, key=lambda a: (turn_shed(state, a),
                                     -flexibility(a.card),  # type: ignore[attr-defined]
                                     a == pick))


def out_line(state: TowaiState, node_limit: int = 20_000) -> list[Action] | None:
    """A line of the player to move that goes out before the turn ends whatever the other
    players give in Swaps (their choices are searched), or None (also when the search
    passes ``node_limit`` nodes). A rebuild during a Draw cannot change the player's hand,
    so it is played in one fixed order (the pool sorted). ``state`` is searched in place
    and left as it was, also when the search runs out of nodes."""
    return _out_search(state, node_limit, swaps=True)


def sure_out_line(state: TowaiState, node_limit: int = 20_000) -> list[Action] | None:
    """A line of the player to move that goes out before the turn ends whatever the hidden
    cards are, or None (also past ``node_limit`` nodes): :func:`out_line` without the lines
    through a Swap (what the player receives there is a card it cannot see). What is left
    reads only the player's hand and the public field (a Draw moves the others' cards, a
    rebuild the deck's, never the player's), so the answer is the same in every world the
    player's information allows: a fair check for a seat's bot."""
    return _out_search(state, node_limit, swaps=False)


def _out_search(state: TowaiState, node_limit: int, swaps: bool) -> list[Action] | None:
    """The search of :func:`out_line` (``swaps``: through Swaps too, the other players'
    gifts searched) and :func:`sure_out_line` (not)."""
    player = state.turn
    if state.phase not in (LEAD, PLAY, CHAIN):
        return None
    start = state.wins[player]  # type: ignore[index]
    memo: dict = {}
    nodes = 0

    class Budget(Exception):
        pass

    def search() -> list[Action] | None:
        nonlocal nodes
        nodes += 1
        if nodes > node_limit:
            raise Budget
        if state.wins[player] > start:  # type: ignore[index]
            # out only by playing the last card: a win at the turn cap is not going out
            return [] if state.hand_size(player) == 0 else None
        phase = state.phase
        if phase == REBUILD:
            rebuild = Rebuild(state.pool())
            state.push(rebuild)
            r = search()
            state.pop()
            return None if r is None else [rebuild, *r]
        turn = state.turn
        if phase == SWAP_PHASE and not swaps:
            return None
        if phase not in (LEAD, PLAY, CHAIN, SWAP_PHASE) or (turn != player and phase !=
                                                              SWAP_PHASE):
            return None
        key = state.key()
        if key in memo:
            return memo[key]
        result: list[Action] | None = None
        if phase == SWAP_PHASE and turn != player:
            line: list[Action] | None = None
            for a in state.legal_actions():
                state.push(a)
                r = search()
                state.pop()
                if r is None:
                    line = None
                    break
                if line is None:
                    line = [a, *r]
            result = line
        else:
            for a in state.legal_actions():
                if type(a) in (Stop, Pass):
                    continue
                state.push(a)
                r = search()
                state.pop()
                if r is not None:
                    result = [a, *r]
                    break
        memo[key] = result
        return result

    depth = len(state.history)
    try:
        return search()
    except Budget:
        while len(state.history) > depth:  # the search stopped mid-line: undo its plays
            state.pop()
        return None


POLICIES: dict[str, type[Bot]] = {"tactics": TacticsPolicy, "finish": FinishPolicy,
                                  "shed": ShedPolicy, "flex": FlexPolicy}
"""TOWAI's rollout policies beside its bots (for the searchers' profiles: they are never
players)."""


__all__ = ["POLICIES", "FinishPolicy", "FlexPolicy", "GreedyBot", "ShedPolicy",
           "TacticsPolicy", "flex_choice", "flexibility", "greedy_choice", "out_line",
           "shed_choice", "sure_out_line", "tactics_choice", "turn_shed"]
