"""The page's inline CSS and JavaScript (one copy, hashed into the Content-Security-Policy).

The script only shows data computed by kifu at export time: it parses the JSON in
``#kifu-data`` and, for a ply, puts that ply's SVG, position line and text picture in place.
There is no rules engine here.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any


def csp_hash(source: str) -> str:
    """The Content-Security-Policy source (``'sha256-...'``) that allows this inline
    ``source``."""
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def json_script(obj: Any) -> str:
    """JSON that is safe inside a ``<script>`` element (no ``</script>``, no ``<!--``), as
    the page's ``#kifu-data`` element."""
    data = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="kifu-data">{data}</script>'


CSS = """
:root { --ink:#1f2328; --muted:#57606a; --line:#d0d7de; --accent:#0b57d0; --bg:#fff;
  --soft:#f6f8fa; --cur:#fff3c4; }
* { box-sizing: border-box; }
body { margin:0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto,
  "DejaVu Sans", sans-serif; color: var(--ink); background: var(--bg); }
header, main, footer { max-width: 1200px; margin: 0 auto; padding: 0 12px; }
h1 { font-size: 1.2rem; margin: 8px 0 0; }
h2 { font-size: 1.05rem; margin: 10px 0 6px; }
.sub { color: var(--muted); margin: 0 0 6px; font-size: .9rem; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr) 320px; gap: 16px; }
.board { border: 1px solid var(--line); border-radius: 8px; background: #fff; padding: 4px; }
.board svg { display: block; height: auto; max-width: 100%; }
.controls { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 6px; margin: 4px 0;
  padding: 4px 0; position: sticky; bottom: 0; background: var(--bg); z-index: 2; }
.controls button, .sheet button { font: inherit; padding: 6px 12px; border-radius: 6px;
  border: 1px solid var(--line); background: var(--soft); color: var(--ink); cursor: pointer;
  min-height: 40px; }
.controls button:disabled { opacity: .45; cursor: default; }
button:focus-visible, input:focus-visible, summary:focus-visible
  { outline: 3px solid var(--accent); outline-offset: 2px; }
#slider { flex: 1 1 160px; min-width: 120px; height: 32px; }
#plyinfo { flex: 1 1 100%; color: var(--muted); font-size: .9rem; line-height: 1.3;
  white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.chart svg { display: block; height: auto; max-width: 100%; max-height: 96px; }
.share-chart svg { max-height: 230px; }
.posline { font-size: .85rem; color: var(--muted); margin: 6px 0; }
code, pre { font-family: "DejaVu Sans Mono", ui-monospace, Menlo, Consolas, monospace; }
#position, .sheet code { display: block; background: var(--soft); border: 1px solid var(--line);
  border-radius: 6px; padding: 6px 8px; color: var(--ink); word-break: break-all;
  white-space: pre-wrap; font-size: .85rem; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px;
  overflow-x: auto; font-size: .82rem; margin: 6px 0; }
.side { min-width: 0; }
#moves { list-style: none; margin: 0; padding: 0; max-height: 60vh; overflow-y: auto;
  border: 1px solid var(--line); border-radius: 8px; position: relative; }
#moves li { border-bottom: 1px solid #eef0f2; }
#moves button { all: unset; box-sizing: border-box; display: block; width: 100%;
  padding: 4px 8px; cursor: pointer; font-size: .92rem; overflow-wrap: anywhere; }
#moves button:hover { background: var(--soft); }
#moves button:focus-visible { outline: 3px solid var(--accent); outline-offset: -3px; }
#moves button[aria-current] { background: var(--cur); font-weight: 600; }
#moves details.full { margin: 0 8px 4px 3.2em; font-size: .8rem; color: var(--muted); }
#moves details.full code { display: block; word-break: break-all; white-space: pre-wrap; }
.n { display: inline-block; min-width: 2.6em; color: var(--muted); font-variant-numeric:
  tabular-nums; }
.actor { color: var(--accent); margin-right: .3em; }
.comment { display: block; color: #2f6f3e; font-style: italic; font-size: .85rem;
  margin-left: 2.6em; }
table.headers { border-collapse: collapse; font-size: .9rem; width: 100%; }
table.headers th { text-align: left; color: var(--muted); font-weight: 500; padding: 2px 8px 2px 0;
  vertical-align: top; }
table.headers td { padding: 2px 0; word-break: break-word; }
.note { color: var(--muted); font-size: .9rem; }
.sheet article { border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px;
  margin: 12px 0; }
.sheet .q { font-weight: 600; }
.answer { background: #eef7ee; border-radius: 6px; padding: 6px 10px; margin-top: 8px; }
.sheet .level { margin: 2px 0; color: var(--muted); font-size: .92rem; }
.themes { list-style: none; display: flex; flex-wrap: wrap; gap: 4px; padding: 0; margin: 4px 0; }
.themes li { background: #eef1f8; border: 1px solid #c9d3ea; border-radius: 10px;
  padding: 0 8px; font-size: .8rem; color: #2b3a67; }
.choices { display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 0; align-items: center; }
.sheet .choices button { min-height: 36px; padding: 4px 10px; font-family: "DejaVu Sans Mono",
  ui-monospace, Menlo, Consolas, monospace; }
.sheet .choices button.right { background: #d7f0dc; border-color: #2a9d4f; }
.sheet .choices button.wrong { background: #fbe0e0; border-color: #d62828; }
.feedback { border-radius: 6px; padding: 6px 10px; font-weight: 600; }
.feedback.right { background: #d7f0dc; color: #14532d; }
.feedback.wrong { background: #fbe0e0; color: #7f1d1d; }
table.values { border-collapse: collapse; font-size: .88rem; margin: 6px 0; }
table.values caption { text-align: left; color: var(--muted); }
table.values td { padding: 1px 10px 1px 0; font-family: "DejaVu Sans Mono", ui-monospace,
  Menlo, Consolas, monospace; }
table.values tr.win td { color: #14532d; font-weight: 600; }
table.values tr.chosen td { background: var(--cur); }
details.pos { margin: 6px 0; font-size: .85rem; }
.mark { font-weight: 700; margin-left: .3em; }
.mark-blunder { color: #b91c1c; }
.mark-mistake { color: #c2410c; }
.mark-dubious { color: #a16207; }
.best { display: block; color: var(--ink); font-size: .8rem; margin-left: 2.6em; }
.mark-good { color: #15803d; }
.value { display: block; color: var(--muted); font-size: .8rem; margin-left: 2.6em; }
details.chart-more { font-size: .8rem; color: var(--muted); }
.chart svg[data-clickable] { cursor: pointer; }
footer { color: var(--muted); font-size: .8rem; padding: 16px 12px; }
@media (min-width: 861px) {
  /* a laptop screen holds the picture, the controls and the score line at once */
  .board svg { max-height: calc(100vh - 266px); }
  #moves { max-height: calc(100vh - 260px); }
}
@media (max-width: 860px) {
  .layout { grid-template-columns: minmax(0, 1fr); }
  #moves { max-height: 40vh; }
}
@media (max-width: 480px) {
  body { font-size: 15px; }
  .controls button { padding: 6px 9px; }
}
""".strip()

REPLAY_JS = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("kifu-data").textContent);
  var plies = data.plies, pieces = data.pieces, last = plies.length - 1, cur = -1;
  var board = document.getElementById("board");
  var pos = document.getElementById("position");
  var txt = document.getElementById("text");
  var slider = document.getElementById("slider");
  var info = document.getElementById("plyinfo");
  var markers = Array.prototype.slice.call(document.querySelectorAll(".chart-marker"));
  var list = document.getElementById("moves");
  var items = Array.prototype.slice.call(list.querySelectorAll("button[data-ply]"));
  var nav = {first: document.getElementById("first"), prev: document.getElementById("prev"),
             next: document.getElementById("next"), last: document.getElementById("last")};
  function show(i) {
    i = Math.max(0, Math.min(last, i | 0));
    if (i === cur) { return; }
    cur = i;
    var p = plies[i];
    board.innerHTML = p.svg.map(function (k) { return pieces[k]; }).join("");
    pos.textContent = p.line;
    if (txt) { txt.textContent = p.text; }
    slider.value = String(i);
    markers.forEach(function (marker) {
      var x = String(Number(marker.getAttribute("data-x0")) +
                     i * Number(marker.getAttribute("data-dx")));
      marker.setAttribute("x1", x);
      marker.setAttribute("x2", x);
      var lo = marker.getAttribute("data-lo"), hi = marker.getAttribute("data-hi");
      marker.setAttribute("visibility", lo !== null && (i < Number(lo) || i > Number(hi))
                          ? "hidden" : "visible");
    });
    slider.setAttribute("aria-valuetext", "ply " + i + " of " + last);
    var said = "Ply " + i + " of " + last;
    items.forEach(function (b) {
      if (Number(b.getAttribute("data-ply")) === i) {
        b.setAttribute("aria-current", "step");
        said += i ? ": " + b.getAttribute("data-say") : "";
        var top = b.offsetTop, h = list.clientHeight;
        if (top < list.scrollTop || top + b.offsetHeight > list.scrollTop + h) {
          list.scrollTop = Math.max(0, top - h / 2);
        }
      } else {
        b.removeAttribute("aria-current");
      }
    });
    info.textContent = said;
    nav.first.disabled = nav.prev.disabled = i === 0;
    nav.next.disabled = nav.last.disabled = i === last;
    document.body.setAttribute("data-ply", String(i));
  }
  nav.first.addEventListener("click", function () { show(0); });
  nav.prev.addEventListener("click", function () { show(cur - 1); });
  nav.next.addEventListener("click", function () { show(cur + 1); });
  nav.last.addEventListener("click", function () { show(last); });
  slider.addEventListener("input", function () { show(Number(slider.value)); });
  items.forEach(function (b) {
    b.addEventListener("click", function () { show(Number(b.getAttribute("data-ply"))); });
  });
  markers.forEach(function (marker) {  // a click on a chart goes to the ply under it
    var svg = marker.ownerSVGElement;
    svg.addEventListener("click", function (e) {
      var dot = e.target.getAttribute && e.target.getAttribute("data-ply");
      if (dot !== null && dot !== undefined && dot !== "") { show(Number(dot)); return; }
      var pt = svg.createSVGPoint();
      pt.x = e.clientX;
      pt.y = e.clientY;
      var at = pt.matrixTransform(svg.getScreenCTM().inverse());
      var dx = Number(marker.getAttribute("data-dx")) || 1;
      show(Math.round((at.x - Number(marker.getAttribute("data-x0"))) / dx));
    });
    svg.setAttribute("data-clickable", "1");
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.target === slider) { return; }
    var k = e.key;
    if (k === "ArrowLeft") { show(cur - 1); }
    else if (k === "ArrowRight") { show(cur + 1); }
    else if (k === "Home") { show(0); }
    else if (k === "End") { show(last); }
    else { return; }
    e.preventDefault();
  });
  function fromHash() {
    var m = /ply=(-?[0-9]+)/.exec(location.hash);
    if (m) { var n = Number(m[1]); show(n < 0 ? last + 1 + n : n); }
  }
  window.addEventListener("hashchange", fromHash);
  show(data.start === undefined ? last : data.start);
  fromHash();
})();
""".strip()

PUZZLE_JS = """
(function () {
  "use strict";
  var node = document.getElementById("kifu-data");
  var data = node ? JSON.parse(node.textContent).puzzles || {} : {};
  function setOpen(b, open) {
    var box = document.getElementById(b.getAttribute("data-reveal"));
    box.hidden = !open;
    b.setAttribute("aria-expanded", open ? "true" : "false");
    b.textContent = open ? "Hide the answer" : "Show the answer";
  }
  var reveals = document.querySelectorAll("button[data-reveal]");
  Array.prototype.forEach.call(reveals, function (b) {
    b.addEventListener("click", function () {
      setOpen(b, document.getElementById(b.getAttribute("data-reveal")).hidden);
    });
  });
  function answerOf(k) {
    return document.querySelector('button[data-reveal="pz' + k + '-a"]');
  }
  function play(b) {
    var k = b.getAttribute("data-pz"), item = data[k];
    if (!item) { return; }
    var i = b.hasAttribute("data-pick")
      ? Number(document.getElementById(b.getAttribute("data-pick")).value)
      : Number(b.getAttribute("data-act"));
    var v = item.values[i];
    if (!v) { return; }
    var right = v[1] === item.answer;
    var fb = document.getElementById("pz" + k + "-fb");
    fb.hidden = false;
    fb.className = "feedback " + (right ? "right" : "wrong");
    if (right) {
      var rest = item.line.length && item.line[0] === v[0] ? item.line.slice(1) : null;
      var said = "Right: " + v[0] + " reaches " + item.answer +
        (item.words ? " (" + item.words[i] + ")" : "") + ".";
      if (rest && rest.length) { said += " The line goes on: " + rest.join("; ") + "."; }
      else if (!rest && item.line.length) {
        said += " Another winning line: " + item.line.join("; ") + ".";
      }
      fb.textContent = said;
      setOpen(answerOf(k), true);
    } else {
      fb.textContent = "Not this one: " + v[0] + " gives " + v[1] +
        (item.words ? " (" + item.words[i] + ")" : "") +
        ", which falls short. Try again, or show the answer.";
    }
    if (!b.hasAttribute("data-pick")) {
      b.classList.add(right ? "right" : "wrong");
      b.setAttribute("aria-pressed", "true");
    }
    var rows = document.querySelectorAll("#pz" + k + "-a tr[data-act]");
    Array.prototype.forEach.call(rows, function (r) {
      if (Number(r.getAttribute("data-act")) === i) { r.classList.add("chosen"); }
    });
    document.getElementById("pz" + k).setAttribute("data-result", right ? "right" : "wrong");
  }
  var choices = document.querySelectorAll("button.choice");
  Array.prototype.forEach.call(choices, function (b) {
    b.addEventListener("click", function () { play(b); });
  });
  document.body.setAttribute("data-ready", "1");
})();
""".strip()
