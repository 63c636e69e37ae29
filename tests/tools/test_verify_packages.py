"""verify_packages and suggest_packages on small fixture indexes (Debian and RPM)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from oic_ai.stores.package_formats import parse_deb_packages, parse_rpm_primary
from oic_ai.stores.package_index import PackageIndex, SourceInfo, repo_key
from oic_ai.stores.settings import Settings
from oic_ai.tools.suggest_packages import rank_alternatives, suggest_packages
from oic_ai.tools.verify_packages import (
    FOUND,
    GLOB,
    MISSING,
    PROVIDES,
    UNVERIFIED,
    check_name,
    index_for,
    template_packages,
    verify_template_packages,
)
from tests.stores.package_repos import deb_packages, rpm_primary
from tests.support.package_index import ELXR12, add_source

ELXR = {"os": "wind-river-elxr", "dist": "elxr12", "arch": "x86_64", "imageType": "raw"}
AZL = {"os": "azure-linux", "dist": "azl3", "arch": "x86_64", "imageType": "raw"}
DOCKER_REPO = "https://download.example.test/linux/debian"


def template(target: dict[str, str], *packages: str, **extra: Any) -> dict[str, Any]:
    return {
        "image": {"name": "t", "version": "1"},
        "target": dict(target),
        "systemConfig": {"name": "t", "packages": list(packages), **extra},
    }


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> PackageIndex:
    idx = PackageIndex(tmp_path_factory.mktemp("pkgdb") / "packages.sqlite")
    aria = SourceInfo("deb", "aria main", repo_key("file:aria", "aria"), "aria-main")
    add_source(idx, ELXR12, aria, parse_deb_packages(deb_packages()))
    docker = SourceInfo(
        "deb", "docker stable", repo_key(DOCKER_REPO, "bookworm"), "docker", scope="extra"
    )
    docker_packages = (
        b"Package: docker-ce\nVersion: 5:27.1.1-1\nArchitecture: amd64\n\n"
        b"Package: docker-ce-cli\nVersion: 5:27.1.1-1\nArchitecture: amd64\n\n"
        b"Package: containerd.io\nVersion: 1.7.19-1\nArchitecture: amd64\n"
    )
    add_source(idx, ELXR12, docker, parse_deb_packages(docker_packages))
    azl3 = SourceInfo("rpm", "azl3 base", repo_key("file:azl3"), "azl3-base")
    add_source(idx, ("azure-linux", "azl3", "x86_64"), azl3, parse_rpm_primary(rpm_primary()))
    yield idx
    idx.close()


def statuses(report: Any) -> dict[str, str]:
    return {check.name: check.status for check in report.checks}


def test_each_package_is_classified(index: PackageIndex) -> None:
    report = verify_template_packages(
        template(
            ELXR,
            "openssh-server",
            "qemu-kvm",
            "python3-*",
            "libva-*[0-9]",
            "docker-ce",
            "intel-dlstreamer-2025.2.0",
            "intel-dlstreamer_2025.2",
            "nginx-core-9.9",
            "zzz-*",
        ),
        index=index,
    )
    assert report.checked and report.reason is None
    assert statuses(report) == {
        "openssh-server": FOUND,
        "qemu-kvm": PROVIDES,
        "python3-*": GLOB,
        "libva-*[0-9]": GLOB,
        "docker-ce": MISSING,
        "intel-dlstreamer-2025.2.0": FOUND,
        "intel-dlstreamer_2025.2": FOUND,
        "nginx-core-9.9": MISSING,  # the index has nginx-core, but not version 9.9
        "zzz-*": MISSING,
    }
    assert report.by_provides == {"qemu-kvm": ["qemu-system-x86"]}
    assert report.globbed == {"python3-*": 2, "libva-*[0-9]": 2}
    assert report.missing == ["docker-ce", "nginx-core-9.9", "zzz-*"]
    assert report.found[:2] == ["openssh-server", "qemu-kvm"]
    versioned = next(c for c in report.checks if c.name == "intel-dlstreamer-2025.2.0")
    assert versioned.matches == ("intel-dlstreamer 2025.2.0-1",)
    assert not report.ok


def test_missing_names_get_at_most_five_ranked_suggestions(index: PackageIndex) -> None:
    report = verify_template_packages(
        template(ELXR, "docker-ce", "python", "node_exporter", "nginx-ful", "qwertyuiop"),
        index=index,
    )
    assert report.suggestions["docker-ce"][0] == "docker.io"  # catalog alias first
    assert report.suggestions["python"][0] == "python3"
    assert "python-is-python3" not in report.suggestions["python"]  # too far a spelling
    assert report.suggestions["node_exporter"][0] == "prometheus-node-exporter"
    assert report.suggestions["nginx-ful"][0] == "nginx"  # close spelling
    assert report.suggestions["qwertyuiop"] == []
    assert all(len(names) <= 5 for names in report.suggestions.values())
    reasons = {s.name: s.reason for s in report.ranked["python"]}
    assert reasons == {"python3": "alias"}
    # a virtual name is found by provides, and rank_alternatives offers its providers
    view = index.view("elxr12", "x86_64")
    ranked = rank_alternatives("httpd", os="wind-river-elxr", dist="elxr12", view=view)
    assert [(s.name, s.reason) for s in ranked[:2]] == [
        ("apache2", "alias"),
        ("nginx-core", "provides"),
    ]


def test_rpm_target_uses_rpm_names(index: PackageIndex) -> None:
    report = verify_template_packages(
        template(
            AZL, "moby-engine", "docker", "docker-ce", "sshd", "util-linux-devel-2.40.2-3.emt3"
        ),
        index=index,
    )
    assert statuses(report) == {
        "moby-engine": FOUND,
        "docker": PROVIDES,
        "docker-ce": MISSING,
        "sshd": PROVIDES,
        "util-linux-devel-2.40.2-3.emt3": FOUND,
    }
    assert report.suggestions["docker-ce"][0] == "moby-engine"


def test_json_follows_the_contract(index: PackageIndex) -> None:
    report = verify_template_packages(
        template(ELXR, "openssh-server", "docker-ce"), index=index, path="t.yml"
    )
    data = json.loads(json.dumps(report.to_json()))
    assert {"path", "checked", "found", "missing", "suggestions"} <= set(data)
    assert data["path"] == "t.yml" and data["checked"] is True
    assert data["found"] == ["openssh-server"] and data["missing"] == ["docker-ce"]
    assert data["suggestions"]["docker-ce"][0] == "docker.io"
    assert data["packages"][1] == {"name": "docker-ce", "status": "missing"}


def test_no_index_means_not_checked_with_reason_and_fix(tmp_path: Path) -> None:
    report = verify_template_packages(
        template(ELXR, "docker-ce"), Settings(data_dir=tmp_path / "empty")
    )
    assert report.checked is False
    assert report.reason == "no package index for elxr12/x86_64"
    assert report.fix and "oic-ai packages sync" in report.fix and "--dist elxr12" in report.fix
    assert report.found == [] and report.missing == [] and report.ok
    assert not (tmp_path / "empty" / "packages.sqlite").exists()  # checking creates nothing


def test_other_arch_of_an_indexed_dist_is_not_checked(index: PackageIndex) -> None:
    report = verify_template_packages(
        template({**ELXR, "arch": "aarch64"}, "openssh-server"), index=index
    )
    assert report.checked is False and "elxr12/aarch64" in (report.reason or "")


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        ({}, "no target.dist or target.arch"),
        ({"os": "plan9", "dist": "p9", "arch": "x86_64"}, "unknown target plan9/p9"),
    ],
)
def test_bad_targets_are_reported_not_raised(
    index: PackageIndex, target: dict[str, str], reason: str
) -> None:
    report = verify_template_packages(template(target, "a"), index=index)
    assert report.checked is False and reason in (report.reason or "")


def test_template_repositories_count_with_their_allow_packages(index: PackageIndex) -> None:
    repo = {"codename": "bookworm", "url": DOCKER_REPO, "pkey": "[trusted=yes]"}
    data = template(ELXR, "docker-ce", "docker-ce-cli", "containerd.io")
    assert verify_template_packages(data, index=index).missing == [
        "docker-ce",
        "docker-ce-cli",
        "containerd.io",
    ]
    data["packageRepositories"] = [repo]
    assert verify_template_packages(data, index=index).missing == []
    data["packageRepositories"] = [{**repo, "allowPackages": ["docker-ce*"]}]
    report = verify_template_packages(data, index=index)
    assert report.missing == ["containerd.io"]
    assert report.found == ["docker-ce", "docker-ce-cli"]


def test_packages_from_an_unindexed_template_repository_are_unverified(
    index: PackageIndex,
) -> None:
    data = template(ELXR, "openssh-server", "intel-npu-driver", "made-up-tool")
    data["packageRepositories"] = [
        {
            "codename": "npu",
            "url": "https://npu.example.test/apt",
            "pkey": "[trusted=yes]",
            "allowPackages": ["intel-npu-*"],
        }
    ]
    report = verify_template_packages(data, index=index)
    assert statuses(report) == {
        "openssh-server": FOUND,
        "intel-npu-driver": UNVERIFIED,
        "made-up-tool": MISSING,
    }
    assert report.unverified == ["intel-npu-driver"]
    assert report.pending_repos == ["npu"]
    note = report.checks[1].note
    assert "'npu'" in note and "no index" in note


def test_kernel_packages_are_checked_too() -> None:
    data = template(ELXR, "a", "b", "a", kernel={"version": "6.12", "packages": ["linux-rt", "b"]})
    assert template_packages(data) == ["a", "b", "linux-rt"]
    assert template_packages({"systemConfig": {"packages": "not-a-list"}}) == []
    assert template_packages({}) == []


def test_check_name_on_an_rpm_index(index: PackageIndex) -> None:
    view = index.view("azl3", "x86_64")
    assert check_name(view, "nginx-core").status == PROVIDES
    assert check_name(view, "python(abi)").status == MISSING
    assert check_name(view, "nginx-1.25").status == FOUND  # epoch 1: is ignored


def test_suggest_packages_without_an_index_offers_catalog_aliases_unverified() -> None:
    assert suggest_packages(
        ["docker-ce", "python", "nothing-like-it"], os="debian", dist="debian13"
    ) == {
        "docker-ce": ["docker.io"],
        "python": ["python3"],
        "nothing-like-it": [],
    }
    (only,) = rank_alternatives("httpd", os="ubuntu", dist="ubuntu24")
    assert (only.name, only.reason, only.verified) == ("apache2", "alias", False)


def test_alias_missing_from_the_index_falls_back_to_its_providers(index: PackageIndex) -> None:
    view = index.view("azl3", "x86_64")
    # the catalog maps apache -> httpd on rpm; this index has no httpd at all
    assert [
        s.name for s in rank_alternatives("apache2", os="azure-linux", dist="azl3", view=view)
    ] == []
    names = [
        s.name for s in rank_alternatives("nginx-full", os="azure-linux", dist="azl3", view=view)
    ]
    assert names[0] == "nginx"


def test_index_for_reuses_one_index_per_data_dir(tmp_path: Path) -> None:
    first = index_for(tmp_path)
    assert index_for(tmp_path / ".") is first
    assert index_for(tmp_path / "other") is not first
