"""TWEAK's soft-inference settings of the seventh session (issue 33) measured as
``tools/inference_overlap.py --game tweak`` measures them (the share of the other seats'
cards a world puts in the right hand, paired position by position against the sampler),
with longer windows than the fourth session tried, up to the whole round (64)::

    python tools/tweak_overlap7.py --game tweak --games 8 --worlds 96
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import inference_overlap

SETTINGS = [
    ("sampler (no inference)", None),
    ("infer=0.1 window=8 factor=2", {"eps": 0.1, "window": 8, "factor": 2}),
    ("infer=0.1 window=8 weigh=1", {"eps": 0.1, "window": 8, "factor": 1, "weigh": True}),
    ("infer=0.1 window=16 weigh=1", {"eps": 0.1, "window": 16, "factor": 1, "weigh": True}),
    ("infer=0.1 window=32 weigh=1", {"eps": 0.1, "window": 32, "factor": 1, "weigh": True}),
    ("infer=0.1 window=64 weigh=1", {"eps": 0.1, "window": 64, "factor": 1, "weigh": True}),
    ("infer=0.1 window=64 factor=2", {"eps": 0.1, "window": 64, "factor": 2}),
    ("infer=0.1 window=64 factor=4", {"eps": 0.1, "window": 64, "factor": 4}),
    ("infer=0.1 window=64 weigh=1 ess=0.3", {"eps": 0.1, "window": 64, "factor": 1,
                                             "weigh": True, "ess": 0.3}),
    ("infer=0.3 window=64 weigh=1", {"eps": 0.3, "window": 64, "factor": 1, "weigh": True}),
    ("infer=0.03 window=64 weigh=1", {"eps": 0.03, "window": 64, "factor": 1, "weigh": True}),
    ("infer=0.01 window=64 weigh=1", {"eps": 0.01, "window": 64, "factor": 1, "weigh": True}),
]
"""The settings (the first is the paired base)."""

if __name__ == "__main__":
    inference_overlap.TWEAK_SETTINGS = SETTINGS
    inference_overlap.main()
