"""Filling a real package index in tests: one call per imported source.

A target is written ``(os, dist, arch)``, as the index keys its rows; :data:`UBUNTU24` is
the one most tests use.
"""

from __future__ import annotations

from collections.abc import Iterable

from oic_ai.stores.package_formats import PackageRecord
from oic_ai.stores.package_index import PackageIndex, SourceInfo, repo_key

Target = tuple[str, str, str]
UBUNTU24: Target = ("ubuntu", "ubuntu24", "x86_64")
ELXR12: Target = ("wind-river-elxr", "elxr12", "x86_64")


def add_source(
    index: PackageIndex, target: Target, source: SourceInfo, records: Iterable[PackageRecord]
) -> None:
    """Import ``records`` into ``index`` as ``source`` of ``target`` (replacing its rows)."""
    os_name, dist, arch = target
    index.replace_source(os=os_name, dist=dist, arch=arch, source=source, records=records)


def add_packages(index: PackageIndex, target: Target, *names: str) -> None:
    """Import packages called ``names`` (version 1.0-1, amd64) as a deb source ``fixture``."""
    source = SourceInfo("deb", "fixture", repo_key("fixture"), "fixture")
    add_source(index, target, source, [PackageRecord(n, "1.0-1", "amd64", ()) for n in names])
