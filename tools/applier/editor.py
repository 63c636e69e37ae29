"""The document being edited, what was done to it, and the plumbing every handler uses."""

from __future__ import annotations

from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from oic_ai.stores.targets import load_targets
from oic_ai.tools.applier.comments import insert_key
from oic_ai.tools.applier.yaml_io import Style
from oic_ai.tools.applier.yaml_values import scalar, seq, show
from oic_ai.tools.package_dependencies import PackageNeeds
from oic_ai.tools.template_keys import KEY_ORDER


class Skip(Exception):
    """An operation cannot apply; the message says why."""


class AlreadySo(Skip):
    """An operation asks for what the document already has: nothing to do, nothing refused.

    "set the hostname to gw-1" when it is gw-1: the request is met, so it is no refusal;
    the applier says so beside its changes instead of in ``not_applied``.
    """


class Editor:
    """A document under edit, with the lines that say what was and was not done.

    Attributes:
        doc: the document (a copy; the parsed original stays pristine).
        style: the indentation of the file it came from.
        applied: one plain-language line per change.
        not_applied: one line per operation that could not apply, with the reason.
        already: one line per operation whose result the document already had.
        warnings: placeholders to fill in, keys to provide.
        pending: new empty containers whose following comment lines need settling.
        needs: which packages need which, so a removal takes its dependents along.
        sized: what the user gave a size ("disk", partitions by mount point or id): with
            the disk in it, a new partition that does not fit takes room from a fixed-size
            root before the disk grows; a partition in it never gives room.
    """

    def __init__(
        self,
        doc: CommentedMap,
        style: Style,
        needs: PackageNeeds | None = None,
        *,
        sized: frozenset[str] = frozenset(),
    ) -> None:
        self.doc = doc
        self.style = style
        self.needs = needs or PackageNeeds()
        self.sized = sized
        self.applied: list[str] = []
        self.not_applied: list[str] = []
        self.already: list[str] = []
        self.warnings: list[str] = []
        self.pending: list[tuple[Any, Any]] = []
        self._names: dict[int, tuple[CommentedSeq, set[str]]] = {}

    def names(self, packages: CommentedSeq) -> set[str]:
        """The names in a package list, as a set kept while add_packages ops run in a row.

        A plan of many add_packages operations would otherwise scan the growing list once
        per operation (quadratic); the caller adds what it appends.
        """
        held = self._names.get(id(packages))
        if held is None or held[0] is not packages:
            names = {str(n) for n in list.__iter__(packages) if isinstance(n, str)}
            held = (packages, names)
            self._names[id(packages)] = held
        return held[1]

    def forget_names(self) -> None:
        """Drop the kept name sets (any operation but add_packages may change the lists)."""
        self._names.clear()

    def insert(
        self, parent: CommentedMap, key: str, value: Any, where: str, *, blank: bool = False
    ) -> None:
        """Insert ``parent[key]`` where the template key order puts it under ``where``."""
        insert_key(parent, key, value, KEY_ORDER.get(where, ()), blank=blank, pending=self.pending)

    def section(self, key: str) -> CommentedMap:
        """The top-level mapping ``key``, created where it is missing."""
        node: CommentedMap = self._child(self.doc, key, "", CommentedMap)
        return node

    def mapping(self, parent: CommentedMap, key: str, where: str) -> CommentedMap:
        """The mapping ``parent[key]`` (``parent`` sits at ``where``), created if missing."""
        node: CommentedMap = self._child(parent, key, where, CommentedMap)
        return node

    def sequence(self, parent: CommentedMap, key: str, where: str) -> CommentedSeq:
        """The list ``parent[key]`` (``parent`` sits at ``where``), created if missing."""
        node: CommentedSeq = self._child(parent, key, where, CommentedSeq)
        return node

    def _child(self, parent: CommentedMap, key: str, where: str, kind: type) -> Any:
        value = parent.get(key)
        if isinstance(value, kind):
            return value
        if value is not None:
            noun = "list" if kind is CommentedSeq else "mapping"
            raise Skip(f"{f'{where}.' if where else ''}{key} is not a {noun}")
        node = seq([]) if kind is CommentedSeq else CommentedMap()
        self.insert(parent, key, node, where, blank=not where and self.style.blank_sections)
        return node

    def update(
        self,
        parent: CommentedMap,
        key: str,
        value: str,
        where: str,
        changes: list[str],
        *,
        quoted: bool = False,
        unset: bool = False,
    ) -> None:
        """Set ``parent[key]``, and note ``key old -> value`` in ``changes`` if it changed.

        Args:
            parent: the mapping.
            key: the key to set.
            value: the new value.
            where: the path of ``parent``, for the key order.
            changes: the notes so far.
            quoted: write a new value double-quoted.
            unset: name a missing (or empty) old value ``unset`` rather than ``null``.
        """
        old = self.set_key(parent, key, value, where, quoted=quoted)
        if old != value:
            changes.append(f"{key} {show(old) if old or not unset else 'unset'} -> {value}")

    def set_key(
        self, parent: CommentedMap, key: str, value: Any, where: str, *, quoted: bool = False
    ) -> Any:
        """Set ``parent[key]``; returns the old value (None when it was missing)."""
        old = parent.get(key)
        if isinstance(value, str):
            value = scalar(value, old, quoted=quoted)
        if key in parent:
            parent[key] = value
        else:
            self.insert(parent, key, value, where)
        return old

    def target(self) -> CommentedMap:
        """The target section, or an empty mapping."""
        target = self.doc.get("target")
        return target if isinstance(target, CommentedMap) else CommentedMap()

    def arch(self) -> str | None:
        """The target architecture."""
        arch = self.target().get("arch")
        return str(arch) if isinstance(arch, str) else None

    def family(self) -> str | None:
        """The package family (deb, rpm) of the target os."""
        return load_targets().os_family(self.target().get("os"))
