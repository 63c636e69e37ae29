"""Imports point downward only, and no module takes part in an import circle.

The layers, top to bottom: the front doors (``oic_ai/cli``, ``oic_ai/web``), the
services (``oic_ai/services``), then ``graph`` -> ``nodes`` -> ``tools`` -> ``stores``.
Inside the CLI: ``main`` -> ``parser`` -> ``help``/``common``, and ``main`` ->
``commands`` -> ``render``. Every import is read from the source (including imports
inside functions and ``TYPE_CHECKING`` blocks), so a lazy import cannot hide an upward
one or close a circle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import PROJECT

# where each layer's modules are, in this checkout
FOLDERS = {
    "cli": PROJECT / "oic_ai" / "cli",
    "web": PROJECT / "oic_ai" / "web",
    "services": PROJECT / "oic_ai" / "services",
    "graph": PROJECT / "graph",
    "nodes": PROJECT / "nodes",
    "tools": PROJECT / "tools",
    "stores": PROJECT / "stores",
}
ORDER = ("cli", "web", "services", "graph", "nodes", "tools", "stores")
# what each layer must never import: every layer above it (the CLI's serve may start the
# web app, so only the web app is forbidden the CLI)
FORBIDDEN = {layer: set(ORDER[: ORDER.index(layer)]) for layer in ORDER}
# modules in nodes/ that every node may share; nodes never import each other
NODE_SHARED = {"state", "context", "messages"}
# inside the CLI package: what each part must never import
CLI_FORBIDDEN = {
    "render": {"main", "parser", "commands", "help"},
    "commands": {"main"},
    "parser": {"main", "commands", "render"},
    "help": {"main", "parser", "commands", "render"},
    "common": {"main", "parser", "commands", "render", "help"},
}


def _module_name(path: Path) -> str:
    """``oic_ai.graph.agent`` for ``graph/agent.py``; packages by their folder."""
    parts = list(path.relative_to(PROJECT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts if parts[0] == "oic_ai" else ["oic_ai", *parts])


@cache
def _all_modules() -> dict[str, Path]:
    return {_module_name(p): p for folder in FOLDERS.values() for p in folder.rglob("*.py")} | {
        "oic_ai": PROJECT / "oic_ai" / "__init__.py",
        "oic_ai.__main__": PROJECT / "oic_ai" / "__main__.py",
    }


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, as ``oic_ai.``-relative dotted names, with its line."""
    package = _module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
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
    if parts and parts[0] in ORDER:
        return parts[0], parts[1] if len(parts) > 1 else ""
    return None


def _sources(layer: str) -> list[Path]:
    return sorted(FOLDERS[layer].rglob("*.py"))


@pytest.mark.parametrize("layer", ORDER)
def test_no_layer_imports_upward(layer: str) -> None:
    upward = [
        f"{path.relative_to(PROJECT)}:{line}: {module}"
        for path in _sources(layer)
        for line, module in _imports(path)
        if (target := _layer(module)) and target[0] in FORBIDDEN[layer]
    ]
    assert upward == []


def test_the_cli_parts_import_downward() -> None:
    upward = [
        f"{path.relative_to(PROJECT)}:{line}: {module}"
        for path in _sources("cli")
        if (part := path.relative_to(FOLDERS["cli"]).parts[0].removesuffix(".py")) in CLI_FORBIDDEN
        for line, module in _imports(path)
        if module.startswith("oic_ai.cli.") and module.split(".")[2] in CLI_FORBIDDEN[part]
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


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The project module an imported name lives in (``a.b.func`` -> ``a.b``), if any."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """Each project module -> the project modules it imports, anywhere in its body."""
    modules = _all_modules()
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for _, imported in _imports(path):
            target = _resolve(imported, modules)
            if target and target != name:
                edges[name].add(target)
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # iterative, so a deep chain of imports cannot hit the recursion limit
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_import_circles() -> None:
    edges = import_graph()
    assert {"oic_ai.cli.main", "oic_ai.services.sessions", "oic_ai.web.rest"} <= set(edges)
    assert circles(edges) == []


def test_the_circle_finder_finds_circles_lazy_or_not() -> None:
    # a -> b -> c -> a is one circle; d only points into it
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    source = PROJECT / "oic_ai" / "cli" / "commands" / "library.py"
    # an import inside a function counts (the rich progress bar is imported lazily)
    assert any(name.startswith("rich.progress") for _, name in _imports(source))


def test_the_checker_names_layers() -> None:
    assert _layer("oic_ai.graph.agent") == ("graph", "agent")
    assert _layer("nodes.context") == ("nodes", "context")
    assert _layer("oic_ai.stores.settings") == ("stores", "settings")
    assert _layer("oic_ai.services.session_access") == ("services", "session_access")
    assert _layer("oic_ai.web.rest") == ("web", "rest")
    assert _layer("oic_ai.cli.commands.sessions") == ("cli", "commands")
    assert _layer("langgraph.graph") is None
    assert _module_name(PROJECT / "graph" / "agent.py") == "oic_ai.graph.agent"
    assert _module_name(PROJECT / "oic_ai" / "cli" / "__init__.py") == "oic_ai.cli"
