"""Other languages mixed into English, chat filler, and what a turn refers back to.

Issue 21, round 25, helper p14. The sentences were written for these tests, not copied
from the labelled conversations. Each class is checked with reworded forms and with
near-misses that must not trigger (a real unknown request must still be reported, and
an ordinary word must never become a package).
"""

from __future__ import annotations

from typing import Any

import pytest

from oic_ai.nodes.classify import route_request
from oic_ai.tools.edit_plan import (
    AddPackages,
    AddUser,
    RemovePackages,
    SetHostname,
    SetImmutability,
)
from oic_ai.tools.machine_arch import resolve_machine_arch
from oic_ai.tools.planner.asking import read_clause
from oic_ai.tools.planner.languages import detect, translate
from oic_ai.tools.questions import questions_of
from tests.tools.planner.helpers import plan_after, plan_on

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
AZL = "azl3-x86_64-minimal-raw.yml"
AZL_ISO = "azl3-x86_64-installer-iso.yml"
EMT = "emt3-x86_64-immutable-secureboot-raw.yml"


def _added(plan: Any) -> list[str]:
    return [p for op in plan.operations if isinstance(op, AddPackages) for p in op.packages]


def _removed(plan: Any) -> list[str]:
    return [p for op in plan.operations if isinstance(op, RemovePackages) for p in op.packages]


# --- Hindi written in Latin letters: a small table, read as English ---------------------


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("nginx aur podman daal do", ["nginx", "podman"]),
        ("htop aur tmux daal do please", ["htop", "tmux"]),
        ("tcpdump bhi daal do", ["tcpdump"]),
    ],
)
def test_hindi_words_between_names_are_no_packages(said: str, wanted: list[str]) -> None:
    plan = plan_on(AZL, said)
    assert sorted(_added(plan)) == sorted(wanted)
    assert plan.not_applied == []


@pytest.mark.parametrize("said", ["podman hata do", "podman nahi chahiye", "podman nikal do"])
def test_a_removal_in_hindi_removes(said: str) -> None:
    plan = plan_after(AZL, "add podman and nginx", said)
    assert _removed(plan) == ["podman"]
    assert plan.not_applied == []


def test_a_need_in_hindi_is_no_user() -> None:
    plan = plan_after(AZL, "add podman", "podman hata do, docker chahiye actually")
    assert "podman" in _removed(plan)
    assert "moby-engine" in _added(plan)
    assert not any(isinstance(op, AddUser) for op in plan.operations)
    assert plan.not_applied == []


def test_a_postposition_governs_the_word_before_it() -> None:
    assert "with sudo" in translate("aur ek user 'ops' bana do sudo ke saath")
    plan = plan_on(AZL, "hostname gw-pune-2 rakh do, aur ek user 'ops' bana do sudo ke saath")
    users = [op for op in plan.operations if isinstance(op, AddUser)]
    assert [(u.name, u.sudo) for u in users] == [("ops", True)]
    assert any(isinstance(op, SetHostname) for op in plan.operations)


def test_a_hindi_request_for_an_image_is_its_head() -> None:
    plan = plan_on(
        AZL, "bhai ek image chahiye packing line ke scanner gateway ke liye", mode="create"
    )
    assert plan.not_applied == []


def test_hindi_words_in_an_english_message_change_nothing() -> None:
    # one word of the table is not enough to read a message as Hindi
    assert detect("add the ki tools and mat for the lab") == []
    plan = plan_after(AZL, "add podman", "podman hata do, and set the timezone to Asia/Kolkata")
    assert _removed(plan) == ["podman"]
    assert plan.not_applied  # the time zone is still reported


# --- a word nothing knows between known names joins them ------------------------------


@pytest.mark.parametrize("said", ["nginx zork podman", "add nginx zork podman"])
def test_an_unknown_word_between_known_names_is_reported_not_added(said: str) -> None:
    plan = plan_on(AZL, said)
    assert sorted(_added(plan)) == ["nginx", "podman"]
    assert any("'zork'" in entry for entry in plan.not_applied)


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("nginx zork-agent podman", "zork-agent"),  # a package's shape marks it
        ("nginx tool2 podman", "tool2"),
        ("nginx, zork, podman", "zork"),  # commas mark the list
    ],
)
def test_a_marked_name_between_known_names_stays_a_name(said: str, name: str) -> None:
    assert name in _added(plan_on(AZL, said))


# --- "no X" in other languages ----------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "Pas de docker, pas de cloud-init s'il vous plaît.",
        "Merci d'ajouter chrony. Pas de cloud-init, merci.",
    ],
)
def test_pas_de_is_no(said: str) -> None:
    plan = plan_on(AZL_ISO, said)
    assert "cloud-init" not in _added(plan)
    assert "docker" not in _added(plan)


@pytest.mark.parametrize(
    "said", ["nada de tmux, por favor", "niente tmux, grazie", "ningún tmux por favor"]
)
def test_no_x_in_spanish_and_italian_removes(said: str) -> None:
    plan = plan_after(UBUNTU, "agrega htop y tmux por favor", said)
    assert _removed(plan) == ["tmux"]


# --- chat filler and remarks stay quiet -------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "kk. call the computer robo-pi",
        "kk call the machine robo-pi",
        "okie, hostname robo-pi",
        "mkay. hostname robo-pi",
    ],
)
def test_chat_spellings_of_ok_are_quiet(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert plan.not_applied == []
    assert any(isinstance(op, SetHostname) for op in plan.operations)


def test_ok_said_in_chat_does_not_hide_a_request() -> None:
    plan = plan_on(UBUNTU, "kk, also set the timezone to UTC")
    assert plan.not_applied


@pytest.mark.parametrize(
    "said",
    [
        "chotto matte. is chrony already there?",
        "un momento, add htop",
        "einen Moment, add htop",
        "ek minute. add htop",
    ],
)
def test_wait_a_moment_in_other_languages_is_quiet(said: str) -> None:
    assert plan_on(UBUNTU, said).not_applied == []


def test_wait_a_moment_does_not_hide_a_request() -> None:
    assert plan_on(UBUNTU, "chotto matte, set the timezone to Asia/Tokyo").not_applied


@pytest.mark.parametrize(
    "said",
    [
        "need an image for the checkout lanes. pos terminals, ubuntu 24.04.",
        "we need an image for the line. hmi panels, ubuntu 24.04.",
        "image for the shop floor. kds screens, plc controllers, ubuntu 24.04.",
    ],
)
def test_a_lower_case_acronym_before_a_machine_noun_describes_it(said: str) -> None:
    assert plan_on(UBUNTU, said, mode="create").not_applied == []


def test_an_unknown_long_word_before_a_machine_noun_is_still_reported() -> None:
    plan = plan_on(UBUNTU, "image for the line. foobarctl terminals, ubuntu 24.04.", mode="create")
    assert plan.not_applied


@pytest.mark.parametrize(
    "said",
    [
        "Do not add anything I did not ask for.",
        "please do not add anything I did not ask for",
        "do not install anything else",
        "please do not add anything extra",
        "don't install anything we never requested",
    ],
)
def test_a_negated_change_of_what_nobody_asked_for_keeps_the_rest(said: str) -> None:
    assert read_clause(said).asking == "context"


@pytest.mark.parametrize(
    "said", ["do not enable the wifi", "please do not add telnet", "do not set a timezone"]
)
def test_a_negated_change_that_names_something_still_asks(said: str) -> None:
    assert read_clause(said).asking == "asks"


def test_the_unasked_remark_beside_a_change_is_quiet() -> None:
    plan = plan_on(UBUNTU, "add chrony. Do not add anything I did not ask for.", mode="create")
    assert _added(plan) == ["chrony"]
    assert plan.not_applied == []


# --- a question in Spanish is answered --------------------------------------------------


@pytest.mark.parametrize(
    "said", ["¿tiene openssh-server?", "¿hay openssh-server?", "¿tiene sudo el usuario ops?"]
)
def test_a_spanish_question_is_a_question(said: str) -> None:
    found = questions_of(said)
    assert found.questions
    assert not found.changes


@pytest.mark.parametrize("said", ["¡agrega htop!", "agrega htop", "¿puedes agregar htop?"])
def test_a_spanish_request_is_still_a_change(said: str) -> None:
    assert questions_of(said).changes


# --- the root file system said to be writable is immutability off ----------------------


@pytest.mark.parametrize(
    "said",
    [
        "Rootfs must be writable on this unit.",
        "the root filesystem should be writable",
        "make the rootfs read-write",
        "Immutability off. Root fs has to be writable here.",
    ],
)
def test_a_writable_root_turns_immutability_off(said: str) -> None:
    plan = plan_on(EMT, said)
    ops = [op for op in plan.operations if isinstance(op, SetImmutability)]
    assert [op.enabled for op in ops] == [False]
    assert plan.not_applied == []


def test_a_writable_data_partition_is_no_immutability() -> None:
    plan = plan_on(EMT, "the data partition must be writable")
    assert not any(isinstance(op, SetImmutability) for op in plan.operations)


# --- machines named again take the architecture said of them ---------------------------

_HISTORY = [
    "an installer iso of ubuntu 24 for the back office pcs please",
    "same iso but for the arm64 tablets at the pickup counter",
    "ok, what can i do for those tablets then",
]


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        ("then a raw image for the tablets, same packages", "for the arm64 tablets"),
        ("make one for those tablets too", "for those arm64 tablets"),
    ],
)
def test_machines_named_again_take_their_arch(said: str, wanted: str) -> None:
    assert wanted in resolve_machine_arch(said, _HISTORY)


@pytest.mark.parametrize(
    ("said", "history"),
    [
        ("then a raw image for the tablets on x86", _HISTORY),  # it names its own arch
        ("then a raw image for the pcs", _HISTORY),  # no arch was said of them
        ("the tablets are slow", _HISTORY),  # not "for" or "on" them
        ("for the boxes", ["arm64 boxes and x86 boxes"]),  # two arches: no telling
    ],
)
def test_machines_without_one_arch_said_stay_as_written(said: str, history: list[str]) -> None:
    assert resolve_machine_arch(said, history) == said


def test_machines_said_to_be_an_arch_after_the_noun() -> None:
    said = resolve_machine_arch("for the tablets", ["the tablets are arm64, the kiosks x86"])
    assert said == "for the arm64 tablets"


# --- a question asked beside a need, and a relayed value then a request ----------------


@pytest.mark.parametrize(
    "said",
    [
        "for my OS class i need a linux image i can run in virtualbox. which one is easiest?",
        "i need an image for my home lab vm. which one would you recommend?",
        "we need a small image for the kiosks. which linux should we go with?",
    ],
)
def test_which_one_is_easiest_asks_for_a_pick(said: str) -> None:
    assert route_request(said, None)["intent"] == "explain"


@pytest.mark.parametrize(
    "said",
    [
        "i need a debian image for the kiosk. which one is easiest?",  # it names one
        "i need a linux image for the kiosk. which one has the latest kernel? build it",
    ],
)
def test_a_named_target_or_a_plain_question_still_creates(said: str) -> None:
    assert route_request(said, None)["intent"] == "create"


@pytest.mark.parametrize(
    "said",
    [
        "whats the difference between GB and GiB? my teacher said 25GB so put 25GB",
        "my lead said 16 GB, so make the disk 16 GB",
    ],
)
def test_a_relayed_value_then_a_request_is_a_change(said: str) -> None:
    assert questions_of(said).changes


def test_a_relayed_need_before_a_question_stays_background() -> None:
    said = "IT says the user needs sudo so the techs can work. why is that?"
    assert not questions_of(said).changes
