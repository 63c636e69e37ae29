"""The builtin planner: request words to exact edit-plan operations, and back to words."""

from __future__ import annotations

import importlib.util
import json
import string
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from langchain_core.tools import BaseTool

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.explain_template import describe_template, explain_template
from oic_ai.tools.planner import plan_request
from oic_ai.tools.validate_template import validate_text
from tests.conftest import OUR_TEMPLATES
from tests.support.cli import modules_after, top_level
from tests.tools.planner.helpers import template_text

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # grub, raw+zstd, boot + rootfs (rest of disk)
UBUNTU_EDGE = "ubuntu24-aarch64-edge-container-raw.yml"  # systemd-boot, /var/log, docker, user
UBUNTU_ISO = "ubuntu24-x86_64-installer-iso.yml"
KIOSK = "ubuntu24-x86_64-desktop-kiosk-raw.yml"
WEB = "ubuntu24-x86_64-web-server-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"  # grub, raw+xz
DEBIAN_IOT = "debian13-aarch64-edge-iot-raw.yml"  # /data partition
ELXR = "elxr12-x86_64-minimal-raw.yml"
ELXR_CLOUD = "elxr12-x86_64-cloud-vm-qcow2.yml"
EL10 = "el10-x86_64-minimal-raw.yml"  # vim-minimal
AZL = "azl3-x86_64-minimal-raw.yml"
EMT_SECURE = "emt3-x86_64-immutable-secureboot-raw.yml"


def ops_of(plan: EditPlan) -> list[dict[str, Any]]:
    """Operations as plain dicts without their default values, keeping the op name."""
    return [{"op": op.op, **op.model_dump(exclude_defaults=True)} for op in plan.operations]


def plan(request: str, template: str = UBUNTU, mode: str = "refine") -> EditPlan:
    return plan_request(request, template_text(template), mode=mode)  # type: ignore[arg-type]


def add(*names: str) -> dict[str, Any]:
    return {"op": "add_packages", "packages": list(names)}


def remove(*names: str) -> dict[str, Any]:
    return {"op": "remove_packages", "packages": list(names)}


def target(**fields: str) -> dict[str, Any]:
    return {"op": "set_target", **fields}


# --- the ADR's example requests -------------------------------------------------------------

ADR_REFINE = [
    ("add monitoring packages", UBUNTU, [add("prometheus-node-exporter")]),
    ("change disk size to 8GiB", UBUNTU, [{"op": "set_disk_size", "size": "8GiB"}]),
    ("Add docker and monitoring packages", UBUNTU, [add("docker.io", "prometheus-node-exporter")]),
    (
        "Change the disk size to 8GiB and add a separate /data partition",
        UBUNTU,
        [
            {"op": "set_disk_size", "size": "8GiB"},
            {"op": "add_partition", "id": "data", "mount_point": "/data", "size": "2GiB"},
        ],
    ),
    ("Add nginx package", UBUNTU, [add("nginx")]),
]


@pytest.mark.parametrize(("request_text", "template", "expected"), ADR_REFINE)
def test_adr_refinements(request_text: str, template: str, expected: list[dict[str, Any]]) -> None:
    result = plan(request_text, template)
    assert ops_of(result) == expected
    assert result.not_applied == []


def test_adr_package_explicit_create_maps_docker_ce_and_warns() -> None:
    result = plan("image with nginx and docker-ce", UBUNTU, mode="create")
    assert ops_of(result)[-1] == add("nginx", "docker.io")
    assert any("docker-ce" in w and "docker.io" in w for w in result.warnings)
    assert result.not_applied == []


@pytest.mark.parametrize(
    ("request_text", "template"),
    [
        ("cloud elxr raw image", ELXR_CLOUD),
        ("edge IoT minimal raw", DEBIAN_IOT),
        ("minimal without docker", UBUNTU),
        ("create a minimal edge image for elxr", ELXR),
    ],
)
def test_adr_retrieval_words_only_name_and_describe_in_create_mode(
    request_text: str, template: str
) -> None:
    result = plan(request_text, template, mode="create")
    assert [op["op"] for op in ops_of(result)] == ["set_image", "set_metadata"]
    assert result.not_applied == []


def test_adr_initial_generation_example() -> None:
    result = plan("a minimal Ubuntu edge image for arm64 with docker", UBUNTU, mode="create")
    assert ops_of(result) == [
        target(arch="aarch64"),
        {"op": "set_image", "name": "ubuntu24-aarch64-minimal-edge-docker"},
        {
            "op": "set_metadata",
            "description": "Ubuntu 24.04 aarch64 raw disk image (minimal, edge) with docker.",
        },
        add("docker.io"),
    ]
    assert result.not_applied == []
    assert "not added" in result.summary  # proactive suggestions for the edge use case


# --- one or more per kind of request ----------------------------------------------------------

CASES = [
    # target: distribution and version
    ("ubuntu 24.04", DEBIAN, [target(os="ubuntu", dist="ubuntu24")]),
    ("noble", DEBIAN, [target(os="ubuntu", dist="ubuntu24")]),
    ("ubuntu 26.04", UBUNTU, [target(os="ubuntu", dist="ubuntu26")]),
    ("trixie", ELXR, [target(os="debian", dist="debian13")]),
    ("debian 13", ELXR, [target(os="debian", dist="debian13")]),
    ("elxr", DEBIAN, [target(os="wind-river-elxr", dist="elxr12")]),
    ("switch to emt", AZL, [target(os="edge-microvisor-toolkit", dist="emt3")]),
    (
        "azure linux 3",
        EL10,
        [target(os="azure-linux", dist="azl3"), remove("vim-minimal"), add("vim")],
    ),
    ("rhel 10", AZL, [target(os="redhat-compatible-distro", dist="el10")]),
    ("el10", AZL, [target(os="redhat-compatible-distro", dist="el10")]),
    # target: architecture
    ("for arm64", UBUNTU, [target(arch="aarch64")]),
    ("aarch64", UBUNTU, [target(arch="aarch64")]),
    ("amd64", UBUNTU_EDGE, [target(arch="x86_64")]),
    ("build it for x86_64", UBUNTU_EDGE, [target(arch="x86_64")]),
    ("x86-64 please", UBUNTU_EDGE, [target(arch="x86_64")]),
    # target: image type
    ("make it an installer", UBUNTU, [target(image_type="iso")]),
    ("as an iso", UBUNTU, [target(image_type="iso")]),
    ("pxe", UBUNTU, [target(image_type="img")]),
    ("for network boot", UBUNTU, [target(image_type="img")]),
    ("netboot", UBUNTU, [target(image_type="img")]),
    ("a raw disk image", UBUNTU_ISO, [target(image_type="raw")]),
    # packages and capabilities
    ("add docker and monitoring", UBUNTU, [add("docker.io", "prometheus-node-exporter")]),
    ("with docker and node monitoring", UBUNTU, [add("docker.io", "prometheus-node-exporter")]),
    (
        "add docker and monitoring",
        AZL,
        [add("moby-engine", "moby-cli", "prometheus-node-exporter")],
    ),
    ("add htop and tmux", UBUNTU, [add("htop", "tmux")]),
    ("install nginx", UBUNTU, [add("nginx")]),
    ("add a web server", EL10, [add("nginx")]),
    ("add python", DEBIAN, [add("python3", "python3-pip", "python3-venv")]),
    ("add docker-ce", ELXR, [add("docker.io")]),
    ("without vim", EL10, [remove("vim-minimal")]),
    # a variant written exactly is kept where its family has it, mapped where it has not
    ("install vim-enhanced and strace", EL10, [add("vim-enhanced", "strace")]),
    ("install vim-enhanced", DEBIAN, [add("vim")]),
    ("install vim-tiny", DEBIAN, [add("vim-tiny")]),
    ("remove the GUI", KIOSK, [remove("cage")]),
    ("drop fail2ban", WEB, [remove("fail2ban")]),
    ("remove docker and add podman", UBUNTU_EDGE, [remove("docker.io"), add("podman")]),
    ("get rid of the watchdog", UBUNTU_EDGE, [remove("watchdog")]),
    ("do not add docker", UBUNTU_EDGE, [remove("docker.io")]),
    ("don't install vim, add htop", UBUNTU, [add("htop")]),
    ("add nginx but not apache", UBUNTU, [add("nginx")]),
    ("install PackageKit", AZL, [add("PackageKit")]),  # an RPM name may have inner capitals
    ("add PackageKit", UBUNTU, []),  # issue 21: a Debian package name is lower case
    ("add WALinuxAgent", AZL, [add("WALinuxAgent")]),
    # disk size
    ("make the disk 8GiB", UBUNTU, [{"op": "set_disk_size", "size": "8GiB"}]),
    ("change disk size to 8GiB", UBUNTU, [{"op": "set_disk_size", "size": "8GiB"}]),
    ("grow the disk by 4GiB", UBUNTU_EDGE, [{"op": "set_disk_size", "size": "20GiB"}]),
    ("make it 6.5GiB", UBUNTU, [{"op": "set_disk_size", "size": "6656MiB"}]),
    # partitions
    (
        "a separate /data partition of 2GiB, ext4",
        UBUNTU,
        [{"op": "add_partition", "id": "data", "mount_point": "/data", "size": "2GiB"}],
    ),
    (
        "add a 1GiB xfs partition for /var/lib/app",
        UBUNTU,
        [
            {
                "op": "add_partition",
                "id": "var-lib-app",
                "mount_point": "/var/lib/app",
                "size": "1GiB",
                "fs_type": "xfs",
            }
        ],
    ),
    (
        # issue 21: an everyday form the clause reader takes (it was reported before)
        "add /srv as a partition",
        UBUNTU,
        [{"op": "add_partition", "id": "srv", "mount_point": "/srv", "size": "2GiB"}],
    ),
    (
        "grow /var/log to 2GiB",
        UBUNTU_EDGE,
        [{"op": "resize_partition", "partition": "varlog", "size": "2GiB"}],
    ),
    (
        "make the root partition 8GiB",
        UBUNTU_EDGE,
        [{"op": "resize_partition", "partition": "rootfs", "size": "8GiB"}],
    ),
    (
        "remove the /data partition",
        DEBIAN_IOT,
        [{"op": "remove_partition", "partition": "data"}],
    ),
    (
        "drop the docker partition",
        UBUNTU_EDGE,
        [{"op": "remove_partition", "partition": "docker"}],
    ),
    # artifacts and compression
    ("qcow2", UBUNTU, [{"op": "set_artifacts", "artifacts": [{"type": "qcow2"}]}]),
    ("vhdx", UBUNTU, [{"op": "set_artifacts", "artifacts": [{"type": "vhdx"}]}]),
    (
        "zstd",
        DEBIAN,
        [{"op": "set_artifacts", "artifacts": [{"type": "raw", "compression": "zstd"}]}],
    ),
    (
        "as a compressed raw and a qcow2",
        UBUNTU,
        [
            {
                "op": "set_artifacts",
                "artifacts": [{"type": "raw", "compression": "zstd"}, {"type": "qcow2"}],
            }
        ],
    ),
    (
        "also a vmdk",
        UBUNTU,
        [
            {
                "op": "set_artifacts",
                "artifacts": [{"type": "raw", "compression": "zstd"}, {"type": "vmdk"}],
            }
        ],
    ),
    # hostname
    ("hostname edge-01", UBUNTU, [{"op": "set_hostname", "hostname": "edge-01"}]),
    ("call the host gw1", UBUNTU, [{"op": "set_hostname", "hostname": "gw1"}]),
    # the hostname as the user wrote it: the composer takes upper case, and a fleet named
    # "HMI-LINEA3" on its labels should not come back as "hmi-linea3"
    ("set the hostname to Edge-01", UBUNTU, [{"op": "set_hostname", "hostname": "Edge-01"}]),
    # kernel
    ("kernel 6.12", UBUNTU, [{"op": "set_kernel", "version": "6.12"}]),
    ("use the 6.8 kernel", UBUNTU, [{"op": "set_kernel", "version": "6.8"}]),
    (
        "add isolcpus=2-3 to the kernel cmdline",
        UBUNTU,
        [{"op": "set_kernel", "append_cmdline": ["isolcpus=2-3"]}],
    ),
    (
        "add nohz_full=2-3 and rcu_nocbs=2-3 to the kernel command line",
        UBUNTU,
        [{"op": "set_kernel", "append_cmdline": ["nohz_full=2-3", "rcu_nocbs=2-3"]}],
    ),
    ("quiet boot", UBUNTU, [{"op": "set_kernel", "append_cmdline": ["quiet"]}]),
    (
        "remove loglevel from the kernel cmdline",
        UBUNTU,
        [{"op": "set_kernel", "cmdline": "console=tty0 console=ttyS0,115200"}],
    ),
    # bootloader
    ("use grub", UBUNTU_EDGE, [{"op": "set_bootloader", "provider": "grub"}]),
    ("systemd-boot", UBUNTU, [{"op": "set_bootloader", "provider": "systemd-boot"}]),
    ("legacy bios", UBUNTU, [{"op": "set_bootloader", "boot_type": "legacy"}]),
    (
        "switch from grub to systemd-boot",
        UBUNTU,
        [{"op": "set_bootloader", "provider": "systemd-boot"}],
    ),
    # immutability and secure boot
    ("make it immutable", UBUNTU, [{"op": "set_immutability", "enabled": True}]),
    ("read-only root", UBUNTU, [{"op": "set_immutability", "enabled": True}]),
    (
        "with secure boot",
        UBUNTU,
        [{"op": "set_immutability", "enabled": True, "secure_boot": True}],
    ),
    ("make it mutable", EMT_SECURE, [{"op": "set_immutability", "enabled": False}]),
    (
        "without secure boot",
        EMT_SECURE,
        [{"op": "set_immutability", "enabled": True, "secure_boot": False}],
    ),
    # users
    (
        "add a user ops with sudo in the docker group",
        UBUNTU,
        [{"op": "add_user", "name": "ops", "groups": ["docker"], "sudo": True}],
    ),
    (
        "create an admin user called deploy, groups video and render, shell zsh",
        UBUNTU,
        [
            {
                "op": "add_user",
                "name": "deploy",
                "groups": ["video", "render"],
                "sudo": True,
                "shell": "/bin/zsh",
            },
            # the login shell's package, which Debian's list of tools knows
            {"op": "add_packages", "packages": ["zsh"]},
        ],
    ),
    (
        "add user edgeadmin to the video group",
        UBUNTU_EDGE,
        [
            {
                "op": "set",
                "path": "systemConfig.users[name=edgeadmin].groups",
                "value": ["sudo", "docker", "video"],
            }
        ],
    ),
    # image name and version
    ("call the image factory-gw", UBUNTU, [{"op": "set_image", "name": "factory-gw"}]),
    ("version 1.2.0", UBUNTU, [{"op": "set_image", "version": "1.2.0"}]),
    (
        "rename it to gw-01 and set version 2.0",
        UBUNTU,
        [{"op": "set_image", "name": "gw-01", "version": "2.0"}],
    ),
    # repositories
    (
        "add repository https://repo.example.com/apt codename noble component main",
        UBUNTU,
        [
            {
                "op": "add_repository",
                "url": "https://repo.example.com/apt",
                "codename": "noble",
                "component": "main",
            }
        ],
    ),
]


@pytest.mark.parametrize(("request_text", "template", "expected"), CASES)
def test_request_becomes_exact_operations(
    request_text: str, template: str, expected: list[dict[str, Any]]
) -> None:
    assert ops_of(plan(request_text, template)) == expected


@pytest.mark.parametrize(
    ("request_text", "template", "warning"),
    [
        ("add docker-ce", ELXR, "'docker-ce' is packaged as docker.io on elxr12"),
        ("with secure boot", UBUNTU, "turned immutability on"),
        ("legacy bios", UBUNTU_EDGE, "systemd-boot only boots UEFI"),
        ("rhel 10", UBUNTU, "switches the package family from deb to rpm"),
        ("add a /srv partition", UBUNTU, "no size was given for /srv"),
        ("add ros2", UBUNTU, "ROS 2 Jazzy from the ROS apt repository"),
    ],
)
def test_warnings_name_what_was_assumed(request_text: str, template: str, warning: str) -> None:
    assert any(warning in w for w in plan(request_text, template).warnings)


@pytest.mark.parametrize(
    ("request_text", "size"),
    [
        ("16 GB disk", "16GB"),  # issue 21: GB stays GB (it was read as 16GiB)
        ("a 40GB disk", "40GB"),
        ("make the disk 1.5 TB", "1500GB"),
        ("16 gig disk", "16GiB"),  # the informal gig is binary, as the library writes sizes
        ("make the disk 8 gigs", "8GiB"),
        ("make the disk thirty-two GiB", "32GiB"),
        ("disk of 32 GiB", "32GiB"),
        ("make the disk half a gig", "512MiB"),
        ("disk 16G", "16GiB"),
    ],
)
def test_sizes_keep_the_unit_they_were_given_in(request_text: str, size: str) -> None:
    result = plan(request_text)
    assert ops_of(result) == [{"op": "set_disk_size", "size": size}]
    assert not any("binary units" in w for w in result.warnings)


def test_legacy_bios_on_systemd_boot_switches_to_grub() -> None:
    assert ops_of(plan("legacy bios", UBUNTU_EDGE)) == [
        {"op": "set_bootloader", "provider": "grub", "boot_type": "legacy"}
    ]


def test_family_switch_renames_mapped_packages_and_warns() -> None:
    result = plan("switch to azure linux 3", UBUNTU_EDGE)
    assert ops_of(result)[0] == target(os="azure-linux", dist="azl3")
    # unattended-upgrades is tdnf's autoupdate package on Azure Linux (the catalog's aliases)
    assert remove(
        "netplan.io", "docker.io", "docker-compose-v2", "auditd", "unattended-upgrades"
    ) in ops_of(result)
    assert add("netplan", "moby-engine", "moby-compose", "audit", "tdnf-autoupdate") in ops_of(
        result
    )
    assert any("linux-image-generic-hwe-24.04" in w for w in result.warnings)


def test_create_mode_across_families_still_switches_with_a_warning() -> None:
    result = plan("a rhel 10 web server", UBUNTU, mode="create")
    assert ops_of(result)[0] == target(os="redhat-compatible-distro", dist="el10")
    assert ops_of(result)[-1] == add("nginx")
    assert any("closest template is ubuntu24" in w for w in result.warnings)


def test_create_mode_names_images_as_slugs() -> None:
    result = plan(
        "ubuntu 24.04 arm64 edge image with docker and node monitoring, 16GiB disk",
        UBUNTU,
        mode="create",
    )
    name = next(op["name"] for op in ops_of(result) if op["op"] == "set_image")
    assert name == "ubuntu24-aarch64-edge-docker-node-monitoring"
    long = plan(
        "edge iot industrial gateway with docker, node monitoring, watchdog, fail2ban, "
        "logging, chrony, mqtt and a web server",
        UBUNTU,
        mode="create",
    )
    long_name = next(op["name"] for op in ops_of(long) if op["op"] == "set_image")
    # "_" only inside the arch word: the library spells it x86_64
    assert len(long_name) <= 60 and set(long_name) <= set(string.ascii_lowercase + "0123456789-_")
    assert long_name.startswith("ubuntu24-x86_64-")


def test_create_mode_keeps_an_explicit_name() -> None:
    result = plan("call the image factory-gw, with docker", UBUNTU, mode="create")
    assert {"op": "set_image", "name": "factory-gw"} in ops_of(result)


def test_refine_mode_never_renames_unless_asked() -> None:
    for request in ("add docker", "for arm64", "make the disk 8GiB", "hostname gw1"):
        assert all(op["op"] not in ("set_image", "set_metadata") for op in ops_of(plan(request)))


def test_minimal_removes_nothing() -> None:
    assert ops_of(plan("minimal", UBUNTU_EDGE, mode="create"))[0]["op"] == "set_image"
    assert all(
        op["op"] != "remove_packages" for op in ops_of(plan("minimal", UBUNTU_EDGE, "create"))
    )
    refine = plan("make it minimal", UBUNTU_EDGE)
    assert ops_of(refine) == []
    assert any("minimal" in entry for entry in refine.not_applied)


def test_no_ops_are_omitted_and_named_in_the_summary() -> None:
    result = plan("add ssh and docker", UBUNTU_EDGE)
    assert ops_of(result) == []
    assert "Already present: openssh-server, docker.io" in result.summary
    absent = plan("without vim", UBUNTU)
    assert ops_of(absent) == [] and "nothing to remove: vim" in absent.summary


# --- what the planner cannot do is reported, never dropped ------------------------------------


@pytest.mark.parametrize(
    ("request_text", "template", "fragment"),
    [
        ("make it faster", UBUNTU, "'make it faster' — no rule for this"),
        ("paint it blue", UBUNTU, "'paint it blue'"),
        ("add something cool", UBUNTU, "'add something cool' — no rule for this"),
        ("debian 12", UBUNTU, "'debian 12' — not a target the composer builds"),
        ("ubuntu 22.04", UBUNTU, "'ubuntu 22.04'"),
        ("for armv7", UBUNTU, "'armv7'"),
        ("hostname -bad-", UBUNTU, "is not a valid hostname"),
        ("add a user Bad!Name", UBUNTU, "'bad!name' is not a valid user name"),
        ("remove the /data partition", UBUNTU, "the template has no /data partition"),
        ("remove the root partition", UBUNTU, "needed to boot"),
        ("make the disk 8GiB", UBUNTU_ISO, "has no disk size or disk artifacts"),
        ("add security", UBUNTU, "too general to pick packages; ask for fail2ban or auditd"),
        ("with networking support", UBUNTU, "too general to pick packages"),
        ("add ros2", DEBIAN, "ros2 has no packages on debian13"),
        ("make it look prettier", UBUNTU, "'make it look prettier' — no rule for this"),
    ],
)
def test_not_applied_names_the_clause(request_text: str, template: str, fragment: str) -> None:
    result = plan(request_text, template)
    assert any(fragment in entry for entry in result.not_applied), result.not_applied


def test_handled_clauses_and_reported_clauses_mix() -> None:
    result = plan("add htop, paint it blue, then make the disk 8GiB")
    assert ops_of(result) == [{"op": "set_disk_size", "size": "8GiB"}, add("htop")]
    assert [e.split(" — ")[0] for e in result.not_applied] == ["'paint it blue'"]


def test_retrieval_words_are_handled_in_create_mode_only() -> None:
    create = plan("a small headless edge cloud server for iot", UBUNTU, mode="create")
    assert create.not_applied == []
    refine = plan("a small headless edge cloud server for iot", UBUNTU)
    assert refine.not_applied


def test_unreadable_template_still_plans_and_warns() -> None:
    result = plan_request("hostname gw1 and add htop", "a: [", mode="refine")
    assert ops_of(result) == [{"op": "set_hostname", "hostname": "gw1"}]
    assert any("could not be read" in w for w in result.warnings)
    assert any("htop" in entry for entry in result.not_applied)


# --- passwords --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "request_text",
    [
        "add user bob with password hunter2",
        "add a user ops, password: 'correct horse battery', groups docker",
        "user ops password=hunter2 with sudo",
        "add user ops and use hunter2 as the password",
        "add user ops; the password for ops is hunter2",
        'create user ops with the password is "hunter2"',
    ],
)
def test_passwords_never_reach_the_plan(request_text: str) -> None:
    result = plan(request_text)
    dumped = result.model_dump_json().lower()
    for secret in ("hunter2", "correct", "horse", "battery"):
        assert secret not in dumped
    assert any("password in the request was dropped" in w for w in result.warnings)
    assert any(op["op"] == "add_user" for op in ops_of(result))


def test_mentioning_passwords_without_one_warns_without_dropping_anything() -> None:
    result = plan("add user ops with no password")
    assert ops_of(result) == [{"op": "add_user", "name": "ops"}]
    assert any("passwords are not written into templates" in w for w in result.warnings)


_SECRET_ALPHABET = string.ascii_letters + string.digits + "!#$%&*+-./:;<=>?@^_|~"
_PREFIXES = ["add user bob", "add a user ops with sudo", "hostname gw1 and", "", "install htop,"]
_CONNECTORS = [
    "password ",
    "password: ",
    "password=",
    "password is ",
    "with password ",
    "pw ",
    "set the password for bob to ",
    "the root password should be ",
    "passwd ",
]
_SUFFIXES = ["", "and add docker", ", make the disk 8GiB", "in the docker group", "please"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(secret="templa", prefix="", connector="password ", suffix="", mode="create")
@given(
    secret=st.text(alphabet=_SECRET_ALPHABET, min_size=6, max_size=24),
    prefix=st.sampled_from(_PREFIXES),
    connector=st.sampled_from(_CONNECTORS),
    suffix=st.sampled_from(_SUFFIXES),
    mode=st.sampled_from(["create", "refine"]),
)
def test_property_password_values_never_appear_in_the_plan(
    secret: str, prefix: str, connector: str, suffix: str, mode: str
) -> None:
    template = template_text(UBUNTU)
    baseline = plan_request(f"{prefix} {suffix}", template, mode=mode)  # type: ignore[arg-type]
    assume(secret.lower() not in baseline.model_dump_json().lower())
    # the plan's own words about a password (its warning, "a placeholder to replace with
    # a hash") are not a leak: generated "secrets" such as "templa" or "replac" are in them
    stand_in = f"{prefix} {connector}Zq0Zq0Zq0 {suffix}"
    reference = plan_request(stand_in, template, mode=mode)  # type: ignore[arg-type]
    assume(secret.lower() not in reference.model_dump_json().lower())
    request = f"{prefix} {connector}{secret} {suffix}"
    result = plan_request(request, template, mode=mode)  # type: ignore[arg-type]
    assert secret.lower() not in result.model_dump_json().lower()


# --- behaviour that holds for every request ---------------------------------------------------

_HANDLED_CLAUSES = [
    "add htop",
    "make the disk 8GiB",
    "hostname edge-01",
    "kernel 6.12",
    "drop systemd-resolved",
    "with docker and node monitoring",
    "as a qcow2",
    "a 1GiB /srv partition",
    "for arm64",
    "add a user ops with sudo",
    "quiet boot",
    "version 1.2.0",
]
_JOINERS = [", ", " and ", "; ", ", then ", ". "]


@settings(max_examples=150, deadline=None)
@given(
    clauses=st.lists(st.sampled_from(_HANDLED_CLAUSES), min_size=1, max_size=4, unique=True),
    junk=st.lists(
        st.text(alphabet="bcdfghjklmnpqrstvwxz", min_size=6, max_size=9), min_size=2, max_size=2
    ),
    joiner=st.sampled_from(_JOINERS),
    position=st.integers(0, 4),
)
def test_property_every_clause_is_handled_or_reported(
    clauses: list[str], junk: list[str], joiner: str, position: int
) -> None:
    parts = list(clauses)
    parts.insert(min(position, len(parts)), " ".join(junk))
    result = plan(joiner.join(parts))
    reported = " ".join(result.not_applied)
    assert all(word in reported for word in junk), (parts, result.not_applied)
    rest = json.dumps([result.summary, result.warnings, ops_of(result)])
    assert all(word not in rest for word in junk)
    assert len(result.operations) >= 1  # the handled clauses still produce operations


def test_plans_are_deterministic() -> None:
    request = "a minimal ubuntu edge image for arm64 with docker, monitoring and a /data partition"
    first = plan(request, mode="create").model_dump_json()
    assert all(plan(request, mode="create").model_dump_json() == first for _ in range(3))


def test_plans_round_trip_through_json() -> None:
    result = plan("add docker, hostname gw1, kernel 6.12, qcow2 and a user ops with sudo")
    assert EditPlan.model_validate(json.loads(result.model_dump_json())) == result


def test_the_planner_imports_nothing_heavy() -> None:
    loaded = top_level(modules_after("import oic_ai.tools.planner"))
    heavy = {"langchain", "langchain_core", "langgraph", "chromadb", "ruamel", "numpy", "torch"}
    assert loaded & heavy == set()


# --- end to end: planner -> applier -> validator ----------------------------------------------

_HAVE_APPLIER = importlib.util.find_spec("oic_ai.tools.applier") is not None
needs_applier = pytest.mark.skipif(not _HAVE_APPLIER, reason="tools/applier has not landed yet")

END_TO_END = [
    (UBUNTU, "refine", "Add docker and monitoring packages"),
    (UBUNTU, "refine", "Change the disk size to 8GiB and add a separate /data partition"),
    (UBUNTU, "refine", "a separate /data partition of 2GiB, ext4 and a 16GiB disk"),
    (UBUNTU_EDGE, "refine", "grow /var/log to 2GiB and drop the docker partition"),
    (DEBIAN_IOT, "refine", "remove the /data partition"),
    (UBUNTU, "refine", "as a compressed raw and a qcow2, hostname edge-01"),
    (UBUNTU, "refine", "kernel 6.12, add isolcpus=2-3 to the kernel cmdline, quiet boot"),
    (UBUNTU, "refine", "systemd-boot, make it immutable with secure boot"),
    (UBUNTU_EDGE, "refine", "legacy bios"),
    (UBUNTU, "refine", "add a user ops with sudo in the docker group, password hunter2"),
    (UBUNTU_EDGE, "refine", "add user edgeadmin to the video group"),
    (UBUNTU, "refine", "call the image factory-gw, version 1.2.0"),
    (UBUNTU, "refine", "for arm64"),
    (UBUNTU_EDGE, "refine", "switch to azure linux 3"),
    (EL10, "refine", "without vim, add htop and tmux"),
    (KIOSK, "refine", "remove the GUI"),
    (UBUNTU_ISO, "refine", "qcow2"),
    (UBUNTU, "refine", "as an installer iso"),
    (UBUNTU, "create", "a minimal Ubuntu edge image for arm64 with docker"),
    (ELXR_CLOUD, "create", "cloud elxr raw image"),
    (UBUNTU, "create", "image with nginx and docker-ce"),
    (DEBIAN_IOT, "create", "edge IoT minimal raw"),
    (UBUNTU, "create", "a rhel 10 web server with node monitoring"),
    (EMT_SECURE, "create", "an immutable emt image for arm64 with docker, 8GiB disk"),
]


@needs_applier
@pytest.mark.parametrize(("template", "mode", "request_text"), END_TO_END)
def test_end_to_end_plans_apply_and_validate(template: str, mode: str, request_text: str) -> None:
    text = template_text(template)
    result = plan_request(request_text, text, mode=mode)  # type: ignore[arg-type]
    applied = apply_plan(text, result, label=template)
    assert applied.changed
    # everything the plan asked for applied; only the plan's own reports remain
    assert applied.not_applied == result.not_applied
    report = validate_text(applied.text)
    assert report.errors == [], [e.message for e in report.errors]
    assert "hunter2" not in applied.text


@needs_applier
def test_end_to_end_every_template_takes_a_typical_refinement() -> None:
    for path in sorted(OUR_TEMPLATES.glob("*.yml")):
        text = path.read_text(encoding="utf-8")
        result = plan_request(
            "add docker and monitoring, hostname edge-01, kernel 6.12", text, mode="refine"
        )
        applied = apply_plan(text, result, label=path.name)
        report = validate_text(applied.text)
        assert report.errors == [], (path.name, [e.message for e in report.errors])


# --- describe_template ------------------------------------------------------------------------


def test_describe_lists_packages() -> None:
    answer = describe_template(template_text(UBUNTU), "what packages are included?")
    assert answer.startswith("Packages: 8 — ubuntu-minimal, shim-signed")
    assert "kernel packages: linux-image-generic-hwe-24.04" in answer


def test_describe_summarises_as_bullets() -> None:
    answer = describe_template(template_text(UBUNTU_EDGE), "Summarize the template.")
    lines = answer.splitlines()
    assert lines[0] == "Here is a summary of the template:"
    assert all(line.startswith("- ") for line in lines[1:])
    assert any(line.startswith("- Target: Ubuntu 24.04") for line in lines)
    assert any(line.startswith("- Packages: 22") for line in lines)
    assert any("Disk: 16GiB with 4 partitions" in line for line in lines)
    assert any("Users: edgeadmin (sudo; groups sudo, docker)" in line for line in lines)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("what is the disk layout?", "boot /boot/efi fat32 (256MiB); rootfs / ext4"),
        (
            "which kernel?",
            "Kernel: 6.17 (linux-image-generic-hwe-24.04), cmdline "
            "'console=tty0 console=ttyS0,115200 loglevel=4'",
        ),
        ("what users?", "Users: none defined"),
        ("which bootloader?", "Bootloader: grub (efi), writable root"),
        ("does it have docker?", "No: nothing in the package list provides docker."),
        ("is ssh installed?", "Yes: ssh is covered by openssh-server"),
    ],
)
def test_describe_answers_questions(question: str, expected: str) -> None:
    assert expected in describe_template(template_text(UBUNTU), question)


def test_describe_handles_images_without_a_disk_and_bad_yaml() -> None:
    netboot = describe_template(template_text("ubuntu24-x86_64-netboot-initrd.yml"), "disk layout?")
    assert netboot == "Disk: none (a network-boot image has no disk layout)."
    assert describe_template("a: [", "summarise").startswith("The current template could not")


def test_explain_template_is_an_agent_tool_over_describe_template() -> None:
    assert isinstance(explain_template, BaseTool)
    assert explain_template.name == "explain_template"
    assert set(explain_template.args) == {"template", "question"}
    assert "question" in (explain_template.description or "")
    text = template_text(UBUNTU)
    answer = explain_template.invoke({"template": text, "question": "which kernel?"})
    assert answer == describe_template(text, "which kernel?")


def test_a_clause_after_a_target_is_no_second_half_of_a_purpose() -> None:
    # "for arm64 and qwxz vbnm": a target ends the clause before, not a purpose
    result = plan("for arm64 and qwxz vbnm")
    assert any("qwxz vbnm" in item for item in result.not_applied), result.not_applied
