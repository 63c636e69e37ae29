"""Everyday forms of a request are read, and nothing a request says is dropped (issue 21).

The wordings here were written for these tests, not taken from the labelled conversations:
they check the mechanisms (slots, clause reading, the package rule), not phrases.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.explain_template import describe_template
from oic_ai.tools.planner.state import Mode
from tests.tools.planner.helpers import plan_on, template_text

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # console=tty0 console=ttyS0,115200, rootfs rest of disk
EL10 = "el10-aarch64-container-host-raw.yml"  # firewalld, podman


def plan(request: str, template: str = UBUNTU, mode: Mode = "refine") -> EditPlan:
    return plan_on(template, request, mode=mode)


def ops(result: EditPlan) -> list[dict[str, Any]]:
    return [
        {"op": op.op, **op.model_dump(exclude_defaults=True)}
        for op in result.operations
        if op.op != "set_metadata"
    ]


def has(result: EditPlan, **fields: Any) -> bool:
    return any(all(op.get(k) == v for k, v in fields.items()) for op in ops(result))


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        # hostnames
        ("rename the box lab-gw-03", {"op": "set_hostname", "hostname": "lab-gw-03"}),
        ("its name should be kiosk-2", {"op": "set_hostname", "hostname": "kiosk-2"}),
        ("use kiosk-7 as the hostname", {"op": "set_hostname", "hostname": "kiosk-7"}),
        ("the machine name is plc-01", {"op": "set_hostname", "hostname": "plc-01"}),
        ("with hostname set to plc-01", {"op": "set_hostname", "hostname": "plc-01"}),
        # users
        (
            "an account for the backup job named bkp without sudo rights",
            {"op": "add_user", "name": "bkp"},
        ),
        (
            "add an ops user with sudo, member of docker and adm",
            {"op": "add_user", "name": "ops", "groups": ["docker", "adm"], "sudo": True},
        ),
        ("a login called dev with admin rights", {"op": "add_user", "name": "dev", "sudo": True}),
        (
            "a user named svc-backup without a shell",
            {"op": "add_user", "name": "svc-backup", "shell": "/usr/sbin/nologin"},
        ),
        ("We need a user `deploy` with passwordless sudo.", {"op": "add_user", "sudo": True}),
        # sizes and partitions
        ("bump the disk to 24 gigs", {"op": "set_disk_size", "size": "24GiB"}),
        ("can you make the root disk 30GB instead", {"op": "set_disk_size", "size": "30GB"}),
        (
            "put /home on its own 5 GiB partition",
            {"op": "add_partition", "mount_point": "/home", "size": "5GiB"},
        ),
        (
            "add a 4 gig /srv partition formatted as xfs",
            {"op": "add_partition", "mount_point": "/srv", "size": "4GiB", "fs_type": "xfs"},
        ),
        (
            "put a 2GiB swap partition on it",
            {"op": "add_partition", "mount_point": "none", "fs_type": "linux-swap"},
        ),
        ("Give the root filesystem 20 gigs.", {"op": "resize_partition", "size": "20GiB"}),
        # consoles and kernel options
        (
            "change the serial console to ttyS2 at 38400",
            {"op": "set_kernel", "cmdline": "console=tty0 console=ttyS2,38400 loglevel=4"},
        ),
        (
            "set the console speed to 9600",
            {"op": "set_kernel", "cmdline": "console=tty0 console=ttyS0,9600 loglevel=4"},
        ),
        (
            "set console=ttyS0,115200n8",
            {"op": "set_kernel", "cmdline": "console=tty0 console=ttyS0,115200n8 loglevel=4"},
        ),
        (
            "Note that our hardware needs the nomodeset kernel option.",
            {"op": "set_kernel", "append_cmdline": ["nomodeset"]},
        ),
        # packages, however they are asked for
        ("I was wondering if you could add htop and iotop", {"op": "add_packages"}),
        ("Please make sure curl is included", {"op": "add_packages", "packages": ["curl"]}),
        ("we need auditd and fail2ban installed", {"op": "add_packages"}),
        ("Can you throw in vim too?", {"op": "add_packages", "packages": ["vim"]}),
        ("It would be great if the image had tcpdump", {"op": "add_packages"}),
    ],
)
def test_an_everyday_form_is_read_without_leftovers(
    request_text: str, wanted: dict[str, Any]
) -> None:
    result = plan(request_text)
    assert has(result, **wanted), ops(result)
    assert result.not_applied == []


def test_a_named_package_of_the_target_family_stays_as_named() -> None:
    # nftables is a real el10 name: not the firewall capability's firewalld
    result = plan("We don't want firewalld on these: remove it, add nftables", EL10)
    assert has(result, op="remove_packages", packages=["firewalld"])
    assert has(result, op="add_packages", packages=["nftables"])


@pytest.mark.parametrize(
    "request_text",
    [
        "add the package vendor-agent",  # strongly marked: the package X
        "install `my-tool`",  # backticks (an underscore is no Debian name: Policy 5.6.1)
        "add vlc and gimp",  # lower case, no ordinary word: a package
        "debian trixie, arm64, mosquitto and wireguard-tools",  # a list of things asked for
    ],
)
def test_a_marked_or_listed_name_is_a_package(request_text: str) -> None:
    assert [op for op in ops(plan(request_text)) if op["op"] == "add_packages"]


@pytest.mark.parametrize(
    ("request_text", "not_a_package"),
    [
        ("Thanks a ton!", "ton"),
        ("add our local mirror https://m.example/debian with suite trixie", "suite"),
        ("with GNOME, Firefox and LibreOffice", "GNOME"),  # a product name, capitalised
        ("we'll manage users with FreeIPA instead", "FreeIPA"),
        ("ops needs an admin account named ops", "ops"),  # an account name
        ("That's gigabytes, not gibibytes", "gibibytes"),
        ("be careful not to duplicate ip=dhcp", "duplicate"),
        ("make the hostname match the site code, e.g. fra-01", "e.g"),
    ],
)
def test_words_playing_another_role_never_become_packages(
    request_text: str, not_a_package: str
) -> None:
    added = [p for op in ops(plan(request_text)) for p in op.get("packages", [])]
    assert not_a_package not in added and not_a_package.lower() not in added


@pytest.mark.parametrize(
    ("request_text", "reported"),
    [
        ("shrink /var/log to 1 gig", "no /var/log partition to resize"),
        ("the data partition should be 10GiB", "no data partition"),
        ("remove the user bob", "bob"),
    ],
)
def test_a_change_the_template_cannot_take_is_reported_not_guessed(
    request_text: str, reported: str
) -> None:
    result = plan(request_text)
    assert any(reported in entry for entry in result.not_applied), result.not_applied
    assert not [op for op in ops(result) if op["op"] == "set_disk_size"]


def test_a_change_of_mind_takes_the_clause_back() -> None:
    result = plan("add virt-manager... no wait, add virt-top instead")
    added = [p for op in ops(result) if op["op"] == "add_packages" for p in op["packages"]]
    assert added == ["virt-top"]
    assert "taken back" in result.summary


def test_a_repository_keeps_every_field_as_given() -> None:
    result = plan(
        "Our vendor's guide says to add their apt repository. The details are: URL "
        "https://repo.example.com/apt, suite bookworm, component main, signing key at "
        "https://repo.example.com/key.asc. Then install vendor-agent from it."
    )
    assert has(
        result,
        op="add_repository",
        url="https://repo.example.com/apt",
        codename="bookworm",
        component="main",
        pkey="https://repo.example.com/key.asc",
    )
    assert has(result, op="add_packages", packages=["vendor-agent"])
    assert result.not_applied == []


def test_a_repository_priority_is_kept_and_written() -> None:
    result = plan("add repo https://pkgs.example.com/apt suite trixie, priority 900")
    assert has(result, op="add_repository", codename="trixie")
    text = template_text(UBUNTU)
    repos = yaml.safe_load(apply_plan(text, result).text)["packageRepositories"]
    assert repos[-1]["priority"] == 900


@pytest.mark.parametrize(
    ("request_text", "cmdline"),
    [
        ("remove the loglevel option", "console=tty0 console=ttyS0,115200"),
        ("take loglevel off the kernel command line", "console=tty0 console=ttyS0,115200"),
        ("get rid of console=tty0", "console=ttyS0,115200 loglevel=4"),
        ("disable the tty0 console", "console=ttyS0,115200 loglevel=4"),
        ("only keep the serial console", "console=ttyS0,115200 loglevel=4"),
    ],
)
def test_an_option_or_console_is_taken_off_the_command_line(
    request_text: str, cmdline: str
) -> None:
    result = plan(request_text)
    assert has(result, op="set_kernel", cmdline=cmdline), ops(result)
    assert result.not_applied == []


def test_a_negated_quiet_never_adds_quiet() -> None:
    result = plan("no quiet boot please")
    assert not [op for op in ops(result) if op["op"] == "set_kernel"]


DEBIAN_IOT = "debian13-aarch64-edge-iot-raw.yml"  # /data takes the rest of the disk


@pytest.mark.parametrize(
    ("request_text", "size"),
    [
        ("/data: 6GiB", "6GiB"),
        ("bigger /data please, 6GiB", "6GiB"),
        ("the /data partition needs to be 6GiB", "6GiB"),
        ("make /data 10 GB", "10GB"),
        ("give /data 2 more gigs", "4735MiB"),  # its 2687MiB and 2GiB more
    ],
)
def test_a_partition_size_is_read_however_it_is_put(request_text: str, size: str) -> None:
    result = plan(request_text, DEBIAN_IOT)
    assert has(result, op="resize_partition", partition="data", size=size), ops(result)
    assert not [op for op in ops(result) if op["op"] == "set_disk_size"]
    assert result.not_applied == []


def test_a_question_about_repositories_names_each_signing_key() -> None:
    text = template_text(UBUNTU)
    added = apply_plan(
        text,
        plan("add repo https://r.example.com/apt suite noble, key https://r.example.com/k.asc"),
    ).text
    answer = describe_template(added, "which repositories are there, and which key do they use?")
    assert "https://r.example.com/apt" in answer and "https://r.example.com/k.asc" in answer
