"""Re-targeting a template keeps every customisation, maps package names, lists the rest.

The templates are the bundled library's, customised with real edit plans; the composer's
own loader judges every re-targeted result.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from oic_ai.stores.capability_catalog import load_catalog
from oic_ai.stores.template_library import bundled_templates_dir
from oic_ai.tools.applier import apply_plan
from oic_ai.tools.edit_plan import (
    AddPackages,
    AddPartition,
    AddRepository,
    AddUser,
    EditPlan,
    RemovePackages,
    ResizePartition,
    SetDiskSize,
    SetHostname,
    SetKernel,
)
from oic_ai.tools.retarget import map_package, platform_template, retarget_template
from tests.support.upval import judge, require_upval

LIBRARY = bundled_templates_dir()


@pytest.fixture(scope="module")
def library() -> Path:
    return LIBRARY


def _target(os_name: str, dist: str, arch: str = "x86_64", kind: str = "raw") -> dict[str, str]:
    return {"os": os_name, "dist": dist, "arch": arch, "imageType": kind}


def _customised(name: str, *operations: Any) -> str:
    text = (LIBRARY / name).read_text(encoding="utf-8")
    applied = apply_plan(text, EditPlan(summary="test", operations=list(operations)))
    assert not applied.not_applied, applied.not_applied
    return applied.text


def _doc(text: str) -> dict[str, Any]:
    data = yaml.safe_load(text)
    assert isinstance(data, dict)
    return data


def _system(text: str) -> dict[str, Any]:
    return dict(_doc(text)["systemConfig"])


def test_the_platform_of_a_target_is_its_most_basic_template(library: Path) -> None:
    platform = platform_template(library, _target("debian", "debian13", "aarch64"))
    assert platform is not None
    # the plain x86_64 base set to aarch64 beats the busy aarch64 IoT template
    assert platform.name == "debian13-x86_64-minimal-raw.yml"
    doc = _doc(platform.text)
    assert doc["target"]["arch"] == "aarch64"
    assert "linux-image-arm64" in doc["systemConfig"]["kernel"]["packages"]
    assert "mosquitto" not in doc["systemConfig"]["packages"]
    netboot = platform_template(library, _target("azure-linux", "azl3", kind="img"))
    assert netboot is not None and netboot.name == "azl3-x86_64-netboot-initrd.yml"


def test_a_platform_set_to_another_arch_does_not_keep_its_arch_in_the_hostname(
    library: Path,
) -> None:
    # the fewest-packages Ubuntu 24.04 raw template is the arm64 one, named for it
    platform = platform_template(library, _target("ubuntu", "ubuntu24", "x86_64"))
    assert platform is not None
    doc = _doc(platform.text)
    assert doc["target"]["arch"] == "x86_64"
    assert "arm64" not in doc["systemConfig"]["hostname"], doc["systemConfig"]["hostname"]
    # a user's own hostname is carried over as given, arch word and all
    text = _customised("debian13-x86_64-minimal-raw.yml", SetHostname(hostname="cam-arm64-1"))
    moved = retarget_template(text, _target("ubuntu", "ubuntu24", "x86_64"), library)
    assert _system(moved.text)["hostname"] == "cam-arm64-1"


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        ("docker.io", ("ubuntu", "ubuntu24"), ("azure-linux", "azl3"), ("moby-engine",)),
        ("moby-cli", ("azure-linux", "azl3"), ("ubuntu", "ubuntu24"), ("docker.io",)),
        ("docker-compose-v2", ("ubuntu", "ubuntu24"), ("debian", "debian13"), ("docker-compose",)),
        ("htop", ("ubuntu", "ubuntu24"), ("debian", "debian13"), ("htop",)),
        ("acme-agent", ("debian", "debian13"), ("azure-linux", "azl3"), None),
    ],
)
def test_package_names_follow_the_family(
    name: str, old: tuple[str, str], new: tuple[str, str], expected: tuple[str, ...] | None
) -> None:
    mapped = map_package(load_catalog(), name, _target(*old), _target(*new))
    assert mapped == expected


def test_another_arch_of_the_same_dist_is_changed_in_place(library: Path) -> None:
    text = _customised(
        "ubuntu24-x86_64-minimal-raw.yml",
        SetHostname(hostname="bench-01"),
        SetKernel(append_cmdline=["console=ttyS1,57600", "quiet"]),
        AddPackages(packages=["htop"]),
    )
    result = retarget_template(text, _target("ubuntu", "ubuntu24", "aarch64"), library)
    assert result.base_template is None and result.not_carried == []
    system = _system(result.text)
    assert _doc(result.text)["target"]["arch"] == "aarch64"
    assert system["hostname"] == "bench-01" and "htop" in system["packages"]
    assert "grub-efi-arm64" in system["packages"] and "grub-efi-amd64" not in system["packages"]
    cmdline = system["kernel"]["cmdline"].split()
    # the default serial console follows the arch; the user's own UART stays as chosen
    assert "console=ttyAMA0,115200" in cmdline and "console=ttyS1,57600" in cmdline
    assert "quiet" in cmdline


def test_a_console_the_new_arch_lacks_is_not_carried_and_says_so(
    library: Path,
) -> None:
    text = _customised(
        "ubuntu24-aarch64-minimal-raw.yml", SetKernel(append_cmdline=["console=ttyAMA1,9600"])
    )
    result = retarget_template(text, _target("ubuntu", "ubuntu24"), library)
    cmdline = _system(result.text)["kernel"]["cmdline"]
    assert "ttyAMA" not in cmdline and "console=ttyS0,115200" in cmdline
    assert any("console=ttyAMA1,9600" in line for line in result.not_carried)


ELXR_BASE = "elxr12-x86_64-minimal-raw.yml"


def _elxr_session() -> tuple[str, str]:
    """A customised elxr12 session's template, and the library template it started from."""
    return _elxr_customised(), (LIBRARY / ELXR_BASE).read_text(encoding="utf-8")


def _elxr_customised() -> str:
    return _customised(
        ELXR_BASE,
        AddPackages(packages=["docker.io", "chrony", "acme-agent"]),
        RemovePackages(packages=["less"]),
        SetHostname(hostname="line-pc-1"),
        SetDiskSize(size="6GiB"),
        AddPartition(id="data", mount_point="/data", size="1GiB", fs_type="xfs"),
        AddUser(name="ops", groups=["sudo", "docker"], sudo=True, shell="/bin/bash"),
        AddRepository(
            url="https://apt.example.com/acme",
            codename="bookworm",
            component="main",
            pkey="https://apt.example.com/acme.asc",
        ),
        SetKernel(append_cmdline=["quiet"]),
    )


def test_another_family_gets_every_customisation_with_mapped_names(
    library: Path,
) -> None:
    text, base = _elxr_session()
    result = retarget_template(text, _target("azure-linux", "azl3"), library, session_base=base)
    assert result.base_template == "azl3-x86_64-minimal-raw.yml"
    doc = _doc(result.text)
    system = doc["systemConfig"]
    assert doc["target"] == _target("azure-linux", "azl3")
    assert "moby-engine" in system["packages"] and "docker.io" not in system["packages"]
    assert "chrony" in system["packages"] and "less" not in system["packages"]
    assert system["kernel"]["packages"] == ["kernel"]  # azl3's own kernel
    assert "quiet" in system["kernel"]["cmdline"].split()
    assert system["hostname"] == "line-pc-1"
    assert doc["disk"]["size"] == "6GiB"
    data = next(p for p in doc["disk"]["partitions"] if p.get("mountPoint") == "/data")
    assert data["fsType"] == "xfs"
    (ops,) = [u for u in system["users"] if u["name"] == "ops"]
    assert ops["sudo"] is True and ops["groups"] == ["wheel", "docker"]  # sudo is wheel here
    assert "packageRepositories" not in doc
    assert result.not_carried == [
        "repository https://apt.example.com/acme: it serves deb packages, azl3 uses rpm"
    ]
    # a name nothing maps is the user's: kept, and said to be unchecked there
    assert "acme-agent" in system["packages"]
    assert any("acme-agent" in w and "azl3" in w for w in result.warnings)


def test_a_family_sibling_keeps_the_repository_and_the_unknown_package(
    library: Path,
) -> None:
    text, base = _elxr_session()
    result = retarget_template(text, _target("debian", "debian13"), library, session_base=base)
    doc = _doc(result.text)
    assert "acme-agent" in doc["systemConfig"]["packages"]
    (repo,) = doc["packageRepositories"]
    assert repo["codename"] == "bookworm" and repo["pkey"] == "https://apt.example.com/acme.asc"
    assert result.not_carried == []


def test_every_retargeted_template_is_one_the_composer_builds(
    library: Path, tmp_path: Path
) -> None:
    upval = require_upval()
    text, base = _elxr_session()
    files = []
    from oic_ai.stores.targets import load_targets

    targets = load_targets()
    for os_name, dist, arch, kind in targets.combinations():
        if not targets.buildable(dist, arch, kind):
            continue
        result = retarget_template(
            text, _target(os_name, dist, arch, kind), library, session_base=base
        )
        path = tmp_path / f"{dist}-{arch}-{kind}.yml"
        path.write_text(result.text, encoding="utf-8")
        files.append(path)
    verdicts = judge(upval, files)
    refused = {Path(v.file).name: v.error for v in verdicts.values() if not v.buildable}
    assert refused == {}
    assert len(files) == 4 * len(targets.dists) - 1


def test_a_hostname_the_agent_named_after_the_image_follows_the_image(library: Path) -> None:
    from oic_ai.tools.composer_fit import hostname_for

    name = "ubuntu24-x86_64-minimal-raw.yml"
    start = (LIBRARY / name).read_text(encoding="utf-8")
    agents = hostname_for(_doc(start))
    assert agents is not None
    text = _customised(name, SetHostname(hostname=agents))
    result = retarget_template(text, _target("ubuntu", "ubuntu26"), library, session_base=start)
    # the old image's name is not the user's: it is not carried to the 26.04 template
    assert _system(result.text).get("hostname") != agents
    mine = _customised(name, SetHostname(hostname="cam-07"))
    result = retarget_template(mine, _target("ubuntu", "ubuntu26"), library, session_base=start)
    assert _system(result.text)["hostname"] == "cam-07"


def test_what_the_user_asked_is_carried_even_when_the_old_base_had_it(library: Path) -> None:
    # the netboot base already boots with ip=dhcp and ships ethtool; the user asked for
    # both anyway, so they are the user's and follow the image to the new dist
    text = _customised(
        "ubuntu24-x86_64-netboot-initrd.yml",
        SetKernel(append_cmdline=["ip=dhcp", "rd.neednet=1"]),
    )
    new = _target("debian", "debian13", kind="img")
    asked = ["boot it with ip=dhcp and rd.neednet=1, and I need ethtool in there"]
    kept = retarget_template(text, new, library, asked=asked)
    system = _system(kept.text)
    assert {"ip=dhcp", "rd.neednet=1"} <= set(system["kernel"]["cmdline"].split())
    assert "ethtool" in system["packages"]
    # what nobody asked for stays the old base's own
    plain = _system(retarget_template(text, new, library).text)
    assert "ip=dhcp" not in plain["kernel"]["cmdline"].split()
    assert "ethtool" not in plain["packages"] and "nvme-cli" not in system["packages"]


def test_an_output_format_the_user_asked_for_follows_the_image(library: Path) -> None:
    text = (library / "ubuntu24-x86_64-cloud-vm-qcow2.yml").read_text(encoding="utf-8")
    base = text
    new = _target("ubuntu", "ubuntu26")
    asked = ["a VM image for our cloud, I want qcow2 files out of it"]
    kept = retarget_template(text, new, library, session_base=base, asked=asked)
    assert [a["type"] for a in _doc(kept.text)["disk"]["artifacts"]] == ["qcow2"]
    plain = retarget_template(text, new, library, session_base=base)
    assert "qcow2" not in [a["type"] for a in _doc(plain.text)["disk"]["artifacts"]]


def test_a_root_given_a_size_keeps_it_on_another_dist(library: Path) -> None:
    from oic_ai.tools.planner import plan_request

    start = (LIBRARY / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    said = "48GiB disk, / 12 GiB, /srv/db with the rest, xfs"
    text = apply_plan(start, plan_request(said, start, mode="refine")).text
    result = retarget_template(text, _target("debian", "debian13"), library, session_base=start)
    parts = {p["mountPoint"]: p for p in _doc(result.text)["disk"]["partitions"]}
    root = parts["/"]
    assert root["end"] != "0"
    assert (
        int(str(root["end"]).removesuffix("MiB")) - int(str(root["start"]).removesuffix("MiB"))
        == 12 * 1024
    )
    assert parts["/srv/db"]["end"] == "0" and parts["/srv/db"]["fsType"] == "xfs"


def test_a_partition_taking_the_rest_of_a_decimal_disk_does_not_grow_it(library: Path) -> None:
    # 40GB is no whole number of MiB: carving "the rest" as a size rounded it up past the end
    # of the disk, and the applier grew the disk to 41GB to make it fit
    start = (LIBRARY / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    text = _customised(
        "ubuntu24-x86_64-minimal-raw.yml",
        SetDiskSize(size="40GB"),
        ResizePartition(partition="/", size="12GiB"),
        AddPartition(id="srv", mount_point="/srv", size=None, fs_type="xfs"),
    )
    assert _doc(text)["disk"]["size"] == "40GB"
    result = retarget_template(text, _target("debian", "debian13"), library, session_base=start)
    disk = _doc(result.text)["disk"]
    assert disk["size"] == "40GB"
    srv = next(p for p in disk["partitions"] if p["mountPoint"] == "/srv")
    assert str(srv["end"]) == "0" and srv["fsType"] == "xfs"
    assert not any("grows" in w for w in result.warnings)
