"""Self-contained HTML pages for records and puzzles (``kifu html``; ``docs/html.md``).

>>> from kifu.notation.reader import read_records
>>> loc = next(read_records(open("fixtures/tweak/single-round-2p.kifu"), path="g.kifu"))
>>> page = record_page(loc)
>>> page.startswith("<!DOCTYPE html>") and "default-src 'none'" in page
True
"""

from kifu.html.page import puzzle_page, record_page

__all__ = ["puzzle_page", "record_page"]
