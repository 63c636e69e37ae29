"""Round 14 (helper h3): packages, targets and refusals, in wordings of our own.

- a release number of a built os that the composer has not got ("eLxr 13", "Debian 14")
  is refused like "Ubuntu 22.04", a count or an amount after the name is no release;
- a bare "installer" that is someone's program ("by our own installer") names no image type;
- a system named as where packages come from ("from the ubuntu archive", "the official
  debian repositories") is no target;
- a name marked as that very package ("prometheus itself", "the package prometheus") is
  the package, not the capability that shares the word;
- a comparison after a named thing ("php like our old LAMP boxes") says where it is like
  that, and leaves the thing asked for.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.retrieval.target_mentions import detect_target_spans
from tests.tools.planner.helpers import added, plan_on

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
EL10 = "el10-x86_64-minimal-raw.yml"


def _image_types(said: str) -> list[str]:
    return [m.value for m in detect_target_spans(said) if m.kind == "image_type" and not m.source]


def test_an_installer_that_is_a_program_names_no_image_type() -> None:
    for said in (
        "the viewer is put on top later by our own installer",
        "the vendor's installer drops it in /opt",
        "run their installer script after the first boot",
        "the app comes with its installer, we run that by hand",
    ):
        assert _image_types(said) == [], said


def test_an_installer_that_is_the_image_stays_an_iso() -> None:
    for said in (
        "an installer for the factory PCs",
        "make it a USB installer for our techs",
        "azure linux installer with vim",
    ):
        assert _image_types(said) == ["iso"], said


def test_a_system_named_as_where_packages_come_from_is_no_target() -> None:
    for said in (
        "get podman from the official debian repositories",
        "install nginx out of the ubuntu archive",
        "we mirror the debian archive locally",
        "take curl from ubuntu's own repos",
    ):
        mentions = [m for m in detect_target_spans(said) if not m.source]
        assert not [m for m in mentions if m.kind in ("dist", "os")], (said, mentions)
    result = plan_on(UBUNTU, "get podman from the official debian repositories")
    assert "podman" in added(result)
    assert not [op for op in result.operations if op.op == "set_target"], result.operations


def test_a_system_named_as_the_image_is_still_a_target() -> None:
    for said in ("switch it to debian", "a debian 13 file server", "move it to the ubuntu one"):
        mentions = [m for m in detect_target_spans(said) if not m.source]
        assert [m for m in mentions if m.kind in ("dist", "os")], said


def test_a_name_marked_as_that_very_package_is_the_package() -> None:
    for said in (
        "and prometheus itself, plus the node exporter",
        "install the package prometheus",
        "put the prometheus package on it",
        "we need the actual prometheus, not only an exporter",
    ):
        result = plan_on(UBUNTU, said)
        assert "prometheus" in added(result), (said, result.operations, result.not_applied)


def test_an_unmarked_capability_word_keeps_the_capability() -> None:
    result = plan_on(UBUNTU, "add prometheus")
    assert added(result) == ["prometheus-node-exporter"], result.operations
    # no package of that name: the marking does not make one up
    result = plan_on(UBUNTU, "add monitoring itself")
    assert "monitoring" not in added(result), result.operations


def test_a_comparison_after_a_named_thing_leaves_the_thing() -> None:
    for said, names in (
        ("with httpd, mod_ssl and php like our old LAMP boxes", ["httpd", "mod_ssl", "php"]),
        ("add nginx and redis like the ones on the old fleet", ["nginx", "redis"]),
        ("put php on it like we had before", ["php"]),
        ("git and tmux, like on the build hosts", ["git", "tmux"]),
    ):
        result = plan_on(EL10, said if said.startswith(("add", "with", "put")) else f"add {said}")
        for name in names:
            assert name in added(result), (said, result.operations, result.not_applied)


def test_like_that_gives_an_example_still_names_it() -> None:
    for said in ("install something like the htop package", "add tools like htop and iotop"):
        result = plan_on(EL10, said)
        assert "htop" in added(result), (said, result.operations)


EMT = "emt3-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"


def test_a_package_said_to_be_in_the_image_is_added() -> None:
    for template, said, name in (
        (EMT, "auditd has to be in there, we're audited", "audit"),
        (UBUNTU, "tcpdump and iperf3 need to be in there", "iperf3"),
        (UBUNTU, "htop should be part of the image", "htop"),
        (UBUNTU, "for debugging, strace must be on the box", "strace"),
    ):
        result = plan_on(template, said)
        assert name in added(result), (said, result.operations, result.not_applied)
        assert not result.not_applied, (said, result.not_applied)


def test_a_declined_value_with_a_value_or_another_field_still_reads() -> None:
    result = plan_on(DEBIAN, "never mind the hostname, make the disk 12GiB")
    assert any(op.op == "set_disk_size" for op in result.operations), result.operations
    # a partition declined is a removal, not a value left alone: not this reading
    result = plan_on(DEBIAN, "don't bother with a hostname of gw-3")
    assert result.operations or result.not_applied, result


def test_a_hostname_label_qualified_by_what_it_is_for_takes_the_value() -> None:
    for said, name in (
        ("Hostname for the golden image: gw-factory.", "gw-factory"),
        ("hostname for these boxes: edge-07", "edge-07"),
        ("the host name of the image should be: kiosk-3", "kiosk-3"),
        ("Host name across the fleet = mon-01", "mon-01"),
    ):
        result = plan_on(DEBIAN, said)
        ops = [op for op in result.operations if op.op == "set_hostname"]
        assert [op.hostname for op in ops] == [name], (said, result.operations)
        assert "hostname" not in added(result), (said, result.operations)


AZL = "azl3-x86_64-minimal-raw.yml"
FIRMWARE = "firmware (BIOS or UEFI)"
FIREWALL = "firewall rules"


@pytest.mark.parametrize(
    ("said", "reported"),
    [
        # a value declined leaves the template and reports nothing
        ("please don't bother with a hostname for these", None),
        ("no need to set a hostname", None),
        ("never mind the disk size for now", None),
        ("forget about the image version", None),
        ("just skip the hostname", None),
        # what only firmware does is reported and changes nothing
        ("set the BIOS to power back on after AC loss", FIRMWARE),
        ("configure the firmware so the box boots again once power is restored", FIRMWARE),
        ("the kiosks must switch back on after a power outage", FIRMWARE),
        ("also turn on AC recovery", FIRMWARE),
    ],
)
def test_a_request_that_changes_nothing_reports_only_what_it_must(
    said: str, reported: str | None
) -> None:
    result = plan_on(DEBIAN, said)
    assert not result.operations, result.operations
    if reported is None:
        assert not result.not_applied, result.not_applied
    else:
        assert any(reported in n for n in result.not_applied), result.not_applied


def test_a_boot_mode_said_of_the_firmware_is_still_a_boot_mode() -> None:
    for said in ("set the BIOS to legacy", "switch to legacy bios boot"):
        result = plan_on(DEBIAN, said)
        assert not any(FIRMWARE in n for n in result.not_applied), (said, result.not_applied)


def test_firewall_rules_are_reported_and_add_no_firewall() -> None:
    for said in (
        "set up the firewall so only ssh gets through",
        "configure the firewall to allow only ssh and https",
        "then tune the firewall so that port 8443 is open",
        "block everything except port 22",
    ):
        result = plan_on(AZL, said)
        assert added(result) == [], (said, result.operations)
        assert any(FIREWALL in n for n in result.not_applied), (said, result.not_applied)


def test_a_firewall_asked_for_by_name_or_alone_is_still_added() -> None:
    result = plan_on(AZL, "install nftables and only allow ssh in")
    assert "nftables" in added(result), result.operations
    assert any(FIREWALL in n for n in result.not_applied), result.not_applied
    for said in ("set up the firewall", "add a firewall"):
        result = plan_on(AZL, said)
        assert added(result), (said, result.operations)
    result = plan_on(AZL, "set up tmux so the techs can split the screen")
    assert "tmux" in added(result) and not result.not_applied, result


def test_a_pronoun_in_a_described_package_stands_for_the_capability_before_it() -> None:
    for said in (
        "we have the joystick attached, add something for calibrating it",
        "about the joystick: is there a tool to test it? if so add it",
        "for the mqtt broker, add whatever lets us test it",
    ):
        result = plan_on(UBUNTU, said)
        assert added(result), (said, result.operations, result.not_applied)
        assert not result.not_applied, (said, result.not_applied)


def test_a_pronoun_with_no_capability_before_it_stays_vague() -> None:
    for said in ("the docker host is slow. add something to watch it", "add a tool to fix it"):
        result = plan_on(UBUNTU, said)
        assert result.not_applied, (said, result.operations)


def test_a_capability_named_by_its_own_name_as_a_package_stays_the_capability() -> None:
    for said in ("install the docker package", "docker itself, please"):
        result = plan_on(UBUNTU, said)
        assert "docker" not in added(result), (said, result.operations)


def test_an_installer_to_deploy_with_is_still_the_image_type() -> None:
    assert _image_types("we deploy using an installer, not raw images") == ["iso"]


def test_a_described_package_in_a_relative_clause_without_that_is_read() -> None:
    for said in (
        "and something our Zabbix server can poll",
        "plus a tool the night shift could run every morning",
        "add something the web team can deploy with",
    ):
        result = plan_on(DEBIAN, said)
        # read as a description: a capability when one is sure, else reported as vague
        assert added(result) or result.not_applied, (said, result.clauses)
    # a relative clause that only says someone uses it leaves the purpose after it to say
    result = plan_on(DEBIAN, "we want something they can use to sync the clock")
    assert "chrony" in added(result) and not result.not_applied, result


def test_a_relative_clause_about_how_people_work_is_no_description() -> None:
    said = "drop nano. if anyone needs to change something they should be going through git"
    result = plan_on(UBUNTU, said)
    assert not [n for n in result.not_applied if "package should do" in n], result.not_applied
