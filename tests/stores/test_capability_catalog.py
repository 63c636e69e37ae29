"""The curated capability catalog: lookups by text, target, alias and use case."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from oic_ai.stores.capability_catalog import (
    CATALOG_PATH,
    Capability,
    CapabilityCatalog,
    load_catalog,
    package_family,
    parse_catalog,
    words,
)
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.targets import load_targets
from oic_ai.stores.vocabulary import PACKAGE_CAPABILITIES
from tests.conftest import REFERENCE_TEMPLATES

TARGETS = [(dist.os, dist.id) for dist in load_targets().dists.values()]


@pytest.fixture(scope="module")
def catalog() -> CapabilityCatalog:
    return load_catalog()


def names(found: list[Capability] | tuple[Capability, ...]) -> list[str]:
    return [capability.name for capability in found]


@pytest.mark.parametrize(
    ("os_name", "dist", "family"),
    [
        ("ubuntu", "ubuntu24", "deb"),
        ("ubuntu", "ubuntu26", "deb"),
        ("debian", "debian13", "deb"),
        ("wind-river-elxr", "elxr12", "deb"),
        ("azure-linux", "azl3", "rpm"),
        ("edge-microvisor-toolkit", "emt3", "rpm"),
        ("redhat-compatible-distro", "el10", "rpm"),
        ("ubuntu", "ubuntu28", "deb"),  # a future dist of a known os
    ],
)
def test_package_family(os_name: str, dist: str, family: str) -> None:
    assert package_family(os_name, dist) == family


def test_unknown_target_is_a_user_error_naming_the_fix() -> None:
    with pytest.raises(UserInputError, match="unknown target os/dist 'plan9'/'p9'.*ubuntu24"):
        package_family("plan9", "p9")


def test_load_is_cached_and_covers_every_capability_the_issue_lists(
    catalog: CapabilityCatalog,
) -> None:
    assert load_catalog() is catalog
    for wanted in (
        "docker podman containerd k3s node-monitoring collectd telegraf logging ssh "
        "cloud-init time-sync nginx apache fail2ban auditd mandatory-access-control "
        "watchdog netplan networkmanager systemd-networkd intel-gpu intel-npu media "
        "real-time virtualization ros2 python dev-tools tpm secure-boot ota"
    ).split():
        capability = catalog.capabilities[wanted]
        assert capability.note.endswith(".")
        assert capability.synonyms


def test_every_capability_group_is_a_vocabulary_capability_or_a_new_one(
    catalog: CapabilityCatalog,
) -> None:
    known = set(PACKAGE_CAPABILITIES) | {"development", "iot", "database", "storage"}
    assert {c.group for c in catalog.capabilities.values()} <= known


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("docker", ["docker"]),
        ("node monitoring", ["node-monitoring"]),
        ("monitoring", ["node-monitoring"]),
        ("ssh", ["ssh"]),
        ("web server", ["nginx"]),
        ("real-time", ["real-time"]),
        ("a realtime kernel", ["real-time"]),
        ("ros2", ["ros2"]),
        ("ROS 2 Jazzy", ["ros2"]),
        ("secure boot", ["secure-boot"]),
        ("Secure-Boot and TPM", ["secure-boot", "tpm"]),
        ("add Docker, then node_exporter.", ["node-monitoring", "docker"]),
        ("containers please", ["docker"]),
        ("hardening", ["fail2ban", "auditd", "mandatory-access-control"]),
        ("ssh hardening", ["fail2ban"]),
        ("dockerfile and sshfs", []),
        ("", []),
    ],
)
def test_find_matches_whole_words_most_specific_first(
    catalog: CapabilityCatalog, text: str, expected: list[str]
) -> None:
    assert names(catalog.find(text)) == expected


def test_find_never_returns_duplicates(catalog: CapabilityCatalog) -> None:
    found = names(catalog.find("docker docker moby docker-ce and docker again"))
    assert found == ["docker"]


@pytest.mark.parametrize(
    ("capability", "os_name", "dist", "arch", "expected"),
    [
        ("docker", "wind-river-elxr", "elxr12", None, ("docker.io",)),
        ("docker", "azure-linux", "azl3", None, ("moby-engine", "moby-cli")),
        ("docker", "edge-microvisor-toolkit", "emt3", None, ("moby-engine", "docker-cli")),
        ("docker", "redhat-compatible-distro", "el10", None, ("podman", "podman-docker")),
        ("node-monitoring", "ubuntu", "ubuntu24", None, ("prometheus-node-exporter",)),
        ("apache", "azure-linux", "azl3", None, ("httpd",)),
        ("apache", "debian", "debian13", None, ("apache2",)),
        ("auditd", "edge-microvisor-toolkit", "emt3", None, ("audit",)),
        ("real-time", "debian", "debian13", "aarch64", ("linux-image-rt-arm64", "rt-tests")),
        ("real-time", "debian", "debian13", "arm64", ("linux-image-rt-arm64", "rt-tests")),
        ("real-time", "debian", "debian13", "x86_64", ("linux-image-rt-amd64", "rt-tests")),
        ("real-time", "ubuntu", "ubuntu24", "aarch64", ("linux-realtime", "rt-tests")),
        ("real-time", "azure-linux", "azl3", None, ()),
        (
            "ros2",
            "ubuntu",
            "ubuntu24",
            None,
            ("ros-jazzy-ros-base",) + ("python3-colcon-common-extensions", "python3-rosdep"),
        ),
        ("ros2", "debian", "debian13", None, ()),
    ],
)
def test_packages_per_target_with_dist_and_arch_overrides(
    catalog: CapabilityCatalog,
    capability: str,
    os_name: str,
    dist: str,
    arch: str | None,
    expected: tuple[str, ...],
) -> None:
    assert catalog.packages(capability, os_name, dist, arch) == expected


def test_every_capability_resolves_for_every_target(catalog: CapabilityCatalog) -> None:
    for capability in catalog.capabilities.values():
        for os_name, dist in TARGETS:
            for arch in ("x86_64", "aarch64"):
                result = capability.packages_for(os_name, dist, arch)
                assert isinstance(result, tuple)
                assert all(isinstance(name, str) and name for name in result)


def test_packages_for_unknown_capability_raises_key_error(catalog: CapabilityCatalog) -> None:
    with pytest.raises(KeyError):
        catalog.packages("teleportation", "ubuntu", "ubuntu24")


@pytest.mark.parametrize(
    ("name", "os_name", "dist", "expected"),
    [
        ("docker-ce", "wind-river-elxr", "elxr12", ("docker.io",)),
        ("docker-ce", "azure-linux", "azl3", ("moby-engine",)),
        ("docker", "redhat-compatible-distro", "el10", ("podman-docker",)),
        ("python", "ubuntu", "ubuntu24", ("python3",)),
        ("python", "azure-linux", "azl3", ("python3",)),
        ("node_exporter", "ubuntu", "ubuntu24", ("prometheus-node-exporter",)),
        ("prometheus-node-exporter", "azure-linux", "azl3", ()),  # already the real name
        (
            "prometheus-node-exporter",
            "redhat-compatible-distro",
            "el10",
            ("golang-github-prometheus-node-exporter",),
        ),
        ("httpd", "debian", "debian13", ("apache2",)),
        ("apache2", "edge-microvisor-toolkit", "emt3", ("httpd",)),
        ("NetworkManager", "ubuntu", "ubuntu24", ("network-manager",)),
        ("docker-compose", "ubuntu", "ubuntu24", ("docker-compose-v2",)),
        ("python3", "ubuntu", "ubuntu24", ()),
        ("zzz-not-a-package", "ubuntu", "ubuntu24", ()),
    ],
)
def test_aliases_give_the_real_name_for_the_target(
    catalog: CapabilityCatalog,
    name: str,
    os_name: str,
    dist: str,
    expected: tuple[str, ...],
) -> None:
    assert catalog.aliases(name, os_name, dist) == expected


def test_aliases_for_an_unknown_target_raise_a_user_error(catalog: CapabilityCatalog) -> None:
    with pytest.raises(UserInputError):
        catalog.aliases("docker", "plan9", "p9")


@pytest.mark.parametrize("phrase", ["industrial IoT", "industrial-iot", "IIoT"])
def test_industrial_iot_suggests_watchdog_node_exporter_and_fail2ban_first(
    catalog: CapabilityCatalog, phrase: str
) -> None:
    assert names(catalog.for_use_case(phrase))[:3] == ["watchdog", "node-monitoring", "fail2ban"]


def test_use_cases_from_a_whole_request_merge_without_duplicates(
    catalog: CapabilityCatalog,
) -> None:
    merged = names(catalog.for_use_case("a minimal edge image for industrial IoT"))
    assert merged[:3] == ["watchdog", "node-monitoring", "fail2ban"]
    assert "ssh" in merged  # from "edge"
    assert len(merged) == len(set(merged))


@pytest.mark.parametrize(
    ("use_case", "must_include"),
    [
        ("edge", "watchdog"),
        ("cloud", "cloud-init"),
        ("kiosk", "kiosk"),
        ("robotics", "ros2"),
        ("web server", "nginx"),
        ("hardened", "auditd"),
    ],
)
def test_use_cases(catalog: CapabilityCatalog, use_case: str, must_include: str) -> None:
    assert must_include in names(catalog.for_use_case(use_case))


def test_unknown_use_case_suggests_nothing(catalog: CapabilityCatalog) -> None:
    assert catalog.for_use_case("underwater basket weaving") == ()


def test_words_splits_on_separators_and_keeps_dotted_names() -> None:
    assert words("Real-Time, netplan.io and node_exporter.") == (
        "real",
        "time",
        "netplan.io",
        "and",
        "node",
        "exporter",
    )


def test_unverified_names_are_names_the_catalog_uses(catalog: CapabilityCatalog) -> None:
    for capability in catalog.capabilities.values():
        for key, listed in capability.unverified.items():
            used = set(capability.package_table.get(key, ()))
            if not used:  # a family-level mark covering dist lists
                used = {n for names_ in capability.package_table.values() for n in names_}
            assert set(listed) <= used, (capability.name, key, set(listed) - used)


def test_rpm_names_are_seen_upstream_or_marked_unverified(catalog: CapabilityCatalog) -> None:
    """RPM names cannot be checked offline against an index; upstream templates are evidence."""
    if not REFERENCE_TEMPLATES.is_dir():
        pytest.skip(f"reference templates not found at {REFERENCE_TEMPLATES}")
    seen: dict[str, set[str]] = {}
    for path in REFERENCE_TEMPLATES.glob("*.yml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        dist = data.get("target", {}).get("dist")
        packages = (data.get("systemConfig") or {}).get("packages") or []
        seen.setdefault(dist, set()).update(packages)
    problems = []
    for capability in catalog.capabilities.values():
        for os_name, dist in TARGETS:
            if load_targets().family_of(dist) != "rpm":
                continue
            unverified = capability.unverified_for(os_name, dist)
            for name in capability.packages_for(os_name, dist):
                if name not in seen.get(dist, set()) and name not in unverified:
                    problems.append(f"{capability.name}: {name} on {dist}")
    assert problems == []


def test_parse_rejects_unknown_keys_and_capabilities() -> None:
    base = {"capabilities": {"x": {"note": "n.", "packages": {"solaris": ["a"]}}}}
    with pytest.raises(ValueError, match="unknown family or dist 'solaris'"):
        parse_catalog(base)
    with pytest.raises(ValueError, match="unknown capabilities"):
        parse_catalog(
            {
                "capabilities": {"x": {"note": "n.", "packages": {"deb": ["a"]}}},
                "use_cases": {"u": {"capabilities": ["y"]}},
            }
        )


def test_catalog_ships_inside_the_stores_package() -> None:
    assert CATALOG_PATH.resolve().parent.parent == Path(__file__).resolve().parents[2] / "stores"
    assert CATALOG_PATH.is_file()
