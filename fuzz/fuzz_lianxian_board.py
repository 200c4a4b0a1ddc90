"""atheris harness for the `lianxian_board` parser (see fuzz/run.py and docs/testing.md)."""

import sys

from run import main

if __name__ == "__main__":
    main("lianxian_board", sys.argv)
