"""``kifu html`` without a browser: what the page embeds, for every registered game.

The browser tests (``test_html_browser.py``) check what the page shows; these check the
data it carries: each ply's position equals ``kifu replay --ply N -f position``, a seat's
view carries no hidden card, the page refers to nothing outside itself.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from html import escape as esc
from pathlib import Path

import pytest
from click.testing import CliRunner

from kifu import games
from kifu.cli.main import cli
from kifu.html import draw
from kifu.html.assets import json_script
from kifu.html.page import unpack
from kifu.html.screenshots import sample_record
from kifu.notation.reader import Located, parse_record, read_records
from kifu.notation.record import format_record
from kifu.notation.replay import replay

ROOT = Path(__file__).resolve().parent.parent
DATA = re.compile(r'<script type="application/json" id="kifu-data">(.*?)</script>', re.S)
CARD_TITLE = re.compile(r"<title>([A-Za-z!]{1,2}[0-9]{1,2}g?|[A-Z!][A-Z]?): ")
"""A card's text alternative starts with its token (R3, !T, K2g, G, D7, T10, nH12)."""


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def record_file(gid: str, tmp_path: Path) -> tuple[Path, int]:
    """A record of ``gid`` written to a file, and its number of plies."""
    loc = sample_record(gid, ROOT)
    rec = loc.record if isinstance(loc, Located) else loc
    path = tmp_path / f"{gid}.kifu"
    path.write_text(format_record(rec), encoding="utf-8")
    return path, len(rec.moves)


def page_data(html: str) -> dict:
    m = DATA.search(html)
    assert m, "no #kifu-data in the page"
    return json.loads(m.group(1))


def sample_plies(total: int) -> list[int]:
    return sorted({0, 1, 2, total // 3, total // 2, total - 1, total})


@pytest.mark.parametrize("gid", games.ids())
def test_every_ply_matches_replay(gid: str, tmp_path: Path) -> None:
    path, total = record_file(gid, tmp_path)
    out = tmp_path / "g.html"
    code, msg = run("html", str(path), "-o", str(out))
    assert code == 0, msg
    data = page_data(out.read_text(encoding="utf-8"))
    assert data["game"] == gid and len(data["plies"]) == total + 1
    loc = next(read_records(path.read_text(), path=str(path)))
    for n in sample_plies(total):
        code, line = run("replay", str(path), "--ply", str(n), "-f", "position")
        assert code == 0, line
        assert data["plies"][n]["line"] == line.strip(), f"ply {n}"
        state = replay(loc, upto=n).state
        picture = draw.drawer(gid, names=loc.record.players)(state, None)
        assert unpack(data, n) == picture, f"ply {n}: the picture"
        assert data["plies"][n]["text"] == state.render()


@pytest.mark.parametrize("gid", games.ids())
def test_player_view_carries_no_hidden_card(gid: str, tmp_path: Path) -> None:
    path, total = record_file(gid, tmp_path)
    # players named after no bot: no hand is public by the rules (GRAPH-T opens AI hands)
    text = path.read_text(encoding="utf-8")
    n = len(parse_record(text).players)
    names = ", ".join(f"Player {chr(65 + s)}" for s in range(n))
    path.write_text(re.sub(r'\[Players "[^"]*"\]', f'[Players "{names}"]', text, count=1),
                    encoding="utf-8")
    full = page_data(run("html", str(path))[1])
    code, html = run("html", str(path), "--player", "0")
    assert code == 0, html
    view = page_data(html)
    assert view["seat"] == 0 and "Seed</th>" not in html
    for move in (ROOT / path).read_text().splitlines():
        if move.startswith("d deal "):
            assert move[2:] not in html, "the deal is in the page"
    leaks_in_full_view = 0
    for n in sample_plies(total):
        code, line = run("replay", str(path), "--ply", str(n), "--seat", "0", "-f", "position")
        ply = view["plies"][n]
        assert ply["line"] == line.strip()
        assert ply["text"] == ""  # render() shows every hand: never in a seat's view
        shown = set(CARD_TITLE.findall(unpack(view, n)))
        assert all(token in ply["line"] for token in shown), (n, shown, ply["line"])
        leaks_in_full_view += any(t not in ply["line"]
                                  for t in CARD_TITLE.findall(unpack(full, n)))
    hidden_somewhere = any("?" in view["plies"][n]["line"] for n in sample_plies(total))
    if draw.has_drawer(gid) and hidden_somewhere:  # (GRAPH-T's AI players show their hands)
        assert leaks_in_full_view, "the full view should show cards seat 0 cannot see"


def test_generic_fallback_draws_any_game(tmp_path: Path, monkeypatch) -> None:
    path, total = record_file("tweak", tmp_path)
    monkeypatch.setattr(draw, "_DRAWERS", {})
    code, html = run("html", str(path))
    assert code == 0, html
    data = page_data(html)
    assert '<details id="textpic" open>' in html
    mid = data["plies"][total // 2]
    picture = unpack(data, total // 2)
    assert mid["text"].startswith("TWEAK, ") and "<title>" in picture and "TWEAK" in picture


def test_page_is_self_contained(tmp_path: Path) -> None:
    path, _ = record_file("graph-t", tmp_path)
    text = path.read_text().replace("\nd lead", "\n{</script><script>alert(1)</script> &"
                                    " <!-- x}\nd lead", 1)
    path.write_text(text)
    code, html = run("html", str(path))
    assert code == 0, html
    assert html.count("</script>") == 2 and "<!-- x" not in html
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;!-- x" in html
    embedded = json_script({"text": "</script><!-- & -->"})
    assert embedded.count("</script>") == 1 and "<!--" not in embedded
    assert json.loads(DATA.search(embedded).group(1)) == {"text": "</script><!-- & -->"}
    no_ns = re.sub(r'xmlns=\\?"http://www\.w3\.org/2000/svg\\?"', "", html)
    assert "http://" not in no_ns and "https://" not in no_ns
    assert not re.search(r"\s(src|href)=", html), "the page refers to another resource"
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert csp and csp.group(1).startswith("default-src 'none';")
    for tag, directive in (("style", "style-src"), ("script", "script-src")):
        body = re.search(rf"<{tag}>(.*?)</{tag}>", html, re.S)
        assert body
        digest = base64.b64encode(hashlib.sha256(body.group(1).encode()).digest()).decode()
        assert f"{directive} 'sha256-{digest}'" in csp.group(1)


def test_stdout_and_errors(tmp_path: Path) -> None:
    path, _ = record_file("tweak", tmp_path)
    code, out = run("html", str(path), "-o", "-")
    assert code == 0 and out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    for args, expect in (
        (["--player", "9"], "there is no such seat"),
        (["--index", "2"], "there is no record #2"),
    ):
        code, msg = run("html", str(path), *args)
        assert code == 1 and expect in msg and msg.count("\n") == 1, msg
    bad = ROOT / "fixtures" / "tweak" / "invalid" / "action-after-game-over.kifu"
    code, msg = run("html", str(bad), "-o", str(tmp_path / "x.html"))
    expected = bad.with_suffix(".err").read_text().strip().split(": ", 1)[1]
    assert code == 1 and expected in msg and "Traceback" not in msg
    assert not (tmp_path / "x.html").exists()


def puzzle_file(tmp_path: Path) -> tuple[Path, list]:
    """A file of three bundled puzzles (two TWEAK, one GRAPH-T), and the puzzles."""
    from kifu.notation.puzzle import format_puzzles, load_puzzles

    chosen = []
    for gid, k in (("tweak", 2), ("graph-t", 1)):
        found = load_puzzles(str(ROOT / "fixtures" / "puzzles" / f"{gid}.kifu"))
        chosen += [lp.puzzle for _, lp in zip(range(k), found, strict=False)]
    path = tmp_path / "puzzles.kifu"
    path.write_text(format_puzzles(chosen))
    return path, chosen


def test_puzzle_sheet(tmp_path: Path) -> None:
    path, puzzles = puzzle_file(tmp_path)
    code, html = run("html", str(path))
    assert code == 0, html
    assert html.count("<article") == len(puzzles)
    data = json.loads(re.search(r'id="kifu-data">(.*?)</script>', html).group(1))["puzzles"]
    for k, p in enumerate(puzzles, 1):
        part = html.split(f'<article aria-labelledby="pz{k}-h" id="pz{k}">')[1].split(
            "</article>")[0]
        assert f">{p.position}</code>" in part
        assert re.search(r'<p class="q" id="pz\d+-q">(p\d to (play|lead)|Double dummy)', part)
        assert "Difficulty: " in part and "nodes=" not in part.split("<details")[0]
        answer = re.search(r'<div class="answer" id="pz\d-a" hidden>(.*?)</div>', part, re.S)
        assert answer and f"<strong>{p.answer}</strong>" in answer.group(1)
        steps = "".join(f"<li>{esc(step)}</li>" for step in p.solution or [])
        assert steps in answer.group(1)
        assert "<svg" in part.split('<div class="answer"')[0]
        item = data[str(k)]  # the page's values are the solver's
        assert item["answer"] == p.answer and item["line"] == p.solution
        buttons = re.findall(r'<button type="button" class="choice" data-pz="(\d+)" '
                             r'data-act="(\d+)">', part)
        assert len(buttons) == len(item["values"]) and all(b[0] == str(k) for b in buttons)
    code, msg = run("html", str(path), "--player", "0")
    assert code == 1 and "puzzle" in msg
    text = path.read_text()
    path.write_text(text.replace('[Position "tweak/1 ', '[Position "tweak/1 X', 1))
    code, msg = run("html", str(path))
    first = text.split("\n").index(next(x for x in text.split("\n") if x.startswith("[Position")))
    assert code == 1 and msg.startswith(f"{path}:{first + 1}:") and msg.count("\n") == 1, msg


def test_open_hands_show_and_closed_hands_hide() -> None:
    """GRAPH-T with an open-hand AI player (p1) and two closed hands: seat 0's view shows
    p1's hand, as ``kifu replay --player 0`` does, and no card of p2's."""
    path = ROOT / "fixtures" / "graph-t" / "3p-trump.kifu"
    view, full = page_data(run("html", str(path), "--player", "0")[1]), page_data(
        run("html", str(path))[1])
    mid = len(view["plies"]) // 2
    code, line = run("replay", str(path), "--ply", str(mid), "--player", "0", "-f", "position")
    assert code == 0 and view["plies"][mid]["line"] == line.strip()
    hands = line.split()[1].split("/")
    assert "?" not in hands[0] + hands[1] and set(hands[2]) == {"?"}
    shown = CARD_TITLE.findall(unpack(view, mid))
    assert shown and all(t in line for t in shown)
    assert any(t not in line for t in CARD_TITLE.findall(unpack(full, mid)))
