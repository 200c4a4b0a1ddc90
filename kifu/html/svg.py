"""Small helpers that write SVG as text: escaping, cards, labels.

Drawers build a picture from these and return one ``<svg>`` string. Only presentation
attributes are used (never ``style=``), so the page's Content-Security-Policy needs no
inline-style allowance for them.
"""

from __future__ import annotations

from html import escape

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
