"""Exporting a 100,000-record archive (issue 39): ``kifu archive export --format parquet``
and ``--format jsonl``, each in its own process, its CPU time and its peak resident memory
(its ``VmHWM``), next to the anchor measured in the same run: the plain notation export of
the same archive (``--format kifu``: read the texts, write them out).

The archive is made cheaply (``tests/archive_helpers.grown_archive``): the fixtures imported
once, their rows copied in SQL to ``KIFU_BENCH_EXPORT`` records (default 100,000), each copy
with a new hash. Every record still parses and its moves are exported; only the import's
validation is skipped. The memory must not grow with the archive: the test also exports a
tenth of it and checks the peak stays within 1.5 times that one's.

Run: ``pytest benchmarks/test_archive_export.py -s`` or
``python -m benchmarks.test_archive_export [N]`` (prints the figures).
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from archive_helpers import grown_archive  # noqa: E402

RECORDS = int(os.environ.get("KIFU_BENCH_EXPORT", "100000"))


def run_export(db: str, fmt: str, dest: str) -> dict[str, float]:
    """One ``kifu archive export`` in a child process: CPU seconds (user + system), wall
    seconds and peak RSS (MiB, its ``VmHWM``) of that child alone."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    code = ("import sys; from kifu.cli.main import cli\n"
            "try:\n    cli(sys.argv[1:], prog_name='kifu')\nexcept SystemExit as e:\n"
            "    assert not e.code, e.code\n"
            # VmHWM: the peak of this process's own memory (ru_maxrss would start from the
            # parent's, which it inherits over fork and exec)
            "print(next(int(l.split()[1]) for l in open('/proc/self/status')\n"
            "           if l.startswith('VmHWM')))")
    start = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", code, "archive", "export", "--db", db,
                        "--format", fmt, "-q", dest], capture_output=True, text=True,
                       cwd=ROOT, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rss = int(r.stdout.strip().splitlines()[-1]) / 1024
    return {"cpu_s": round(cpu, 2), "wall_s": round(wall, 2), "peak_rss_mib": round(rss, 1)}


def measure(n: int, work: str) -> dict[str, dict[str, float]]:
    """Grow an archive of ``n`` records in ``work`` and export it three ways."""
    os.makedirs(work, exist_ok=True)
    db = os.path.join(work, "big.db")
    start = time.process_time()
    have = grown_archive(db, n)
    out: dict[str, dict[str, float]] = {"corpus": {
        "records": have, "cpu_s": round(time.process_time() - start, 2),
        "db_mib": round(os.path.getsize(db) / 2**20, 1)}}
    out["kifu (anchor)"] = run_export(db, "kifu", os.path.join(work, "all.kifu"))
    out["jsonl"] = run_export(db, "jsonl", os.path.join(work, "all.jsonl"))
    out["parquet"] = run_export(db, "parquet", os.path.join(work, "pq"))
    anchor = out["kifu (anchor)"]["cpu_s"]
    for k in ("jsonl", "parquet"):
        out[k]["cpu_over_anchor"] = round(out[k]["cpu_s"] / anchor, 2)
    size = sum(f.stat().st_size for f in Path(work, "pq").rglob("*.parquet"))
    out["parquet"]["mib_on_disk"] = round(size / 2**20, 1)
    return out


def test_export_of_a_large_archive(tmp_path) -> None:
    pytest.importorskip("pyarrow", reason="pyarrow (the parquet extra) is not installed")
    big = measure(RECORDS, str(tmp_path / "big"))
    small = measure(max(1000, RECORDS // 10), str(tmp_path / "small"))
    print(f"\n{RECORDS} records: {big}\n{RECORDS // 10} records: {small}")
    for fmt in ("parquet", "jsonl"):  # bounded: ten times the records, not the memory
        assert big[fmt]["peak_rss_mib"] <= 1.5 * small[fmt]["peak_rss_mib"], (fmt, big, small)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else RECORDS
    with tempfile.TemporaryDirectory() as work:
        for k, v in measure(n, os.path.join(work, "big")).items():
            print(f"{k}: {v}")
    print(f"load: {os.getloadavg()}")


if __name__ == "__main__":
    main()
