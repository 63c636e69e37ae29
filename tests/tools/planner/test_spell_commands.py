"""Command words typed fast: "remvoe", "delte", "swicth", "undo that last cahnge".

A misspelt word a change, an undo or a question is said with is read as the word, before
the turn is routed (``spell_commands`` in ``classify``) and when the planner reads it.
Names, packages and quoted values stay as written. The sentences are the lead's own; the
robustness bench's ``typo`` way measures the class on the dev parts.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from oic_ai.graph.agent import TemplateAgent
from oic_ai.stores.settings import load_settings
from oic_ai.tools.planner.text import spell_commands
from tests.tools.planner.helpers import added, plan_after, plan_on, removed, users

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"  # openssh-server, systemd-timesyncd


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("remvoe htop", "remove htop"),
        ("delte the curl package", "delete the curl package"),
        ("swicth to arm64 please", "switch to arm64 please"),
        ("undo that last cahnge", "undo that last change"),
        ("which pakcages are on it?", "which packages are on it?"),
        ("a kiosk user withuot sudo", "a kiosk user without sudo"),
        ("the hostname sholud be gw-7", "the hostname should be gw-7"),
        ("keep the grafana repo. remvoe htop", "keep the grafana repo. remove htop"),
        ("acutally, rmeove jq", "actually, remove jq"),
    ],
)
def test_a_misspelt_command_word_is_read_as_the_word(typed: str, read: str) -> None:
    assert spell_commands(typed) == read


@pytest.mark.parametrize(
    "typed",
    [
        "set hostname remvoe-01",  # a name
        "add a user called Chnage",
        "user: remvoe",
        "hostname sholud",  # no "be": the name it is given
        "add dokcer",  # a package word: the planner reads it (and says so)
        'name the image "swicth"',  # quoted
        "removed htop yesterday",  # an English form of the word, no typo
    ],
)
def test_names_packages_and_quoted_words_stay_as_written(typed: str) -> None:
    assert spell_commands(typed) == typed


@pytest.mark.parametrize(
    ("first", "typed", "gone", "put"),
    [
        ("add htop", "remvoe htop", ["htop"], []),
        ("add htop and jq", "delte jq", ["jq"], []),
        ("add htop", "repalce htop with btop", ["htop"], ["btop"]),
        ("add htop", "plese rmeove htop and add tmux", ["htop"], ["tmux"]),
    ],
)
def test_a_misspelt_change_is_applied_as_meant(
    first: str, typed: str, gone: list[str], put: list[str]
) -> None:
    result = plan_after(UBUNTU, first, typed)
    assert removed(result) == gone, result
    assert added(result) == put, result
    assert not result.not_applied, result.not_applied


def test_a_misspelt_without_is_no_package_and_keeps_sudo_off() -> None:
    result = plan_on(UBUNTU, "hostname kiosk-07, and a kiosk user wihtout sudo")
    assert not added(result), result  # "wihtout" is never a package
    assert users(result)["kiosk"].get("sudo") in (None, False), result


def test_a_misspelt_modal_after_hostname_is_no_hostname() -> None:
    result = plan_on(UBUNTU, "hostname sholud be lab-kvm-07")
    hostnames = [op.hostname for op in result.operations if op.op == "set_hostname"]
    assert hostnames == ["lab-kvm-07"], result


def test_undo_and_a_question_said_with_a_typo_are_routed_as_such(tmp_path: Path) -> None:
    with TemplateAgent(load_settings(data_dir=tmp_path, env={}, provider="builtin")) as agent:
        first = agent.generate("a minimal ubuntu 24.04 raw image for x86_64")
        agent.generate("add htop", session=first.session)
        undone = agent.generate("hmm no, undo that last chnage", session=first.session)
        packages = yaml.safe_load(undone.template or "")["systemConfig"]["packages"]
        assert "htop" not in packages, undone.changes
        asked = agent.generate("which pakcages are on it now?", session=first.session)
        assert asked.route.get("intent") == "explain", asked.route
        assert "openssh-server" in asked.message
