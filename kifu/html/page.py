"""Self-contained HTML pages: a replay viewer for one record, a sheet of puzzles.

Every position is computed here, at export time, by the game's engine; the page embeds them
as JSON (``<script type="application/json" id="kifu-data">``) and a small script shows one
ply at a time. The pictures' repeated pieces are stored once (:func:`pack`). CSS, script
and pictures are inline; a Content-Security-Policy of ``default-src 'none'`` (with the
page's own style and script allowed by their hashes) keeps the browser from loading
anything else.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Iterable
from html import escape
from typing import Any

from kifu.core.errors import KifuError
from kifu.core.game import State
from kifu.html import draw
from kifu.html.assets import CSS, PUZZLE_JS, REPLAY_JS
from kifu.html.svg import fit, line_chart
from kifu.notation.puzzle import Checked, LocatedPuzzle, check_puzzle
from kifu.notation.reader import Located
from kifu.notation.record import Record
from kifu.notation.replay import replay, setup_of
from kifu.notation.views import open_seats, seat_view

PRIVATE_TAGS = ("Seed",)
"""Headers left out of a seat's view: a seed expands to every hidden card of the game."""


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def _hash(source: str) -> str:
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def _json_script(obj: Any) -> str:
    """JSON that is safe inside a ``<script>`` element (no ``</script>``, no ``<!--``)."""
    data = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="kifu-data">{data}</script>'


def _document(title: str, body: str, script: str) -> str:
    csp = (f"default-src 'none'; style-src {_hash(CSS)}; script-src {_hash(script)}; "
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
    for i, (move, action) in enumerate(zip(rec.moves, actions, strict=True), 1):
        shown = draw.public_move(game.id, state, move.actor, move.text, seat)
        comment = move.comment if shown == move.text else None
        moves.append((i, move.actor, shown, comment))
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
    for i, actor, text, comment in moves:
        c = f'<span class="comment">{esc(comment)}</span>' if comment else ""
        full = ""
        if len(text) > FOLD:  # a deal: its first word here, the whole text folded below
            short = text.split(" ", 1)[0] + " …"
            full = (f'<details class="full"><summary>the whole action ({len(text)} '
                    f'characters)</summary><code>{esc(text)}</code></details>')
            text = short
        say = f"{actor} {text}" + (f", {comment}" if comment else "")
        items.append(
            f'<li><button type="button" data-ply="{i}" data-say="{esc(say)}">'
            f'<span class="n">{i}.</span><span class="actor">{esc(actor)}</span>'
            f"{esc(text)}{c}</button>{full}</li>"
        )
    chart = ""
    if score_line is not None and any(series):
        labels = [f"p{s}" + (f" {fit(names[s], 10)}" if s < len(names) and names[s] else "")
                  for s in range(setup.players)]
        chart = ('<div id="chart" class="chart">'
                 + line_chart(series, labels, title=f"{score_line[0]} over the game")
                 + "</div>")
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
{_json_script({"game": game.id, "seat": seat, "start": start, "pieces": pieces,
               "plies": packed})}"""
    return _document(title, body, REPLAY_JS)


def _ply(state: State, seat: int | None, draw_fn: Any,
         public: frozenset[int]) -> dict[str, str]:
    if seat is None:
        return {"line": state.to_line(), "svg": draw_fn(state, None), "text": state.render()}
    return {"line": seat_view(state, seat, public), "svg": draw_fn(state, seat), "text": ""}


# --- a puzzle sheet ----------------------------------------------------------------------

def puzzle_page(puzzles: Iterable[LocatedPuzzle], *, title: str = "Puzzles") -> str:
    """A sheet of puzzles (``kifu.notation.puzzle``): each one's position drawn, its
    question, and a button that reveals the answer, the line and the comment. Each puzzle
    is checked first (``check_puzzle``: a located error names the header at fault)."""
    articles = [_puzzle(k, check_puzzle(lp)) for k, lp in enumerate(puzzles, 1)]
    body = f"""<header><h1>{esc(title)}</h1>
<p class="sub">{len(articles)} puzzle(s). Work each one out, then reveal the answer.</p></header>
<main class="sheet">
{"".join(articles)}
</main>
<footer>Written by kifu html.</footer>"""
    return _document(title, body, PUZZLE_JS)


def _puzzle(k: int, checked: Checked) -> str:
    p, game, state = checked.puzzle, checked.game, checked.state
    picture = draw.drawer(game.id)(state, None)
    meta = " · ".join(esc(f"{name} {value}") for name, value in
                      (("difficulty", p.difficulty), ("source", p.source)) if value)
    line_html = ""
    if p.solution:
        steps = "".join(f"<li>{esc(step)}</li>" for step in p.solution)
        line_html = f"<p>Line:</p><ol>{steps}</ol>"
    comment = f'<p class="note">{esc(p.comment)}</p>' if p.comment else ""
    generic = "" if draw.has_drawer(game.id) else f"<pre>{esc(state.render())}</pre>"
    summary = getattr(checked.question, "summary", "")
    return f"""<article aria-labelledby="pz{k}-h">
<h2 id="pz{k}-h">Puzzle {k}: {esc(game.title)}</h2>
<p class="note">{meta}</p>
<div class="board">{picture}</div>
{generic}
<p class="posline">Position line:</p><code id="pz{k}-pos">{esc(p.position)}</code>
<p class="q" id="pz{k}-q">Question: {esc(p.question)}</p>
<p class="note">{esc(summary)}</p>
<button type="button" data-reveal="pz{k}-a" aria-expanded="false" aria-controls="pz{k}-a">\
Show the answer</button>
<div class="answer" id="pz{k}-a" hidden><p>Answer: <strong>{esc(p.answer or "not given")}\
</strong></p>{line_html}{comment}</div>
</article>"""
