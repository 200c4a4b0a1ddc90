"""atheris harness for the `position_graph_t` parser (see fuzz/run.py and docs/testing.md)."""

import sys

from run import main

if __name__ == "__main__":
    main("position_graph_t", sys.argv)
