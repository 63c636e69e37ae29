"""Session 21's forms, reworded: "bake" puts a thing in the image, never names a package."""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import plan_on

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("request_text", "packages"),
    [
        ("add htop and bake this into the template", ["htop"]),
        ("bake htop into the image", ["htop"]),
        ("bake in htop", ["htop"]),
        ("baking jq and curl in would be nice", ["jq", "curl"]),
    ],
)
def test_bake_is_a_verb_that_adds_what_it_names(request_text: str, packages: list[str]) -> None:
    plan = plan_on(UBUNTU, request_text)
    added = [name for op in plan.operations if op.op == "add_packages" for name in op.packages]
    assert added == packages
    assert plan.not_applied == []


@pytest.mark.parametrize(
    "request_text", ["we bake images nightly in CI", "can you bake this into an image"]
)
def test_bake_with_no_thing_named_adds_nothing(request_text: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert [op for op in plan.operations if op.op == "add_packages"] == []


def _disk(plan: object) -> list[str]:
    return [op.size for op in plan.operations if op.op == "set_disk_size"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("request_text", "shell"),
    [
        ("add user svc-edge, shell /bin/bash.. nah make it /sbin/nologin", "/sbin/nologin"),
        ("add user ops, shell /usr/bin/fish. nah, make it /bin/bash", "/bin/bash"),
        ("new user ci with login shell /bin/sh, no wait, /usr/bin/zsh", "/usr/bin/zsh"),
        ("add user ops with shell /bin/bash, no, zsh", "/bin/zsh"),
    ],
)
def test_a_path_corrected_in_the_same_breath_keeps_one_leading_slash(
    request_text: str, shell: str
) -> None:
    plan = plan_on(UBUNTU, request_text)
    users = [op for op in plan.operations if op.op == "add_user"]
    assert [u.shell for u in users] == [shell]
    assert plan.not_applied == []


@pytest.mark.parametrize(
    ("request_text", "size"),
    [
        ("4 gig too small, make it 12. and qcow2 output too for the lab", "12GiB"),
        ("the 20 gig disk is not enough, make it 40", "40GiB"),
        ("10 gigs won't do, make it 30 gigs", "30GiB"),
        ("6G is way too small, actually 16", "16GiB"),
    ],
)
def test_a_size_judged_wrong_then_replaced_is_the_new_size(request_text: str, size: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert _disk(plan) == [size]
    assert plan.not_applied == []


@pytest.mark.parametrize("request_text", ["4 gig too small", "8G not enough"])
def test_a_size_judged_wrong_alone_asks_for_no_size_and_is_reported(request_text: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert _disk(plan) == []
    assert plan.not_applied and "not which to use" in plan.not_applied[0]


@pytest.mark.parametrize(
    ("request_text", "size"),
    [
        (
            "The eMMC on these modules is 64 gig but I want the image itself to be 6 gigs so "
            "flashing is fast",
            "6GiB",
        ),
        ("the SSDs in our boxes are 512 GB, keep the image at 20 gigs", "20GiB"),
        ("the NVMe on each node is 1 TB; the image should be 30 gigs", "30GiB"),
        ("I'd like the image to be 10 gigs", "10GiB"),
        ("the eMMC on the board is 32 gig", "32GiB"),  # alone, the device's size is the disk's
    ],
)
def test_a_device_capacity_beside_the_image_size_is_context(request_text: str, size: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert _disk(plan) == [size]
    assert plan.not_applied == []


@pytest.mark.parametrize(
    ("request_text", "hostname"),
    [
        ("elxr12 raw x86, minimal, +chrony +nftables, host elx-edge", "elx-edge"),
        ("add htop, tmux, host ipc-el10", "ipc-el10"),
        ("add htop. host kiosk.lab.local", "kiosk.lab.local"),
        ("host gw-2", "gw-2"),
    ],
)
def test_host_opening_a_clause_names_the_host(request_text: str, hostname: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert [op.hostname for op in plan.operations if op.op == "set_hostname"] == [hostname]
    assert plan.not_applied == []


@pytest.mark.parametrize("request_text", ["we host nginx there", "host it on our mirror"])
def test_host_as_a_verb_names_no_host(request_text: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert [op for op in plan.operations if op.op == "set_hostname"] == []


@pytest.mark.parametrize(
    ("request_text", "groups"),
    [
        ("add user plc no sudo, grp dialout", ["dialout"]),
        ("user kiosk no sudo, in video+input grps", ["video", "input"]),
        ("add user ops, grps: docker, adm", ["docker", "adm"]),
        ("new user cam, Grp video", ["video"]),
    ],
)
def test_grp_is_typed_for_group(request_text: str, groups: list[str]) -> None:
    plan = plan_on(UBUNTU, request_text)
    users = [op for op in plan.operations if op.op == "add_user"]
    assert len(users) == 1 and users[0].groups == groups
    assert [op for op in plan.operations if op.op == "add_packages"] == []
    assert plan.not_applied == []


def test_a_package_named_like_grp_stays_a_package() -> None:
    plan = plan_on(UBUNTU, "add grpcurl")
    assert [n for op in plan.operations if op.op == "add_packages" for n in op.packages] == [
        "grpcurl"
    ]


@pytest.mark.parametrize(
    ("request_text", "args"),
    [
        ("kernel param rd.debug pls, and remove loglevel=7", ["rd.debug"]),
        ("boot flag nomodeset please", ["nomodeset"]),
        (
            "kernel option systemd.unified_cgroup_hierarchy=1",
            ["systemd.unified_cgroup_hierarchy=1"],
        ),
        ("add htop; cmdline args quiet splash", ["quiet", "splash"]),
    ],
)
def test_a_kernel_label_opening_a_clause_takes_its_options(
    request_text: str, args: list[str]
) -> None:
    plan = plan_on(UBUNTU, request_text)
    kernel = [op for op in plan.operations if op.op == "set_kernel"]
    assert len(kernel) == 1 and kernel[0].append_cmdline == args
    assert plan.not_applied == []


@pytest.mark.parametrize(
    "request_text", ["kernel options are fine as is", "kernel flags: whatever"]
)
def test_a_kernel_label_with_no_option_after_it_adds_none(request_text: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert [op for op in plan.operations if op.op == "set_kernel"] == []


@pytest.mark.parametrize(
    "request_text",
    [
        "QA says immutability breaks their test harness. turn it off for now (secure boot too)",
        "immutability breaks the harness. turn it off (secure boot too)",
        "disable immutability (and secure boot)",
        "immutable kills our updater, switch it off (and secure boot)",
    ],
)
def test_a_bracket_after_a_toggle_gives_another_setting_the_same_state(request_text: str) -> None:
    plan = plan_on("emt3-x86_64-immutable-secureboot-raw.yml", request_text)
    ops = [op for op in plan.operations if op.op == "set_immutability"]
    assert len(ops) == 1 and ops[0].enabled is False and ops[0].secure_boot is False
    assert plan.not_applied == []


def test_a_device_capacity_beside_an_image_size_already_so_is_context() -> None:
    # the gateway template's disk is already 6 GiB: the request still names no other size
    plan = plan_on(
        "elxr12-aarch64-iot-gateway-raw.yml",
        "The eMMC on these modules is 64 gig but I want the image itself to be 6 gigs",
    )
    assert _disk(plan) == [] and plan.not_applied == []


@pytest.mark.parametrize(
    ("request_text", "users"),
    [
        (
            "two users: 'platform' with sudo, and 'collector' with no sudo",
            [("platform", True), ("collector", False)],
        ),
        ('users: "a1" with sudo, "b2" with no sudo', [("a1", True), ("b2", False)]),
        ("add user admin (sudo, wheel)", [("admin", True)]),
        (
            "users:\n- admin (sudo, wheel)\n- backup (no sudo, shell /bin/sh)",
            [
                ("admin", True),
                ("backup", False),
            ],
        ),
        ("accounts:\n* ops (sudo)\n* viewer (no sudo)", [("ops", True), ("viewer", False)]),
        ("add user bob with no sudo", [("bob", False)]),
    ],
)
def test_users_listed_quoted_bracketed_or_bulleted_are_each_read(
    request_text: str, users: list[tuple[str, bool]]
) -> None:
    plan = plan_on(UBUNTU, request_text)
    added = [(op.name, op.sudo) for op in plan.operations if op.op == "add_user"]
    assert added == users
    assert [op for op in plan.operations if op.op == "add_packages"] == []
    assert plan.not_applied == []


def test_a_bulleted_package_list_is_still_packages() -> None:
    plan = plan_on(UBUNTU, "packages:\n- htop\n- jq")
    assert [n for op in plan.operations if op.op == "add_packages" for n in op.packages] == [
        "htop",
        "jq",
    ]


@pytest.mark.parametrize(
    "request_text",
    [
        "Secure boot keys live on the build host: /opt/sb/db.key, /opt/sb/db.crt and "
        "/opt/sb/db.cer. wire them in",
        "the keys are on the host: /opt/keys/db.key",
        "the build-host: ci-runner-3 signs them",
    ],
)
def test_a_path_or_the_build_host_is_no_hostname(request_text: str) -> None:
    plan = plan_on("emt3-x86_64-immutable-secureboot-raw.yml", request_text)
    assert [op for op in plan.operations if op.op == "set_hostname"] == []
    assert not any("hostname" in entry for entry in plan.not_applied)


@pytest.mark.parametrize(
    ("request_text", "disk", "partition"),
    [
        (
            "disk: 32 gigabytes, and a /var/log/ros partition, half a gig... no, make it 1 gig",
            "32GB",
            "1GiB",
        ),
        ("a /scratch partition of 2 gigs\u2026 no, 4 gigs", None, "4GiB"),
        ("/srv partition 500M.. actually 2G", None, "2GiB"),
    ],
)
def test_a_size_revised_after_an_ellipsis_revises_its_own_thing(
    request_text: str, disk: str | None, partition: str
) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert _disk(plan) == ([disk] if disk else [])
    parts = [op for op in plan.operations if op.op == "add_partition"]
    assert [p.size for p in parts] == [partition]
    assert plan.not_applied == []


@pytest.mark.parametrize(
    "request_text",
    [
        "add htop. Bit of background: the techs used to log in as root, which I hate.",
        "add htop. A bit of context: we ship these to farms.",
        "add htop. Our partner recommended it, so let's try it.",
        "add preempt=full to the kernel command line. I want something close to that behaviour.",
        "add jq, we'd like something similar to what we had before",
    ],
)
def test_background_go_aheads_and_vague_likenesses_beside_a_change_ask_nothing(
    request_text: str,
) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert plan.operations and plan.not_applied == []


@pytest.mark.parametrize(
    ("request_text", "packages"),
    [
        ("with gpsd, and chrony configured", ["gpsd", "chrony"]),
        ("add htop, jq and chrony configured please", ["htop", "jq", "chrony"]),
        ("install nginx and certbot preinstalled", ["nginx", "certbot"]),
        ("add tmux, vim included", ["tmux", "vim"]),
    ],
)
def test_a_name_and_the_state_it_is_to_be_in_adds_the_name(
    request_text: str, packages: list[str]
) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert [n for op in plan.operations if op.op == "add_packages" for n in op.packages] == packages
    assert plan.not_applied == []


@pytest.mark.parametrize(
    "request_text",
    [
        "our store network is locked down and only lets traffic out through a proxy",
        "the plant network was locked down last year, add htop",
        "so apt inside the image will need that",
    ],
)
def test_what_something_else_is_or_needs_changes_no_package(request_text: str) -> None:
    plan = plan_on("ubuntu26-x86_64-minimal-raw.yml", request_text)
    added = [n for op in plan.operations if op.op == "add_packages" for n in op.packages]
    assert set(added) <= {"htop"}


@pytest.mark.parametrize("request_text", ["the image is locked down", "I want the box locked down"])
def test_the_image_locked_down_still_asks_for_hardening(request_text: str) -> None:
    plan = plan_on("ubuntu26-x86_64-minimal-raw.yml", request_text)
    added = [n for op in plan.operations if op.op == "add_packages" for n in op.packages]
    assert "fail2ban" in added


EDGE = "ubuntu24-aarch64-edge-container-raw.yml"  # /var/lib/docker takes the rest of the disk


@pytest.mark.parametrize(
    ("request_text", "mount", "fs"),
    [
        (
            "make /var/lib/docker 10 GiB and put a /data partition on the rest, xfs as well",
            "/data",
            "xfs",
        ),
        (
            "shrink /var/lib/docker to 8G, then a /srv partition in the remainder, btrfs",
            "/srv",
            "btrfs",
        ),
        ("/var/lib/docker 12G, and /data into the rest, xfs", "/data", "xfs"),
    ],
)
def test_a_partition_on_the_rest_keeps_the_file_system_said_after_it(
    request_text: str, mount: str, fs: str
) -> None:
    plan = plan_on(EDGE, request_text)
    added = [op for op in plan.operations if op.op == "add_partition"]
    assert [(op.mount_point, op.size, op.fs_type) for op in added] == [(mount, None, fs)]
    assert plan.not_applied == []


def test_a_partition_on_the_rest_that_root_takes_is_reported_not_sized_by_guess() -> None:
    plan = plan_on(UBUNTU, "put a /data partition on the rest, xfs")
    assert [op for op in plan.operations if op.op == "add_partition"] == []
    assert plan.not_applied and "already takes the rest of the disk" in plan.not_applied[0]


def test_a_table_header_row_is_context() -> None:
    plan = plan_on(
        UBUNTU,
        "64 GiB disk, partitions like this:\n\n| mount | size | fs |\n|---|---|---|\n"
        "| /boot | 1 GiB | ext4 |\n| /var/log | rest | xfs |",
    )
    assert plan.not_applied == []
    assert {op.mount_point for op in plan.operations if op.op == "add_partition"} == {
        "/boot",
        "/var/log",
    }


@pytest.mark.parametrize(
    "request_text",
    [
        "actually remove svc-nginx, nginx runs as its own user anyway",
        "drop svc-nginx; nginx has its own account already",
    ],
)
def test_a_program_with_its_own_user_names_no_user(request_text: str) -> None:
    from tests.tools.planner.helpers import plan_after

    plan = plan_after(
        "azl3-x86_64-minimal-raw.yml", "add a user svc-nginx without sudo", request_text
    )
    assert [op for op in plan.operations if op.op == "add_user"] == []
    assert [op.path for op in plan.operations if op.op == "delete"] == [
        "systemConfig.users[name=svc-nginx]"
    ]
    assert plan.not_applied == []
