"""The page's inline CSS and JavaScript (one copy, hashed into the Content-Security-Policy).

The script only shows data computed by kifu at export time: it parses the JSON in
``#kifu-data`` and, for a ply, puts that ply's SVG, position line and text picture in place.
There is no rules engine here.
"""

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
  var marker = document.getElementById("chart-marker");
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
    if (marker) {
      var x = String(Number(marker.getAttribute("data-x0")) +
                     i * Number(marker.getAttribute("data-dx")));
      marker.setAttribute("x1", x);
      marker.setAttribute("x2", x);
    }
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
  var buttons = document.querySelectorAll("button[data-reveal]");
  Array.prototype.forEach.call(buttons, function (b) {
    b.addEventListener("click", function () {
      var box = document.getElementById(b.getAttribute("data-reveal"));
      var open = box.hidden;
      box.hidden = !open;
      b.setAttribute("aria-expanded", open ? "true" : "false");
      b.textContent = open ? "Hide the answer" : "Show the answer";
    });
  });
  document.body.setAttribute("data-ready", "1");
})();
""".strip()
