"""The plan applier: bytes preserved, every operation's effect, refusals with reasons."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, get_args

import pytest
import yaml

from oic_ai.stores.errors import UserInputError
from oic_ai.tools import edit_plan as ep
from oic_ai.tools.applier import AppliedPlan, apply_plan, sections, unified_diff
from oic_ai.tools.applier import apply as applier_entry
from oic_ai.tools.applier.editor import Editor
from oic_ai.tools.applier.merge import merge
from oic_ai.tools.applier.yaml_io import clone, dump
from oic_ai.tools.validate_template import validate_text
from tests.conftest import OUR_TEMPLATES, REFERENCE_TEMPLATES

OURS = sorted(OUR_TEMPLATES.glob("*.yml"))
UPSTREAM = sorted(REFERENCE_TEMPLATES.glob("*.yml")) if REFERENCE_TEMPLATES.is_dir() else []
ALL = OURS + UPSTREAM
WEB = OUR_TEMPLATES / "ubuntu24-x86_64-web-server-raw.yml"
MINIMAL = OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml"
EL_MINIMAL = OUR_TEMPLATES / "el10-x86_64-minimal-raw.yml"
SECURE = OUR_TEMPLATES / "emt3-x86_64-immutable-secureboot-raw.yml"
ISO = OUR_TEMPLATES / "ubuntu24-x86_64-installer-iso.yml"

SMALL = """\
# header comment
image:
  name: small
  version: "1.0.0"

target:
  os: ubuntu
  dist: ubuntu24
  arch: x86_64
  imageType: raw

disk:
  name: small
  size: 8GiB
  partitionTableType: gpt
  artifacts:
    - type: raw
  partitions:
    - id: boot
      type: esp
      start: 1MiB
      end: 513MiB
      fsType: fat32
      mountPoint: /boot/efi
      flags: [esp, boot]
    - id: rootfs
      type: linux-root-amd64
      typeUUID: 4f68bce3-e8cd-4db1-96e7-fbcaf984b709
      start: 513MiB
      end: 4609MiB
      fsType: ext4
      mountPoint: /
    # the data partition takes what is left
    - id: data
      type: linux
      start: 4609MiB
      end: "0"
      fsType: ext4
      mountPoint: /data

systemConfig:
  name: small
  packages:
    - ubuntu-minimal
    - openssh-server  # remote access
    - vim-tiny
    - vim-common
  # the kernel comes from the HWE stack
  kernel:
    version: "6.8"
    cmdline: "console=tty0 console=ttyS0,115200 loglevel=4"
    packages:
      - linux-image-generic
"""


def plan(*operations: Any, **extra: Any) -> ep.EditPlan:
    return ep.EditPlan(summary="test", operations=list(operations), **extra)


def apply(text: str, *operations: Any) -> AppliedPlan:
    return apply_plan(text, plan(*operations))


def data(result: AppliedPlan | str) -> Any:
    return yaml.safe_load(result if isinstance(result, str) else result.text)


def partitions(result: AppliedPlan) -> dict[str, tuple[str, str]]:
    parts = data(result)["disk"]["partitions"]
    return {p["id"]: (p["start"], p["end"]) for p in parts}


def error_codes(text: str) -> list[str]:
    return sorted(f.code for f in validate_text(text).errors)


def changed_lines(diff: str) -> tuple[list[str], list[str]]:
    lines = diff.splitlines()
    removed = [line[1:] for line in lines if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in lines if line.startswith("+") and not line.startswith("+++")]
    return removed, added


# --- bytes preserved -------------------------------------------------------------------


def test_an_empty_plan_returns_the_text_untouched_without_parsing_it() -> None:
    result = apply_plan("not: [valid", plan(not_applied=["x"], warnings=["w"]))
    assert result.text == "not: [valid"
    assert not result.changed and result.diff == ""
    assert result.not_applied == ["x"] and result.warnings == ["w"]


@pytest.mark.parametrize("path", OURS, ids=lambda p: p.name)
def test_ruamel_round_trips_our_library_byte_for_byte(path: Path) -> None:
    text = path.read_text()
    parsed = sections.parse(text)
    assert parsed.base(None) == text
    assert parsed.style.offset == 2 and parsed.style.mapping == 2


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_an_unedited_document_renders_as_the_original_bytes(path: Path) -> None:
    text = path.read_text()
    parsed = sections.parse(text)
    assert sections.render(parsed, clone(parsed.doc)) == text
    # even where ruamel itself would normalise (trailing spaces, "-" on its own line)
    assert merge(text, parsed.base(None), parsed.base(None)) == text


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.name)
def test_adding_a_package_changes_only_the_package_list(path: Path) -> None:
    text = path.read_text()
    before = data(text)
    result = apply(text, ep.AddPackages(packages=["zz-new-package"]))
    assert data(result)["systemConfig"]["packages"][-1] == "zz-new-package"
    removed, added = changed_lines(result.diff)
    new_lines = [line for line in added if line.strip() not in {r.strip() for r in removed}]
    had_list = isinstance((before.get("systemConfig") or {}).get("packages"), list)
    if had_list:
        assert [line.strip() for line in new_lines] == ["- zz-new-package"]
        # anything removed came back unchanged but for whitespace (a final newline added)
        assert sorted(r.strip() for r in removed) == sorted(
            a.strip() for a in added if a not in new_lines
        )
        lines = result.text.splitlines()
        at = lines.index(new_lines[0])
        neighbour = lines[at - 1]
        assert neighbour.strip().startswith(("-", "#", "packages:")), neighbour
        if neighbour.strip().startswith("- "):
            assert len(neighbour) - len(neighbour.lstrip()) == len(new_lines[0]) - len(
                new_lines[0].lstrip()
            )
    else:
        assert "packages:" in "".join(new_lines)


def test_the_added_item_keeps_a_list_level_with_its_key() -> None:
    text = SMALL.replace("    - ubuntu-minimal\n", "  - ubuntu-minimal\n", 1).replace(
        "    - openssh-server", "  - openssh-server"
    )
    text = text.replace("    - vim-tiny\n    - vim-common\n", "  - vim-tiny\n  - vim-common\n")
    result = apply(text, ep.AddPackages(packages=["htop"]))
    assert "  - vim-common\n  - htop\n  # the kernel" in result.text
    assert changed_lines(result.diff) == ([], ["  - htop"])


def test_a_comment_after_a_list_stays_above_the_key_it_describes() -> None:
    result = apply(SMALL, ep.AddPackages(packages=["htop"]))
    assert "    - vim-common\n    - htop\n  # the kernel comes from the HWE stack\n" in result.text
    assert "openssh-server  # remote access\n" in result.text


@pytest.mark.parametrize("path", OURS, ids=lambda p: p.name)
def test_rendering_changed_sections_only_matches_a_full_dump(path: Path) -> None:
    text = path.read_text()
    parsed = sections.parse(text)
    for operations in (
        [ep.AddPackages(packages=["htop"])],
        [ep.SetHostname(hostname="edge-01"), ep.SetKernel(append_cmdline=["quiet"])],
        [ep.SetDiskSize(size="64GiB"), ep.SetMetadata(keywords=["a", "b"])],
        [ep.SetTarget(arch="aarch64"), ep.RemovePackages(packages=["openssh-server"])],
    ):
        editor = Editor(clone(parsed.doc), parsed.style)
        for op in operations:
            applier_entry.apply_op(editor, op)
        full = merge(text, parsed.base(None), dump(editor.doc, parsed.style))
        assert sections.render(parsed, editor.doc) == full


def test_crlf_line_endings_and_a_byte_order_mark_survive() -> None:
    text = "\ufeff" + SMALL.replace("\n", "\r\n")
    result = apply(text, ep.SetHostname(hostname="box"))
    assert result.text.startswith("\ufeff# header comment\r\n")
    assert "\n" not in result.text.replace("\r\n", "")
    assert data(result.text.lstrip("\ufeff"))["systemConfig"]["hostname"] == "box"


def test_a_file_without_a_final_newline_is_edited_cleanly() -> None:
    result = apply(SMALL.rstrip("\n"), ep.SetHostname(hostname="box"))
    assert result.text.endswith("      - linux-image-generic")
    assert data(result)["systemConfig"]["hostname"] == "box"


def test_malformed_yaml_and_non_mappings_raise_a_user_error_with_a_fix() -> None:
    with pytest.raises(UserInputError, match="not valid YAML .*at line 3") as caught:
        apply("image:\n  name: [x\n", ep.SetHostname(hostname="a"))
    assert caught.value.fix
    with pytest.raises(UserInputError, match="not a YAML mapping"):
        apply("- a\n- b\n", ep.SetHostname(hostname="a"))


def test_unified_diff_is_empty_for_equal_texts_and_labels_both_sides() -> None:
    assert unified_diff("a\n", "a\n", "t.yml") == ""
    diff = unified_diff("a\nb\n", "a\nc", "t.yml")
    assert diff.startswith("--- a/t.yml\n+++ b/t.yml\n")
    assert "-b\n+c\n\\ No newline at end of file\n" in diff


def test_concurrent_applies_agree() -> None:
    results: list[str] = []
    ops = plan(ep.AddPackages(packages=["htop"]), ep.SetDiskSize(size="16GiB"))

    def work() -> None:
        for _ in range(5):
            results.append(apply_plan(WEB.read_text(), ops).text)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(results)) == 1 and len(results) == 30


# --- set_target --------------------------------------------------------------------------


def test_an_arch_change_fixes_everything_that_depends_on_it() -> None:
    result = apply(WEB.read_text(), ep.SetTarget(arch="aarch64"))
    new = data(result)
    assert new["target"]["arch"] == "aarch64"
    root = new["disk"]["partitions"][1]
    assert root["type"] == "linux-root-arm64"
    assert "console=ttyAMA0,115200" in new["systemConfig"]["kernel"]["cmdline"]
    assert "ttyS0" not in new["systemConfig"]["kernel"]["cmdline"]
    assert new["image"]["name"] == "ubuntu24-aarch64-web-server-raw"
    assert "grub-efi-arm64" in new["systemConfig"]["packages"]
    assert "grub-efi-amd64" not in new["systemConfig"]["packages"]
    assert result.applied[0] == "target arch x86_64 -> aarch64"
    assert "linux-root-amd64 -> linux-root-arm64" in result.applied[1]
    assert any("check that every package exists for aarch64" in w for w in result.warnings)
    assert error_codes(result.text) == []


def test_an_arch_change_updates_the_root_type_guid_and_back() -> None:
    there = apply(SMALL, ep.SetTarget(arch="aarch64"))
    root = data(there)["disk"]["partitions"][1]
    assert root["typeUUID"] == "b921b045-1df0-41c3-af44-4c6f280d3fae"
    back = apply(there.text, ep.SetTarget(arch="x86_64"))
    assert back.text == SMALL


def test_an_os_change_brings_a_matching_dist_and_a_family_warning() -> None:
    result = apply(SMALL, ep.SetTarget(os="azure-linux"))
    assert data(result)["target"] == {
        "os": "azure-linux",
        "dist": "azl3",
        "arch": "x86_64",
        "imageType": "raw",
    }
    assert "target os ubuntu -> azure-linux, dist ubuntu24 -> azl3" in result.applied
    assert any("deb to a rpm distribution" in w for w in result.warnings)


@pytest.mark.parametrize(
    ("op", "reason"),
    [
        (ep.SetTarget(os="fedora"), "unknown os 'fedora'"),
        (ep.SetTarget(os="ubuntu", dist="azl3"), "does not belong to os ubuntu"),
        (ep.SetTarget(dist="el10"), "does not belong to os ubuntu"),
        (ep.SetTarget(), "nothing to set"),
    ],
)
def test_bad_targets_are_refused_and_change_nothing(op: ep.SetTarget, reason: str) -> None:
    result = apply(SMALL, op)
    assert result.text == SMALL
    assert len(result.not_applied) == 1 and reason in result.not_applied[0]
    assert result.not_applied[0].startswith("not applied: set target")


def test_switching_an_iso_to_raw_creates_a_disk_layout() -> None:
    result = apply(ISO.read_text(), ep.SetTarget(image_type="raw"))
    disk = data(result)["disk"]
    assert disk["size"] == "8GiB"
    assert [p["mountPoint"] for p in disk["partitions"]] == ["/boot/efi", "/"]
    assert error_codes(result.text) == []


# --- packages ----------------------------------------------------------------------------


def test_add_packages_skips_names_already_present_and_drops_version_pins() -> None:
    result = apply(SMALL, ep.AddPackages(packages=["htop", "vim-tiny", "nginx>=1.24", "htop"]))
    assert data(result)["systemConfig"]["packages"][-2:] == ["htop", "nginx"]
    assert result.applied == [
        "added packages htop, nginx (vim-tiny already present) "
        "(version pins dropped from nginx>=1.24)"
    ]


def test_adding_only_present_packages_is_already_so_with_the_reason() -> None:
    result = apply(SMALL, ep.AddPackages(packages=["vim-tiny"]))
    assert result.text == SMALL and result.not_applied == []
    assert result.already == ["add packages vim-tiny: already present"]


def test_kernel_packages_go_to_the_kernel_list_created_when_missing() -> None:
    result = apply(SMALL, ep.AddPackages(packages=["linux-modules-extra"], kernel=True))
    assert data(result)["systemConfig"]["kernel"]["packages"] == [
        "linux-image-generic",
        "linux-modules-extra",
    ]
    no_kernel = SMALL.split("  # the kernel")[0]
    created = apply(no_kernel, ep.AddPackages(packages=["linux-image-generic"], kernel=True))
    assert data(created)["systemConfig"]["kernel"] == {"packages": ["linux-image-generic"]}


def test_a_missing_package_list_is_created() -> None:
    result = apply(
        ISO.read_text().replace("  packages:\n", "  pkgs:\n"), ep.SetHostname(hostname="x")
    )
    assert "packages" not in data(result)["systemConfig"]
    text = "image: {name: a, version: '1'}\ntarget: {os: ubuntu}\n"
    created = apply(text, ep.AddPackages(packages=["curl"]))
    assert data(created)["systemConfig"] == {"packages": ["curl"]}


def test_an_invalid_package_name_is_refused() -> None:
    result = apply(SMALL, ep.AddPackages(packages=["bad name!"]))
    assert result.text == SMALL
    assert "'bad name!' is not a package name" in result.not_applied[0]


def test_remove_packages_takes_globs_exact_names_and_both_lists() -> None:
    result = apply(SMALL, ep.RemovePackages(packages=["vim*", "linux-image-generic", "nosuch"]))
    system = data(result)["systemConfig"]
    assert system["packages"] == ["ubuntu-minimal", "openssh-server"]
    assert system["kernel"]["packages"] == []
    assert result.applied == ["removed packages vim-tiny, vim-common, linux-image-generic"]
    assert result.not_applied == ["not applied: remove packages nosuch: not in the package lists"]
    assert "  # the kernel comes from the HWE stack\n  kernel:" in result.text


def test_removing_an_item_keeps_the_comment_between_it_and_the_next_key() -> None:
    result = apply(SMALL, ep.RemovePackages(packages=["vim-common"]))
    assert "    - vim-tiny\n  # the kernel comes from the HWE stack\n" in result.text
    assert changed_lines(result.diff) == (["    - vim-common"], [])


# --- disk size and partitions --------------------------------------------------------------


def test_disk_size_changes_and_reports_old_and_new() -> None:
    result = apply(WEB.read_text(), ep.SetDiskSize(size="16GiB"))
    assert data(result)["disk"]["size"] == "16GiB"
    assert result.applied == ["disk size 12GiB -> 16GiB"]
    assert changed_lines(result.diff) == (["  size: 12GiB"], ["  size: 16GiB"])


def test_shrinking_the_disk_below_what_the_other_partitions_need_is_refused() -> None:
    # www (3GiB) and the ESP leave no room for a 1GiB root and the logs on 4GiB
    result = apply(WEB.read_text(), ep.SetDiskSize(size="4GiB"))
    assert not result.changed
    assert result.not_applied[0].startswith("not applied: set disk size 4GiB: ")
    assert "the disk must be at least 5GiB" in result.not_applied[0]
    tight = apply(SMALL, ep.SetDiskSize(size="1537MiB"))
    assert "so the disk must be at least 2GiB" in tight.not_applied[0]
    assert not apply(SMALL, ep.SetDiskSize(size="1538MiB")).not_applied


@pytest.mark.parametrize("size", ["lots", "0", "-3GiB"])
def test_a_disk_size_that_is_not_a_size_is_refused(size: str) -> None:
    result = apply(SMALL, ep.SetDiskSize(size=size))
    assert not result.changed and "is not a size" in result.not_applied[0]


def test_a_disk_is_created_for_a_raw_template_without_one() -> None:
    text = ISO.read_text().replace("imageType: iso", "imageType: raw")
    for arch, root_type, guid in (
        ("x86_64", "linux-root-amd64", "4f68bce3-e8cd-4db1-96e7-fbcaf984b709"),
        ("aarch64", "linux-root-arm64", "b921b045-1df0-41c3-af44-4c6f280d3fae"),
    ):
        source = text.replace("arch: x86_64", f"arch: {arch}")
        result = apply(source, ep.SetDiskSize(size="6GiB"))
        disk = data(result)["disk"]
        assert disk["size"] == "6GiB" and disk["partitionTableType"] == "gpt"
        assert disk["artifacts"] == [{"type": "raw"}]
        esp, root = disk["partitions"]
        assert esp["type"] == "esp" and esp["fsType"] == "fat32"
        assert esp["typeUUID"] == "c12a7328-f81f-11d2-ba4b-00a0c93ec93b"
        assert (esp["start"], esp["end"], esp["mountPoint"]) == ("1MiB", "513MiB", "/boot/efi")
        assert esp["flags"] == ["esp", "boot"]
        assert (root["type"], root["typeUUID"], root["end"]) == (root_type, guid, "0")
        assert error_codes(result.text) == []
        assert "\n\ndisk:\n" in result.text and "\n\nsystemConfig:" in result.text


def test_no_disk_is_created_for_an_iso_image() -> None:
    result = apply(ISO.read_text(), ep.SetDiskSize(size="8GiB"))
    assert not result.changed and "set imageType raw first" in result.not_applied[0]


def test_a_partition_is_carved_before_the_rest_of_disk_partition() -> None:
    result = apply(SMALL, ep.AddPartition(id="logs", mount_point="/var/log", size="2GiB"))
    assert partitions(result) == {
        "boot": ("1MiB", "513MiB"),
        "rootfs": ("513MiB", "4609MiB"),
        "logs": ("4609MiB", "6657MiB"),
        "data": ("6657MiB", "0"),
    }
    assert [p["id"] for p in data(result)["disk"]["partitions"]] == [
        "boot",
        "rootfs",
        "logs",
        "data",
    ]
    assert "    - id: logs" in result.text.split("# the data partition takes what is left")[0]
    assert result.applied == [
        "added partition logs (ext4, /var/log, 2GiB) at 4609MiB-6657MiB; "
        "data 4609MiB-0 -> 6657MiB-0"
    ]
    assert error_codes(result.text) == []


def test_a_partition_goes_after_a_fixed_last_partition_when_it_fits() -> None:
    fixed = SMALL.replace('end: "0"', "end: 6657MiB")
    result = apply(fixed, ep.AddPartition(id="logs", mount_point="/var/log", size="1GiB"))
    assert partitions(result)["logs"] == ("6657MiB", "7681MiB")
    rest = apply(
        fixed, ep.AddPartition(id="logs", mount_point="/var/log", size=None, fs_type="xfs")
    )
    assert partitions(rest)["logs"] == ("6657MiB", "0")
    assert error_codes(rest.text) == []


@pytest.mark.parametrize(
    ("op", "reason"),
    [
        (ep.AddPartition(id="x", mount_point="/x"), "already takes the rest of the disk"),
        (ep.AddPartition(id="data", mount_point="/x", size="1GiB"), "id data is already used"),
        (ep.AddPartition(id="x", mount_point="/data/", size="1GiB"), "/data/ is already the mount"),
        (ep.AddPartition(id="x", mount_point="data", size="1GiB"), "must be an absolute path"),
        (ep.AddPartition(id="x", mount_point="/x", size="lots"), "is not a size"),
    ],
)
def test_partitions_that_do_not_fit_or_clash_are_refused(op: ep.AddPartition, reason: str) -> None:
    result = apply(SMALL, op)
    assert not result.changed
    assert reason in result.not_applied[0], result.not_applied


def test_a_partition_that_does_not_fit_grows_the_disk_and_says_so() -> None:
    # a product decision (issue 21, round 4): the partition asked for is what the user
    # wants; the disk grows to the smallest whole size that holds it, as an assumption
    result = apply(SMALL, ep.AddPartition(id="big", mount_point="/big", size="4GiB"))
    assert data(result)["disk"]["size"] == "9GiB"
    assert partitions(result)["big"] == ("4609MiB", "8705MiB")
    assert partitions(result)["data"] == ("8705MiB", "0")
    assert result.applied[0] == "disk size 8GiB -> 9GiB"
    assert any("assumed: the disk grows from 8GiB to 9GiB" in w for w in result.warnings)
    assert error_codes(result.text) == []


def test_a_decimal_disk_size_grows_in_decimal_units() -> None:
    decimal = SMALL.replace("size: 8GiB", "size: 8GB")
    result = apply(decimal, ep.AddPartition(id="big", mount_point="/big", size="4GiB"))
    # 9GiB (9.66 GB) hold it: the smallest whole decimal size above is 10GB
    assert data(result)["disk"]["size"] == "10GB"
    assert error_codes(result.text) == []


def test_add_partition_needs_a_disk_layout() -> None:
    netboot = OUR_TEMPLATES / "ubuntu24-x86_64-netboot-initrd.yml"
    result = apply(netboot.read_text(), ep.AddPartition(id="x", mount_point="/x", size="1GiB"))
    assert "set a disk size first" in result.not_applied[0]


def test_a_partition_on_an_installer_lays_out_the_disk_it_installs_on() -> None:
    # the composer's ISO defaults have an ESP and a root on the rest ("optional for ISO"):
    # written out, the new partition goes before the root, with no disk size or artifact
    result = apply(ISO.read_text(), ep.AddPartition(id="logs", mount_point="/var/log", size="2GiB"))
    assert result.not_applied == []
    assert partitions(result) == {
        "boot": ("1MiB", "513MiB"),
        "logs": ("513MiB", "2561MiB"),
        "rootfs": ("2561MiB", "0"),
    }
    disk = yaml.safe_load(result.text)["disk"]
    assert "size" not in disk and "artifacts" not in disk
    assert error_codes(result.text) == []


def test_resizing_moves_the_partitions_after_it() -> None:
    result = apply(WEB.read_text(), ep.ResizePartition(partition="/", size="4GiB"))
    assert partitions(result) == {
        "boot": ("1MiB", "257MiB"),
        "rootfs": ("257MiB", "4353MiB"),
        "www": ("4353MiB", "7425MiB"),
        "logs": ("7425MiB", "0"),
    }
    assert error_codes(result.text) == []
    # past the disk: the disk grows by what www gains (test_disk_shrink.py has the details)
    grown = apply(WEB.read_text(), ep.ResizePartition(partition="www", size="20GiB"))
    assert not grown.not_applied and data(grown)["disk"]["size"] == "29GiB"


def test_resizing_the_rest_of_disk_partition_gives_it_a_fixed_end() -> None:
    result = apply(SMALL, ep.ResizePartition(partition="data", size="1GiB"))
    assert partitions(result)["data"] == ("4609MiB", "5633MiB")
    same = apply(SMALL, ep.ResizePartition(partition="rootfs", size="4GiB"))
    assert same.not_applied == [] and same.already == [
        "resize partition rootfs to 4GiB: it already has that size"
    ]


def _size(start: str, end: str) -> int:
    from oic_ai.stores.disk_units import parse_size

    return (parse_size(end) or 0) - (parse_size(start) or 0)


def test_a_partition_in_decimal_units_keeps_its_exact_size() -> None:
    # issue 21: 25GB is 25*10^9 bytes, not 25GiB and not rounded to whole MiB
    big = SMALL.replace("size: 8GiB", "size: 40GB")
    result = apply(big, ep.AddPartition(id="docker", mount_point="/var/lib/docker", size="25GB"))
    start, end = partitions(result)["docker"]
    assert (start, end) == ("4833MB", "29833MB")  # after rootfs (4609MiB), on a whole MB
    assert _size(start, end) == 25 * 1000**3
    resized = apply(SMALL, ep.ResizePartition(partition="data", size="2GB"))
    assert _size(*partitions(resized)["data"]) == 2 * 1000**3
    assert error_codes(result.text) == [] and error_codes(resized.text) == []


def test_removing_a_partition_closes_the_gap() -> None:
    result = apply(WEB.read_text(), ep.RemovePartition(partition="www"))
    assert partitions(result) == {
        "boot": ("1MiB", "257MiB"),
        "rootfs": ("257MiB", "6401MiB"),
        "logs": ("6401MiB", "0"),
    }
    assert "Site content is mounted noexec" not in result.text
    assert error_codes(result.text) == []
    last = apply(SMALL, ep.RemovePartition(partition="/data"))
    assert partitions(last) == {"boot": ("1MiB", "513MiB"), "rootfs": ("513MiB", "0")}
    assert "partition rootfs now takes the rest of the disk" in last.applied[0]


@pytest.mark.parametrize(
    ("ref", "reason"),
    [("/", "root filesystem"), ("boot", "EFI system partition"), ("/srv", "no such partition")],
)
def test_root_esp_and_unknown_partitions_are_not_removed(ref: str, reason: str) -> None:
    result = apply(SMALL, ep.RemovePartition(partition=ref))
    assert not result.changed
    assert result.not_applied == [
        f"not applied: remove partition {ref}: " + result.not_applied[0].split(": ", 2)[2]
    ]
    assert reason in result.not_applied[0]


# --- the other operations ------------------------------------------------------------------


def test_set_artifacts_replaces_the_list() -> None:
    result = apply(
        WEB.read_text(), ep.SetArtifacts(artifacts=[ep.Artifact(type="qcow2", compression="zstd")])
    )
    assert data(result)["disk"]["artifacts"] == [{"type": "qcow2", "compression": "zstd"}]
    assert result.applied == ["artifacts -> qcow2 (zstd)"]
    bad = apply(WEB.read_text(), ep.SetArtifacts(artifacts=[ep.Artifact(type="iso")]))
    assert "unknown artifact type 'iso'" in bad.not_applied[0]


def test_set_hostname_validates_and_reports() -> None:
    result = apply(SMALL, ep.SetHostname(hostname="edge-01"))
    assert data(result)["systemConfig"]["hostname"] == "edge-01"
    assert result.applied == ["hostname unset -> edge-01"]
    assert "  name: small\n  hostname: edge-01\n  packages:" in result.text
    bad = apply(SMALL, ep.SetHostname(hostname="edge_01"))
    assert "not a valid hostname" in bad.not_applied[0]


def test_set_kernel_appends_new_arguments_and_replaces_changed_values() -> None:
    result = apply(
        SMALL,
        ep.SetKernel(version="6.12", append_cmdline=["isolcpus=2-3", "loglevel=7", "console=tty0"]),
    )
    kernel = data(result)["systemConfig"]["kernel"]
    assert kernel["version"] == "6.12"
    assert kernel["cmdline"] == "console=tty0 console=ttyS0,115200 loglevel=7 isolcpus=2-3"
    assert '    version: "6.12"\n    cmdline: "console=tty0' in result.text
    whole = apply(SMALL, ep.SetKernel(cmdline="quiet  splash"))
    assert data(whole)["systemConfig"]["kernel"]["cmdline"] == "quiet splash"


def test_set_bootloader_refuses_systemd_boot_with_legacy_boot() -> None:
    result = apply(SMALL, ep.SetBootloader(provider="systemd-boot", boot_type="efi"))
    assert data(result)["systemConfig"]["bootloader"] == {
        "bootType": "efi",
        "provider": "systemd-boot",
    }
    bad = apply(SMALL, ep.SetBootloader(provider="systemd-boot", boot_type="legacy"))
    assert "systemd-boot only boots with efi" in bad.not_applied[0]


def test_secure_boot_adds_key_paths_with_a_warning_and_removes_them() -> None:
    result = apply(SMALL, ep.SetImmutability(enabled=True, secure_boot=True))
    immutability = data(result)["systemConfig"]["immutability"]
    assert immutability == {
        "enabled": True,
        "secureBootDBKey": "${SB_KEYS}/db.key",
        "secureBootDBCrt": "${SB_KEYS}/db.crt",
        "secureBootDBCer": "${SB_KEYS}/db.cer",
    }
    assert any("SB_KEYS" in w for w in result.warnings)
    assert error_codes(result.text) == []
    off = apply(SECURE.read_text(), ep.SetImmutability(enabled=True, secure_boot=False))
    assert data(off)["systemConfig"]["immutability"] == {"enabled": True}
    disabled = apply(SECURE.read_text(), ep.SetImmutability(enabled=False))
    assert data(disabled)["systemConfig"]["immutability"] == {"enabled": False}
    assert error_codes(disabled.text) == []
    refused = apply(SMALL, ep.SetImmutability(enabled=False, secure_boot=True))
    assert "need immutability enabled" in refused.not_applied[0]


def test_add_user_never_writes_a_password_only_a_placeholder_and_a_warning() -> None:
    deb = apply(SMALL, ep.AddUser(name="ops", sudo=True, shell="/bin/bash"))
    user = data(deb)["systemConfig"]["users"][0]
    assert user == {
        "name": "ops",
        "password": "<PASSWORD_HASH>",
        "hash_algo": "sha512",
        "groups": ["sudo"],
        "sudo": True,
        "shell": "/bin/bash",
    }
    assert "      groups: [sudo]\n" in deb.text
    assert any("placeholder password <PASSWORD_HASH>" in w for w in deb.warnings)
    codes = {f.code for f in validate_text(deb.text).warnings}
    assert "placeholder-value" in codes and "plaintext-password" not in codes
    rpm = apply(EL_MINIMAL.read_text(), ep.AddUser(name="ops", sudo=True))
    assert data(rpm)["systemConfig"]["users"][-1]["groups"] == ["wheel"]
    given = apply(SMALL, ep.AddUser(name="ops", sudo=True, groups=["admin"]))
    assert data(given)["systemConfig"]["users"][0]["groups"] == ["admin"]
    again = apply(deb.text, ep.AddUser(name="ops"))
    assert "user ops already exists" in again.not_applied[0]
    bad = apply(SMALL, ep.AddUser(name="Ops User"))
    assert "must be lower-case" in bad.not_applied[0]


def test_add_repository_quotes_values_and_uses_the_key_placeholder_when_needed() -> None:
    result = apply(SMALL, ep.AddRepository(url="https://download.docker.com/linux/ubuntu"))
    assert data(result)["packageRepositories"] == [
        {
            "codename": "noble",
            "url": "https://download.docker.com/linux/ubuntu",
            "pkey": "<PUBLIC_KEY_URL>",
        }
    ]
    assert '  - codename: "noble"\n' in result.text
    assert any("placeholder key" in w for w in result.warnings)
    assert any("codename 'noble' was assumed" in w for w in result.warnings)
    assert error_codes(result.text) == []
    again = apply(result.text, ep.AddRepository(url="https://download.docker.com/linux/ubuntu/"))
    assert "already there" in again.not_applied[0]


@pytest.mark.parametrize(
    ("template", "codename"),
    [("debian13-x86_64-minimal-raw.yml", "trixie"), ("elxr12-x86_64-minimal-raw.yml", "")],
)
def test_add_repository_assumes_only_the_registry_s_repository_codenames(
    template: str, codename: str
) -> None:
    text = (OUR_TEMPLATES / template).read_text()
    result = apply(text, ep.AddRepository(url="https://example.com/extra"))
    if codename:
        assert any(f"codename '{codename}' was assumed" in w for w in result.warnings)
    else:  # eLxr's codename (aria) is known but not assumed for a new repository
        assert "needs a codename" in result.not_applied[0]


def test_set_metadata_puts_a_new_block_on_top_below_the_header_comment() -> None:
    result = apply(SMALL, ep.SetMetadata(description="Small box", keywords=["small", "edge"]))
    assert result.text.startswith(
        '# header comment\nmetadata:\n  description: "Small box"\n  keywords:\n'
        "    - small\n    - edge\n\nimage:\n"
    )
    replaced = apply(WEB.read_text(), ep.SetMetadata(use_cases=["serve a blog"]))
    assert data(replaced)["metadata"]["use_cases"] == ["serve a blog"]
    assert '    - "serve a blog"\n  keywords:' in replaced.text


def test_set_image_quotes_the_version() -> None:
    result = apply(SMALL, ep.SetImage(name="tiny", version="2.0"))
    assert data(result)["image"] == {"name": "tiny", "version": "2.0"}
    bad = apply(SMALL, ep.SetImage(name="my image"))
    assert "must use letters" in bad.not_applied[0]


def test_set_by_path_with_selectors_creates_mappings_and_keeps_strings_strings() -> None:
    result = apply(
        SMALL,
        ep.SetValue(path="disk.partitions[id=data].fsType", value="xfs"),
        ep.SetValue(path="disk.artifacts[0].compression", value="zstd"),
        ep.SetValue(path="systemConfig.bootloader.provider", value="grub"),
        ep.SetValue(path="systemConfig.kernel.version", value=6.12),
    )
    new = data(result)
    assert new["disk"]["partitions"][2]["fsType"] == "xfs"
    assert new["disk"]["artifacts"] == [{"type": "raw", "compression": "zstd"}]
    assert new["systemConfig"]["bootloader"] == {"provider": "grub"}
    assert new["systemConfig"]["kernel"]["version"] == "6.12"
    assert result.applied[0] == "set disk.partitions[id=data].fsType: ext4 -> xfs"


@pytest.mark.parametrize(
    ("op", "reason"),
    [
        (ep.SetValue(path="disk.partitions[id=nope].fsType", value="xfs"), "no item with id=nope"),
        (ep.SetValue(path="disk.partitions[9].fsType", value="xfs"), "out of range"),
        (ep.SetValue(path="image.name.x", value="y"), "image.name is not a mapping"),
        (ep.SetValue(path="a.b[0].c", value="y"), "no such list a.b"),
        (ep.SetValue(path="disk..x", value="y"), "cannot be read"),
        (ep.DeleteValue(path="systemConfig.nothing"), "no such key"),
        (ep.DeleteValue(path="disk.partitions[id=nope]"), "no item with id=nope"),
    ],
)
def test_bad_paths_are_refused_and_change_nothing(op: Any, reason: str) -> None:
    result = apply(SMALL, op)
    assert result.text == SMALL
    assert reason in result.not_applied[0], result.not_applied


def test_an_operation_the_template_already_meets_is_no_refusal() -> None:
    result = apply(SMALL, ep.SetValue(path="image.name", value="small"))
    assert result.text == SMALL and result.not_applied == []
    assert result.already == ["set image.name: it already has that value"]


def test_delete_removes_keys_and_list_items() -> None:
    result = apply(
        SMALL,
        ep.DeleteValue(path="disk.partitions[id=data]"),
        ep.DeleteValue(path="systemConfig.kernel.version"),
        ep.DeleteValue(path="systemConfig.packages[0]"),
    )
    new = data(result)
    assert [p["id"] for p in new["disk"]["partitions"]] == ["boot", "rootfs"]
    assert "version" not in new["systemConfig"]["kernel"]
    assert new["systemConfig"]["packages"][0] == "openssh-server"
    assert result.applied == [
        "deleted disk.partitions[id=data]",
        "deleted systemConfig.kernel.version",
        "deleted systemConfig.packages[0]",
    ]


def test_plan_level_notes_come_first_in_the_result() -> None:
    result = apply_plan(
        SMALL,
        plan(ep.SetHostname(hostname="edge_01"), not_applied=["make it fast"], warnings=["w"]),
    )
    assert result.not_applied[0] == "make it fast"
    assert result.not_applied[1].startswith("not applied: set hostname edge_01:")
    assert result.warnings == ["w"]


# --- realistic plans on every template -------------------------------------------------


def realistic(text: str) -> ep.EditPlan:
    source = data(text)
    arch = source["target"]["arch"]
    operations: list[Any] = [
        ep.AddPackages(packages=["curl", "htop"]),
        ep.SetHostname(hostname="edge-01"),
        ep.SetKernel(append_cmdline=["quiet"]),
        ep.AddUser(name="ops", sudo=True),
        ep.SetMetadata(keywords=["edge", "custom"]),
        ep.SetImmutability(enabled=True, secure_boot=True),
        ep.SetBootloader(provider="grub"),
        ep.AddRepository(
            url="https://example.com/repo", codename="extra", pkey="https://example.com/k"
        ),
        ep.SetTarget(arch="aarch64" if arch == "x86_64" else "x86_64"),
    ]
    if source["target"]["imageType"] == "raw":
        operations += [
            ep.SetDiskSize(size="64GiB"),
            ep.AddPartition(id="extra", mount_point="/srv/extra", size="2GiB"),
            ep.SetArtifacts(artifacts=[ep.Artifact(type="qcow2", compression="zstd")]),
        ]
    return plan(*operations)


@pytest.mark.parametrize("path", OURS, ids=lambda p: p.name)
def test_realistic_plans_keep_every_template_valid(path: Path) -> None:
    text = path.read_text()
    assert error_codes(text) == []
    result = apply_plan(text, realistic(text))
    assert error_codes(result.text) == [], result.diff
    assert [line for line in result.not_applied if "already" not in line] == []
    new = data(result)
    assert new["systemConfig"]["hostname"] == "edge-01"
    assert {"curl", "htop"} <= set(new["systemConfig"]["packages"])


def test_emptying_a_commented_list_writes_valid_yaml() -> None:
    text = (OUR_TEMPLATES / "ubuntu24-aarch64-edge-container-raw.yml").read_text()
    result = apply(text, ep.RemovePackages(packages=["*"]))
    assert data(result)["systemConfig"]["packages"] == []
    assert "  packages: []\n  kernel:\n" in result.text


def test_an_operation_the_writer_cannot_express_is_dropped_not_raised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(applier_entry, "tidy", lambda doc: doc)  # bring back ruamel's bug
    text = (OUR_TEMPLATES / "ubuntu24-aarch64-edge-container-raw.yml").read_text()
    result = apply(text, ep.SetHostname(hostname="edge-01"), ep.RemovePackages(packages=["*"]))
    assert data(result)["systemConfig"]["hostname"] == "edge-01"
    assert len(data(result)["systemConfig"]["packages"]) > 1
    assert result.applied == ["hostname ubuntu-edge -> edge-01"]
    assert result.not_applied == [
        "not applied: remove packages *: the YAML writer could not write the result"
    ]


@pytest.mark.parametrize("path", OURS, ids=lambda p: p.name)
def test_the_merge_base_of_an_exact_template_needs_no_dump(path: Path) -> None:
    parsed = sections.parse(path.read_text())
    assert parsed.exact
    for key, value in parsed.doc.items():
        selections: list[Any] = [((key, None),)]
        if isinstance(value, dict) and len(value) > 1:
            selections.append(((key, frozenset(list(value)[-1:])),))
        for selection in selections:
            dumped = dump(sections._partial(clone(parsed.doc), selection), parsed.style)
            assert sections._original(parsed, selection)[0] == dumped, selection


@pytest.mark.parametrize("path", OURS, ids=lambda p: p.name)
def test_an_applied_result_is_cached_as_exactly_what_ruamel_writes(path: Path) -> None:
    text = path.read_text()
    result = apply_plan(text, realistic(text))
    seeded = sections.parse(result.text)
    assert seeded.exact
    assert dump(clone(seeded.doc), seeded.style) == result.text
    follow = apply(result.text, ep.AddPackages(packages=["jq-extra"]))
    assert changed_lines(follow.diff)[0] == []


def test_absurdly_nested_yaml_is_refused_as_user_input() -> None:
    text = "image: " + "[" * 3000 + "]" * 3000 + "\n"
    with pytest.raises(UserInputError, match="not valid YAML"):
        apply(text, ep.SetHostname(hostname="a"))


# One instance of every operation type, with what it says for a plan's summary
# (``describe``, as the builtin planner words it) and for a "not applied" line (``label``).
DESCRIBED: list[tuple[Any, str, str]] = [
    (
        ep.SetTarget(os="ubuntu", dist="ubuntu24", arch="aarch64", image_type="raw"),
        "retarget to os ubuntu, dist ubuntu24, arch aarch64, image type raw",
        "set target os ubuntu, dist ubuntu24, arch aarch64, imageType raw",
    ),
    (
        ep.SetImage(name="edge", version="1.2"),
        "name it edge and set version 1.2",
        "set image edge, 1.2",
    ),
    (
        ep.AddPackages(packages=["docker.io", "htop"]),
        "add docker.io, htop",
        "add packages docker.io, htop",
    ),
    (
        ep.AddPackages(packages=["linux-firmware"], kernel=True),
        "add kernel packages linux-firmware",
        "add kernel packages linux-firmware",
    ),
    (
        ep.RemovePackages(packages=["vim*", "nano"]),
        "remove vim*, nano",
        "remove packages vim*, nano",
    ),
    (ep.SetDiskSize(size="16GiB"), "set the disk to 16GiB", "set disk size 16GiB"),
    (
        ep.AddPartition(id="data", mount_point="/data", size="2GiB"),
        "add an ext4 /data partition (2GiB)",
        "add partition /data",
    ),
    (
        ep.AddPartition(id="logs", mount_point="/var/log", fs_type="xfs"),
        "add a xfs /var/log partition (rest of disk)",
        "add partition /var/log",
    ),
    (
        ep.ResizePartition(partition="rootfs", size="4GiB"),
        "resize partition rootfs to 4GiB",
        "resize partition rootfs to 4GiB",
    ),
    (ep.RemovePartition(partition="/data"), "remove partition /data", "remove partition /data"),
    (
        ep.SetArtifacts(
            artifacts=[ep.Artifact(type="raw"), ep.Artifact(type="qcow2", compression="zstd")]
        ),
        "write raw, qcow2+zstd",
        "set artifacts raw, qcow2",
    ),
    (ep.SetHostname(hostname="gw1"), "set the hostname to gw1", "set hostname gw1"),
    (
        ep.SetKernel(version="6.12", cmdline="quiet", append_cmdline=["isolcpus=2-3", "nohz=on"]),
        "use kernel 6.12, set the kernel cmdline to 'quiet', "
        "append isolcpus=2-3 nohz=on to the kernel cmdline",
        "set kernel",
    ),
    (
        ep.SetBootloader(provider="systemd-boot", boot_type="efi"),
        "boot with systemd-boot, efi boot",
        "set bootloader systemd-boot, efi",
    ),
    (
        ep.SetImmutability(enabled=True, secure_boot=True),
        "turn immutability on, secure boot on",
        "enable immutability",
    ),
    (ep.SetImmutability(enabled=False), "turn immutability off", "disable immutability"),
    (
        ep.AddUser(name="ops", groups=["docker"], sudo=True),
        "add user ops (groups docker, sudo)",
        "add user ops",
    ),
    (
        ep.AddRepository(url="https://repo.example.com/apt"),
        "add repository https://repo.example.com/apt",
        "add repository https://repo.example.com/apt",
    ),
    (ep.SetMetadata(keywords=["edge"]), "set_metadata", "set metadata"),
    (
        ep.SetValue(path="systemConfig.kernel.cmdline", value="quiet"),
        "set systemConfig.kernel.cmdline to quiet",
        "set systemConfig.kernel.cmdline",
    ),
    (ep.DeleteValue(path="disk.artifacts[1]"), "delete", "delete disk.artifacts[1]"),
]


def test_every_operation_type_describes_and_labels_itself() -> None:
    kinds = {type(op) for op, _, _ in DESCRIBED}
    assert kinds == set(get_args(get_args(ep.Operation)[0]))
    for op, summary, label in DESCRIBED:
        assert op.describe() == summary
        assert op.label() == label


def test_a_refused_operation_is_named_by_its_label() -> None:
    result = apply(SMALL, ep.SetBootloader(provider="systemd-boot", boot_type="legacy"))
    assert result.not_applied == [
        "not applied: set bootloader systemd-boot, legacy: systemd-boot only boots with efi"
    ]
