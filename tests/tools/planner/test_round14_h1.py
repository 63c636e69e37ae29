"""References to the conversation and questions (issue 21, round 14, helper h1).

The sentences were written for these tests, not copied from the labelled conversations.
Each class is checked with paraphrases that differ in verb, order and field, and with
near-misses that must not trigger.
"""

from __future__ import annotations

import pytest
import yaml

from oic_ai.graph.agent import TemplateAgent
from oic_ai.nodes.classify import route_request
from oic_ai.tools.planner.builtin import plan_request
from oic_ai.tools.planner.rules.beyond import beyond_template
from oic_ai.tools.planner.rules.target import _SAME_TARGET_PART
from oic_ai.tools.pointers import resolve_pointers
from oic_ai.tools.proposals import needed_subject, resolve_if_so
from oic_ai.tools.questions import questions_of
from oic_ai.tools.references import find_reference
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import ops_of, plan_on

EMT = (OUR_TEMPLATES / "emt3-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
AZL_ISO = (OUR_TEMPLATES / "azl3-x86_64-installer-iso.yml").read_text(encoding="utf-8")


# --- a terse question made of a field's name, its shorthand and a word of time -----------


@pytest.mark.parametrize("said", ["pkg htop", "add the pkg list", "pkgs: htop, curl"])
def test_a_field_shorthand_without_a_question_mark_asks_nothing(said: str) -> None:
    assert not questions_of(said).only_questions, said


# --- a question after a spoken opener ("wait", "hm", "actually") ------------------------


def test_a_change_after_a_spoken_opener_is_still_a_change() -> None:
    for said in ("wait, add htop", "hm make the disk 8GiB", "actually drop curl"):
        assert route_request(said, EMT)["intent"] == "refine", said


# --- a request that says it is a question, about "the same" image elsewhere -------------


@pytest.mark.parametrize(
    "said",
    [
        "quick q: would the same ISO also boot on aarch64 boards?",
        "small question before we continue: can the same installer be made for arm64?",
        "just curious, would the same image work on arm64?",
        "out of curiosity, could this ISO be built for aarch64 as well?",
        "does the same installer run on arm64 boards?",
    ],
)
def test_a_question_about_the_same_image_elsewhere_changes_nothing(said: str) -> None:
    route = route_request(said, AZL_ISO)
    assert route["intent"] == "explain", route


@pytest.mark.parametrize(
    "said",
    [
        "the same installer for arm64 please",
        "what about the same for debian?",
        "quick question for the team: add htop",
    ],
)
def test_a_request_for_the_same_image_elsewhere_is_no_question(said: str) -> None:
    assert route_request(said, AZL_ISO)["intent"] != "explain"


# --- a hostname or address that differs per device: no template holds it ----------------


@pytest.mark.parametrize(
    "said",
    [
        "can every box pick its hostname automatically from the site it is installed at?",
        "give every gateway a hostname based on its MAC address",
        "the hostname should come from DHCP on each device",
        "the IP address should depend on the store network the box sits in",
        "name the hosts after their serial number, so the hostname is derived per unit",
    ],
)
def test_a_per_device_hostname_or_address_is_beyond_the_template(said: str) -> None:
    found = beyond_template(said)
    assert [item.label.name for item in found] == ["per-device-values"], said


@pytest.mark.parametrize(
    "said",
    [
        "hostname kiosk-01",
        "hostname lab-01; packages updated automatically via unattended-upgrades",
        "set the hostname to based-on-3",
    ],
)
def test_a_plain_hostname_is_no_per_device_value(said: str) -> None:
    assert not [b for b in beyond_template(said) if b.label.name == "per-device-values"]


def test_a_question_about_a_per_device_hostname_is_reported_as_not_applied() -> None:
    said = "could each kiosk get its hostname automatically depending on the store network?"
    assert route_request(said, EMT)["intent"] == "explain"
    assert beyond_template(said)


# --- taking back changes: "go back" alone, the state the undo reaches -------------------
# (other verbs that throw a change away: tests/tools/test_round14_h2_references.py)


@pytest.mark.parametrize(
    "said",
    [
        "drop the last package",
        "remove the last two users",
        "drop it",
        "forget the docker stuff",
        # "go back" to somewhere is no bare undo
        "go back to debian",
        "we will go back to the vendor about it",
        "I'll go back and ask the team, meanwhile add htop",
        "we need to go back and check the sizes",
    ],
)
def test_throwing_away_a_part_or_going_back_somewhere_is_no_undo(said: str) -> None:
    found = find_reference(said)
    assert found is None or found.kind != "undo", said


@pytest.mark.parametrize(
    "said",
    ["no, go back, qcow2 was fine", "go back please", "hmm step back one", "go back and add htop"],
)
def test_go_back_alone_takes_back_the_last_change(said: str) -> None:
    found = find_reference(said)
    assert found is not None and found.kind == "undo", said


@pytest.mark.parametrize("undo", ["undo", "scratch that", "nah, revert that"])
def test_a_bare_undo_after_a_refused_request_takes_back_the_refused_one(
    agent: TemplateAgent, undo: str
) -> None:
    first = agent.generate("debian 13 server image, raw, x86_64, with htop")
    second = agent.generate("add curl", session=first.session)
    refused = agent.generate("and an installer iso for arm64", session=second.session)
    assert refused.status == "unsupported"
    taken = agent.generate(undo, session=refused.session)
    assert taken.template == second.template
    assert "nothing taken back" in taken.message.lower()
    again = agent.generate("undo", session=taken.session)
    assert again.template == first.template  # the next undo reaches the last change


def test_an_undo_that_names_a_part_after_a_refusal_still_takes_it_back(
    agent: TemplateAgent,
) -> None:
    first = agent.generate("debian 13 server image, raw, x86_64, with htop")
    second = agent.generate("add curl", session=first.session)
    refused = agent.generate("make it an iso for arm64", session=second.session)
    taken = agent.generate("undo the curl change", session=refused.session)
    assert taken.template == first.template


# --- after a refusal: "same arch" keeps a part of the target; new target words win -------


@pytest.mark.parametrize(
    "said",
    [
        "ok then a raw disk image, same arch",
        "debian 13 instead, same architecture as before",
        "add htop and keep the same release",
        "same arch pls, and qcow2 output",
        "use the same distro, 16GiB disk",
    ],
)
def test_the_same_part_of_the_target_asks_for_no_change(said: str) -> None:
    result = plan_on("debian13-x86_64-minimal-raw.yml", said)
    assert not result.not_applied, result.not_applied
    assert any(c.outcome == "context" and "same" in c.text for c in result.clauses)


@pytest.mark.parametrize(
    "said", ["keep the same version of nginx", "same hostname as before", "the same users"]
)
def test_the_same_other_thing_is_no_target_part(said: str) -> None:
    assert _SAME_TARGET_PART.search(said) is None


@pytest.mark.parametrize(
    ("refused", "answer", "gone"),
    [
        (
            "need a centos 7 iso for the old MES terminals",
            "fine, the RHEL-compatible one, raw",
            "iso",
        ),
        ("ubuntu 22.04 installer iso for the kiosks, with cups", "ok 24.04 then, raw disk", "iso"),
        ("ubuntu 20.04 raw image for arm64 with docker", "24.04 it is, x86_64", "arm64"),
        (
            "rocky 9 qcow2 for the lab, aarch64, with htop",
            "alright el10 then, on x86_64",
            "aarch64",
        ),
    ],
)
def test_after_a_refusal_the_answer_s_target_words_replace_the_refused_ones(
    refused: str, answer: str, gone: str
) -> None:
    first = route_request(refused, None)
    assert first["intent"] == "unsupported"
    second = route_request(answer, None, first)
    carried = str(second.get("carried_request") or "")
    assert gone not in carried.lower(), carried


def test_after_a_refusal_target_words_the_answer_does_not_name_stay() -> None:
    first = route_request("ubuntu 22.04 installer iso for the kiosks, with cups", None)
    second = route_request("ok 24.04 then", None, first)
    assert "iso" in str(second.get("carried_request") or "").lower()
    assert second["targets"].get("image_type") == "iso"


# --- a question whether something is needed, and the answer that accepts it --------------


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("do I also need the docker command line tool separately?", "the docker command line tool"),
        ("does the gateway need a firewall at all?", "a firewall"),
        ("is an NTP client included already?", "an NTP client"),
        ("is there a web server installed, or not?", "a web server"),
        ("would we need to install something for time sync?", "something for time sync"),
    ],
)
def test_what_a_question_asks_is_needed(question: str, subject: str) -> None:
    assert needed_subject(question) == subject


@pytest.mark.parametrize("question", ["do we need it?", "is it included?", "what is needed?"])
def test_a_question_about_a_pronoun_names_nothing_needed(question: str) -> None:
    assert needed_subject(question) == ""


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        (
            "is an NTP client included? if not, add one",
            "add an NTP client. is an NTP client included?",
        ),
        (
            "does it need a firewall? if yes install it",
            "install a firewall. does it need a firewall?",
        ),
        (
            "do we need something to read MQTT? if so pls add whatever is usual",
            "add something to read MQTT. do we need something to read MQTT?",
        ),
        (
            "is chrony there? if it isn't, please put in the standard package, and 8GiB disk",
            "put in chrony. is chrony there?, and 8GiB disk",
        ),
    ],
)
def test_if_so_add_it_names_what_the_question_asked_about(said: str, meant: str) -> None:
    assert " ".join(resolve_if_so(said).split()) == meant


@pytest.mark.parametrize(
    "said", ["add htop. if so add it", "if so add it", "make it 8GiB if needed"]
)
def test_if_so_without_a_question_stays_as_written(said: str) -> None:
    assert resolve_if_so(said) == said


def test_the_command_line_tool_of_a_package_is_its_cli() -> None:
    for said in ("add the docker command line tool", "install docker's command-line client"):
        result = plan_on("debian13-x86_64-minimal-raw.yml", said)
        assert not result.not_applied, said
        assert [op["packages"] for op in ops_of(result, "add_packages")] == [["docker-cli"]]
    kernel = plan_on("debian13-x86_64-minimal-raw.yml", "add quiet to the kernel command line")
    assert ops_of(kernel, "set_kernel") and not kernel.not_applied


def test_yes_after_a_question_whether_something_is_needed_adds_it(agent: TemplateAgent) -> None:
    first = agent.generate("debian 13 server image, raw, x86_64")
    asked = agent.generate("do I also need the docker command line tool?", session=first.session)
    assert asked.template == first.template
    taken = agent.generate("ok yes, add it then", session=asked.session)
    assert "docker-cli" in (taken.template or "")
    assert not taken.not_applied


def test_a_need_question_with_if_so_adds_in_the_same_turn(agent: TemplateAgent) -> None:
    first = agent.generate("debian 13 server image, raw, x86_64")
    said = "does the box need something to send MQTT messages? if so add whatever is normal"
    taken = agent.generate(said, session=first.session)
    assert "mosquitto" in (taken.template or "")


# --- an entry renamed, the rest of it kept ------------------------------------------------


def _with_pi_and_data() -> str:
    doc = yaml.safe_load((OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text())
    doc["systemConfig"]["users"] = [
        {"name": "pi", "sudo": True, "groups": ["dialout"]},
        {"name": "ops"},
    ]
    doc["disk"]["partitions"].append(
        {"id": "data", "mountPoint": "/data", "fsType": "ext4", "start": "4GiB", "end": "0"}
    )
    return yaml.safe_dump(doc, sort_keys=False)


@pytest.mark.parametrize(
    "said",
    [
        "actually name the account hub rather than pi, keep everything else",
        "rename pi to hub please",
        "the user pi should be called hub",
        "change the username from pi to hub",
        "hub instead of pi for the user, same groups",
    ],
)
def test_a_user_renamed_keeps_its_settings(said: str) -> None:
    plan = plan_request(said, _with_pi_and_data(), mode="refine")
    assert not plan.not_applied, plan.not_applied
    assert [
        (op.op, getattr(op, "path", ""), getattr(op, "value", None)) for op in plan.operations
    ] == [("set", "systemConfig.users[name=pi].name", "hub")]


@pytest.mark.parametrize(
    "said",
    ["rename the /data partition to /srv", "the /data mount should be /srv instead"],
)
def test_a_partition_renamed_keeps_its_size_and_file_system(said: str) -> None:
    plan = plan_request(said, _with_pi_and_data(), mode="refine")
    assert not plan.not_applied, plan.not_applied
    assert [(getattr(op, "path", ""), getattr(op, "value", None)) for op in plan.operations] == [
        ("disk.partitions[id=data].mountPoint", "/srv")
    ]


@pytest.mark.parametrize(
    "said",
    [
        "call the user bob instead of carl",
        "rename ops to pi",
        "add a user hub",
        "the user pi should be in the video group too",
    ],
)
def test_no_rename_without_the_old_entry_or_onto_an_existing_one(said: str) -> None:
    plan = plan_request(said, _with_pi_and_data(), mode="refine")
    renamed = [op for op in plan.operations if str(getattr(op, "path", "")).endswith(".name")]
    assert not renamed, plan.operations


def test_a_user_renamed_in_a_conversation_keeps_sudo_and_groups(agent: TemplateAgent) -> None:
    first = agent.generate("debian 13 raw image for arm64 boards")
    second = agent.generate("user pi with sudo, groups dialout", session=first.session)
    third = agent.generate("call that user hub instead of pi", session=second.session)
    users = yaml.safe_load(third.template or "")["systemConfig"]["users"]
    assert [u["name"] for u in users] == ["hub"]
    assert users[0].get("sudo") is True and "dialout" in users[0].get("groups", [])


# --- a place word points at an entry of any of the template's lists ---------------------


def _with_repos() -> str:
    doc = yaml.safe_load((OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text())
    doc["packageRepositories"] = [
        {"codename": "a", "url": "https://a.example.com/deb"},
        {"codename": "b", "url": "https://b.example.com/deb"},
    ]
    doc["systemConfig"]["packages"] = ["sudo", "htop", "jq"]
    return yaml.safe_dump(doc, sort_keys=False)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("drop the last package", "drop jq"),
        ("the 2nd package can go", "htop can go"),
        ("give the second partition xfs", "give the / partition xfs"),
        ("the first partition: how big is it?", "the /boot/efi partition: how big is it?"),
        ("remove the second repo", "remove the repo https://b.example.com/deb"),
        (
            "the last package repository wants priority 10",
            "the repo https://b.example.com/deb wants priority 10",
        ),
        (
            "set priority 5 on the first mirror",
            "set priority 5 on the repo https://a.example.com/deb",
        ),
    ],
)
def test_a_place_word_points_at_the_entry_at_that_place(said: str, meant: str) -> None:
    assert resolve_pointers(said, _with_repos()) == meant


@pytest.mark.parametrize(
    "said",
    [
        "add a second partition /data",
        "add another package",
        "remove the third repo",
        "go back to the first package list",
    ],
)
def test_a_place_word_with_nothing_there_or_a_new_entry_stays(said: str) -> None:
    assert resolve_pointers(said, _with_repos()) == said


@pytest.mark.parametrize(
    "said",
    [
        "quick question: can you add htop?",
        "just curious, what's the hostname? also add htop",
        "small q, could you please make the disk 8GiB?",
    ],
)
def test_a_change_beside_a_declared_question_is_still_a_change(said: str) -> None:
    assert route_request(said, EMT)["intent"] == "refine", said
