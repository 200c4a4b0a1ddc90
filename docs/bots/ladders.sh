#!/bin/sh
# The ladder runs of docs/bots.md: each writes docs/bots/<name>.json (kifu match --json).
# CPU is shared: each run is one process (--workers 1) at nice 10. Run from the repository
# root; `python tools/ladder_table.py docs/bots/*.json` prints the tables.
set -e
run() { name=$1; shift; nice -n 10 kifu match "$@" --games 1000 --seed 2026 --workers 1 --json -q > "docs/bots/$name.json"; }

# the game's own bots, random and greedy
run tweak-2p-classic     tweak    --players 2 --set rounds=1 --bots greedy,random
run graph-t-3p-classic   graph-t  --players 3 --bots random,greedy,ai
run towai-3p-classic     towai    --players 3 --set wins=1 --bots random,greedy,out
run lianxian-3p-classic  lianxian --players 3 --bots random,greedy,defensive

# the searchers against the references
run towai-2p             towai    --players 2 --set wins=1 --bots pimc,greedy
run tweak-2p             tweak    --players 2 --set rounds=1 --bots pimc:worlds=8,greedy
run graph-t-3p-quick     graph-t  --players 3 --set grey=false --set black=false --bots pimc:worlds=4,greedy,ai
run alice-3p             alice    --players 3 --set turns=5 --bots pimc,greedy,random
run lianxian-2p          lianxian --players 2 --set finish=20 --bots pimc:worlds=3,greedy

# what this session could finish of the last two (300 deals; `--games 300`):
#   tweak-2p-300     tweak    --players 2 --set rounds=1 --bots pimc:worlds=8,greedy
#   lianxian-2p-300  lianxian --players 2 --set finish=20 --bots pimc:worlds=3,greedy
# still to run for the full ladders (every bot against greedy, the best against the rest):
#   ismcts against greedy in every game; pimc against ismcts, out, defensive and random
