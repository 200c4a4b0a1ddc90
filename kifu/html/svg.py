"""Small helpers that write SVG as text: escaping, cards, labels.

Drawers build a picture from these and return one ``<svg>`` string. Only presentation
attributes are used (never ``style=``), so the page's Content-Security-Policy needs no
inline-style allowance for them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', sans-serif"
INK = "#1f2328"
MUTED = "#57606a"
BACK = "#2b3a67"
BACK_LINE = "#8ea0d8"
HIGHLIGHT = "#f4b400"


def esc(text: object) -> str:
    """Text escaped for SVG/HTML content and attribute values."""
    return escape(str(text), quote=True)


def svg(width: int, height: int, body: list[str], label: str) -> str:
    """An ``<svg>`` root that scales to its container's width."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="100%" role="group" aria-label="{esc(label)}" font-family="{esc(FONT)}">'
        + "".join(body) + "</svg>"
    )


def text(x: float, y: float, content: object, *, size: int = 14, fill: str = INK,
         anchor: str = "start", weight: str = "normal") -> str:
    extra = f' font-weight="{weight}"' if weight != "normal" else ""
    return (f'<text x="{x:g}" y="{y:g}" font-size="{size}" fill="{fill}" '
            f'text-anchor="{anchor}"{extra}>{esc(content)}</text>')


def rect(x: float, y: float, w: float, h: float, fill: str, *, stroke: str = "none",
         rx: float = 0, sw: float = 1) -> str:
    s = f' stroke="{stroke}" stroke-width="{sw:g}"' if stroke != "none" else ""
    r = f' rx="{rx:g}"' if rx else ""
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"{r} fill="{fill}"{s}/>'


def item(label: str, parts: list[str] | str) -> str:
    """A group with a text alternative: a ``<title>`` (tooltips) and an ``aria-label``."""
    inner = parts if isinstance(parts, str) else "".join(parts)
    return f'<g role="img" aria-label="{esc(label)}"><title>{esc(label)}</title>{inner}</g>'


def card_back(x: float, y: float, w: float, h: float, label: str = "a face-down card",
              caption: str = "") -> str:
    """A face-down card: a dark patterned back, an optional caption in its middle."""
    parts = [
        rect(x, y, w, h, BACK, stroke="#111", rx=4),
        rect(x + 3, y + 3, w - 6, h - 6, "none", stroke=BACK_LINE, rx=3),
    ]
    if caption:
        parts.append(text(x + w / 2, y + h / 2 + 6, caption, size=16, fill="#fff",
                          anchor="middle", weight="bold"))
    return item(label, parts)


def backs(x: float, y: float, w: float, h: float, count: int, what: str,
          step: float = 6, most: int = 8) -> str:
    """A face-down pile of ``count`` cards (drawn as at most ``most`` offset backs) with
    the count on top; ``-`` (an empty outline) when there are none."""
    if count == 0:
        return item(f"{what}: none", [rect(x, y, w, h, "none", stroke="#aab", rx=4),
                                      text(x + w / 2, y + h / 2 + 5, "0", size=13,
                                           fill=MUTED, anchor="middle")])
    shown = min(count, most)
    parts = []
    for i in range(shown):
        parts.append(rect(x + i * step / 3, y + i * step / 4, w, h, BACK, stroke="#111",
                          rx=4))
    top_x, top_y = x + (shown - 1) * step / 3, y + (shown - 1) * step / 4
    parts.append(rect(top_x + 3, top_y + 3, w - 6, h - 6, "none", stroke=BACK_LINE, rx=3))
    parts.append(text(top_x + w / 2, top_y + h / 2 + 6, count, size=16, fill="#fff",
                      anchor="middle", weight="bold"))
    noun = "card" if count == 1 else "cards"
    return item(f"{what}: {count} {noun}, face down", parts)


def seat_badge(x: float, y: float, name: str, active: bool) -> str:
    """A seat's name in a pill, filled when that seat is to move."""
    w = 12 + 9 * len(name)
    fill, ink = (HIGHLIGHT, INK) if active else ("#e8eaed", INK)
    label = f"{name}, to move" if active else name
    return item(label, [rect(x, y, w, 24, fill, rx=12, stroke="#888" if active else "none"),
                        text(x + w / 2, y + 17, name, size=14, fill=ink, anchor="middle",
                             weight="bold")])


def fit(name: str, chars: int) -> str:
    """``name`` cut to ``chars`` characters, with an ellipsis when cut."""
    return name if len(name) <= chars else name[: max(1, chars - 1)] + "…"


def seat_badge_named(x: float, y: float, seat: int, names: Sequence[str], you: bool,
                     active: bool, chars: int = 12) -> list[str]:
    """A seat's badge (``p0``, filled when to move, ``(you)`` in a seat's view) and, under
    it, the player's name from the ``Players`` header (cut to ``chars`` characters). The
    name line sits 14 units below the pill: drawers leave y + 30 .. y + 44 for it."""
    label = f"p{seat}" + (" (you)" if you else "")
    parts = [seat_badge(x, y, label, active)]
    name = names[seat].strip() if seat < len(names) else ""
    if name and name != f"p{seat}":
        parts.append(item(f"p{seat} is {name}", text(x + 2, y + 40, fit(name, chars), size=12,
                                                     fill=INK, weight="bold")))
    return parts


PALETTE = ("#0b57d0", "#d62828", "#2a9d4f", "#b8860b", "#7d3fb8", "#00838f")
"""One colour a seat in charts (blue, red, green, gold, purple, teal)."""


def line_chart(series: Sequence[Sequence[float]], labels: Sequence[str], *, title: str,
               width: int = 640, height: int = 96, marker: bool = True,
               marker_id: str = "chart-marker",
               dots: Sequence[tuple[int, int, str, str]] = ()) -> str:
    """A small chart of one line per series over the plies (x = the index in each series,
    every series as long): a y axis from the least to the greatest value, a legend, and
    (``marker``) a vertical line ``id="chart-marker"`` that a page moves to the current
    ply (its ``data-x0`` and ``data-dx`` give x = x0 + ply * dx).

    ``marker_id``: the marker's id when a page has several charts (each marker also has
    ``class="chart-marker"``). ``dots``: ``(series, index, colour, label)`` circles on the
    lines (the analysis marks), each with its index in ``data-ply`` and a tooltip.

    Shared by the replay viewer's score line and the value chart of an analysed record: a
    chart is values and labels, nothing of a game."""
    count = max((len(s) for s in series), default=0)
    names = [labels[k] if k < len(labels) else f"p{k}" for k in range(len(series))]
    legend_w = sum(24 + 6.5 * len(name) for name in names)
    title_w = 6.5 * len(title)
    left, right, top, bottom = 36, 8, 18, 16
    legend_y = 11
    if left + title_w + 16 + legend_w > width - right:  # no room beside the title
        legend_y, top = 26, 32
        height += 14
    plot_w, plot_h = width - left - right, height - top - bottom
    values = [v for s in series for v in s]
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    if hi == lo:
        hi = lo + 1
    dx = plot_w / max(1, count - 1)

    def y_of(v: float) -> float:
        return top + plot_h - (v - lo) / (hi - lo) * plot_h

    body = [text(left, 12, title, size=11, fill=MUTED),
            rect(left, top, plot_w, plot_h, "#fafbfc", stroke="#d0d7de", sw=0.6)]
    for v in (lo, hi):
        body.append(text(left - 4, y_of(v) + 4, f"{v:g}", size=10, fill=MUTED, anchor="end"))
    legend_x = width - right
    for k in reversed(range(len(series))):
        legend_x -= 24 + 6.5 * len(names[k])
        colour = PALETTE[k % len(PALETTE)]
        body.append(rect(legend_x, legend_y - 6, 10, 3, colour))
        body.append(text(legend_x + 13, legend_y, names[k], size=10, fill=INK))
    for k, s in enumerate(series):
        if not s:
            continue
        points = " ".join(f"{left + i * dx:.1f},{y_of(v):.1f}" for i, v in enumerate(s))
        last = f"{names[k]}: {s[-1]:g} at the end"
        body.append(item(last, f'<polyline points="{points}" fill="none" '
                               f'stroke="{PALETTE[k % len(PALETTE)]}" stroke-width="2"/>'))
    for k, i, colour, label in dots:
        if 0 <= k < len(series) and 0 <= i < len(series[k]):
            body.append(f'<circle cx="{left + i * dx:.1f}" cy="{y_of(series[k][i]):.1f}" r="3.5" '
                        f'fill="{colour}" stroke="#fff" stroke-width="1" data-ply="{i}">'
                        f"<title>{esc(label)}</title></circle>")
    if marker:
        body.append(f'<line id="{marker_id}" class="chart-marker" x1="{left}" y1="{top}" '
                    f'x2="{left}" '
                    f'y2="{top + plot_h}" stroke="{INK}" stroke-width="1" '
                    f'stroke-dasharray="3 2" data-x0="{left}" data-dx="{dx:.4f}"/>')
    body.append(text(left, height - 3, "ply 0", size=9, fill=MUTED))
    body.append(text(left + plot_w, height - 3, f"ply {max(0, count - 1)}", size=9,
                     fill=MUTED, anchor="end"))
    return svg(width, height, body, title)


def over_status(state: Any, n: int) -> str:
    """The status line of a finished game: each seat's score and place."""
    result = state.result()
    return "game over" + ("" if result is None else ": " + ", ".join(
        f"p{s} {result.scores[s]} (#{result.ranks[s]})" for s in range(n)))


def wrap(words: str, width: int) -> list[str]:
    """``words`` in lines of at most ``width`` characters (a longer word stands alone)."""
    lines, line = [], ""
    for w in words.split():
        if len(line) + len(w) + 1 > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    lines.append(line)
    return lines


def hidden_from_others(action_text: str, actor: str, seat: int, word: str) -> str:
    """``action_text`` as ``seat`` sees it when actions starting ``word`` are secret: another
    seat's shows as ``word (hidden)``, ``seat``'s own and every other action in full."""
    if action_text.startswith(word + " ") and actor != f"p{seat}":
        return f"{word} (hidden)"
    return action_text


def hand(x: float, y: float, codes: Sequence[int], card: Callable[[float, float, int], str], *,
         hidden: bool, w: float, h: float, per_row: int, step: float, who: str,
         empty: tuple[str, float, int]) -> list[str]:
    """A seat's hand at (x, y): ``who``'s face-down backs (``w`` wide) when ``hidden``,
    else its cards drawn by ``card`` in rows of ``per_row``, ``step`` apart; ``empty`` is
    the note shown for no card (its text, its offset below ``y``, its size)."""
    if hidden:
        return [backs(x, y, w, h, len(codes), f"{who}'s hand", most=6)]
    parts = []
    for i, code in enumerate(codes):
        r, c = divmod(i, per_row)
        parts.append(card(x + c * step, y + r * (h + 6), code))
    if not codes:
        label, dy, size = empty
        parts.append(text(x, y + dy, label, size=size, fill=MUTED))
    return parts
