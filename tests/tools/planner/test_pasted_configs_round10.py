"""Snippets from other image builders read by their fields, and what is said around them (round 10).

The sentences were written for these tests: kickstart commands pasted without the word
"kickstart", a logical volume read as the partition it mounts, Yocto variables inside
backticks or named in prose, an mkosi key in a sentence naming mkosi, Packer HCL in a
sentence, cloud-init's package_upgrade, a clause that only asks for the pasted lines again,
a read-only root file system, a removal of a partition the disk does not have, one
partition said twice, and a pasted block that keeps its lines after a reference is cut out.
"""

from __future__ import annotations

from oic_ai.nodes.classify import route_request
from oic_ai.tools.planner import plan_request
from oic_ai.tools.planner.configs import read_configs
from oic_ai.tools.planner.pasted import read_pasted_all
from oic_ai.tools.references import remainder
from oic_ai.tools.retrieval.base_choice import read_purpose
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import ops_by_key

EL10 = (OUR_TEMPLATES / "el10-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
NETBOOT = (OUR_TEMPLATES / "elxr12-x86_64-netboot-initrd.yml").read_text(encoding="utf-8")


def _plan(said: str, template: str = EL10) -> tuple[dict[str, dict[str, object]], list[str]]:
    plan = plan_request(said, template, mode="refine")
    return ops_by_key(plan, ("add_user", "add_partition")), plan.not_applied


def test_kickstart_commands_with_options_are_read_without_the_word_kickstart() -> None:
    ops, not_applied = _plan(
        "port these over: `user --name=deployer --groups=wheel,adm` and "
        '`bootloader --append="nomodeset crashkernel=256M"`'
    )
    assert ops["add_user:deployer"]["groups"] == ["wheel", "adm"]
    assert "crashkernel=256M" in str(ops["set_kernel"])
    assert not any("--name" in item for item in not_applied), not_applied


def test_a_logical_volume_is_the_partition_it_mounts_and_saying_it_twice_adds_one() -> None:
    ops, not_applied = _plan(
        "the ks had `logvol /srv --size=3072 --name=srv --fstype=xfs`. "
        "I want /srv as a 3 GiB partition"
    )
    assert ops["add_partition:/srv"]["size"] in ("3GiB", "3072MiB")
    assert ops["add_partition:/srv"]["fs_type"] == "xfs"
    assert not not_applied, not_applied


def test_the_core_package_group_is_the_base_and_other_groups_are_reported() -> None:
    rewritten, notices, unmapped = read_configs(
        "ks.cfg:\n%packages\n@^minimal-environment\n@development-tools\nnmap\n%end\n"
    )
    assert "add the packages nmap" in rewritten
    assert any("@^minimal-environment" in n for n in notices)
    assert len(unmapped) == 1 and "@development-tools" in unmapped[0]
    assert "minimal-environment" not in unmapped[0]


def test_yocto_variables_in_backticks_and_in_prose() -> None:
    rewritten, _, unmapped = read_configs(
        'our recipe: `CORE_IMAGE_EXTRA_INSTALL += "socat"`, `EXTRA_IMAGE_FEATURES += '
        '"ssh-server-dropbear tools-debug"` and `APPEND += "quiet mitigations=off"`. '
        'Also IMAGE_ROOTFS_SIZE = "6291456"'
    )
    assert "add the packages socat" in rewritten and "`" not in rewritten
    assert "add the packages dropbear" in rewritten
    assert "kernel cmdline: quiet mitigations=off" in rewritten
    assert "disk size 6GiB" in rewritten
    assert len(unmapped) == 1 and "tools-debug" in unmapped[0]
    ops, _ = _plan("in local.conf IMAGE_FEATURES has read-only-rootfs, keep that behaviour")
    assert ops["set_immutability"]["enabled"] is True


def test_one_mkosi_key_in_a_sentence_naming_mkosi_and_a_release_said_in_prose() -> None:
    rewritten, _, _ = read_configs("our mkosi.conf sets Hostname=build-07. also add jq")
    assert "hostname build-07;" in rewritten and "mkosi" not in rewritten
    # "Release=" followed by words is prose about a key, not a pasted value
    said = "Release= would be plucky there, right?"
    assert read_configs(said)[0] == said


def test_mkosi_bootable_is_what_every_image_is() -> None:
    _, notices, unmapped = read_configs("Format=disk\nBootable=yes\nPackages=jq\n")
    assert not unmapped and any("Bootable" in n for n in notices)


def test_packer_keys_inside_a_sentence() -> None:
    ops, not_applied = _plan(
        'our packer template has source "qemu" "edge" with format = "qcow2" and '
        'disk_size = "12288", nothing else'
    )
    assert ops["set_disk_size"]["size"] in ("12GiB", "12288MiB")
    assert "qcow2" in str(ops)
    assert not any("qemu" in item for item in not_applied), not_applied


def test_cloud_init_package_upgrade_is_what_the_build_does() -> None:
    said = "#cloud-config\npackage_update: true\npackages:\n  - jq\n"
    _, notices, unmapped = read_pasted_all(said)
    assert not unmapped
    assert any("package_update" in n for n in notices)


def test_a_read_only_root_file_system_is_immutability_not_a_partition() -> None:
    ops, _ = _plan("compliance asks for the root filesystem read-only on these units")
    assert ops["set_immutability"]["enabled"] is True
    assert not any(key.startswith(("resize_partition", "add_partition")) for key in ops)


def test_no_separate_partition_where_the_disk_has_none_adds_nothing() -> None:
    ops, not_applied = _plan("actually no separate /scratch in the end")
    assert not any("partition" in key for key in ops), ops
    assert not not_applied


def test_a_pasted_block_keeps_its_lines_when_a_reference_is_cut_out() -> None:
    said = "ks.cfg below\n%packages\nnmap\n%end\ngive me the equivalent on el10"
    rest = remainder(said, [(said.index("give"), said.index(" on el10"))])
    assert "%packages\nnmap\n%end" in rest


def test_a_question_then_build_me_one_makes_a_template() -> None:
    said = "We ran Yocto until now. What is the closest thing on Debian 13? build me one"
    assert route_request(said, None)["intent"] == "create"


def test_requirements_then_which_os_asks_before_making_anything() -> None:
    said = "The gateway needs tpm2 and dm-verity. Which of your distros fits that best?"
    assert route_request(said, None)["intent"] == "explain"
    named = "We need Debian 13 with tpm2. Which image type fits that best?"
    assert route_request(named, None)["intent"] != "explain"


def test_a_target_with_keep_everything_else_carries_the_image_over() -> None:
    said = "ok then debian 13 for the arm boards, keep everything else"
    assert route_request(said, EL10)["intent"] == "retarget"


def test_same_said_tersely_or_as_its_own_sentence_carries_the_image_over() -> None:
    route = route_request("ubuntu 24.04 same", NETBOOT)
    assert route["intent"] == "retarget"
    assert route["reference"]["target"]["imageType"] == "img"
    said = "The lab in Osaka wants it on Azure Linux 3. Same spec please."
    assert route_request(said, EL10)["intent"] == "retarget"
    assert route_request("fine, el10 with the same stuff", NETBOOT)["intent"] == "retarget"


def test_a_question_that_names_what_the_next_sentence_acts_on_is_a_change() -> None:
    route = route_request("Why is tcpdump on a kiosk? Drop it, nobody debugs there.", EL10)
    assert route["intent"] == "refine"
    assert not route.get("questions")
    # a second question about it asks nothing either
    for said in (
        "What does the verity setting do? Would it slow the boot?",
        "What if we went with Ubuntu? Does it have an arm build? Just asking.",
    ):
        assert route_request(said, EL10)["intent"] == "explain", said


def test_start_from_a_minimal_image_is_the_base_even_beside_a_product_word() -> None:
    purpose = read_purpose(
        "the image for our parking kiosks. Start from a minimal raw image, add curl",
        packages=["curl"],
        image_type="raw",
    )
    assert purpose.plain and purpose.capabilities == ()


def test_a_pasted_kernel_line_keeps_its_flags_beside_a_console() -> None:
    ops, _ = _plan('ks: `bootloader --append="console=ttyS1,57600 nowatchdog"`')
    kernel = str(ops.get("set_kernel"))
    assert "console=ttyS1,57600" in kernel and "nowatchdog" in kernel


def test_a_sources_list_line_with_signed_by_and_the_key_said_beside_it() -> None:
    ops, not_applied = _plan(
        "the vendor repo is `deb [signed-by=/usr/share/keyrings/x.gpg] "
        "https://pkgs.vendor.example/deb stable main`, key at https://pkgs.vendor.example/k.asc. "
        "the package is vendor-tool, install it from there",
        (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text(encoding="utf-8"),
    )
    repo = ops["add_repository"]
    assert (repo["codename"], repo["component"]) == ("stable", "main")
    assert "vendor-tool" in ops["add_packages"]["packages"]  # type: ignore[operator]
    assert not not_applied, not_applied


def test_a_signed_by_with_no_key_anywhere_is_reported() -> None:
    _, not_applied = _plan(
        "add `deb [signed-by=...] https://pkgs.vendor.example/deb stable main`",
        (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text(encoding="utf-8"),
    )
    assert len(not_applied) == 1 and "key" in not_applied[0] and "not given" in not_applied[0]


def test_a_command_said_as_what_something_is_gives_all_its_packages() -> None:
    ops, _ = _plan(
        "the old boxes were `debootstrap --include=systemd-sysv,socat,lsof trixie /mnt`",
        (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text(encoding="utf-8"),
    )
    assert {"systemd-sysv", "socat", "lsof"} <= set(ops["add_packages"]["packages"])  # type: ignore[arg-type]


def test_a_release_named_then_asked_about_changes_nothing() -> None:
    ubuntu = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    said = "our ImageVersion would be resolute, so 26.04 — does the composer even build ubuntu 26?"
    assert route_request(said, ubuntu)["intent"] == "explain"
    assert (
        route_request("switch to 26.04. Does the composer do ubuntu 26 yet?", ubuntu)["intent"]
        == "retarget"
    )


def test_call_it_in_a_sentence_about_naming_the_devices_is_the_hostname() -> None:
    ops, _ = _plan("The NOC names each gateway by site, so for the master image call it gw-000.")
    assert ops["set_hostname"]["hostname"] == "gw-000" and "set_image_name" not in ops
    ops, _ = _plan("call it gw-000")
    assert "set_hostname" not in ops  # alone, "it" is the image


def test_packer_blocks_and_build_machinery_ask_nothing() -> None:
    said = (
        'We\'re moving off Packer:\n\nsource "qemu" "runner" {\n'
        '  iso_url      = "https://example.invalid/live-server.iso"\n'
        '  disk_size    = "40960M"\n  format       = "qcow2"\n  accelerator  = "kvm"\n'
        '  ssh_username = "packer"\n}\n\nbuild {\n  sources = ["source.qemu.runner"]\n'
        '  provisioner "shell" {\n    inline = ["sudo apt-get install -y git jq"]\n  }\n}\n'
    )
    ops, not_applied = _plan(said)
    assert ops["set_disk_size"]["size"] in ("40GiB", "40960MiB")
    assert not_applied == []  # the build VM's ISO, accelerator and login are no image's


def test_a_packer_key_of_the_image_without_a_field_is_still_reported() -> None:
    _, not_applied = _plan('packer: vm_name = "golden", disk_size = "8192"')
    assert any("vm_name" in item for item in not_applied), not_applied
