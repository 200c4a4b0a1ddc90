#!/bin/sh
# Issue 33, sixth session: the planned confirmation of expert:worlds=176 (TWEAK, 4 players,
# one round) on the 280 deals of the fifth session; two lanes, each run after the other.
# Usage: sh docs/bots/i33-tw-o-run.sh A|B   (from the worktree; reports in docs/bots/)
set -u
K=.venv/bin/kifu
run() {  # name bots seed
    /usr/bin/time -f "$1 cpu_user=%U cpu_sys=%S wall=%e" -a -o docs/bots/i33-tw-o-times.txt \
        nice -n 10 $K match tweak --players 4 --set rounds=1 --bots "$2" --games 40 --seed "$3" \
        --json -q > "docs/bots/i33-tw-o-$1-pd.json.part" && \
        mv "docs/bots/i33-tw-o-$1-pd.json.part" "docs/bots/i33-tw-o-$1-pd.json"
}
E=expert:worlds=176,greedy,greedy,greedy
C=expert:cheat=1:worlds=176,greedy,greedy,greedy
case "$1" in
A) run w176-2032 $E 2032; run w176-2035 $E 2035; run w176-2037 $E 2037; run w176-2039 $E 2039
   run w176cheat-2034 $C 2034 ;;
B) run w176-2034 $E 2034; run w176-2036 $E 2036; run w176-2038 $E 2038
   run w176cheat-2032 $C 2032 ;;
esac
