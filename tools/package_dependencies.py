"""What else goes when a package is removed: the packages that need it.

A package left in a template that needs a removed one would pull it back in
(``libapache2-mod-php`` brings Apache back). With a synced index that carries dependency
data, a remaining package needs a removed one when its dependencies, followed through
the index, reach the removed package, a name it provides, or one of its own parts (its
direct dependencies named after it: ``apache2-bin`` of ``apache2``), and no remaining
package satisfies that dependency instead. Without one, the curated table in
``stores/data/package_needs.yaml`` answers.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from oic_ai.stores.package_needs import load_package_needs

if TYPE_CHECKING:
    from oic_ai.stores.package_index import IndexView
    from oic_ai.stores.settings import Settings

# how deep a remaining package's dependencies are followed, and how many names at most
_MAX_DEPTH = 4
_MAX_NAMES = 400

ViewFor = Callable[[str, str], "IndexView | None"]


class PackageNeeds:
    """Answers "which remaining packages need the removed ones" for one target at a time.

    Args:
        view_for: ``(dist, arch) -> IndexView`` of a synced index, or None for the curated
            table only.
    """

    def __init__(self, view_for: ViewFor | None = None) -> None:
        self._view_for = view_for

    @classmethod
    def for_settings(cls, settings: Settings) -> PackageNeeds:
        """Use the package index in ``settings.data_dir`` when it has the target."""

        def view_for(dist: str, arch: str) -> IndexView | None:
            from oic_ai.tools.verify_packages import index_for

            index = index_for(settings.data_dir)
            if not index.exists:
                return None
            view = index.view(dist, arch)
            return view if view.has_index and view.has_dependencies else None

        return cls(view_for)

    def dependents(
        self, removed: Sequence[str], remaining: Sequence[str], *, os: str, dist: str, arch: str
    ) -> dict[str, str]:
        """The remaining packages that need a removed one, each with the one it needs.

        Follows on: a package that needed only what is now removed goes too.

        Args:
            removed: The packages being removed.
            remaining: The template's packages after that removal.
            os: Target os.
            dist: Target dist.
            arch: Target arch.

        Returns:
            ``{dependent: removed package it needs}``, in the order of ``remaining``.
        """
        view = self._view_for(dist, arch) if self._view_for and dist and arch else None
        gone = list(dict.fromkeys(removed))
        left = [name for name in remaining if name not in gone]
        found: dict[str, str] = {}
        while True:
            step = (
                _needing_by_index(view, gone, left)
                if view is not None
                else _needing_by_table(gone, left, os, dist)
            )
            step = {name: why for name, why in step.items() if name not in found}
            if not step:
                return found
            found.update(step)
            gone += list(step)
            left = [name for name in left if name not in step]


def _needing_by_table(
    removed: Sequence[str], remaining: Sequence[str], os: str, dist: str
) -> dict[str, str]:
    table = load_package_needs()
    found: dict[str, str] = {}
    for gone in removed:
        patterns = table.needed_by(gone, os, dist)
        for name in remaining:
            if name not in found and any(fnmatch.fnmatchcase(name, p) for p in patterns):
                found[name] = gone
    return found


def _needing_by_index(
    view: IndexView, removed: Sequence[str], remaining: Sequence[str]
) -> dict[str, str]:
    providers: dict[str, list[str]] = {}

    def provided_by(name: str) -> list[str]:
        if name not in providers:
            providers[name] = [name] if view.exact(name) else view.providers(name)
        return providers[name]

    kept = set(remaining)
    owners: dict[str, str] = {}  # a removed package, its own parts -> the removed package
    for gone in removed:
        owners[gone] = gone
        for group in view.depends(gone):
            part = group[0]
            if part.startswith(f"{gone}-") and part not in kept:  # a listed part stays
                owners.setdefault(part, gone)

    def satisfied_elsewhere(group: tuple[str, ...]) -> bool:
        return any(
            alt in kept or any(p in kept and p not in owners for p in provided_by(alt))
            for alt in group
        )

    found: dict[str, str] = {}
    for name in remaining:
        seen = {name}
        frontier = [name]
        for _ in range(_MAX_DEPTH):
            following: list[str] = []
            for current in frontier:
                for group in view.depends(current):
                    if satisfied_elsewhere(group):
                        continue
                    owner = next(
                        (
                            owners[p]
                            for alt in group
                            for p in (alt, *provided_by(alt))
                            if p in owners
                        ),
                        None,
                    )
                    if owner is not None:
                        found[name] = owner
                        break
                    nxt = next((p for alt in group for p in provided_by(alt)), None)
                    if nxt is not None and nxt not in seen and len(seen) < _MAX_NAMES:
                        seen.add(nxt)
                        following.append(nxt)
                if name in found:
                    break
            if name in found or not following:
                break
            frontier = following
    return found
