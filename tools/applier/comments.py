"""Comments: keeping them next to what they describe while entries come and go.

ruamel attaches the comment lines between two entries to the deepest last value of the
first entry (after its end-of-line comment). When an entry is inserted after it, or it is
removed, those lines are moved so they stay above the entry they describe.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.tokens import CommentToken

from oic_ai.tools.applier.yaml_io import is_block


def tidy(doc: CommentedMap) -> CommentedMap:
    """Drop comments held by emptied collections; ruamel writes broken YAML for them."""

    def walk(node: Any) -> None:
        items = node.items() if isinstance(node, CommentedMap) else enumerate(node)
        for key, value in items:
            if not isinstance(value, CommentedMap | CommentedSeq):
                continue
            if value:
                walk(value)
                continue
            value.ca.comment = None
            value.ca.items.clear()
            if getattr(value.ca, "end", None):
                value.ca.end = []
            entry = node.ca.items.get(key)
            if entry:
                entry[1] = None
                if len(entry) > 3:
                    entry[3] = None

    walk(doc)
    return doc


def _last_key(node: CommentedMap | CommentedSeq) -> Any:
    return len(node) - 1 if isinstance(node, CommentedSeq) else next(reversed(node))


def _slot(container: Any, key: Any) -> tuple[Any, Any, list[Any]]:
    """Find the deepest last value under ``container[key]`` and any end comments on the way."""
    ends: list[Any] = []
    value = container[key]
    while is_block(value):
        end = getattr(value.ca, "end", None)
        if end:
            ends.append(value)
        container, key = value, _last_key(value)
        value = container[key]
    return container, key, ends


def _post_index(container: Any) -> int:
    return 2 if isinstance(container, CommentedMap) else 0


def take_tail(container: Any, key: Any) -> str:
    """Detach the comment lines after ``container[key]`` (its end-of-line comment stays)."""
    holder, slot_key, ends = _slot(container, key)
    rest = ""
    entry = holder.ca.items.get(slot_key)
    token = entry[_post_index(holder)] if entry else None
    if token is not None:
        value = token.value
        cut = value.find("\n")
        eol, rest = (value, "") if cut < 0 else (value[: cut + 1], value[cut + 1 :])
        if eol.strip():
            token.value = eol
        else:
            entry[_post_index(holder)] = None
    for node in reversed(ends):
        rest += "".join(_comment_text(token) for token in node.ca.end)
        node.ca.end = []
    return rest


def _comment_text(token: Any) -> str:
    value = str(token.value)
    column = getattr(getattr(token, "start_mark", None), "column", 0) or 0
    if value.startswith("#") and column:
        return " " * column + value
    return value


def give_tail(container: Any, key: Any, rest: str) -> None:
    """Attach comment lines after ``container[key]``."""
    if not rest:
        return
    holder, slot_key, _ = _slot(container, key)
    entry = holder.ca.items.setdefault(slot_key, [None, None, None, None])
    index = _post_index(holder)
    token = entry[index]
    if token is None:
        entry[index] = CommentToken("\n" + rest, CommentMark(0))
    else:
        value = token.value
        token.value = (value if value.endswith("\n") else value + "\n") + rest


def _leading_blank(rest: str) -> str:
    kept = ""
    for line in rest.splitlines(keepends=True):
        if line.strip():
            break
        kept += line
    return kept


def insert_key(
    container: CommentedMap,
    key: str,
    value: Any,
    order: Sequence[str],
    *,
    blank: bool = False,
    pending: list[tuple[Any, Any]] | None = None,
) -> None:
    """Insert ``key`` where ``order`` puts it; comment lines stay above the next key.

    A new empty mapping or list cannot hold the lines that follow it yet (they would be
    written right after its key); ``pending`` collects it for :func:`settle`.
    """
    if pending is not None and isinstance(value, CommentedMap | CommentedSeq) and not value:
        pending.append((container, key))
    if key not in order and key not in container:  # the common case: a new key goes last
        _append_key(container, key, value, blank)
        return
    keys = list(container)
    position = _position(keys, key, order)
    tail = take_tail(container, keys[position - 1]) if position > 0 else ""
    container.insert(position, key, value)
    container.ca.items.pop(key, None)
    separator = "\n" if blank else ""
    if position == 0:
        if keys:
            give_tail(container, key, separator)
    elif position < len(keys):
        give_tail(container, keys[position - 1], _leading_blank(tail) or separator)
        give_tail(container, key, tail or separator)
    else:
        give_tail(container, keys[position - 1], separator if not _leading_blank(tail) else "")
        give_tail(container, key, tail)


def _append_key(container: CommentedMap, key: str, value: Any, blank: bool) -> None:
    """``insert_key`` at the end, without listing the keys (linear over many new keys)."""
    last = next(reversed(container), None) if len(container) else None
    tail = take_tail(container, last) if last is not None else ""
    container[key] = value
    container.ca.items.pop(key, None)
    if last is not None:
        give_tail(container, last, "\n" if blank and not _leading_blank(tail) else "")
    give_tail(container, key, tail)


def settle(pending: list[tuple[Any, Any]]) -> None:
    """Move comment lines held by a once-empty container's key to its new last value."""
    for container, key in pending:
        entry = container.ca.items.get(key) if key in container else None
        if not entry:
            continue
        index = _post_index(container)
        token = entry[index]
        if token is None or not token.value.startswith("\n") or not is_block(container[key]):
            continue
        entry[index] = None
        give_tail(container, key, token.value[1:])
    pending.clear()


def _position(keys: Sequence[Any], key: str, order: Sequence[str]) -> int:
    if key not in order:
        return len(keys)
    rank = order.index(key)
    before = [i for i, k in enumerate(keys) if k in order and order.index(k) < rank]
    if before:
        return before[-1] + 1
    if any(k in order for k in keys):
        return min(i for i, k in enumerate(keys) if k in order)
    return len(keys)


def insert_item(seq: CommentedSeq, index: int, value: Any) -> None:
    """Insert ``value`` at ``index``; comment lines stay above the item they describe."""
    if index >= len(seq):
        append(seq, value)
        return
    tail = take_tail(seq, index - 1) if index > 0 and is_block(seq) else ""
    seq.insert(index, value)
    seq.ca.items.pop(index, None)
    if index > 0:
        give_tail(seq, index - 1, _leading_blank(tail))
        give_tail(seq, index, tail)


def append(seq: CommentedSeq, value: Any) -> None:
    """Append ``value``; comment lines after the list stay after it."""
    tail = take_tail(seq, len(seq) - 1) if len(seq) and is_block(seq) else ""
    seq.append(value)
    give_tail(seq, len(seq) - 1, tail)


def remove(container: CommentedMap | CommentedSeq, key: Any) -> None:
    """Remove an entry; comments above it go with it, comments below it stay."""
    keys = list(range(len(container))) if isinstance(container, CommentedSeq) else list(container)
    position = keys.index(key)
    record = isinstance(container[key], CommentedMap | CommentedSeq)
    own = take_tail(container, key) if is_block(container) else ""
    if position > 0 and is_block(container):
        before = take_tail(container, keys[position - 1])
        keep = _leading_blank(before) if record else before
    else:
        keep = ""
    del container[key]
    if isinstance(container, CommentedMap):
        container.ca.items.pop(key, None)
    if position > 0:
        give_tail(container, keys[position - 1], keep + own)
    elif own.strip() and len(container):
        first = 0 if isinstance(container, CommentedSeq) else next(iter(container))
        entry = container.ca.items.setdefault(first, [None, None, None, None])
        entry[1] = [CommentToken(own, CommentMark(0)), *(entry[1] or [])]


def replace_items(seq: CommentedSeq, items: Iterable[Any]) -> None:
    """Replace every item of ``seq``; comment lines after the list stay after it."""
    tail = take_tail(seq, len(seq) - 1) if len(seq) else ""
    del seq[:]
    seq.ca.items.clear()
    for item in items:
        seq.append(item)
    if len(seq):
        give_tail(seq, len(seq) - 1, tail)
