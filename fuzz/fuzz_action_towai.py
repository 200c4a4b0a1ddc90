"""atheris harness for the `action_towai` parser (see fuzz/run.py and docs/testing.md)."""

import sys

from run import main

if __name__ == "__main__":
    main("action_towai", sys.argv)
