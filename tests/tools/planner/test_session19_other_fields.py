"""A value said for one field never lands in another (from the writer's set a, reworded).

- a size that belongs to a swap partition, the journal or a log cap is not the disk's;
- an adverb after an account word is no account name;
- an unknown name listed after a comma is a package only in a list of packages.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.planner.rules.storage import owned_elsewhere
from tests.tools.planner.helpers import plan_on

DEBIAN = "debian13-x86_64-minimal-raw.yml"


def _ops(request: str) -> list[dict[str, object]]:
    return [o.model_dump(exclude_none=True) for o in plan_on(DEBIAN, request).operations]


@pytest.mark.parametrize(
    "request_text",
    [
        "we want a swap partition as well, 2G",
        "the journal should stay small, capped at 150M",
        "keep the logs under 500M",
        "a tmpfs for scratch, 1G",
    ],
)
def test_a_size_of_something_else_is_reported_not_the_disk(request_text: str) -> None:
    plan = plan_on(DEBIAN, request_text)
    assert not any(o.op == "set_disk_size" for o in plan.operations)
    assert plan.not_applied  # what no rule could place is reported


@pytest.mark.parametrize(
    ("request_text", "size"),
    [
        ("make the image smaller, 4G will do", "4GiB"),
        ("16G disk", "16GiB"),
        ("add htop, 20G", "20GiB"),
        ("the swap can stay as it is; the disk itself 24G", "24GiB"),  # the disk said last
    ],
)
def test_a_size_said_of_the_disk_or_alone_is_the_disk(request_text: str, size: str) -> None:
    assert {"op": "set_disk_size", "size": size} in _ops(request_text)


def test_owned_elsewhere_looks_back_within_its_sentence_only() -> None:
    said = "Add a swap partition. 8G"
    assert not owned_elsewhere(said, said.index("8G"))  # a sentence of its own
    said = "a swap partition, 8G"
    assert owned_elsewhere(said, said.index("8G"))


@pytest.mark.parametrize(
    "request_text",
    [
        "disable the root account entirely",
        "lock the service account quickly",
    ],
)
def test_an_adverb_after_an_account_word_is_no_user(request_text: str) -> None:
    assert not any(o["op"] == "add_user" for o in _ops(request_text))


@pytest.mark.parametrize(
    ("request_text", "name"),
    [
        ("add an account bob quickly", "bob"),
        ("add user kelly", "kelly"),  # a name in -ly whose stem is no English word
        ("add a user called completely", "completely"),  # named outright
    ],
)
def test_names_stay_names(request_text: str, name: str) -> None:
    assert any(o["op"] == "add_user" and o["name"] == name for o in _ops(request_text))


@pytest.mark.parametrize(
    ("request_text", "added"),
    [
        ("rename the box per our scheme, loc-role-nn", None),
        ("hostname gw1, acme-agent", None),  # listed after a hostname: reported
        ("we need htop, acme-agent and jq", ["htop", "acme-agent", "jq"]),
        ("add htop, acme-agent", ["htop", "acme-agent"]),
        ("and acme-agent, from our repo", ["acme-agent"]),  # goes on with the last list
        ("60GB, docker.io and acme-runner", ["docker.io", "acme-runner"]),  # a dot in a name
    ],
)
def test_an_unknown_name_after_a_comma_needs_a_package_list(
    request_text: str, added: list[str] | None
) -> None:
    adds = [o for o in _ops(request_text) if o["op"] == "add_packages"]
    if added is None:
        assert adds == []
    else:
        assert adds and adds[0]["packages"] == added
