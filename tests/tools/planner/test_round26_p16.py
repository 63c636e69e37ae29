"""Round 26 (p16): how packages are read when they are described, pointed at or told as news.

The user pointed back at ("give that account sudo"), a package's companion or part said
beside it ("mosquitto + clients", "nginx with the rtmp module", "its nginx plugin"), a list
of packages told in the past tense ("they had X and Y added"), a swap told as news
("dropped apache, they're on nginx now"), a name said with its own repository, a word that
is a part of a name given beside it ("kea dhcp4"), a statement after a removal that names
no package it replaces, kernel options kept, a wish about what the machines run, and the
package a question asks about by the words of its name.

Each class is tried in reworded forms written for these tests, beside near-misses that must
not trigger.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.edit_plan import AddUser, EditPlan, SetTarget
from oic_ai.tools.explain_template import describe_template
from tests.tools.planner.helpers import plan_after, plan_on, template_text

DEBIAN = "debian13-x86_64-minimal-raw.yml"
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
EMT = "emt3-x86_64-minimal-raw.yml"
VIDEO = "ubuntu24-x86_64-ai-video-inference-raw.yml"


def added(plan: EditPlan) -> list[str]:
    return [n for op in plan.operations if op.op == "add_packages" for n in op.packages]


def removed(plan: EditPlan) -> list[str]:
    return [n for op in plan.operations if op.op == "remove_packages" for n in op.packages]


def users(plan: EditPlan) -> dict[str, AddUser]:
    return {op.name: op for op in plan.operations if isinstance(op, AddUser)}


# --- the user just named, pointed back at ------------------------------------------------


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("Ops log in as 'broadcast', give that account sudo.", "broadcast"),
        ("32 gig disk. Operators log in as 'kiosk', grant that user sudo", "kiosk"),
        ("user deploy. grant that login sudo", "deploy"),
        ("add a user named ci, grant the account admin rights", "ci"),
    ],
)
def test_sudo_given_to_the_account_just_named(said: str, name: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert users(plan)[name].sudo is True, plan.operations
    assert "sudo" not in added(plan)
    assert plan.not_applied == []


def test_a_sentence_pointing_back_at_the_user_gives_it_groups() -> None:
    plan = plan_on(UBUNTU, "Operators log in as 'kiosk'. Put that user in dialout")
    assert users(plan)["kiosk"].groups == ["dialout"]


def test_that_account_with_no_user_named_adds_no_user() -> None:
    plan = plan_on(UBUNTU, "add htop. give that account sudo")
    assert users(plan) == {}
    assert "htop" in added(plan)


# --- a companion tied to its package by a plus sign or "with" ----------------------------


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("mosquitto + clients, python3-serial", ["mosquitto", "mosquitto-clients"]),
        ("add redis plus tools", ["redis-server", "redis-tools"]),
        ("postgresql with client", ["postgresql", "postgresql-client"]),
    ],
)
def test_a_companion_tied_by_a_plus(said: str, names: list[str]) -> None:
    plan = plan_on(UBUNTU, said)
    assert set(names) <= set(added(plan)), plan.operations
    assert plan.not_applied == []


def test_an_english_phrase_after_a_plus_is_no_companion() -> None:
    plan = plan_on(UBUNTU, "nginx + common sense")
    assert "nginx-common" not in added(plan)


# --- an abbreviated machine noun closes the opening description --------------------------


@pytest.mark.parametrize(
    "said",
    [
        "env monitoring gw, ubuntu 24 arm64, mosquitto + clients",
        "env monitoring gw",
        "monitoring gw, htop",
    ],
)
def test_an_abbreviated_machine_noun_describes_the_machine(said: str) -> None:
    plan = plan_on(UBUNTU, said, mode="create")
    assert plan.not_applied == [], plan.not_applied
    assert "gw" not in added(plan) and "env" not in added(plan)


# --- the package of a login shell ---------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    ["and a 'ta' account with sudo, login shell zsh", "user bob, login shell zsh"],
)
def test_a_login_shell_debian_knows_is_installed(said: str) -> None:
    assert "zsh" in added(plan_on(DEBIAN, said))


def test_bash_as_the_login_shell_installs_nothing() -> None:
    assert added(plan_on(DEBIAN, "user bob, shell /bin/bash")) == []


# --- packages told in the past tense ------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "said", "names"),
    [
        (EMT, "EMT 3 raw, secure boot on. They had tpm2-tools and lvm2 added.", ["lvm2"]),
        (UBUNTU, "it had htop, tmux added", ["htop", "tmux"]),
        (UBUNTU, "htop and tmux added please", ["htop", "tmux"]),
    ],
)
def test_names_said_added(template: str, said: str, names: list[str]) -> None:
    plan = plan_on(template, said)
    assert set(names) <= set(added(plan)), plan.operations
    assert plan.not_applied == []


def test_a_package_said_added_by_mistake_is_still_removed() -> None:
    plan = plan_after(UBUNTU, "add htop", "htop was added by mistake, remove it")
    assert removed(plan) == ["htop"]


# --- a swap told as news -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "said", "gone", "come"),
    [
        (
            "add apache2 and varnish",
            "zenith dropped apache, they're on nginx now",
            "apache2",
            "nginx",
        ),
        ("add nginx", "the customer ditched nginx; they are running caddy now", "nginx", "caddy"),
        (
            "add memcached",
            "they got rid of memcached, they use redis now",
            "memcached",
            "redis-server",
        ),
    ],
)
def test_a_swap_told_as_news(first: str, said: str, gone: str, come: str) -> None:
    plan = plan_after(UBUNTU, first, said)
    assert removed(plan) == [gone], plan.operations
    assert come in added(plan)


@pytest.mark.parametrize(
    "said",
    ["we dropped the ball, we're on holiday now", "they dropped apache", "they're on nginx now"],
)
def test_half_a_swap_or_no_names_changes_nothing(said: str) -> None:
    plan = plan_after(UBUNTU, "add apache2", said)
    assert removed(plan) == [] and added(plan) == [], plan.operations


# --- a name said with its own repository --------------------------------------------------

_GITLAB = (
    "• gitlab-runner too, from their repo https://packages.gitlab.com/runner/gitlab-runner/"
    "ubuntu/ , codename noble, component main, key https://packages.gitlab.com/runner/"
    "gitlab-runner/gpgkey"
)


@pytest.mark.parametrize(
    ("said", "name"),
    [
        (_GITLAB, "gitlab-runner"),
        (
            "foo-agent too, from their repo https://repo.example.com/apt, codename noble, "
            "component main",
            "foo-agent",
        ),
        (
            "foo-agent as well, from https://repo.example.com/apt, codename noble, component main",
            "foo-agent",
        ),
    ],
)
def test_a_name_from_the_repository_it_is_said_with(said: str, name: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert added(plan) == [name], plan.operations
    assert any(op.op == "add_repository" for op in plan.operations)


def test_a_word_for_a_repository_is_no_package() -> None:
    said = "the mirror too, from their repo https://repo.example.com/apt, codename noble"
    assert added(plan_on(UBUNTU, said)) == []


# --- a part of a package said beside it ---------------------------------------------------


@pytest.mark.parametrize(
    ("template", "said", "names"),
    [
        (DEBIAN, "debian, nginx with the rtmp module, and ffmpeg", ["nginx", "libnginx-mod-rtmp"]),
        (UBUNTU, "nginx plus the rtmp module", ["nginx", "libnginx-mod-rtmp"]),
        (
            UBUNTU,
            "gstreamer with the good/bad/ugly plugin sets plus gstreamer1.0-libav",
            ["gstreamer1.0-plugins-good", "gstreamer1.0-plugins-bad", "gstreamer1.0-plugins-ugly"],
        ),
    ],
)
def test_a_part_beside_its_package(template: str, said: str, names: list[str]) -> None:
    plan = plan_on(template, said)
    assert set(names) <= set(added(plan)), plan.operations
    assert "rtmp" not in added(plan) and plan.not_applied == []


@pytest.mark.parametrize(
    "said",
    [
        "leave certbot out (and its nginx plugin), TLS ends at the load balancer",
        "drop certbot and its nginx plugin",
    ],
)
def test_a_part_goes_with_its_package(said: str) -> None:
    plan = plan_after(UBUNTU, "add nginx certbot python3-certbot-nginx", said)
    assert set(removed(plan)) == {"certbot", "python3-certbot-nginx"}, plan.operations


def test_an_unknown_part_is_reported_not_added() -> None:
    plan = plan_on(DEBIAN, "nginx with the foo module")
    assert added(plan) == ["nginx"]
    assert any("the foo module" in entry for entry in plan.not_applied), plan.not_applied


def test_a_part_that_is_no_add_on_names_nothing() -> None:
    assert "libnginx-mod-rtmp" not in added(plan_on(DEBIAN, "nginx with the rtmp config"))


# --- the RHEL-compatible distro by its abbreviation --------------------------------------


@pytest.mark.parametrize(
    "said", ["k, closest thing then: rcd el10, x86, w/ nano + tmux", "rcd el10"]
)
def test_rcd_names_the_distro_not_a_package(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    target = next(op for op in plan.operations if isinstance(op, SetTarget))
    assert (target.os, target.dist) == ("redhat-compatible-distro", "el10")
    assert "rcd" not in added(plan)


# --- a word that is a part of the name beside it ------------------------------------------


@pytest.mark.parametrize("said", ["unbound and kea dhcp4", "add kea dhcp4"])
def test_a_part_of_the_name_given_is_no_package(said: str) -> None:
    plan = plan_on("ubuntu26-x86_64-minimal-raw.yml", said)
    assert "kea-dhcp4-server" in added(plan) and "dhcp4" not in added(plan), plan.operations


# --- a job done by something after a removal of no package --------------------------------


def test_a_scheduler_said_to_handle_a_job_is_not_installed() -> None:
    said = "scheduler team says no core isolation, slurm handles binding. take isolcpus back out"
    assert "slurm" not in added(plan_on(UBUNTU, said))


def test_a_replacement_after_a_package_removal_is_still_added() -> None:
    plan = plan_after(UBUNTU, "add chrony", "drop chrony, ptp4l handles the clock")
    assert "linuxptp" in added(plan) and "chrony" in removed(plan)


# --- kernel options kept ----------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "take isolcpus back out, keep the hugepage stuff",
        "drop isolcpus but keep the hugepages options",
    ],
)
def test_options_kept_after_a_kernel_change_ask_nothing(said: str) -> None:
    first = "kernel: hugepagesz=1G hugepages=64 isolcpus=1-31"
    plan = plan_after(UBUNTU, first, said)
    assert plan.not_applied == [], plan.not_applied


# --- what the machines run, answered by the software the request installs ----------------


def test_a_workload_with_its_software_is_context() -> None:
    said = "we want player tracking running on the servers. add htop"
    plan = plan_on(UBUNTU, said)
    assert added(plan) == ["htop"] and plan.not_applied == []


def test_a_workload_without_software_is_reported() -> None:
    plan = plan_on(UBUNTU, "we want player tracking running on the servers")
    assert plan.not_applied, plan


# --- the named package itself, not the capability -----------------------------------------


def test_iptables_named_is_the_package() -> None:
    assert added(plan_on(DEBIAN, "ok then just add iptables and I'll script it myself")) == [
        "iptables"
    ]
    assert added(plan_on(DEBIAN, "add a firewall")) == ["nftables"]


# --- which package of a kind, asked by its name's words ----------------------------------


@pytest.mark.parametrize(
    "question",
    ["which VA driver did you end up putting in?", "which va drivers are you using?"],
)
def test_which_one_names_the_package(question: str) -> None:
    answer = describe_template(template_text(VIDEO), question)
    assert "intel-media-va-driver-non-free" in answer


def test_which_kernel_still_answers_about_the_kernel() -> None:
    answer = describe_template(template_text(VIDEO), "which kernel did you use?")
    assert answer.startswith("Kernel:")
