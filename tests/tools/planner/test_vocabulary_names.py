"""Package names said as words: the domain's names, not one conversation's wording.

Found by sweeping every multi-part name the catalog and the library know, said spaced
(``bench/vocabulary.py``); every sentence here is written for the test.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import added, plan_on

DEBIAN = "debian13-x86_64-minimal-raw.yml"
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("template", "said", "name"),
    [
        (DEBIAN, "please add open vm tools", "open-vm-tools"),
        (UBUNTU, "we want fonts noto color emoji on the kiosk", "fonts-noto-color-emoji"),
        (DEBIAN, "install firmware misc nonfree too", "firmware-misc-nonfree"),
        (UBUNTU, "can you put nfs kernel server in", "nfs-kernel-server"),
        (DEBIAN, "add tigervnc standalone server", "tigervnc-standalone-server"),
        (UBUNTU, "include mesa vulkan drivers", "mesa-vulkan-drivers"),
    ],
)
def test_a_name_of_three_or_four_words_said_spaced_is_that_name(
    template: str, said: str, name: str
) -> None:
    result = plan_on(template, said)
    assert added(result) == [name], result
    assert not result.not_applied, result


def test_the_longest_known_name_wins_over_its_parts() -> None:
    # prometheus and nginx are names of their own; the three words are one exporter
    result = plan_on(UBUNTU, "add prometheus nginx exporter")
    assert added(result) == ["prometheus-nginx-exporter"], result


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("please add Open VM Tools", "open-vm-tools"),
        ("we also need Docker Buildx", "docker-buildx"),
        ("put Cockpit Machines on it", "cockpit-machines"),
    ],
)
def test_a_product_name_with_every_word_capitalised(said: str, name: str) -> None:
    result = plan_on(UBUNTU, said)
    assert name in added(result), result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    ("said", "names"),
    [
        # three names side by side, no join of them is a name: three packages
        ("add vim tmux htop", ["vim", "tmux", "htop"]),
        # two known names and a word: no join of all three is a name
        ("add curl jq please", ["curl", "jq"]),
    ],
)
def test_words_that_are_not_one_name_stay_apart(said: str, names: list[str]) -> None:
    result = plan_on(DEBIAN, said)
    assert sorted(added(result)) == sorted(names), result


def test_a_capability_phrase_reaching_past_the_words_keeps_them_apart() -> None:
    # "ssh server" is the ssh capability's phrase: "open ssh" is not joined before it
    result = plan_on(DEBIAN, "add open ssh server")
    assert "openssh-server" in result.summary, result
    assert not added(result) and not result.not_applied, result


def test_a_capitalised_noun_after_a_name_is_not_joined() -> None:
    # "Volume" alone is no name; two capitalised words join only after a known first word
    result = plan_on(UBUNTU, "add Cinder Volume")
    assert "cinder-volume" not in added(result), result


@pytest.mark.parametrize(
    ("said", "names"),
    [
        # the catalog's phrase, one of its words dropped as filler on its own ("system")
        ("we'd like system stats on the box", {"sysstat", "lm-sensors"}),
        # one word of the phrase is a head noun the name rules strip ("client")
        ("add a directory client", {"sssd"}),
        # one word of the phrase is a package by itself ("screen")
        ("put a remote screen on it", {"tigervnc-standalone-server"}),
        ("install the printer support", {"cups"}),
    ],
)
def test_a_capability_phrase_said_whole_is_that_capability(said: str, names: set[str]) -> None:
    result = plan_on(DEBIAN, said)
    assert names <= set(added(result)), result
    assert "screen" not in added(result), result
    assert not result.not_applied, result


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("add screen", ["screen"]),  # the word alone is the package
        ("add python3-pip", ["python3-pip"]),  # one name, not the python capability
    ],
)
def test_a_name_that_is_one_word_of_a_phrase_stays_that_name(said: str, names: list[str]) -> None:
    assert added(plan_on(DEBIAN, said)) == names
