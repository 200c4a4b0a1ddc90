"""atheris harness for the `trace` parser (see fuzz/run.py and docs/testing.md)."""

import sys

from run import main

if __name__ == "__main__":
    main("trace", sys.argv)
