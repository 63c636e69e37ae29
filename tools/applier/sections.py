"""Parsed templates and byte-preserving rendering of an edited document.

How the text is kept: the document is edited with ruamel.yaml's round-trip mode, which
keeps comments, key order and quoting, but ruamel's text is never returned as is. It
re-emits a few things its own way (trailing spaces, a ``-`` alone on its line, a final
line without a newline, a list written level with its key in a file that indents
lists), so only the lines that changed are merged into the original text: a three-way
merge whose base is ruamel's dump of the unedited document (see :mod:`.merge`).

How it stays fast: dumping is most of the cost, so only what changed is dumped. Every
top-level entry, and every child of a top-level block mapping, whose value and comments
did not change is written as a marker and swapped back for its original lines. Parsed
documents are cached by text (a library template, or the previous turn's output), and
edits work on a cheap copy.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ruamel.yaml.comments import Comment, CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.tokens import CommentToken

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.yaml_document import YamlSyntaxError, load_document
from oic_ai.tools.applier.merge import merge
from oic_ai.tools.applier.yaml_io import Style, clone, detect_style, dump, is_block, yaml_for

# Which parts of a document to dump: top-level key -> the child keys to dump (None: all
# of it). Keys left out are written as a marker and keep their original lines.
Selection = tuple[tuple[str, frozenset[str] | None], ...]


@dataclass(frozen=True)
class Region:
    """Where a mapping entry's lines are: from its key line to the next entry's."""

    start: int
    end: int
    children: dict[str, Region] | None = None


@dataclass(frozen=True)
class Parsed:
    """A parsed template, kept pristine, plus what rendering an edit of it needs.

    Attributes:
        text: the text it was parsed from (newlines normalised).
        style: the indentation detected in the text.
        doc: the document; never edited, only cloned.
        regions: per top-level key, its lines in ``text`` (and its children's, for a
            block mapping); None when the text cannot be split by key safely.
        prints: fingerprints of each top-level entry and of each child entry.
        exact: whether ruamel dumps ``doc`` as exactly ``text`` (true for our library);
            then no dump of the unedited document is ever needed.
        bases: ruamel's dumps of the unedited document per selection (``None``: all of
            it), filled in on first use.
    """

    text: str
    style: Style
    doc: CommentedMap
    regions: dict[str, Region] | None
    prints: dict[str, Any]
    exact: bool = False
    bases: dict[Selection | None, str] = field(default_factory=dict)

    @classmethod
    def of(cls, text: str, style: Style, doc: CommentedMap, *, exact: bool) -> Parsed:
        """Index a document parsed from (or rendered as) ``text``."""
        return cls(text, style, doc, _regions(text, doc, style), _prints(doc), exact)

    def base(self, selection: Selection | None) -> str:
        """Ruamel's dump of the unedited document (only ``selection`` of it, if given)."""
        text = self.bases.get(selection)
        if text is None:
            if self.exact:
                text = self.text if selection is None else _original(self, selection)[0]
            else:
                copied = clone(self.doc)  # dumping marks comments; keep the cached doc clean
                if selection is not None:
                    copied = _partial(copied, selection)
                text = dump(copied, self.style)
            self.bases[selection] = text
        return text


def _keep(*indices: int) -> str:
    return "__oic_keep_" + "_".join(map(str, indices)) + "__"


def _outside_comments(node: CommentedMap) -> bool:
    """Whether comments sit outside the entries' own values (so lines do not split)."""
    comment = node.ca
    return bool(getattr(comment, "end", None)) or any(
        entry and entry[1] for entry in comment.items.values()
    )


def _find_keys(
    node: CommentedMap, lines: Sequence[str], lo: int, hi: int, column: int
) -> list[int] | None:
    starts: list[int] = []
    position = lo
    for key in node:
        if not isinstance(key, str):
            return None
        pattern = re.compile(rf"{' ' * column}{re.escape(key)}:(\s|$)")
        while position < hi and not pattern.match(lines[position]):
            position += 1
        if position == hi:
            return None
        starts.append(position)
        position += 1
    return starts


def _regions(text: str, doc: CommentedMap, style: Style) -> dict[str, Region] | None:
    """Find each top-level entry's lines (and its children's), or None if unsafe."""
    if _outside_comments(doc):
        return None
    lines = text.splitlines(keepends=True)
    starts = _find_keys(doc, lines, 0, len(lines), 0)
    if starts is None:
        return None
    regions: dict[str, Region] = {}
    for key, start, end in zip(doc, starts, [*starts[1:], len(lines)], strict=True):
        value = doc[key]
        children = None
        if is_block(value) and isinstance(value, CommentedMap) and not _outside_comments(value):
            inner = _find_keys(value, lines, start + 1, end, style.mapping)
            if inner is not None:
                children = {
                    child: Region(child_start, child_end)
                    for child, child_start, child_end in zip(
                        value, inner, [*inner[1:], end], strict=True
                    )
                }
        regions[key] = Region(start, end, children)
    return regions


def _entry_print(node: Any, key: Any) -> Any:
    return (_fingerprint(node[key]), _comment_print(node.ca.items.get(key)))


def _prints(doc: CommentedMap) -> dict[str, Any]:
    """Fingerprint each top-level entry; a block mapping as its own part plus children."""
    prints: dict[str, Any] = {}
    for key, value in doc.items():
        own = _comment_print(doc.ca.items.get(key))
        if isinstance(value, CommentedMap):
            children = {child: _entry_print(value, child) for child in value}
            shape = (value.fa.flow_style(), _comment_print(value.ca.comment), tuple(value))
            prints[key] = (own, shape, children)
        else:
            prints[key] = (own, _fingerprint(value), None)
    return prints


def _fingerprint(node: Any) -> Any:
    """Everything of a node that reaches the dump: values, types, comments, flow style."""
    if isinstance(node, CommentedMap):
        items = tuple((key, _fingerprint(value)) for key, value in node.items())
        return ("map", node.fa.flow_style(), _comment_print(node.ca), items)
    if isinstance(node, CommentedSeq):
        items = tuple(_fingerprint(value) for value in node)
        return ("seq", node.fa.flow_style(), _comment_print(node.ca), items)
    return (type(node).__name__, node if _hashable(node) else repr(node))


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _comment_print(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, CommentToken):
        return value.value
    if isinstance(value, list):
        return tuple(_comment_print(item) for item in value)
    if isinstance(value, Comment):
        items = tuple(sorted((repr(k), _comment_print(v)) for k, v in value.items.items()))
        return (_comment_print(value.comment), items, _comment_print(getattr(value, "end", None)))
    return repr(value)


def _partial(doc: CommentedMap, selection: Selection) -> CommentedMap:
    """The document with every entry outside ``selection`` replaced by a marker."""
    chosen = dict(selection)
    out = CommentedMap()
    out.ca.comment = doc.ca.comment
    for index, (key, value) in enumerate(doc.items()):
        if key not in chosen:
            out[key] = _keep(index)
            continue
        children = chosen[key]
        if children is None:
            out[key] = value
        else:
            section = CommentedMap()
            section.ca.comment = value.ca.comment
            for child_index, (child, child_value) in enumerate(value.items()):
                if child in children:
                    section[child] = child_value
                    if child in value.ca.items:
                        section.ca.items[child] = value.ca.items[child]
                else:
                    section[child] = _keep(index, child_index)
            out[key] = section
        if key in doc.ca.items:
            out.ca.items[key] = doc.ca.items[key]
    return out


def _selection(parsed: Parsed, edited: CommentedMap) -> Selection | None:
    """What changed, as a selection to dump; None when the whole document must be."""
    regions = parsed.regions
    if regions is None or list(edited) != list(parsed.doc):
        return None
    prints = _prints(edited)
    chosen: list[tuple[str, frozenset[str] | None]] = []
    for key in edited:
        new, old = prints[key], parsed.prints[key]
        if new == old:
            continue
        children = regions[key].children
        if children is None or new[0] != old[0] or new[1] != old[1]:
            chosen.append((key, None))
            continue
        dirty = frozenset(child for child in new[2] if new[2][child] != old[2][child])
        chosen.append((key, dirty if len(dirty) < len(new[2]) else None))
    if len(chosen) == len(edited) and all(children is None for _, children in chosen):
        return None
    return tuple(chosen)


def _original(parsed: Parsed, selection: Selection) -> tuple[str, dict[str, tuple[int, int]]]:
    """The original text with the entries outside ``selection`` written as markers.

    Returns:
        The text, and each marker's original line range.
    """
    regions = parsed.regions
    assert regions is not None
    lines = parsed.text.splitlines(keepends=True)
    chosen = dict(selection)
    markers: dict[str, tuple[int, int]] = {}
    original = lines[: min(region.start for region in regions.values())]
    for index, key in enumerate(parsed.doc):
        region = regions[key]
        if key not in chosen:
            original.append(f"{key}: {_keep(index)}\n")
            markers[_keep(index)] = (region.start, region.end)
            continue
        children = chosen[key]
        if children is None or region.children is None:
            original += lines[region.start : region.end]
            continue
        first = min(child.start for child in region.children.values())
        original += lines[region.start : first]
        for child_index, child in enumerate(parsed.doc[key]):
            child_region = region.children[child]
            if child in children:
                original += lines[child_region.start : child_region.end]
            else:
                marker = _keep(index, child_index)
                original.append(f"{' ' * parsed.style.mapping}{child}: {marker}\n")
                markers[marker] = (child_region.start, child_region.end)
    return "".join(original), markers


def render(parsed: Parsed, edited: CommentedMap) -> str:
    """Write the edited document as the original text, changed only where it must be.

    Entries (top-level, and the children of top-level block mappings) whose value and
    comments did not change are not dumped at all (dumping is most of an apply's cost):
    they are written as markers, and the markers are swapped back for their original
    lines after the changed entries are merged line by line (see :func:`merge`).
    """
    body = parsed.text
    selection = _selection(parsed, edited)
    if selection is None:
        if _prints(edited) == parsed.prints and list(edited) == list(parsed.doc):
            return body
        return merge(body, parsed.base(None), dump(edited, parsed.style))
    if not selection:
        return body
    lines = body.splitlines(keepends=True)
    original, markers = _original(parsed, selection)
    partial = dump(_partial(edited, selection), parsed.style)
    merged = merge(original, parsed.base(selection), partial)
    out: list[str] = []
    for line in merged.splitlines(keepends=True):
        marker = line.rstrip("\n").rpartition(": ")[2]
        span = markers.get(marker) if marker.startswith("__oic_keep_") else None
        if span is not None:
            out.extend(lines[span[0] : span[1]])
        else:
            out.append(line)
    return "".join(out)


_CACHE_SIZE = 256  # ~55 KiB per parsed template
# An applied result is cached unindexed (style, document, exact) until first used.
_cache: OrderedDict[str, Parsed | tuple[Style, CommentedMap, bool]] = OrderedDict()
_cache_lock = threading.Lock()


def parse(body: str) -> Parsed:
    """Parse a template's text (newlines normalised), from the cache when it was seen.

    Raises:
        UserInputError: ``body`` is not YAML, or not a mapping.
    """
    with _cache_lock:
        hit = _cache.get(body)
        if hit is not None:
            _cache.move_to_end(body)
    if isinstance(hit, Parsed):
        return hit
    if hit is not None:
        style, doc, exact = hit
        parsed = Parsed.of(body, style, doc, exact=exact)
        remember(body, parsed)
        return parsed
    try:
        load_document(body)  # the validator's loader refuses alias bombs and deep nesting
    except YamlSyntaxError as exc:
        raise _not_yaml(str(exc)) from None
    style = detect_style(body)
    try:
        doc = yaml_for(style).load(body)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise _not_yaml(f"{problem}{where}") from None
    if not isinstance(doc, CommentedMap):
        raise UserInputError(
            "the template is not a YAML mapping",
            fix="start from a template with image, target and systemConfig sections",
        )
    dumped = dump(clone(doc), style)  # dumping marks comments; keep the cached doc clean
    parsed = Parsed.of(body, style, doc, exact=dumped == body)
    parsed.bases[None] = dumped
    remember(body, parsed)
    return parsed


def remember(body: str, parsed: Parsed | tuple[Style, CommentedMap, bool]) -> None:
    """Cache a parsed text (or an edit's result, indexed on first use) under its text."""
    with _cache_lock:
        _cache[body] = parsed
        _cache.move_to_end(body)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def _not_yaml(detail: str) -> UserInputError:
    return UserInputError(
        f"the template is not valid YAML ({detail})",
        fix="fix the syntax (oic-ai validate shows where) and try again",
    )
