"""atheris harness for the `play_alice` target (see fuzz/run.py and docs/testing.md)."""

import sys

from run import main

if __name__ == "__main__":
    main("play_alice", sys.argv)
