"""Questions about what the composer builds (issue 21, round 3).

"Can Debian do arm64?", "which eLxr releases are there?", "what is a netboot image?":
such a question leaves the template (or the empty session) as it is and is answered from
the target registry. A change asked as a question ("could you make it arm64?") is still a
change. The sentences are written for these tests, not copied from the labelled sets.
"""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.nodes.classify import route_request
from oic_ai.stores.targets import load_targets
from oic_ai.tools.target_questions import asks_about_targets, target_answer
from tests.conftest import OUR_TEMPLATES

UBUNTU = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "request_text",
    [
        "could you move it to arm64? the new boards are here",
        "can it be a netboot image instead?",
        "would you make it Debian 13?",
        "switch to emt3 please",
    ],
)
def test_a_change_asked_as_a_question_is_still_a_change(request_text: str) -> None:
    assert route_request(request_text, UBUNTU)["intent"] not in ("explain", "unsupported")


@pytest.mark.parametrize(
    ("request_text", "intent"),
    [
        # a question about targets makes nothing
        ("which releases of eLxr are there?", "explain"),
        ("hi! what's an ISO installer compared to a raw disk image?", "explain"),
        ("what architectures does azl3 come in?", "explain"),
        ("is emt3 supported on arm64?", "explain"),
        # the target named in statements around the question, which ask for nothing
        (
            "the lab crew would like to evaluate debian for the bench testers. arm64. "
            "which image types could you make for that?",
            "explain",
        ),
        ("we are considering azl3 for the kiosks, x86_64 - what formats can you do?", "explain"),
        # a statement around it that asks for a change still creates, and so does a
        # target beside a question about something else
        ("our kiosks must show a web page, what do we need? debian 13 please", "create"),
        ("debian 13 for the bench testers, add htop. which image types are there?", "create"),
        # a request or a proposal still creates
        ("do you have a template for a point-of-sale terminal?", "create"),
        ("what about the same installer for x86_64 then, with htop?", "create"),
        ("an iso installer of debian 13 for the service laptops", "create"),
        ("is there an image for digital signage on ubuntu?", "create"),
        # a request beside a question about it: build it, and answer
        (
            "my manager wants a PXE image of Azure Linux 3 for the lab racks. which image "
            "type would that be?",
            "create",
        ),
        ("we need an installer ISO of debian 13. what is the difference to a raw one?", "create"),
        (
            "I've been told to make a PXE boot image with eLxr 12. No idea what image type "
            "that is. Could you choose one for me and explain?",
            "create",
        ),
    ],
)
def test_with_no_template_only_a_question_about_targets_makes_nothing(
    request_text: str, intent: str
) -> None:
    assert route_request(request_text, None)["intent"] == intent


def test_the_answer_names_each_release_and_what_it_builds() -> None:
    targets = load_targets()
    answer = target_answer("which Ubuntu releases can you build?")
    for dist in targets.oses["ubuntu"].dists:
        assert targets.title(dist) in answer
    assert "Debian" not in answer
    assert "aarch64" in answer  # every line says what each release builds


def test_the_answer_about_an_arch_lists_only_the_dists_that_build_it() -> None:
    answer = target_answer("what can you do on arm64?")
    assert "aarch64" in answer
    assert all(targets_line.count("(") >= 1 for targets_line in answer.splitlines()[1:])


def test_the_answer_about_image_types_says_what_each_one_is() -> None:
    answer = target_answer("netboot or installer, what's the difference?")
    assert "network-boot image" in answer and "ISO installer" in answer
    assert "imageType img" in answer and "imageType iso" in answer
    assert "one imageType" in answer  # two kinds in one template: no, one each


def test_the_answer_about_a_system_not_built_names_the_nearest() -> None:
    answer = target_answer("and alma linux 8, can you do that?")
    assert "cannot build" in answer and "el10" in answer


def test_a_question_about_the_templates_own_target_is_no_target_question() -> None:
    own = {"os": "ubuntu", "dist": "ubuntu24", "arch": "x86_64", "imageType": "raw"}
    assert not asks_about_targets("which release is it on, ubuntu 24.04?", own)
    assert asks_about_targets("is there an arm64 flavour of it?", own)


def test_a_question_after_a_refusal_keeps_the_refused_target_for_the_next_turn(
    agent: Any,
) -> None:
    refused = agent.generate("Debian 13 for our riscv64 dev kits, raw, with htop")
    assert refused.status == "unsupported"
    asked = agent.generate("ok. which architectures can debian do?", session=refused.session)
    assert asked.status != "unsupported" and "aarch64" in asked.message
    assert not agent.current_template(refused.session)
    made = agent.generate("fine, arm64 then", session=refused.session)
    assert "dist: debian13" in made.template and "arch: aarch64" in made.template


def test_everything_else_as_said_after_a_refusal_carries_the_refused_requests_parts(
    agent: Any,
) -> None:
    refused = agent.generate("an alpine 3.20 raw image with nginx, hostname gate-4")
    assert refused.status == "unsupported"
    session = refused.session
    made = agent.generate("ok, debian 13 then, the rest as I said", session=session)
    assert "dist: debian13" in made.template
    assert "- nginx" in made.template and "hostname: gate-4" in made.template
    assert not made.not_applied
    moved = agent.generate("make it arm64, keep everything else", session=session)
    assert "arch: aarch64" in moved.template and "hostname: gate-4" in moved.template
    assert not moved.not_applied


def test_the_image_type_chosen_is_explained_when_the_request_asks_why() -> None:
    from oic_ai.tools.target_questions import image_type_choice

    request = "please build a pxe image with emt3 for the stateless nodes. why that type?"
    line = image_type_choice(request, "img")
    assert line is not None and "network-boot image (img)" in line and "'pxe'" in line
    assert load_targets().image_types["img"].about in line
    assert image_type_choice("please build a pxe image with emt3", "img") is None
    assert image_type_choice("an emt3 image. why is the disk 4GiB?", "raw") is None


def test_a_request_beside_its_question_gets_the_template_and_the_reason(agent: Any) -> None:
    result = agent.generate(
        "I have to build a network boot image of Ubuntu 24.04 for our diskless kiosks. "
        "I am not sure which image type that is, can you choose and say why?"
    )
    assert result.template and "imageType: img" in result.template
    assert "Image type: network-boot image (img)" in result.message


def test_a_nearer_release_picked_beside_a_statement_carries_the_refused_requests_parts(
    agent: Any,
) -> None:
    refused = agent.generate("debian 12 raw image for the test stands with nginx and htop")
    assert refused.status == "unsupported"
    made = agent.generate(
        "our plc runtime is only validated on bookworm, sadly. ok, debian 13 and we will "
        "cope with it",
        session=refused.session,
    )
    assert "dist: debian13" in made.template
    assert "- nginx" in made.template and "- htop" in made.template
    assert not made.not_applied, made.not_applied


def test_a_statement_about_what_something_else_runs_on_leaves_with_the_refused_system() -> None:
    said = "need ubuntu 22.04 for the till PCs with cups. the POS vendor only certifies jammy :("
    refused = route_request(said, None)
    assert refused["intent"] == "unsupported"
    assert refused["unsupported"]["rest"] == "need for the till PCs with cups"
    # a clause that asks for something keeps its words, only the system goes
    asked = route_request("need ubuntu 22.04 for the till PCs, make the disk 8GiB", None)
    assert asked["unsupported"]["rest"] == "need for the till PCs, make the disk 8GiB"
