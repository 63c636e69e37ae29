"""Round-trip YAML input and output, with no knowledge of templates.

Indentation (``- `` two spaces under its key, or level with it; the mapping indent) is
detected per file, so new lines match the file around them. Documents are copied cheaply
for editing, and dumped with ruamel's round-trip writer.
"""

from __future__ import annotations

import copy
import difflib
import io
import re
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from copy import deepcopy
from dataclasses import dataclass
from typing import Any

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.anchor import Anchor
from ruamel.yaml.comments import Comment, CommentedMap, CommentedSeq, Format, LineCol, merge_attrib
from ruamel.yaml.tag import Tag
from ruamel.yaml.tokens import CommentToken

_KEY_WITH_BLOCK = re.compile(r"^( *)((?:- +)*)([^\s#\-][^#]*?|-[^\s#][^#]*?):(?:\s+#.*)?\s*$")


@dataclass(frozen=True)
class Style:
    """How a file indents: mappings, lists under their key, blank lines, ``---``."""

    mapping: int = 2
    offset: int = 2
    blank_sections: bool = True
    explicit_start: bool = False


_local = threading.local()


def normalise(text: str) -> tuple[str, Callable[[str], str]]:
    """Drop a byte order mark and CRLF line ends; returns the body and how to restore them."""
    bom = text.startswith("\ufeff")
    body = text[1:] if bom else text
    crlf = "\r\n" in body and body.count("\r\n") == body.count("\n")
    if crlf:
        body = body.replace("\r\n", "\n")

    def restore(new: str) -> str:
        if crlf:
            new = new.replace("\n", "\r\n")
        return ("\ufeff" + new) if bom else new

    return body, restore


def detect_style(text: str) -> Style:
    """Detect how ``text`` indents mappings and lists, by the most common choice."""
    offsets: Counter[int] = Counter()
    mappings: Counter[int] = Counter()
    lines = text.splitlines()
    content = [
        (i, line)
        for i, line in enumerate(lines)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    for (_, line), (_, following) in zip(content, content[1:], strict=False):
        match = _KEY_WITH_BLOCK.match(line)
        if match is None or line.rstrip().endswith(("|", ">", "|-", ">-")):
            continue
        key_column = len(match.group(1)) + len(match.group(2))
        indent = len(following) - len(following.lstrip(" "))
        if following.lstrip(" ").startswith("- ") or following.strip() == "-":
            offsets[indent - key_column] += 1
        elif indent > key_column:
            mappings[indent - key_column] += 1
    offset = offsets.most_common(1)[0][0] if offsets else 2
    mapping = mappings.most_common(1)[0][0] if mappings else 2
    if offset < 0:
        offset = 2
    if mapping < 1:
        mapping = 2
    top = [i for i, line in enumerate(lines) if line[:1].isalpha() and ":" in line]
    blank_before = sum(1 for i in top[1:] if i > 0 and not lines[i - 1].strip())
    return Style(
        mapping=mapping,
        offset=offset,
        blank_sections=blank_before * 2 >= len(top[1:]) if len(top) > 1 else True,
        explicit_start=text.lstrip().startswith("---"),
    )


def yaml_for(style: Style) -> YAML:
    """A round-trip YAML instance for ``style``; they keep parser state, so one per thread."""
    instances: dict[Style, YAML] | None = getattr(_local, "instances", None)
    if instances is None:
        instances = {}
        _local.instances = instances
    instance = instances.get(style)
    if instance is None:
        instance = YAML(typ="rt")
        instance.preserve_quotes = True
        instance.width = 1 << 16
        instance.allow_duplicate_keys = True
        instance.indent(mapping=style.mapping, sequence=style.offset + 2, offset=style.offset)
        instance.explicit_start = style.explicit_start
        instances[style] = instance
    return instance


def clone(doc: CommentedMap) -> CommentedMap:
    """Copy a document for editing, comments included; cached documents stay pristine.

    ``copy.deepcopy`` is slow on ruamel nodes (each list item re-copies the list's
    comments) and copies the emitter's "already printed" marks, which then drop comments
    from the next dump. This copy shares immutable scalars and copies the rest.
    """
    try:
        copied: CommentedMap = _clone_node(doc, {})
    except _MergeKeys:
        copied = deepcopy(doc)
        _reset_tokens(copied)
    return copied


class _MergeKeys(Exception):
    """The document uses ``<<`` merge keys, which the fast copy does not handle."""


def _clone_node(node: Any, memo: dict[int, Any]) -> Any:
    known = memo.get(id(node))
    if known is not None:
        return known
    new: CommentedMap | CommentedSeq
    if isinstance(node, CommentedMap):
        if getattr(node, merge_attrib, None):
            raise _MergeKeys
        new = CommentedMap()
        memo[id(node)] = new
        for key, value in node.items():
            new[key] = _clone_node(value, memo)
    elif isinstance(node, CommentedSeq):
        new = CommentedSeq()
        memo[id(node)] = new
        new.extend(_clone_node(value, memo) for value in node)
    else:
        return node  # scalars are immutable
    comment = getattr(node, Comment.attrib, None)
    if comment is not None:
        copied = Comment.__new__(Comment)
        copied._pre = comment._pre
        copied.comment = _clone_tokens(comment.comment, memo)
        copied._items = {k: _clone_tokens(v, memo) for k, v in comment._items.items()}
        copied._post = _clone_tokens(comment._post, memo)
        setattr(new, Comment.attrib, copied)
    style = getattr(node, Format.attrib, None)
    if style is not None:
        new_style = Format()
        new_style._flow_style = style._flow_style
        setattr(new, Format.attrib, new_style)
    for attrib in (LineCol.attrib, Anchor.attrib, Tag.attrib):
        if hasattr(node, attrib):
            setattr(new, attrib, getattr(node, attrib))
    return new


def _clone_tokens(value: Any, memo: dict[int, Any]) -> Any:
    if isinstance(value, CommentToken):
        known = memo.get(id(value))
        if known is None:
            known = copy.copy(value)
            known.reset()
            memo[id(value)] = known
        return known
    if isinstance(value, list):
        return [_clone_tokens(item, memo) for item in value]
    return value


def _reset_tokens(node: Any) -> None:
    comment = getattr(node, Comment.attrib, None)
    if comment is not None:
        for token in _tokens([comment.comment, list(comment._items.values()), comment._post]):
            token.reset()
    if isinstance(node, dict):
        for value in node.values():
            _reset_tokens(value)
    elif isinstance(node, list):
        for value in node:
            _reset_tokens(value)


def _tokens(value: Any) -> Iterable[Any]:
    if isinstance(value, CommentToken):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _tokens(item)


def dump(doc: CommentedMap, style: Style) -> str:
    """Ruamel's text for ``doc`` in ``style``."""
    buffer = io.StringIO()
    yaml_for(style).dump(doc, buffer)
    return buffer.getvalue()


SafeLoader: type[yaml.SafeLoader]
try:  # the C loader is ~10x faster; fall back quietly where libyaml is missing
    SafeLoader = yaml.CSafeLoader  # type: ignore[assignment,unused-ignore]
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    SafeLoader = yaml.SafeLoader


def loads(text: str) -> bool:
    """Whether ``text`` loads as a YAML mapping."""
    try:
        return isinstance(yaml.load(text, Loader=SafeLoader), dict)
    except yaml.YAMLError:
        return False


def is_block(node: Any) -> bool:
    """Whether ``node`` is a non-empty mapping or list written in block style."""
    return (
        isinstance(node, CommentedMap | CommentedSeq) and len(node) > 0 and not node.fa.flow_style()
    )


def unified_diff(before: str, after: str, label: str) -> str:
    """Return a unified diff (``a/label`` to ``b/label``), or ``""`` when equal."""
    if before == after:
        return ""
    lines = difflib.unified_diff(
        _diff_lines(before), _diff_lines(after), f"a/{label}", f"b/{label}"
    )
    return "".join(lines)


def _diff_lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines
