"""Packages, repositories and package answers (issue 21, round 22, helper p3).

The sentences were written for these tests, not copied from the labelled conversations.
Each class is checked with reworded forms and with near-misses that must not trigger.
"""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.explain_template import describe_template
from oic_ai.tools.planner import plan_request
from oic_ai.tools.planner.vendor_repos import read_vendor_repositories
from tests.support.conversations import KnownPackages
from tests.tools.planner.helpers import added, plan_on, removed, repository_ops, template_text

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"
AZL = "azl3-x86_64-minimal-raw.yml"
EL10 = "el10-x86_64-minimal-raw.yml"
ELXR = "elxr12-x86_64-minimal-raw.yml"
VIRT = "debian13-x86_64-virtualization-host-raw.yml"


def _with_packages(template: str, *names: str) -> str:
    data = yaml.safe_load(template_text(template))
    data["systemConfig"]["packages"] += list(names)
    return yaml.safe_dump(data, sort_keys=False)


def _repos(ops: list[dict[str, object]]) -> list[dict[str, object]]:
    return [op for op in ops if op["op"] == "add_repository"]


# --- a file name is no package --------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Could you write the NTP server 10.1.1.1 into chrony.conf?",
        "put our registry mirror into daemon.json",
        "add the line to sshd.conf please",
        "drop a unit called backup.service in there",
    ],
)
def test_a_file_name_is_never_a_package(said: str) -> None:
    plan = plan_on(AZL, said)
    assert added(plan) == [], plan.operations
    assert plan.not_applied, "a file to edit is reported"


def test_a_name_with_a_dot_is_still_a_package() -> None:
    assert "python3.12" in added(plan_on(UBUNTU, "install python3.12"))


# --- a change of mind right after an addition -------------------------------------------


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("k. add evtest? nah forget it. curl + jq", ["curl", "jq"]),
        ("add evtest. nah forget it", []),
        ("add evtest, no forget it, add jq", ["jq"]),
        ("install evtest? nope, forget that. jq instead", ["jq"]),
    ],
)
def test_nah_forget_it_takes_back_the_addition_before_it(said: str, wanted: list[str]) -> None:
    plan = plan_on(UBUNTU, said)
    assert added(plan) == wanted
    assert plan.not_applied == []


# --- "throw X on there" --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("throw tpm2-tools on there too", ["tpm2-tools"]),
        ("toss htop in there as well", ["htop"]),
        ("stick jq and curl onto the image", ["jq", "curl"]),
        ("pop nginx on top", ["nginx"]),
    ],
)
def test_a_verb_and_its_particle_around_the_name_adds_it(said: str, wanted: list[str]) -> None:
    plan = plan_on(UBUNTU, said)
    assert added(plan) == wanted
    assert plan.not_applied == []


@pytest.mark.parametrize("said", ["throw it in the bin", "stick with ubuntu", "toss htop"])
def test_other_uses_of_those_verbs_add_nothing(said: str) -> None:
    assert added(plan_on(UBUNTU, said)) == []


# --- somebody else named the package -------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        (
            "Our security people want the USB ports locked down. They mentioned usbguard.",
            "usbguard",
        ),
        ("the auditors recommended aide", "aide"),
        ("the vendor also suggested usbguard.", "usbguard"),
        ("lock down the usb ports", "usbguard"),
    ],
)
def test_a_package_somebody_else_named_is_asked_for(said: str, wanted: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert wanted in added(plan)
    assert "fail2ban" not in added(plan), "the USB ports are no general hardening"


def test_a_debian_tool_somebody_mentioned_is_asked_for() -> None:
    assert added(plan_on(UBUNTU, "The lab folks mentioned evtest.")) == ["evtest"]


@pytest.mark.parametrize(
    "said",
    [
        "you mentioned evtest.",
        "They mentioned evtest, but we skip it.",
        "he mentioned evtest yesterday",
    ],
)
def test_a_mention_that_is_no_wish_adds_nothing(said: str) -> None:
    assert added(plan_on(UBUNTU, said)) == []


def test_debugging_as_a_purpose_is_no_request() -> None:
    plan = plan_on(UBUNTU, "for debugging, strace must be on the box")
    assert added(plan) == ["strace"]
    assert plan.not_applied == []


@pytest.mark.parametrize(
    "said",
    [
        "From the image I need auditd, the PAM password quality module and aide.",
        "add the pam password quality module",
        "also pwquality please",
    ],
)
def test_the_pam_password_quality_module_is_a_package(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert "libpam-pwquality" in added(plan)
    assert plan.not_applied == []


@pytest.mark.parametrize("said", ["passwords must have 12 characters", "enforce password expiry"])
def test_password_rules_are_still_reported(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert added(plan) == []
    assert plan.not_applied


# --- the SAN packages ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "said", "wanted"),
    [
        (
            AZL,
            "then add the iSCSI initiator and multipath packages",
            ["iscsi-initiator-utils", "device-mapper-multipath"],
        ),
        (UBUNTU, "we need multipathing and an iscsi client", ["multipath-tools", "open-iscsi"]),
        (AZL, "add multipath", ["device-mapper-multipath"]),
    ],
)
def test_iscsi_and_multipath_are_capabilities(template: str, said: str, wanted: list[str]) -> None:
    plan = plan_on(template, said)
    assert sorted(added(plan)) == sorted(wanted)
    assert "multipath" not in added(plan)


def test_a_san_said_as_a_fact_adds_nothing() -> None:
    assert added(plan_on(AZL, "the SAN is reached over iSCSI, we do the login ourselves")) == []


# --- "no X, just Y" ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "no desktop, just qemu and virtinst",
        "drop the desktop, just qemu and virtinst",
        "We don't need the desktop anymore, just a headless KVM host: qemu, virtinst, "
        "bridge-utils.",
    ],
)
def test_just_after_a_removal_says_what_is_wanted(said: str) -> None:
    plan = plan_on(VIRT, said)
    assert not {"virtinst", "qemu-system-x86", "bridge-utils"} & set(removed(plan))


def test_a_removal_list_without_just_still_removes() -> None:
    assert "virtinst" in removed(plan_on(VIRT, "drop qemu-utils and virtinst"))


# --- the debug stuff -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "ok now whatever the old one had, minus the debug stuff",
        "drop the debug tools",
        "remove the debugging stuff",
        "no debuggers please",
    ],
)
def test_the_debug_stuff_is_the_debugging_tools(said: str) -> None:
    text = _with_packages(AZL, "tcpdump", "strace", "gdb", "cloud-init")
    plan = plan_request(said, text, mode="refine")
    assert sorted(removed(plan)) == ["gdb", "strace", "tcpdump"]
    assert plan.not_applied == []


def test_debug_tools_are_never_added_as_a_package_called_debug() -> None:
    plan = plan_on(UBUNTU, "add the debug tools")
    assert added(plan) == []
    assert plan.not_applied


def test_the_debug_flag_is_still_a_kernel_option() -> None:
    text = template_text(UBUNTU).replace("loglevel=4", "loglevel=4 debug")
    plan = plan_request("remove debug from the kernel command line", text, mode="refine")
    assert removed(plan) == []
    cmdline = yaml.safe_load(apply_plan(text, plan).text)["systemConfig"]["kernel"]["cmdline"]
    assert "debug" not in cmdline.split()


# --- the signing key said to lie somewhere -------------------------------------------------


@pytest.mark.parametrize(
    ("said", "key"),
    [
        (
            "the line is:\ndeb http://m.plant.lan/ubuntu-ports noble main universe\n"
            "and the key is on the build server in /opt/mirror/plant.asc",
            "/opt/mirror/plant.asc",
        ),
        (
            "add repo https://a.example/deb stable main, the gpg key file is stored in "
            "/etc/keys/a.gpg on the host",
            "/etc/keys/a.gpg",
        ),
        ("add repo https://a.example/deb stable main, key at path /etc/k.gpg", "/etc/k.gpg"),
        (
            "deb [signed-by=/srv/keys/x.gpg] http://apt.x.lan/debian trixie main\n"
            "The key file lies on the build server under exactly this path.",
            "/srv/keys/x.gpg",
        ),
    ],
)
def test_the_key_said_to_lie_somewhere_is_the_repositorys(said: str, key: str) -> None:
    ops, not_applied = repository_ops(said, DEBIAN)
    repos = _repos(ops)
    assert len(repos) == 1, ops
    assert repos[0]["pkey"] == key
    assert not [op for op in ops if op["op"] == "add_packages"], "no 'asc' package"
    assert not_applied == []


def test_components_end_before_an_article() -> None:
    ops, _ = repository_ops("add repo https://a.example/deb stable main, the key is /k.gpg", DEBIAN)
    assert _repos(ops)[0]["component"] == "main"


# --- several sources lines, siblings, and a suite said again --------------------------------


def test_several_pasted_sources_lines_are_several_repositories() -> None:
    said = (
        "two mirrors:\n"
        " deb [signed-by=/etc/apt/keyrings/c.gpg] http://apt.c.lan/ubuntu resolute main\n"
        " deb [signed-by=/etc/apt/keyrings/c.gpg] http://apt.c.lan/apps resolute stable\n"
        "The apps mirror should get the higher priority, 900."
    )
    text = template_text("ubuntu26-x86_64-minimal-raw.yml")
    plan = plan_request(said, text, mode="refine")
    repos = yaml.safe_load(apply_plan(text, plan).text)["packageRepositories"]
    assert [(r["url"], r["component"], r.get("priority")) for r in repos] == [
        ("http://apt.c.lan/ubuntu", "main", None),
        ("http://apt.c.lan/apps", "stable", 900),
    ]
    assert plan.not_applied == []


@pytest.mark.parametrize(
    ("said", "url"),
    [
        (
            "baseurl=https://r.lan/el10/BaseOS/x86_64/os\ngpgkey=file:///etc/pki/K\n"
            "AppStream is the same, only /AppStream/ instead of /BaseOS/. Same key.",
            "https://r.lan/el10/AppStream/x86_64/os",
        ),
        (
            "add repo https://m.example/debian with suite trixie, component main, key "
            "https://m.example/k.gpg. and the same for security, with debian-security in place "
            "of debian",
            "https://m.example/debian-security",
        ),
    ],
)
def test_the_same_repository_but_for_a_part_of_its_url(said: str, url: str) -> None:
    ops, not_applied = repository_ops(said, EL10)
    repos = _repos(ops)
    assert len(repos) == 2, ops
    assert repos[1]["url"] == url
    assert repos[1]["pkey"] == repos[0]["pkey"]
    assert not_applied == []


def test_instead_of_without_a_repository_is_no_sibling() -> None:
    ops, _ = repository_ops("use nginx instead of apache", DEBIAN)
    assert _repos(ops) == []


@pytest.mark.parametrize(
    "said",
    [
        "the old line was:\ndeb [signed-by=/etc/apt/keyrings/d.asc] https://d.example/ubuntu "
        "jammy stable\nkey from https://d.example/gpg, obviously noble instead of jammy now",
        "add this: deb https://d.example/ubuntu jammy stable, key https://d.example/gpg, "
        "but replace jammy with noble",
    ],
)
def test_a_sources_lines_suite_said_to_be_another_release(said: str) -> None:
    ops, not_applied = repository_ops(said, UBUNTU)
    assert _repos(ops)[0]["codename"] == "noble"
    assert not_applied == []


def test_another_instead_of_leaves_the_suite() -> None:
    said = "add this: deb https://x.example/debian bookworm main, key https://x.example/k.gpg, "
    ops, _ = repository_ops(said + "and nginx instead of apache", DEBIAN)
    assert _repos(ops)[0]["codename"] == "bookworm"


@pytest.mark.parametrize("pointer", ["please add the same:", "add the following:", "add these:"])
def test_add_the_same_before_a_pasted_stanza(pointer: str) -> None:
    said = f"our mirror, {pointer}\n\n[m]\nname=M\nbaseurl=http://yum.m.lan/azl/3.0/base\n"
    said += "gpgkey=file:///etc/pki/rpm-gpg/M-KEY\ngpgcheck=1\nenabled=1\nprotect=1"
    ops, not_applied = repository_ops(said, AZL)
    assert len(_repos(ops)) == 1
    assert not [op for op in ops if op["op"] == "set_kernel"], "protect=1 is the stanza's"
    assert not_applied == []


# --- a local repository and a vendor's repository mirrored ------------------------------------


def test_a_local_repository_is_written_as_a_path() -> None:
    said = (
        "Our mirror is on the local disk of the build server, not http. Path is /srv/repo/x, "
        "the key is /srv/repo/keys/x.gpg, suite aria, component main."
    )
    text = template_text(ELXR)
    plan = plan_request(said, text, mode="refine")
    assert plan.not_applied == []
    repos = yaml.safe_load(apply_plan(text, plan).text)["packageRepositories"]
    assert repos[-1]["path"] == "/srv/repo/x"
    assert "url" not in repos[-1]
    assert repos[-1]["codename"] == "aria"


def test_a_path_elsewhere_names_no_repository() -> None:
    ops, _ = repository_ops("add a partition at path /data", ELXR)
    assert _repos(ops) == []


def test_a_vendor_repository_the_user_mirrored_uses_the_mirror() -> None:
    said = (
        "The vendor sent this (we mirrored it already to http://mirror.corp.lan/vendor):\n\n"
        "  curl -fsSL https://apt.vendor.example/key.gpg | gpg --dearmor "
        "-o /usr/share/keyrings/v.gpg\n"
        '  echo "deb [signed-by=/usr/share/keyrings/v.gpg] https://apt.vendor.example/debian '
        'trixie stable" > /etc/apt/sources.list.d/v.list\n\n'
        "The key file I copied to /srv/keys/v.gpg. Please use our mirror, not their URL."
    )
    ops, not_applied = repository_ops(said, DEBIAN)
    repos = _repos(ops)
    assert [(r["url"], r["codename"], r["component"], r["pkey"]) for r in repos] == [
        ("http://mirror.corp.lan/vendor", "trixie", "stable", "/srv/keys/v.gpg")
    ]
    assert not_applied == []


def test_a_vendor_repository_without_a_mirror_keeps_its_url() -> None:
    said = (
        "curl -fsSL https://apt.vendor.example/key.gpg | gpg --dearmor "
        "-o /usr/share/keyrings/v.gpg\n"
        'echo "deb [signed-by=/usr/share/keyrings/v.gpg] https://apt.vendor.example/debian '
        'trixie stable" > /etc/apt/sources.list.d/v.list'
    )
    rewritten, _, _ = read_vendor_repositories(said)
    assert "add repo https://apt.vendor.example/debian" in rewritten


# --- a team as the subject of a wish ----------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("Security also mandates aide on every box.", "aide"),
        ("our security team mandates auditd", "audit"),
        ("Security also wants aide on every box.", "aide"),
    ],
)
def test_a_team_that_mandates_a_package(said: str, wanted: str) -> None:
    plan = plan_on(EL10, said)
    assert added(plan) == [wanted]
    assert plan.not_applied == []


def test_a_policy_that_mandates_a_state_adds_nothing() -> None:
    assert added(plan_on(EL10, "the policy mandates that every box is patched")) == []


# --- answers that list the packages ----------------------------------------------------------


@pytest.mark.parametrize(
    "question",
    [
        "OK, we do it by Ansible later. Please tell me once more which packages I added.",
        "can you tell me the package list?",
    ],
)
def test_tell_me_which_packages_answers_the_packages(question: str) -> None:
    answer = describe_template(template_text(DEBIAN), question)
    assert answer.startswith("Packages:")
    assert "less" in answer, "every package, not the summary's first few"


def test_tell_me_about_it_is_still_the_summary() -> None:
    assert describe_template(template_text(DEBIAN), "tell me about it").startswith("Here is")


# --- the bench's known names keep their capitals ----------------------------------------------


def test_an_rpm_name_with_capitals_is_known_to_the_bench() -> None:
    known = KnownPackages([], [])
    assert known.invented(["ModemManager", "NetworkManagerX"], "rpm") == ["NetworkManagerX"]
