"""Handlers for values by path (set, delete) and for the template's metadata.

Paths are dotted keys with list selectors: ``systemConfig.kernel.cmdline``,
``disk.partitions[id=rootfs].fsType``, ``disk.artifacts[0].type``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from oic_ai.tools.applier.comments import append, remove, replace_items
from oic_ai.tools.applier.editor import AlreadySo, Editor, Skip
from oic_ai.tools.applier.yaml_values import plain, scalar, seq, show, to_node
from oic_ai.tools.edit_plan import DeleteValue, SetMetadata, SetValue

_PATH_PART = re.compile(
    r"\.?(?P<key>[^.\[\]]+)|\[(?P<index>-?[0-9]+)\]|\[(?P<field>[^=\]]+)=(?P<value>[^\]]*)\]"
)


def _parse_path(path: str) -> list[str | int | tuple[str, str]] | None:
    parts: list[str | int | tuple[str, str]] = []
    position = 0
    text = path.strip()
    if text.startswith("$"):
        text = text[1:]
    while position < len(text):
        match = _PATH_PART.match(text, position)
        if match is None or match.end() == position:
            return None
        if match.group("key") is not None:
            parts.append(match.group("key").strip())
        elif match.group("index") is not None:
            parts.append(int(match.group("index")))
        else:
            value = match.group("value").strip().strip("'\"")
            parts.append((match.group("field").strip(), value))
        position = match.end()
    return parts or None


def _shape(parts: Sequence[str | int | tuple[str, str]]) -> str:
    out = ""
    for part in parts:
        if isinstance(part, str):
            out += ("." if out else "") + part
        else:
            out += "[]"
    return out


def set_metadata(ed: Editor, op: SetMetadata) -> None:
    """SetMetadata: set the template's descriptive metadata."""
    if op.description is None and op.use_cases is None and op.keywords is None:
        raise Skip("nothing to set")
    metadata = ed.section("metadata")
    changes: list[str] = []
    if op.description is not None:
        old = ed.set_key(metadata, "description", op.description.strip(), "metadata", quoted=True)
        if old != op.description.strip():
            changes.append("description")
    for key, values, quoted in (
        ("use_cases", op.use_cases, True),
        ("keywords", op.keywords, False),
    ):
        if values is None:
            continue
        clean = list(dict.fromkeys(v.strip() for v in values if v.strip()))
        current = metadata.get(key)
        if isinstance(current, list) and [str(v) for v in current] == clean:
            continue
        if isinstance(current, CommentedSeq) and len(current):
            like = current[0]
            replace_items(current, [scalar(value, like, quoted=quoted) for value in clean])
        else:
            items = seq(scalar(v, quoted=quoted) for v in clean)
            ed.set_key(metadata, key, items, "metadata")
        changes.append(key)
    if not changes:
        raise AlreadySo("the metadata is already set that way")
    ed.applied.append("metadata " + ", ".join(changes))


def _walk(
    ed: Editor, parts: Sequence[str | int | tuple[str, str]], *, create: bool
) -> tuple[Any, str | int | tuple[str, str]]:
    """Return the container holding the last part of ``parts``."""
    if create:
        _walk_check(ed, parts)
    node: Any = ed.doc
    for position, part in enumerate(parts[:-1]):
        shown = _shape(parts[: position + 1])
        if isinstance(part, str):
            if not isinstance(node, CommentedMap):
                raise Skip(f"{shown} is not inside a mapping")
            child = node.get(part)
            if child is None:
                if not create or not isinstance(parts[position + 1], str):
                    raise Skip(f"no such key {shown}")
                child = CommentedMap()
                blank = position == 0 and ed.style.blank_sections
                ed.insert(node, part, child, _shape(parts[:position]), blank=blank)
            node = child
        else:
            node = _select(node, part, shown)[1]
    return node, parts[-1]


def _walk_check(ed: Editor, parts: Sequence[str | int | tuple[str, str]]) -> None:
    """Refuse a path before anything is created for it, so a refusal changes nothing."""
    node: Any = ed.doc
    for position, part in enumerate(parts[:-1]):
        shown = _shape(parts[: position + 1])
        if node is None:
            if not isinstance(part, str):
                raise Skip(f"no such list {_shape(parts[:position])}")
            continue
        if isinstance(part, str):
            if not isinstance(node, CommentedMap):
                raise Skip(f"{shown} is not inside a mapping")
            node = node.get(part)
        else:
            node = _select(node, part, shown)[1]
    if node is None and not isinstance(parts[-1], str):
        raise Skip(f"no such list {_shape(parts[:-1])}")


def _locate(
    ed: Editor, path: str, *, create: bool, hint: str = ""
) -> tuple[list[str | int | tuple[str, str]], Any, str | int | tuple[str, str]]:
    """Parse ``path`` and walk to its container: the parts, the container and the last part.

    Raises:
        Skip: the path cannot be read (``hint`` says how to write one) or walked.
    """
    parts = _parse_path(path)
    if parts is None:
        raise Skip("the path cannot be read" + hint)
    container, last = _walk(ed, parts, create=create)
    return parts, container, last


def set_value(ed: Editor, op: SetValue) -> None:
    """SetValue: set any value by path."""
    parts, container, last = _locate(
        ed, op.path, create=True, hint="; write e.g. disk.partitions[id=rootfs].fsType"
    )
    if isinstance(last, str):
        if not isinstance(container, CommentedMap):
            raise Skip(f"{_shape(parts[:-1]) or 'the document'} is not a mapping")
        old = container.get(last)
        value = _coerce(op.value, old, last)
        node = to_node(value, old)
        if last in container:
            if plain(old) == plain(node) and type(old) is type(node):
                raise AlreadySo("it already has that value")
            container[last] = node
        else:
            blank = len(parts) == 1 and ed.style.blank_sections
            ed.insert(container, last, node, _shape(parts[:-1]), blank=blank)
    else:
        if not isinstance(container, CommentedSeq):
            raise Skip(f"{_shape(parts[:-1])} is not a list")
        if isinstance(last, int) and last == len(container):
            old = None
            append(container, to_node(op.value))
        else:
            index, old = _select(container, last, op.path)
            node = to_node(_coerce(op.value, old, ""), old)
            if plain(old) == plain(node):
                raise AlreadySo("it already has that value")
            container[index] = node
    shown = show(op.value)
    ed.applied.append(
        f"set {op.path.strip()}: {show(old)} -> {shown}"
        if old is not None
        else f"set {op.path.strip()}: {shown}"
    )


def delete_value(ed: Editor, op: DeleteValue) -> None:
    """DeleteValue: delete a value by path."""
    parts, container, last = _locate(ed, op.path, create=False)
    if isinstance(last, str):
        if not isinstance(container, CommentedMap) or last not in container:
            raise Skip("no such key")
        remove(container, last)
    else:
        if not isinstance(container, CommentedSeq):
            raise Skip(f"{_shape(parts[:-1])} is not a list")
        index, _ = _select(container, last, op.path)
        remove(container, index)
    ed.applied.append(f"deleted {op.path.strip()}")


def _select(node: Any, part: int | tuple[str, str] | str, shown: str) -> tuple[int, Any]:
    if not isinstance(node, CommentedSeq):
        raise Skip(f"{shown} is not a list")
    if isinstance(part, int):
        index = part + len(node) if part < 0 else part
        if not 0 <= index < len(node):
            raise Skip(f"{shown}: index {part} is out of range (the list has {len(node)})")
        return index, node[index]
    if isinstance(part, tuple):
        key, wanted = part
        for index, item in enumerate(node):
            if isinstance(item, dict) and str(item.get(key)) == wanted:
                return index, item
        raise Skip(f"no item with {key}={wanted} in {shown}")
    raise Skip(f"{shown} is a list; select an item with [N] or [id=...]")


def _coerce(value: Any, old: Any, key: str) -> Any:
    # Versions and other strings stay strings even when a planner writes a number.
    if isinstance(value, int | float) and not isinstance(value, bool):
        if isinstance(old, str) or key in ("version", "dist", "name", "codename"):
            return str(value)
    return value
