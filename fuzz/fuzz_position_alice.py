"""atheris harness for the `position_alice` parser (see fuzz/run.py and docs/testing.md)."""

import sys

from run import main

if __name__ == "__main__":
    main("position_alice", sys.argv)
