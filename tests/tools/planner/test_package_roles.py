"""A word's role in the sentence decides whether it is a package (issue 21, round 3).

The sentences were written for these tests. "make" and "parted" are ordinary words
and package names: in a list of packages, or as the whole object of an add or remove
verb, they are the package; elsewhere the word. What follows a subject ("it starts",
"nobody runs X", "the techs use X") is a statement, never a package to add.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import added, plan_on

EL10 = "el10-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"


def plan(request: str, template: str = EL10) -> EditPlan:
    return plan_on(template, request)


@pytest.mark.parametrize(
    ("request_text", "template", "wanted"),
    [
        ("install curl, make and jq", EL10, ["curl", "make", "jq"]),
        ("bundle: gcc make rsync", EL10, ["gcc", "make", "rsync"]),
        ("we want rsync, parted, and curl on it", DEBIAN, ["rsync", "parted", "curl"]),
        ("add parted.", DEBIAN, ["parted"]),
    ],
)
def test_an_ordinary_word_in_a_package_list_is_the_package(
    request_text: str, template: str, wanted: list[str]
) -> None:
    result = plan(request_text, template)
    assert added(result) == wanted, (result.operations, result.not_applied)
    assert not result.not_applied


@pytest.mark.parametrize(
    "request_text",
    [
        "add jq and make the disk 12GiB",
        "install jq, then make sure the rest stays",
        "add jq, and parted disks are fine",
    ],
)
def test_the_same_word_as_a_verb_is_no_package(request_text: str) -> None:
    assert added(plan(request_text)) == ["jq"]


@pytest.mark.parametrize(
    "request_text",
    [
        "install jq, then make sure it reboots",
        "nobody runs qzviewer on these, add jq",
        "add jq; the night shift runs plain qzviewer anyway",
    ],
)
def test_what_a_subject_does_is_no_package(request_text: str) -> None:
    result = plan(request_text)
    assert added(result) == ["jq"], result.operations
    assert not any("qzviewer" in entry for entry in result.not_applied), result.not_applied


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        # two names side by side, one holding a capability's phrase inside it
        ("add curl intel-gpu-tools", ["curl", "intel-gpu-tools"]),
        # after a change of mind, "just"/"only" names the whole list, commas or not
        ("add vim and nano, actually only vim curl", ["vim", "curl"]),
    ],
)
def test_names_side_by_side(request_text: str, wanted: list[str]) -> None:
    result = plan(request_text, "ubuntu24-x86_64-minimal-raw.yml")
    assert added(result) == wanted, (result.operations, result.not_applied)
    assert not result.not_applied


def test_removing_a_package_the_template_has_removes_only_it() -> None:
    from oic_ai.tools.applier import apply_plan

    base = (OUR_TEMPLATES / EL10).read_text(encoding="utf-8")
    text = apply_plan(base, plan("add gcc, make and git")).text
    result = plan_request("drop gcc", text, mode="refine")
    removed = [n for op in result.operations if op.op == "remove_packages" for n in op.packages]  # type: ignore[union-attr]
    assert removed == ["gcc"], result.operations


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("packages: curl, zip, tree, unzip, dialog", ["curl", "zip", "tree", "unzip", "dialog"]),
        ("install zip and tree", ["zip", "tree"]),
        ("add tmux and screen", ["tmux", "screen"]),
    ],
)
def test_everyday_tools_named_like_words_are_packages_in_a_list(
    request_text: str, wanted: list[str]
) -> None:
    # tree, screen, zip, less exist in every family; a package list names them
    assert added(plan_on(DEBIAN, request_text)) == wanted


@pytest.mark.parametrize(
    "request_text",
    ["make the disk 20GiB", "the screen shows boot text, add quiet", "first time here, add jq"],
)
def test_the_same_words_in_a_sentence_are_no_packages(request_text: str) -> None:
    assert not {"make", "screen", "time", "file"} & set(added(plan_on(DEBIAN, request_text)))


@pytest.mark.parametrize("verb", ["forget", "ditch", "scrap"])
def test_forget_ditch_and_scrap_remove(verb: str) -> None:
    result = plan_on("ubuntu24-aarch64-edge-container-raw.yml", f"actually {verb} docker")
    assert "docker.io" in [
        n for op in result.operations if op.op == "remove_packages" for n in op.packages
    ]


@pytest.mark.parametrize("people", ["admins", "techs", "operators", "devs"])
def test_the_people_who_want_a_package_are_neither_users_nor_packages(people: str) -> None:
    result = plan_on(DEBIAN, f"add vim, the {people} want qzxtool too")
    assert added(result) == ["vim", "qzxtool"]
    assert not [op for op in result.operations if op.op == "add_user"], result.operations


def test_removing_a_capability_removes_any_spelling_of_it_the_template_has() -> None:
    # docker-ce came from the user's own repository; "forget docker" still takes it out
    text = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    text = text.replace("    - openssh-server\n", "    - openssh-server\n    - docker-ce\n", 1)
    result = plan_request("actually forget docker, use podman instead", text, mode="refine")
    removed = [n for op in result.operations if op.op == "remove_packages" for n in op.packages]
    assert removed == ["docker-ce"]
    assert "podman" in added(result)


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("we also need screen", ["screen"]),
        ("put screen on it", ["screen"]),
        ("i want screen and tmux", ["screen", "tmux"]),
        ("we need make, please", ["make"]),
    ],
)
def test_a_word_that_is_the_whole_object_of_a_wish_is_the_package(
    request_text: str, wanted: list[str]
) -> None:
    assert added(plan_on(DEBIAN, request_text)) == wanted


def test_the_word_in_a_sentence_is_still_a_word() -> None:
    assert added(plan_on(DEBIAN, "we want less noise on the console")) == []
    assert added(plan_on(DEBIAN, "we need make the disk 20GiB")) == []


def test_a_capability_said_not_to_be_needed_is_removed() -> None:
    cloud = "ubuntu24-x86_64-cloud-vm-qcow2.yml"
    result = plan_on(cloud, "The qemu guest agent isn't needed.")
    assert "qemu-guest-agent" in [
        n for op in result.operations if op.op == "remove_packages" for n in op.packages
    ]
    assert plan_on(cloud, "the broker isn't needed").operations == []  # names no capability


@pytest.mark.parametrize(
    "request_text",
    ["can it also auto-register as a build agent?", "could it also self-enroll in our MDM?"],
)
def test_an_english_compound_said_weakly_is_no_package(request_text: str) -> None:
    result = plan(request_text, DEBIAN)
    assert added(result) == []
    assert result.not_applied  # reported, not guessed


def test_an_english_compound_the_user_installs_is_a_package() -> None:
    assert added(plan("install auto-rotate", DEBIAN)) == ["auto-rotate"]
