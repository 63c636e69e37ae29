"""Capabilities named by what they are or do (issue 21, round 3).

The sentences were written for these tests. A capability phrase may carry words that
only qualify it (a kind of software: "runtime", "broker", "utils"; a word of the same
capability's phrases: "intel"); "drop the <word>" removes what the one capability with
that word installed; "we will use X" names what the image has; "the can bus" is a noun.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"


def plan(request: str, template: str = DEBIAN, text: str | None = None) -> EditPlan:
    if text is None:
        text = (OUR_TEMPLATES / template).read_text(encoding="utf-8")
    return plan_request(request, text, mode="refine")


def changed(result: EditPlan, op_name: str) -> list[str]:
    return [
        name
        for op in result.operations
        if op.op == op_name
        for name in op.packages  # type: ignore[union-attr]
    ]


@pytest.mark.parametrize(
    ("request_text", "wanted"),
    [
        ("throw in the opencl runtime", {"intel-opencl-icd", "clinfo"}),
        ("we need the intel opencl runtime", {"intel-opencl-icd", "clinfo"}),
        ("add a telemetry broker daemon", {"mosquitto"}),
        ("include the canbus userspace tools", {"can-utils"}),
        ("the can bus utils as well", {"can-utils"}),
        ("add a jdk 21 for the builds", {"openjdk-21-jdk-headless"}),
        ("we will use chromium on the front desk", {"chromium"}),
        ("wg too, tunnels back to HQ", {"wireguard-tools"}),
        ("and a vpn for the field techs", {"wireguard-tools"}),
    ],
)
def test_a_capability_with_words_that_qualify_it(request_text: str, wanted: set[str]) -> None:
    result = plan(request_text)
    assert wanted <= set(changed(result, "add_packages")), (result.operations, result.not_applied)
    assert not result.not_applied, result.not_applied


def test_a_plan_of_ours_names_only_known_software() -> None:
    result = plan("we will use qzviewer there, add jq")
    assert changed(result, "add_packages") == ["jq"]


def test_drop_the_word_of_an_installed_capability_removes_it() -> None:
    base = (OUR_TEMPLATES / DEBIAN).read_text(encoding="utf-8")
    with_broker = apply_plan(base, plan("add mosquitto and can-utils", text=base)).text
    result = plan("get rid of the broker, nothing subscribes locally", text=with_broker)
    removed = changed(result, "remove_packages")
    assert "mosquitto" in removed and "can-utils" not in removed, result.operations
    assert not result.not_applied, result.not_applied


def test_drop_a_word_no_installed_capability_has_removes_nothing() -> None:
    result = plan("drop the broker")  # nothing of the mqtt capability is installed
    assert not changed(result, "remove_packages")


def test_a_pick_among_kinds_replaces_the_broad_phrase() -> None:
    result = plan("with a web browser for the lobby screen; chromium is what the team knows")
    assert changed(result, "add_packages") == ["chromium"], result.operations
    assert not result.not_applied, result.not_applied


def test_a_pick_keeps_what_was_named_and_ignores_unknown_names() -> None:
    result = plan("add firefox and chromium, chromium is what we use")
    assert set(changed(result, "add_packages")) == {"firefox-esr", "chromium"}
    assert not changed(plan("qzviewer is what they use, nothing else"), "add_packages")


def test_another_dists_spelling_maps_to_this_dists() -> None:
    # firefox is Ubuntu's name; Debian 13 ships the browser as firefox-esr
    assert changed(plan("add firefox"), "add_packages") == ["firefox-esr"]
