"""What kifu's Datasette plugin needs from the archive's metadata without importing
Datasette: the plugin's name and the long columns a table view opens without."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode

PLUGIN = "kifu-archive"
"""The plugin's name (its settings live under ``plugins`` in the metadata)."""

HIDDEN = {
    "records": ["hash", "tags", "comments", "source"],
    "puzzles": ["hash", "tags", "text"],
}
"""Long columns left out of a table's default view (the row page and ``?_col=`` show
them)."""


def with_hidden_columns(scope: dict[str, Any], config: Callable[[str, str], Any]) -> str | None:
    """The URL to send a plain table view to, with its long columns hidden (``_nocol``),
    or None when the request already chooses its columns (or is not a table view)."""
    if scope.get("type") != "http" or scope.get("method") != "GET":
        return None
    parts = scope.get("path", "").strip("/").split("/")
    if len(parts) != 2 or "." in parts[1]:  # /db/table only: no .json, no row page
        return None
    query = parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                      keep_blank_values=True)
    if any(k in ("_col", "_nocol") for k, _ in query):
        return None
    settings = config(*parts) or {}
    hidden = settings.get("hidden_columns") if isinstance(settings, dict) else None
    if not hidden:
        return None
    query += [("_nocol", c) for c in hidden]
    return f"{scope.get('root_path', '')}/{parts[0]}/{parts[1]}?{urlencode(query)}"
