"""Clauses that explain rather than ask end as context, and what they explain stays right.

Each case pairs a change with a remark of a kind people write around their requests: a
sentence in a language the tables do not know, a statement about what something else does,
a command line shown as evidence, where the user comes from, an aside describing the
machine, a name the request already changed said again. The wordings are our own.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import added, plan_on

BASE = "debian13-x86_64-minimal-raw.yml"
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("request_text", "template"),
    [
        ("add htop, az ügyfél nem látja a képernyőt", BASE),  # Hungarian: no table for it
        ("add htop, it'll help the night shift", BASE),
        ("add htop. dpkg -l | grep htop showed nothing on the old box", BASE),
        ("coming from kiwi-ng: add htop", BASE),
        ("set the hostname to gw-7 and add htop (rk3588 board, emmc boot)", BASE),
        ("add htop and strace, the support desk lives in htop", BASE),
        ("add htop, only as a debugging aid", BASE),
        ("add htop, rest as it was", BASE),
        # purposes, plans and whole-image requests
        ("add htop so the night shift can watch the load", BASE),  # what a change is for
        ("add htop; the QA lab wants to try it first", BASE),  # a wish to do, not to change
        ("add htop, then give me the equivalent", BASE),  # the image as a whole
        # what the machine is to become (round 16, h1)
        ("i want to turn it into a little homelab box, add htop", UBUNTU),
        ("add htop; we'll use the old NUC as a media server", UBUNTU),
        ("we're repurposing these thin clients as our door kiosks. add htop", UBUNTU),
        ("add htop, the plan is to convert that laptop into a jump host", UBUNTU),
    ],
)
def test_a_remark_is_context_and_the_change_is_made(request_text: str, template: str) -> None:
    result = plan_on(template, request_text)
    assert "htop" in added(result), result.operations
    assert not result.not_applied, result.not_applied
    assert all(c.outcome != "not_applied" for c in result.clauses)


def test_what_something_else_does_adds_nothing() -> None:
    # "runs in a container" would mean docker if the image were its subject
    result = plan_on(BASE, "add htop; the broker runs in a container now")
    assert added(result) == ["htop"]
    asked = plan_on(BASE, "the boxes run containers")
    assert added(asked) == ["docker.io"]


def test_a_request_in_an_unknown_language_still_reports_what_it_asks() -> None:
    # the letters say "not English", but a value or a rule's word still asks
    result = plan_on(BASE, "add htop, az időzóna legyen Europe/Budapest")
    assert "htop" in added(result)
    assert result.not_applied, result.clauses


def test_also_adds_a_package_but_joins_a_remark_without_asking() -> None:
    assert "nfs-common" in added(plan_on(BASE, "also nfs-common"))
    remark = plan_on(BASE, "also the robot has a depth camera by USB. please add usbutils")
    assert added(remark) == ["usbutils"]
    assert not remark.not_applied, remark.not_applied


@pytest.mark.parametrize(
    ("said", "template"),
    [
        # a wish to change something still asks: a timezone is no template field, reported
        # and not dropped
        ("add htop; the QA lab wants to set the timezone to UTC", BASE),
        # a kept partition the disk lacks is reported (partition forms, round 13)
        ("keep /srv", UBUNTU),
        # a version without a format is still reported (round 15, h1)
        ("give me a version for the VMs", "debian13-x86_64-installer-iso.yml"),
        # a gateway with an address; people needing another field (round 15, h3)
        ("Edge gateway with a static gateway 10.0.0.1", UBUNTU),
        ("remove quiet, operators need a bigger disk", UBUNTU),
    ],
)
def test_what_no_rule_reads_beside_a_remark_is_still_reported(said: str, template: str) -> None:
    result = plan_on(template, said)
    assert result.not_applied, (result.operations, result.clauses)


def test_who_a_change_is_for_asks_nothing_more() -> None:
    result = plan_on("ubuntu24-x86_64-minimal-raw.yml", "also emit a qcow2 for the KVM runners")
    assert not result.not_applied, result.not_applied
    assert [a.type for op in result.operations for a in getattr(op, "artifacts", [])][-1] == "qcow2"


def test_a_use_case_word_in_a_new_request_chose_the_base_and_asks_no_packages() -> None:
    text = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    created = plan_request(
        "ubuntu 24.04 raw, with jq, for an industrial board", text, mode="create"
    )
    assert not created.not_applied, created.not_applied
    refined = plan_request("add industrial stuff", text, mode="refine")
    assert any("use case" in n for n in refined.not_applied)
