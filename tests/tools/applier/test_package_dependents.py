"""Removing a package removes what needs it: left behind, it would pull it back in."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
import yaml

from oic_ai.stores.package_formats import parse_deb_packages
from oic_ai.stores.package_index import PackageIndex, SourceInfo, repo_key
from oic_ai.tools import edit_plan as ep
from oic_ai.tools.applier import apply_plan
from oic_ai.tools.package_dependencies import PackageNeeds
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.support.package_index import UBUNTU24, add_source

WEB = OUR_TEMPLATES / "ubuntu24-x86_64-web-server-raw.yml"

# a slice of Ubuntu's archive as it really relates these packages
PACKAGES = """\
Package: apache2
Version: 2.4.58-1ubuntu8
Architecture: amd64
Pre-Depends: init-system-helpers (>= 1.54~)
Depends: apache2-bin (= 2.4.58-1ubuntu8), apache2-data (= 2.4.58-1ubuntu8), perl:any

Package: apache2-bin
Version: 2.4.58-1ubuntu8
Architecture: amd64
Provides: apache2-api-20120211, apache2-api-20120211-openssl3, httpd-cgi
Depends: libapr1t64 (>= 1.7.0), libc6 (>= 2.38)

Package: apache2-data
Version: 2.4.58-1ubuntu8
Architecture: all

Package: libapache2-mod-php
Version: 2:8.3+93ubuntu2
Architecture: all
Depends: libapache2-mod-php8.3

Package: libapache2-mod-php8.3
Version: 8.3.6-0ubuntu0.24.04.1
Architecture: amd64
Depends: apache2-api-20120211, apache2-api-20120211-openssl3, php8.3-common, libc6 (>= 2.38)

Package: libapache2-mod-security2
Version: 2.9.7-1build3
Architecture: amd64
Depends: libc6 (>= 2.38), libxml2 | libxml2-dev

Package: php8.3-common
Version: 8.3.6-0ubuntu0.24.04.1
Architecture: amd64
Depends: libc6 (>= 2.38)

Package: git
Version: 1:2.43.0-1ubuntu7
Architecture: amd64
Depends: perl, libc6 (>= 2.38)

Package: perl
Version: 5.38.2-3.2build2
Architecture: amd64

Package: libc6
Version: 2.39-0ubuntu8
Architecture: amd64

Package: libapr1t64
Version: 1.7.2-3.1build2
Architecture: amd64

Package: libxml2
Version: 2.9.14
Architecture: amd64

Package: init-system-helpers
Version: 1.66ubuntu1
Architecture: all
"""


def _apache_template(*extra: str) -> str:
    """The web server template serving with Apache and mod_php instead of nginx."""
    text = WEB.read_text(encoding="utf-8")
    lines = "".join(f"    - {name}\n" for name in ("libapache2-mod-php", *extra))
    head, packages = text.split("  packages:\n", 1)
    return head + "  packages:\n" + packages.replace("    - nginx\n", "    - apache2\n" + lines, 1)


def _packages(text: str) -> list[str]:
    return list(yaml.safe_load(text)["systemConfig"]["packages"])


def test_removing_apache2_by_request_removes_mod_php_and_says_so() -> None:
    text = _apache_template()
    applied = apply_plan(text, plan_request("remove apache2", text, mode="refine"))
    packages = _packages(applied.text)
    assert "apache2" not in packages and "libapache2-mod-php" not in packages
    assert "openssh-server" in packages and "certbot" in packages
    assert "also removed libapache2-mod-php, which needs apache2" in applied.applied


def test_without_an_index_only_true_dependents_go() -> None:
    head, packages = WEB.read_text(encoding="utf-8").split("  packages:\n", 1)
    text = (
        head
        + "  packages:\n"
        + packages.replace(
            "    - nginx\n",
            "    - python3\n    - python3-pip\n    - git\n    - build-essential\n",
            1,
        )
    )
    plan = ep.EditPlan(summary="x", operations=[ep.RemovePackages(packages=["python3"])])
    packages = _packages(apply_plan(text, plan).text)
    assert "python3" not in packages and "python3-pip" not in packages
    assert {"git", "build-essential"} <= set(packages)


def test_removing_something_nothing_needs_changes_only_that_line() -> None:
    text = WEB.read_text(encoding="utf-8")
    plan = ep.EditPlan(summary="x", operations=[ep.RemovePackages(packages=["ufw"])])
    applied = apply_plan(text, plan)
    assert applied.applied == ["removed packages ufw"]
    assert [line for line in applied.diff.splitlines() if line.startswith(("-  ", "+  "))] == [
        "-    - ufw"
    ]


def _ubuntu_index(path: Path) -> PackageIndex:
    """An index at ``path`` holding ``PACKAGES`` as ubuntu24/x86_64's noble main."""
    idx = PackageIndex(path)
    noble = SourceInfo(kind="deb", repo="noble main", repo_key=repo_key("x"), location="x")
    add_source(idx, UBUNTU24, noble, parse_deb_packages(PACKAGES.encode()))
    return idx


@pytest.fixture
def index(tmp_path: Path) -> PackageIndex:
    idx = _ubuntu_index(tmp_path / "packages.sqlite")
    yield idx
    idx.close()


def _with_index(index: PackageIndex) -> PackageNeeds:
    return PackageNeeds(lambda dist, arch: index.view(dist, arch))


def test_the_index_dependencies_decide_when_there_is_one(index: PackageIndex) -> None:
    # mod_php needs apache2-api-20120211, which apache2's own part apache2-bin provides;
    # git needs perl, which apache2 also needs: perl is not apache2's, so git stays;
    # mod-security2 matches the curated glob, but the index says it does not need apache2
    text = _apache_template("php8.3-common", "git", "libapache2-mod-security2")
    plan = ep.EditPlan(summary="x", operations=[ep.RemovePackages(packages=["apache2"])])
    applied = apply_plan(text, plan, needs=_with_index(index))
    packages = _packages(applied.text)
    assert "libapache2-mod-php" not in packages
    assert {"php8.3-common", "git", "libapache2-mod-security2"} <= set(packages)
    assert "also removed libapache2-mod-php, which needs apache2" in applied.applied


def test_a_package_satisfied_by_another_remaining_one_stays(index: PackageIndex) -> None:
    # with apache2-bin itself still listed, the module's dependency is still met
    text = _apache_template("apache2-bin")
    plan = ep.EditPlan(summary="x", operations=[ep.RemovePackages(packages=["apache2"])])
    packages = _packages(apply_plan(text, plan, needs=_with_index(index)).text)
    assert "libapache2-mod-php" in packages and "apache2-bin" in packages


def test_an_index_from_before_dependency_data_is_read_and_falls_back(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    _ubuntu_index(path).close()
    with sqlite3.connect(path) as db:  # what an index written by the previous release holds
        db.execute("DROP TABLE depends")
    reopened = PackageIndex(path)
    try:
        view = reopened.view("ubuntu24", "x86_64")
        assert view.has_index and [hit.name for hit in view.exact("apache2")] == ["apache2"]
        assert not view.has_dependencies and view.depends("apache2") == []
        text = _apache_template()
        plan = ep.EditPlan(summary="x", operations=[ep.RemovePackages(packages=["apache2"])])
        settings_like = PackageNeeds(
            lambda dist, arch: v if (v := reopened.view(dist, arch)).has_dependencies else None
        )
        packages = _packages(apply_plan(text, plan, needs=settings_like).text)
        assert "libapache2-mod-php" not in packages  # the curated table answered
    finally:
        reopened.close()
