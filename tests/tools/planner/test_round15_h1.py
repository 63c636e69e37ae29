"""Packages and repositories (issue 21, round 15, helper h1).

The sentences were written for these tests, not copied from the labelled conversations.
Each class is checked with paraphrases that differ in verb, order and field, and with
near-misses that must not trigger.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.planner.configs import read_configs
from oic_ai.tools.planner.vendor_repos import read_vendor_repositories
from tests.tools.planner.helpers import (
    added,
    plan_after,
    plan_on,
    removed,
    repository_ops,
    set_values,
)

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
DEBIAN = "debian13-x86_64-minimal-raw.yml"
DEBIAN_ISO = "debian13-x86_64-installer-iso.yml"
EL10 = "el10-x86_64-minimal-raw.yml"
AZL = "azl3-x86_64-minimal-raw.yml"
HASHI = {
    "url": "https://apt.releases.hashicorp.com",
    "codename": "noble",
    "component": "main",
    "pkey": "https://apt.releases.hashicorp.com/gpg",
}


# --- names said to come from a repository keep their spelling ----------------------------


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("we want vault and consul from the hashicorp repository", ["vault", "consul"]),
        ("install nomad from their repo please", ["nomad"]),
        ("need acme-agent installed from it", ["acme-agent"]),
        ("add boundary via the repo", ["boundary"]),
    ],
)
def test_names_from_a_listed_repository_are_added(said: str, names: list[str]) -> None:
    ops, not_applied = repository_ops(said, UBUNTU, HASHI)
    found = [n for op in ops if op["op"] == "add_packages" for n in op["packages"]]
    assert found == names, (said, ops, not_applied)
    assert not not_applied, (said, not_applied)


def test_names_from_a_pasted_repository_stanza_are_added() -> None:
    said = (
        "internal repo:\n[corp]\nbaseurl=https://rpm.example.net/el/x86_64\ngpgcheck=1\n"
        "gpgkey=https://rpm.example.net/key\nand we want site-tools installed from it."
    )
    result = plan_on(EL10, said)
    assert added(result) == ["site-tools"], (result.operations, result.not_applied)


# --- "drop X, Y only": Y is what stays ---------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "drop docker, ssh only",
        "remove the docker bits; just ssh",
        "lose docker, only ssh",
        "get rid of docker, ssh alone",
    ],
)
def test_the_one_said_with_only_after_a_removal_stays(said: str) -> None:
    result = plan_after("emt3-x86_64-minimal-raw.yml", "add moby-engine", said)
    assert "openssh-server" not in removed(result), (said, result.operations)


# --- a firewall ruleset is reported, not read as packages --------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "nftables ruleset: only 443/tcp inbound from 10.0.0.0/8, drop the rest",
        "open 8883/tcp and 1883/tcp for the brokers",
        "allow inbound connections from 192.168.10.0/24 only",
        "iptables rules: accept 5432/tcp from the app subnet",
    ],
)
def test_a_firewall_rule_is_reported(said: str) -> None:
    result = plan_on(EL10, said)
    assert not added(result), (said, result.operations)
    assert any("firewall" in n for n in result.not_applied), (said, result.not_applied)


def test_a_firewall_package_is_still_a_package() -> None:
    assert added(plan_on(EL10, "add nftables and ufw")) == ["nftables", "ufw"]


# --- a vendor's packages replace the distribution's spelling -----------------------------


_DOCKER_STEPS = (
    "sudo curl -fsSL https://download.docker.com/linux/ubuntu/gpg -o /etc/apt/keyrings/docker.asc\n"
    'echo "deb [signed-by=/etc/apt/keyrings/docker.asc] https://download.docker.com/linux/ubuntu '
    'noble stable" | sudo tee /etc/apt/sources.list.d/docker.list\n'
    "sudo apt-get install docker-ce docker-ce-cli containerd.io\n"
)


def test_vendor_docker_replaces_the_bases_docker_io() -> None:
    result = plan_on("ubuntu24-aarch64-edge-container-raw.yml", _DOCKER_STEPS)
    assert {"docker.io", "containerd"} <= set(removed(result)), result.operations
    assert "docker-ce" in added(result)


# --- a key saved by curl -O and dearmored by its file name -------------------------------


@pytest.mark.parametrize(
    "fetch",
    [
        "curl -sL -O https://repo.example.org/acme.key\n"
        "cat acme.key | gpg --dearmor | sudo tee /etc/apt/keyrings/acme.gpg > /dev/null\n",
        "curl --remote-name https://repo.example.org/acme.key\n"
        "gpg --dearmor < acme.key | sudo tee /etc/apt/keyrings/acme.gpg\n",
        "wget https://repo.example.org/acme.key\n"
        "sudo gpg --dearmor -o /etc/apt/keyrings/acme.gpg acme.key\n",
    ],
)
def test_a_key_saved_under_its_own_name_is_followed(fetch: str) -> None:
    steps = fetch + (
        "echo 'deb [signed-by=/etc/apt/keyrings/acme.gpg] https://repo.example.org/debian "
        "stable main' | sudo tee /etc/apt/sources.list.d/acme.list\n"
    )
    text, _, _ = read_vendor_repositories(steps)
    assert "key https://repo.example.org/acme.key" in text, text
    assert "suite stable" in text, text


def test_a_pasted_debian_repository_leaves_the_target_alone() -> None:
    said = (
        "curl -O https://repo.example.org/acme.key\n"
        "cat acme.key | gpg --dearmor | sudo tee /etc/apt/trusted.gpg.d/acme.gpg\n"
        "echo 'deb [signed-by=/etc/apt/trusted.gpg.d/acme.gpg] https://repo.example.org/debian "
        "stable main' | sudo tee /etc/apt/sources.list.d/acme.list\n"
    )
    result = plan_on("elxr12-x86_64-minimal-raw.yml", said)
    assert not [op for op in result.operations if op.op == "set_target"], result.operations


# --- preseed tasks -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "names"),
    [
        # the ssh-server task is openssh-server, which the Debian base already has
        ("tasksel tasksel/first multiselect standard, ssh-server", []),
        ("tasksel tasksel/first multiselect web-server ssh-server", ["task-web-server"]),
        ("tasksel tasksel/first multiselect xfce-desktop", ["task-xfce-desktop"]),
    ],
)
def test_a_tasksel_line_names_task_packages(line: str, names: list[str]) -> None:
    result = plan_on(DEBIAN, f"from our preseed:\n{line}\nd-i pkgsel/include string git")
    assert added(result) == [*names, "git"], (line, result.operations, result.not_applied)
    assert "ssh-server" not in added(result) and "task-ssh-server" not in added(result)
    rewritten, _, _ = read_configs(line)
    assert ("openssh-server" in rewritten) == ("ssh-server" in line)


# --- a reaction before the reply ---------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "sheesh. fine, add podman",
        "yikes! ok, drop nano",
        "welp, alright: add htop",
        "blimey. sure, add jq then",
    ],
)
def test_a_reaction_before_a_reply_is_context(said: str) -> None:
    result = plan_on(UBUNTU, said)
    assert not result.not_applied, (said, result.not_applied)


def test_a_lone_word_without_a_reply_is_still_reported() -> None:
    assert plan_on(UBUNTU, "jeez. add htop").not_applied


# --- removing by what a group of packages is for -----------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "scrap the display, no screen on this model",
        "take the display back out",
        "we don't need a screen anymore",
        "no display on these",
    ],
)
def test_the_display_words_remove_the_display_stack(said: str) -> None:
    result = plan_after(DEBIAN, "add weston", said)
    assert "weston" in removed(result), (said, result.operations, result.not_applied)


def test_a_display_word_never_adds() -> None:
    assert not added(plan_on(DEBIAN, "add a display"))


@pytest.mark.parametrize(
    "said",
    [
        "please take the printing stuff back out",
        "take the print server back out",
        "rip the printing stuff out again",
        "take all the printing stuff out",
    ],
)
def test_a_split_take_out_around_a_description_removes(said: str) -> None:
    result = plan_after(DEBIAN, "add cups", said)
    assert "cups" in removed(result), (said, result.operations, result.not_applied)


# --- the words of a request that are no packages -----------------------------------------


_NOUN_INSTALL = {"somebody", "someone", "with", "should"}
_SETTING_VALUES = {"systemd", "journald", "containerd", "overlay2"}
_EVERYDAY = {"good", "great", "nice", "shiny"}
_NEGATED = {"docker.io", "nano", "vim"}


@pytest.mark.parametrize(
    ("said", "template", "words"),
    [
        # a noun "install" and a pronoun add nothing of their own
        ("they run an old Debian install somebody set up years ago", DEBIAN, _NOUN_INSTALL),
        ("a fresh install with htop", DEBIAN, _NOUN_INSTALL),
        ("the install should have htop", DEBIAN, _NOUN_INSTALL),
        ("someone needs htop", DEBIAN, _NOUN_INSTALL),
        # a setting's value is no package
        ("also drop our kubelet config in with cgroupDriver: systemd", UBUNTU, _SETTING_VALUES),
        ("the daemon wants log_driver=journald", UBUNTU, _SETTING_VALUES),
        ("set containerRuntimeEndpoint: containerd in the config", UBUNTU, _SETTING_VALUES),
        ("with storage_driver: overlay2", UBUNTU, _SETTING_VALUES),
        # an ordinary word without a repository (none said or listed, or one said of
        # something else) is no package
        ("need vault", UBUNTU, {"vault"}),
        ("add vault. the repo is slow", UBUNTU, {"vault"}),
        # someone's own software named in apposition is no package (round 11)
        ("their own app, zorbit-ingest, ships as a container image", UBUNTU, {"zorbit-ingest"}),
        ("our in-house service (zorbit-ingest) is deployed by ansible", UBUNTU, {"zorbit-ingest"}),
        # an everyday word in a phrase is no package, even after "install" (round 13)
        ("install gstreamer1.0-tools and the good and great plugins", UBUNTU, _EVERYDAY),
        ("install nice plugins", UBUNTU, _EVERYDAY),
        ("please install the shiny one", UBUNTU, _EVERYDAY),
        # a negation carried by "bother" or "even" adds nothing (round 14, h3)
        ("don't bother with docker", UBUNTU, _NEGATED),
        ("add htop, and don't even install nano", UBUNTU, _NEGATED),
        ("we don't really need vim", UBUNTU, _NEGATED),
    ],
)
def test_a_word_of_the_request_is_no_package(said: str, template: str, words: set[str]) -> None:
    found = added(plan_on(template, said))
    assert not words & set(found), (said, found)


def test_install_as_a_verb_still_installs() -> None:
    assert added(plan_on(DEBIAN, "a server. install htop")) == ["htop"]


# --- "those two packages" points back at the names of its sentence -----------------------


@pytest.mark.parametrize(
    ("said", "names"),
    [
        (
            "(I read cage plus chromium work well, I just need those two packages)",
            ["cage", "chromium"],
        ),
        ("htop and iotop are handy, please add both of them", ["htop", "iotop"]),
        ("people like tmux and byobu here, add those packages", ["tmux", "byobu"]),
        ("jq and yq come up a lot, we need these two", ["jq", "yq"]),
    ],
)
def test_a_demonstrative_count_points_at_the_names(said: str, names: list[str]) -> None:
    result = plan_on(DEBIAN, said)
    assert set(names) <= set(added(result)), (said, result.operations, result.not_applied)


# --- a task done through a named tool, an exact name a capability also spells -----------


@pytest.mark.parametrize(
    ("template", "said", "name"),
    [
        (DEBIAN, "they need to print labels through CUPS", "cups"),
        (DEBIAN, "add a way to sync time through chrony", "chrony"),
        (DEBIAN, "we need to collect metrics through collectd", "collectd"),
        (DEBIAN, "they have to reach the office through wireguard", "wireguard"),
        # an exact name that a capability also spells is kept as written
        (DEBIAN_ISO, "packages: xfce4, vim", "xfce4"),
        (DEBIAN_ISO, "use LXDE instead", "lxde"),
        (DEBIAN_ISO, "add xfce4 please", "xfce4"),
        # and the capability word still means the capability
        (DEBIAN_ISO, "add xfce", "task-xfce-desktop"),
    ],
)
def test_the_tool_after_through_or_a_name_written_out_is_added(
    template: str, said: str, name: str
) -> None:
    result = plan_on(template, said)
    assert name in added(result), (said, result.operations, result.not_applied)


def test_through_an_unknown_thing_adds_nothing() -> None:
    assert not added(plan_on(DEBIAN, "send logs via the vpn"))


# --- names in parentheses after descriptions ---------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "add nav2 bringup and slam toolbox (ros-jazzy-nav2-bringup, ros-jazzy-slam-toolbox)",
        "install slam toolbox plus nav2 bringup (ros-jazzy-slam-toolbox, ros-jazzy-nav2-bringup)",
        "we want the navigation stack and the slam toolbox (ros-jazzy-nav2-bringup, "
        "ros-jazzy-slam-toolbox)",
    ],
)
def test_names_in_parentheses_spell_out_the_list(said: str) -> None:
    result = plan_on("ubuntu24-x86_64-ros2-robotics-raw.yml", said)
    assert "ros-jazzy-slam-toolbox" in added(result), (said, result.operations)
    assert not result.not_applied, (said, result.not_applied)


# --- a desktop removed by name -----------------------------------------------------------


def test_removing_a_desktop_by_name_keeps_the_browser() -> None:
    result = plan_after(DEBIAN_ISO, "add xfce4 and firefox-esr", "let's not do xfce")
    assert "xfce4" in removed(result) and "firefox-esr" not in removed(result), result.operations


# --- a repository's version moves --------------------------------------------------------


ELASTIC = {
    "url": "https://artifacts.elastic.co/packages/8.x/apt",
    "codename": "stable",
    "component": "main",
}


@pytest.mark.parametrize(
    "said",
    [
        "switch the repo to 9.x",
        "move the elastic repository from 8.x to 9.x",
        "ok, bump that repo to version 9.x now",
        "update our elastic repo to 9.x please",
    ],
)
def test_a_repository_version_moves(said: str) -> None:
    base = (UBUNTU, ELASTIC)
    ops, not_applied = repository_ops(said, *base)
    urls = [op.get("value") for op in ops if op["op"] == "set"]
    assert urls == ["https://artifacts.elastic.co/packages/9.x/apt"], (said, ops, not_applied)


def test_a_version_the_address_does_not_hold_is_reported() -> None:
    ops, not_applied = repository_ops("switch the repo to 9.x", UBUNTU, HASHI)
    assert not [op for op in ops if op["op"] == "set"], ops
    assert not_applied


def test_switching_to_a_release_is_no_repository_change() -> None:
    ops, _ = repository_ops("switch to 24.04", UBUNTU, ELASTIC)
    assert not [op for op in ops if op["op"] == "set"], ops


def test_set_values_helper_is_used() -> None:
    assert set_values(plan_on(UBUNTU, "add htop")) == {}


# --- another version of the image, in a format that was read -----------------------------


@pytest.mark.parametrize(
    "said",
    [
        "and give me a raw disk version of the same thing for the VMs",
        "give us a qcow2 copy for the lab",
        "make me an arm64 variant",
        "produce a raw flavour of the same one",
    ],
)
def test_a_version_in_another_format_asks_nothing_more(said: str) -> None:
    result = plan_on(DEBIAN_ISO, said)
    assert [op for op in result.operations if op.op == "set_target"], (said, result.operations)
    assert not result.not_applied, (said, result.not_applied)


@pytest.mark.parametrize(
    "said",
    [
        "Straight from the ROS install docs: install htop",
        "their install guide says to add htop",
        "per the vendor's install page, we want htop",
        "following the install instructions, add htop",
        # a package list key still lists packages
        "extra_packages: htop",
        "extraPackages: htop",
        "pkgs: htop",
    ],
)
def test_the_one_package_of_the_request_is_added(said: str) -> None:
    assert added(plan_on(UBUNTU, said)) == ["htop"], said


@pytest.mark.parametrize(
    "said",
    [
        "set the hostname to yard-1, our MDM renames them anyway",
        "add htop, the VPN team asked",
        "add htop; IT wants it",
    ],
)
def test_an_acronym_said_of_something_is_no_package(said: str) -> None:
    result = plan_on(DEBIAN, said)
    assert not {"mdm", "vpn", "it"} & set(added(result)), (said, result.operations)
    assert not result.not_applied, (said, result.not_applied)
