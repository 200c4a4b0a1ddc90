"""The ``kifu`` command line: thin click commands over the library (docs/cli.md).

Nothing imports this package; it imports everything below it."""
