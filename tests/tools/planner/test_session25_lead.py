"""Session 25, the lead's reading fixes: a need said of the future, a wish said of a package.

"we'll need jq", "I will need htop": a future need asks for the package as "we need jq" does
(the statement words "will" and "we'll" used to make it a statement, so it was reported or,
beside another clause, dropped). "htop would be nice", "tmux is nice to have": a wish said
of a known package asks for it; before, it was read as a remark and nothing was said of it.
"it should run nginx": running a package is having it.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.planner import plan_request
from tests.tools.planner.helpers import template_text

UBUNTU = template_text("ubuntu24-x86_64-minimal-raw.yml")


def _added(said: str) -> tuple[list[str], list[str]]:
    plan = plan_request(said, UBUNTU, mode="refine")
    added = [p for op in plan.operations if op.op == "add_packages" for p in op.packages]
    return added, plan.not_applied


@pytest.mark.parametrize(
    ("said", "packages"),
    [
        ("we'll need htop", ["htop"]),
        ("we will need htop and jq", ["htop", "jq"]),
        ("I'll need tmux on it", ["tmux"]),
        ("they will want htop", ["htop"]),
        ("we'll need nginx for the web ui", ["nginx"]),
        ("the operators will need jq", ["jq"]),
        ("we'll need to install htop", ["htop"]),
        ("htop would be nice", ["htop"]),
        ("jq would be really handy", ["jq"]),
        ("tmux is nice to have", ["tmux"]),
        ("htop would help", ["htop"]),
        ("nginx would be great for the dashboard", ["nginx"]),
        ("it should run nginx", ["nginx"]),
        ("the box must run chrony", ["chrony"]),
    ],
)
def test_a_future_need_or_a_wish_said_of_a_package_asks_for_it(
    said: str, packages: list[str]
) -> None:
    added, not_applied = _added(said)
    assert sorted(added) == sorted(packages) and not_applied == [], (added, not_applied)


@pytest.mark.parametrize(
    "said",
    [
        "we won't need htop",  # a future without it: never an addition
        "we will not need jq",
        "that would be great",  # a wish that names no package
        "it would be nice if it booted faster",
        "it should run fast",  # "run" with no package after it
        "it should run the app from /opt",
        "we will use the image for testing",
    ],
)
def test_near_misses_add_nothing(said: str) -> None:
    added, _ = _added(said)
    assert added == []


def test_a_wish_for_a_word_that_is_no_package_adds_nothing() -> None:
    added, _ = _added("a bigger screen would be nice")
    assert added == []


def _removed(said: str) -> tuple[list[str], list[str], list[str]]:
    from oic_ai.tools.applier import apply_plan

    text = apply_plan(UBUNTU, plan_request("add htop, jq and tmux", UBUNTU, mode="refine")).text
    plan = plan_request(said, text, mode="refine")
    removed = [p for op in plan.operations if op.op == "remove_packages" for p in op.packages]
    added = [p for op in plan.operations if op.op == "add_packages" for p in op.packages]
    return removed, added, plan.not_applied


@pytest.mark.parametrize(
    ("said", "packages"),
    [
        # removal verbs of everyday speech that were read as nothing at all
        ("yank htop", ["htop"]),
        ("nix jq", ["jq"]),
        ("kill tmux", ["tmux"]),
        ("htop - not needed", ["htop"]),
        ("jq \u2014 not needed", ["jq"]),
        ("htop and jq can both go", ["htop", "jq"]),
        ("take htop off", ["htop"]),
        ("take htop and jq off the image", ["htop", "jq"]),
        ("take off tmux", ["tmux"]),
        ("pull tmux off", ["tmux"]),
        ("take jq off please", ["jq"]),
    ],
)
def test_everyday_removals(said: str, packages: list[str]) -> None:
    removed, added, not_applied = _removed(said)
    assert sorted(removed) == sorted(packages) and not added and not_applied == [], (
        removed,
        added,
        not_applied,
    )


@pytest.mark.parametrize(
    "said",
    [
        "take the day off",
        "take off the day",
        "take time off",
        "get the image out by friday",
        "take zsh off devops-admin",  # a user's shell, not the package
    ],
)
def test_idioms_with_off_and_out_remove_nothing(said: str) -> None:
    removed, added, _ = _removed(said)
    assert removed == [] and added == []


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("is ssh enabled?", "Yes: ssh is covered by openssh-server"),
        ("is docker enabled?", "No: nothing in the package list provides docker"),
        ("are the services enabled?", "Services: a template has no field"),
        ("is it enabled?", "Services: a template has no field"),
    ],
)
def test_whether_a_service_is_on_says_whether_it_is_there(question: str, first: str) -> None:
    from oic_ai.tools.explain_template import describe_template

    answer = describe_template(UBUNTU, question)
    assert answer.startswith(first), answer
    assert "Services: a template has no field" in answer


def test_the_kernel_answer_names_its_package() -> None:
    from oic_ai.tools.explain_template import describe_template

    answer = describe_template(UBUNTU, "which kernel?")
    assert "Kernel: 6.17 (linux-image-generic-hwe-24.04)" in answer


@pytest.mark.parametrize(
    ("said", "reason"),
    [
        # "keep" is a verb of keeping, yet the bank's example of a wish no field holds
        ("keep journald logs for 30 days max", "how long logs are kept"),
        ("weekly log rotation", "how long logs are kept"),
    ],
)
def test_wishes_no_field_holds_are_reported_not_dropped(said: str, reason: str) -> None:
    plan = plan_request(said, UBUNTU, mode="refine")
    assert plan.operations == []
    assert len(plan.not_applied) == 1 and reason in plan.not_applied[0], plan.not_applied


@pytest.mark.parametrize(
    "said",
    [
        "keep the root partition as is",
        "the root partition stays",
        "the boxes never suspend",  # a statement about the machines
        "thanks a lot",
        "cheers mate",
    ],
)
def test_remarks_stay_quiet(said: str) -> None:
    plan = plan_request(said, UBUNTU, mode="refine")
    assert plan.operations == [] and plan.not_applied == []


@pytest.mark.parametrize(
    ("said", "user", "sudo"),
    [
        ("add the ops user", "ops", False),
        ("create the deploy account with sudo", "deploy", True),
        ("we need the ops user too", "ops", False),
    ],
)
def test_a_definite_user_after_an_adding_verb_is_added(said: str, user: str, sudo: bool) -> None:
    plan = plan_request(said, UBUNTU, mode="refine")
    users = [(op.name, bool(op.sudo)) for op in plan.operations if op.op == "add_user"]
    assert users == [(user, sudo)] and plan.not_applied == []


@pytest.mark.parametrize(
    "said",
    [
        "add the nginx user to the docker group",  # a package's name: never a new account
        "the user is fine",
    ],
)
def test_a_definite_role_word_alone_adds_no_user(said: str) -> None:
    plan = plan_request(said, UBUNTU, mode="refine")
    assert not [op for op in plan.operations if op.op == "add_user"]


@pytest.mark.parametrize(
    "said",
    [
        # another machine has it, or the user's own does
        "they already have python on their laptops",
        "htop is what I normally use on my desktop",
        "the build server has docker installed",
        "our CI runners use podman",
        # left behind, only weighed, or disliked
        "we tried podman but went back",
        "we compared it with yocto",
        "we moved away from snapd last year",
        "they hate systemd",
        # what users do is no user's name
        "users log in via LDAP at the customer",
    ],
)
def test_what_another_machine_has_or_a_team_left_changes_nothing(said: str) -> None:
    plan = plan_request(said, UBUNTU, mode="refine")
    assert plan.operations == [], [op.label() for op in plan.operations]


@pytest.mark.parametrize(
    ("said", "packages"),
    [
        ("put htop on it, like on my desktop", ["htop"]),
        ("add docker, the build server has it too", ["docker.io"]),
        ("we tried podman and it works well, add it", ["podman"]),
        ("install python for the laptops' scripts", ["python3"]),
    ],
)
def test_a_request_beside_another_machine_still_asks(said: str, packages: list[str]) -> None:
    added, _ = _added(said)
    assert set(packages) <= set(added), added


def _cmdline(said: str) -> list[str]:
    import yaml

    from oic_ai.tools.applier import apply_plan

    plan = plan_request(said, UBUNTU, mode="refine")
    assert plan.not_applied == [], plan.not_applied
    doc = yaml.safe_load(apply_plan(UBUNTU, plan).text)
    return str(doc["systemConfig"]["kernel"]["cmdline"]).split()


@pytest.mark.parametrize(
    ("said", "option"),
    [
        # "on the kernel command line" says where: "on" there is no state
        ("disable ipv6 on the kernel command line", "ipv6.disable=1"),
        ("mitigations off on the kernel cmdline", "mitigations=off"),
        ("enable audit on the kernel command line", "audit=1"),
        ("turn apparmor on in the kernel cmdline", "apparmor=1"),
        ("enable the intel iommu", "intel_iommu=on"),
    ],
)
def test_kernel_states_in_words(said: str, option: str) -> None:
    assert option in _cmdline(said)


def test_a_verbose_boot_takes_quiet_away() -> None:
    import yaml

    from oic_ai.tools.applier import apply_plan

    quiet = apply_plan(UBUNTU, plan_request("add quiet splash", UBUNTU, mode="refine")).text
    plan = plan_request("make boot verbose", quiet, mode="refine")
    assert plan.not_applied == []
    cmdline = yaml.safe_load(apply_plan(quiet, plan).text)["systemConfig"]["kernel"]["cmdline"]
    assert "quiet" not in cmdline.split() and "splash" not in cmdline.split()


def test_a_gpg_key_after_a_component_is_no_component() -> None:
    said = (
        "repository: https://repo.example.com/apt, suite jammy, component contrib, "
        "gpg key https://repo.example.com/gpg"
    )
    plan = plan_request(said, UBUNTU, mode="refine")
    repo = next(op for op in plan.operations if op.op == "add_repository")
    assert (repo.codename, repo.component, repo.pkey) == (
        "jammy",
        "contrib",
        "https://repo.example.com/gpg",
    )
