"""atheris harness for the `record_json` parser (see fuzz/run.py and docs/testing.md)."""

import sys

from run import main

if __name__ == "__main__":
    main("record_json", sys.argv)
