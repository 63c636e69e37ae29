"""Round 17 (h5): kernel command line, disks and users; one list of acknowledgements."""

from __future__ import annotations

import pytest

from oic_ai.tools.courtesy import is_acknowledgement, plain_request
from oic_ai.tools.proposals import resolve_setting
from tests.tools.planner.helpers import added, plan_on, users

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"

# --- one list of acknowledgement words, read three ways ---------------------------------


@pytest.mark.parametrize(
    ("said", "left"),
    [
        ("Copy that. Now make the disk 20GiB", "Now make the disk 20GiB"),
        ("Fair point, then drop vim", "then drop vim"),
        ("i understand. hostname kiosk-2", "hostname kiosk-2"),
        ("Noted, thanks! add a user ops", "add a user ops"),
        ("That makes total sense. add htop", "add htop"),
    ],
)
def test_every_acknowledgement_before_a_request_is_dropped(said: str, left: str) -> None:
    assert plain_request(said) == left


@pytest.mark.parametrize(
    "said",
    [
        "sure, because the night shift keeps asking",  # "sure" answers a question
        "yes, got it. add htop",
        "Perfect timing, add htop",
        "Fine-tune the kernel options",
    ],
)
def test_an_answer_or_a_word_that_only_starts_like_one_stays(said: str) -> None:
    assert plain_request(said) == said


@pytest.mark.parametrize("said", ["Clear.", "copy that", "that makes perfect sense", "sure"])
def test_the_same_words_alone_ask_nothing(said: str) -> None:
    assert is_acknowledgement(said)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("copy that, leave it on", "copy that, leave immutability on"),
        ("i understand, turn it off", "i understand, turn immutability off"),
        ("Noted. keep it on", "Noted. keep immutability on"),
    ],
)
def test_the_same_words_open_a_setting_reply(said: str, meant: str) -> None:
    assert resolve_setting(said, "immutability") == meant


# --- another field's label ends a user's attributes --------------------------------------


@pytest.mark.parametrize(
    ("said", "name"),
    [
        (
            "users: 'ops' with sudo; 'deploy' without sudo, shell /bin/sh. packages: tmux, sudo",
            "deploy",
        ),
        ("add user kiosk with no sudo, packages: sudo, vim", "kiosk"),
        ("a user ci without sudo, hostname: build-01, pkgs: git, sudo", "ci"),
        ("create the account backup (no sudo). extra packages: rsync, sudo", "backup"),
        ("add a user ops without sudo; tools: sudo, htop", "ops"),
    ],
)
def test_sudo_in_a_package_list_is_the_package(said: str, name: str) -> None:
    result = plan_on(UBUNTU, said)
    assert users(result)[name].get("sudo", False) is False
    assert "sudo" in added(result)


@pytest.mark.parametrize(
    "said", ["add user ops, shell /bin/zsh, sudo", "add a user ops. shell: /bin/zsh, sudo"]
)
def test_sudo_listed_with_the_users_own_attributes_is_still_sudo(said: str) -> None:
    assert users(plan_on(UBUNTU, said))["ops"]["sudo"] is True
