"""Fuzz targets: one function per parser, shared by the hypothesis layer
(``tests/test_fuzz.py``) and the atheris harnesses (``fuzz/run.py``).

Each target takes raw bytes and either returns or raises
:class:`~kifu.core.errors.KifuError`; anything else escaping is a bug. Targets also check
what must hold for input that parses, raising ``AssertionError`` when it does not: whatever
a reader accepts, the writer writes and the reader reads back the same (records, puzzles,
card sets, positions), and every error is one short line (located at the file's name when
it is about a file, never clipped by :data:`kifu.core.errors.MAX_MESSAGE`: an error that
echoes its input whole is a bug at its source).

Each target returns whether the input was accepted (``True``) or refused (``False``), for
the campaign's counts. ``TARGETS`` maps a parser's name to its target; games are found at
import time, so games added later are fuzzed automatically.
"""

from __future__ import annotations

import io
import random
import re
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path

from kifu import games
from kifu.cli.common import parse_variant_options
from kifu.core.errors import CLIPPED, KifuError
from kifu.core.game import State
from kifu.core.rng import Rng
from kifu.core.text import MAX_DATA_FILE, read_stream_text
from kifu.games.alice.cards import parse_card_set
from kifu.games.lianxian.board import parse_board
from kifu.notation.diff import diff_records
from kifu.notation.files import read_stream
from kifu.notation.perftfile import parse_perft
from kifu.notation.puzzle import (
    check_puzzle,
    format_puzzle,
    puzzle_to_json,
    puzzles_from_json,
    read_puzzle_stream,
    read_puzzles,
)
from kifu.notation.reader import read_records
from kifu.notation.record import format_record, record_from_json, record_to_json
from kifu.notation.replay import replay
from kifu.notation.trace import MAX_TRACE_FILE, TraceMismatch, check_trace_text

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
NAME = "fuzz.kifu"
"""The file name every target reports errors under (errors must start with it)."""

Target = Callable[[bytes], bool]

COUNTS: Counter[str] = Counter()
"""What targets saw, for a campaign's figures (``fuzz/run.py`` prints it at exit)."""


def text_of(data: bytes) -> str:
    """Bytes as text, the way a position or action parser gets them: invalid UTF-8 bytes
    become U+FFFD (the parsers must refuse them: they are not ASCII)."""
    return data.decode("utf-8", "replace")


def check_error(e: KifuError, *, located: bool = False) -> None:
    """An error is one line (a trace mismatch: three), quotes its input clipped at the
    source, and starts with the file's name when it is about a file."""
    text = str(e)
    assert CLIPPED not in text, f"error echoes its input: {text[:200]!r}"
    lines = 3 if isinstance(e, TraceMismatch) else 1
    assert text.count("\n") < lines, f"error is not one line: {text[:200]!r}"
    if located:
        assert text.startswith(NAME), f"error not located: {text[:200]!r}"


def check_located(e: KifuError) -> None:
    """Errors about a file start with its name (and are short single lines)."""
    check_error(e, located=True)


# --- records ---------------------------------------------------------------------------------


def _replay_all(located) -> bool:
    """Every record read is written and reads back the same (reader and writer accept one
    language); what ``validate`` accepts, ``replay -f record`` and ``diff`` must accept.
    Whether every record replayed."""
    ok = True
    for loc in located:
        text = format_record(loc.record)  # the writer takes whatever the reader gave
        (back,) = read_records(text, path=NAME)
        assert back.record == loc.record, "canonical text does not read back the same"
        assert format_record(back.record) == text, "canonical text is not stable"
        try:
            rep = replay(loc)
        except KifuError as e:
            check_located(e)
            ok = False
            continue
        d = diff_records(loc, back)  # diff of a record with itself
        assert d.identical and d.first is None
        n = len(loc.record.moves)
        part = replay(loc, upto=n // 2, check_result=False)  # replay --ply
        assert len(part.actions) == n // 2
        assert len(rep.actions) == n
    return ok


def record_text(data: bytes) -> bool:
    """A text record file, read through the CLI's loader (bytes -> strict UTF-8); accepted
    when every record reads and replays (what ``kifu validate`` accepts)."""
    return _read_then(lambda: list(read_stream(io.BytesIO(data), NAME)), _replay_all)


def _read_then(read, then) -> bool:
    """``then(read())``, or False when ``read`` raises a (located) :class:`KifuError`."""
    try:
        found = read()
    except KifuError as e:
        check_located(e)
        return False
    return then(found)


def record_json(data: bytes) -> bool:
    """One JSON record (``record_from_json``), then as a file through the loader."""
    try:
        rec = record_from_json(data, path=NAME)
    except KifuError as e:
        check_located(e)
    else:
        assert record_from_json(record_to_json(rec)) == rec
        text = format_record(rec)  # every accepted record is writable as text
        (back,) = read_records(text, path=NAME)
        assert back.record == rec, "a JSON record does not read back the same as text"
    return record_text(data)  # accepted: the file reads and replays


# --- puzzles, card sets, boards, traces -----------------------------------------------------


def _puzzle_round_trip(puzzles) -> bool:
    """Every puzzle read is written and reads back the same; a puzzle that checks writes
    its canonical form, which checks again to itself. Whether every puzzle checked."""
    ok = True
    for lp in puzzles:
        text = format_puzzle(lp.puzzle)
        (back,) = read_puzzles(text, path=NAME)
        assert back.puzzle == lp.puzzle, "a puzzle does not read back the same"
        (again,) = puzzles_from_json(puzzle_to_json(lp.puzzle), path=NAME)
        assert again.puzzle == lp.puzzle, "a puzzle's JSON does not read back the same"
        try:
            checked = check_puzzle(lp)
        except KifuError as e:
            check_error(e, located=bool(lp.line))
            ok = False
            continue
        (canon,) = read_puzzles(format_puzzle(checked.puzzle), path=NAME)
        assert check_puzzle(canon).puzzle == checked.puzzle, "canonical puzzle is not stable"
    return ok


def puzzle(data: bytes) -> bool:
    """A puzzle file (text or JSON) through the loader of ``kifu solve``/``html``/
    ``validate``: bytes, strict UTF-8, streamed; each puzzle checked against its game
    (accepted when every puzzle reads and checks)."""
    return _read_then(lambda: list(read_puzzle_stream(io.BytesIO(data), NAME)),
                      _puzzle_round_trip)


def puzzle_json(data: bytes) -> bool:
    """A JSON puzzle document (one puzzle, a list, or JSON lines)."""
    try:
        found = puzzles_from_json(text_of(data), path=NAME)
    except KifuError as e:
        check_located(e)
        puzzle(data)
        return False
    return _puzzle_round_trip(found) & puzzle(data)


def alice_cards(data: bytes) -> bool:
    """An Alice card-set file (``--cards FILE``): bounded, strict UTF-8, then parsed; a set
    that parses writes (``to_text``) and reads back equal."""
    def reads_back(cs) -> bool:
        assert parse_card_set(cs.to_text(), path=NAME) == cs, "a card set does not read back"
        return True

    return _read_then(lambda: parse_card_set(_text(data, MAX_DATA_FILE, "a card-set file"),
                                             path=NAME), reads_back)


def _text(data: bytes, limit: int, what: str) -> str:
    return read_stream_text(io.BytesIO(data), NAME, limit=limit, what=what)


def lianxian_board(data: bytes) -> bool:
    """A Lianxian board file: bounded, strict UTF-8, then parsed and its tables built."""
    def builds(board) -> bool:
        for key in board.seats:
            board.seating(len(board.seats[key]), key == 0)
        assert all(board.index[name.upper()] == i for i, name in enumerate(board.space_names))
        return True

    return _read_then(lambda: parse_board(_text(data, MAX_DATA_FILE, "a board file"),
                                          path=NAME), builds)


def trace(data: bytes) -> bool:
    """A trace file (``kifu trace check``): bounded, strict UTF-8, replayed line by line."""
    return _read_then(lambda: check_trace_text(_text(data, MAX_TRACE_FILE, "a trace file"),
                                               NAME), lambda _: True)


# --- positions, actions, rules ------------------------------------------------------------


@cache
def sample_states(gid: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Position lines and action texts met in a few seeded random playouts of ``gid``."""
    game = games.get(gid)
    lines: list[str] = []
    actions: list[str] = []
    for seed in range(4):
        rng = Rng(seed)
        players = game.min_players + seed % (game.max_players - game.min_players + 1)
        state = game.new_state(players)
        for ply in range(400):
            if state.to_move is None:
                break
            if ply % 7 == 0:
                lines.append(state.to_line())
            if state.to_move == -1:
                action = game.chance_action(state, rng)
            else:
                action = rng.choice(state.legal_actions())
            actions.append(game.format_action(state, action))
            state.apply(action)
        lines.append(state.to_line())
    return tuple(lines), tuple(dict.fromkeys(actions))


def position_target(gid: str) -> Target:
    def target(data: bytes) -> bool:
        game = games.get(gid)
        line = text_of(data)
        try:
            state = game.from_line(line)
        except KifuError as e:
            check_error(e)
            return False
        canon = state.to_line()
        again = game.from_line(canon)
        assert again.to_line() == canon, "a position line does not round-trip"
        _exercise(state)
        return True

    target.__name__ = f"position_{gid}"
    return target


def _exercise(state: State) -> None:
    """A parsed position must be playable: its legal actions apply and undo."""
    for action in state.legal_actions()[:8]:
        state.push(action)
        state.pop()


def play_alice(data: bytes) -> bool:
    """Issue 21: an Alice position line the reader accepts must be playable. ``perft`` 2
    (and every node two plies down consistent: ``check_invariants``, a legal action unless
    the game is over or the dealer shuffles), every legal action's text, each seat's view,
    the picture, and the ``alice-bard-wins`` question on a small budget."""
    from kifu.core.game import perft as count_leaves
    from kifu.puzzles import Budget, get_question

    game = games.get("alice")
    try:
        state = game.from_line(text_of(data))
    except KifuError:
        COUNTS["rejected"] += 1
        raise
    COUNTS["accepted"] += 1
    assert game.from_line(state.to_line()).to_line() == state.to_line()

    def walk(depth: int) -> None:
        acts = state.legal_actions()
        assert acts or state.to_move is None or (state.to_move == -1 and
            state.chance_outcomes() is None), "no legal action"
        assert state.count_legal() == len(acts)
        state.check_invariants()
        for a in acts:
            game.format_action(state, a)
            if depth:
                state.push(a)
                walk(depth - 1)
                state.pop()

    walk(2)
    count_leaves(state, 2)
    state.render()
    for seat in range(state.n):
        state.view(seat)
    question = get_question("alice-bard-wins")
    if question.applies(state) is None:
        question.solve(state, Budget(nodes=300, seconds=1.0))
    return True


ALICE_FIELDS = ("rules", "phase", "to-move", "turns", "bard", "roles", "sp", "hands", "chars",
                "sentence", "flags", "discard", "story", "check")
ALICE_VOCAB = ("-", "0", "1", "2", "5", "9", "-1", "p0", "p1", "p2", "p5", "p6", "d", "sys",
               "P", "B0", "B2", "n", "v", "a", "nS1", "aH12", "vC8", "nD4", "@p0", "@p3", "01",
               "012", "play", "bard", "forced", "adjust", "swap", "pool", "buy", "clean",
               "draw", "over", "roles", "deal", "char", "AQR", "aqr", "hCaprq", "10", "3")
"""Tokens a mutation may put into an Alice position line's fields."""
_ALICE_CARD = re.compile(r"[nva][SHDC](1[0-3]|[1-9])")


def mutate_alice_line(line: str, rnd: random.Random, lines: list[str]) -> str:
    """One change to an Alice position line, field-aware (most byte-level changes only make
    a line the reader refuses): a field, or one ``/``- or ``,``-separated part of it, taken
    from another valid line of ``lines`` or from :data:`ALICE_VOCAB`; a card token moved
    elsewhere; one character changed."""
    f = line.split(" ")
    other = rnd.choice(lines).split(" ")
    if min(len(f), len(other)) < 2:
        return line + rnd.choice(ALICE_VOCAB)
    i = rnd.randrange(1, min(len(f), len(other), len(ALICE_FIELDS)))
    sep = "," if ALICE_FIELDS[i] in ("sp", "check") else "/"
    k = rnd.randrange(6)
    if k == 0:
        f[i] = other[i]
    elif k in (1, 2):
        parts = f[i].split(sep)
        new = rnd.choice(other[i].split(sep)) if k == 1 else rnd.choice(ALICE_VOCAB)
        parts[rnd.randrange(len(parts))] = new
        f[i] = sep.join(parts)
    elif k == 3:
        f[i] = rnd.choice(ALICE_VOCAB)
    elif k == 4:
        text = " ".join(f)
        cards = list(_ALICE_CARD.finditer(text))
        if cards:
            m = rnd.choice(cards)
            text = text[:m.start()] + text[m.end():]
            at = rnd.randrange(len(text) + 1)
            return text[:at] + m.group(0) + text[at:]
        return text
    else:
        text = " ".join(f)
        at = rnd.randrange(len(text))
        return text[:at] + rnd.choice("0123456789-/,:@pdPBnvaSHDC") + text[at + 1:]
    return " ".join(f)


def alice_mutator(data: bytes, seed: int) -> bytes:
    """``play_alice``'s structure-aware mutation for atheris (``fuzz/run.py``): one to three
    field-aware changes of the input or, mostly when the reader refuses the input, of a
    valid line (changes of refused lines are mostly refused too)."""
    rnd = random.Random(seed)
    lines = [x.decode() for x in seeds("play_alice")]
    line = text_of(data)
    try:
        games.get("alice").from_line(line)
    except KifuError:
        if rnd.random() < 0.8 or len(line.split(" ")) != len(ALICE_FIELDS):
            line = rnd.choice(lines)
    for _ in range(rnd.randint(1, 3)):
        line = mutate_alice_line(line, rnd, lines)
    return line.encode()


MUTATORS: dict[str, Callable[[bytes, int], bytes]] = {"play_alice": alice_mutator}
"""Structure-aware mutations by target name (``fuzz/run.py`` alternates them with
libFuzzer's own)."""


def action_target(gid: str) -> Target:
    def target(data: bytes) -> bool:
        game = games.get(gid)
        lines, _ = sample_states(gid)
        state = game.from_line(lines[data[0] % len(lines)] if data else lines[0])
        text = text_of(data[1:])
        try:
            action = game.parse_action(state, text)
            state.check(action)
        except KifuError as e:
            check_error(e)
            return False
        canon = game.format_action(state, action)
        assert game.parse_action(state, canon) == action, "action text does not read back"
        assert canon.isascii(), "action text is written in ASCII"
        state.push(action)
        state.pop()
        return True

    target.__name__ = f"action_{gid}"
    return target


def rules(data: bytes) -> bool:
    """A rules spec and ``--set`` values for every game (first byte picks the game)."""
    ids = games.ids()
    gid = ids[data[0] % len(ids)] if data else ids[0]
    game = games.get(gid)
    text = text_of(data[1:])
    spec, _, sets = text.partition("\n")
    accepted = False
    try:
        variant = game.parse_rules(spec)
        assert game.parse_rules(game.rules_spec(variant)) == variant
        accepted = True
    except KifuError as e:
        check_error(e)
    try:
        variant = parse_variant_options(game, None, tuple(sets.split("\n")) if sets else ())
        assert game.parse_rules(game.rules_spec(variant)) == variant
    except KifuError as e:
        check_error(e)
    return accepted


def perft(data: bytes) -> bool:
    text = text_of(data)
    try:
        cases = parse_perft(text, path=NAME, game="tweak")
    except KifuError as e:
        check_located(e)
        return False
    for case in cases:
        assert case.counts is not None
    return True


# --- kifu archive query: every option -------------------------------------------------------

QUERY_OPTIONS = ("--game", "--rules", "--player", "--result", "--winner", "--tag",
                 "--min-plies", "--max-plies", "--from", "--to", "--position", "--text",
                 "--limit", "--sql", "--timeout", "-f", "--winner-seat", "--won")
"""The options of ``kifu archive query`` (``--db`` is the target's own archive)."""
QUERY_FLAGS = ("--won",)

QUERY_TIMEOUT = "0.2"
"""``--timeout`` the target passes when the input asks for a longer (or no) limit."""

QUERY_TALLY = {"inputs": 0, "accepted": 0, "rejected": 0}
"""What ``archive_query`` saw: exit code 0 (accepted), 1 or 2 (rejected)."""


@cache
def query_archive() -> str:
    """A small archive of every game's fixtures (positions indexed, comments searchable),
    built once per process in a temporary folder."""
    import atexit
    import shutil
    import tempfile

    from kifu.archive import Archive

    where = tempfile.mkdtemp(prefix="kifu-fuzz-")
    atexit.register(shutil.rmtree, where, True)
    path = str(Path(where) / "fuzz.db")
    files = [str(p) for gid in games.ids() for p in sorted((FIXTURES / gid).glob("*.kifu"))[:3]]
    with Archive(path) as a:
        a.import_paths(files, positions=True)
    return path


def query_args(data: bytes) -> list[str]:
    """The command line an input means: one option a line, its first character choosing
    the option and the rest its value (a longer ``--timeout`` becomes 0.2 s). Bytes that
    are not UTF-8 become lone surrogates, as Python gives them from a real command line."""
    args: list[str] = []
    for part in data.decode("utf-8", "surrogateescape").split("\n")[:24]:
        if not part:
            continue
        option = QUERY_OPTIONS[ord(part[0]) % len(QUERY_OPTIONS)]
        value = part[1:]
        if option == "--timeout":
            try:
                seconds: float | None = float(value)
            except ValueError:
                seconds = None  # left for the command to refuse
            if seconds is not None and (seconds == 0 or float(QUERY_TIMEOUT) < seconds <= 1e9):
                value = QUERY_TIMEOUT
        args += [option] if option in QUERY_FLAGS else [option, value]
    if "--timeout" not in args:
        args += ["--timeout", QUERY_TIMEOUT]
    return args


def archive_query(data: bytes) -> bool:
    """``kifu archive query`` with the options an input names, in this process: exit code
    0, 1 or 2 only, no traceback, an error is one line; a rejection raises ``KifuError``
    (so the harnesses count it as a refusal)."""
    from click.testing import CliRunner

    from kifu.cli.main import cli

    args = ["archive", "query", "--db", query_archive(), *query_args(data)]
    r = CliRunner().invoke(cli, args)
    QUERY_TALLY["inputs"] += 1
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        raise r.exception
    assert r.exit_code in (0, 1, 2), (args, r.exit_code, r.output[-500:])
    assert "Traceback" not in r.output, (args, r.output[-2000:])
    if r.exit_code == 1:
        assert len(r.stderr.strip().splitlines()) == 1, (args, r.stderr[-2000:])
    QUERY_TALLY["rejected" if r.exit_code else "accepted"] += 1
    _save_tally()
    if r.exit_code:
        raise KifuError(f"{NAME}: exit code {r.exit_code}")
    return True


def _save_tally() -> None:
    """With ``KIFU_FUZZ_TALLY=FILE``, keep the tally and the peak memory in FILE (JSON),
    for the campaign's figures (libFuzzer ends the process without Python's exit hooks)."""
    import os

    where = os.environ.get("KIFU_FUZZ_TALLY")
    if where:
        import json
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        Path(where).write_text(json.dumps({**QUERY_TALLY, "peak_rss_mb": peak}))


def all_targets() -> dict[str, Target]:
    """Every parser's target, by name (every registered game's positions and actions)."""
    out: dict[str, Target] = {
        "record_text": record_text,
        "record_json": record_json,
        "rules": rules,
        "perft": perft,
        "puzzle": puzzle,
        "puzzle_json": puzzle_json,
        "alice_cards": alice_cards,
        "lianxian_board": lianxian_board,
        "trace": trace,
        "archive_query": archive_query,
    }
    for gid in games.ids():
        key = gid.replace("-", "_")
        out[f"position_{key}"] = position_target(gid)
        out[f"action_{key}"] = action_target(gid)
    if "alice" in games.ids():
        out["play_alice"] = play_alice
    return out


# --- seeds --------------------------------------------------------------------------------


def _annotated_seed(name: str) -> bytes:
    """A record with marks and ``[%value ...]`` comments (``kifu analyze``'s annotations;
    docs/notation.md, "Marks and values"), as text or JSON."""
    from kifu.notation.record import Move, Record

    path = sorted((FIXTURES / "tweak").glob("*.kifu"))[0]
    (loc,) = read_records(path.read_text(encoding="utf-8"))
    rec = loc.record
    moves = [m if m.actor == "d" else Move(m.actor, m.text, "[%value tweak-this-turn: forced "
                                             "-> no] [%best tweak-this-turn: p0 !J+]",
                                           "??" if i % 3 == 0 else "!" if i % 3 else "?!")
             for i, m in enumerate(rec.moves)]
    marked = Record(rec.headers, moves, rec.comment)
    return record_to_json(marked) if name == "record_json" else format_record(marked).encode()


@cache
def _alice_seeds() -> tuple[bytes, ...]:
    """Valid Alice lines: the perft and puzzle fixtures, and positions of seeded games."""
    from kifu.notation.perftfile import read_perft

    out = [c.position for c in read_perft(FIXTURES / "perft" / "alice.perft")]
    text = (FIXTURES / "puzzles" / "alice.kifu").read_text(encoding="utf-8")
    out += re.findall(r'^\[Position "(.*)"\]$', text, re.M)
    out += sample_states("alice")[0]
    return tuple(line.encode() for line in out)


def _puzzle_blocks() -> list[bytes]:
    """Each puzzle of ``fixtures/puzzles/*.kifu`` on its own, and two whole files."""
    out = []
    files = sorted((FIXTURES / "puzzles").glob("*.kifu"))
    for p in files:
        for lp in read_puzzles(p.read_text(encoding="utf-8"), path=p.name):
            out.append(format_puzzle(lp.puzzle).encode())
    return out + [p.read_bytes() for p in files[:2]]


def _trace_heads() -> list[bytes]:
    """The first record of each golden trace, cut after a few plies (a trace's head checks
    on its own: the engine stops where the file does)."""
    out = []
    for p in sorted((FIXTURES / "traces").glob("*.trace")):
        lines = p.read_text(encoding="utf-8").split("\n")
        plies = [i for i, line in enumerate(lines) if line.startswith("ply ")]
        cut = plies[min(6, len(plies) - 1)] if plies else len(lines)
        out.append(("\n".join(lines[:cut]) + "\n").encode())
    return out


def seeds(name: str) -> list[bytes]:
    """Valid inputs of a parser, to mutate (hypothesis) or to start a corpus (atheris)."""
    if name in ("record_text", "record_json"):
        out = []
        for gid in games.ids():
            for p in sorted((FIXTURES / gid).glob("*.kifu"))[:6]:
                data = p.read_bytes()
                if name == "record_json":
                    for loc in read_records(data.decode("utf-8")):
                        out.append(record_to_json(loc.record))
                else:
                    out.append(data)
        out.append(_annotated_seed(name))
        return out
    if name == "perft":
        return [p.read_bytes() for p in sorted((FIXTURES / "perft").glob("*.perft"))]
    if name == "rules":
        out = []
        for i, gid in enumerate(games.ids()):
            game = games.get(gid)
            for v in (game.Variant(), *game.example_variants):
                out.append(bytes([i]) + game.rules_spec(v).encode())
        return out
    if name == "play_alice":
        return list(_alice_seeds())
    if name == "puzzle":
        return _puzzle_blocks()
    if name == "puzzle_json":
        blocks = _puzzle_blocks()[:-2]
        docs = [puzzle_to_json(lp.puzzle) for b in blocks
                for lp in read_puzzles(b.decode(), path=NAME)]
        return [*docs, b"[" + b",".join(docs[:3]) + b"]", b"\n".join(docs[3:6])]
    if name == "alice_cards":
        return [p.read_bytes() for p in sorted((ROOT / "kifu" / "games" / "alice" / "cards")
                                               .glob("*.cards"))]
    if name == "lianxian_board":
        return [p.read_bytes() for p in sorted((ROOT / "kifu" / "games" / "lianxian" /
                                                "boards").glob("*.board"))]
    if name == "trace":
        return _trace_heads()
    for gid in games.ids():
        key = gid.replace("-", "_")
        if name == f"position_{key}":
            return [line.encode() for line in sample_states(gid)[0]]
        if name == f"action_{key}":
            _lines, acts = sample_states(gid)
            return [bytes([i % 256]) + a.encode() for i, a in enumerate(acts[:64])]
    if name == "archive_query":
        return [b"\n".join(bytes([QUERY_OPTIONS.index(o) + 64]) + v.encode() for o, v in args)
                for args in QUERY_SEEDS]
    return [b""]


QUERY_SEEDS: list[list[tuple[str, str]]] = [
    [("--game", "tweak"), ("--min-plies", "10"), ("-f", "json")],
    [("--player", "p1"), ("--limit", "3")],
    [("--tag", "Seed=7"), ("--from", "2026.01.01"), ("--to", "2026.12.31")],
    [("--text", "Bomb"), ("-f", "records")],
    [("--text", '"the bomb" OR NEAR(p1 p2)')],
    [("--result", "*"), ("--winner", "p0"), ("--rules", "tweak/1")],
    [("--sql", "select id, game, plies from records order by plies desc"), ("--limit", "5")],
    [("--sql", "select text from records"), ("-f", "records")],
    [("--sql", "select count(*) as n, game from records group by game"), ("-f", "json")],
    [("--sql", "with recursive c(x) as (select 1 union all select x + 1 from c) "
               "select x from c"), ("--limit", "100")],
    [("--sql", "select zeroblob(10) as b, 1e999 as f"), ("-f", "json")],
    [("--position", "tweak/1 T0 r1d1 t7 0,0 R6O5G4/R2O2Y2 R3Y1 G5G6G1 - -/- -/-")],
    [("--max-plies", "9223372036854775807"), ("--min-plies", "-9223372036854775808")],
]
"""Valid ``archive query`` command lines to start from."""
