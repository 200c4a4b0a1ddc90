"""The HTML report of ``kifu simulate --html``: one self-contained page, charts drawn as
inline SVG here (no script, no network), with the same rules as the viewer's pages.

Charts: the length and score distributions per rule set, the seat win rates with their 95%
error bars, and each pair's paired differences with their intervals. Every drawn number
carries its value in ``data-*`` attributes and the whole report is embedded as JSON
(``<script type="application/json" id="kifu-data">``, data only: the page runs no script),
so a test can check the pictures against the report.

Why SVG written here and not a charting library (docs/designers.md has the figures): a
plotly page embeds 4.8 MB of JavaScript per report and needs inline styles and ``eval``
(the Content-Security-Policy of kifu's pages forbids both); matplotlib's SVG sets 20-odd
``style=`` attributes per chart (also refused) and takes seconds to import. Four chart
kinds over a few dozen numbers are a hundred lines of SVG.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import msgspec

from kifu.html.assets import csp_hash, json_script
from kifu.html.svg import FONT, INK, MUTED, esc
from kifu.lab.simulate import Figure, SimulationReport

COLOURS = ("#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#7f7f7f",
           "#000000")
"""One colour per rule set (Okabe and Ito's palette, readable with colour blindness)."""

CSS = """
:root { --ink:#1f2328; --muted:#57606a; --line:#d0d7de; --soft:#f6f8fa; }
* { box-sizing: border-box; }
body { margin:0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto,
  "DejaVu Sans", sans-serif; color: var(--ink); background: #fff; }
header, main, footer { max-width: 1100px; margin: 0 auto; padding: 0 14px; }
h1 { font-size: 1.35rem; margin: 14px 0 2px; }
h2 { font-size: 1.1rem; margin: 22px 0 6px; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; margin: 14px 0 4px; }
.sub, .note { color: var(--muted); }
.note { font-size: .9rem; }
figure { margin: 8px 0; border: 1px solid var(--line); border-radius: 8px; padding: 6px; }
figure svg { display: block; width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: .88rem; margin-top: 4px; }
table { border-collapse: collapse; font-size: .88rem; margin: 6px 0; }
th, td { text-align: left; padding: 3px 10px 3px 0; border-bottom: 1px solid #eef0f2;
  vertical-align: top; font-variant-numeric: tabular-nums; }
th { color: var(--muted); font-weight: 600; }
td.changed { font-weight: 600; }
.key { display: inline-block; width: .9em; height: .9em; border-radius: 2px;
  vertical-align: -1px; margin-right: 4px; }
code { font-family: "DejaVu Sans Mono", ui-monospace, Menlo, Consolas, monospace;
  font-size: .85rem; word-break: break-all; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 10px; }
footer { color: var(--muted); font-size: .8rem; padding: 16px 14px; }
""".strip()

_KEY_CLASSES = "".join(f".k{i} {{ background: {c}; }}\n" for i, c in enumerate(COLOURS))


def _v(x: float | None) -> str:
    """A number for a data attribute, written as the JSON writes it."""
    return "null" if x is None else json.dumps(x)


def _label(k: int) -> str:
    return chr(ord("A") + k) if k < 26 else f"R{k}"


def _colour(k: int) -> str:
    return COLOURS[k % len(COLOURS)]


def _t(x: float, y: float, s: object, *, size: int = 12, anchor: str = "start",
       fill: str = INK, weight: str = "normal") -> str:
    w = f' font-weight="{weight}"' if weight != "normal" else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
            f'text-anchor="{anchor}"{w}>{esc(s)}</text>')


def _svg(width: int, height: int, body: list[str], label: str, chart: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'role="img" aria-label="{esc(label)}" data-chart="{chart}" '
            f'font-family="{esc(FONT)}">' + "".join(body) + "</svg>")


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round tick values covering ``lo..hi``."""
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step) * step
    out = []
    x = first
    while x <= hi + 1e-9:
        out.append(round(x, 10))
        x += step
    return out


def _fmt(x: float) -> str:
    return f"{x:g}" if abs(x) >= 1 or x == 0 else f"{x:.2g}"


# --- charts ---------------------------------------------------------------------------------

def histogram_chart(report: SimulationReport, metric: str, what: str) -> str:
    """One panel per rule set, the same bins and scale: how ``metric`` is distributed."""
    hist = next(h for h in report.histograms if h.metric == metric)
    sets = len(report.rules)
    width, panel, left, right, top = 520, 96, 60, 12, 10
    height = top + sets * panel + 34
    body: list[str] = []
    if not hist.edges:
        body.append(_t(width / 2, 40, "no finished game", anchor="middle", fill=MUTED))
        return _svg(width, 60, body, f"{what}: no data", f"hist-{metric}")
    peak = max(max(c) if c else 0 for c in hist.counts) or 1
    lo, hi = hist.edges[0], hist.edges[-1]
    span = hi - lo
    plot_w = width - left - right

    def x_of(v: float) -> float:
        return left + (v - lo) / span * plot_w

    for r, counts in enumerate(hist.counts):
        y0 = top + r * panel
        base = y0 + panel - 22
        body.append(_t(4, y0 + 14, _label(r), size=13, weight="bold", fill=_colour(r)))
        body.append(f'<line x1="{left}" y1="{base}" x2="{width - right}" y2="{base}" '
                    f'stroke="#c9ced4"/>')
        for k, c in enumerate(counts):
            h = (panel - 30) * c / peak
            x0, x1 = x_of(hist.edges[k]), x_of(hist.edges[k + 1])
            tip = f"{_label(r)}: {c} game(s) with {what} {hist.edges[k]}..{hist.edges[k + 1] - 1}"
            body.append(
                f'<rect x="{x0 + 0.5:.1f}" y="{base - h:.1f}" width="{max(x1 - x0 - 1, 0.5):.1f}" '
                f'height="{h:.1f}" fill="{_colour(r)}" data-rules="{r}" data-bin="{k}" '
                f'data-lo="{hist.edges[k]}" data-hi="{hist.edges[k + 1]}" data-count="{c}">'
                f"<title>{esc(tip)}</title></rect>")
        body.append(_t(4, y0 + 30, f"top {peak}", size=10, fill=MUTED))
    axis = top + sets * panel - 22 + 14
    for v in [t for t in _ticks(lo, hi) if t == int(t)] or [lo, hi]:  # values are whole
        body.append(_t(x_of(v), axis, _fmt(v), size=10, anchor="middle", fill=MUTED))
    body.append(_t(left + plot_w / 2, height - 4, what, size=11, anchor="middle", fill=MUTED))
    return _svg(width, height, body, f"distribution of {what} per rule set", f"hist-{metric}")


def wins_chart(report: SimulationReport) -> str:
    """Each seat's win rate under each rule set, with its 95% interval as an error bar."""
    seats, sets = report.players, len(report.rules)
    width, left, top, bottom = 520, 40, 12, 36
    plot_h = 200
    height = top + plot_h + bottom
    group = (width - left - 10) / seats
    bar = min(36.0, (group - 16) / sets)
    body: list[str] = []
    hi = max((s.win_rate.high or s.win_rate.estimate or 0) for rs in report.rule_sets
             for s in rs.seats)
    top_v = min(1.0, max(0.1, math.ceil(hi * 10) / 10))

    def y_of(v: float) -> float:
        return top + plot_h * (1 - v / top_v)

    for v in _ticks(0, top_v, 5):
        y = y_of(v)
        body.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - 10}" y2="{y:.1f}" '
                    f'stroke="#eef0f2"/>')
        body.append(_t(left - 4, y + 4, f"{v * 100:g}%", size=10, anchor="end", fill=MUTED))
    fair = 1 / seats
    body.append(f'<line x1="{left}" y1="{y_of(fair):.1f}" x2="{width - 10}" '
                f'y2="{y_of(fair):.1f}" stroke="{MUTED}" stroke-dasharray="4 3">'
                f"<title>an equal share: {fair * 100:.1f}%</title></line>")
    for s in range(seats):
        gx = left + s * group + (group - bar * sets) / 2
        for r, rs in enumerate(report.rule_sets):
            f = rs.seats[s].win_rate
            x = gx + r * bar
            est = f.estimate or 0.0
            tip = f"p{s} under {_label(r)}: wins {_pct(f)}"
            parts = [f'<rect x="{x + 1:.1f}" y="{y_of(est):.1f}" width="{bar - 2:.1f}" '
                     f'height="{y_of(0) - y_of(est):.1f}" fill="{_colour(r)}"/>']
            if f.low is not None and f.high is not None:
                cx = x + bar / 2
                parts.append(f'<line x1="{cx:.1f}" y1="{y_of(f.low):.1f}" x2="{cx:.1f}" '
                             f'y2="{y_of(f.high):.1f}" stroke="{INK}" stroke-width="1.5"/>')
                for v in (f.low, f.high):
                    parts.append(f'<line x1="{cx - 5:.1f}" y1="{y_of(v):.1f}" '
                                 f'x2="{cx + 5:.1f}" y2="{y_of(v):.1f}" stroke="{INK}" '
                                 f'stroke-width="1.5"/>')
            body.append(f'<g data-rules="{r}" data-seat="{s}" data-estimate="{_v(f.estimate)}" '
                        f'data-low="{_v(f.low)}" data-high="{_v(f.high)}"><title>{esc(tip)}'
                        f"</title>{''.join(parts)}</g>")
        body.append(_t(left + s * group + group / 2, top + plot_h + 16, f"p{s}", size=12,
                       anchor="middle"))
    body.append(_t(left + (width - left) / 2, height - 4, "seat (dashed: an equal share)",
                   size=11, anchor="middle", fill=MUTED))
    return _svg(width, height, body, "seat win rates per rule set with 95% intervals", "wins")


def _pct(f: Figure) -> str:
    if f.estimate is None:
        return "-"
    if f.low is None or f.high is None:
        return f"{f.estimate * 100:.1f}%"
    return f"{f.estimate * 100:.1f}% [{f.low * 100:.1f}, {f.high * 100:.1f}]"


def differences_chart(report: SimulationReport, k: int) -> str:
    """Comparison ``k``: every metric's paired difference B - A as a point with its 95%
    interval, as a share of the metric's mean under A (so metrics of different units share
    one axis; a metric whose mean under A is 0 is drawn at 0 and its words say the rest)."""
    c = report.comparisons[k]
    base = report.rule_sets[c.a].metrics
    names = [i.name for i in report.metrics]
    row, left, mid_w, width = 22, 150, 320, 920
    height = 46 + row * len(names)
    rel: dict[str, tuple[float, float, float] | None] = {}
    for name in names:
        f, mean = c.changes[name].difference, base[name].mean.estimate
        if f.estimate is None or not mean or f.low is None or f.high is None:
            rel[name] = None
        else:
            rel[name] = (f.estimate / abs(mean), f.low / abs(mean), f.high / abs(mean))
    reach = max([0.05] + [max(abs(v[1]), abs(v[2])) for v in rel.values() if v])
    reach = min(reach, 1.0)
    x0 = left + mid_w / 2

    def x_of(v: float) -> float:
        v = max(-reach, min(reach, v))
        return x0 + v / reach * (mid_w / 2 - 8)

    body = [_t(x0, 12, f"{_label(c.b)} - {_label(c.a)}, as a share of the mean under "
                       f"{_label(c.a)}", size=11, anchor="middle", fill=MUTED)]
    for v in _ticks(-reach, reach, 4):
        x = x_of(v)
        body.append(f'<line x1="{x:.1f}" y1="26" x2="{x:.1f}" y2="{height - 4}" '
                    f'stroke="{"#8c959f" if v == 0 else "#eef0f2"}"/>')
        body.append(_t(x, 24, f"{v * 100:+g}%" if v else "0", size=10, anchor="middle",
                       fill=MUTED))
    for j, name in enumerate(names):
        ch = c.changes[name]
        f = ch.difference
        y = 40 + j * row
        ink = INK if ch.changed else MUTED
        body.append(_t(left - 8, y + 4, name, size=12, anchor="end", fill=ink,
                       weight="bold" if ch.changed else "normal"))
        colour = _colour(c.b) if ch.changed else "#9aa4ae"
        parts = []
        r = rel[name]
        if r is not None:
            parts.append(f'<line x1="{x_of(r[1]):.1f}" y1="{y:.1f}" x2="{x_of(r[2]):.1f}" '
                         f'y2="{y:.1f}" stroke="{colour}" stroke-width="3"/>')
            parts.append(f'<circle cx="{x_of(r[0]):.1f}" cy="{y:.1f}" r="4.5" '
                         f'fill="{colour}"/>')
        elif f.estimate is not None:
            parts.append(f'<circle cx="{x0:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>')
        mean = base[name].mean.estimate
        body.append(f'<g data-metric="{esc(name)}" data-estimate="{_v(f.estimate)}" '
                    f'data-low="{_v(f.low)}" data-high="{_v(f.high)}" '
                    f'data-base="{_v(mean)}" data-changed="{str(ch.changed).lower()}">'
                    f"<title>{esc(name)}: {esc(ch.verdict)}</title>{''.join(parts)}</g>")
        body.append(_t(left + mid_w + 12, y + 4, ch.verdict, size=12, fill=ink))
    return _svg(width, height, body,
                f"paired differences {_label(c.b)} - {_label(c.a)} with 95% intervals",
                f"diff-{k}")


# --- the page -------------------------------------------------------------------------------

def _fig_text(f: Figure, pct: bool = False) -> str:
    if f.estimate is None:
        return "-"
    if pct:
        return _pct(f)
    if f.low is None or f.high is None:
        return f"{f.estimate:g}"
    return f"{f.estimate:.4g} [{f.low:.4g}, {f.high:.4g}]"


def _table(head: Sequence[str], rows: Sequence[Sequence[str]],
           classes: Sequence[str] = ()) -> str:
    out = ["<table><thead><tr>", *[f"<th>{esc(h)}</th>" for h in head], "</tr></thead><tbody>"]
    for i, r in enumerate(rows):
        cls = classes[i] if i < len(classes) else ""
        out.append("<tr>" + "".join(
            f'<td class="{cls}">{esc(c)}</td>' if (cls and j == len(r) - 1)
            else f"<td>{esc(c)}</td>" for j, c in enumerate(r)) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def simulation_page(report: SimulationReport) -> str:
    """The whole report as one HTML document."""
    n = report.players
    keys = "".join(
        f'<li><span class="key k{r % len(COLOURS)}"></span><b>{_label(r)}</b> '
        f"<code>{esc(spec)}</code></li>" for r, spec in enumerate(report.rules))
    last = report.seed + report.games - 1
    parts = [
        f"<header><h1>kifu simulate: {esc(report.game)}, {n} players</h1>",
        f'<p class="sub">{report.games} game(s) per rule set, seeds {report.seed}..{last} '
        f"(game i from the same seed under every rule set), bots "
        f"{esc(', '.join(report.bots))}</p><ul>{keys}</ul></header><main>",
    ]
    for k, c in enumerate(report.comparisons):
        called = [m for m, ch in c.changes.items() if ch.changed]
        parts.append(f"<h2>{_label(c.b)} against {_label(c.a)}</h2>")
        parts.append(
            f'<p class="note">Paired on {report.games} seed(s); a change is called only when '
            f"its 95% interval excludes 0 (each metric on its own: with many metrics a few "
            f"calls near the edge are expected by chance). The winner changes on "
            f"{esc(_pct(c.winner_changed))} of the {c.paired} seed(s) finished under both. "
            f"Changed: {esc(', '.join(called) or 'nothing detectable')}.</p>")
        parts.append(f"<figure>{differences_chart(report, k)}<figcaption>Each metric's mean "
                     f"difference (dot) and 95% interval (bar) as a share of its mean under "
                     f"{_label(c.a)} (clipped at 100%); bold: a change. The words on the "
                     f"right are in the metric's own unit.</figcaption></figure>")
    parts.append("<h2>Length and scores</h2><div class=\"grid2\">")
    parts.append(f"<figure>{histogram_chart(report, 'plies', 'plies')}<figcaption>Game "
                 f"length in plies (the dealer's actions included).</figcaption></figure>")
    parts.append(f"<figure>{histogram_chart(report, 'scores', 'score')}<figcaption>Every "
                 f"seat's final score, finished games.</figcaption></figure></div>")
    parts.append("<h2>Seats</h2><div class=\"grid2\">")
    parts.append(f"<figure>{wins_chart(report)}<figcaption>Win rate (first place, shared or "
                 f"not) with its 95% Wilson interval.</figcaption></figure><div>")
    rows = []
    for s in range(n):
        rows.append([f"p{s}", *[f"{_pct(rs.seats[s].win_rate)}; place "
                                f"{_fig_text(rs.seats[s].mean_rank)}"
                                for rs in report.rule_sets]])
    fair = []
    for rs in report.rule_sets:
        f = rs.fairness
        fair.append("-" if f is None else
                    f"{'fair' if f.fair else 'not fair'}: chi2 {f.chi2:.2f}, {f.df} df, "
                    f"p {f.p_value:.3g}" + (" (few games)" if f.small else ""))
    rows.append(["seat fairness", *fair])
    parts.append(_table(["seat", *[_label(r) for r in range(len(report.rules))]], rows))
    parts.append("</div></div><h2>Every metric per rule set</h2>")
    rows = [["games", *[f"{rs.games} ({rs.finished} finished, {rs.capped} capped)"
                        for rs in report.rule_sets], ""]]
    for info in report.metrics:
        rows.append([info.name, *[_fig_text(rs.metrics[info.name].mean, info.rate)
                                  for rs in report.rule_sets], info.meaning])
    parts.append(_table(["metric", *[_label(r) for r in range(len(report.rules))],
                         "meaning"], rows))
    parts.append('<p class="note">Means with 95% intervals (Student\'s t; Wilson\'s for '
                 "rates).</p></main>")
    parts.append('<footer>Written by kifu simulate. The figures are in the JSON below '
                 "(kifu schema simulate).</footer>")
    parts.append(json_script(msgspec.to_builtins(report)))
    css = CSS + "\n" + _KEY_CLASSES
    csp = (f"default-src 'none'; style-src {csp_hash(css)}; img-src data:; base-uri 'none'; "
           "form-action 'none'")
    title = f"kifu simulate {report.game}: {' vs '.join(report.rules)}"
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="kifu simulate">\n'
        f"<title>{esc(title)}</title>\n<style>{css}</style>\n</head>\n"
        "<body>\n" + "\n".join(parts) + "\n</body>\n</html>\n"
    )
