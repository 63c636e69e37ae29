"""How a request lists packages, and which of its words are never packages (issue 21).

The sentences here were written for these tests, not taken from the labelled
conversations: each checks one mechanism of the package rule (the role a word plays in
its sentence), not a phrase.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import added, removed, with_packages

UBUNTU = OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml"
CONTAINER_HOST = OUR_TEMPLATES / "azl3-x86_64-container-host-raw.yml"  # node exporter
WITH_TOOLS = with_packages("curl", "wget", "nano")


def plan(request: str, template: str | None = None) -> EditPlan:
    text = template if template is not None else UBUNTU.read_text(encoding="utf-8")
    return plan_request(request, text, mode="refine")


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("install strace ltrace gdb", ["strace", "ltrace", "gdb"]),  # no commas
        ("+ iftop + nload", ["iftop", "nload"]),  # signs
        ("bring vim back", ["vim"]),  # an adverb after the name
        ("the lab is noisy so please put iotop on it", ["iotop"]),  # a new clause after "so"
        ("we need the tracing tools (bpftrace and sysstat)", ["bpftrace", "sysstat"]),
        ("set the hostname to lab-3 (and install fish too)", ["fish"]),  # a verb inside
        ("with the fast grep tool ripgrep", ["ripgrep"]),  # a description heading a name
        ("Needed packages: iotop, nload and htop", ["iotop", "nload", "htop"]),  # a header
        ("Packages to install:\n- iotop\n- nload\n", ["iotop", "nload"]),  # a bullet list
        ("they asked for sysstat", ["sysstat"]),
        ("an image that installs nload", ["nload"]),
        ("and add the bpftrace plugin", ["bpftrace"]),  # a generic head noun after a name
    ],
)
def test_a_name_marked_by_its_role_is_added(request_text: str, wanted: list[str]) -> None:
    result = plan(request_text)
    assert added(result) == wanted, (added(result), result.not_applied)


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("- nano", ["nano"]),  # a minus sign
        ("wget isn't allowed on these boxes", ["wget"]),  # said of the name after it
        ("we don't need curl any more", ["curl"]),
        ("drop curl and wget... oh wait, keep wget", ["curl"]),  # keep takes it back
    ],
)
def test_a_name_marked_for_removal_is_removed(request_text: str, wanted: list[str]) -> None:
    result = plan(request_text, WITH_TOOLS)
    assert removed(result) == wanted, (removed(result), result.not_applied)


def test_a_bullet_list_of_settings_is_not_a_list_of_removals() -> None:
    result = plan("Please set:\n- hostname rack-7\n- iotop installed\n")
    assert removed(result) == []
    assert "iotop" in added(result)


def test_only_the_final_intent_of_a_change_of_mind_counts() -> None:
    result = plan("add iotop and iftop, no wait not iftop, nload... actually neither, just iotop")
    assert added(result) == ["iotop"]
    assert result.not_applied == []


def test_a_description_of_one_installed_package_removes_it() -> None:
    result = plan("drop the exporter", CONTAINER_HOST.read_text(encoding="utf-8"))
    assert removed(result) == ["prometheus-node-exporter"]


def test_a_description_shared_by_many_packages_removes_nothing() -> None:
    # "server" is a part of many names (openssh-server ...): never read as a description
    assert removed(plan("remove the server", WITH_TOOLS)) == []


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("with a headless Java 17 runtime", "openjdk-17-jre-headless"),
        ("add file integrity monitoring", "aide"),
        ("add cups for the label printer", "cups"),  # an ordinary word, known to the catalog
    ],
)
def test_a_capability_described_in_words_adds_its_packages(request_text: str, wanted: str) -> None:
    assert wanted in added(plan(request_text))


@pytest.mark.parametrize(
    "request_text",
    [
        "our contractor will install it tomorrow",  # a pronoun and a time
        "for the technicians to install on site",  # a place right after the verb
        "the director wants us to standardise on this",  # a verb after "to"
        "point DNS at ns1.lab.example.org and ns2.lab.example.org",  # host names
        "users: alice, bob-admin and carol",  # the header says what the list holds
        "Last step: create svc-mon with no sudo",  # a new name, not a package
        "also add another one, codename edge-extras, no priority",  # a field and its value
        "and /srv with the rest of the disk, btrfs",  # a filesystem type
        "install guide says so",  # ordinary words listed after a verb
        "with a small footprint (musl-based)",  # a remark in parentheses, not software
        "with nothing else installed",  # an ordinary word said to be installed
    ],
)
def test_words_in_other_roles_never_become_packages(request_text: str) -> None:
    assert added(plan(request_text)) == []


def test_a_remark_in_parentheses_can_withdraw_what_it_is_about() -> None:
    result = plan("add iotop and the Acme uploader (it only runs on macOS, never mind)")
    assert added(result) == ["iotop"]
    assert result.not_applied == []


@pytest.mark.parametrize(
    ("request_text", "kept", "gone"),
    [
        ("curl can go, and wget has to go", [], ["curl", "wget"]),
        ("nano goes", ["curl"], ["nano"]),
    ],
)
def test_what_is_said_of_a_name_after_it_removes_it(
    request_text: str, kept: list[str], gone: list[str]
) -> None:
    result = plan(request_text, WITH_TOOLS)
    assert removed(result) == gone
    assert not set(kept) & set(removed(result))


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        # a sentence of bare names after one that says what the box is: each name is asked
        # for, the unknown ones too, because a known name (jq, gdb) sits in the list
        ("it is a lab router. jq iftop nload", ["jq", "iftop", "nload"]),
        ("for the bench testers\nstrace ltrace, gdb", ["strace", "ltrace", "gdb"]),
    ],
)
def test_a_sentence_of_bare_names_lists_packages(request_text: str, wanted: list[str]) -> None:
    result = plan(request_text)
    assert added(result) == wanted, (added(result), result.not_applied)
    assert result.not_applied == []


@pytest.mark.parametrize(
    "request_text",
    [
        "it is a lab router. quick boot matters",  # English words: no list of names
        "it is a lab router. zorblat quuxd",  # nothing known among them: no evidence of a list
        "it is a lab router. jq Grafana",  # a capitalised product name is no Debian name
    ],
)
def test_a_sentence_that_is_not_only_names_adds_no_unknown_word(request_text: str) -> None:
    result = plan(request_text)
    assert not {"quick", "boot", "zorblat", "quuxd", "grafana", "Grafana"} & set(added(result))


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("get rid of ninja please", ["ninja-build"]),  # the first part of one package
        ("we can do without alertmanager", ["prometheus-alertmanager"]),  # the last part
    ],
)
def test_a_short_name_removes_the_one_package_it_is_part_of(
    request_text: str, wanted: list[str]
) -> None:
    template = with_packages("ninja-build", "prometheus-alertmanager", "prometheus-node-exporter")
    result = plan(request_text, template)
    assert removed(result) == wanted, (removed(result), result.not_applied)


def test_a_short_name_shared_by_two_packages_removes_neither() -> None:
    result = plan("get rid of ninja please", with_packages("ninja-build", "ninja-tools"))
    assert removed(result) == []
    assert result.not_applied


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        (
            "Our vendor ships it from their own feed. The package there is simply acme-agent.",
            ["acme-agent"],
        ),
        ("the package you want is called zorp-cli, thanks", ["zorp-cli"]),
        ("The packages to install are foo-agent and foo-cli.", ["foo-agent", "foo-cli"]),
    ],
)
def test_a_sentence_about_the_package_names_it(request_text: str, wanted: list[str]) -> None:
    result = plan(request_text)
    assert added(result) == wanted, (added(result), result.not_applied)


def test_a_negation_after_the_names_removes_them_and_adds_nothing() -> None:
    # the verb is elided: "must not be [installed]", said after what must be installed
    result = plan(
        "Policy: iotop and nload must be installed, wget and curl mustn't be.",
        WITH_TOOLS,
    )
    assert added(result) == ["iotop", "nload"], (added(result), result.not_applied)
    assert removed(result) == ["curl", "wget"] or removed(result) == ["wget", "curl"]
    result = plan("rlogin-server and finger-daemon should never be installed")
    assert added(result) == [], added(result)
    assert result.not_applied == []


def test_preinstalled_after_a_comma_list_marks_every_name() -> None:
    result = plan("a build box with jq, gdb, strace and ltrace preinstalled.")
    assert added(result) == ["jq", "gdb", "strace", "ltrace"], (added(result), result.not_applied)


def test_a_word_with_an_underscore_is_no_debian_package() -> None:
    # kernel flags are written with underscores; Debian package names never have one
    result = plan("add jq and nosmt_force please")
    assert added(result) == ["jq"], added(result)
    assert any("nosmt_force" in n for n in result.not_applied)


def test_swapping_a_family_out_removes_each_of_its_packages() -> None:
    template = with_packages("moby-engine", "moby-cli", "jq")
    result = plan("swap moby out for podman, we went rootless", template)
    assert sorted(removed(result)) == ["moby-cli", "moby-engine"], result.not_applied
    assert added(result) == ["podman"]


@pytest.mark.parametrize(
    "request_text",
    [
        "remove curl and wget, but wget stays",  # said after the name
        "drop curl and wget. oh wait, wget can stay",
    ],
)
def test_a_name_said_to_stay_is_kept(request_text: str) -> None:
    result = plan(request_text, WITH_TOOLS)
    assert removed(result) == ["curl"], (removed(result), result.not_applied)
    assert result.not_applied == []


def test_keeping_a_family_name_keeps_its_packages() -> None:
    template = with_packages("moby-engine", "moby-cli")
    result = plan("drop moby-engine and moby-cli... actually keep moby", template)
    assert removed(result) == [], (removed(result), result.not_applied)
    assert result.not_applied == []


@pytest.mark.parametrize(
    "request_text",
    [
        "ubu24, jq gdb strace",  # a release's short name heads the list
        "jq gdb, for hyper-v",  # a purpose after the names: no sentence of names only
    ],
)
def test_a_list_sentence_takes_no_release_or_purpose_as_a_name(request_text: str) -> None:
    result = plan(request_text)
    assert not {"ubu24", "hyper-v"} & set(added(result)), added(result)


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("also an ids, suricata", ["suricata"]),  # a description, then the name it means
        ("need an ubuntu 24.04 img for our agv, with jq", ["jq"]),  # what it is for
        ("we need it on an x86_64 sbc, plus gdb", ["gdb"]),  # hardware after an arch word
        ("add a dvr and jq", ["jq"]),  # an article before a word: a kind of thing
    ],
)
def test_a_kind_of_thing_or_its_hardware_is_no_package(
    request_text: str, wanted: list[str]
) -> None:
    result = plan(request_text)
    assert added(result) == wanted, (added(result), result.not_applied)


def test_a_description_spelled_out_by_the_name_after_it_is_context() -> None:
    result = plan("also an ids, suricata")
    assert result.not_applied == []


DEBIAN = OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        # a companion named by its role after the package it belongs to
        ("cockpit plus the machines plugin", ["cockpit", "cockpit-machines"]),
        # what follows "so" is only a known name: the consequence asks for it
        ("it's a tiny router so nftables", ["nftables"]),
        # a phrase said to be the whole of what is needed
        ("a recovery initrd. nfs client and busybox are all it really needs", None),
    ],
)
def test_names_read_from_their_place_in_the_sentence(
    request_text: str, wanted: list[str] | None
) -> None:
    result = plan(request_text, DEBIAN.read_text(encoding="utf-8"))
    expected = wanted if wanted is not None else ["nfs-common", "busybox"]
    assert added(result) == expected, (added(result), result.not_applied)
    assert result.not_applied == []
