#!/bin/sh
# Issue 33's ladders (docs/bots.md, "Ladders of expert"): per game, three rungs, four seats,
# seat orders permuted (kifu match plays every distinct order of the seat list):
#   best    expert against today's best bot (pimc; ismcts in GRAPH-T), seats expert,X,expert,X
#   expert  expert against greedy, seats expert,greedy,greedy,greedy
#   cheater the cheater (expert:cheat=1, the same bot valuing the true position) against
#           greedy, seats expert:cheat=1,greedy,greedy,greedy
#   hands   (TWEAK and TOWAI, a diagnostic) expert:cheat=hands, every hand seen but the
#           deck's order drawn again in each world, against greedy
# and, from the per-deal results of the same deals, the paired gap target 2e - c - 0.5
# (python -m kifu.lab.paired, printed at the end of each game; met when above 0).
# Each writes docs/bots/i33-<game>-<rung>.json (kifu match --json). Run from the repository
# root: `sh docs/bots/ladders33.sh` runs every rung at the issue's 1,000 deals; `DEALS=40 sh
# docs/bots/ladders33.sh tweak` one game's rungs at 40 deals (docs/bots.md gives the size of
# each stored run). Seeded (2026) and bounded by counts: the report does not depend on the
# load or the number of workers.
set -e
DEALS=${DEALS:-1000}
WORKERS=${WORKERS:-2}
run() { name=$1; game=$2; shift 2
        nice -n 10 kifu match "$game" --players 4 "$@" --games "$DEALS" --seed 2026 \
            --workers "$WORKERS" --json -q > "docs/bots/i33-$name.json"; }
gap() { python -m kifu.lab.paired "docs/bots/i33-$1-expert.json" expert \
            "docs/bots/i33-$1-cheater.json" expert:cheat=1 --gap; }
only=${1:-all}
want() { [ "$only" = all ] || [ "$only" = "$1" ]; }
if want tweak; then
  run tw-expert  tweak --set rounds=1 --bots expert,greedy,greedy,greedy
  run tw-cheater tweak --set rounds=1 --bots expert:cheat=1,greedy,greedy,greedy
  run tw-hands   tweak --set rounds=1 --bots expert:cheat=hands,greedy,greedy,greedy
  run tw-best    tweak --set rounds=1 --bots expert,pimc
  gap tw
fi
if want towai; then
  run to-expert  towai --set wins=1 --bots expert,greedy,greedy,greedy
  run to-cheater towai --set wins=1 --bots expert:cheat=1,greedy,greedy,greedy
  run to-hands   towai --set wins=1 --bots expert:cheat=hands,greedy,greedy,greedy
  run to-best    towai --set wins=1 --bots expert,pimc
  gap to
fi
if want graph-t; then
  run gt-expert  graph-t --set grey=false --set black=false --bots expert,greedy,greedy,greedy
  run gt-cheater graph-t --set grey=false --set black=false --bots expert:cheat=1,greedy,greedy,greedy
  run gt-best    graph-t --set grey=false --set black=false --bots expert,ismcts
  gap gt
fi
if want alice; then
  run al-expert  alice --set turns=5 --bots expert,greedy,greedy,greedy
  run al-cheater alice --set turns=5 --bots expert:cheat=1,greedy,greedy,greedy
  run al-best    alice --set turns=5 --bots expert,pimc
  gap al
fi
if want lianxian; then
  run lx-expert  lianxian --set finish=20 --bots expert,greedy,greedy,greedy
  run lx-cheater lianxian --set finish=20 --bots expert:cheat=1,greedy,greedy,greedy
  run lx-best    lianxian --set finish=20 --bots expert,pimc
  gap lx
fi
