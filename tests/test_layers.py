"""Imports point downward only: oic_ai -> graph -> nodes -> tools -> stores.

Every import in a layer's modules is read from the source (including imports inside
functions and ``TYPE_CHECKING`` blocks), so a lazy import cannot hide an upward one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import PROJECT

LAYERS = ("graph", "nodes", "tools", "stores")
# what each layer must never import
FORBIDDEN = {
    "nodes": {"graph"},
    "tools": {"graph", "nodes"},
    "stores": {"graph", "nodes", "tools"},
}
# modules in nodes/ that every node may share; nodes never import each other
NODE_SHARED = {"state", "context", "messages"}


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, as ``oic_ai.``-relative dotted names, with its line."""
    package = path.parent.relative_to(PROJECT).parts
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(("oic_ai", *package[: len(package) - node.level + 1]))
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            found.extend((node.lineno, f"{module}.{alias.name}") for alias in node.names)
    return found


def _layer(module: str) -> tuple[str, str] | None:
    """The layer a module belongs to, and the module's name inside it."""
    parts = module.split(".")
    if parts[0] == "oic_ai":
        parts = parts[1:]
    if parts and parts[0] in LAYERS:
        return parts[0], parts[1] if len(parts) > 1 else ""
    return None


def _sources(layer: str) -> list[Path]:
    return sorted((PROJECT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_layer_imports_upward(layer: str) -> None:
    upward = [
        f"{path.relative_to(PROJECT)}:{line}: {module}"
        for path in _sources(layer)
        for line, module in _imports(path)
        if (target := _layer(module)) and target[0] in FORBIDDEN[layer]
    ]
    assert upward == []


def test_nodes_do_not_import_each_other() -> None:
    crossing = [
        f"{path.relative_to(PROJECT)}:{line}: {module}"
        for path in _sources("nodes")
        for line, module in _imports(path)
        if (target := _layer(module))
        and target[0] == "nodes"
        and target[1] not in NODE_SHARED | {"", path.stem}
    ]
    assert crossing == []


def test_the_checker_names_layers() -> None:
    assert _layer("oic_ai.graph.state") == ("graph", "state")
    assert _layer("graph.context") == ("graph", "context")
    assert _layer("oic_ai.stores.settings") == ("stores", "settings")
    assert _layer("langgraph.graph") is None
