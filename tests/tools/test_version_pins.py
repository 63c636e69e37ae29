"""A version pinned onto a package name is compared as a version, not a string prefix."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from oic_ai.stores.package_formats import parse_deb_packages, parse_rpm_primary
from oic_ai.stores.package_index import PackageIndex, SourceInfo, repo_key
from oic_ai.tools.verify_packages import FOUND, MISSING, check_name
from tests.support.package_index import ELXR12, add_source

DEB = (
    b"Package: tool\nVersion: 1.20-1\nArchitecture: amd64\n\n"
    b"Package: docker-ce\nVersion: 5:27.1.1-1~debian.12~bookworm\nArchitecture: amd64\n\n"
    b"Package: gcc-14-base\nVersion: 14.2.0-19\nArchitecture: amd64\n"
)
RPM = b"""<?xml version="1.0"?>
<metadata xmlns="http://linux.duke.edu/metadata/common" packages="1">
<package type="rpm"><name>kernel</name><arch>x86_64</arch>
<version epoch="0" ver="6.17.11" rel="1.emt3"/></package>
</metadata>
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PackageIndex]:
    idx = PackageIndex(Path(tmp_path_factory.mktemp("pins")) / "packages.sqlite")
    deb = SourceInfo("deb", "main", repo_key("file:deb"), "deb")
    add_source(idx, ELXR12, deb, parse_deb_packages(DEB))
    rpm = SourceInfo("rpm", "base", repo_key("file:rpm"), "rpm")
    add_source(idx, ("edge-microvisor-toolkit", "emt3", "x86_64"), rpm, parse_rpm_primary(RPM))
    yield idx
    idx.close()


@pytest.mark.parametrize(
    ("dist", "name", "status"),
    [
        ("elxr12", "tool-1.2", MISSING),  # 1.2 is not 1.20
        ("elxr12", "tool=1.2", MISSING),
        ("elxr12", "tool-1.20", FOUND),
        ("elxr12", "tool=1.20-1", FOUND),
        ("elxr12", "tool>=1.3", FOUND),  # 20 > 3 as numbers
        ("elxr12", "tool (<< 1.3)", MISSING),
        ("elxr12", "docker-ce=5:27.1.1-1~debian.12~bookworm", FOUND),
        ("elxr12", "docker-ce=27.1.1", FOUND),
        ("elxr12", "docker-ce=27.1", FOUND),  # the leading parts of the version
        ("elxr12", "docker-ce=27.11", MISSING),
        ("elxr12", "gcc-14-base", FOUND),  # a name, not a pin
        ("emt3", "kernel-6.17.11", FOUND),
        ("emt3", "kernel-6.17.1", MISSING),
        ("emt3", "kernel-6.17.11-1.emt3", FOUND),
        ("emt3", "kernel-6.17.11-2.emt3", MISSING),
    ],
)
def test_pins_resolve_by_version(index: PackageIndex, dist: str, name: str, status: str) -> None:
    check = check_name(index.view(dist, "x86_64"), name)
    assert check.status == status, check
