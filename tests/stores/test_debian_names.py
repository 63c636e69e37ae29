"""The shipped names of Debian's tools and services, and the script that writes them."""

from __future__ import annotations

import gzip
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from oic_ai.stores.debian_names import DATA, debian_names
from oic_ai.tools.planner.lexicon import is_common
from tests.tools.planner.helpers import added, plan_on

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    sys.path.insert(0, str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location(
        "build_debian_names", ROOT / "scripts" / "build_debian_names.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_list_is_sorted_names_only_and_holds_no_common_words() -> None:
    lines = gzip.decompress(DATA.read_bytes()).decode().splitlines()
    assert lines == sorted(set(lines)) and len(lines) > 15000
    assert all(" " not in n and "/" not in n and ":" not in n for n in lines)
    names = debian_names()
    assert {"memtester", "lshw", "dnsmasq", "hostapd", "nfs-common", "python3-serial"} <= names
    assert not [n for n in names if n.startswith("lib") or n.endswith(("-dev", "-doc"))]
    assert not [n for n in ("file", "time", "patch", "less", "cage") if n in names]
    assert not [n for n in names if is_common(n)]


def test_the_script_keeps_tools_and_drops_libraries_headers_and_words() -> None:
    index = "\n\n".join(
        f"Package: {name}\nVersion: 1\nSection: {section}"
        for name, section in [
            ("memtester", "admin"),
            ("libfoo1", "libs"),
            ("foo-dev", "libdevel"),
            ("python3-serial", "python"),
            ("python-old", "python"),
            ("file", "utils"),
            ("ri-li", "games"),
            ("zerofree", "contrib/admin"),
            ("ros-base", "misc"),
        ]
    )
    assert _script().names_of(index) == ["memtester", "python3-serial", "zerofree"]


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("also memtester lshw and dmidecode for the burn-in", ["memtester", "lshw", "dmidecode"]),
        ("throw in hostapd and dnsmasq", ["hostapd", "dnsmasq"]),
    ],
)
def test_debian_tools_no_template_has_are_packages_on_debian(said: str, names: list[str]) -> None:
    assert added(plan_on("debian13-x86_64-minimal-raw.yml", said)) == names


def test_the_list_speaks_for_rpm_targets_only_for_upstream_names_spelt_as_written() -> None:
    # an upstream tool's name is the same in both families ("memtester", "lshw"); a name
    # built from the words ("tpm tools") or Debian's own spelling ("nfs-common") is not
    from oic_ai.tools.planner.rules.package_known import upstream_names

    assert added(plan_on("el10-x86_64-minimal-raw.yml", "memtester lshw")) == ["memtester", "lshw"]
    assert "tpm-tools" not in added(plan_on("el10-x86_64-minimal-raw.yml", "need the tpm tools"))
    assert "nfs-common" not in upstream_names()


def test_the_list_does_not_speak_for_product_names() -> None:
    assert added(plan_on("ubuntu24-x86_64-minimal-raw.yml", "add PackageKit")) == []


@pytest.mark.parametrize(
    "said",
    [
        "nobody runs rviz on these",  # what nobody uses
        "mkosi had a separate /var partition of 2 GiB",  # the old tool, as a subject
        "with the usual kubelet prerequisites socat and conntrack",  # a description
    ],
)
def test_a_debian_name_in_another_role_is_no_package_to_add(said: str) -> None:
    names = added(plan_on("ubuntu24-x86_64-minimal-raw.yml", said))
    assert not {"rviz", "mkosi", "kubelet", "prerequisites"} & set(names)
