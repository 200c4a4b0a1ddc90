"""Run one atheris (libFuzzer) harness: ``python fuzz/run.py PARSER [libFuzzer flags] [CORPUS]``.

PARSER is a name from ``fuzz/targets.py`` (``python fuzz/run.py --list`` lists them). The
seed inputs of the parser are written to ``fuzz/corpus/PARSER/`` first (kept out of git),
so a run starts from valid files and mutates them.

Anything but a ``KifuError`` escaping the target is an *escape*: its input is written to
``fuzz/artifacts/PARSER/escape-<sha1>`` (copy it to ``tests/fuzz_corpus/PARSER/`` once
fixed, so the test suite replays it for ever) and the run goes on, counting; with
``KIFU_FUZZ_STOP=1`` the first escape stops the run as a libFuzzer crash instead.

Counts go to ``fuzz/logs/PARSER.stats.json`` (every 100 inputs and at the end): inputs,
accepted (the parser took the input), rejected (a ``KifuError``), escapes, and the peak
resident memory of the process (``ru_maxrss``). The campaign of ``docs/testing.md``::

    python fuzz/run.py record_text -atheris_runs=100000
"""

from __future__ import annotations

import atexit
import hashlib
import importlib
import json
import os
import resource
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import atheris  # noqa: E402

with atheris.instrument_imports(include=["kifu", "targets"]):
    import targets

    from kifu import games
    from kifu.core.errors import KifuError

    for _gid in games.ids():  # games load lazily: import them here, to instrument them
        games.get(_gid)
    from kifu.puzzles import QUESTIONS

    for _module in sorted({m for m, _ in QUESTIONS.values()}):  # what check_puzzle loads
        importlib.import_module(_module)
    from kifu.cli.main import COMMANDS

    # the CLI loads each command's module when it runs (archive_query runs one): import
    # them all here, with the archive they call, to instrument them
    for _module in sorted({m for m, *_ in COMMANDS.values()} | {"kifu.archive"}):
        importlib.import_module(_module)
    TARGETS = targets.all_targets()

MAX_LEN = {"record_text": 16384, "record_json": 16384, "perft": 8192, "trace": 16384,
           "puzzle": 8192, "puzzle_json": 8192, "alice_cards": 8192, "lianxian_board": 4096}


def main(name: str, argv: list[str]) -> None:
    found = TARGETS
    if name not in found:
        sys.exit(f"unknown parser {name!r}; known: {', '.join(found)}")
    target = found[name]
    corpus = HERE / "corpus" / name
    corpus.mkdir(parents=True, exist_ok=True)
    for seed in targets.seeds(name):
        (corpus / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
    artifacts = HERE / "artifacts" / name
    artifacts.mkdir(parents=True, exist_ok=True)
    logs = HERE / "logs"
    logs.mkdir(exist_ok=True)
    stats_path = logs / f"{name}.stats.json"
    stats = {"parser": name, "inputs": 0, "accepted": 0, "rejected": 0, "escapes": 0,
             "escape_kinds": {}, "peak_rss_mb": 0.0}
    stop = os.environ.get("KIFU_FUZZ_STOP") == "1"

    def save() -> None:
        stats["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                                     1)
        tmp = stats_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(stats, indent=1) + "\n")
        tmp.replace(stats_path)

    atexit.register(save)

    def one_input(data: bytes) -> None:
        stats["inputs"] += 1
        try:
            ok = target(data)
        except KifuError:
            ok = False
        except Exception as e:  # an escape
            if stop:
                raise
            stats["escapes"] += 1
            tb = traceback.extract_tb(e.__traceback__)[-1]
            kind = f"{type(e).__name__} at {Path(tb.filename).name}:{tb.lineno}"
            stats["escape_kinds"][kind] = stats["escape_kinds"].get(kind, 0) + 1
            (artifacts / f"escape-{hashlib.sha1(data).hexdigest()}").write_bytes(data)
            ok = None
        if ok is not None:
            stats["accepted" if ok else "rejected"] += 1
        if stats["inputs"] % 100 == 0:
            save()

    args = [argv[0], f"-artifact_prefix={artifacts}/",
            f"-max_len={MAX_LEN.get(name, 1024)}", *argv[1:]]
    if not any(not a.startswith("-") for a in argv[1:]):
        args.append(str(corpus))
    atexit.register(lambda: [print(f"stat::kifu_{k}: {v}", file=sys.stderr)
                             for k, v in sorted(targets.COUNTS.items())])
    mutate = targets.MUTATORS.get(name)
    if mutate is None:
        atheris.Setup(args, one_input)
    else:  # a structure-aware mutation, one input in four libFuzzer's own

        def custom(data: bytes, max_size: int, seed: int) -> bytes:
            if seed % 4 == 0:
                return atheris.Mutate(data, max_size)
            return mutate(data, seed)[:max_size]

        atheris.Setup(args, one_input, custom_mutator=custom)
    atheris.Fuzz()


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] == "--list":
        print("\n".join(TARGETS))
        sys.exit(0)
    main(sys.argv[1], [sys.argv[0], *sys.argv[2:]])
