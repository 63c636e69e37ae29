"""Scalars and collections for new values, in the style of the values around them."""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import yaml
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, ScalarString

from oic_ai.tools.applier.yaml_io import SafeLoader


def plain_ok(text: str) -> bool:
    """Whether ``text`` can be written unquoted and still load as the same string."""
    return _plain_ok_cached(str(text))  # the C loader refuses ruamel's str subclasses


@lru_cache(maxsize=4096)
def _plain_ok_cached(text: str) -> bool:
    if not text or text != text.strip() or "\n" in text:
        return False
    try:
        return bool(yaml.load(text, Loader=SafeLoader) == text)
    except yaml.YAMLError:
        return False


def scalar(text: str, like: Any = None, *, quoted: bool = False) -> Any:
    """A string in the style of ``like``; else double-quoted when asked or when it must be."""
    if isinstance(like, ScalarString):
        if plain_ok(text) and not plain_ok(str(like)):
            return text  # the old value was quoted only to stay a string, e.g. "0"
        return type(like)(text)
    if isinstance(like, str):
        quoted = False
    if quoted or not plain_ok(text):
        return DoubleQuotedScalarString(text)
    return text


def to_node(value: Any, like: Any = None) -> Any:
    """Turn plain data into ruamel nodes; a string takes the style of ``like``."""
    if isinstance(value, dict):
        node = CommentedMap()
        for key, item in value.items():
            node[str(key)] = to_node(item)
        return node
    if isinstance(value, list | tuple):
        items = CommentedSeq()
        for item in value:
            items.append(to_node(item))
        return items
    if isinstance(value, str):
        return scalar(value, like)
    return value


def flow(items: Iterable[Any]) -> CommentedSeq:
    """A list written in flow style: ``[a, b]``."""
    node = CommentedSeq(items)
    node.fa.set_flow_style()
    return node


def seq(items: Iterable[Any]) -> CommentedSeq:
    """A list written in block style, one ``- item`` a line."""
    node = CommentedSeq(items)
    node.fa.set_block_style()
    return node


def show(value: Any) -> str:
    """A value as YAML would write it, short, for the lines that say what changed."""
    if isinstance(value, str):
        return str(value) if plain_ok(value) else f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict | list):
        text = str(yaml.safe_dump(plain(value), default_flow_style=True, width=1 << 16)).strip()
        return text if len(text) <= 60 else text[:57] + "..."
    return str(value)


def plain(value: Any) -> Any:
    """Plain dicts, lists and strings for a node, for comparing values."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value
