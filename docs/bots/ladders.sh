#!/bin/sh
# The ladder runs of docs/bots.md: each writes docs/bots/<name>.json (kifu match --json).
# Run from the repository root; `python tools/ladder_table.py docs/bots/<name>.json` prints
# a run's tables. CPU seconds per run (user, measured) are in docs/bots.md, "Status".
set -e
run() { name=$1; workers=$2; shift 2
        nice -n 5 kifu match "$@" --games 1000 --seed 2026 --workers "$workers" --json -q \
            > "docs/bots/$name.json"; }

# The ladders (2026-11-26): every ladder bot of the game in one match, four seats, so each
# deal is played under the four cyclic rotations and every pair of bots meets in every game.
run alice-4p          2 alice    --players 4 --set turns=5 --bots pimc,ismcts,greedy,random
run towai-4p          2 towai    --players 4 --set wins=1 --bots pimc,ismcts:iters=40,greedy,out
run graph-t-4p-quick  2 graph-t  --players 4 --set grey=false --set black=false --bots pimc,ismcts,greedy,ai
run tweak-4p          2 tweak    --players 4 --set rounds=1 --bots pimc:worlds=6,ismcts:iters=12,greedy,random
run lianxian-4p-20    2 lianxian --players 4 --set finish=20 --bots pimc,ismcts:iters=8,greedy,defensive

# random against the searchers where the four seats had no room for it (three players, the
# ladder's rules and settings):
run graph-t-3p-quick-random 2 graph-t --players 3 --set grey=false --set black=false --bots pimc,ismcts,random
run lianxian-3p-20-random   2 lianxian --players 3 --set finish=20 --bots pimc,ismcts:iters=8,random
run towai-3p-random     2 towai    --players 3 --set wins=1 --bots pimc,ismcts:iters=40,random

# The classic bots with random (the random rung of GRAPH-T, TOWAI and Lianxian, whose
# ladders above have no free seat for it); re-run on 2026-11-26 (same bytes).
run tweak-2p-classic     1 tweak    --players 2 --set rounds=1 --bots greedy,random
run graph-t-3p-classic   1 graph-t  --players 3 --bots random,greedy,ai
run towai-3p-classic     1 towai    --players 3 --set wins=1 --bots random,greedy,out
run lianxian-3p-classic  1 lianxian --players 3 --bots random,greedy,defensive

# Earlier runs (the first session of issue 23), kept as records:
run towai-2p             1 towai    --players 2 --set wins=1 --bots pimc,greedy
run graph-t-3p-quick     1 graph-t  --players 3 --set grey=false --set black=false --bots pimc:worlds=4,greedy,ai
# and with --games 300 (the 1,000-deal runs could not finish in that session):
#   tweak-2p-300         tweak    --players 2 --set rounds=1 --bots pimc:worlds=8,greedy
#   graph-t-3p-quick-300 graph-t  --players 3 --set grey=false --set black=false --bots pimc:worlds=4:z=0,greedy,ai
#   lianxian-2p-300      lianxian --players 2 --set finish=20 --bots pimc:worlds=3,greedy
#   alice-3p-300         alice    --players 3 --set turns=5 --bots pimc,greedy,random
