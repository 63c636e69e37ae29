"""Every place in parsed YAML (or JSON) data, for tests that change one place at random."""

from __future__ import annotations

from typing import Any


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path (keys and list indexes) of every value under ``node``, parents first."""
    found = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += paths(value, (*prefix, index))
    return found


def at(node: Any, path: tuple[Any, ...]) -> Any:
    """The value at ``path`` under ``node``."""
    for part in path:
        node = node[part]
    return node
