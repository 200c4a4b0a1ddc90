"""The optional compiled core of the GRAPH-T double-dummy searcher.

Everything else is in pyproject.toml. The extension is built when a C compiler is there;
without one the build goes on and kifu uses the pure-Python searcher (the reference), so
the package installs and passes its tests either way (docs/perf/dd.md).
"""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("kifu.puzzles._ddcore", ["kifu/puzzles/_ddcore.c"], optional=True,
              extra_compile_args=["-O3"]),
])
