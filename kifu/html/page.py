"""Self-contained HTML pages: a replay viewer for one record, a sheet of puzzles.

Every position is computed here, at export time, by the game's engine; the page embeds them
as JSON (``<script type="application/json" id="kifu-data">``) and a small script shows one
ply at a time. The pictures' repeated pieces are stored once (:func:`pack`). CSS, script
and pictures are inline; a Content-Security-Policy of ``default-src 'none'`` (with the
page's own style and script allowed by their hashes) keeps the browser from loading
anything else.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from html import escape
from typing import Any

from kifu.core.errors import KifuError
from kifu.core.game import State
from kifu.html import draw
from kifu.html.assets import CSS, PUZZLE_JS, REPLAY_JS, csp_hash, json_script
from kifu.html.svg import FONT, INK, MUTED, PALETTE, fit, line_chart
from kifu.html.words import answer_words, difficulty_words, question_words
from kifu.notation.annotation import (
    parse_best,
    parse_markby,
    parse_shares,
    parse_values,
    split_valued,
    without_tokens,
)
from kifu.notation.puzzle import Checked, LocatedPuzzle, check_puzzle, puzzle_themes
from kifu.notation.reader import Located
from kifu.notation.record import Record
from kifu.notation.replay import replay, setup_of
from kifu.notation.views import open_seats, seat_view
from kifu.puzzles import Budget

PRIVATE_TAGS = ("Seed",)
"""Headers left out of a seat's view: a seed expands to every hidden card of the game."""


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def _document(title: str, body: str, script: str) -> str:
    csp = (f"default-src 'none'; style-src {csp_hash(CSS)}; script-src {csp_hash(script)}; "
           "img-src data:; base-uri 'none'; form-action 'none'")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="kifu html">\n'
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n"
        f"<body>\n{body}\n<script>{script}</script>\n</body>\n</html>\n"
    )


_PIECE = re.compile(r'(<g role="img"[^>]*>.*?</g>)', re.S)
"""One drawn item (a card, a pile, a label): drawers never nest them."""


def pack(plies: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    """Share the pictures' repeated pieces: each ply's ``svg`` becomes a list of indexes
    into one list of distinct pieces (a card drawn on every ply is stored once). The page
    joins them back; :func:`unpack` does the same in Python."""
    index: dict[str, int] = {}
    packed = []
    for ply in plies:
        ids = [index.setdefault(piece, len(index)) for piece in _PIECE.split(ply["svg"])
               if piece]
        packed.append({**ply, "svg": ids})
    return list(index), packed


def unpack(data: dict[str, Any], ply: int) -> str:
    """The SVG of ``ply`` from a page's data (``pack`` reversed)."""
    pieces = data["pieces"]
    return "".join(pieces[i] for i in data["plies"][ply]["svg"])


def _headers_table(headers: dict[str, str]) -> str:
    rows = "".join(f"<tr><th scope=\"row\">{esc(k)}</th><td>{esc(v)}</td></tr>"
                   for k, v in headers.items())
    return f'<table class="headers">{rows}</table>'


# --- one record ------------------------------------------------------------------------

FOLD = 32
"""Action texts longer than this (a deal listing every card) are folded in the move list."""


def record_page(loc: Located | Record, *, seat: int | None = None, index: int = 1,
                ply: int | None = None) -> str:
    """The replay page of a record; ``seat`` shows only what that seat sees (its
    ``state.view(seat)``), with hidden dealer actions and the ``Seed`` header left out.
    The page opens at ``ply`` (a negative ply counts from the end; default: the final
    position)."""
    rec = loc.record if isinstance(loc, Located) else loc
    game, setup = setup_of(loc)
    if seat is not None and not 0 <= seat < setup.players:
        raise KifuError(f"there is no seat {seat} in a {setup.players}-player game")
    total = len(rec.moves)
    start = total if ply is None else (ply if ply >= 0 else total + 1 + ply)
    if not 0 <= start <= total:
        raise KifuError(f"--ply {ply}: the record has plies 0..{total} (or -1..-{total + 1} "
                        "from the end)")
    actions = replay(loc).actions  # checks every action, with located errors
    state = game.new_state(setup.players, setup.variant)
    public = open_seats(game, rec.players) if seat is not None else frozenset()
    names = rec.players
    draw_fn = draw.drawer(game.id, public, names)
    score_line = draw.score_line(game.id)
    series: list[list[float]] = [[] for _ in range(setup.players)]

    def keep_scores() -> None:
        if score_line is not None:
            for s, v in enumerate(score_line[1](state, seat)):
                series[s].append(v)

    plies = [_ply(state, seat, draw_fn, public)]
    keep_scores()
    moves = []
    choice: list[bool] = []  # per move: a player's decision with two legal actions or more
    for i, (move, action) in enumerate(zip(rec.moves, actions, strict=True), 1):
        mover = state.to_move
        choice.append(mover is not None and mover >= 0 and len(state.legal_actions()) > 1)
        shown = draw.public_move(game.id, state, move.actor, move.text, seat)
        comment = move.comment if shown == move.text else None
        moves.append((i, move.actor, shown, comment, move.mark if shown == move.text else None))
        state.push(action)
        plies.append(_ply(state, seat, draw_fn, public))
        keep_scores()

    headers = {k: v for k, v in rec.headers.items()
               if seat is None or k not in PRIVATE_TAGS}
    names = rec.players
    title = f"{game.title}: " + ", ".join(names) if names else game.title
    who = "the whole game" if seat is None else (
        f"as seat p{seat} ({names[seat]}) sees it" if seat < len(names) else f"as p{seat}")
    generic = not draw.has_drawer(game.id)
    pieces, packed = pack(plies)
    items = ['<li><button type="button" data-ply="0" data-say="start">'
             '<span class="n">0</span>start</button></li>']
    for i, actor, text, comment, mark in moves:
        verdict = _verdict(actor, text, comment, mark)
        words = _mark_words(mark, parse_markby(comment))
        comment = without_tokens(comment)
        c = f'<span class="comment">{esc(comment)}</span>' if comment else ""
        c += verdict
        m = (f'<span class="mark {MARK_CLASS.get(mark, "")}" title="{esc(words)}">'
             f"{esc(mark)}</span>") if mark else ""
        full = ""
        if len(text) > FOLD:  # a deal: its first word here, the whole text folded below
            short = text.split(" ", 1)[0] + " …"
            full = (f'<details class="full"><summary>the whole action ({len(text)} '
                    f'characters)</summary><code>{esc(text)}</code></details>')
            text = short
        say = (f"{actor} {text}" + (f" {mark} ({words})" if mark else "")
               + (f", {comment}" if comment else ""))
        items.append(
            f'<li><button type="button" data-ply="{i}" data-say="{esc(say)}">'
            f'<span class="n">{i}.</span><span class="actor">{esc(actor)}</span>'
            f"{esc(text)}{m}{c}</button>{full}</li>"
        )
    chart = ""
    if score_line is not None and any(series):
        labels = [f"p{s}" + (f" {fit(names[s], 10)}" if s < len(names) and names[s] else "")
                  for s in range(setup.players)]
        chart = ('<div id="chart" class="chart">'
                 + line_chart(series, labels, title=f"{score_line[0]} over the game")
                 + "</div>")
    values = (share_chart(rec, setup.players, names, choice) if seat is None else "") or \
        value_chart(game.id, rec, setup.players, names,
                    [m[4] for m in moves] if seat is not None else None)
    if values:  # an analysed record: its value chart under the picture, the score line folded
        chart = values + (f'<details class="chart-more"><summary>Score line</summary>{chart}'
                          "</details>" if chart else "")
    record_comment = (f'<p class="note">{esc(rec.comment)}</p>' if rec.comment else "")
    if seat is None:
        text_box = (f'<details id="textpic"{" open" if generic else ""}><summary>Text picture'
                    '</summary><pre id="text"></pre></details>')
    else:
        text_box = ""
    body = f"""<header>
<h1>{esc(title)}</h1>
<p class="sub">{esc(game.title)} · rules <code>{esc(rec.rules)}</code> · {total} plies · \
{esc(who)} · record #{index}</p>
</header>
<main class="layout">
<section class="stage" aria-label="Position">
<div id="board" class="board" aria-live="polite"></div>
<div class="controls" role="group" aria-label="Replay controls">
<button type="button" id="first" aria-label="First position (Home key)">« First</button>
<button type="button" id="prev" aria-label="Previous ply (left arrow)">‹ Prev</button>
<button type="button" id="next" aria-label="Next ply (right arrow)">Next ›</button>
<button type="button" id="last" aria-label="Last position (End key)">Last »</button>
<input type="range" id="slider" min="0" max="{total}" value="{start}" step="1" aria-label="Ply">
<span id="plyinfo" aria-live="polite"></span>
</div>
{chart}
<p class="posline">Position line{"" if seat is None else f" (p{seat}'s view)"}:</p>
<code id="position"></code>
{text_box}
</section>
<aside class="side" aria-label="Record">
<h2 id="moves-h">Moves</h2>
{record_comment}
<ol id="moves" aria-labelledby="moves-h">{"".join(items)}</ol>
<h2>Headers</h2>
{_headers_table(headers)}
</aside>
</main>
<footer>Written by kifu html. Keys: ← → step, Home / End jump; click a move to go there.\
</footer>
{json_script({"game": game.id, "seat": seat, "start": start, "pieces": pieces,
               "plies": packed})}"""
    return _document(title, body, REPLAY_JS)


MARK_WORDS = {"??": "a forced win thrown away", "?": "value lost",
              "!": "the only winning action", "!!": "brilliant", "!?": "interesting",
              "?!": "dubious"}
VALUE_MARK_WORDS = {"??": "blunder", "?": "mistake", "?!": "inaccuracy"}
"""The words of a mark the ``value`` judgement gave (``[%markby value]``)."""
MARK_CLASS = {"??": "mark-blunder", "?": "mark-mistake", "?!": "mark-dubious",
              "!": "mark-good", "!!": "mark-good", "!?": "mark-good"}
MARK_COLOUR = {"??": "#b91c1c", "?": "#ea580c", "?!": "#ca8a04", "!": "#15803d"}

VALUE = "value"
"""The judgement from the mover's information (``kifu analyze``; ``kifu.lab.analyze.VALUE``)."""


def _mark_words(mark: str | None, by: str | None) -> str:
    """A mark in words, with where it comes from (``[%markby Q]``)."""
    if not mark:
        return ""
    if by == VALUE and mark in VALUE_MARK_WORDS:
        return f"{VALUE_MARK_WORDS[mark]}: share lost, judged from the mover's information"
    words = MARK_WORDS.get(mark, mark)
    return f"{words} ({by}, every card known)" if by else words


def _verdict(actor: str, text: str, comment: str | None, mark: str | None) -> str:
    """The analysis of one move in the move list: each judgement's value before and after,
    and at a marked move the best actions the record names (``[%best ...]``) with their
    values next to the one played."""
    values = parse_values(comment)
    if not values:
        return ""
    best = parse_best(comment)
    out = []
    for v in values:
        if v.question == VALUE:
            line = (f'<span class="value">share (mover\'s view): {esc(v.value)} → '
                    f"{esc(v.played)}</span>")
        else:
            line = (f'<span class="value">{esc(v.question)}: {esc(v.value)} → '
                    f"{esc(v.played)}{esc(_zero_loss_words(v.question, v.value, v.played))}"
                    "</span>")
        out.append(line)
        if mark and v.question in best:
            acts, more = best[v.question]
            shown = []
            for a in acts:
                act, val = split_valued(a)
                shown.append(f"<b>{esc(act)}</b>" + (f" {val:.3f}" if val is not None else ""))
            extra = f" (+{more} more)" if more else ""
            played = (f"{esc(actor)} {esc(text)} {esc(v.played)}" if v.question == VALUE
                      else f"{esc(actor)} {esc(text)}: {esc(v.played)}")
            out.append(f'<span class="best">best {", ".join(shown)}{extra}; played '
                       f"{played}</span>")
    return "".join(out)


def _zero_loss_words(question: str, value: str, played: str) -> str:
    """The words of a worse answer that costs nothing in the question's unit (``kifu
    analyze`` gives it no mark: ``possible p=0 -> no``), as `` (words)``; else ``""``."""
    from kifu.lab.analyze import SCALES, ZERO_LOSS_NOTES

    name = question.split(" ", 1)[0]
    scale = SCALES.get(name)
    if scale is None or value == played:
        return ""
    try:
        worse = scale.key(played) < scale.key(value)
        same = scale.worth(played, 2) == scale.worth(value, 2)
    except (KifuError, ValueError, IndexError):
        return ""
    if not (worse and same):
        return ""
    return f" ({ZERO_LOSS_NOTES.get(name, 'a worse answer at no cost')})"


CHART_W, CHART_H = 640, 230
"""The size of the "who is winning" chart (SVG units; it scales to the column's width)."""


def share_chart(rec: Record, players: int, names: list[str], choice: list[bool]) -> str:
    """The "who is winning" chart of a record analysed with the ``value`` judgement: each
    seat's expected pairwise share (``[%shares ...]``: 1 = ahead of everyone, 0.5 = even,
    0 = behind all) at every judged decision, as the player to move sees it, drawn at the
    position it values (the one before the move); over the judged span only, a line broken
    where a decision with a choice was not judged. A dot per marked move (a click goes to
    it); a dashed marker follows the ply shown. Empty when the record holds no shares."""
    points: list[tuple[int, list[float]]] = []  # (position index, shares)
    for i, m in enumerate(rec.moves, 1):
        sh = parse_shares(m.comment)
        if sh is not None and len(sh) == players:
            points.append((i - 1, sh))
    if not points:
        return ""
    lo, hi = points[0][0], points[-1][0]
    left, right, top, bottom = 52, 12, 40, 40
    width, height = CHART_W, CHART_H
    plot_w, plot_h = width - left - right, height - top - bottom
    dx = plot_w / max(1, hi - lo)

    def x_of(p: int) -> float:
        return left + (p - lo) * dx

    def y_of(v: float) -> float:
        return top + plot_h * (1 - max(0.0, min(1.0, v)))

    def t(x: float, y: float, s: object, size: int = 11, fill: str = MUTED,
          anchor: str = "start", extra: str = "") -> str:
        return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{fill}" '
                f'text-anchor="{anchor}"{extra}>{esc(s)}</text>')

    title = "Who is winning: each seat's expected share, as the player to move sees it"
    body = [t(left, 14, title, 12, INK),
            f'<rect x="{left}" y="{top}" width="{plot_w:.1f}" height="{plot_h}" '
            'fill="#fafbfc" stroke="#d0d7de" stroke-width="0.6"/>']
    for v in (0, 0.25, 0.5, 0.75, 1):
        y = y_of(v)
        dash = "" if v in (0, 1) else ' stroke-dasharray="2 3"'
        body.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w:.1f}" y2="{y:.1f}" '
                    f'stroke="{"#8c959f" if v == 0.5 else "#d0d7de"}" stroke-width="0.6"{dash}/>')
        body.append(t(left - 5, y + 4, f"{v:g}", 10, anchor="end"))
    body.append(t(14, top + plot_h / 2, "expected share", 10, anchor="middle",
                  extra=f' transform="rotate(-90 14 {top + plot_h / 2:.1f})"'))
    body.append(t(left, 29, "1 = ahead of every other seat, 0.5 = even, 0 = behind all",
                  10))
    step = max(1, round((hi - lo) / 8))
    for p in range(lo, hi + 1, step):
        body.append(f'<line x1="{x_of(p):.1f}" y1="{top + plot_h}" x2="{x_of(p):.1f}" '
                    f'y2="{top + plot_h + 4}" stroke="#8c959f" stroke-width="0.6"/>')
        body.append(t(x_of(p), top + plot_h + 15, p, 10, anchor="middle"))
    body.append(t(left + plot_w / 2, height - 6, "ply (position before the judged move); "
                  "only the judged span is drawn", 10, anchor="middle"))
    # runs of points not separated by an unjudged decision with a choice
    runs: list[list[tuple[int, list[float]]]] = [[points[0]]]
    for prev, cur in itertools.pairwise(points):
        gap = any(choice[j] for j in range(prev[0] + 1, cur[0]))  # moves prev+2 .. cur
        if gap:
            runs.append([cur])
        else:
            runs[-1].append(cur)
    legend_x = width - right
    for k in reversed(range(players)):
        label = f"p{k}" + (f" {fit(names[k], 10)}" if k < len(names) and names[k] else "")
        legend_x -= 22 + 6.2 * len(label)
        body.append(f'<rect x="{legend_x:.1f}" y="24" width="12" height="3" '
                    f'fill="{PALETTE[k % len(PALETTE)]}"/>')
        body.append(t(legend_x + 15, 29, label, 10, INK))
    for k in range(players):
        colour = PALETTE[k % len(PALETTE)]
        label = f"p{k}" + (f" {names[k]}" if k < len(names) and names[k] else "")
        for run in runs:
            if len(run) == 1:
                p, sh = run[0]
                body.append(f'<circle cx="{x_of(p):.1f}" cy="{y_of(sh[k]):.1f}" r="1.8" '
                            f'fill="{colour}"><title>{esc(label)}: {sh[k]:g}</title></circle>')
                continue
            pts = " ".join(f"{x_of(p):.1f},{y_of(sh[k]):.1f}" for p, sh in run)
            body.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" '
                        f'stroke-width="2" stroke-linejoin="round"><title>{esc(label)}'
                        "</title></polyline>")
    for i, m in enumerate(rec.moves, 1):
        sh = parse_shares(m.comment)
        if m.mark in MARK_COLOUR and sh is not None and m.actor.startswith("p"):
            s = int(m.actor[1:])
            if s < players:
                words = _mark_words(m.mark, parse_markby(m.comment))
                body.append(
                    f'<circle cx="{x_of(i - 1):.1f}" cy="{y_of(sh[s]):.1f}" r="4.5" '
                    f'fill="{MARK_COLOUR[m.mark]}" stroke="#fff" stroke-width="1.2" '
                    f'data-ply="{i}"><title>ply {i}: {esc(m.actor)} {esc(m.text)} {m.mark} '
                    f"({esc(words)})</title></circle>")
    body.append(f'<line id="value-marker" class="chart-marker" x1="{left}" y1="{top}" '
                f'x2="{left}" y2="{top + plot_h}" stroke="{INK}" stroke-width="1" '
                f'stroke-dasharray="3 2" data-x0="{left - lo * dx:.4f}" data-dx="{dx:.4f}" '
                f'data-lo="{lo}" data-hi="{hi}"/>')
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="100%" role="group" aria-label="{esc(title)}" font-family="{esc(FONT)}">'
           + "".join(body) + "</svg>")
    return f'<div id="value-chart" class="chart share-chart">{svg}</div>'


def value_chart(game_id: str, rec: Record, players: int, names: list[str],
                shown_marks: list[str | None] | None = None) -> str:
    """The chart of an analysed record (``kifu analyze -o``): for one question (the game's
    first that was judged), each seat's value at its judged plies (the position's value for
    the player to move, in the question's unit; held flat between them), a dot per marked
    ply; a click on it goes to that ply. Empty when the record holds no ``[%value]``."""
    from kifu.lab.analyze import DEFAULT_QUESTIONS, SCALES

    per_ply: list[dict[str, str]] = [{} for _ in range(len(rec.moves) + 1)]
    seen: list[str] = []
    for i, m in enumerate(rec.moves, 1):
        for v in parse_values(m.comment):
            per_ply[i][v.question] = v.value
            if v.question not in seen:
                seen.append(v.question)
    if not seen:
        return ""
    order = [q for q in DEFAULT_QUESTIONS.get(game_id, ()) if q in seen] + seen
    question = order[0]
    scale = SCALES.get(question.split(" ", 1)[0])
    if scale is None:
        return ""
    total = len(rec.moves)
    raw: list[list[float | None]] = [[None] * (total + 1) for _ in range(players)]
    for i, m in enumerate(rec.moves, 1):
        value = per_ply[i].get(question)
        if value is None or not m.actor.startswith("p"):
            continue
        s = int(m.actor[1:])
        if s < players:  # drawn at ply i, the move judged (the value of the position
            raw[s][i] = scale.worth(value, players)  # before it, for its player)
    series: list[list[float]] = []
    for s in range(players):
        known = [v for v in raw[s] if v is not None]
        if not known:
            series.append([])
            continue
        line, last = [], known[0]
        for v in raw[s]:
            last = v if v is not None else last
            line.append(last)
        series.append(line)
    dots = []
    for i, m in enumerate(rec.moves, 1):
        mark = m.mark if shown_marks is None else shown_marks[i - 1]
        if mark in MARK_COLOUR and m.actor.startswith("p") and int(m.actor[1:]) < players:
            dots.append((int(m.actor[1:]), i, MARK_COLOUR[mark],
                         f"ply {i}: {m.actor} {m.text} {mark} ({MARK_WORDS[mark]})"))
    labels = [f"p{s}" + (f" {fit(names[s], 10)}" if s < len(names) and names[s] else "")
              for s in range(players)]
    title = f"value to the mover: {question} ({scale.unit})"
    return ('<div id="value-chart" class="chart">'
            + line_chart(series, labels, title=title, marker_id="value-marker", dots=dots)
            + "</div>")


def _ply(state: State, seat: int | None, draw_fn: Any,
         public: frozenset[int]) -> dict[str, str]:
    if seat is None:
        return {"line": state.to_line(), "svg": draw_fn(state, None), "text": state.render()}
    return {"line": seat_view(state, seat, public), "svg": draw_fn(state, seat), "text": ""}


# --- a puzzle sheet ----------------------------------------------------------------------

BUTTONS = 48
"""Up to this many legal first actions, a puzzle shows one button each; past it, a list."""
PAGE_BUDGET = 2_000_000
"""Nodes the page may search per puzzle for the values of its first actions."""


def puzzle_page(puzzles: Iterable[LocatedPuzzle], *, title: str = "Puzzles") -> str:
    """A sheet of puzzles (``kifu.notation.puzzle``) to solve: each one's position drawn, its
    question in plain words, its difficulty in words and its themes, the legal first
    actions as buttons (a click says right or wrong, then shows the line and the value of
    every first action), and a button that reveals the answer. Each puzzle is checked
    first (``check_puzzle``: a located error names the header at fault) and solved for the
    values of its first actions."""
    data: dict[str, Any] = {}
    articles = []
    for k, lp in enumerate(puzzles, 1):
        html, item = _puzzle(k, check_puzzle(lp))
        articles.append(html)
        if item is not None:
            data[str(k)] = item
    body = f"""<header><h1>{esc(title)}</h1>
<p class="sub">{len(articles)} puzzle(s). Choose a first action to try it, or reveal the \
answer.</p></header>
<main class="sheet">
{"".join(articles)}
</main>
<footer>Written by kifu html.</footer>
{json_script({"puzzles": data})}"""
    return _document(title, body, PUZZLE_JS)


def _puzzle(k: int, checked: Checked) -> tuple[str, dict[str, Any] | None]:
    p, game, state = checked.puzzle, checked.game, checked.state
    picture = draw.drawer(game.id)(state, None)
    words = question_words(game.id, p.question, state)
    level = difficulty_words(p.difficulty)
    source = f'<p class="note">Source: {esc(p.source)}</p>' if p.source else ""
    themes = puzzle_themes(p)
    chips = ("<ul class=\"themes\" aria-label=\"Themes\">"
             + "".join(f"<li>{esc(t)}</li>" for t in themes) + "</ul>") if themes else ""
    line_html = ""
    if p.solution:
        steps = "".join(f"<li>{esc(step)}</li>" for step in p.solution)
        line_html = f"<p>Line:</p><ol>{steps}</ol>"
    comment = f'<p class="note">{esc(p.comment)}</p>' if p.comment else ""
    generic = "" if draw.has_drawer(game.id) else f"<pre>{esc(state.render())}</pre>"
    sol = checked.question.solve(state.copy(), Budget(nodes=PAGE_BUDGET))
    choices, values_html, item = "", "", None
    if sol.complete and sol.values:
        answer = sol.answer
        item = {"answer": answer, "values": [[v.action, v.value] for v in sol.values],
                "words": [answer_words(p.question, v.value) for v in sol.values],
                "line": p.solution or sol.line}
        prefix = f"{sol.values[0].action.split(' ', 1)[0]} "
        if len(sol.values) <= BUTTONS:
            buttons = "".join(
                f'<button type="button" class="choice" data-pz="{k}" data-act="{i}">'
                f"{esc(v.action.removeprefix(prefix))}</button>"
                for i, v in enumerate(sol.values))
            choices = (f'<div class="choices" role="group" aria-label="First actions of '
                       f'{esc(prefix.strip())}">{buttons}</div>')
        else:
            options = "".join(f'<option value="{i}">{esc(v.action.removeprefix(prefix))}'
                              "</option>" for i, v in enumerate(sol.values))
            choices = (f'<div class="choices"><label for="pz{k}-sel">{len(sol.values)} first '
                       f'actions:</label> <select id="pz{k}-sel" size="6">{options}</select> '
                       f'<button type="button" class="choice" data-pz="{k}" data-pick="pz{k}-sel">'
                       "Play it</button></div>")
        win = ' class="win"'
        rows = "".join(
            f'<tr data-act="{i}"{win if v.value == answer else ""}>'
            f"<td>{esc(v.action)}</td><td>{esc(answer_words(p.question, v.value))}"
            f' <code class="exact">{esc(v.value)}</code></td></tr>'
            for i, v in enumerate(sol.values))
        values_html = (f'<table class="values"><caption>Every first action'
                       f"</caption>{rows}</table>")
    stated = p.answer or (sol.answer if sol.complete else "not given")
    said = (f'<p class="words">In words: {esc(answer_words(p.question, stated))}</p>'
            if stated != "not given" else "")
    html = f"""<article aria-labelledby="pz{k}-h" id="pz{k}">
<h2 id="pz{k}-h">Puzzle {k}: {esc(game.title)}</h2>
<p class="q" id="pz{k}-q">{esc(words)}</p>
{f'<p class="level">Difficulty: {esc(level)}</p>' if level else ""}
{chips}
<div class="board">{picture}</div>
{generic}
{choices}
<p class="feedback" id="pz{k}-fb" aria-live="polite" hidden></p>
<button type="button" data-reveal="pz{k}-a" aria-expanded="false" aria-controls="pz{k}-a">\
Show the answer</button>
<div class="answer" id="pz{k}-a" hidden><p>Answer: <strong>{esc(stated)}</strong> \
<span class="note">({esc(p.question)})</span></p>{said}{line_html}{values_html}{comment}</div>
<details class="pos"><summary>Position line</summary><code id="pz{k}-pos">\
{esc(p.position)}</code></details>
{source}
</article>"""
    return html, item
