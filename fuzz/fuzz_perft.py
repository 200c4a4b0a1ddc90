"""atheris harness for the `perft` parser (see fuzz/run.py and docs/testing.md)."""

import sys

from run import main

if __name__ == "__main__":
    main("perft", sys.argv)
