"""Helper p7's round in session 23: users said one after another, questions of what changes.

Found on dev15 and dev17; every sentence here is written for the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from oic_ai.tools.questions import questions_of
from tests.graph.runner import Conversation, builtin_settings
from tests.tools.planner.helpers import added, plan_after, plan_on, users

DEBIAN = "debian13-x86_64-minimal-raw.yml"
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
TWO_USERS = "users: admin (sudo, bash) and kiosk (no sudo, groups video,audio,input)"


# --- whom an account is for, between its name and its attributes ---------------------


@pytest.mark.parametrize(
    ("said", "first", "second", "sudo"),
    [
        ("add a user 'tio' without admin, and one 'admin' for me with sudo", "tio", "admin", True),
        ("a user 'ana' without sudo, and one 'boss' for me with sudo", "ana", "boss", True),
        ("create user 'olga' with sudo and 'pat' for my sister, no sudo", "olga", "pat", False),
        ("add user 'kim' (no sudo) plus 'lee' for the owner with sudo", "kim", "lee", True),
    ],
)
def test_whom_an_account_is_for_stands_between_its_name_and_attributes(
    said: str, first: str, second: str, sudo: bool
) -> None:
    result = plan_on(DEBIAN, said)
    found = users(result)
    assert second in found, result
    assert bool(found[second].get("sudo")) is sudo, result
    assert bool(found[first].get("sudo")) is not sudo, result
    assert not result.not_applied, result


def test_for_whom_alone_makes_no_user() -> None:
    # "for me" after a quoted word that is no user: nothing about users follows it
    result = plan_on(DEBIAN, "add a user 'tio' with sudo, and set the hostname 'shop' for me")
    assert set(users(result)) == {"tio"}, result


# --- a user brought in with its own article and role word is a new one ---------------


@pytest.mark.parametrize(
    "said",
    [
        "remove the admin user. we'll use kiosk plus a service account fieldsvc with sudo",
        "keep kiosk, plus an admin user tech with sudo",
        "kiosk and a new account fieldsvc with sudo",
    ],
)
def test_what_follows_a_new_user_is_said_of_it_alone(said: str) -> None:
    result = plan_after(UBUNTU, TWO_USERS, said)
    operations = result.model_dump()["operations"]
    assert not any(o.get("path") == "systemConfig.users[name=kiosk].sudo" for o in operations), (
        operations
    )
    added = [o for o in operations if o["op"] == "add_user"]
    assert len(added) == 1 and added[0]["sudo"] is True, operations


def test_names_joined_by_and_still_share_what_follows() -> None:
    # near-miss: two names with only "and" between them share the groups said after them
    result = plan_after(UBUNTU, TWO_USERS, "put kiosk and admin in the docker group")
    paths = {o.get("path") for o in result.model_dump()["operations"]}
    assert "systemConfig.users[name=kiosk].groups" in paths, result
    assert "systemConfig.users[name=admin].groups" in paths, result


# --- "will the disk layout change?": what a change does, asked ----------------------


@pytest.mark.parametrize(
    "said",
    [
        "with immutability enabled, will the disk layout change? What partitions are there?",
        "Will the disk layout change?",
        "would the partitions stay the same?",
        "if I turn on secure boot, will the disk size change?",
        "quick one: would the kernel line differ?",
    ],
)
def test_whether_something_changes_is_a_question(said: str) -> None:
    found = questions_of(said)
    assert found.questions, found
    assert not found.changes, found


@pytest.mark.parametrize(
    "said",
    [
        "will you change the disk to 16GiB?",
        "would you make the root partition stay at 8GiB?",
        "add htop",
        "will the disk be 16GiB? make it 20GiB",
    ],
)
def test_a_request_asked_with_will_still_asks_for_a_change(said: str) -> None:
    assert questions_of(said).changes, questions_of(said)


# --- "for apt and for the browsers": whom a setting is for, said twice ----------------


@pytest.mark.parametrize(
    "said",
    [
        "can you set the proxy (proxy.example.org:3128) for apt and for the browsers?",
        "set the proxy for apt and for the browsers",
        "configure the mirror (mirror.example.org) for apt and for the web browser",
        "a proxy for the package manager and for the browser, please",
    ],
)
def test_what_a_setting_is_for_adds_no_package(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert added(result) == [], result


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("add htop for debugging and firefox", "firefox"),
        ("add a browser (firefox) for the kiosk", "firefox"),
        ("install htop, and a browser too", "firefox"),
    ],
)
def test_a_package_after_and_is_still_added(said: str, name: str) -> None:
    assert name in added(plan_on(UBUNTU, said))


# --- "go back to the version from before the disk changes": every change of the run --


@pytest.fixture
def run(agent_data_dir: Path) -> Iterator[Conversation]:
    with Conversation(builtin_settings(agent_data_dir)) as runner:
        yield runner


@pytest.mark.parametrize(
    "said",
    [
        "hmm, go back to the version from before the disk/partition changes",
        "revert to the template from before the partition changes",
        "go back to the version before the disk changes please",
    ],
)
def test_before_the_changes_takes_back_every_change_of_the_part(
    run: Conversation, said: str
) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("add htop")
    before = run.template()
    run.turn("make the disk 20GiB and give /srv its own 10GiB partition")
    run.turn("which packages does it install?")  # a question: no turn of its own
    run.turn("actually make /srv 5GiB")
    assert run.template() != before
    run.undo(said)
    assert run.template() == before


def test_before_the_change_in_the_singular_takes_back_the_latest_one(run: Conversation) -> None:
    # near-miss: one change named takes back only the latest turn that made it
    run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("make the disk 20GiB and give /srv its own 10GiB partition")
    middle = run.template()
    run.turn("actually make /srv 5GiB")
    run.undo("go back to the version from before the partition change")
    assert run.template() == middle


# --- "put apache back like before" right after a swap: the swap turn undone whole -----

_LAMP = "a debian 13 server image with apache, php and mariadb, hostname web1"


@pytest.mark.parametrize(
    "said",
    [
        "hmm, I read it is made for apache... ok, put apache back like before",
        "bring apache back like before",
        "put apache back the way it was",
    ],
)
def test_putting_back_what_the_last_swap_replaced_undoes_that_turn(
    run: Conversation, said: str
) -> None:
    run.turn(_LAMP)
    before = run.template()
    run.turn("change apache to nginx + php-fpm")
    assert run.template() != before
    undone = run.turn(said)
    assert undone.route["intent"] == "undo", undone.route
    assert run.template() == before


def test_a_swap_beside_another_change_is_put_back_alone(run: Conversation) -> None:
    # near-miss: the swap turn also set the hostname, which stays
    run.turn(_LAMP)
    run.turn("change apache to nginx + php-fpm, and hostname web2")
    run.turn("put apache back like before")
    text = run.template() or ""
    assert "apache2" in text and "nginx" not in text and "web2" in text


# --- "nah, forget it" right after a change takes it back -----------------------------


@pytest.mark.parametrize(
    "said",
    [
        "nah, forget it, those are getting retired anyway",
        "ok forget it",
        "hmm, forget that, the old boxes go next year",
    ],
)
def test_forget_it_right_after_a_change_takes_it_back(run: Conversation, said: str) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    before = run.template()
    run.turn("add htop and make the disk 12GiB")
    assert run.template() != before
    undone = run.turn(said)
    assert undone.route["intent"] == "undo", undone.route
    assert run.template() == before


def test_forget_it_after_a_question_keeps_the_change_before(run: Conversation) -> None:
    # near-miss: the turn before asked nothing to change; the change before it stays
    run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("add htop")
    changed = run.template()
    run.turn("which packages does it install?")
    answer = run.turn("ok forget it, those are fine")
    assert answer.route["intent"] != "undo", answer.route
    assert run.template() == changed


def test_forget_it_inside_a_message_drops_only_what_it_follows(run: Conversation) -> None:
    run.turn("a minimal debian 13 raw image for x86_64")
    run.turn("add htop")
    run.turn("add evtest? nah forget it. curl and jq")
    text = run.template() or ""
    assert "htop" in text and "curl" in text and "evtest" not in text


# --- a refused arch in a session names the session's os ------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "can you make one also for my old pi 2? that one is only 32 bit (armv7)",
        "and the same for the armhf boards",
        "build it for 32-bit arm too",
    ],
)
def test_a_refused_arch_keeps_the_sessions_os(run: Conversation, said: str) -> None:
    run.turn("a debian 13 raw image for a raspberry pi 4, arm64, with samba")
    before = run.template()
    refused = run.turn(said)
    assert refused.route["intent"] == "unsupported", refused.route
    assert refused.route["unsupported"]["target"]["os"] == "debian", refused.route
    assert run.template() == before


def test_a_refused_arch_names_the_os_said_with_it(run: Conversation) -> None:
    # near-miss: the os the request names wins over the session's
    run.turn("a debian 13 raw image for a raspberry pi 4, arm64, with samba")
    refused = run.turn("an ubuntu image for armhf please")
    assert refused.route["intent"] == "unsupported", refused.route
    assert refused.route["unsupported"]["target"].get("os") != "debian", refused.route


# --- "scripts that nobody wants to touch": a wish nobody has is a remark -------------


@pytest.mark.parametrize(
    "said",
    [
        "Ubuntu 24.04 raw for arm64 with htop. Right now it's built by a pile of shell "
        "scripts around debootstrap that nobody wants to touch anymore.",
        "add htop. the old image came from debootstrap scripts nobody wants to maintain",
        "add htop, it's currently made by a makefile that nobody wants to maintain",
    ],
)
def test_a_wish_nobody_has_is_not_reported(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert "htop" in added(result), result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    ("said", "asks"),
    [
        ("we need debootstrap too", True),
        ("i want nobody to need sudo", True),
        ("nobody wants the debootstrap scripts", False),
    ],
)
def test_a_wish_someone_has_still_asks(said: str, asks: bool) -> None:
    from oic_ai.tools.planner.asking import read_clause

    assert (read_clause(said).asking == "asks") is asks
