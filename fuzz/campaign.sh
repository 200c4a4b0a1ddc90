#!/bin/sh
# The atheris campaign of docs/testing.md: every parser for RUNS inputs (default 100000),
# two at a time; one log per parser in fuzz/logs/, a summary line each at the end.
# Usage: sh fuzz/campaign.sh [RUNS] [PARSER...]
cd "$(dirname "$0")/.." || exit 1
PY=${PYTHON:-.venv/bin/python}
RUNS=${1:-100000}
[ $# -gt 0 ] && shift
PARSERS=${*:-$($PY fuzz/run.py --list)}
mkdir -p fuzz/logs
run() {
    $PY fuzz/run.py "$1" -atheris_runs="$RUNS" -print_final_stats=1 > "fuzz/logs/$1.log" 2>&1
    echo "$1: exit $? $(grep -E '^Done|stat::number_of_executed_units' "fuzz/logs/$1.log" | tr '\n' ' ')"
}
set -- $PARSERS
while [ $# -gt 0 ]; do
    run "$1" & a=$!
    if [ $# -gt 1 ]; then run "$2" & b=$!; wait $b; shift; fi
    wait $a
    shift
done
