"""Round 26, p20: packages in everyday phrasing, probed across families.

Classes: a condition on a package's absence said first ("if X isn't there, add it");
names joined by slashes (three or more) or by an unspaced "+"; "give me X" after a
negation; a name of one family said on the other family's target.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.planner import plan_request
from tests.tools.planner.helpers import added, plan_on, removed, with_packages

AZL3 = "azl3-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"
EL10 = "el10-x86_64-minimal-raw.yml"
EMT = "emt3-x86_64-minimal-raw.yml"
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("if htop isn't there add it", ["htop"]),
        ("if htop is not installed, add it", ["htop"]),
        ("if htop and jq aren't in there, add them", ["htop", "jq"]),
        ("if there's no htop, add it", ["htop"]),
        ("in case curl is missing please add it", ["curl"]),
        ("if tmux is not already in the image, then install it", ["tmux"]),
    ],
)
def test_a_condition_on_absence_said_first_adds(said: str, names: list[str]) -> None:
    plan = plan_on(UBUNTU, said)
    assert added(plan) == names
    assert removed(plan) == []
    assert plan.not_applied == []


def test_a_condition_on_absence_of_a_present_package_notes_it() -> None:
    plan = plan_request("if htop isn't there add it", with_packages("htop"), mode="refine")
    assert added(plan) == [] and removed(plan) == []
    assert any("htop" in note for note in plan.notes)


@pytest.mark.parametrize(
    "said",
    [
        "if htop isn't there it's fine",  # no request: a remark
        "if nginx isn't running, restart it",  # a service's state, no package to add
    ],
)
def test_near_misses_of_a_condition_add_nothing(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert added(plan) == []
    assert removed(plan) == []


@pytest.mark.parametrize(
    ("template", "said", "names"),
    [
        (UBUNTU, "add htop/jq/curl", ["htop", "jq", "curl"]),
        (AZL3, "add tcpdump/nmap/traceroute", ["tcpdump", "nmap", "traceroute"]),
        (UBUNTU, "add git+vim", ["git", "vim"]),
        (AZL3, "install htop+jq+curl", ["htop", "jq", "curl"]),
        (UBUNTU, "add tcpdump/nmap", ["tcpdump", "nmap"]),
    ],
)
def test_names_joined_by_signs_are_a_list(template: str, said: str, names: list[str]) -> None:
    plan = plan_on(template, said)
    assert added(plan) == names
    assert plan.not_applied == []


@pytest.mark.parametrize(
    ("template", "said", "names"),
    [
        (AZL3, "add gcc-c++", ["gcc-c++"]),  # the "+" is part of the name
        (UBUNTU, "add libstdc++6", ["libstdc++6"]),
    ],
)
def test_a_plus_inside_a_name_keeps_it_whole(template: str, said: str, names: list[str]) -> None:
    assert added(plan_on(template, said)) == names


@pytest.mark.parametrize(
    ("said", "adds"),
    [
        ("I don't want vim, give me nano", ["nano"]),
        ("I don't want nano, give me vim", ["vim"]),
        ("no docker, give us podman", ["podman"]),
        ("give me htop and jq", ["htop", "jq"]),
    ],
)
def test_give_me_adds_after_a_negation(said: str, adds: list[str]) -> None:
    plan = plan_on(UBUNTU, said)
    assert added(plan) == adds
    assert removed(plan) == []


def test_give_me_a_minute_adds_nothing() -> None:
    assert added(plan_on(UBUNTU, "give me a minute, I'll think about packages")) == []


@pytest.mark.parametrize(
    ("template", "said", "names"),
    [
        (AZL3, "install dnsutils", ["bind-utils"]),
        (EL10, "add dnsutils", ["bind-utils"]),
        (EMT, "add dnsutils and curl", ["bind-utils", "curl"]),
        (UBUNTU, "add bind-utils", ["dnsutils"]),
        (UBUNTU, "install gcc-c++", ["g++"]),
        (AZL3, "add g++", ["gcc-c++"]),
        (UBUNTU, "add openssl-devel", ["libssl-dev"]),
        (AZL3, "add libssl-dev", ["openssl-devel"]),
        (DEBIAN, "add python3-devel", ["python3-dev"]),
        (AZL3, "add python3-dev", ["python3-devel"]),
    ],
)
def test_a_name_of_the_other_family_becomes_the_targets(
    template: str, said: str, names: list[str]
) -> None:
    plan = plan_on(template, said)
    assert added(plan) == names
    assert plan.not_applied == []


@pytest.mark.parametrize(
    ("template", "said", "names"),
    [
        (DEBIAN, "add dnsutils", ["dnsutils"]),  # the family's own name stays
        (EL10, "add bind-utils", ["bind-utils"]),
        (UBUNTU, "add g++", ["g++"]),
        (AZL3, "add openssl-devel", ["openssl-devel"]),
    ],
)
def test_a_name_of_the_targets_own_family_stays(template: str, said: str, names: list[str]) -> None:
    assert added(plan_on(template, said)) == names
