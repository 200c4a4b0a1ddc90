"""Run one atheris (libFuzzer) harness: ``python fuzz/run.py PARSER [libFuzzer flags] [CORPUS]``.

PARSER is a name from ``fuzz/targets.py`` (``python fuzz/run.py --list`` lists them). The
seed inputs of the parser are written to ``fuzz/corpus/PARSER/`` first (kept out of git),
so a run starts from valid files and mutates them. Anything but a ``KifuError`` escaping
the target is a crash: libFuzzer stops and writes the input to ``fuzz/artifacts/PARSER/``
(copy it to ``tests/fuzz_corpus/PARSER/`` once fixed, so the test suite replays it).

The campaign of ``docs/testing.md``::

    python fuzz/run.py record_text -atheris_runs=100000
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import sys
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
    TARGETS = targets.all_targets()  # optional parsers' modules too

MAX_LEN = {"record_text": 16384, "record_json": 16384, "perft": 8192}


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

    def one_input(data: bytes) -> None:
        with contextlib.suppress(KifuError):
            target(data)

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
