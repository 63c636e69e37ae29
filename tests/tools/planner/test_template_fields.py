"""Template fields read as people give them: users, repositories, kernel options, sizes.

The sentences here were written for these tests (issue 21, round 2): each checks a
mechanism (a name list, an attribute said of the user before, a field of an existing
repository, a relative size), not a phrase of the labelled conversations. Each runs
through the planner and the applier, over several turns where the mechanism needs one.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from oic_ai.tools.applier.apply import apply_plan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # console=tty0 console=ttyS0,115200 loglevel=4


def run(*turns: str, template: str = UBUNTU) -> tuple[dict[str, Any], list[str]]:
    """Plan and apply ``turns`` in order; the last template and every turn's not-applied."""
    text = (OUR_TEMPLATES / template).read_text(encoding="utf-8")
    missed: list[str] = []
    for turn in turns:
        plan = plan_request(turn, text, mode="refine")
        applied = apply_plan(text, plan)
        missed += applied.not_applied
        text = applied.text
    return yaml.safe_load(text), missed


def users(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {u["name"]: u for u in doc["systemConfig"].get("users") or []}


def packages(doc: dict[str, Any]) -> list[str]:
    return list(doc["systemConfig"].get("packages") or [])


# users


def test_a_list_of_users_each_with_its_own_attributes() -> None:
    doc, missed = run("accounts: admin (sudo), qa1 and qa2 without sudo, hostname rig-9")
    found = users(doc)
    assert found["admin"].get("sudo") is True
    assert not found["qa1"].get("sudo") and not found["qa2"].get("sudo")
    assert doc["systemConfig"]["hostname"] == "rig-9"
    assert not {"admin", "qa1", "qa2"} & set(packages(doc))
    assert missed == []


def test_a_name_said_as_the_subject_of_its_attributes() -> None:
    doc, missed = run(
        "Logins: kim gets admin rights and goes in the plugdev group. "
        "visitor gets no sudo whatsoever, and their login shell is /bin/sh."
    )
    found = users(doc)
    assert found["kim"]["sudo"] is True and "plugdev" in found["kim"]["groups"]
    assert not found["visitor"].get("sudo") and found["visitor"]["shell"] == "/bin/sh"


def test_a_sentence_without_a_name_speaks_of_the_user_before_it() -> None:
    doc, missed = run("Make a user 'player', she must not have sudo. And the login shell /bin/zsh.")
    assert users(doc)["player"]["shell"] == "/bin/zsh"
    assert missed == []


def test_a_bare_shell_then_its_path_for_an_existing_user() -> None:
    doc, _ = run("add a user dana", "dana gets fish, /usr/bin/fish")
    assert users(doc)["dana"]["shell"] == "/usr/bin/fish"


def test_a_new_name_after_create_with_user_attributes_is_a_user() -> None:
    doc, missed = run("create qa-runner with no sudo, in the groups kvm and input")
    assert users(doc)["qa-runner"]["groups"] == ["kvm", "input"]
    assert "qa-runner" not in packages(doc)
    assert missed == []


def test_a_package_name_after_add_stays_a_package() -> None:
    doc, _ = run("add htop with sudo")
    assert "htop" not in users(doc)


def test_sudo_yes_and_sudo_no() -> None:
    doc, _ = run("an account named lena, sudo yes", "a user called otto, sudo: no")
    assert users(doc)["lena"]["sudo"] is True
    assert not users(doc)["otto"].get("sudo")
    assert "sudo" not in packages(doc)


def test_joining_words_around_a_user_are_read_with_it() -> None:
    doc, missed = run(
        "and give it a builder user with sudo who is in the docker and kvm groups",
        "make a user 'viewer', he must not have sudo, only the render and video group",
    )
    assert users(doc)["builder"]["groups"] == ["docker", "kvm"]
    assert users(doc)["viewer"]["groups"] == ["render", "video"]
    assert not users(doc)["viewer"].get("sudo")
    assert missed == []


def test_a_verb_before_a_user_in_another_clause_keeps_its_packages() -> None:
    doc, _ = run("it has a camera, so add v4l-utils and put a user called cam in the video group")
    assert "v4l-utils" in packages(doc)
    assert users(doc)["cam"]["groups"] == ["video"]


# repositories

REPO = "add repo url https://pkgs.example.com/deb suite noble key https://pkgs.example.com/k.asc"


def repos(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {r["url"]: r for r in doc.get("packageRepositories") or []}


def test_a_short_priority_and_a_name_given_to_the_repository() -> None:
    doc, missed = run(
        "add repo https://pkgs.example.com/deb, name it vendor-pkgs, "
        "key https://pkgs.example.com/k.asc, prio 250"
    )
    entry = repos(doc)["https://pkgs.example.com/deb"]
    assert entry["codename"] == "vendor-pkgs" and entry["priority"] == 250
    assert missed == []


def test_a_field_of_the_repository_before_is_changed_by_reference() -> None:
    doc, missed = run(
        REPO, "Note: change that repository's component to non-free, and set its priority to 70."
    )
    entry = repos(doc)["https://pkgs.example.com/deb"]
    assert entry["component"] == "non-free" and entry["priority"] == 70
    assert len(repos(doc)) == 1
    assert missed == []


def test_a_corrected_priority_keeps_the_last_value() -> None:
    doc, _ = run(REPO, "priority 800 on that repo. hmm no, 400")
    assert repos(doc)["https://pkgs.example.com/deb"]["priority"] == 400


def test_another_repository_with_the_same_key_and_no_priority() -> None:
    doc, missed = run(
        REPO + " prio 300",
        "Change that mirror's priority to 40. Also add another one, "
        "https://pkgs.example.com/deb2, call it extra-pkgs, same key, no priority.",
    )
    first, second = (
        repos(doc)["https://pkgs.example.com/deb"],
        repos(doc)["https://pkgs.example.com/deb2"],
    )
    assert first["priority"] == 40
    assert second["codename"] == "extra-pkgs" and second["pkey"] == "https://pkgs.example.com/k.asc"
    assert "priority" not in second
    assert missed == []


# kernel options


def cmdline(doc: dict[str, Any]) -> list[str]:
    return str(doc["systemConfig"]["kernel"]["cmdline"]).split()


def test_a_value_for_a_key_without_equals_replaces_the_old_one() -> None:
    doc, missed = run("loglevel 6")
    assert "loglevel=6" in cmdline(doc) and "loglevel=4" not in cmdline(doc)
    assert missed == []


def test_kernel_param_words_before_an_option_are_read_with_it() -> None:
    doc, missed = run("also add the watchdog package and kernel param panic=30")
    assert "panic=30" in cmdline(doc) and "watchdog" in packages(doc)
    assert missed == []


def test_set_it_to_gives_the_option_just_named_a_new_value() -> None:
    doc, missed = run("kernel: add i915.enable_psr=1", "oops psr is wrong, set it to 0")
    assert "i915.enable_psr=0" in cmdline(doc) and "i915.enable_psr=1" not in cmdline(doc)
    assert missed == []


def test_set_it_to_without_a_named_option_changes_no_option() -> None:
    doc, _ = run("set it to 0")
    assert cmdline(doc) == ["console=tty0", "console=ttyS0,115200", "loglevel=4"]


def test_an_entry_of_the_command_line_is_dropped() -> None:
    doc, missed = run("drop the console=tty0 entry")
    assert cmdline(doc) == ["console=ttyS0,115200", "loglevel=4"]
    assert missed == []


def test_a_device_said_without_tty_is_the_console_replaced() -> None:
    doc, missed = run("the serial console must be ttyS2 57600 (not S0), and no vga console")
    assert cmdline(doc) == ["console=ttyS2,57600", "loglevel=4"]
    assert missed == []


# sizes


def disk(doc: dict[str, Any]) -> dict[str, Any]:
    return dict(doc["disk"])


def test_thousands_grouped_with_commas() -> None:
    doc, missed = run("the image should be 30,000 megs")
    assert disk(doc)["size"] == "30000MiB"
    assert missed == []


def test_a_size_relative_to_the_current_one() -> None:
    doc, _ = run("make the disk 20 gig", "now make the disk half again as large")
    assert disk(doc)["size"] == "30GiB"
    doc, _ = run("make the disk 20 gig", "double the disk")
    assert disk(doc)["size"] == "40GiB"


def test_the_value_a_size_corrects_and_in_total_belong_to_it() -> None:
    doc, missed = run("disk 200GB not 1.5", "ok, 80 GiB disk in total")
    assert disk(doc)["size"] == "80GiB"
    assert missed == []


def test_make_it_after_a_partition_resizes_that_partition() -> None:
    doc, missed = run("efi partition, make it 512 megs")
    parts = {p["id"]: p for p in disk(doc)["partitions"]}
    assert (parts["boot"]["start"], parts["boot"]["end"]) == ("1MiB", "513MiB")
    assert parts["rootfs"]["start"] == "513MiB"  # the next one moves
    assert disk(doc)["size"] == "3584MiB"
    assert missed == []


# image outputs and targets


def artifact_types(doc: dict[str, Any]) -> list[str]:
    return [a["type"] for a in disk(doc)["artifacts"]]


def test_another_format_as_well_as_the_current_raw_keeps_the_raw() -> None:
    doc, missed = run("i want vmdk as well as the raw")
    assert disk(doc)["artifacts"] == [{"type": "raw", "compression": "zstd"}, {"type": "vmdk"}]
    assert missed == []


def test_the_output_should_be_sets_the_artifacts() -> None:
    doc, missed = run("Also, the output should be vhdx for the Hyper-V hosts.")
    assert artifact_types(doc) == ["vhdx"]
    assert not [m for m in missed if "output" in m]


def test_centos_stream_10_is_rhel_compatible_10_and_older_ones_are_refused() -> None:
    from oic_ai.tools.retrieval.target_mentions import detect_target_spans

    def found(text: str) -> list[tuple[str, str]]:
        return [(m.kind, m.value) for m in detect_target_spans(text)]

    assert ("dist", "el10") in found("a CentOS Stream 10 raw image")
    assert ("dist", "el10") in found("centos steam 10, x86")  # a typo of stream
    assert found("centos stream 9 please")[0][0] == "unsupported"
    assert found("a centos image")[0][0] == "unsupported"


# a partition for the rest of the disk


def test_the_rest_of_the_disk_taken_already_is_reported_not_made_up() -> None:
    for request in (
        "and /srv with the rest of the disk, xfs",
        "give /home the rest of the disk",
        "a /data partition that takes the rest of the disk",
    ):
        doc, missed = run(request)
        assert [p["id"] for p in disk(doc)["partitions"]] == ["boot", "rootfs"], request
        assert any("already takes the rest of the disk" in m for m in missed), request
        assert packages(doc) == packages(run()[0]), request  # no "xfs" or "srv" package


def test_the_one_for_a_mount_point_the_disk_lacks_is_reported() -> None:
    doc, missed = run("hmm no, drop the /data one again")
    assert any("no /data partition" in m for m in missed)
    assert packages(doc) == packages(run()[0])


def test_sudo_for_an_existing_user_said_before_or_after_its_name() -> None:
    doc, missed = run("add a user bob", "bob should have sudo")
    assert users(doc)["bob"]["sudo"] is True
    doc, missed = run("add a user bob with sudo", "take sudo away from bob")
    assert users(doc)["bob"]["sudo"] is False
    assert "sudo" not in users(doc)["bob"].get("groups", [])  # nor the group that gives it
    doc, missed = run("add a user bob", "make bob an admin")
    assert users(doc)["bob"]["sudo"] is True
    assert missed == []


def test_more_ways_to_change_the_repository_before_and_the_command_line() -> None:
    doc, missed = run(
        "use the mirror at https://pkgs.example.com/deb (suite noble, component main, "
        "key https://pkgs.example.com/k.asc)",
        "bump that repo's priority to 990",
        "its suite should be noble-backports",
        "kernel option mitigations off",
        "nomodeset on the kernel command line please",
    )
    entry = repos(doc)["https://pkgs.example.com/deb"]
    assert (entry["priority"], entry["codename"]) == (990, "noble-backports")
    assert {"mitigations=off", "nomodeset"} <= set(cmdline(doc))
    assert missed == []


def test_a_decimal_comma_and_a_relative_change_by_a_share() -> None:
    doc, _ = run("1,5 TB disk")
    assert disk(doc)["size"] == "1500GB"
    doc, _ = run("make the disk 10 gigs", "grow the disk by 20%")
    assert disk(doc)["size"] == "12GiB"
    doc, _ = run("make the disk 10 gigs", "grow the disk by half")
    assert disk(doc)["size"] == "15GiB"


@pytest.mark.parametrize(
    ("request_text", "hostname"),
    [
        ("host: kiosk-api", "kiosk-api"),  # a host field label names the host
        ("change the host name from kiosk to plc-7", "plc-7"),  # a change takes the new name
    ],
)
def test_the_hostname_from_a_field_label_or_a_change(request_text: str, hostname: str) -> None:
    doc, missed = run(request_text)
    assert doc["systemConfig"]["hostname"] == hostname
    assert missed == []


def test_removing_users_by_a_list_and_never_adding_one_said_with_remove() -> None:
    doc, missed = run(
        "users alice and bob, both in the docker group", "remove the users alice and bob"
    )
    assert users(doc) == {}
    assert missed == []
    doc, missed = run("remove user zed")
    assert "zed" not in users(doc)
    assert any("no user zed" in m for m in missed)


def test_the_data_partition_is_the_one_that_holds_no_system_directory() -> None:
    doc, missed = run(
        "make the disk 40 gigs",
        "give /var/lib/pgsql its own 10 GiB partition, xfs",
        "Hmm, the data partition has to be ext4, not xfs.",
    )
    parts = {p["mountPoint"]: p for p in disk(doc)["partitions"]}
    assert parts["/var/lib/pgsql"]["fsType"] == "ext4"
    assert missed == []
    _, missed = run("the data partition has to be ext4")  # none there: reported
    assert any("no data partition" in m for m in missed)


def test_secure_boot_or_immutability_said_to_be_off_after_a_modal() -> None:
    template = "emt3-x86_64-immutable-secureboot-raw.yml"
    doc, _ = run("secure boot should be off, but the immutable root stays", template=template)
    immutability = doc["systemConfig"]["immutability"]
    assert immutability["enabled"] is True and "secureBootDBKey" not in immutability
    doc, _ = run("immutability must stay disabled", template=template)
    assert doc["systemConfig"]["immutability"]["enabled"] is False
    doc, missed = run(
        "switch secure boot back off but leave the rootfs immutable", template=template
    )
    immutability = doc["systemConfig"]["immutability"]
    assert immutability["enabled"] is True and "secureBootDBKey" not in immutability
    assert missed == []


def test_secure_boot_key_paths_given_by_the_user_are_kept() -> None:
    doc, missed = run(
        "an immutable root and Secure Boot signed with our DB keys: key /srv/k/db.key, "
        "certificate /srv/k/db.crt, DER certificate /srv/k/db.cer."
    )
    immutability = doc["systemConfig"]["immutability"]
    assert immutability["secureBootDBKey"] == "/srv/k/db.key"
    assert immutability["secureBootDBCrt"] == "/srv/k/db.crt"
    assert immutability["secureBootDBCer"] == "/srv/k/db.cer"
    assert missed == []
    doc, _ = run("Secure Boot with our keys at /etc/k/db.key, /etc/k/db.crt and /etc/k/db.cer")
    assert doc["systemConfig"]["immutability"]["secureBootDBCer"] == "/etc/k/db.cer"
    assert doc.get("packageRepositories") is None


@pytest.mark.parametrize(
    "request_text",
    [
        # the paths in the next sentence, labelled by their file type
        "Turn on secure boot. key /pki/sb/db.key, crt /pki/sb/db.crt, cer /pki/sb/db.cer",
        # the paths before "secure boot", and a sentence between
        "Our signing files are /pki/sb/db.key, /pki/sb/db.crt and /pki/sb/db.cer. "
        "Please enable Secure Boot with them.",
    ],
)
def test_secure_boot_key_paths_anywhere_in_the_request(request_text: str) -> None:
    doc, missed = run(request_text, template="emt3-x86_64-minimal-raw.yml")
    immutability = doc["systemConfig"]["immutability"]
    assert immutability["secureBootDBKey"] == "/pki/sb/db.key", immutability
    assert immutability["secureBootDBCrt"] == "/pki/sb/db.crt"
    assert immutability["secureBootDBCer"] == "/pki/sb/db.cer"
    assert missed == [], missed


def test_key_files_named_without_their_folder_are_in_the_folder_said_before() -> None:
    doc, missed = run(
        "secure boot please; keys in /srv/pki/db.key, then db.crt and db.cer",
        template="emt3-x86_64-minimal-raw.yml",
    )
    immutability = doc["systemConfig"]["immutability"]
    assert immutability["secureBootDBCrt"] == "/srv/pki/db.crt", immutability
    assert immutability["secureBootDBCer"] == "/srv/pki/db.cer"
    assert missed == [], missed
    # a folder said by itself
    doc, missed = run(
        "secure boot on; the files live in /srv/sb: db.key, db.crt, db.cer",
        template="emt3-x86_64-minimal-raw.yml",
    )
    assert doc["systemConfig"]["immutability"]["secureBootDBKey"] == "/srv/sb/db.key"
    assert missed == [], missed
    # with no folder said at all, a bare file name is reported, never placed or a package
    doc, missed = run(
        "secure boot with db.key, db.crt and db.cer", template="emt3-x86_64-minimal-raw.yml"
    )
    key = doc["systemConfig"]["immutability"].get("secureBootDBKey", "")
    assert not key.startswith("/"), key  # the applier's placeholder, no folder made up
    assert any("full path" in m for m in missed), missed
    assert not any(p.startswith("db.") for p in doc["systemConfig"]["packages"])


def test_dropping_the_sb_keys_turns_secure_boot_off_and_keeps_immutability() -> None:
    template = "emt3-x86_64-immutable-secureboot-raw.yml"
    doc, _ = run("no more SB keys please", template=template)
    assert "secureBootDBKey" not in doc["systemConfig"]["immutability"]
    doc, missed = run("remove the SB keys, the PKI moved", template=template)
    immutability = doc["systemConfig"]["immutability"]
    assert immutability["enabled"] is True
    assert "secureBootDBKey" not in immutability, immutability
    assert not any("SB keys" in m for m in missed), missed


def test_a_sources_list_line_gives_the_suite_and_components_in_order() -> None:
    doc, missed = run(
        "deb https://pkgs.example.com/deb noble main universe with signing key "
        "https://pkgs.example.com/k.asc"
    )
    entry = repos(doc)["https://pkgs.example.com/deb"]
    assert (entry["codename"], entry["component"]) == ("noble", "main universe")
    assert missed == []
    doc, _ = run(
        "add a package source: https://pkgs.example.com/deb, distribution noble, key https://pkgs.example.com/k.asc"
    )
    assert repos(doc)["https://pkgs.example.com/deb"]["codename"] == "noble"


def test_a_word_naming_a_partition_before_its_mount_point_keeps_its_size() -> None:
    doc, _ = run("make the disk 64GB", "add a 20GB data partition mounted at /data")
    data = next(p for p in disk(doc)["partitions"] if p["mountPoint"] == "/data")
    assert data["end"] != "0"
    doc, _ = run("make the disk 64GB", "a data partition (/data) of 2 GiB")
    assert "/data" in [p["mountPoint"] for p in disk(doc)["partitions"]]


def test_a_kernel_flag_is_never_a_package_and_pass_to_the_kernel() -> None:
    doc, missed = run("boot with nomodeset", "also pass audit=1 to the kernel")
    assert {"nomodeset", "audit=1"} <= set(cmdline(doc))
    assert "nomodeset" not in packages(doc)
    assert missed == []


def test_function_words_are_never_user_names_and_more_ways_to_name_one() -> None:
    doc, missed = run(
        "there should be a user called runner in the docker group",
        "I'd like a user for our technicians: tech, in the dialout group",
        "make a non-root user called app",
        "also the user deploy should exist, with a bash shell",
    )
    found = users(doc)
    assert set(found) == {"runner", "tech", "app", "deploy"}
    assert found["tech"]["groups"] == ["dialout"] and found["deploy"]["shell"] == "/bin/bash"
    assert not found["app"].get("sudo")
    assert missed == []
