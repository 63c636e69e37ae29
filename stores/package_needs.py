"""Which packages need which, when no synced index says: ``stores/data/package_needs.yaml``.

Example:
    >>> from oic_ai.stores.package_needs import load_package_needs
    >>> load_package_needs().needed_by("apache2", "ubuntu", "ubuntu24")
    ('libapache2-mod-*',)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

import yaml

from oic_ai.stores.capability_catalog import package_family
from oic_ai.stores.errors import UserInputError

NEEDS_PATH = Path(__file__).parent / "data" / "package_needs.yaml"


@dataclass(frozen=True)
class NeedsTable:
    """Per family or dist: a package -> the names (or globs) of packages that need it."""

    table: Mapping[str, Mapping[str, tuple[str, ...]]]

    def needed_by(self, package: str, os: str, dist: str) -> tuple[str, ...]:
        """Names or globs of the packages that need ``package`` on a target.

        An unknown target has none.
        """
        try:
            family = package_family(os, dist)
        except UserInputError:
            return ()
        found: list[str] = []
        for key in (family, dist):
            for name in self.table.get(key, {}).get(package, ()):
                if name not in found:
                    found.append(name)
        return tuple(found)


@lru_cache(maxsize=1)
def load_package_needs(path: Path = NEEDS_PATH) -> NeedsTable:
    """Read the table (cached).

    Raises:
        ValueError: the file is not shaped as documented in it.
    """
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    raw = data.get("needs") if isinstance(data, dict) else None
    if not isinstance(raw, dict):
        raise ValueError(f"{path.name}: 'needs' must be a mapping")
    table: dict[str, Mapping[str, tuple[str, ...]]] = {}
    for key, entries in raw.items():
        if not isinstance(entries, dict):
            raise ValueError(f"{path.name}: needs.{key} must be a mapping")
        rows: dict[str, tuple[str, ...]] = {}
        for package, names in entries.items():
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise ValueError(f"{path.name}: needs.{key}.{package} must be a list of names")
            rows[str(package)] = tuple(names)
        table[str(key)] = MappingProxyType(rows)
    return NeedsTable(MappingProxyType(table))
