"""atheris harness for the `alice_cards` parser (see fuzz/run.py and docs/testing.md)."""

import sys

from run import main

if __name__ == "__main__":
    main("alice_cards", sys.argv)
