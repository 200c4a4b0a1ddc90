"""tools/paired_pool.py, the pooled seat shares of docs/bots.md: it recounts stored reports
deal by deal (the same numbers as kifu.lab.paired), and bad input is a usage error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from kifu.lab.paired import deal_shares

ROOT = Path(__file__).resolve().parent.parent
V = "expert:posterior=1:thin=2:burn=100:chains=2:climb=20000:giveup=1:warm=1"
"""TWEAK's default `expert` (V), spelled out as its stored reports name it."""
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
    assert lines[1] == "e - expert: +0.000 (each report against itself, nothing to compare)"
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


def test_tweak_best_rung_in_the_docs_recounts() -> None:
    """The at-a-glance TWEAK figure of docs/bots.md (twelfth session) is what the tool gives
    over the 1,000 stored deals its subsection names."""
    bots = ROOT / "docs" / "bots"
    stored = [bots / "i33-tw-u-climb-pimc-2032-pd.json", bots / "i33-tw-y-v-pimc-2033-pd.json"]
    seeds = [*range(2094, 2099), *range(2100, 2105), *range(2107, 2121)]
    runs = [*stored, *(bots / f"i33-tw-best-{s}-pd.json" for s in seeds)]
    r = _run("--bot", "expert", *(f"--alias={p}={V}" for p in stored), *(f"{p}:{p}" for p in runs))
    assert r.returncode == 0, r.stderr
    e, rest = r.stdout.splitlines()[0].split(" over ")
    assert rest == "1000 deals"
    est, low, high = (float(x.strip("[],+")) for x in e.split()[1:])
    row = next(line for line in (ROOT / "docs" / "bots.md").read_text().splitlines()
               if line.startswith("| TWEAK | ") and "(`pimc`) |" in line)
    assert f"| {est:.3f} [{low:.3f}, {high:.3f}] (`pimc`) | 1,000 | yes |" in row


def test_tweak_gap_in_the_docs_recounts() -> None:
    """The at-a-glance TWEAK gap of docs/bots.md (thirteenth session) is what the tool gives
    over the 1,640 stored paired deals its subsection names (seeds by name, no glob)."""
    bots = ROOT / "docs" / "bots"
    runs = [(bots / "i33-tw-u-climb-2032-pd.json", bots / "i33-tw-n-og96cheat-2032-pd.json")]
    runs += [(bots / f"i33-tw-u-climb-{s}-pd.json", bots / f"i33-tw-gap-c-{s}-pd.json")
             for s in range(2034, 2040)]
    runs += [(bots / f"i33-tw-x-v-{s}-pd.json", bots / f"i33-tw-x-c-{s}-pd.json")
             for s in range(2050, 2055)]
    runs += [(bots / f"i33-tw-y-v-{s}-pd.json", bots / f"i33-tw-y-c-{s}-pd.json")
             for s in range(2055, 2068)]
    runs += [(bots / f"i33-tw-z-v-{s}-pd.json", bots / f"i33-tw-z-c-{s}-pd.json")
             for s in range(2122, 2138)]
    cheat32 = f"--alias={runs[0][1]}=expert:cheat=1:others=greedy:worlds=96"
    r = _run("--bot", V, "--base", V, cheat32, *(f"{e}:{e}:{c}" for e, c in runs))
    assert r.returncode == 0, r.stderr
    gap, rest = r.stdout.splitlines()[2].split(": ", 1)[1].split(" over ")
    assert rest == "1640 deals"
    est, low, high = (float(x.strip("[],+")) for x in gap.split())
    row = next(line for line in (ROOT / "docs" / "bots.md").read_text().splitlines()
               if line.startswith("| TWEAK | ") and "(`pimc`) |" in line)
    assert f"| {est:+.3f} [{low:+.3f}, {high:+.3f}] | 1,640 | no: not settled |" in row
    assert low < 0 < high  # the verdict the row states


def test_towai_gap_in_the_docs_recounts() -> None:
    """The at-a-glance TOWAI gap of docs/bots.md (fourteenth session) is what the tool
    gives over the 1,000 stored paired deals its subsection names (seeds by name)."""
    bots = ROOT / "docs" / "bots"
    runs = [(bots / "i33-to-base30-pd.json", bots / "i33-to-cheater-pd.json"),
            (bots / "i33-to-base-3033-pd.json", bots / "i33-to-cheater-3033-pd.json"),
            (bots / "i33-to-l-base-3034-pd.json", bots / "i33-to-l-cheater-3034-pd.json"),
            (bots / "i33-to-l-base-3035-pd.json", bots / "i33-to-p-cheater-3035-pd.json"),
            (bots / "i33-to-l-base-3036-pd.json", bots / "i33-to-p-cheater-3036-pd.json")]
    runs += [(bots / f"i33-to-z-e-{s}-pd.json", bots / f"i33-to-z-c-{s}-pd.json")
             for s in range(2138, 2155)]
    r = _run("--bot", "expert", "--base", "expert", *(f"{e}:{e}:{c}" for e, c in runs))
    assert r.returncode == 0, r.stderr
    gap, rest = r.stdout.splitlines()[2].split(": ", 1)[1].split(" over ")
    assert rest == "1000 deals"  # seed 2026's cheater report has 60 deals: 30 are paired
    est, low, high = (float(x.strip("[],+")) for x in gap.split())
    row = next(line for line in (ROOT / "docs" / "bots.md").read_text().splitlines()
               if line.startswith("| TOWAI | ") and "(`pimc`) |" in line)
    assert f"| {est:+.3f} [{low:+.3f}, {high:+.3f}] | 1,000 | no: settled below |" in row
    assert high < 0  # the verdict the row states


def _screen_gain(tag: str, bot: str, seeds: list[int]) -> tuple[float, float, float]:
    """V' - V over the stored gap deals of ``seeds`` (a screen of V with one parameter
    changed, reports ``i33-tw-{tag}-S``), paired with V's stored reports of each seed."""
    bots = ROOT / "docs" / "bots"
    runs = []
    for s in seeds:
        t = "z" if s >= 2122 else "y" if s >= 2055 else "x"
        runs.append(f"{bots / f'i33-tw-{tag}-{s}-pd.json'}:{bots / f'i33-tw-{t}-v-{s}-pd.json'}")
    r = _run("--bot", bot, "--base", V, *runs)
    assert r.returncode == 0, r.stderr
    diff, rest = r.stdout.splitlines()[1].split(": ", 1)[1].split(" over ")
    assert rest == f"{40 * len(seeds)} deals"
    est, low, high = (float(x.strip("[],+")) for x in diff.split())
    return est, low, high


def test_tweak_screens_in_the_docs_recount() -> None:
    """The two screens of V in docs/bots.md's table of TWEAK levers (fifteenth session)
    are what the tool gives over the stored deals their subsections name."""
    rows = (ROOT / "docs" / "bots.md").read_text().splitlines()
    for tag, bot, seeds, lever in (
            ("q", "expert:z=0.5", [*range(2122, 2138), *range(2055, 2067)], "V at `z=0.5`"),
            ("w", "expert:worlds=144", [*range(2122, 2138), *range(2055, 2068),
                                        *range(2050, 2055)], "V at 144 + 288 worlds")):
        est, low, high = _screen_gain(tag, bot, seeds)
        row = next(line for line in rows if line.startswith(f"| {lever} | "))
        assert row.endswith(f"| {40 * len(seeds):,} | {est:+.3f} [{low:+.3f}, {high:+.3f}] |"), row
