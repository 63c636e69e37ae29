"""Round 16 (h3): targets, questions, undo and names."""

from __future__ import annotations

from pathlib import Path

import pytest

from oic_ai.nodes.classify import route_request
from oic_ai.tools.explain_template import describe_template
from oic_ai.tools.planner.builtin import plan_request
from oic_ai.tools.questions import questions_of
from oic_ai.tools.references import find_reference, undo_names

UBUNTU = (
    "image:\n  name: x\ntarget:\n  os: ubuntu\n  dist: ubuntu24\n  arch: x86_64\n  imageType: raw\n"
)
NOBLE_NEXT = UBUNTU.replace("ubuntu24", "ubuntu26")


# -- "we also have X, can I get the same for arm64?" asks for an image -------------------


@pytest.mark.parametrize(
    "request_text",
    [
        "We also have i.MX-class rigs, can I get the same thing built for aarch64?",
        "We also run a few Pis, could we have this one for arm64 as well?",
        "they also have arm boards. can you do the same for aarch64?",
        "I also look after some Ampere servers; could I get the same image on arm64?",
    ],
)
def test_a_statement_with_also_then_a_request_for_the_same_image(request_text: str) -> None:
    route = route_request(request_text, UBUNTU)
    assert route["intent"] == "retarget"
    assert route["reference"]["target"]["arch"] == "aarch64"


def test_also_between_two_parts_still_splits_them() -> None:
    found = questions_of("add htop also which users are there?")
    assert found.questions == ("which users are there",)
    assert found.changes


# -- undo: terse checklists and "back to what it was" -------------------------------------


@pytest.mark.parametrize(
    "text", ["- revert last", "undo last", "roll back previous change", "revert latest step"]
)
def test_a_terse_undo_of_the_last_change(text: str) -> None:
    found = find_reference(text)
    assert found is not None and found.kind == "undo"
    assert undo_names(found.marker) == []


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("on second thought put the disk size back to what it was before", ["disk", "size"]),
        ("change the hostname back to the previous one", ["hostname"]),
        ("restore the old disk size please", ["disk", "size"]),
        ("reset the loglevel to how it was", ["loglevel"]),
        ("return the hostname to what it was before, thanks", ["hostname"]),
    ],
)
def test_a_part_put_back_to_what_it_was_is_an_undo_of_it(text: str, names: list[str]) -> None:
    found = find_reference(text)
    assert found is not None and found.kind == "undo"
    assert undo_names(found.marker) == names


# -- questions (a question then a polite request, a declared question's lead-in: rows of
# the routing table in tests/graph/test_routing): names and contents answered -----------


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("is trixie what debian 13 is called? just checking", '"trixie"'),
        ("what's the codename of this release?", '"trixie"'),
        ("What's the image called at the moment?", "image debian13-x86_64-minimal-raw"),
        ("what's actually going in there apart from docker?", "Packages: 10 —"),
        ("so what goes into the image?", "openssh-server"),
    ],
)
def test_names_and_contents_are_answered(question: str, expected: str) -> None:
    text = Path("image-templates/debian13-x86_64-minimal-raw.yml").read_text()
    assert expected in describe_template(text, question)


# -- what a template cannot hold ----------------------------------------------------------


def _plan(text: str, template: str = "el10-x86_64-minimal-raw") -> object:
    base = Path("image-templates") / f"{template}.yml"
    return plan_request(text, base.read_text(), mode="refine")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("The firewall also needs to allow SMB (port 445) from the office LAN only.", "firewall"),
        ("open samba through the firewall please", "firewall"),
        ("the firewall should block telnet", "firewall"),
        ("also the wifi of office, the name is OFICINA-5G, can you put?", "network"),
        ("please put our wireless network at the lab on it", "network"),
        ("make it join the wifi", "network"),
        ("Can you also make it bring up can0 at 500 kbit/s on boot?", "network"),
        ("set the can bitrate to 250000", "network"),
    ],
)
def test_wishes_no_template_holds_change_nothing(text: str, reason: str) -> None:
    plan = _plan(text)
    assert not plan.operations  # type: ignore[attr-defined]
    assert any(reason in item for item in plan.not_applied)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "package"),
    [("add ufw", "ufw"), ("add wifi support", "network-manager")],
)
def test_the_packages_for_them_are_still_added(text: str, package: str) -> None:
    plan = _plan(text, "ubuntu24-x86_64-minimal-raw")
    added = [p for op in plan.operations for p in getattr(op, "packages", [])]  # type: ignore[attr-defined]
    assert package in added


@pytest.mark.parametrize(
    "text",
    [
        "Ok understood, I'll do network and firewall after first boot. Add htop.",
        "we'll handle dns and the proxy ourselves, add htop",
        "I will sort out monitoring and the backups later; add htop",
        "fine, we're going to do the vpn and certificates by hand. add htop",
    ],
)
def test_what_the_user_will_do_themselves_is_context(text: str) -> None:
    plan = _plan(text)
    assert plan.not_applied == []  # type: ignore[attr-defined]
    assert [p for op in plan.operations for p in getattr(op, "packages", [])] == ["htop"]  # type: ignore[attr-defined]


def test_a_request_after_what_the_user_will_do_still_asks() -> None:
    plan = _plan("I'll do network and add htop")
    assert [p for op in plan.operations for p in getattr(op, "packages", [])] == ["htop"]  # type: ignore[attr-defined]
