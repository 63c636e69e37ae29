"""Questions about the template inside a request (issue 21, round 2).

A request that only asks questions (beside small talk or "don't change anything") leaves
the template as it is and its answer names what was asked about; a request that also asks
for a change does the change and answers after it. The sentences are written for these
tests, not copied from the labelled conversations.
"""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.nodes.classify import route_request
from oic_ai.tools.explain_template import describe_template
from oic_ai.tools.questions import questions_of
from tests.conftest import OUR_TEMPLATES

UBUNTU = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
TEMPLATES = {
    "ubuntu": UBUNTU,
    "emt": (OUR_TEMPLATES / "emt3-x86_64-minimal-raw.yml").read_text(encoding="utf-8"),
    # a template with a target only
    "bare": "image:\n  name: x\ntarget:\n  os: ubuntu\n  dist: ubuntu24\n  arch: x86_64\n",
}


@pytest.mark.parametrize(
    ("request_text", "template"),
    [
        ("cheers. remind me what the host name is?", "ubuntu"),
        ("users?", "ubuntu"),
        ("hostname and disk?", "ubuntu"),
        ("who is allowed to use sudo?", "ubuntu"),
        ("Before we go on, what kernel options are set right now?", "ubuntu"),
        ("Kindly confirm the architecture and which packages it ships.", "ubuntu"),
        ("Could you tell me which repositories it uses?", "ubuntu"),
        ("One question, and leave it as it is: is there an ssh server in it?", "ubuntu"),
        ("Which accounts exist, and do they have admin rights?", "ubuntu"),
        # a version number's dot ends no sentence
        ("morning! one thing first — do you support ubuntu 26.04 on arm?", "ubuntu"),
        # a question after a dash, behind a statement
        ("the old appliance had its web UI on 8443 - is there anything to set for that?", "ubuntu"),
        # a modal question about what the image will do
        ("would it boot on an older atom board?", "ubuntu"),
        # other languages, with words that say only a question is asked
        ("quanto espaço sobra para o /var? só pergunta", "ubuntu"),
        ("ile pakietów ma teraz obraz? tylko pytam, nic nie zmieniaj", "ubuntu"),
        ("¿cuánto ocupa la imagen? solo pregunto", "ubuntu"),
        ("wie groß ist das Abbild? nur eine Frage", "ubuntu"),
        # the question word left in place at the end
        ("the kernel line reads how now?", "ubuntu"),
        ("so the partitions are which ones?", "ubuntu"),
        # a question word fused with "is" asks even without its mark
        ("whats the disk size at the moment", "ubuntu"),
        ("who's got sudo on it rn", "ubuntu"),
        # a question in another word order changes nothing (round 4)
        ("the disk is 8 GiB now? that is enough for logs?", "ubuntu"),
        ("what does secure boot do here? should we turn it on?", "ubuntu"),
        ("Our manager asked which users the image has and who of them can sudo.", "ubuntu"),
        (
            "The auditor wants to know whether the kernel line has audit=1. Nothing to change.",
            "ubuntu",
        ),
        (
            "One for the release notes, no changes please: we ship this to customers. "
            "Is it signed?",
            "ubuntu",
        ),
        ("Is there a firewall? I'm only asking, our network team handles that.", "ubuntu"),
        ("Which packages did we pick? We need them for the purchase order.", "ubuntu"),
        ("image name and hostname?", "ubuntu"),
        # a question about what is built leaves the template
        ("does emt3 support arm64 boards?", "ubuntu"),
        ("elxr12 support aarch64?", "ubuntu"),
        ("would eLxr be lighter than this? only wondering, we stay put", "ubuntu"),
        ("could one image be both a netboot image and an ISO?", "ubuntu"),
        ("will azure linux be faster to boot? just asking, keep Ubuntu for now", "ubuntu"),
        ("Which Azure Linux versions are available?", "ubuntu"),
        # a terse question made of a field's name, its shorthand and a word of time (round 14, h1)
        ("pkgs rn?", "emt"),
        ("users atm?", "emt"),
        ("current package list?", "emt"),
        ("the full list of packages?", "emt"),
        ("hostname right now?", "emt"),
        ("kernel cmdline so far?", "emt"),
        # a question after a spoken opener ("wait", "hm", "actually") (round 14, h1)
        ("hm does the unit matter if I typed MB?", "emt"),
        ("wait, is sudo on for ops?", "emt"),
        ("actually is the disk big enough for docker?", "emt"),
        ("um which users are there now?", "emt"),
        # a topic, then a question about it (round 17)
        ("the signed-by part of that line, does it matter on arm64?", "bare"),
        ("ok the loglevel=7 thing, is that needed?", "bare"),
        ("the console=ttyS1 entry, is it still needed?", "bare"),
        ("wait, the 3GiB disk, is it big enough for the logs?", "bare"),
        # a condition before a question (round 17)
        ("if I leave the hostname out, what does the image get?", "bare"),
        ("unless we set a disk size, how big is it?", "bare"),
        ("in case I add no users, who can log in?", "bare"),
        # keeping the template, then a question without its mark (round 17)
        ("fine, keep the x86 one. which packages did i ask for", "bare"),
        ("keep this version then. what users are on it", "bare"),
        ("ok keep the current image. how big is the disk", "bare"),
    ],
)
def test_a_request_that_only_asks_is_a_question(request_text: str, template: str) -> None:
    found = questions_of(request_text)
    assert found.only_questions, found
    route = route_request(request_text, TEMPLATES[template])
    assert route["intent"] == "explain", route


@pytest.mark.parametrize(
    "request_text",
    [
        "can you add htop?",  # a change asked as a question
        "could we get a bigger disk?",
        "add tmux, and which users are there?",  # a change beside a question
        "ok, keep it raw. what packages are in it?",
        # a change beside a question in another word order (round 4)
        "add htop. the disk is 8 GiB now?",  # the change stays a change
        "she asked me to add htop",  # a reported request, no reported question
        "we need htop for the support team",  # a named object asks for it
    ],
)
def test_a_request_that_asks_for_a_change_is_not_only_a_question(request_text: str) -> None:
    assert not questions_of(request_text).only_questions
    assert route_request(request_text, UBUNTU)["intent"] != "explain"


def test_a_question_beside_a_change_is_recorded_for_the_answer() -> None:
    route = route_request("add tmux, and which users are there?", UBUNTU)
    assert route["intent"] == "refine"
    assert route.get("questions") == ["which users are there"]


SECURE = UBUNTU.replace(
    "  immutability:\n    enabled: false\n",
    "  immutability:\n    enabled: true\n"
    "    secureBootDBKey: /srv/sb/db.key\n    secureBootDBCrt: /srv/sb/db.crt\n",
    1,
)


def test_answers_name_the_values_asked_about() -> None:
    assert SECURE != UBUNTU
    assert "/srv/sb/db.key" in describe_template(SECURE, "which secure boot key path is used?")
    release = describe_template(UBUNTU, "which OS release does it target?")
    assert "24.04" in release
    users = describe_template(
        UBUNTU.replace(
            "systemConfig:\n",
            "systemConfig:\n  users:\n    - name: ana\n      sudo: true\n    - name: bo\n",
            1,
        ),
        "which users exist, and does either of them have sudo?",
    )
    assert "ana" in users and "bo" in users and "package list" not in users


def test_a_question_turn_keeps_the_template_and_a_mixed_turn_changes_it(agent: Any) -> None:
    first = agent.generate("a minimal ubuntu 24.04 raw image, hostname quay-3")
    session = first.session
    before = agent.current_template(session)
    asked = agent.generate("ta. what's the host name again?", session=session)
    assert agent.current_template(session) == before
    assert "quay-3" in asked.message
    mixed = agent.generate("add tmux, and what packages does it have now?", session=session)
    after = agent.current_template(session)
    assert after != before and "tmux" in after
    assert "tmux" in mixed.message.split("Changes:", 1)[1]


@pytest.mark.parametrize(
    "request_text",
    [
        "can it have htop as well, please",
        "add htop - would it fit on 4GiB?",
        "install jq. solo pregunto si cabe",
        # a change, then a question about it (round 17)
        "add htop, is that ok?",
        "please set the hostname to gw-2, is it fine like that?",
        # a request beside a question without its mark (round 17)
        "why does it have vim, remove it",
        "keep the x86 one and add htop. what users",
        # a declared question beside an imperative (round 16, h3)
        "Quick question: add htop. Is the hostname set?",
        "Quick q, I want qcow2 too. Is it raw?",
    ],
)
def test_a_change_beside_such_a_question_is_still_a_change(request_text: str) -> None:
    assert questions_of(request_text).changes


def test_each_question_of_a_request_is_answered_on_its_own(agent: Any) -> None:
    first = agent.generate("a minimal ubuntu 24.04 raw image with tmux")
    session = first.session
    before = agent.current_template(session)
    asked = agent.generate(
        "hm, is strace in this image already? just checking, no changes", session=session
    )
    assert agent.current_template(session) == before
    assert asked.message.startswith("No:") and "strace" in asked.message.split("\n")[0]
    there = agent.generate("and is tmux in the template yet?", session=session)
    assert there.message.startswith("Yes:") and "tmux" in there.message.split("\n")[0]


@pytest.mark.parametrize(
    "request_text", ["make the disk whatever size you think", "add htop, which is nice"]
)
def test_a_question_word_inside_a_change_asks_nothing(request_text: str) -> None:
    found = questions_of(request_text)
    assert found.changes and not found.questions


def test_is_x_part_of_it_and_a_package_that_holds_the_word_are_answered() -> None:
    part = describe_template(UBUNTU, "is openssh-server part of this image or not?")
    assert part.startswith("Yes:") and "openssh-server" in part
    near = describe_template(UBUNTU, "is minimal in there?")
    assert "ubuntu-minimal" in near and not near.startswith("Yes")
    absent = describe_template(UBUNTU, "is strace part of the image?")
    assert absent.startswith("No:")


def test_a_question_beside_a_change_is_not_read_as_a_change(agent: Any) -> None:
    first = agent.generate("a minimal ubuntu 24.04 raw image")
    answer = agent.generate(
        "add tmux. What's in the package list at this point?", session=first.session
    )
    assert "tmux" in agent.current_template(first.session)
    assert answer.not_applied == []
    assert "openssh-server" in answer.message.split("Changes:", 1)[-1]
    # a change asked as a question keeps every item it names
    changed = agent.generate(
        "The console is noisy. Can you add quiet and splash?", session=first.session
    )
    cmdline = agent.current_template(first.session).split("cmdline:", 1)[1].split("\n", 1)[0]
    assert "quiet" in cmdline and "splash" in cmdline, changed.message
