"""Real data: the machine's Debian 12 (bookworm) index, imported as the elxr12 index.

``apt-cache dumpavail`` prints the Packages index apt knows (about 63,000 packages on
these machines). eLxr 12 is built on Debian 12, so it stands in for the elxr12 index.
The import runs once per session; every test here skips where apt is unavailable.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from oic_ai.stores.capability_catalog import DIST_FAMILY, load_catalog
from oic_ai.stores.package_formats import parse_deb_packages
from oic_ai.stores.package_index import IndexView, PackageIndex, SourceInfo, repo_key
from oic_ai.stores.vocabulary import OS_DISTS
from oic_ai.tools.verify_packages import verify_template_packages
from tests.support.package_index import ELXR12, add_source

MIN_PACKAGES = 50_000


@pytest.fixture(scope="session")
def bookworm(tmp_path_factory: pytest.TempPathFactory) -> PackageIndex:
    if shutil.which("apt-cache") is None:
        pytest.skip("apt-cache is not installed: no real Debian index on this machine")
    dump = subprocess.run(
        ["apt-cache", "dumpavail"], capture_output=True, check=False, timeout=120
    ).stdout
    if dump.count(b"\nPackage: ") < MIN_PACKAGES:
        pytest.skip("apt-cache dumpavail lists too few packages (apt lists not downloaded)")
    index = PackageIndex(tmp_path_factory.mktemp("bookworm") / "packages.sqlite")
    apt = SourceInfo("deb", "bookworm (apt-cache dumpavail)", repo_key("apt"), "apt")
    add_source(index, ELXR12, apt, parse_deb_packages(dump, "apt-cache dumpavail"))
    yield index
    index.close()


@pytest.fixture(scope="session")
def view(bookworm: PackageIndex) -> IndexView:
    return bookworm.view("elxr12", "x86_64")


def elxr_template(*packages: str) -> dict[str, object]:
    return {
        "image": {"name": "bookworm-check", "version": "1"},
        "target": {"os": "wind-river-elxr", "dist": "elxr12", "arch": "x86_64"},
        "systemConfig": {"name": "t", "packages": list(packages)},
    }


def test_the_whole_index_imports(view: IndexView) -> None:
    assert view.package_count >= MIN_PACKAGES
    assert len(view.names()) == view.package_count


def test_wrong_names_are_missing_with_the_right_suggestions(bookworm: PackageIndex) -> None:
    report = verify_template_packages(
        elxr_template("docker-ce", "kubernetes", "python"), index=bookworm
    )
    assert report.checked
    assert report.missing == ["docker-ce", "kubernetes", "python"]
    assert "docker.io" in report.suggestions["docker-ce"]
    assert "python3" in report.suggestions["python"]
    assert all(0 < len(names) <= 5 for names in report.suggestions.values())


def test_real_names_are_found(bookworm: PackageIndex) -> None:
    names = [
        "nginx-core",
        "prometheus-node-exporter",
        "cloud-init",
        "qemu-guest-agent",
        "openssh-server",
    ]
    report = verify_template_packages(elxr_template(*names), index=bookworm)
    assert report.checked and report.missing == [] and report.found == names


def test_globs_and_provides_on_real_data(view: IndexView) -> None:
    assert len(view.glob("python3-*")) > 1000
    assert "linux-image-amd64" in view.glob("linux-image-[a-z]*64")
    assert "qemu-system-x86" in view.providers("qemu-kvm")


def test_every_deb_catalog_name_exists_in_bookworm_unless_marked_unverified(
    view: IndexView,
) -> None:
    catalog = load_catalog()
    deb_targets = [
        (os_name, dist)
        for os_name, dists in OS_DISTS.items()
        for dist in dists
        if DIST_FAMILY[dist] == "deb"
    ]
    problems = []
    checked = 0
    for capability in catalog.capabilities.values():
        for os_name, dist in deb_targets:
            unverified = capability.unverified_for(os_name, dist)
            for name in capability.packages_for(os_name, dist):
                if name in unverified:
                    continue
                checked += 1
                if not view.exact(name) and not view.providers(name):
                    problems.append(f"{capability.name}: {name} ({dist})")
    assert problems == []
    assert checked > 100


def test_catalog_aliases_for_elxr12_point_at_real_packages(view: IndexView) -> None:
    catalog = load_catalog()
    unresolved = []
    for group in catalog.alias_groups:
        for name in group.names_for("wind-river-elxr", "elxr12"):
            if not view.exact(name) and not view.providers(name):
                unresolved.append(name)
    assert unresolved == []
