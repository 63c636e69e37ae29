"""Everyday forms from the writer's set a, reworded: where a name goes is no package."""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import plan_on

DEBIAN = "debian13-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("request_text", "added"),
    [
        ("put tcpdump on the list", ["tcpdump"]),
        ("add jq to the install list", ["jq"]),
        ("stick htop onto the package list please", ["htop"]),
    ],
)
def test_the_list_a_name_goes_on_is_no_package(request_text: str, added: list[str]) -> None:
    plan = plan_on(DEBIAN, request_text)
    assert [o.model_dump()["packages"] for o in plan.operations] == [added]
    assert plan.not_applied == []


def test_a_name_already_listed_is_said_so() -> None:
    plan = plan_on(DEBIAN, "Add openssh-server to the list.")  # the template has it
    assert plan.operations == [] and plan.not_applied == []
    assert "Already present: openssh-server" in plan.summary


@pytest.mark.parametrize(
    ("request_text", "size"),
    [
        ("Grow the disk, 40G should do.", "40GiB"),
        ("enlarge the image; 6 gigs is enough", "6GiB"),
    ],
)
def test_a_resizing_verb_with_its_size_in_the_next_clause_is_applied(
    request_text: str, size: str
) -> None:
    plan = plan_on(DEBIAN, request_text)
    assert [o.model_dump(exclude_none=True) for o in plan.operations] == [
        {"op": "set_disk_size", "size": size}
    ]
    assert plan.not_applied == []


def test_a_resizing_verb_without_a_size_is_still_reported() -> None:
    plan = plan_on(DEBIAN, "shrink the image, and add htop")
    assert any("shrink" in line for line in plan.not_applied)


@pytest.mark.parametrize(
    ("request_text", "summary"),
    [
        ("We want GPT, not MBR.", "already gpt"),
        ("stick with gpt rather than msdos", "already gpt"),
    ],
)
def test_a_bare_partition_table_acronym_after_a_verb_is_the_table(
    request_text: str, summary: str
) -> None:
    plan = plan_on(DEBIAN, request_text)
    assert plan.not_applied == [] and summary in plan.summary


def test_mbr_said_bare_is_read_and_needs_legacy_boot() -> None:
    plan = plan_on(DEBIAN, "go with mbr and legacy boot")
    values = [o.model_dump(exclude_none=True) for o in plan.operations]
    assert {"op": "set", "path": "disk.partitionTableType", "value": "mbr"} in values


def test_an_acronym_inside_a_name_is_no_table() -> None:
    plan = plan_on(DEBIAN, "add htop with gpt-auto-generator")
    assert "partition table" not in plan.summary


@pytest.mark.parametrize(
    ("request_text", "reported"),
    [
        ("Add the Docker CE apt repo.", "package repository"),  # nearest example: a user
        ("add the user account", "user account"),
    ],
)
def test_the_field_a_clause_names_chooses_its_report(request_text: str, reported: str) -> None:
    plan = plan_on(DEBIAN, request_text)
    assert len(plan.not_applied) == 1 and reported in plan.not_applied[0]


@pytest.mark.parametrize(
    "remark",
    [
        "Metrics ship to our Datadog from a sidecar.",  # a plural subject and what it does
        "Containers run under another team's agent.",
        "OK, I know, legacy things.",  # an old thing, not the boot type
        "The legacy apps stay on the old hosts.",
    ],
)
def test_a_statement_changes_nothing(remark: str) -> None:
    assert plan_on(DEBIAN, remark).operations == []


@pytest.mark.parametrize(
    "request_text",
    ["use legacy", "legacy", "legacy hardware, it only boots bios", "boot mode legacy"],
)
def test_legacy_said_of_booting_is_the_boot_type(request_text: str) -> None:
    plan = plan_on(DEBIAN, request_text)
    assert {"op": "set_bootloader", "boot_type": "legacy"} in [
        o.model_dump(exclude_none=True) for o in plan.operations
    ]


@pytest.mark.parametrize(
    "remark",
    [
        "our previous images were qcow2",
        "the old gateways ran arm64",
        "the last batch shipped as ISOs",
    ],
)
def test_what_was_said_alone_changes_no_target(remark: str) -> None:
    assert plan_on(DEBIAN, remark).operations == []


@pytest.mark.parametrize(
    ("request_text", "op"),
    [
        ("the boards are arm64", {"op": "set_target", "arch": "aarch64"}),
        ("make it arm64, the old ones were x86", {"op": "set_target", "arch": "aarch64"}),
    ],
)
def test_what_is_still_asks(request_text: str, op: dict[str, str]) -> None:
    assert op in [o.model_dump(exclude_none=True) for o in plan_on(DEBIAN, request_text).operations]
