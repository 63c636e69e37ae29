"""Load YAML into plain Python data while keeping every node's position.

PyYAML's node tree gives line and column for each value at C speed, which is all the
validator needs to point at the offending line. Round-trip editing lives elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

_Loader: type[yaml.SafeLoader]
try:  # the C loader is ~10x faster; fall back quietly where libyaml is missing
    _Loader = yaml.CSafeLoader  # type: ignore[assignment,unused-ignore]
except AttributeError:  # pragma: no cover - depends on the PyYAML build
    _Loader = yaml.SafeLoader

PathPart = str | int
MAX_DEPTH = 64  # templates nest about 6 deep; walkers after the loader recurse
MAX_VALUES = 1_000_000  # values after alias expansion: an alias bomb would hang every walker


class YamlSyntaxError(ValueError, yaml.YAMLError):
    """The text is not well-formed YAML; carries a 1-based line and column.

    It is also a :class:`yaml.YAMLError`, so a reader that swaps ``yaml.safe_load`` for
    :func:`load_data` keeps catching what it caught before.
    """

    def __init__(
        self, message: str, line: int | None, column: int | None, code: str = "yaml-syntax"
    ) -> None:
        """Record the parser's message, where it stopped and the finding's code."""
        self.line = line
        self.column = column
        self.code = code
        where = f" at line {line}, column {column}" if line is not None else ""
        super().__init__(f"{message}{where}")


@dataclass(frozen=True)
class DuplicateKey:
    """A mapping key that appears twice; YAML loaders silently keep the last one."""

    path: tuple[PathPart, ...]
    key: str
    line: int


class YamlDocument:
    """Plain data of one YAML document plus a way to find the line of any path."""

    def __init__(
        self,
        data: Any,
        root: yaml.Node | None,
        duplicates: Sequence[DuplicateKey] | None = None,
    ) -> None:
        """Wrap constructed data, the node tree it came from and its duplicate keys.

        Args:
            data: The constructed document.
            root: Its node tree (merge keys already flattened by the constructor).
            duplicates: The keys written twice in one mapping, found before the
                constructor flattened any ``<<`` merge; ``None`` looks in ``root``.
        """
        self.data = data
        self._root = root
        self._duplicates = None if duplicates is None else list(duplicates)

    def line_of(self, path: Sequence[PathPart]) -> int | None:
        """Return the 1-based line of the value at ``path``, or of its nearest parent."""
        node = self._root
        if node is None:
            return None
        best = node.start_mark.line + 1
        for part in path:
            child = _child(node, part)
            if child is None:
                break
            node = child
            best = node.start_mark.line + 1
        return best

    def key_line(self, path: Sequence[PathPart], key: str) -> int | None:
        """Return the line where ``key`` is written inside the mapping at ``path``."""
        node = self._root
        for part in path:
            if node is None:
                return None
            node = _child(node, part)
        if isinstance(node, yaml.MappingNode):
            # the last one counts, as in the data: a ``<<`` merge puts the merged keys first
            for key_node, _ in reversed(node.value):
                if isinstance(key_node, yaml.ScalarNode) and key_node.value == key:
                    return int(key_node.start_mark.line) + 1
        return self.line_of(path)

    def duplicate_keys(self) -> list[DuplicateKey]:
        """List keys written more than once in the same mapping.

        A key that overrides one brought in by a ``<<`` merge is not a duplicate: that is
        how merge keys are meant to be used.
        """
        if self._duplicates is not None:
            return list(self._duplicates)
        found: list[DuplicateKey] = []
        if self._root is not None:
            _collect_duplicates(self._root, (), found, set())
        return found


def _child(node: yaml.Node, part: PathPart) -> yaml.Node | None:
    if isinstance(node, yaml.MappingNode) and isinstance(part, str):
        match = None
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode) and key_node.value == part:
                match = value_node  # the last duplicate wins, as in the loaded data
        return match
    if isinstance(node, yaml.SequenceNode) and isinstance(part, int):
        if 0 <= part < len(node.value):
            child: yaml.Node = node.value[part]
            return child
    return None


def _collect_duplicates(
    node: yaml.Node, path: tuple[PathPart, ...], out: list[DuplicateKey], seen: set[int]
) -> None:
    if id(node) in seen:  # aliases can point back at a node already walked
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        keys: set[str] = set()
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                if key_node.value in keys and key_node.value != "<<":
                    out.append(DuplicateKey(path, key_node.value, key_node.start_mark.line + 1))
                keys.add(key_node.value)
                _collect_duplicates(value_node, (*path, key_node.value), out, seen)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _collect_duplicates(item, (*path, index), out, seen)


def load_document(text: str, *, as_composer: bool = False) -> YamlDocument:
    """Parse one YAML document, keeping positions.

    Args:
        text: The YAML text.
        as_composer: Read scalars as the composer's yaml.v3 does (``yes`` is a string,
            ``1e3`` a number; :mod:`oic_ai.stores.yaml_composer`) rather than as PyYAML's
            YAML 1.1 does. The validator reads templates this way.

    Raises:
        YamlSyntaxError: the text is not valid YAML, holds more than one document, nests
            deeper than :data:`MAX_DEPTH`, has an alias that contains itself or expands
            past :data:`MAX_VALUES`, or holds a value Python cannot build (an integer of
            thousands of digits, a date like 2024-13-45, a lone surrogate).
    """
    loader: Any = None
    duplicates: list[DuplicateKey] = []
    try:
        check_depth(text)
        if as_composer:
            from oic_ai.stores.yaml_composer import ComposerLoader

            loader = ComposerLoader(text)
        else:
            loader = _Loader(text)
        root = loader.get_single_node()
        if root is not None:
            _check_nesting(root)
            # before construction: flattening a ``<<`` merge copies the merged keys into
            # the mapping's own node, where an override would look like a second key
            _collect_duplicates(root, (), duplicates, set())
        data = loader.construct_document(root) if root is not None else None
    except YamlSyntaxError:
        raise
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        column = mark.column + 1 if mark is not None else None
        problem = str(exc.problem or exc.context or "invalid YAML")
        code = "yaml-syntax"
        if "another document" in problem:
            code = "yaml-multiple-documents"
            problem = (
                "the file holds more than one YAML document; the composer reads only the "
                "first and ignores the rest: keep one template per file"
            )
        elif "could not determine a constructor for the tag" in problem:
            code = "yaml-unknown-tag"
            tag = problem.rsplit(" ", 1)[-1]
            problem = (
                f"the tag {tag} is not a YAML type; the composer reads the value as plain "
                "text: remove the tag (quote the value to keep it text)"
            )
        raise YamlSyntaxError(problem, line, column, code) from exc
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(str(exc), None, None) from exc
    except RecursionError as exc:
        raise YamlSyntaxError("YAML nesting is too deep", None, None) from exc
    except (ValueError, AttributeError, KeyError, TypeError) as exc:
        # a constructor's int() or date(), the text's encoding, or PyYAML's own
        # constructors on an explicit tag they cannot read ("!!bool maybe")
        raise YamlSyntaxError(f"unreadable value ({exc!r})", None, None) from exc
    finally:
        if loader is not None:
            loader.dispose()
    return YamlDocument(data, root, duplicates)


def check_depth(text: str) -> None:
    """Refuse text whose collections nest deeper than :data:`MAX_DEPTH`, before composing.

    The composer (libyaml's included) recurses once per level, so 30,000 ``[`` overflow
    the C stack and kill the process. The event parser keeps its own stack, so this
    reads events and stops at the first level past the limit, which also spares libyaml's
    slow path on very deep flow collections. Every YAML the tool reads from outside goes
    through :func:`load_document`, which calls this first.

    Raises:
        YamlSyntaxError: the text nests too deep.
        yaml.YAMLError: the text is not YAML (the caller turns it into a syntax error).
    """
    parser = _Loader(text)
    try:
        depth = 0
        while parser.check_event():
            event: yaml.Event = parser.get_event()  # type: ignore[no-untyped-call]
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise YamlSyntaxError(
                        f"YAML nests deeper than {MAX_DEPTH} levels", *_at(event.start_mark)
                    )
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    finally:
        parser.dispose()


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def _check_nesting(root: yaml.Node) -> None:
    """Refuse nesting past MAX_DEPTH, aliases that contain themselves and alias bombs.

    Every walker after the loader recurses over the expanded data, so deep nesting or a
    cycle would exhaust Python's recursion limit there, and a few nested aliases expand to
    billions of values. Heights and sizes are memoised: each node is walked once.
    """
    height: dict[int, int] = {}
    size: dict[int, int] = {}
    on_path = {id(root)}
    stack: list[tuple[yaml.Node, Iterator[yaml.Node]]] = [(root, iter(_children(root)))]
    while stack:
        node, pending = stack[-1]
        child = next(pending, None)
        if child is None:
            stack.pop()
            on_path.discard(id(node))
            children = _children(node)
            height[id(node)] = 1 + max((height[id(c)] for c in children), default=0)
            size[id(node)] = 1 + sum(size[id(c)] for c in children)
            if size[id(node)] > MAX_VALUES:
                raise YamlSyntaxError(
                    f"aliases expand to more than {MAX_VALUES} values", *_at(node.start_mark)
                )
            continue
        mark = child.start_mark
        if id(child) in on_path:
            raise YamlSyntaxError("an alias refers to a node that contains it", *_at(mark))
        if len(stack) + height.get(id(child), 1) > MAX_DEPTH:
            raise YamlSyntaxError(f"YAML nests deeper than {MAX_DEPTH} levels", *_at(mark))
        if id(child) not in height:
            on_path.add(id(child))
            stack.append((child, iter(_children(child))))


def _at(mark: Any) -> tuple[int | None, int | None]:
    """A ``yaml.Mark`` (from the C or the Python parser) as a 1-based line and column."""
    return (mark.line + 1, mark.column + 1) if mark is not None else (None, None)


def load_data(text: str) -> Any:
    """Parse YAML to plain data without keeping positions (the fast path for scans).

    Raises:
        YamlSyntaxError: the text is not valid YAML.
    """
    return load_document(text).data
