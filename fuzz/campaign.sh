#!/bin/sh
# The atheris campaign of docs/testing.md: every parser for RUNS inputs (default 100000),
# JOBS at a time (default 2), each under `nice -n 10`; one log per parser in fuzz/logs/
# (PARSER.log, and PARSER.stats.json with the counts and the peak memory), and a table at
# the end (fuzz/summary.py).
# Usage: [JOBS=3] sh fuzz/campaign.sh [RUNS] [PARSER...]
cd "$(dirname "$0")/.." || exit 1
PY=${PYTHON:-.venv/bin/python}
RUNS=${1:-100000}
[ $# -gt 0 ] && shift
PARSERS=${*:-$($PY fuzz/run.py --list)}
mkdir -p fuzz/logs
export PY RUNS
printf '%s\n' $PARSERS | xargs -P "${JOBS:-2}" -I{} sh -c \
    'nice -n 10 $PY fuzz/run.py {} -atheris_runs=$RUNS -print_final_stats=1 \
        > fuzz/logs/{}.log 2>&1; echo "{}: exit $?"'
$PY fuzz/summary.py $PARSERS
