"""Apply an :class:`~oic_ai.tools.edit_plan.EditPlan` to template YAML, deterministically.

How the text is kept: the document is edited with ruamel.yaml's round-trip mode, which
keeps comments, key order and quoting, but ruamel's text is never returned as is. It
re-emits a few things its own way (trailing spaces, a ``-`` alone on its line, a final
line without a newline, a list written level with its key in a file that indents
lists), so the applier merges only the lines that changed into the original text: a
three-way merge whose base is ruamel's dump of the unedited document. Where ruamel only
re-spaced the lines an edit touches, the edit is given the original's spacing. The merged
text must load back to what ruamel's edited dump loads to, or the edited dump is used.

How it stays fast: dumping is most of the cost, so only what changed is dumped. Every
top-level entry, and every child of a top-level block mapping, whose value and comments
did not change is written as a marker and swapped back for its original lines. Parsed
templates are cached by text (a library template, or the previous turn's output), and
edits work on a cheap copy.

Indentation (``- `` two spaces under its key, or level with it; the mapping indent) is
detected per file, so new lines match the file around them.

Every operation either changes the document and says so in one plain line, or lands in
``not_applied`` with the reason. Only text that is not a YAML mapping raises. Partition
edits follow :mod:`tools.partition_layout` (new partitions take space from the end of
the disk and keep exactly the size asked for).
"""

from __future__ import annotations

import copy
import difflib
import fnmatch
import io
import re
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Sequence
from copy import deepcopy
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import yaml
from ruamel.yaml import YAML
from ruamel.yaml.anchor import Anchor
from ruamel.yaml.comments import (
    Comment,
    CommentedMap,
    CommentedSeq,
    Format,
    LineCol,
    merge_attrib,
)
from ruamel.yaml.error import CommentMark, YAMLError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, ScalarString
from ruamel.yaml.tag import Tag
from ruamel.yaml.tokens import CommentToken

from oic_ai.stores.disk_units import format_size, parse_size
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.vocabulary import OS_DISTS
from oic_ai.stores.yaml_document import YamlSyntaxError, load_document
from oic_ai.tools import partition_layout as layout
from oic_ai.tools.edit_plan import (
    AddPackages,
    AddPartition,
    AddRepository,
    AddUser,
    DeleteValue,
    EditPlan,
    RemovePackages,
    RemovePartition,
    ResizePartition,
    SetArtifacts,
    SetBootloader,
    SetDiskSize,
    SetHostname,
    SetImage,
    SetImmutability,
    SetKernel,
    SetMetadata,
    SetTarget,
    SetValue,
)
from oic_ai.tools.template_keys import (
    ARTIFACT_TYPES,
    COMPRESSIONS,
    KEY_ORDER,
    PASSWORD_PLACEHOLDER,
    PUBLIC_KEY_PLACEHOLDER,
    ROOT_GUID_FOR_ARCH,
    ROOT_GUIDS,
    ROOT_TYPE_FOR_ARCH,
    ROOT_TYPES,
    SECURE_BOOT_PATHS,
    os_family,
)

_CONSOLE_FOR_ARCH = {"x86_64": "ttyS", "aarch64": "ttyAMA"}
# Words in names and package names that carry the architecture, per arch.
_ARCH_NAME_WORDS = {"x86_64": ("x86_64", "amd64"), "aarch64": ("aarch64", "arm64")}
_ARCH_PACKAGE_WORDS = {"x86_64": ("amd64", "x64"), "aarch64": ("arm64", "aa64")}
_DEB_CODENAMES = {"ubuntu24": "noble", "debian13": "trixie"}
_DEFAULT_RAW_SIZE = "8GiB"
_ESP_END = "513MiB"

_HOSTNAME = re.compile(
    r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$"
)
_IMAGE_NAME = re.compile(r"^[a-zA-Z0-9]([a-zA-Z0-9\-_]*[a-zA-Z0-9])?$")
_IMAGE_VERSION = re.compile(
    r"^[0-9]+(\.([0-9]+|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)){0,2}(\+[0-9a-zA-Z-]+(\.[0-9a-zA-Z-]+)*)?$"
)
_USER_NAME = re.compile(r"^[a-z_][a-z0-9_-]{0,31}$")
_PACKAGE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9+_.:~*?\[\]-]*$")
_VERSION_PIN = re.compile(r"\s*(?:[<>=!]=?|~=).*$")
_GLOB = re.compile(r"[*?\[]")
_KEY_WITH_BLOCK = re.compile(r"^( *)((?:- +)*)([^\s#\-][^#]*?|-[^\s#][^#]*?):(?:\s+#.*)?\s*$")


@dataclass(frozen=True)
class AppliedPlan:
    """The outcome of applying a plan.

    Attributes:
        text: the new YAML text.
        diff: unified diff from the old text to the new one; ``""`` when unchanged.
        applied: one plain-language line per operation that changed something.
        not_applied: the plan's own ``not_applied`` plus every operation that could not
            be applied, each with the reason.
        warnings: the plan's warnings plus the applier's (placeholders to fill in, keys
            to provide).
    """

    text: str
    diff: str
    applied: list[str] = field(default_factory=list)
    not_applied: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether the text changed."""
        return bool(self.diff)


def apply_plan(text: str, plan: EditPlan, *, label: str = "template.yml") -> AppliedPlan:
    """Apply ``plan`` to the template ``text``.

    An empty plan returns ``text`` untouched without parsing it. Operations apply in
    order; one that cannot apply is reported in ``not_applied`` and the rest go on.

    Args:
        text: the template YAML.
        plan: the operations to apply.
        label: the file name the diff shows.

    Returns:
        The new text, its diff and what was and was not done.

    Raises:
        UserInputError: ``text`` is not YAML, or not a mapping.
    """
    not_applied = list(plan.not_applied)
    warnings = list(plan.warnings)
    if not plan.operations:
        return AppliedPlan(text, "", [], not_applied, warnings)
    body, restore = _normalise(text)
    parsed = _parse(body)
    editor = _Editor(_clone(parsed.doc), parsed.style)
    for op in plan.operations:
        editor.apply(op)
    merged = _render(parsed, _tidy(editor.doc))
    if merged != body and not _loads(merged):
        editor, merged = _apply_one_by_one(parsed, plan.operations)
    if merged != body:
        # ruamel dumps the edited document as exactly the merged text when it dumped the
        # original exactly: the merge then had nothing of the original's to keep.
        _remember(merged, (parsed.style, editor.doc, parsed.exact))
    new_text = restore(merged)
    return AppliedPlan(
        new_text,
        unified_diff(text, new_text, label),
        editor.applied,
        not_applied + editor.not_applied,
        warnings + editor.warnings,
    )


def _apply_one_by_one(parsed: _Parsed, operations: Sequence[Any]) -> tuple[_Editor, str]:
    """Apply operations one at a time, dropping any whose result does not load back.

    The slow path, taken only when ruamel wrote something it cannot read (it has bugs
    around comments on emptied collections); each dropped operation is reported.
    """
    editor = _Editor(_clone(parsed.doc), parsed.style)
    merged = parsed.text
    for op in operations:
        before = _clone(editor.doc)
        counts = (len(editor.applied), len(editor.warnings), len(editor.not_applied))
        editor.apply(op)
        attempt = _render(parsed, _tidy(editor.doc))
        if _loads(attempt):
            merged = attempt
            continue
        editor.doc = before
        del editor.applied[counts[0] :], editor.warnings[counts[1] :]
        del editor.not_applied[counts[2] :]
        editor.not_applied.append(
            f"not applied: {_describe(op)}: the YAML writer could not write the result"
        )
    return editor, merged


def _loads(text: str) -> bool:
    """Whether ``text`` loads as a YAML mapping."""
    try:
        return isinstance(yaml.load(text, Loader=_SafeLoader), dict)
    except yaml.YAMLError:
        return False


def _tidy(doc: CommentedMap) -> CommentedMap:
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


# --- loading, dumping and merging -------------------------------------------------------


@dataclass(frozen=True)
class _Style:
    mapping: int = 2
    offset: int = 2
    blank_sections: bool = True
    explicit_start: bool = False


# Which parts of a document to dump: top-level key -> the child keys to dump (None: all
# of it). Keys left out are written as a marker and keep their original lines.
_Selection = tuple[tuple[str, frozenset[str] | None], ...]


@dataclass(frozen=True)
class _Region:
    """Where a mapping entry's lines are: from its key line to the next entry's."""

    start: int
    end: int
    children: dict[str, _Region] | None = None


@dataclass(frozen=True)
class _Parsed:
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
    style: _Style
    doc: CommentedMap
    regions: dict[str, _Region] | None
    prints: dict[str, Any]
    exact: bool = False
    bases: dict[_Selection | None, str] = field(default_factory=dict)

    @classmethod
    def of(cls, text: str, style: _Style, doc: CommentedMap, *, exact: bool) -> _Parsed:
        """Index a document parsed from (or rendered as) ``text``."""
        return cls(text, style, doc, _regions(text, doc, style), _prints(doc), exact)

    def base(self, selection: _Selection | None) -> str:
        """Ruamel's dump of the unedited document (only ``selection`` of it, if given)."""
        dump = self.bases.get(selection)
        if dump is None:
            if self.exact:
                dump = self.text if selection is None else _original(self, selection)[0]
            else:
                copied = _clone(self.doc)  # dumping marks comments; keep the cached doc clean
                if selection is not None:
                    copied = _partial(copied, selection)
                dump = _dump(copied, self.style)
            self.bases[selection] = dump
        return dump


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


def _regions(text: str, doc: CommentedMap, style: _Style) -> dict[str, _Region] | None:
    """Find each top-level entry's lines (and its children's), or None if unsafe."""
    if _outside_comments(doc):
        return None
    lines = text.splitlines(keepends=True)
    starts = _find_keys(doc, lines, 0, len(lines), 0)
    if starts is None:
        return None
    regions: dict[str, _Region] = {}
    for key, start, end in zip(doc, starts, [*starts[1:], len(lines)], strict=True):
        value = doc[key]
        children = None
        if _is_block(value) and isinstance(value, CommentedMap) and not _outside_comments(value):
            inner = _find_keys(value, lines, start + 1, end, style.mapping)
            if inner is not None:
                children = {
                    child: _Region(child_start, child_end)
                    for child, child_start, child_end in zip(
                        value, inner, [*inner[1:], end], strict=True
                    )
                }
        regions[key] = _Region(start, end, children)
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


def _partial(doc: CommentedMap, selection: _Selection) -> CommentedMap:
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


def _selection(parsed: _Parsed, edited: CommentedMap) -> _Selection | None:
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


def _original(parsed: _Parsed, selection: _Selection) -> tuple[str, dict[str, tuple[int, int]]]:
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


def _render(parsed: _Parsed, edited: CommentedMap) -> str:
    """Write the edited document as the original text, changed only where it must be.

    Entries (top-level, and the children of top-level block mappings) whose value and
    comments did not change are not dumped at all (dumping is most of an apply's cost):
    they are written as markers, and the markers are swapped back for their original
    lines after the changed entries are merged line by line (see :func:`_merge`).
    """
    body = parsed.text
    selection = _selection(parsed, edited)
    if selection is None:
        if _prints(edited) == parsed.prints and list(edited) == list(parsed.doc):
            return body
        return _merge(body, parsed.base(None), _dump(edited, parsed.style))
    if not selection:
        return body
    lines = body.splitlines(keepends=True)
    original, markers = _original(parsed, selection)
    partial = _dump(_partial(edited, selection), parsed.style)
    merged = _merge(original, parsed.base(selection), partial)
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
_cache: OrderedDict[str, _Parsed | tuple[_Style, CommentedMap, bool]] = OrderedDict()
_cache_lock = threading.Lock()
_local = threading.local()


def _normalise(text: str) -> tuple[str, Callable[[str], str]]:
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


def _detect_style(text: str) -> _Style:
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
    return _Style(
        mapping=mapping,
        offset=offset,
        blank_sections=blank_before * 2 >= len(top[1:]) if len(top) > 1 else True,
        explicit_start=text.lstrip().startswith("---"),
    )


def _yaml(style: _Style) -> YAML:
    # YAML instances keep parser state, so each thread gets its own.
    instances: dict[_Style, YAML] | None = getattr(_local, "instances", None)
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


def _parse(body: str) -> _Parsed:
    with _cache_lock:
        hit = _cache.get(body)
        if hit is not None:
            _cache.move_to_end(body)
    if isinstance(hit, _Parsed):
        return hit
    if hit is not None:
        style, doc, exact = hit
        parsed = _Parsed.of(body, style, doc, exact=exact)
        _remember(body, parsed)
        return parsed
    try:
        load_document(body)  # the validator's loader refuses alias bombs and deep nesting
    except YamlSyntaxError as exc:
        raise UserInputError(
            f"the template is not valid YAML ({exc})",
            fix="fix the syntax (oic-ai validate shows where) and try again",
        ) from None
    style = _detect_style(body)
    try:
        doc = _yaml(style).load(body)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise UserInputError(
            f"the template is not valid YAML ({problem}{where})",
            fix="fix the syntax (oic-ai validate shows where) and try again",
        ) from None
    if not isinstance(doc, CommentedMap):
        raise UserInputError(
            "the template is not a YAML mapping",
            fix="start from a template with image, target and systemConfig sections",
        )
    dump = _dump(_clone(doc), style)  # dumping marks comments; keep the cached doc clean
    parsed = _Parsed.of(body, style, doc, exact=dump == body)
    parsed.bases[None] = dump
    _remember(body, parsed)
    return parsed


def _remember(body: str, parsed: _Parsed | tuple[_Style, CommentedMap, bool]) -> None:
    with _cache_lock:
        _cache[body] = parsed
        _cache.move_to_end(body)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def _clone(doc: CommentedMap) -> CommentedMap:
    """Copy a document for editing, comments included; cached documents stay pristine.

    ``copy.deepcopy`` is slow on ruamel nodes (each list item re-copies the list's
    comments) and copies the emitter's "already printed" marks, which then drop comments
    from the next dump. This copy shares immutable scalars and copies the rest.
    """
    try:
        clone: CommentedMap = _clone_node(doc, {})
    except _MergeKeys:
        clone = deepcopy(doc)
        _reset_tokens(clone)
    return clone


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


def _dump(doc: CommentedMap, style: _Style) -> str:
    buffer = io.StringIO()
    _yaml(style).dump(doc, buffer)
    return buffer.getvalue()


def _hunks(base: list[str], other: list[str]) -> list[tuple[int, int, list[str]]]:
    matcher = difflib.SequenceMatcher(None, base, other, autojunk=False)
    return [
        (i1, i2, other[j1:j2]) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    ]


def _merge(original: str, base: str, edited: str) -> str:
    """Carry the edits from ``base`` to ``edited`` over to ``original``.

    ``original`` differs from ``base`` only where ruamel normalised the formatting.
    Changes on one side apply as they are; where both sides changed the same or
    adjacent lines, the edited side wins for that region.
    """
    if edited == base:
        return original
    if original == base:
        return edited
    base_lines = base.splitlines(keepends=True)
    edited_lines = edited.splitlines(keepends=True)
    hunks = [
        (lo, hi, "o", lines) for lo, hi, lines in _hunks(base_lines, original.splitlines(True))
    ]
    hunks += [(lo, hi, "e", lines) for lo, hi, lines in _hunks(base_lines, edited_lines)]
    hunks.sort(key=lambda h: (h[0], h[1]))
    out: list[str] = []
    position = 0
    index = 0
    while index < len(hunks):
        group = [hunks[index]]
        high = hunks[index][1]
        index += 1
        while index < len(hunks) and hunks[index][0] <= high:
            group.append(hunks[index])
            high = max(high, hunks[index][1])
            index += 1
        low = group[0][0]
        out.extend(base_lines[position:low])
        sides = {side for _, _, side, _ in group}
        if len(sides) == 1:
            out.extend(group[0][3])
        else:
            out.extend(_combine(group, base_lines, low, high))
        position = high
    out.extend(base_lines[position:])
    merged = "".join(out)
    try:
        same = yaml.load(merged, Loader=_SafeLoader) == yaml.load(edited, Loader=_SafeLoader)
    except yaml.YAMLError:
        same = False
    return merged if same else edited


def _combine(
    group: Sequence[tuple[int, int, str, list[str]]], base: list[str], low: int, high: int
) -> list[str]:
    """Merge a region both sides changed: the edits win, the original's layout stays.

    When the original side only re-spaced lines one for one (a list written level with
    its key where ruamel indents it, two spaces before a comment, a trailing space), the
    lines the edit kept come from the original and the lines it wrote get the original's
    indentation, so a list keeps its style when an item is added. Otherwise the edited
    lines win as ruamel wrote them.
    """
    edited: list[tuple[int, str]] = []  # (base index or -1 for a new line, text)
    cursor = low
    for lo, hi, side, lines in group:
        if side != "e":
            continue
        edited.extend((i, base[i]) for i in range(cursor, lo))
        edited.extend((-1, line) for line in lines)
        cursor = hi
    edited.extend((i, base[i]) for i in range(cursor, high))
    kept: dict[int, str] = {}
    shift: int | None = None
    depth = 1 << 30  # lines indented less than the re-spaced block are not part of it
    for lo, hi, side, lines in group:
        if side != "o":
            continue
        if hi - lo != len(lines):
            return [line for _, line in edited]
        for index, (before, after) in enumerate(zip(base[lo:hi], lines, strict=True)):
            if before.split() != after.split():
                return [line for _, line in edited]
            kept[lo + index] = after
            if before.strip():
                depth = min(depth, _indent(before))
                delta = _indent(after) - _indent(before)
                if shift not in (None, delta):
                    return [line for _, line in edited]
                shift = delta
    out: list[str] = []
    for index, line in edited:
        if index >= 0:
            out.append(kept.get(index, line))
        elif not shift or not line.strip() or _indent(line) < depth:
            out.append(line)
        elif shift > 0:
            out.append(" " * shift + line)
        elif _indent(line) >= -shift:
            out.append(line[-shift:])
        else:
            return [line for _, line in edited]
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


_SafeLoader: type[yaml.SafeLoader]
try:  # the C loader is ~10x faster; fall back quietly where libyaml is missing
    _SafeLoader = yaml.CSafeLoader  # type: ignore[assignment,unused-ignore]
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _SafeLoader = yaml.SafeLoader


# --- comments: keeping them next to what they describe ----------------------------------
#
# ruamel attaches the comment lines between two entries to the deepest last value of the
# first entry (after its end-of-line comment). When an entry is inserted after it, or it is
# removed, those lines are moved so they stay above the entry they describe.


def _is_block(node: Any) -> bool:
    return (
        isinstance(node, CommentedMap | CommentedSeq) and len(node) > 0 and not node.fa.flow_style()
    )


def _last_key(node: CommentedMap | CommentedSeq) -> Any:
    return len(node) - 1 if isinstance(node, CommentedSeq) else next(reversed(node))


def _slot(container: Any, key: Any) -> tuple[Any, Any, list[Any]]:
    """Find the deepest last value under ``container[key]`` and any end comments on the way."""
    ends: list[Any] = []
    value = container[key]
    while _is_block(value):
        end = getattr(value.ca, "end", None)
        if end:
            ends.append(value)
        container, key = value, _last_key(value)
        value = container[key]
    return container, key, ends


def _post_index(container: Any) -> int:
    return 2 if isinstance(container, CommentedMap) else 0


def _take_tail(container: Any, key: Any) -> str:
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


def _give_tail(container: Any, key: Any, rest: str) -> None:
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


def _insert_key(
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
    written right after its key); ``pending`` collects it for :func:`_settle`.
    """
    if pending is not None and isinstance(value, CommentedMap | CommentedSeq) and not value:
        pending.append((container, key))
    keys = list(container)
    position = _position(keys, key, order)
    tail = _take_tail(container, keys[position - 1]) if position > 0 else ""
    container.insert(position, key, value)
    container.ca.items.pop(key, None)
    separator = "\n" if blank else ""
    if position == 0:
        if keys:
            _give_tail(container, key, separator)
    elif position < len(keys):
        _give_tail(container, keys[position - 1], _leading_blank(tail) or separator)
        _give_tail(container, key, tail or separator)
    else:
        _give_tail(container, keys[position - 1], separator if not _leading_blank(tail) else "")
        _give_tail(container, key, tail)


def _settle(pending: list[tuple[Any, Any]]) -> None:
    """Move comment lines held by a once-empty container's key to its new last value."""
    for container, key in pending:
        entry = container.ca.items.get(key) if key in container else None
        if not entry:
            continue
        index = _post_index(container)
        token = entry[index]
        if token is None or not token.value.startswith("\n") or not _is_block(container[key]):
            continue
        entry[index] = None
        _give_tail(container, key, token.value[1:])
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


def _insert_item(seq: CommentedSeq, index: int, value: Any) -> None:
    if index >= len(seq):
        _append(seq, value)
        return
    tail = _take_tail(seq, index - 1) if index > 0 and _is_block(seq) else ""
    seq.insert(index, value)
    seq.ca.items.pop(index, None)
    if index > 0:
        _give_tail(seq, index - 1, _leading_blank(tail))
        _give_tail(seq, index, tail)


def _append(seq: CommentedSeq, value: Any) -> None:
    tail = _take_tail(seq, len(seq) - 1) if len(seq) and _is_block(seq) else ""
    seq.append(value)
    _give_tail(seq, len(seq) - 1, tail)


def _remove(container: CommentedMap | CommentedSeq, key: Any) -> None:
    """Remove an entry; comments above it go with it, comments below it stay."""
    keys = list(range(len(container))) if isinstance(container, CommentedSeq) else list(container)
    position = keys.index(key)
    record = isinstance(container[key], CommentedMap | CommentedSeq)
    own = _take_tail(container, key) if _is_block(container) else ""
    if position > 0 and _is_block(container):
        before = _take_tail(container, keys[position - 1])
        keep = _leading_blank(before) if record else before
    else:
        keep = ""
    del container[key]
    if isinstance(container, CommentedMap):
        container.ca.items.pop(key, None)
    if position > 0:
        _give_tail(container, keys[position - 1], keep + own)
    elif own.strip() and len(container):
        first = 0 if isinstance(container, CommentedSeq) else next(iter(container))
        entry = container.ca.items.setdefault(first, [None, None, None, None])
        entry[1] = [CommentToken(own, CommentMark(0)), *(entry[1] or [])]


# --- scalars ------------------------------------------------------------------------------


def _plain_ok(text: str) -> bool:
    """Whether ``text`` can be written unquoted and still load as the same string."""
    return _plain_ok_cached(str(text))  # the C loader refuses ruamel's str subclasses


@lru_cache(maxsize=4096)
def _plain_ok_cached(text: str) -> bool:
    if not text or text != text.strip() or "\n" in text:
        return False
    try:
        return bool(yaml.load(text, Loader=_SafeLoader) == text)
    except yaml.YAMLError:
        return False


def _scalar(text: str, like: Any = None, *, quoted: bool = False) -> Any:
    """A string in the style of ``like``; else double-quoted when asked or when it must be."""
    if isinstance(like, ScalarString):
        if _plain_ok(text) and not _plain_ok(str(like)):
            return text  # the old value was quoted only to stay a string, e.g. "0"
        return type(like)(text)
    if isinstance(like, str):
        quoted = False
    if quoted or not _plain_ok(text):
        return DoubleQuotedScalarString(text)
    return text


def _to_node(value: Any, like: Any = None) -> Any:
    if isinstance(value, dict):
        node = CommentedMap()
        for key, item in value.items():
            node[str(key)] = _to_node(item)
        return node
    if isinstance(value, list | tuple):
        seq = CommentedSeq()
        for item in value:
            seq.append(_to_node(item))
        return seq
    if isinstance(value, str):
        return _scalar(value, like)
    return value


def _flow(items: Iterable[Any]) -> CommentedSeq:
    seq = CommentedSeq(items)
    seq.fa.set_flow_style()
    return seq


def _seq(items: Iterable[Any]) -> CommentedSeq:
    seq = CommentedSeq(items)
    seq.fa.set_block_style()
    return seq


def _show(value: Any) -> str:
    if isinstance(value, str):
        return str(value) if _plain_ok(value) else f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dict | list):
        text = str(yaml.safe_dump(_plain(value), default_flow_style=True, width=1 << 16)).strip()
        return text if len(text) <= 60 else text[:57] + "..."
    return str(value)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, str):
        return str(value)
    return value


def _bare_package(name: str) -> str:
    return _VERSION_PIN.sub("", name.strip())


# --- paths for set and delete -------------------------------------------------------------

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


# --- the editor ---------------------------------------------------------------------------


class _Skip(Exception):
    """An operation cannot apply; the message says why."""


class _Editor:
    def __init__(self, doc: CommentedMap, style: _Style) -> None:
        self.doc = doc
        self.style = style
        self.applied: list[str] = []
        self.not_applied: list[str] = []
        self.warnings: list[str] = []
        self.pending: list[tuple[Any, Any]] = []

    # generic plumbing

    def apply(self, op: Any) -> None:
        handler = getattr(self, "_op_" + op.op.replace("-", "_"))
        try:
            handler(op)
        except _Skip as skip:
            self.not_applied.append(f"not applied: {_describe(op)}: {skip}")
        finally:
            _settle(self.pending)

    def _section(self, key: str, *, create: bool) -> CommentedMap | None:
        value = self.doc.get(key)
        if isinstance(value, CommentedMap):
            return value
        if value is not None:
            raise _Skip(f"{key} is not a mapping")
        if not create:
            return None
        node = CommentedMap()
        _insert_key(
            self.doc,
            key,
            node,
            KEY_ORDER[""],
            blank=self.style.blank_sections,
            pending=self.pending,
        )
        return node

    def _mapping(
        self, parent: CommentedMap, key: str, where: str, *, create: bool
    ) -> CommentedMap | None:
        value = parent.get(key)
        if isinstance(value, CommentedMap):
            return value
        if value is not None:
            raise _Skip(f"{where}.{key} is not a mapping")
        if not create:
            return None
        node = CommentedMap()
        _insert_key(parent, key, node, KEY_ORDER.get(where, ()), pending=self.pending)
        return node

    def _list(
        self, parent: CommentedMap, key: str, where: str, *, create: bool
    ) -> CommentedSeq | None:
        value = parent.get(key)
        if isinstance(value, CommentedSeq):
            return value
        if value is not None:
            raise _Skip(f"{where}.{key} is not a list")
        if not create:
            return None
        node = _seq([])
        _insert_key(parent, key, node, KEY_ORDER.get(where, ()), pending=self.pending)
        return node

    def _set(
        self, parent: CommentedMap, key: str, value: Any, where: str, *, quoted: bool = False
    ) -> Any:
        """Set ``parent[key]``; returns the old value (None when it was missing)."""
        old = parent.get(key)
        if isinstance(value, str):
            value = _scalar(value, old, quoted=quoted)
        if key in parent:
            parent[key] = value
        else:
            _insert_key(parent, key, value, KEY_ORDER.get(where, ()), pending=self.pending)
        return old

    def _target(self) -> CommentedMap:
        target = self.doc.get("target")
        return target if isinstance(target, CommentedMap) else CommentedMap()

    def _arch(self) -> str | None:
        arch = self._target().get("arch")
        return str(arch) if isinstance(arch, str) else None

    def _partitions(self, *, need: bool = True) -> CommentedSeq | None:
        disk = self.doc.get("disk")
        parts = disk.get("partitions") if isinstance(disk, CommentedMap) else None
        if isinstance(parts, CommentedSeq) and len(parts):
            return parts
        if need:
            raise _Skip("the template has no disk partitions")
        return None

    def _disk_size(self) -> int | None:
        disk = self.doc.get("disk")
        size = parse_size(disk.get("size")) if isinstance(disk, CommentedMap) else None
        return size or None

    def _spans(self) -> list[layout.Span]:
        parts = self._partitions()
        assert parts is not None
        try:
            return layout.read_spans(parts)
        except layout.LayoutError as exc:
            raise _Skip(str(exc)) from None

    def _find_partition(self, ref: str) -> tuple[int, CommentedMap]:
        parts = self._partitions()
        assert parts is not None
        wanted = ref.strip()
        mount = wanted.rstrip("/") or "/"
        for index, part in enumerate(parts):
            if not isinstance(part, CommentedMap):
                continue
            if str(part.get("id", "")) == wanted or str(part.get("name", "")) == wanted:
                return index, part
        for index, part in enumerate(parts):
            if not isinstance(part, CommentedMap):
                continue
            point = part.get("mountPoint")
            if (
                isinstance(point, str)
                and wanted.startswith("/")
                and (point.rstrip("/") or "/") == mount
            ):
                return index, part
        raise _Skip("no such partition")

    def _write_spans(self, changes: dict[int, tuple[int, int | None]]) -> list[str]:
        parts = self._partitions()
        assert parts is not None
        notes: list[str] = []
        for index, (start, end) in sorted(changes.items()):
            part = parts[index]
            label = layout.partition_label(part, index)
            before = f"{part.get('start')}-{part.get('end')}"
            if parse_size(part.get("start")) != start:
                part["start"] = _scalar(layout.mib(start), part.get("start"))
            old_end = parse_size(part.get("end"))
            if end is None and old_end != 0:
                part["end"] = DoubleQuotedScalarString("0")
            elif end is not None and old_end != end:
                part["end"] = _scalar(layout.mib(end), part.get("end"))
            notes.append(f"{label} {before} -> {part.get('start')}-{part.get('end')}")
        return notes

    def _family(self) -> str | None:
        return os_family(self._target().get("os"))

    # operations

    def _op_set_target(self, op: SetTarget) -> None:
        if all(v is None for v in (op.os, op.dist, op.arch, op.image_type)):
            raise _Skip("nothing to set")
        if op.os is not None:
            if op.os not in OS_DISTS:
                raise _Skip(f"unknown os {op.os!r}; use one of {', '.join(OS_DISTS)}")
            dists = OS_DISTS[op.os]
            if op.dist is not None and op.dist not in dists:
                raise _Skip(f"dist {op.dist!r} does not belong to os {op.os}")
        if op.dist is not None and op.os is None:
            owner = self._target().get("os")
            known = {d for ds in OS_DISTS.values() for d in ds}
            if op.dist not in known:
                raise _Skip(f"unknown dist {op.dist!r}")
            if isinstance(owner, str) and owner in OS_DISTS and op.dist not in OS_DISTS[owner]:
                raise _Skip(f"dist {op.dist!r} does not belong to os {owner}")
        old_family = self._family()
        target = self._section("target", create=True)
        assert target is not None
        changes: list[str] = []
        if op.os is not None:
            old = self._set(target, "os", op.os, "target")
            if old != op.os:
                changes.append(f"os {_show(old)} -> {op.os}")
            dist = op.dist or target.get("dist")
            if dist not in OS_DISTS[op.os]:
                dist = OS_DISTS[op.os][0]
                old = self._set(target, "dist", dist, "target")
                changes.append(f"dist {_show(old)} -> {dist}")
        if op.dist is not None:
            old = self._set(target, "dist", op.dist, "target")
            if old != op.dist:
                changes.append(f"dist {_show(old)} -> {op.dist}")
        if op.image_type is not None:
            old = self._set(target, "imageType", op.image_type, "target")
            if old != op.image_type:
                changes.append(f"imageType {_show(old)} -> {op.image_type}")
        old_arch = self._arch()
        if op.arch is not None:
            self._set(target, "arch", op.arch, "target")
            if old_arch != op.arch:
                changes.append(f"arch {_show(old_arch)} -> {op.arch}")
        if not changes:
            raise _Skip("the target is already set that way")
        self.applied.append("target " + ", ".join(changes))
        if op.arch is not None and old_arch != op.arch:
            self._follow_arch(old_arch, op.arch)
        if old_family is not None and self._family() != old_family:
            self.warnings.append(
                f"the target changed from a {old_family} to a {self._family()} distribution: "
                "check that every package name exists there"
            )
        if op.image_type == "raw" and "disk" not in self.doc:
            try:
                self._create_disk(_DEFAULT_RAW_SIZE)
            except _Skip as skip:
                self.warnings.append(f"a raw image needs a disk layout; none was created: {skip}")

    def _follow_arch(self, old: str | None, new: str) -> None:
        """Change what depends on the architecture: root type, consoles, names, packages."""
        notes: list[str] = []
        parts = self._partitions(need=False) or CommentedSeq()
        for index, part in enumerate(parts):
            if not isinstance(part, CommentedMap):
                continue
            label = layout.partition_label(part, index)
            kind = part.get("type")
            if isinstance(kind, str) and kind in ROOT_TYPES and ROOT_TYPES[kind] != new:
                part["type"] = ROOT_TYPE_FOR_ARCH[new]
                notes.append(f"partition {label} type {kind} -> {ROOT_TYPE_FOR_ARCH[new]}")
            guid = part.get("typeUUID")
            if (
                isinstance(guid, str)
                and guid.lower() in ROOT_GUIDS
                and ROOT_GUIDS[guid.lower()] != new
            ):
                part["typeUUID"] = ROOT_GUID_FOR_ARCH[new]
                notes.append(f"partition {label} typeUUID -> {ROOT_GUID_FOR_ARCH[new]}")
        system = self.doc.get("systemConfig")
        kernel = system.get("kernel") if isinstance(system, CommentedMap) else None
        cmdline = kernel.get("cmdline") if isinstance(kernel, CommentedMap) else None
        if isinstance(kernel, CommentedMap) and isinstance(cmdline, str):
            console = _CONSOLE_FOR_ARCH[new]
            others = "|".join(t for a, t in _CONSOLE_FOR_ARCH.items() if a != new)
            updated = re.sub(rf"(?<=console=)(?:{others})(?=[0-9])", console, cmdline)
            if updated != cmdline:
                kernel["cmdline"] = updated
                notes.append(f"kernel cmdline consoles -> {console}")
        words = _ARCH_NAME_WORDS.get(old or "", ())
        for section_key in ("image", "disk", "systemConfig"):
            section = self.doc.get(section_key)
            name = section.get("name") if isinstance(section, CommentedMap) else None
            if not isinstance(section, CommentedMap) or not isinstance(name, str) or not words:
                continue
            renamed = _swap_words(name, words, _ARCH_NAME_WORDS[new])
            if renamed != name:
                section["name"] = renamed
                notes.append(f"{section_key}.name {name} -> {renamed}")
        package_words = _ARCH_PACKAGE_WORDS.get(old or "", ())
        renamed_packages: list[str] = []
        if isinstance(system, CommentedMap) and package_words:
            lists = [system.get("packages")]
            if isinstance(kernel, CommentedMap):
                lists.append(kernel.get("packages"))
            for packages in lists:
                if not isinstance(packages, CommentedSeq):
                    continue
                for i, name in enumerate(packages):
                    if not isinstance(name, str):
                        continue
                    renamed = _swap_package_arch(name, package_words, _ARCH_PACKAGE_WORDS[new])
                    if renamed != name:
                        packages[i] = renamed
                        renamed_packages.append(f"{name} -> {renamed}")
        if renamed_packages:
            notes.append("packages " + ", ".join(renamed_packages))
        if notes:
            self.applied.append(f"for {new}: " + "; ".join(notes))
        if old is not None:
            self.warnings.append(
                f"the architecture changed from {old} to {new}: check that every package "
                f"exists for {new}"
            )

    def _op_set_image(self, op: SetImage) -> None:
        if op.name is None and op.version is None:
            raise _Skip("nothing to set")
        if op.name is not None and not _IMAGE_NAME.match(op.name):
            raise _Skip(f"image name {op.name!r} must use letters, digits, '-' and '_'")
        if op.version is not None and not _IMAGE_VERSION.match(op.version):
            raise _Skip(f"image version {op.version!r} must look like 1, 1.2 or 1.2.3")
        image = self._section("image", create=True)
        assert image is not None
        changes = []
        if op.name is not None:
            old = self._set(image, "name", op.name, "image")
            if old != op.name:
                changes.append(f"name {_show(old)} -> {op.name}")
        if op.version is not None:
            old = self._set(image, "version", op.version, "image", quoted=True)
            if old != op.version:
                changes.append(f"version {_show(old)} -> {op.version}")
        if not changes:
            raise _Skip("the image is already set that way")
        self.applied.append("image " + ", ".join(changes))

    def _op_add_packages(self, op: AddPackages) -> None:
        names: list[str] = []
        pins: list[str] = []
        for raw in op.packages:
            bare = _bare_package(raw)
            if bare != raw.strip():
                pins.append(raw)
            if not _PACKAGE_NAME.match(bare):
                raise _Skip(f"{raw!r} is not a package name")
            if bare not in names:
                names.append(bare)
        if not names:
            raise _Skip("no package names given")
        system = self._section("systemConfig", create=True)
        assert system is not None
        where = "systemConfig"
        if op.kernel:
            kernel = self._mapping(system, "kernel", "systemConfig", create=True)
            assert kernel is not None
            system, where = kernel, "systemConfig.kernel"
        existing = system.get("packages")
        present = [n for n in names if isinstance(existing, list) and n in existing]
        added = [n for n in names if n not in present]
        if not added:
            raise _Skip("already present")
        packages = self._list(system, "packages", where, create=True)
        assert packages is not None
        like = packages[-1] if len(packages) else None
        for name in added:
            _append(packages, _scalar(name, like))
        line = f"added {'kernel ' if op.kernel else ''}packages {', '.join(added)}"
        if present:
            line += f" ({', '.join(present)} already present)"
        if pins:
            line += f" (version pins dropped from {', '.join(pins)})"
        self.applied.append(line)

    def _op_remove_packages(self, op: RemovePackages) -> None:
        system = self.doc.get("systemConfig")
        lists: list[CommentedSeq] = []
        if isinstance(system, CommentedMap):
            if isinstance(system.get("packages"), CommentedSeq):
                lists.append(system["packages"])
            kernel = system.get("kernel")
            if isinstance(kernel, CommentedMap) and isinstance(
                kernel.get("packages"), CommentedSeq
            ):
                lists.append(kernel["packages"])
        removed: list[str] = []
        missing: list[str] = []
        for pattern in op.packages:
            wanted = pattern.strip()
            hits = 0
            for packages in lists:
                matches = [
                    index
                    for index, name in enumerate(packages)
                    if isinstance(name, str) and _package_matches(name, wanted)
                ]
                removed.extend(str(packages[index]) for index in matches)
                for index in reversed(matches):
                    _remove(packages, index)
                hits += len(matches)
            if not hits:
                missing.append(wanted)
        if removed:
            unique = list(dict.fromkeys(removed))
            self.applied.append(f"removed packages {', '.join(unique)}")
        if missing:
            self.not_applied.append(
                f"not applied: remove packages {', '.join(missing)}: not in the package lists"
            )

    def _op_set_disk_size(self, op: SetDiskSize) -> None:
        size = parse_size(op.size)
        if not size:
            raise _Skip(f"{op.size!r} is not a size; write e.g. 8GiB")
        text = op.size.strip().replace(" ", "")
        disk = self.doc.get("disk")
        if disk is None:
            image_type = self._target().get("imageType")
            if image_type in ("iso", "img"):
                raise _Skip(
                    f"imageType {image_type} images have no disk layout; set imageType raw first"
                )
            self._create_disk(text)
            return
        if not isinstance(disk, CommentedMap):
            raise _Skip("disk is not a mapping")
        parts = self._partitions(need=False)
        if parts is not None:
            try:
                layout.check_disk_size(layout.read_spans(parts), size)
            except layout.LayoutError as exc:
                raise _Skip(str(exc)) from None
        if parse_size(disk.get("size")) == size:
            raise _Skip(f"the disk is already {disk.get('size')}")
        old = self._set(disk, "size", text, "disk")
        self.applied.append(f"disk size {_show(old) if old is not None else 'unset'} -> {text}")

    def _create_disk(self, size_text: str) -> None:
        size = parse_size(size_text) or 0
        if size < layout.GIB:
            raise _Skip("a disk with an ESP and a root filesystem needs at least 1GiB")
        arch = self._arch()
        if arch not in ROOT_TYPE_FOR_ARCH:
            raise _Skip(f"target.arch {arch!r} has no known root partition type")
        system = self.doc.get("systemConfig")
        image = self.doc.get("image")
        name = None
        for section in (system, image):
            if isinstance(section, CommentedMap) and isinstance(section.get("name"), str):
                name = section["name"]
                break
        disk = CommentedMap()
        disk["name"] = _scalar(str(name or "disk"))
        artifact = CommentedMap()
        artifact["type"] = "raw"
        disk["artifacts"] = _seq([artifact])
        disk["size"] = size_text
        disk["partitionTableType"] = "gpt"
        esp = CommentedMap()
        esp["id"] = "boot"
        esp["type"] = "esp"
        esp["typeUUID"] = layout.ESP_GUID
        esp["fsType"] = "fat32"
        esp["start"] = "1MiB"
        esp["end"] = _ESP_END
        esp["mountPoint"] = "/boot/efi"
        esp["mountOptions"] = "umask=0077"
        esp["flags"] = _flow(["esp", "boot"])
        root = CommentedMap()
        root["id"] = "rootfs"
        root["type"] = ROOT_TYPE_FOR_ARCH[arch]
        root["typeUUID"] = ROOT_GUID_FOR_ARCH[arch]
        root["fsType"] = "ext4"
        root["start"] = _ESP_END
        root["end"] = DoubleQuotedScalarString("0")
        root["mountPoint"] = "/"
        root["mountOptions"] = "defaults"
        disk["partitions"] = _seq([esp, root])
        _insert_key(self.doc, "disk", disk, KEY_ORDER[""], blank=self.style.blank_sections)
        self.applied.append(
            f"created a {size_text} gpt disk: ESP /boot/efi (1MiB-{_ESP_END}) and an ext4 root "
            f"for {arch} on the rest, raw artifact"
        )

    def _op_add_partition(self, op: AddPartition) -> None:
        ident = op.id.strip()
        mount = op.mount_point.strip()
        if not ident:
            raise _Skip("the partition needs an id")
        if not (mount.startswith("/") or mount in ("none", "swap")):
            raise _Skip(f"mount point {mount!r} must be an absolute path")
        size = None
        if op.size is not None:
            size = parse_size(op.size)
            if not size or size < layout.MIB:
                raise _Skip(f"{op.size!r} is not a size of at least 1MiB")
            size = layout.round_up(size, layout.MIB)
        if self.doc.get("disk") is None:
            raise _Skip("the template has no disk layout; set a disk size first")
        parts = self._partitions()
        assert parts is not None
        normal = mount.rstrip("/") or "/"
        for index, part in enumerate(parts):
            if not isinstance(part, CommentedMap):
                continue
            if str(part.get("id", "")) == ident:
                raise _Skip(f"partition id {ident} is already used")
            point = part.get("mountPoint")
            if (
                mount.startswith("/")
                and isinstance(point, str)
                and (point.rstrip("/") or "/") == normal
            ):
                raise _Skip(f"{mount} is already the mount point of partitions[{index}]")
        try:
            carve = layout.carve_from_end(self._spans(), self._disk_size(), size)
        except layout.LayoutError as exc:
            raise _Skip(str(exc)) from None
        moved = self._write_spans(carve.changes)
        part = CommentedMap()
        part["id"] = _scalar(ident)
        part["type"] = _scalar(op.type)
        part["fsType"] = _scalar(op.fs_type)
        part["start"] = layout.mib(carve.start)
        part["end"] = DoubleQuotedScalarString("0") if carve.end is None else layout.mib(carve.end)
        part["mountPoint"] = _scalar(mount)
        _insert_item(parts, carve.insert_at, part)
        if carve.end is None:
            extent = "the rest of the disk"
        else:
            extent = f"{format_size(carve.end - carve.start)}"
        line = (
            f"added partition {ident} ({op.fs_type}, {mount}, {extent}) at "
            f"{layout.mib(carve.start)}-{part['end']}"
        )
        if moved:
            line += "; " + "; ".join(moved)
        self.applied.append(line)

    def _op_resize_partition(self, op: ResizePartition) -> None:
        index, part = self._find_partition(op.partition)
        size = parse_size(op.size)
        if not size:
            raise _Skip(f"{op.size!r} is not a size")
        spans = self._spans()
        try:
            changes = layout.resize(
                spans, self._disk_size(), index, layout.round_up(size, layout.MIB)
            )
        except layout.LayoutError as exc:
            raise _Skip(str(exc)) from None
        if not changes:
            raise _Skip("it already has that size")
        notes = self._write_spans(changes)
        label = layout.partition_label(part, index)
        self.applied.append(f"resized partition {label} to {op.size.strip()}: " + "; ".join(notes))

    def _op_remove_partition(self, op: RemovePartition) -> None:
        index, part = self._find_partition(op.partition)
        label = layout.partition_label(part, index)
        try:
            changes, note = layout.remove(self._spans(), self._disk_size(), index)
        except layout.LayoutError as exc:
            raise _Skip(str(exc)) from None
        notes = self._write_spans(changes)
        parts = self._partitions()
        assert parts is not None
        _remove(parts, index)
        self.applied.append(f"removed partition {label}; {note}" + "".join(f"; {n}" for n in notes))

    def _op_set_artifacts(self, op: SetArtifacts) -> None:
        if not op.artifacts:
            raise _Skip("an image needs at least one artifact")
        for artifact in op.artifacts:
            if artifact.type not in ARTIFACT_TYPES:
                raise _Skip(f"unknown artifact type {artifact.type!r}")
            if artifact.compression is not None and artifact.compression not in COMPRESSIONS:
                raise _Skip(f"unknown compression {artifact.compression!r}")
        disk = self.doc.get("disk")
        if not isinstance(disk, CommentedMap):
            raise _Skip("the template has no disk section (iso and img images have none)")
        wanted = [
            {"type": a.type, **({"compression": a.compression} if a.compression else {})}
            for a in op.artifacts
        ]
        current = disk.get("artifacts")
        if isinstance(current, list) and _plain(current) == wanted:
            raise _Skip("the artifacts are already set that way")
        items = []
        for spec in wanted:
            node = CommentedMap()
            for key, value in spec.items():
                node[key] = value
            items.append(node)
        if isinstance(current, CommentedSeq):
            tail = _take_tail(current, len(current) - 1) if len(current) else ""
            del current[:]
            current.ca.items.clear()
            for item in items:
                current.append(item)
            _give_tail(current, len(current) - 1, tail)
        else:
            self._set(disk, "artifacts", _seq(items), "disk")
        shown = ", ".join(
            a.type + (f" ({a.compression})" if a.compression else "") for a in op.artifacts
        )
        self.applied.append(f"artifacts -> {shown}")

    def _op_set_hostname(self, op: SetHostname) -> None:
        hostname = op.hostname.strip()
        if not _HOSTNAME.match(hostname):
            raise _Skip(f"{hostname!r} is not a valid hostname")
        system = self._section("systemConfig", create=True)
        assert system is not None
        old = self._set(system, "hostname", hostname, "systemConfig")
        if old == hostname:
            raise _Skip("the hostname is already set to that")
        self.applied.append(f"hostname {_show(old) if old is not None else 'unset'} -> {hostname}")

    def _op_set_kernel(self, op: SetKernel) -> None:
        if op.version is None and op.cmdline is None and not op.append_cmdline:
            raise _Skip("nothing to set")
        system = self._section("systemConfig", create=True)
        assert system is not None
        kernel = self._mapping(system, "kernel", "systemConfig", create=True)
        assert kernel is not None
        changes: list[str] = []
        if op.version is not None:
            version = op.version.strip()
            old = self._set(kernel, "version", version, "systemConfig.kernel", quoted=True)
            if old != version:
                changes.append(f"version {_show(old) if old is not None else 'unset'} -> {version}")
        if op.cmdline is not None:
            cmdline = " ".join(op.cmdline.split())
            old = self._set(kernel, "cmdline", cmdline, "systemConfig.kernel", quoted=True)
            if old != cmdline:
                changes.append(f'cmdline -> "{cmdline}"')
        if op.append_cmdline:
            current = kernel.get("cmdline")
            args = str(current).split() if isinstance(current, str) else []
            added: list[str] = []
            for raw in op.append_cmdline:
                for arg in raw.split():
                    key = arg.split("=", 1)[0]
                    if arg in args:
                        continue
                    same_key = [
                        i for i, a in enumerate(args) if "=" in arg and a.split("=", 1)[0] == key
                    ]
                    if same_key and key != "console":
                        old_arg = args[same_key[-1]]
                        args[same_key[-1]] = arg
                        added.append(f"{old_arg} -> {arg}")
                    else:
                        args.append(arg)
                        added.append(arg)
            if added:
                self._set(kernel, "cmdline", " ".join(args), "systemConfig.kernel", quoted=True)
                changes.append("cmdline " + ", ".join(added))
        if not changes:
            raise _Skip("the kernel already has those settings")
        self.applied.append("kernel " + "; ".join(changes))

    def _op_set_bootloader(self, op: SetBootloader) -> None:
        if op.provider is None and op.boot_type is None:
            raise _Skip("nothing to set")
        system = self._section("systemConfig", create=True)
        assert system is not None
        current = system.get("bootloader")
        current_type = current.get("bootType") if isinstance(current, CommentedMap) else None
        current_provider = current.get("provider") if isinstance(current, CommentedMap) else None
        boot_type = op.boot_type or current_type
        provider = op.provider or current_provider
        if provider == "systemd-boot" and boot_type == "legacy":
            raise _Skip("systemd-boot only boots with efi")
        bootloader = self._mapping(system, "bootloader", "systemConfig", create=True)
        assert bootloader is not None
        changes: list[str] = []
        if op.boot_type is not None:
            old = self._set(bootloader, "bootType", op.boot_type, "systemConfig.bootloader")
            if old != op.boot_type:
                changes.append(f"bootType {_show(old) if old else 'unset'} -> {op.boot_type}")
        if op.provider is not None:
            old = self._set(bootloader, "provider", op.provider, "systemConfig.bootloader")
            if old != op.provider:
                changes.append(f"provider {_show(old) if old else 'unset'} -> {op.provider}")
        if not changes:
            raise _Skip("the bootloader is already set that way")
        self.applied.append("bootloader " + ", ".join(changes))

    def _op_set_immutability(self, op: SetImmutability) -> None:
        if op.secure_boot and not op.enabled:
            raise _Skip("secure boot keys need immutability enabled")
        system = self._section("systemConfig", create=True)
        assert system is not None
        node = self._mapping(system, "immutability", "systemConfig", create=True)
        assert node is not None
        changes: list[str] = []
        old = self._set(node, "enabled", op.enabled, "systemConfig.immutability")
        if old is not op.enabled:
            changes.append(f"immutability {'enabled' if op.enabled else 'disabled'}")
        has_keys = [k for k in SECURE_BOOT_PATHS if k in node]
        if op.secure_boot or (op.secure_boot is None and op.enabled and has_keys):
            added = [key for key in SECURE_BOOT_PATHS if key not in node]
            for key in added:
                path = SECURE_BOOT_PATHS[key]
                self._set(node, key, path, "systemConfig.immutability", quoted=True)
                changes.append(f"{key} {path}")
            if added:
                self.warnings.append(
                    "secure boot: point SB_KEYS at a directory holding your db.key, db.crt and "
                    "db.cer when you build; never commit the keys"
                )
        elif has_keys and (op.secure_boot is False or not op.enabled):
            for key in has_keys:
                _remove(node, key)
            changes.append("removed the secure boot keys")
        if not changes:
            raise _Skip("immutability is already set that way")
        self.applied.append("; ".join(changes))

    def _op_add_user(self, op: AddUser) -> None:
        name = op.name.strip()
        if not _USER_NAME.match(name):
            raise _Skip(f"user name {name!r} must be lower-case letters, digits, '_' or '-'")
        system = self._section("systemConfig", create=True)
        assert system is not None
        existing = system.get("users")
        if isinstance(existing, list) and any(
            isinstance(u, dict) and u.get("name") == name for u in existing
        ):
            raise _Skip(f"user {name} already exists")
        groups = list(dict.fromkeys(g.strip() for g in op.groups if g.strip()))
        if op.sudo and not groups:
            family = self._family()
            groups = ["sudo"] if family == "deb" else ["wheel"]
        users = self._list(system, "users", "systemConfig", create=True)
        assert users is not None
        user = CommentedMap()
        user["name"] = name
        user["password"] = DoubleQuotedScalarString(PASSWORD_PLACEHOLDER)
        if groups:
            user["groups"] = _flow(_scalar(g) for g in groups)
        if op.sudo:
            user["sudo"] = True
        if op.shell:
            user["shell"] = _scalar(op.shell.strip())
        _append(users, user)
        extra = f" in groups {', '.join(groups)}" if groups else ""
        self.applied.append(f"added user {name}{extra}{' with sudo' if op.sudo else ''}")
        self.warnings.append(
            f"user {name} has the placeholder password {PASSWORD_PLACEHOLDER}: replace it with a "
            "crypt hash (openssl passwd -6) or remove it and provide an SSH key at deploy time"
        )

    def _op_add_repository(self, op: AddRepository) -> None:
        url = op.url.strip()
        if not url:
            raise _Skip("the repository needs a url")
        existing = self.doc.get("packageRepositories")
        if existing is not None and not isinstance(existing, CommentedSeq):
            raise _Skip("packageRepositories is not a list")
        if isinstance(existing, CommentedSeq) and any(
            isinstance(r, dict) and str(r.get("url", "")).rstrip("/") == url.rstrip("/")
            for r in existing
        ):
            raise _Skip("a repository with that url is already there")
        codename = (op.codename or "").strip() or self._default_codename(url)
        if not codename:
            raise _Skip("the repository needs a codename (the suite, e.g. noble)")
        bad = [p for p in op.allow_packages if not _PACKAGE_NAME.match(p.strip())]
        if bad:
            raise _Skip(f"{bad[0]!r} is not a package name")
        repo = CommentedMap()
        repo["codename"] = DoubleQuotedScalarString(codename)
        repo["url"] = DoubleQuotedScalarString(url)
        pkey = (op.pkey or "").strip()
        repo["pkey"] = DoubleQuotedScalarString(pkey or PUBLIC_KEY_PLACEHOLDER)
        if op.component:
            repo["component"] = DoubleQuotedScalarString(op.component.strip())
        if op.allow_packages:
            repo["allowPackages"] = _seq(p.strip() for p in op.allow_packages)
        if existing is None:
            repos = _seq([repo])
            _insert_key(
                self.doc,
                "packageRepositories",
                repos,
                KEY_ORDER[""],
                blank=self.style.blank_sections,
            )
        else:
            _append(existing, repo)
        self.applied.append(f"added repository {codename} ({url})")
        if not pkey:
            self.warnings.append(
                f"repository {codename} has the placeholder key {PUBLIC_KEY_PLACEHOLDER}: "
                "set pkey to the URL of its signing key"
            )
        if not op.codename:
            self.warnings.append(f"repository codename {codename!r} was assumed; check it")

    def _default_codename(self, url: str) -> str:
        dist = self._target().get("dist")
        if self._family() == "deb":
            return _DEB_CODENAMES.get(str(dist), "")
        segments = [s for s in re.split(r"[/:]+", url) if s and s not in ("https", "http", "file")]
        label = segments[-1] if segments else ""
        return re.sub(r"[^A-Za-z0-9._-]", "-", label)

    def _op_set_metadata(self, op: SetMetadata) -> None:
        if op.description is None and op.use_cases is None and op.keywords is None:
            raise _Skip("nothing to set")
        metadata = self._section("metadata", create=True)
        assert metadata is not None
        changes: list[str] = []
        if op.description is not None:
            old = self._set(
                metadata, "description", op.description.strip(), "metadata", quoted=True
            )
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
                tail = _take_tail(current, len(current) - 1)
                del current[:]
                current.ca.items.clear()
                for value in clean:
                    current.append(_scalar(value, like, quoted=quoted))
                if len(current):
                    _give_tail(current, len(current) - 1, tail)
            else:
                items = _seq(_scalar(v, quoted=quoted) for v in clean)
                self._set(metadata, key, items, "metadata")
            changes.append(key)
        if not changes:
            raise _Skip("the metadata is already set that way")
        self.applied.append("metadata " + ", ".join(changes))

    def _walk(
        self, parts: Sequence[str | int | tuple[str, str]], *, create: bool
    ) -> tuple[Any, str | int | tuple[str, str]]:
        """Return the container holding the last part of ``parts``."""
        if create:
            self._walk_check(parts)
        node: Any = self.doc
        for position, part in enumerate(parts[:-1]):
            shown = _shape(parts[: position + 1])
            if isinstance(part, str):
                if not isinstance(node, CommentedMap):
                    raise _Skip(f"{shown} is not inside a mapping")
                child = node.get(part)
                if child is None:
                    if not create or not isinstance(parts[position + 1], str):
                        raise _Skip(f"no such key {shown}")
                    child = CommentedMap()
                    order = KEY_ORDER.get(_shape(parts[:position]), ())
                    blank = position == 0 and self.style.blank_sections
                    _insert_key(node, part, child, order, blank=blank, pending=self.pending)
                node = child
            else:
                node = _select(node, part, shown)[1]
        return node, parts[-1]

    def _walk_check(self, parts: Sequence[str | int | tuple[str, str]]) -> None:
        """Refuse a path before anything is created for it, so a refusal changes nothing."""
        node: Any = self.doc
        for position, part in enumerate(parts[:-1]):
            shown = _shape(parts[: position + 1])
            if node is None:
                if not isinstance(part, str):
                    raise _Skip(f"no such list {_shape(parts[:position])}")
                continue
            if isinstance(part, str):
                if not isinstance(node, CommentedMap):
                    raise _Skip(f"{shown} is not inside a mapping")
                node = node.get(part)
            else:
                node = _select(node, part, shown)[1]
        if node is None and not isinstance(parts[-1], str):
            raise _Skip(f"no such list {_shape(parts[:-1])}")

    def _op_set(self, op: SetValue) -> None:
        parts = _parse_path(op.path)
        if parts is None:
            raise _Skip("the path cannot be read; write e.g. disk.partitions[id=rootfs].fsType")
        container, last = self._walk(parts, create=True)
        order = KEY_ORDER.get(_shape(parts[:-1]), ())
        if isinstance(last, str):
            if not isinstance(container, CommentedMap):
                raise _Skip(f"{_shape(parts[:-1]) or 'the document'} is not a mapping")
            old = container.get(last)
            value = _coerce(op.value, old, last)
            node = _to_node(value, old)
            if last in container:
                if _plain(old) == _plain(node) and type(old) is type(node):
                    raise _Skip("it already has that value")
                container[last] = node
            else:
                blank = len(parts) == 1 and self.style.blank_sections
                _insert_key(container, last, node, order, blank=blank, pending=self.pending)
        else:
            if not isinstance(container, CommentedSeq):
                raise _Skip(f"{_shape(parts[:-1])} is not a list")
            if isinstance(last, int) and last == len(container):
                old = None
                _append(container, _to_node(op.value))
            else:
                index, old = _select(container, last, op.path)
                node = _to_node(_coerce(op.value, old, ""), old)
                if _plain(old) == _plain(node):
                    raise _Skip("it already has that value")
                container[index] = node
        shown = _show(op.value)
        self.applied.append(
            f"set {op.path.strip()}: {_show(old)} -> {shown}"
            if old is not None
            else f"set {op.path.strip()}: {shown}"
        )

    def _op_delete(self, op: DeleteValue) -> None:
        parts = _parse_path(op.path)
        if parts is None:
            raise _Skip("the path cannot be read")
        container, last = self._walk(parts, create=False)
        if isinstance(last, str):
            if not isinstance(container, CommentedMap) or last not in container:
                raise _Skip("no such key")
            _remove(container, last)
        else:
            if not isinstance(container, CommentedSeq):
                raise _Skip(f"{_shape(parts[:-1])} is not a list")
            index, _ = _select(container, last, op.path)
            _remove(container, index)
        self.applied.append(f"deleted {op.path.strip()}")


def _select(node: Any, part: int | tuple[str, str] | str, shown: str) -> tuple[int, Any]:
    if not isinstance(node, CommentedSeq):
        raise _Skip(f"{shown} is not a list")
    if isinstance(part, int):
        index = part + len(node) if part < 0 else part
        if not 0 <= index < len(node):
            raise _Skip(f"{shown}: index {part} is out of range (the list has {len(node)})")
        return index, node[index]
    if isinstance(part, tuple):
        key, wanted = part
        for index, item in enumerate(node):
            if isinstance(item, dict) and str(item.get(key)) == wanted:
                return index, item
        raise _Skip(f"no item with {key}={wanted} in {shown}")
    raise _Skip(f"{shown} is a list; select an item with [N] or [id=...]")


def _coerce(value: Any, old: Any, key: str) -> Any:
    # Versions and other strings stay strings even when a planner writes a number.
    if isinstance(value, int | float) and not isinstance(value, bool):
        if isinstance(old, str) or key in ("version", "dist", "name", "codename"):
            return str(value)
    return value


def _package_matches(name: str, wanted: str) -> bool:
    if _GLOB.search(wanted):
        return fnmatch.fnmatchcase(name, wanted) or fnmatch.fnmatchcase(_bare_package(name), wanted)
    return name == wanted or _bare_package(name) == wanted


def _swap_words(text: str, old: Sequence[str], new: Sequence[str]) -> str:
    for before, after in zip(old, new, strict=True):
        text = re.sub(rf"(?<![A-Za-z0-9]){re.escape(before)}(?![A-Za-z0-9])", after, text)
    return text


def _swap_package_arch(name: str, old: Sequence[str], new: Sequence[str]) -> str:
    for before, after in zip(old, new, strict=True):
        name = re.sub(rf"(?<=-){re.escape(before)}(?=-|$)", after, name)
    return name


def _describe(op: Any) -> str:
    """Name an operation in words, for not_applied lines."""
    if isinstance(op, AddPackages):
        return f"add {'kernel ' if op.kernel else ''}packages {', '.join(op.packages)}"
    if isinstance(op, RemovePackages):
        return f"remove packages {', '.join(op.packages)}"
    if isinstance(op, SetDiskSize):
        return f"set disk size {op.size}"
    if isinstance(op, AddPartition):
        return f"add partition {op.mount_point}"
    if isinstance(op, ResizePartition):
        return f"resize partition {op.partition} to {op.size}"
    if isinstance(op, RemovePartition):
        return f"remove partition {op.partition}"
    if isinstance(op, SetTarget):
        fields = {"os": op.os, "dist": op.dist, "arch": op.arch, "imageType": op.image_type}
        return "set target " + ", ".join(f"{k} {v}" for k, v in fields.items() if v)
    if isinstance(op, SetImage):
        return "set image " + ", ".join(str(v) for v in (op.name, op.version) if v)
    if isinstance(op, SetArtifacts):
        return "set artifacts " + ", ".join(a.type for a in op.artifacts)
    if isinstance(op, SetHostname):
        return f"set hostname {op.hostname}"
    if isinstance(op, SetKernel):
        return "set kernel"
    if isinstance(op, SetBootloader):
        return "set bootloader " + ", ".join(str(v) for v in (op.provider, op.boot_type) if v)
    if isinstance(op, SetImmutability):
        return f"{'enable' if op.enabled else 'disable'} immutability"
    if isinstance(op, AddUser):
        return f"add user {op.name}"
    if isinstance(op, AddRepository):
        return f"add repository {op.url}"
    if isinstance(op, SetMetadata):
        return "set metadata"
    if isinstance(op, SetValue):
        return f"set {op.path}"
    if isinstance(op, DeleteValue):
        return f"delete {op.path}"
    return str(getattr(op, "op", "operation"))
