"""atheris harness for the `rules` parser (see fuzz/run.py and docs/testing.md)."""

import sys

from run import main

if __name__ == "__main__":
    main("rules", sys.argv)
