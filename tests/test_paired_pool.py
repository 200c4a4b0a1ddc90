"""tools/paired_pool.py, the pooled seat shares of docs/bots.md: it recounts stored reports
deal by deal (the same numbers as kifu.lab.paired), and bad input is a usage error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from kifu.lab.paired import deal_shares

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "paired_pool.py"
GT = [ROOT / "docs" / "bots" / f"i33-gt-best-{s}-pd.json" for s in (2085, 2086)]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True,
                          cwd=ROOT, check=False)


def test_pool_is_the_mean_of_the_deals() -> None:
    r = _run("--bot", "expert", *(f"{p}:{p}" for p in GT))
    assert r.returncode == 0, r.stderr
    shares = [v for p in GT for v in deal_shares(json.loads(p.read_text()), "expert").values()]
    lines = r.stdout.splitlines()
    assert lines[0].startswith(f"e: {sum(shares) / len(shares):+.3f} [")
    assert lines[0].endswith(f"over {len(shares)} deals")
    assert lines[1].startswith("e - expert: +0.000 [+0.000, +0.000]")  # a report against itself
    assert len(lines) == 2  # no cheater report: no gap line


def test_gap_against_a_report_as_its_own_cheater() -> None:
    # 2e - c - 0.5 with c = e is e - 0.5 deal by deal
    p = GT[0]
    r = _run("--bot", "expert", "--cheat", "expert", f"{p}:{p}:{p}")
    assert r.returncode == 0, r.stderr
    e = float(r.stdout.splitlines()[0].split()[1])
    gap = float(r.stdout.splitlines()[2].split(":")[1].split()[0])
    assert abs(gap - (e - 0.5)) < 0.0015


def test_bad_input_is_a_usage_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"bots": ["expert", "pimc"], "per_deal": [[0, [[None, 0.5]]]]}))
    for args, words in ((["--bot", "expert", f"{bad}:{bad}"], "bad.json"),
                        (["--bot", "expert", f"{empty}:{empty}"], "share no deal"),
                        (["--bot", "expert", "nowhere.json:nowhere.json"], "not found"),
                        (["--bot", "expert", str(GT[0])], "NEW:BASE"),
                        (["--bot", "expert", ":".join([str(GT[0])] * 4)], "NEW:BASE"),
                        (["--bot", "expert", f"{GT[0]}:{GT[0]}", ":".join([str(GT[0])] * 3)],
                         "for every run or for none"),
                        (["--bot", "nobody", f"{GT[0]}:{GT[0]}"], "not in the report")):
        r = _run(*args)
        assert r.returncode == 2
        assert words in r.stderr and "Traceback" not in r.stderr
