"""Cards and tiles as small int codes: texts of concatenated two-character tokens
(``R1O2``, ``D3N1``) and sets of codes as bit masks, the way the games write and keep them.

>>> split_pairs("r1o2", {"R1": 0, "O2": 7})
[0, 7]
>>> bad_pair_at("R1X9", {"R1": 0}), set_bits(0b10110)
(3, [1, 2, 4])
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence


def split_pairs(text: str, code_of: Mapping[str, int]) -> list[int] | None:
    """The codes of a concatenation of two-character tokens, each looked up upper-cased in
    ``code_of`` (so any case is read); None for an odd length or an unknown token."""
    if len(text) % 2:
        return None
    out = []
    for i in range(0, len(text), 2):
        code = code_of.get(text[i : i + 2].upper())
        if code is None:
            return None
        out.append(code)
    return out


def bad_pair_at(text: str, code_of: Mapping[str, int]) -> int:
    """The 1-based column of the first token of ``text`` that ``code_of`` does not know
    (upper-cased), or 1 if every one is known."""
    for i in range(0, len(text), 2):
        if text[i : i + 2].upper() not in code_of:
            return i + 1
    return 1


def set_bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first (the codes of a mask)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def scan_tokens(text: str, token_at: Callable[[str, int], tuple[int, int]]) -> list[int]:
    """The codes of a concatenation of tokens (``-`` = none), read one at a time by
    ``token_at(text, i)``: the code of the token at ``i`` and where the next one starts (it
    raises a located error for a bad token)."""
    if text == "-":
        return []
    out = []
    i = 0
    while i < len(text):
        code, i = token_at(text, i)
        out.append(code)
    return out


def field_codes(text: str, split: Callable[[str], list[int] | None]) -> list[int]:
    """The card codes of a position field already accepted by the position reader (``-``
    for none), read with the game's ``split``: the world samplers read hands and decks
    this way."""
    if text == "-":
        return []
    codes = split(text)
    assert codes is not None, text
    return codes


def field_text(codes: Sequence[int], token: Sequence[str]) -> str:
    """The position field of ``codes`` (``-`` for none): :func:`field_codes` read back."""
    return "".join(token[c] for c in codes) or "-"

