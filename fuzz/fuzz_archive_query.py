"""atheris harness for `kifu archive query` and all its options (see fuzz/run.py and
docs/testing.md)."""

import sys

from run import main

if __name__ == "__main__":
    main("archive_query", sys.argv)
