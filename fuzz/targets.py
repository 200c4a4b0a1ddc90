"""Fuzz targets: one function per parser, shared by the hypothesis layer
(``tests/test_fuzz.py``) and the atheris harnesses (``fuzz/run.py``).

Each target takes raw bytes and either returns or raises
:class:`~kifu.core.errors.KifuError`; anything else escaping is a bug. Targets also check
what must hold for input that parses (a parsed record is writable and reads back the same,
a parsed position line round-trips), raising ``AssertionError`` when it does not.

``TARGETS`` maps a parser's name to its target; games and optional modules (puzzle files,
the Alice card-set file, the Lianxian board file) are found at import time, so games added
later are fuzzed automatically.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Callable
from functools import cache
from pathlib import Path

from kifu import games
from kifu.cli.common import parse_variant_options
from kifu.core.errors import KifuError
from kifu.core.game import State
from kifu.core.rng import Rng
from kifu.notation.diff import diff_records
from kifu.notation.files import read_stream
from kifu.notation.perftfile import parse_perft
from kifu.notation.reader import read_records
from kifu.notation.record import format_record, record_from_json, record_to_json
from kifu.notation.replay import replay

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
NAME = "fuzz.kifu"
"""The file name every target reports errors under (errors must start with it)."""

Target = Callable[[bytes], None]


def text_of(data: bytes) -> str:
    """Bytes as text, the way a position or action parser gets them: invalid UTF-8 bytes
    become U+FFFD (the parsers must refuse them: they are not ASCII)."""
    return data.decode("utf-8", "replace")


def check_located(e: KifuError) -> None:
    """Errors about a file start with its name."""
    assert str(e).startswith(NAME), f"error not located: {str(e)[:200]!r}"
    assert "\n" not in str(e), "error is not one line"


# --- records ---------------------------------------------------------------------------------


def _replay_all(located) -> None:
    """What ``validate`` accepts, ``replay -f record`` and ``diff`` must accept too."""
    for loc in located:
        try:
            rep = replay(loc)
        except KifuError as e:
            check_located(e)
            continue
        text = format_record(loc.record)  # replay -f record writes the canonical text
        (back,) = read_records(text, path=NAME)
        assert back.record == loc.record, "canonical text does not read back the same"
        d = diff_records(loc, back)  # diff of a record with itself
        assert d.identical and d.first is None
        n = len(loc.record.moves)
        part = replay(loc, upto=n // 2, check_result=False)  # replay --ply
        assert len(part.actions) == n // 2
        assert len(rep.actions) == n


def record_text(data: bytes) -> None:
    """A text record file, read through the CLI's loader (bytes -> strict UTF-8)."""
    try:
        located = list(read_stream(io.BytesIO(data), NAME))
    except KifuError as e:
        check_located(e)
        return
    _replay_all(located)


def record_json(data: bytes) -> None:
    """One JSON record (``record_from_json``), then as a file through the loader."""
    try:
        rec = record_from_json(data, path=NAME)
    except KifuError as e:
        check_located(e)
    else:
        assert record_from_json(record_to_json(rec)) == rec
        format_record(rec)  # every accepted record is writable as text
    record_text(data)


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
    def target(data: bytes) -> None:
        game = games.get(gid)
        line = text_of(data)
        try:
            state = game.from_line(line)
        except KifuError:
            return
        canon = state.to_line()
        again = game.from_line(canon)
        assert again.to_line() == canon, "a position line does not round-trip"
        _exercise(state)

    target.__name__ = f"position_{gid}"
    return target


def _exercise(state: State) -> None:
    """A parsed position must be playable: its legal actions apply and undo."""
    for action in state.legal_actions()[:8]:
        state.push(action)
        state.pop()


def action_target(gid: str) -> Target:
    def target(data: bytes) -> None:
        game = games.get(gid)
        lines, _ = sample_states(gid)
        state = game.from_line(lines[data[0] % len(lines)] if data else lines[0])
        text = text_of(data[1:])
        try:
            action = game.parse_action(state, text)
            state.check(action)
        except KifuError:
            return
        state.push(action)
        state.pop()

    target.__name__ = f"action_{gid}"
    return target


def rules(data: bytes) -> None:
    """A rules spec and ``--set`` values for every game (first byte picks the game)."""
    ids = games.ids()
    gid = ids[data[0] % len(ids)] if data else ids[0]
    game = games.get(gid)
    text = text_of(data[1:])
    spec, _, sets = text.partition("\n")
    try:
        variant = game.parse_rules(spec)
        assert game.parse_rules(game.rules_spec(variant)) == variant
    except KifuError:
        pass
    try:
        variant = parse_variant_options(game, None, tuple(sets.split("\n")) if sets else ())
        assert game.parse_rules(game.rules_spec(variant)) == variant
    except KifuError:
        pass


def perft(data: bytes) -> None:
    text = text_of(data)
    try:
        cases = parse_perft(text, path=NAME, game="tweak")
    except KifuError as e:
        check_located(e)
        return
    for case in cases:
        assert case.counts is not None


# --- optional parsers (other helpers' modules) ----------------------------------------------

OPTIONAL: dict[str, tuple[str, str]] = {
    "puzzle": ("kifu.notation.puzzle", "parse_puzzles"),
    "alice_cards": ("kifu.games.alice.cards", "parse_card_set"),
    "lianxian_board": ("kifu.games.lianxian.board", "parse_board"),
}
"""Parsers of files other helpers add: fuzzed once their module exists."""


def optional_parser(name: str) -> Callable[..., object] | None:
    module, attr = OPTIONAL[name]
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        return None


def optional_target(name: str) -> Target:
    def target(data: bytes) -> None:
        parse = optional_parser(name)
        assert parse is not None
        try:
            parse(text_of(data), path=NAME)
        except KifuError as e:
            check_located(e)

    target.__name__ = name
    return target


def all_targets() -> dict[str, Target]:
    """Every parser's target, by name (games and optional modules found now)."""
    out: dict[str, Target] = {
        "record_text": record_text,
        "record_json": record_json,
        "rules": rules,
        "perft": perft,
    }
    for gid in games.ids():
        key = gid.replace("-", "_")
        out[f"position_{key}"] = position_target(gid)
        out[f"action_{key}"] = action_target(gid)
    for name in OPTIONAL:
        if optional_parser(name) is not None:
            out[name] = optional_target(name)
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
    for gid in games.ids():
        key = gid.replace("-", "_")
        if name == f"position_{key}":
            return [line.encode() for line in sample_states(gid)[0]]
        if name == f"action_{key}":
            _lines, acts = sample_states(gid)
            return [bytes([i % 256]) + a.encode() for i, a in enumerate(acts[:64])]
    if name in OPTIONAL:
        module = OPTIONAL[name][0]
        base = ROOT / Path(*module.split(".")[:-1])
        files = [p for p in sorted(base.rglob("*")) if p.suffix in (".cards", ".board",
                                                                    ".puzzle", ".txt")]
        return [p.read_bytes() for p in files[:8]] or [b""]
    return [b""]
