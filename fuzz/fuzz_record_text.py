"""atheris harness for the `record_text` parser (see fuzz/run.py and docs/testing.md)."""

import sys

from run import main

if __name__ == "__main__":
    main("record_text", sys.argv)
