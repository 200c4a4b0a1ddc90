"""Doctests of the framework modules run only where their extra is installed."""

import importlib.util

collect_ignore = [
    name for name, package in (("openspiel.py", "pyspiel"), ("bots.py", "pyspiel"),
                               ("pettingzoo.py", "pettingzoo"))
    if importlib.util.find_spec(package) is None
]
