"""The puzzle trainer (``kifu html --trainer``): a series of puzzles solved by clicking the
cards on the board, as lichess's puzzle trainer is played on the board.

Everything is computed here, at export time, by the game's engine and the question's
solver; the page's script only shows it. Per puzzle:

- the **steps** of its line: at each step the position's picture (pieces shared across the
  page, as the replay viewer's), whose move it is, and, at the solver's own steps, every
  legal action with its value in words and whether it keeps the answer. The solver's first
  step has exactly the winning first actions of the question; a later step of the line
  accepts the actions the question values at the position's answer (solved again there),
  or only the line's action where the question no longer applies. The defence's replies
  and the dealer's draws are played for the solver;
- which **card of the picture** each action is played with: the cards of the mover's hand
  are the pieces of the picture that the mover's own view shows and another seat's view
  hides; an action's card is the first card token its text names (``O4`` of ``O4xO2Y2``,
  ``Y1`` of ``Y1g``, ``D5`` of ``day D5``), looked for in the hand first, then anywhere in
  the picture. A card with one action plays it on a click; a card with several (a capture
  or a placement, a colour or a grey side) asks which, in words. Actions with no card
  (``pass``, ``drink``) are buttons in words;
- **hints**: the themes that say what it is about, then the card to play, outlined;
- the answer and every value **in words** (:mod:`kifu.notation.wording`), never the target on a
  wrong click: a wrong click says what that action gives, not what the right one does.

The score, the streak and each puzzle's result are kept in the browser's ``localStorage``
(per page, keyed by the puzzles' ids); the page loads nothing (a Content-Security-Policy
of ``default-src 'none'``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from html import escape
from typing import Any

from kifu.core.game import Game, State, actor_name
from kifu.html import draw
from kifu.html.assets import csp_hash, json_script
from kifu.html.words import question_words
from kifu.lab.rating import rating_of
from kifu.lab.variety import motifs
from kifu.notation.puzzle import Checked, LocatedPuzzle, Puzzle, check_puzzle, puzzle_themes
from kifu.notation.wording import action_words, answer_words
from kifu.puzzles import Budget

PAGE_BUDGET = 2_000_000
"""Nodes the page may search per position of a line."""

_PIECE = re.compile(r'(<g role="img"[^>]*>.*?</g>)', re.S)
_LABEL = re.compile(r'<g role="img" aria-label="([^"]*)"')


def esc(value: object) -> str:
    return escape(str(value), quote=True)


def puzzle_id(p: Puzzle) -> str:
    """A short stable id of a puzzle (its game, position and question), for the score
    kept in the browser."""
    h = hashlib.sha256(f"{p.game}\n{p.position}\n{p.question}".encode()).hexdigest()
    return h[:12]


def _pieces(svg: str) -> list[str]:
    return [x for x in _PIECE.split(svg) if x]


def _token(label: str) -> str:
    import html as h

    return h.unescape(label).split(":", 1)[0].strip()


def hand_pieces(game: Game, state: State) -> set[int]:
    """Ordinals (among the picture's labelled pieces) of the cards in the mover's hand:
    shown in the mover's view, hidden in another seat's."""
    fn = draw.drawer(game.id)
    full = [x for x in _pieces(fn(state, None)) if x.startswith('<g role="img"')]
    mover = state.to_move
    if mover is None or mover < 0 or state.n < 2:
        return set()
    own = set(_pieces(fn(state, mover)))
    other = set(_pieces(fn(state, (mover + 1) % state.n)))
    return {i for i, x in enumerate(full) if x in own and x not in other}


def card_of(text: str, tokens: dict[str, list[int]], hand: set[int]) -> int | None:
    """The ordinal of the piece an action is played with: the first card token its text
    names (at the start, or after a space, ``+`` or ``,``), the longest token first; a
    piece in the hand first."""
    names = sorted(tokens, key=len, reverse=True)
    for i in range(len(text)):
        if i and text[i - 1] not in " +,":
            continue
        for tok in names:
            if tok and text.startswith(tok, i):
                where = tokens[tok]
                mine = [o for o in where if o in hand]
                return (mine or where)[0]
    return None


def _step_choices(game: Game, state: State, question: Any, line_text: str, first: bool,
                  answer: str | None, sol_values: list[tuple[str, str]] | None
                  ) -> dict[str, Any]:
    """The solver's choices at one step: every legal action (text, words, whether it keeps
    the answer, its value in words), the piece each is played with, and the hint."""
    legal = [game.format_action(state, a) for a in state.legal_actions()]
    values: dict[str, str] = {}
    target = None
    if first and sol_values is not None:
        values = {a.split(" ", 1)[1]: v for a, v in sol_values}
        target = answer
    elif question.applies(state) is None:
        s = question.solve(state.copy(), Budget(nodes=PAGE_BUDGET))
        if s.complete:
            values = {v.action.split(" ", 1)[1]: v.value for v in s.values}
            target = s.answer
    spec = question.spec
    opts = []
    for t in legal:
        v = values.get(t)
        ok = (v == target) if (target is not None and v is not None) else (t == line_text)
        opts.append([t, action_words(game.id, t), int(ok),
                     answer_words(spec, v) if v is not None else ""])
    svg_pieces = [x for x in _pieces(draw.drawer(game.id)(state, None))
                  if x.startswith('<g role="img"')]
    tokens: dict[str, list[int]] = {}
    for i, x in enumerate(svg_pieces):
        m = _LABEL.match(x)
        if m:
            tokens.setdefault(_token(m.group(1)), []).append(i)
    hand = hand_pieces(game, state)
    picks: dict[int, list[int]] = {}
    free: list[int] = []
    for k, (t, *_rest) in enumerate(opts):
        o = card_of(t, tokens, hand)
        if o is None:
            free.append(k)
        else:
            picks.setdefault(o, []).append(k)
    hint = -1
    for o, ks in picks.items():
        if any(opts[k][0] == line_text for k in ks):
            hint = o
    return {"opts": opts, "picks": [[o, ks] for o, ks in sorted(picks.items())],
            "free": free, "hint": hint}


def trainer_item(checked: Checked) -> dict[str, Any] | None:
    """One puzzle of the trainer: None when its search does not finish in the page's
    budget (it cannot be graded), ``{}`` when there is nothing to find (every first action
    reaches the answer, or there is no line)."""
    p, game, state, question = (checked.puzzle, checked.game, checked.state,
                                checked.question)
    sol = question.solve(state.copy(), Budget(nodes=PAGE_BUDGET))
    if not sol.complete or not sol.values or state.to_move is None or state.to_move < 0:
        return None
    line = p.solution or sol.line
    if not line or sol.winning == len(sol.values):
        return {}  # nothing to find: every first action reaches the answer
    solver = actor_name(state.to_move)
    fn = draw.drawer(game.id)
    st = state.copy()
    steps: list[dict[str, Any]] = []
    values = [(v.action, v.value) for v in sol.values]
    for i, item in enumerate(line):
        actor, _, text = item.partition(" ")
        step: dict[str, Any] = {"svg": fn(st, None), "actor": actor, "act": text,
                                "words": action_words(game.id, text),
                                "user": actor == solver}
        if actor == solver:
            step.update(_step_choices(game, st, question, text, i == 0, sol.answer, values))
        steps.append(step)
        try:
            st.apply(game.parse_action(st, text))
        except Exception:  # a line the stored puzzle states but this engine refuses
            break
    steps.append({"svg": fn(st, None), "actor": "", "act": "", "words": "", "user": False})
    if not steps[0].get("user"):
        return None
    themes = puzzle_themes(p)
    rating = rating_of(p.tags)
    return {
        "id": puzzle_id(p), "game": game.id, "title": game.title,
        "q": question_words(game.id, p.question, state),
        "rating": round(rating) if rating is not None else None,
        "themes": themes, "motifs": motifs(p) or [t for t in themes if t != question.name][:3],
        "answer": answer_words(p.question, sol.answer), "winning": sol.winning,
        "legal": len(sol.values), "solver": solver, "steps": steps,
    }


def pack_steps(items: list[dict[str, Any]]) -> list[str]:
    """Share the pictures' pieces across the page: each step's ``svg`` becomes a list of
    indexes into the returned list (as :func:`kifu.html.page.pack`)."""
    index: dict[str, int] = {}
    for it in items:
        for step in it["steps"]:
            step["svg"] = [index.setdefault(x, len(index)) for x in _pieces(step["svg"])]
    return list(index)


def select(puzzles: Iterable[LocatedPuzzle], spec: str | None) -> list[LocatedPuzzle]:
    """The puzzles a ``--select`` spec keeps: comma-separated ``theme=T``, ``game=G``,
    ``min=R``, ``max=R`` (rating), ``count=N`` (the first N after the others)."""
    from kifu.core.errors import KifuError

    want: dict[str, str] = {}
    for part in (spec or "").split(","):
        if not part.strip():
            continue
        key, eq, value = part.strip().partition("=")
        if not eq or key not in ("theme", "game", "min", "max", "count"):
            raise KifuError(f"--select: {part.strip()!r} is not theme=T, game=G, min=R, "
                            "max=R or count=N")
        want[key] = value
    try:
        low = float(want["min"]) if "min" in want else None
        high = float(want["max"]) if "max" in want else None
        count = int(want["count"]) if "count" in want else None
    except ValueError as e:
        raise KifuError(f"--select: not a number ({e})") from None
    game_id = None
    if "game" in want:
        from kifu import games

        game_id = games.get(want["game"]).id  # an alias (setup) names its game
    out = []
    for lp in puzzles:
        p = lp.puzzle
        if "theme" in want and want["theme"] not in puzzle_themes(p):
            continue
        if game_id is not None and p.game != game_id:
            continue
        r = rating_of(p.tags)
        if (low is not None or high is not None) and r is None:
            continue
        if low is not None and r is not None and r < low:
            continue
        if high is not None and r is not None and r > high:
            continue
        out.append(lp)
        if count is not None and len(out) >= count:
            break
    return out


def trainer_page(puzzles: Iterable[LocatedPuzzle], *, title: str = "Puzzle trainer") -> str:
    """The trainer page of ``puzzles`` (each checked first: a located error names the header
    at fault), easiest first (by ``Rating``; unrated ones at 1500)."""
    items = []
    unsolved = trivial = 0
    for lp in puzzles:
        it = trainer_item(check_puzzle(lp))
        if it is None:
            unsolved += 1
        elif not it:
            trivial += 1
        else:
            items.append(it)
    items.sort(key=lambda it: (it["rating"] if it["rating"] is not None else 1500))
    pieces = pack_steps(items)
    themes = sorted({t for it in items for t in it["motifs"]})
    options = "".join(f'<option value="{esc(t)}">{esc(t)}</option>' for t in themes)
    games_seen = sorted({it["title"] for it in items})
    key = hashlib.sha256("\n".join(it["id"] for it in items).encode()).hexdigest()[:12]
    why = ([f"{unsolved} whose search did not finish in the page's budget"] if unsolved
           else []) + ([f"{trivial} where every first action reaches the answer"]
                       if trivial else [])
    note = f" ({' and '.join(why)} left out)" if why else ""
    body = f"""<header class="bar">
<h1>{esc(title)}</h1>
<p class="sub">{len(items)} puzzle(s){esc(note)}: {esc(", ".join(games_seen))}. Click a card \
of your hand to play it.</p>
<div class="stats" aria-live="polite"><span>Score <b id="score">0</b></span>\
<span>Streak <b id="streak">0</b></span><span>Best <b id="best">0</b></span>\
<span id="count"></span></div>
<label class="pick-theme">Theme <select id="theme"><option value="">all</option>{options}\
</select></label>
<label class="pick-theme">Level <select id="level"><option value="">all</option>\
<option value="0-1299">easy (below 1300)</option><option value="1300-1599">medium \
(1300-1599)</option><option value="1600-9999">hard (1600 and up)</option></select></label>
</header>
<main class="trainer">
<section class="stage" aria-label="Board">
<div id="board" class="board"></div>
<div class="steps" role="group" aria-label="Step through the line">
<button type="button" id="back" aria-label="Previous step (left arrow)" disabled>‹</button>
<span id="stepinfo"></span>
<button type="button" id="fwd" aria-label="Next step (right arrow)" disabled>›</button>
</div>
</section>
<aside class="panel" aria-label="Puzzle">
<p class="meta" id="meta"></p>
<p class="q" id="question"></p>
<div id="options" class="options" role="group" aria-label="Choices" hidden></div>
<div id="free" class="options" role="group" aria-label="Actions without a card"></div>
<p id="feedback" class="feedback" aria-live="polite"></p>
<p id="hinttext" class="hinttext" hidden></p>
<div class="buttons">
<button type="button" id="hint">Hint (h)</button>
<button type="button" id="show">Show the solution</button>
<button type="button" id="next">Next puzzle (n)</button>
</div>
</aside>
</main>
<footer>Written by kifu html --trainer. Click (or tap) a card of your hand; Tab and Enter \
work too. Keys: h hint, n next, ← → step through a solved line. Your score stays in this \
browser only.</footer>
{json_script({"key": key, "pieces": pieces, "puzzles": items})}"""
    return document(title, body)


CSS = """
:root { --ink:#1f2328; --muted:#57606a; --line:#d0d7de; --accent:#0b57d0; --ok:#15803d;
  --bad:#b91c1c; --soft:#f6f8fa; }
* { box-sizing: border-box; }
[hidden] { display:none !important; }
html, body { margin:0; }
body { font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans",
  sans-serif; color: var(--ink); background:#fff; }
.bar { display:flex; flex-wrap:wrap; align-items:center; gap:4px 16px; padding:6px 12px;
  border-bottom:1px solid var(--line); }
h1 { font-size:1.1rem; margin:0; max-width:100%; overflow:hidden; text-overflow:ellipsis;
  white-space:nowrap; }
.sub { color:var(--muted); margin:0; font-size:.85rem; flex:1 1 260px; }
.stats { display:flex; gap:12px; font-size:.9rem; }
.stats b { font-size:1.05rem; }
.trainer { display:grid; grid-template-columns: minmax(0, 1fr) 330px; gap:12px;
  padding:8px 12px; max-width:1280px; margin:0 auto; }
.board svg { width:100%; height:auto; max-height:calc(100vh - 210px); display:block; }
.steps { display:flex; align-items:center; justify-content:center; gap:10px; margin:4px 0; }
.steps button { min-width:44px; }
.panel { font-size:.95rem; }
.meta { color:var(--muted); margin:0 0 4px; font-size:.85rem; }
.q { font-weight:600; margin:0 0 8px; }
button { font:inherit; padding:8px 12px; min-height:40px; border:1px solid var(--line);
  border-radius:8px; background:var(--soft); color:var(--ink); cursor:pointer; }
button:focus-visible, g.pick:focus-visible { outline:3px solid var(--accent);
  outline-offset:2px; }
button:disabled { opacity:.45; cursor:default; }
.options { display:flex; flex-wrap:wrap; gap:6px; margin:6px 0; }
.options p { margin:0; width:100%; font-size:.9rem; color:var(--muted); }
#options { max-height:38vh; overflow-y:auto; }
.buttons { display:flex; flex-wrap:wrap; gap:6px; margin-top:8px; }
.feedback { min-height:1.4em; margin:6px 0; }
.feedback.right { color:var(--ok); font-weight:600; }
.feedback.wrong { color:var(--bad); font-weight:600; }
.hinttext { background:#fff8db; border:1px solid #f0d675; border-radius:6px; padding:6px 8px; }
g.pick { cursor:pointer; }
g.pick:hover > rect:first-of-type, g.pick.sel > rect:first-of-type { stroke:#0b57d0;
  stroke-width:3; }
g.pick.hinted > rect:first-of-type { stroke:#f59e0b; stroke-width:5; }
g.pick.bad > rect:first-of-type { stroke:#b91c1c; stroke-width:4; }
.pick-theme select { font:inherit; padding:4px; }
footer { color:var(--muted); font-size:.8rem; padding:6px 12px; max-width:1280px;
  margin:0 auto; }
@media (max-width: 760px) {
  .trainer { grid-template-columns: 1fr; padding:6px; gap:4px; }
  .board svg { max-height:48vh; }
  .sub { display:none; }
  h1 { font-size:.95rem; }
  .bar { padding:4px 6px; }
  footer { display:none; }
  button { padding:8px 10px; }
}
"""

JS = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("kifu-data").textContent);
  var pieces = data.pieces, all = data.puzzles, KEY = "kifu-trainer:" + data.key;
  var store = { score: 0, streak: 0, best: 0, done: {} };
  try { var s = JSON.parse(localStorage.getItem(KEY) || "null"); if (s) { store = s; } }
  catch (e) { /* no storage: the score lasts this visit only */ }
  function save() { try { localStorage.setItem(KEY, JSON.stringify(store)); } catch (e) {} }
  var $ = function (id) { return document.getElementById(id); };
  var list = all.slice(), at = 0, pz = null, step = 0, view = 0, state = "";
  var clean = true, hints = 0, timer = null;
  function stats() {
    $("score").textContent = store.score; $("streak").textContent = store.streak;
    $("best").textContent = store.best;
    $("count").textContent = list.length ? "Puzzle " + (at + 1) + " of " + list.length : "";
  }
  function svgOf(k) { return pz.steps[k].svg.map(function (i) { return pieces[i]; }).join(""); }
  function say(text, cls) {
    var f = $("feedback"); f.textContent = text; f.className = "feedback " + (cls || "");
  }
  function draw(k, live) {
    view = k;
    $("board").innerHTML = svgOf(k);
    var st = pz.steps[k];
    $("stepinfo").textContent = "step " + k + " of " + (pz.steps.length - 1);
    $("back").disabled = live || k === 0;
    $("fwd").disabled = live || k >= pz.steps.length - 1;
    if (!live || !st.user) { return; }
    var gs = $("board").querySelectorAll('g[role="img"]');
    st.picks.forEach(function (pk) {
      var g = gs[pk[0]]; if (!g) { return; }
      g.setAttribute("role", "button"); g.setAttribute("tabindex", "0");
      g.classList.add("pick"); g.setAttribute("data-pick", String(pk[0]));
      var name = g.getAttribute("aria-label") || "";
      g.setAttribute("aria-label", "Play " + name);
      g.addEventListener("click", function () { choose(pk[1], g); });
      g.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(pk[1], g); }
      });
    });
    var free = $("free"); free.innerHTML = "";
    st.free.forEach(function (k2) {
      var b = document.createElement("button"); b.type = "button";
      b.textContent = cap(st.opts[k2][1]); b.setAttribute("data-opt", String(k2));
      b.addEventListener("click", function () { play(k2, null); });
      free.appendChild(b);
    });
  }
  function cap(t) { return t.charAt(0).toUpperCase() + t.slice(1); }
  function choose(ks, g) {
    if (state !== "play") { return; }
    var sel = $("board").querySelectorAll("g.pick.sel");
    Array.prototype.forEach.call(sel, function (x) { x.classList.remove("sel"); });
    var box = $("options");
    if (ks.length === 1) { box.hidden = true; play(ks[0], g); return; }
    g.classList.add("sel");
    var st = pz.steps[step];
    box.innerHTML = "<p>This card can be played " + ks.length + " ways:</p>";
    ks.forEach(function (k2) {
      var b = document.createElement("button"); b.type = "button";
      b.textContent = cap(st.opts[k2][1]); b.setAttribute("data-opt", String(k2));
      b.addEventListener("click", function () { play(k2, g); });
      box.appendChild(b);
    });
    box.hidden = false;
    box.querySelector("button").focus();
  }
  function play(k2, g) {
    if (state !== "play") { return; }
    var st = pz.steps[step], o = st.opts[k2];
    $("options").hidden = true;
    if (!o[2]) {
      clean = false;
      say("Not this one: " + o[1] + (o[3] ? " gives " + o[3] : " leaves the line") +
          ". Try again.", "wrong");
      document.body.setAttribute("data-result", "wrong");
      if (g) {
        g.classList.add("bad");
        setTimeout(function () { g.classList.remove("bad"); }, 900);
      }
      if (store.streak) { store.streak = 0; save(); stats(); }
      return;
    }
    var other = o[0] !== st.act;
    say(other ? "That works too; the main line plays " + st.words + ". "
      : "Right: " + o[1] + ". ", "right");
    advance();
  }
  function advance() {
    step += 1; draw(step, true);
    var st = pz.steps[step];
    if (step >= pz.steps.length - 1) { return finish(true); }
    if (st.user) {
      state = "play"; $("feedback").textContent += " Your move again."; return;
    }
    state = "auto";
    timer = setTimeout(function () {
      say((st.actor === "d" ? "The dealer: " : st.actor + " replies: ") + st.words + ".", "");
      advance();
    }, 650);
  }
  function finish(solved) {
    state = "done"; draw(step, false);
    var prior = store.done[pz.id];
    if (solved && !prior) {
      store.done[pz.id] = clean && !hints ? "clean" : "helped";
      if (clean && !hints) { store.score += 1; store.streak += 1;
        if (store.streak > store.best) { store.best = store.streak; } }
      else { store.streak = 0; }
      save();
    }
    stats();
    document.body.setAttribute("data-result", solved ? "solved" : "shown");
    var f = $("feedback");
    var head = solved ? (clean && !hints ? "Solved! " : "Solved, with help. ")
      : "The solution: ";
    f.textContent = head + "The answer: " + pz.answer + ".";
    f.className = "feedback right";
    $("next").focus();
  }
  function load(i) {
    clearTimeout(timer);
    at = i; pz = list[i]; step = 0; clean = true; hints = 0; state = "play";
    $("options").hidden = true; $("hinttext").hidden = true; say("", "");
    document.body.setAttribute("data-result", "");
    document.body.setAttribute("data-puzzle", pz.id);
    $("question").textContent = pz.q;
    var done = store.done[pz.id];
    $("meta").textContent = pz.title + (pz.rating !== null ? " · rating " + pz.rating : "") +
      (done ? " · done before (" + done + ")" : "");
    draw(0, true); stats();
  }
  function hint() {
    if (state !== "play") { return; }
    hints += 1;
    var st = pz.steps[step], h = $("hinttext");
    if (hints === 1) {
      h.textContent = "Think about: " + (pz.motifs.length ? pz.motifs.join(", ") : "your cards") +
        ". " + pz.winning + " of " + pz.legal + " first actions work.";
    } else {
      var g = $("board").querySelector('g.pick[data-pick="' + st.hint + '"]');
      if (g) { g.classList.add("hinted"); h.textContent = "Play this card (outlined)."; }
      else { h.textContent = "Play: " + st.words + "."; }
    }
    h.hidden = false;
  }
  function show() {
    if (state === "done") { return; }
    clearTimeout(timer); clean = false;
    if (store.streak) { store.streak = 0; save(); }
    step = pz.steps.length - 1; finish(false);
    var line = pz.steps.slice(0, -1).map(function (s) { return s.actor + " " + s.words; });
    say("The line: " + line.join("; ") + ". The answer: " + pz.answer + ".", "");
  }
  function next() {
    if (!list.length) { return; }
    var i = (at + 1) % list.length;
    for (var n = 0; n < list.length && store.done[list[i].id]; n++) { i = (i + 1) % list.length; }
    load(i);
  }
  $("hint").addEventListener("click", hint);
  $("show").addEventListener("click", show);
  $("next").addEventListener("click", next);
  $("back").addEventListener("click", function () { if (view > 0) { draw(view - 1, false); } });
  $("fwd").addEventListener("click", function () {
    if (view < pz.steps.length - 1) { draw(view + 1, false); }
  });
  function refilter() {
    var t = $("theme").value, lv = $("level").value.split("-").map(Number);
    list = all.filter(function (p) {
      var r = p.rating === null ? 1500 : p.rating;
      return (!t || p.motifs.indexOf(t) >= 0 || p.themes.indexOf(t) >= 0) &&
        (lv.length < 2 || (r >= lv[0] && r <= lv[1]));
    });
    if (list.length) { load(0); }
    else { say("No puzzle of this theme at this level.", ""); stats(); }
  }
  $("theme").addEventListener("change", refilter);
  $("level").addEventListener("change", refilter);
  document.addEventListener("keydown", function (e) {
    if (e.target && (e.target.tagName === "SELECT" || e.target.tagName === "INPUT")) { return; }
    if (e.key === "h") { hint(); }
    else if (e.key === "n") { next(); }
    else if (e.key === "ArrowLeft" && state === "done") { $("back").click(); }
    else if (e.key === "ArrowRight" && state === "done") { $("fwd").click(); }
  });
  stats();
  if (list.length) {
    var first = 0;
    while (first < list.length - 1 && store.done[list[first].id]) { first += 1; }
    load(first);
  }
  document.body.setAttribute("data-ready", "1");
})();
"""


def document(title: str, body: str) -> str:
    csp = (f"default-src 'none'; style-src {csp_hash(CSS)}; script-src {csp_hash(JS)}; "
           "img-src data:; base-uri 'none'; form-action 'none'")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="generator" content="kifu html --trainer">\n'
        f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n"
        f"<body>\n{body}\n<script>{JS}</script>\n</body>\n</html>\n"
    )


__all__ = ["card_of", "hand_pieces", "puzzle_id", "select", "trainer_item", "trainer_page"]
