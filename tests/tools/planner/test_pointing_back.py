"""Words that point back inside one request: "remove it", "take X out", a negated paraphrase.

The sentences are written for these tests, not copied from the labelled conversations.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.planner.text import RequestText
from tests.tools.planner.helpers import added, plan_on, removed

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("said", "gone"),
    [
        ("openssh-server is pointless on an air-gapped box. remove it", ["openssh-server"]),
        ("systemd-resolved: we ship our own resolver, drop it", ["systemd-resolved"]),
        (
            "openssh-server and systemd-timesyncd are pointless here, drop them",
            ["openssh-server", "systemd-timesyncd"],
        ),
    ],
)
def test_a_pronoun_points_at_the_template_packages_the_request_named(
    said: str, gone: list[str]
) -> None:
    result = plan_on(UBUNTU, said)
    assert removed(result) == gone
    assert result.not_applied == []


def test_it_with_two_named_packages_is_reported_not_guessed() -> None:
    result = plan_on(UBUNTU, "openssh-server and systemd-timesyncd are here, drop it")
    assert removed(result) == []
    assert result.not_applied  # which one is meant is not known


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("please take it out", "please remove it"),
        ("rip cups and avahi out", "remove cups and avahi"),
        ("kick docker out of the image", "remove docker from the image"),
        ("leave the GUI out", "remove the GUI"),
        ("take splash back out. quiet stays", "remove splash. quiet stays"),
        # other verbs with "out", and "out of the box", stay as written
        ("check it out", "check it out"),
        ("take the output out of the box", "take the output out of the box"),
    ],
)
def test_a_two_part_removal_verb_reads_as_remove(said: str, read: str) -> None:
    assert RequestText(said).original == read


def test_take_x_out_removes_the_package() -> None:
    assert removed(plan_on(UBUNTU, "take openssh-server out, nobody logs in remotely")) == [
        "openssh-server"
    ]


@pytest.mark.parametrize(
    "said",
    [
        "these machines won't run containers",
        "we do not need to run containerized apps here",
        "the image shouldn't export host metrics",
    ],
)
def test_a_negated_paraphrase_adds_nothing(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert added(result) == []
    assert result.not_applied == []


def test_a_paraphrase_without_negation_still_adds() -> None:
    assert added(plan_on(UBUNTU, "these machines will run containers")) != []


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("parted out, gdisk is enough", "remove parted, gdisk is enough"),
        ("htop in, nano out", "htop in, remove nano"),
        ("we are out", "we are out"),  # no name before "out" as a clause of its own
    ],
)
def test_a_name_and_out_as_a_clause_reads_as_remove(said: str, read: str) -> None:
    assert RequestText(said).original == read


def test_two_known_names_joined_by_a_slash_are_two_names() -> None:
    assert added(plan_on(UBUNTU, "add htop/tmux")) == ["htop", "tmux"]
    assert removed(plan_on(UBUNTU, "drop openssh-server/systemd-resolved")) == [
        "openssh-server",
        "systemd-resolved",
    ]
    # a path is no list of names
    assert added(plan_on(UBUNTU, "add /opt/tools")) == []
