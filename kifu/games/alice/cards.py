"""Alice element cards, roles and card-set files.

A *card code* 0..155 names one cell of the grid deck type x suit x rank:
``code = 52 * type + 13 * suit + (rank - 1)`` with types noun 0, verb 1, adjective 2 and
suits in the rulebook's tie order ♠ 0, ♥ 1, ♦ 2, ♣ 3. Its token is the type letter
(``n v a``), the suit letter (``S H D C``) and the rank in decimal (1..13), e.g. ``nS1``,
``vC8``, ``aH12``. A card set uses each cell at most once.

A *card set* is data (``cards/default.cards`` ships in the package): roles with a win
threshold and a skill, and element cards with a word and an optional effect. Skills and
effects are small fixed sets of kinds named in :data:`SKILLS` and :data:`EFFECTS`; the file
only refers to them by name. The format (one directive per line, ``#`` comments)::

    set NAME                               the set's name (first directive, once)
    role LETTER WIN SKILL TITLE...         e.g.  role A 3 alice Alice
    card TOKEN EFFECT WORD...              e.g.  card aH12 pool brave   (EFFECT - = none)

Errors are :class:`NotationError` located ``file:line:col``.
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec

from kifu.core.codes import scan_tokens
from kifu.core.errors import NotationError, VariantError
from kifu.core.numbers import is_small_int
from kifu.core.text import ascii_tokens, read_text_file
from kifu.core.variant import short

NOUN, VERB, ADJ = 0, 1, 2
TYPE_LETTERS = "nva"
TYPE_NAMES = ("noun", "verb", "adjective")
SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
N_CODES = 156

CODE_TYPE = tuple(c // 52 for c in range(N_CODES))
CODE_SUIT = tuple((c // 13) % 4 for c in range(N_CODES))
CODE_RANK = tuple(c % 13 + 1 for c in range(N_CODES))
TOKEN = tuple(
    f"{TYPE_LETTERS[CODE_TYPE[c]]}{SUITS[CODE_SUIT[c]]}{CODE_RANK[c]}" for c in range(N_CODES)
)
CODE_OF = {t: c for c, t in enumerate(TOKEN)}
TOKEN_RE = re.compile(r"([nva])([SHDC])(1[0-3]|[1-9])")
"""One element token; ranks are plain decimal 1..13 (no leading zero)."""

SKILLS = ("none", "alice", "rabbit", "hatter", "cat", "caterpillar", "queen")
"""Skill kinds a role may name (docs/rules/alice.md, "Roles")."""
SK_NONE, SK_ALICE, SK_RABBIT, SK_HATTER, SK_CAT, SK_CATERPILLAR, SK_QUEEN = range(7)
EFFECTS = ("-", "pool", "buy", "tell")
"""Effect kinds a card may name: ``pool`` (♥Q: hands pooled and dealt again after the
check), ``buy`` (♦4: its owner may discard 3 cards for 1 SP before the Clean Phase),
``tell`` (♣8: the check's loser also gives the winner 1 SP); ``-`` = no effect."""
FX_NONE, FX_POOL, FX_BUY, FX_TELL = range(4)

_NAME = re.compile(r"[A-Za-z0-9_.+\-]+\Z")


def card_token(code: int) -> str:
    return TOKEN[code]


def cards_text(codes: tuple[int, ...] | list[int]) -> str:
    """Tokens concatenated (``-`` for none)."""
    return "".join(TOKEN[c] for c in codes) or "-"


def scan_cards(text: str, col0: int = 1) -> list[int]:
    """The codes of a concatenated token list (``-`` = none); columns 1-based from col0."""

    def card_at(text: str, i: int) -> tuple[int, int]:
        m = TOKEN_RE.match(text, i)
        if not m:
            raise NotationError(
                f"expected a card like nS1, vC8 or aH12 (type n/v/a, suit S/H/D/C, rank "
                f"1..13), got {short(text[i:])}",
                col=col0 + i,
            )
        return CODE_OF[m.group(0)], m.end()

    return scan_tokens(text, card_at)


class Role(msgspec.Struct, frozen=True):
    letter: str
    """One upper-case letter, the role's token in position lines."""
    win: int
    """Wins at SP >= win."""
    skill: int
    """Index into :data:`SKILLS`."""
    title: str


class CardSet(msgspec.Struct, frozen=True):
    name: str
    roles: tuple[Role, ...]
    cards: tuple[int, ...]
    """The codes in the set, sorted."""
    words: tuple[str, ...]
    """The word of each card, parallel to ``cards``."""
    effects: tuple[int, ...]
    """The effect kind of each card, parallel to ``cards``."""

    def word(self, code: int) -> str:
        return self._word[code]

    @property
    def _word(self) -> dict[int, str]:
        return dict(zip(self.cards, self.words, strict=True))

    def deck(self, t: int) -> tuple[int, ...]:
        return tuple(c for c in self.cards if CODE_TYPE[c] == t)

    def to_text(self) -> str:
        """The canonical file text of this set (``parse_card_set(to_text())`` is equal)."""
        out = ["# kifu alice card set (docs/rules/alice.md, 'Card-set files')",
               f"set {self.name}", ""]
        for r in self.roles:
            out.append(f"role {r.letter} {r.win} {SKILLS[r.skill]} {r.title}")
        out.append("")
        for c, w, e in zip(self.cards, self.words, self.effects, strict=True):
            out.append(f"card {TOKEN[c]} {EFFECTS[e]} {w}")
        return "\n".join(out) + "\n"


class Tables(msgspec.Struct, frozen=True, gc=False):
    """Per-code tables of a set, built once per set."""

    present: tuple[bool, ...]
    effect: tuple[int, ...]
    word: tuple[str, ...]
    role_skill: tuple[int, ...]
    role_win: tuple[int, ...]
    role_letters: str
    deck_all: tuple[int, ...]
    deck_bits: int
    """``deck_all`` as a set of bits (bit ``c`` for card code ``c``)."""


def parse_card_set(text: str, path: str | None = None) -> CardSet:
    """Parse and validate a card-set file; raise a located :class:`NotationError`."""
    name: str | None = None
    roles: list[Role] = []
    cards: dict[int, tuple[str, int]] = {}
    role_lines: dict[str, int] = {}
    card_lines: dict[int, int] = {}

    def err(msg: str, line: int, col: int) -> NotationError:
        return NotationError(msg, line=line, col=col, path=path)

    for ln, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        body = line.split("#", 1)[0]
        toks = ascii_tokens(body)  # only ASCII spaces separate (U+00A0 is no space here)
        if not toks:
            continue
        col, word = toks[0]
        if word == "set":
            if name is not None:
                raise err("the set name is given twice", ln, col)
            if roles or cards:
                raise err("'set NAME' must come before the roles and cards", ln, col)
            if len(toks) != 2 or not _NAME.match(toks[1][1]):
                raise err("expected 'set NAME' (NAME of letters, digits, _.+-)", ln, col)
            name = toks[1][1]
        elif word == "role":
            if len(toks) < 5:
                raise err("expected 'role LETTER WIN SKILL TITLE'", ln, col)
            (lc, letter), (wc, win), (sc, skill) = toks[1:4]
            if not (len(letter) == 1 and "A" <= letter <= "Z"):
                raise err(f"a role letter is one of A..Z, not {short(letter)}", ln, lc)
            if letter in role_lines:
                raise err(f"duplicate role {letter} (first on line {role_lines[letter]})",
                          ln, lc)
            if not is_small_int(win) or not 1 <= int(win) <= 99:
                raise err(f"the win threshold is an SP count 1..99, not {short(win)}", ln, wc)
            if skill not in SKILLS:
                raise err(f"unknown skill {short(skill)} (known: {', '.join(SKILLS)})", ln, sc)
            title = " ".join(t for _, t in toks[4:])
            role_lines[letter] = ln
            roles.append(Role(letter, int(win), SKILLS.index(skill), title))
        elif word == "card":
            if len(toks) < 4:
                raise err("expected 'card TOKEN EFFECT WORD'", ln, col)
            (tc, tok), (ec, eff) = toks[1:3]
            m = TOKEN_RE.fullmatch(tok)
            if not m:
                raise err(f"bad card {short(tok)}: expected type n/v/a, suit S/H/D/C, rank 1..13 "
                          "(like nS1, vC8, aH12)", ln, tc)
            code = CODE_OF[tok]
            if code in cards:
                raise err(f"duplicate card {tok} (first on line {card_lines[code]})", ln, tc)
            if eff not in EFFECTS:
                raise err(f"unknown effect {short(eff)} (known: {', '.join(EFFECTS)})", ln, ec)
            card_lines[code] = ln
            cards[code] = (" ".join(t for _, t in toks[3:]), EFFECTS.index(eff))
        else:
            raise err(f"unknown directive {short(word)} (expected set, role or card)", ln, col)
    end = text.count("\n") + 1
    if name is None:
        raise err("missing 'set NAME'", 1, 1)
    if len(roles) < 3:
        raise err(f"a card set needs at least 3 roles (3 players), not {len(roles)}", end, 1)
    for t in range(3):
        if not any(CODE_TYPE[c] == t for c in cards):
            raise err(f"missing deck: the set has no {TYPE_NAMES[t]} cards", end, 1)
    order = sorted(cards)
    return CardSet(
        name,
        tuple(sorted(roles, key=lambda r: r.letter)),
        tuple(order),
        tuple(cards[c][0] for c in order),
        tuple(cards[c][1] for c in order),
    )


# --- the registry of card sets -----------------------------------------------------------

HERE = Path(__file__).parent / "cards"
_SETS: dict[str, CardSet] = {}
_TABLES: dict[str, Tables] = {}


def load_card_file(path: str | Path) -> CardSet:
    """Read, validate and register a card-set file (the CLI's ``--cards FILE``)."""
    text = read_text_file(path, what="a card-set file")  # bounded, strict UTF-8
    cs = parse_card_set(text, path=str(path))
    register(cs)
    return cs


def register(cs: CardSet) -> None:
    """Make ``cs`` known under its name (an equal set may be registered again)."""
    old = _SETS.get(cs.name)
    if old is not None and old != cs:
        raise VariantError(f"card set {cs.name!r} is already known with other contents")
    _SETS[cs.name] = cs


MAX_SET_NAME = 64
"""A card set's name is at most this long (it names a file in the package)."""


def card_set(name: str) -> CardSet:
    """The set called ``name``: registered, or ``cards/<name>.cards`` in the package."""
    cs = _SETS.get(name)
    if cs is None:
        p = HERE / f"{name}.cards"
        if len(name) > MAX_SET_NAME or not _NAME.match(name) or not p.is_file():
            known = sorted({*_SETS, *(f.stem for f in HERE.glob("*.cards"))})
            raise VariantError(f"unknown card set {short(name)} (known: {', '.join(known)}; "
                               "load another with --cards FILE)")
        cs = parse_card_set(read_text_file(p, what="a card-set file"), path=str(p))
        _SETS[name] = cs
    return cs


def tables(name: str) -> Tables:
    tb = _TABLES.get(name)
    if tb is None:
        cs = card_set(name)
        present = [False] * N_CODES
        effect = [0] * N_CODES
        word = [""] * N_CODES
        for c, w, e in zip(cs.cards, cs.words, cs.effects, strict=True):
            present[c] = True
            effect[c] = e
            word[c] = w
        tb = _TABLES[name] = Tables(
            tuple(present), tuple(effect), tuple(word),
            tuple(r.skill for r in cs.roles), tuple(r.win for r in cs.roles),
            "".join(r.letter for r in cs.roles), cs.cards, sum(1 << c for c in cs.cards),
        )
    return tb
