"""Session 23's planner forms, reworded, each beside near-misses that must not trigger.

Installer answer files, a format said as a file extension, a compression said in its own
clause beside a new artifact, SELinux in a mode, a console taken off the serial port or
kept alone, and a disk size said again by its number. The sentences are written for these
tests.
"""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.planner import plan_request
from tests.tools.planner.helpers import added, cmdline_of, plan_on, template_text

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
EL10 = "el10-x86_64-minimal-raw.yml"


def _doc(template: str, request: str) -> tuple[dict[str, object], list[str]]:
    text = template_text(template)
    plan = plan_request(request, text, mode="refine")
    return yaml.safe_load(apply_plan(text, plan).text), plan.not_applied


def _artifacts(doc: dict[str, object]) -> list[tuple[str, str | None]]:
    disk = doc["disk"]
    assert isinstance(disk, dict)
    return [(a["type"], a.get("compression")) for a in disk["artifacts"]]


@pytest.mark.parametrize(
    "request_text",
    [
        "also use my kickstart file ks.cfg from our pxe server",
        "include our preseed config please",
        "take the autoinstall answers file from the share",
    ],
)
def test_an_installer_answer_file_is_reported_with_what_to_do(request_text: str) -> None:
    plan = plan_on(EL10, request_text)
    assert plan.operations == [] or not added(plan)
    assert any("answer files" in item for item in plan.not_applied)


def test_a_kickstart_named_as_how_the_user_installs_today_is_no_report() -> None:
    plan = plan_on(EL10, "add tmux, basically what I'd PXE+kickstart for our racks")
    assert added(plan) == ["tmux"]
    assert not any("answer files" in item for item in plan.not_applied)


@pytest.mark.parametrize(
    ("request_text", "expected"),
    [
        ("output as a .vdi please", [("vdi", None)]),
        ("give me a .qcow2 too", [("raw", None), ("qcow2", None)]),
        ("also as .vmdk", [("raw", None), ("vmdk", None)]),
    ],
)
def test_a_format_said_as_a_file_extension_is_an_artifact(
    request_text: str, expected: list[tuple[str, str | None]]
) -> None:
    doc, not_applied = _doc(UBUNTU, request_text)
    types = [(t, None) for t, _ in _artifacts(doc)]
    assert types == expected
    assert not_applied == []
    assert "vmdk" not in (doc["systemConfig"] or {}).get("packages", [])  # type: ignore[union-attr]


def test_a_file_named_with_a_format_extension_is_no_artifact() -> None:
    doc, _ = _doc(UBUNTU, "copy disk.vdi into the image")
    assert [t for t, _ in _artifacts(doc)] == ["raw"]


@pytest.mark.parametrize(
    "request_text",
    [
        "perfect. also compress the output as xz and give me a qcow2 too",
        "give me a qcow2 as well, and compress the images with xz",
    ],
)
def test_a_compression_in_its_own_clause_is_every_artifacts(request_text: str) -> None:
    doc, not_applied = _doc(UBUNTU, request_text)
    assert _artifacts(doc) == [("raw", "xz"), ("qcow2", "xz")]
    assert "compress" not in doc["systemConfig"].get("packages", [])  # type: ignore[union-attr]
    assert not_applied == []


@pytest.mark.parametrize(
    ("request_text", "enforcing"),
    [
        ("and SELinux enforcing please. I see selinux=0 in the default kernel args", "1"),
        ("selinux should be permissive on the kernel command line", "0"),
        ("enforcing SELinux on the cmdline", "1"),
    ],
)
def test_selinux_in_a_mode_turns_it_on_with_its_policy(request_text: str, enforcing: str) -> None:
    doc, not_applied = _doc(EL10, request_text)
    args = doc["systemConfig"]["kernel"]["cmdline"].split()  # type: ignore[index]
    assert "selinux=0" not in args and "selinux=1" in args
    assert f"enforcing={enforcing}" in args
    assert "selinux-policy-targeted" in doc["systemConfig"]["packages"]  # type: ignore[index]
    assert not_applied == []


def test_selinux_named_without_a_mode_and_without_the_cmdline_changes_nothing() -> None:
    plan = plan_on(EL10, "we used to run SELinux permissive on CentOS 7")
    assert not any(op.op == "set_value" and "cmdline" in str(op) for op in plan.operations)


def test_selinux_on_a_debian_system_warns_that_it_needs_more() -> None:
    plan = plan_on(UBUNTU, "selinux enforcing on the kernel command line")
    assert any("selinux-policy-default" in w for w in plan.warnings)
    assert "selinux-policy-targeted" not in added(plan)


@pytest.mark.parametrize(
    "request_text",
    [
        "take the console off the serial port",
        "we want the console off the serial port, just tty0",
        "console on tty0 only",
        "and rcu_nocbs=2-3 too. also i think we want the console off serial, just tty0",
    ],
)
def test_the_console_taken_off_serial_keeps_the_screen_one(request_text: str) -> None:
    doc, not_applied = _doc(UBUNTU, request_text)
    args = doc["systemConfig"]["kernel"]["cmdline"].split()  # type: ignore[index]
    assert "console=tty0" in args
    assert not any(a.startswith("console=ttyS") for a in args)
    assert not_applied == []


def test_just_a_serial_device_keeps_that_one_alone() -> None:
    text = template_text(UBUNTU)
    plan = plan_request("only ttyS0 please, drop the rest", text, mode="refine")
    args = cmdline_of(apply_plan(text, plan).text)
    assert [a for a in args if a.startswith("console=")] == ["console=ttyS0,115200"]


@pytest.mark.parametrize(
    ("request_text", "size"),
    [
        ("Disk - something around 8 gigs should be plenty, make it 8.", "8GiB"),
        ("disk 16 GB, so 16 then", "16GB"),
    ],
)
def test_a_disk_size_said_again_by_its_number_is_the_same_size(
    request_text: str, size: str
) -> None:
    doc, not_applied = _doc(UBUNTU, request_text)
    assert doc["disk"]["size"] == size  # type: ignore[index]
    assert not_applied == []


def test_another_number_after_a_disk_size_is_still_the_last_word() -> None:
    doc, _ = _doc(UBUNTU, "disk 8 gigs, make it 10")
    assert doc["disk"]["size"] == "10GiB"  # type: ignore[index]


def test_selinux_and_its_mode_apart_in_one_clause_turn_it_on() -> None:
    doc, _ = _doc(EL10, "SELinux though: policy installed and enforcing")
    args = doc["systemConfig"]["kernel"]["cmdline"].split()  # type: ignore[index]
    assert {"selinux=1", "enforcing=1"} <= set(args)


def test_selinux_said_not_enforcing_is_no_request() -> None:
    plan = plan_on(EL10, "selinux is not enforcing on our old boxes, add htop")
    assert added(plan) == ["htop"]


@pytest.mark.parametrize(
    "request_text",
    ["ok nvm. disk 4GB is fine, make sure its 4GB not more", "fine, just ensure its still 4GB"],
)
def test_its_typed_for_it_is_after_make_sure_asks_nothing_more(request_text: str) -> None:
    text = template_text(UBUNTU).replace("size: 3584MiB", "size: 4GB")
    plan = plan_request(request_text, text, mode="refine")
    assert plan.not_applied == []


def test_its_as_a_possessive_stays_one() -> None:
    from oic_ai.tools.planner.text import RequestText

    said = "make sure its 4GB disk is ext4"
    assert RequestText(said).original == said


@pytest.mark.parametrize(
    "request_text", ["reboot it every night at 3am", "restart the box each sunday at 4am"]
)
def test_a_reboot_asked_for_is_reported_never_dropped(request_text: str) -> None:
    plan = plan_on(UBUNTU, request_text)
    assert plan.operations == []
    assert len(plan.not_applied) == 1


def test_machines_that_reboot_are_context() -> None:
    plan = plan_on(UBUNTU, "add htop. the machines reboot every night anyway")
    assert added(plan) == ["htop"]
    assert plan.not_applied == []


@pytest.mark.parametrize(
    ("request_text", "args"),
    [
        ("Panic on oops and reboot after 10 seconds.", ["oops=panic", "panic=10"]),
        ("reboot after 30 seconds on a kernel panic", ["panic=30"]),
    ],
)
def test_the_kernels_panic_said_in_words(request_text: str, args: list[str]) -> None:
    text = template_text(UBUNTU)
    plan = plan_request(request_text, text, mode="refine")
    assert [a for a in cmdline_of(apply_plan(text, plan).text) if "panic" in a] == args
    assert plan.not_applied == []


def test_a_reboot_delay_without_a_panic_is_no_kernel_option() -> None:
    plan = plan_on(UBUNTU, "reboot after 10 seconds")
    assert not any("panic" in str(op) for op in plan.operations)
