"""What the view tests share."""

from __future__ import annotations


def check_hands_field(full: str, shown: str, seat: int, sizes: list[int]) -> None:
    """``shown`` (a hands field of ``seat``'s view, hands separated by ``/``) shows
    ``seat``'s own hand as ``full`` does and each other hand as one ``?`` a card (``-``
    when empty); ``sizes`` are the hands' sizes."""
    hands, seen = full.split("/"), shown.split("/")
    for s, size in enumerate(sizes):
        if s == seat:
            assert seen[s] == hands[s]
        else:
            assert set(seen[s]) <= {"?", "-"}
            assert seen[s].count("?") == size
