"""Numbers in the notation: ASCII decimal digits only, and few of them.

``str.isdigit()`` accepts ``²`` and ``int()`` reads ``٣`` as 3 or refuses more than 4,300
digits; the notation is ASCII and its numbers are small, so every parser asks here first.

>>> is_small_int("42"), is_small_int("٣"), is_small_int("9" * 5000), is_small_int("")
(True, False, False, False)
"""

from __future__ import annotations

MAX_DIGITS = 18


def is_small_int(text: str, max_digits: int = MAX_DIGITS) -> bool:
    """Whether ``text`` is 1..``max_digits`` ASCII decimal digits (so ``int()`` is safe)."""
    return 0 < len(text) <= max_digits and text.isascii() and text.isdecimal()
