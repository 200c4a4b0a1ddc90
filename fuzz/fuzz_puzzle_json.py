"""atheris harness for the `puzzle_json` parser (see fuzz/run.py and docs/testing.md)."""

import sys

from run import main

if __name__ == "__main__":
    main("puzzle_json", sys.argv)
