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
from kifu.lab.simulate import POSITIONS, Figure, SimulationReport, family_sentence, format_figure

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
.grid3 { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 8px; }
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


def wins_chart(report: SimulationReport, by: str = "seat") -> str:
    """Each seat's (``by="turn"``: each position in the turn order's) win rate under each
    rule set, with its 95% interval as an error bar."""
    seats, sets = report.players, len(report.rules)
    turn = by == "turn"
    width, left, top, bottom = 520, 40, 12, 36
    plot_h = 200
    height = top + plot_h + bottom
    group = (width - left - 10) / seats
    bar = min(36.0, (group - 16) / sets)
    body: list[str] = []
    hi = max((s.win_rate.high or s.win_rate.estimate or 0) for rs in report.rule_sets
             for s in (rs.turns if turn else rs.seats))
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
            f = (rs.turns if turn else rs.seats)[s].win_rate
            x = gx + r * bar
            est = f.estimate or 0.0
            who = f"the {POSITIONS[s]} player" if turn else f"p{s}"
            tip = f"{who} under {_label(r)}: wins {_pct(f)}"
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
            attr = "data-position" if turn else "data-seat"
            body.append(f'<g data-rules="{r}" {attr}="{s}" data-estimate="{_v(f.estimate)}" '
                        f'data-low="{_v(f.low)}" data-high="{_v(f.high)}"><title>{esc(tip)}'
                        f"</title>{''.join(parts)}</g>")
        body.append(_t(left + s * group + group / 2, top + plot_h + 16,
                       POSITIONS[s] if turn else f"p{s}", size=12, anchor="middle"))
    axis = "position in the turn order" if turn else "seat"
    body.append(_t(left + (width - left) / 2, height - 4, f"{axis} (dashed: an equal share)",
                   size=11, anchor="middle", fill=MUTED))
    return _svg(width, height, body, f"win rates by {axis} per rule set with 95% intervals",
                "turns" if turn else "wins")


def _pct(f: Figure) -> str:
    """A rate as the CLI prints it (one number format: :func:`format_figure`)."""
    return format_figure(f, pct=True)


def differences_chart(report: SimulationReport, k: int) -> str:
    """Comparison ``k``: every metric's paired difference B - A as a point with its 95%
    interval, in standard deviations of the metric (the difference over the pooled
    standard deviation of A's and B's games: Cohen's d), so metrics of different units
    share one axis and a metric that is 0 under A ("new") is drawn at its true size; the
    metrics by decreasing effect size, the calls first; the words beside each are in the
    metric's own unit."""
    c = report.comparisons[k]
    names = c.order or [i.name for i in report.metrics]
    row, left, mid_w, width = 22, 150, 320, 960
    height = 46 + row * len(names)
    scaled: dict[str, tuple[float, float, float] | None] = {}
    for name in names:
        ch = c.changes[name]
        f = ch.difference
        if f.estimate is None or f.low is None or f.high is None or not ch.effect \
                or not f.estimate:
            scaled[name] = None
        else:
            unit = f.estimate / ch.effect  # the pooled standard deviation
            scaled[name] = (ch.effect, f.low / unit, f.high / unit)
    reach = max([0.1] + [max(abs(v[1]), abs(v[2])) for v in scaled.values() if v])
    reach = min(reach, 3.0)
    x0 = left + mid_w / 2

    def x_of(v: float) -> float:
        v = max(-reach, min(reach, v))
        return x0 + v / reach * (mid_w / 2 - 8)

    body = [_t(x0, 12, f"{_label(c.b)} - {_label(c.a)}, in standard deviations of each metric",
               size=11, anchor="middle", fill=MUTED)]
    for v in _ticks(-reach, reach, 4):
        x = x_of(v)
        body.append(f'<line x1="{x:.1f}" y1="26" x2="{x:.1f}" y2="{height - 4}" '
                    f'stroke="{"#8c959f" if v == 0 else "#eef0f2"}"/>')
        body.append(_t(x, 24, f"{v:+g}" if v else "0", size=10, anchor="middle", fill=MUTED))
    for j, name in enumerate(names):
        ch = c.changes[name]
        f = ch.difference
        y = 40 + j * row
        ink = INK if ch.changed else MUTED
        body.append(_t(left - 8, y + 4, name, size=12, anchor="end", fill=ink,
                       weight="bold" if ch.changed else "normal"))
        colour = _colour(c.b) if ch.changed else "#9aa4ae"
        parts = []
        r = scaled[name]
        if r is not None:
            parts.append(f'<line x1="{x_of(r[1]):.1f}" y1="{y:.1f}" x2="{x_of(r[2]):.1f}" '
                         f'y2="{y:.1f}" stroke="{colour}" stroke-width="3"/>')
            parts.append(f'<circle cx="{x_of(r[0]):.1f}" cy="{y:.1f}" r="4.5" '
                         f'fill="{colour}"/>')
        elif f.estimate is not None:
            parts.append(f'<circle cx="{x0:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>')
        mean = report.rule_sets[c.a].metrics[name].mean.estimate
        body.append(f'<g data-metric="{esc(name)}" data-estimate="{_v(f.estimate)}" '
                    f'data-low="{_v(f.low)}" data-high="{_v(f.high)}" '
                    f'data-base="{_v(mean)}" data-effect="{_v(ch.effect)}" '
                    f'data-changed="{str(ch.changed).lower()}">'
                    f"<title>{esc(name)}: {esc(ch.verdict)}</title>{''.join(parts)}</g>")
        body.append(_t(left + mid_w + 12, y + 4, ch.verdict, size=12, fill=ink))
    return _svg(width, height, body,
                f"paired differences {_label(c.b)} - {_label(c.a)} with 95% intervals",
                f"diff-{k}")


def sweep_chart(report: SimulationReport, metric: str) -> str:
    """One metric's mean with its 95% interval against each value of a sweep (and the
    target's line when the target is this metric)."""
    from kifu.lab.sweep import parse_target

    sw = report.sweep
    assert sw is not None
    info = next(i for i in report.metrics if i.name == metric)
    figs = [rs.metrics[metric].mean for rs in report.rule_sets]
    goal = None
    if sw.target is not None and parse_target(sw.target)[0] == metric:
        goal = parse_target(sw.target)[2]
    vals = [v for f in figs for v in (f.low, f.high, f.estimate) if v is not None]
    vals += [goal] if goal is not None else []
    lo, hi = (min(vals), max(vals)) if vals else (0.0, 1.0)
    if hi == lo:
        lo, hi = lo - 1, hi + 1
    pad = (hi - lo) * 0.08
    lo, hi = lo - pad, hi + pad
    width, left, top, plot_h, bottom = 340, 52, 22, 130, 34
    height = top + plot_h + bottom
    step = (width - left - 12) / len(figs)

    def y_of(v: float) -> float:
        return top + plot_h * (1 - (v - lo) / (hi - lo))

    k = 100.0 if info.rate else 1.0
    body = [_t(left, 14, metric, size=12, weight="bold")]
    for t in _ticks(lo, hi, 4):
        y = y_of(t)
        body.append(f'<line x1="{left}" y1="{y:.1f}" x2="{width - 10}" y2="{y:.1f}" '
                    f'stroke="#eef0f2"/>')
        body.append(_t(left - 4, y + 4, _fmt(t * k) + ("%" if info.rate else ""), size=10,
                       anchor="end", fill=MUTED))
    if goal is not None:
        body.append(f'<line x1="{left}" y1="{y_of(goal):.1f}" x2="{width - 10}" '
                    f'y2="{y_of(goal):.1f}" stroke="#d55e00" stroke-dasharray="5 3" '
                    f'data-target="{_v(goal)}"><title>target {esc(sw.target)}</title></line>')
    prev = None
    for j, (value, f) in enumerate(zip(sw.values, figs, strict=True)):
        cx = left + step * (j + 0.5)
        parts = []
        if f.low is not None and f.high is not None:
            parts.append(f'<line x1="{cx:.1f}" y1="{y_of(f.low):.1f}" x2="{cx:.1f}" '
                         f'y2="{y_of(f.high):.1f}" stroke="{INK}" stroke-width="1.5"/>')
        if f.estimate is not None:
            parts.append(f'<circle cx="{cx:.1f}" cy="{y_of(f.estimate):.1f}" r="4" '
                         f'fill="{COLOURS[0]}"/>')
            if prev is not None:
                body.append(f'<line x1="{prev[0]:.1f}" y1="{prev[1]:.1f}" x2="{cx:.1f}" '
                            f'y2="{y_of(f.estimate):.1f}" stroke="{COLOURS[0]}" '
                            f'stroke-opacity="0.5"/>')
            prev = (cx, y_of(f.estimate))
        body.append(f'<g data-value="{esc(value)}" data-estimate="{_v(f.estimate)}" '
                    f'data-low="{_v(f.low)}" data-high="{_v(f.high)}"><title>'
                    f"{esc(sw.field)}={esc(value)}: {esc(format_figure(f, pct=info.rate))}"
                    f"</title>{''.join(parts)}</g>")
        body.append(_t(cx, top + plot_h + 14, value, size=10, anchor="middle", fill=MUTED))
    body.append(_t(left + (width - left) / 2, height - 4, sw.field, size=11, anchor="middle",
                   fill=MUTED))
    return _svg(width, height, body, f"{metric} against {sw.field} with 95% intervals",
                f"sweep-{metric}")


# --- the page -------------------------------------------------------------------------------

def _fig_text(f: Figure, pct: bool = False) -> str:
    """A figure as the CLI prints it (one number format: :func:`format_figure`); the
    unrounded values are in the page's data attributes and JSON."""
    return format_figure(f, pct=pct)


def _fair(f) -> str:
    if f is None:
        return "-"
    return (f"{'fair' if f.fair else 'not fair'}: chi2 {f.chi2:.2f}, {f.df} df, "
            f"p {f.p_value:.3g}" + (" (few games)" if f.small else ""))


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


SWEEP_METRICS = ("plies", "margin", "lead_changes", "comeback", "close", "decisiveness",
                 "branching", "win_first")
"""The metrics a sweep draws against the value (with the target's, when asked)."""


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
        f"{esc(', '.join(report.bots))}</p><ul>{keys}</ul>",
    ]
    for r, rs in enumerate(report.rule_sets):
        parts += [f'<p class="note">{_label(r)}: {esc(note)}</p>' for note in rs.notes]
    parts.append("</header><main>")
    if report.family is not None and report.comparisons:
        parts.append(f'<p class="note">{esc(family_sentence(report.family))}.</p>')
    if report.sweep is not None:
        sw = report.sweep
        parts.append(f"<h2>Sweep of {esc(sw.field)}</h2>")
        if sw.target is not None:
            answer = (f"the value that hits it: {sw.field}={sw.closest} (of those meeting it, "
                      "the nearest the target" + ("; its whole interval meets it)"
                                                  if sw.closest in sw.surely else
                                                  "; its interval reaches past it)")
                      if sw.closest is not None else "no value meets it")
            if sw.crossing is not None:
                answer += f"; the means cross it near {sw.field}={sw.crossing:g}"
            parts.append(f'<p>Target <code>{esc(sw.target)}</code>: {esc(answer)}.</p>')
        shown = [m for m in SWEEP_METRICS if m in report.rule_sets[0].metrics]
        if sw.target is not None:
            from kifu.lab.sweep import parse_target

            goal = parse_target(sw.target)[0]
            shown = [goal] + [m for m in shown if m != goal]
        parts.append('<div class="grid3">' + "".join(
            f"<figure>{sweep_chart(report, m)}</figure>" for m in shown) + "</div>")
        parts.append('<p class="note">Each value on the same seeds; mean and 95% interval; '
                     "the table below has every metric.</p>")
    for k, c in enumerate(report.comparisons):
        called = [m for m in c.order if c.changes[m].changed]
        edge = [m for m in called if c.changes[m].edge]
        parts.append(f"<h2>{_label(c.b)} against {_label(c.a)}</h2>")
        parts.append(
            f'<p class="note">Paired on {report.games} seed(s); a change is called only when '
            f"Holm's procedure over every test of the report rejects it. The winner changes "
            f"on {esc(_pct(c.winner_changed))} of the {c.paired} seed(s) finished under both. "
            f"Changed: {esc(', '.join(called) or 'nothing detectable')}"
            + (f" (near the edge: {esc(', '.join(edge))}; worth --confirm)" if edge else "")
            + ".</p>")
        parts.append(f"<figure>{differences_chart(report, k)}<figcaption>Each metric's mean "
                     f"difference (dot) and 95% interval (bar) in standard deviations of the "
                     f"metric, largest effect first (clipped at 3); bold: a call. The words "
                     f"on the right are in the metric's own unit; \"new\" marks a metric "
                     f"that is 0 in every game of {_label(c.a)}.</figcaption></figure>")
    if report.confirmation is not None:
        conf = report.confirmation
        parts.append("<h2>Confirmation on fresh seeds</h2>")
        if not conf.calls:
            parts.append("<p>No change was called: nothing to confirm.</p>")
        else:
            rows = [[f"{_label(x.b)} - {_label(x.a)}", x.metric, x.first,
                     "replicates" if x.replicates else "does not replicate", x.fresh]
                    for x in conf.calls]
            parts.append(f'<p class="note">Every call re-run on seeds {conf.seed}..'
                         f"{conf.seed + conf.games - 1}, Holm over the calls.</p>")
            parts.append(_table(["pair", "metric", "first", "verdict", "on the fresh seeds"],
                                rows))
    drawn = [h for h in report.histograms if h.varies]
    if drawn:
        what = {"plies": ("plies", "Game length in plies (the dealer's actions included)."),
                "scores": ("score", "Every seat's final score, finished games."),
                "lead_changes": ("lead changes", "Lead changes a game."),
                "decisions": ("decisions", "Decisions (seats' actions) a game.")}
        parts.append("<h2>Distributions</h2><div class=\"grid2\">")
        for h in drawn:
            label, caption = what.get(h.metric, (h.metric, h.metric))
            parts.append(f"<figure>{histogram_chart(report, h.metric, label)}<figcaption>"
                         f"{esc(caption)}</figcaption></figure>")
        parts.append("</div>")
    still = [h.metric for h in report.histograms if not h.varies and h.edges]
    if still:
        parts.append(f'<p class="note">Not drawn (the same in every game): '
                     f"{esc(', '.join(still))}.</p>")
    parts.append("<h2>Seats and turn order</h2><div class=\"grid2\">")
    parts.append(f"<figure>{wins_chart(report)}<figcaption>Win rate by seat (first place, "
                 f"shared or not) with its 95% Wilson interval.</figcaption></figure>")
    if all(rs.turns for rs in report.rule_sets):
        parts.append(f"<figure>{wins_chart(report, 'turn')}<figcaption>Win rate by position "
                     "in the turn order (the first player is the first seat to move), with "
                     "its 95% Wilson interval.</figcaption></figure>")
    parts.append("</div>")
    rows = []
    for s in range(n):
        rows.append([f"p{s}", *[f"{_pct(rs.seats[s].win_rate)}; place "
                                f"{_fig_text(rs.seats[s].mean_rank)}"
                                for rs in report.rule_sets]])
    rows.append(["seat fairness", *[_fair(rs.fairness) for rs in report.rule_sets]])
    if all(rs.turns for rs in report.rule_sets):
        for s in range(n):
            rows.append([f"{POSITIONS[s]} player", *[
                f"{_pct(rs.turns[s].win_rate)}; place {_fig_text(rs.turns[s].mean_rank)}"
                for rs in report.rule_sets]])
        rows.append(["turn-order fairness", *[_fair(rs.turn_fairness)
                                              for rs in report.rule_sets]])
        rows.append(["moved first", *[", ".join(f"p{s} {x}" for s, x in enumerate(
            rs.first_seats)) for rs in report.rule_sets]])
    parts.append(_table(["", *[_label(r) for r in range(len(report.rules))]], rows))
    parts.append("<h2>Every metric per rule set</h2>")
    rows = [["games", *[f"{rs.games} ({rs.finished} finished, {rs.capped} capped)"
                        for rs in report.rule_sets], ""]]
    for info in report.metrics:
        rows.append([info.name, *[_fig_text(rs.metrics[info.name].mean, info.rate)
                                  for rs in report.rule_sets], info.meaning])
    parts.append(_table(["metric", *[_label(r) for r in range(len(report.rules))],
                         "meaning"], rows))
    parts.append('<p class="note">Means with 95% intervals (Student\'s t; Wilson\'s for '
                 "rates), in the CLI's number format; the unrounded figures are in the "
                 "JSON below.</p></main>")
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
