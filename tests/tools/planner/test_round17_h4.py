"""Round 17 (h4): packages taken back, described, or said of something else.

Each class is tested with paraphrases that differ in verb, order and field from the dev14
sentence that showed it, and with near-misses that must not trigger.
"""

from __future__ import annotations

import pytest

from oic_ai.tools.pointers import resolve_corrections
from tests.tools.planner.helpers import added, plan_after, removed

DEBIAN = "debian13-x86_64-minimal-raw.yml"
WITH_CUPS = "add cups and cloud-init"


# -- a pointer removal that takes back the request's own addition ------------------------


@pytest.mark.parametrize(
    "request_",
    [
        "install cowsay for the demo... on second thought, leave it out",
        "throw in nginx. hmm no, drop it",
        "add the barcode scanner stuff too, nah not needed, remove it",
        "also put in some printer drivers - actually no, skip it",
        "Include the label printer tools as well. Never mind, take it out.",
    ],
)
def test_a_pointer_after_a_change_of_mind_takes_back_the_addition(request_: str) -> None:
    result = plan_after(DEBIAN, WITH_CUPS, request_)
    assert added(result) == [], result.operations
    assert removed(result) == [], result.operations
    assert not result.not_applied, result.not_applied
    assert "taken back" in result.summary


@pytest.mark.parametrize(
    ("request_", "gone"),
    [
        ("add htop. cloud-init is junk, drop it", ["cloud-init"]),  # another thing named
        ("add htop, and cups is not needed, remove it", ["cups"]),
    ],
)
def test_a_pointer_at_another_named_package_still_removes_it(
    request_: str, gone: list[str]
) -> None:
    result = plan_after(DEBIAN, WITH_CUPS, request_)
    assert added(result) == ["htop"], result.operations
    assert removed(result) == gone, result.operations


def test_no_change_of_mind_keeps_the_addition() -> None:
    # "the default site" is what "it" is, not nginx: nginx stays asked for
    result = plan_after(DEBIAN, WITH_CUPS, "add nginx and the default site is useless, remove it")
    assert added(result) == ["nginx"], result.operations


# -- places where an unknown word is no package -------------------------------------------

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    "request_",
    [
        "what did i ask for again pkg-wise",  # an adverb in -wise / -ish
        "security-wise, add htop",
        "disk-wise it can stay, install htop",
        "make it small-ish and add htop",
    ],
)
def test_an_adverb_made_with_wise_or_ish_is_no_package(request_: str) -> None:
    result = plan_after(UBUNTU, "add jq", request_)
    assert all(n.endswith(("wise", "ish")) is False for n in added(result)), result.operations


_SUBJECT_OF_ITS_OWN = {"jitter", "lag", "telemetryd", "flakiness"}
_AFTER_YOU = {"bake", "wire", "stuff", "fold"}
_REACHED = {"orchestrator", "fleetd", "corpmdm", "collectorx"}
_LABELS = {"maria", "kaplan", "lanea", "laneb", "zorblat"}


@pytest.mark.parametrize(
    ("request_", "words"),
    [
        # the object of a third-person verb with its own subject is no package
        ("remove loglevel=7 and add quiet, console spew adds jitter", _SUBJECT_OF_ITS_OWN),
        ("drop quiet, the splash screen adds lag on boot", _SUBJECT_OF_ITS_OWN),
        ("add htop; the vendor blob includes telemetryd anyway", _SUBJECT_OF_ITS_OWN),
        ("the old kernel brings flakiness, add htop", _SUBJECT_OF_ITS_OWN),
        # a word after "you" is a verb
        ("can you bake this into the image", _AFTER_YOU),
        ("could you wire up htop", _AFTER_YOU),
        ("would u stuff jq in there", _AFTER_YOU),
        ("can you fold in the htop package", _AFTER_YOU),
        # what the machine reaches over the network is no package
        ("make it register with our orchestrator on first boot", _REACHED),
        ("it should connect to the fleetd server at startup", _REACHED),
        ("have each box enroll in corpmdm when it comes up", _REACHED),
        ("report to our collectorx every minute, and add htop", _REACHED),
        # a label opening a line before a colon is no package
        (
            "put these keys in:\nmaria: ssh-ed25519 AAAAC3Nza m@lap\nkaplan: ssh-rsa AAAAB3 k@ws",
            _LABELS,
        ),
        ("notes per box\n- lanea: front of store\n- laneb: back", _LABELS),
        ("set these up:\n* zorblat: the kiosk account\n* htop", _LABELS),
    ],
)
def test_a_word_the_sentence_uses_otherwise_is_no_package(request_: str, words: set[str]) -> None:
    result = plan_after(UBUNTU, "add jq", request_)
    assert not words & set(added(result)), result.operations


def test_an_adding_verb_said_of_the_image_still_adds_an_unknown_name() -> None:
    result = plan_after(UBUNTU, "add jq", "the image also adds acme-agent")
    assert "acme-agent" in added(result), result.operations


def test_install_after_connect_still_names_a_package() -> None:
    result = plan_after(UBUNTU, "add jq", "connect to the vpn with wireguard-tools, install it")
    assert "wireguard-tools" in added(result), result.operations


def test_an_account_the_template_has_is_no_package() -> None:
    result = plan_after(UBUNTU, "add a user tkaplan with sudo", "and tkaplan too, install it")
    assert "tkaplan" not in added(result), result.operations


@pytest.mark.parametrize(
    "request_", ["plus libmodbus", "install libcurl please", "we need libusb too", "add libgpiod"]
)
def test_a_library_upstream_name_on_debian_is_reported_not_invented(request_: str) -> None:
    result = plan_after(DEBIAN, "add htop", request_)
    assert added(result) == [], result.operations
    assert any("-dev package" in n for n in result.not_applied), result.not_applied


@pytest.mark.parametrize(
    ("request_", "name"),
    [
        ("install the package libfoo", "libfoo"),  # marked as a package: one's own
        ("add `libacme`", "libacme"),
        ("add libreoffice-writer", "libreoffice-writer"),  # the library knows it
    ],
)
def test_a_library_name_marked_or_known_is_still_added(request_: str, name: str) -> None:
    result = plan_after(DEBIAN, "add htop", request_)
    assert name in added(result), result.operations


@pytest.mark.parametrize(
    ("request_", "kept", "gone"),
    [
        ("add nginx no wait caddy, and samba for the shares", ["caddy", "samba"], "nginx"),
        ("install vim, no wait, neovim", ["neovim"], "vim"),
        ("add htop sorry btop", ["btop"], "htop"),
        ("add mc oops tmux please", ["tmux"], "mc"),
    ],
)
def test_a_bare_value_after_a_change_of_mind_replaces_the_one_before(
    request_: str, kept: list[str], gone: str
) -> None:
    result = plan_after(DEBIAN, "add jq", resolve_corrections(request_))
    assert all(k in added(result) for k in kept), result.operations
    assert gone not in added(result), result.operations


@pytest.mark.parametrize(
    "request_",
    [
        "add nginx no wait we also need samba",  # a sentence follows, no bare value
        "install vim sorry I am late",
        "add htop. no wait, that is fine",
    ],
)
def test_a_change_of_mind_followed_by_a_sentence_is_no_value(request_: str) -> None:
    assert resolve_corrections(request_) == request_


EMT = "emt3-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("request_", "name"),
    [
        ("add rt-tests and stress-ng so we can load the box", "stress-ng"),
        ("add syslog-ng as well", "syslog-ng"),
        ("install stress-ng for burn-in", "stress-ng"),
        ("we need jq plus syslog-ng", "syslog-ng"),
    ],
)
def test_a_name_with_a_two_letter_suffix_is_no_english_compound(request_: str, name: str) -> None:
    result = plan_after(EMT, "add tmux", request_)
    assert name in added(result), result.operations


@pytest.mark.parametrize(
    "request_", ["also auto-register it", "with read-only root", "add the log-in screen"]
)
def test_an_english_compound_said_weakly_is_still_no_package(request_: str) -> None:
    result = plan_after(EMT, "add tmux", request_)
    assert not {"auto-register", "read-only", "log-in"} & set(added(result)), result.operations


@pytest.mark.parametrize(
    "request_",
    [
        "prometheus + prometheus-node-exporter + prometheus-alertmanager, hostname mon",
        "install prometheus and prometheus-node-exporter",
        "monitoring: prometheus, prometheus-node-exporter",
        "we need prometheus-node-exporter on it, plus prometheus",
    ],
)
def test_a_capability_word_beside_the_capability_package_is_its_own_package(
    request_: str,
) -> None:
    result = plan_after(UBUNTU, "add jq", request_)
    assert {"prometheus", "prometheus-node-exporter"} <= set(added(result)), result.operations


@pytest.mark.parametrize("request_", ["add prometheus", "add prometheus and grafana"])
def test_a_capability_word_alone_still_means_the_capability(request_: str) -> None:
    result = plan_after(UBUNTU, "add jq", request_)
    assert "prometheus" not in added(result), result.operations
    assert "prometheus-node-exporter" in added(result), result.operations


@pytest.mark.parametrize(
    "request_",
    [
        "users: 'ops' with sudo; 'deploy' without sudo. packages: tmux, rsync, sudo",
        "user deploy without sudo. pkgs - jq, sudo",
        "a user deploy, no sudo. Packages: htop, sudo",
        "add user deploy without sudo. install: jq, sudo",
    ],
)
def test_sudo_in_a_list_of_packages_is_no_users_sudo(request_: str) -> None:
    result = plan_after(EMT, "add tmux", request_)
    users = {op.name: op.sudo for op in result.operations if op.op == "add_user"}
    assert users.get("deploy") is False, result.operations


def test_a_sentence_of_user_attributes_still_goes_to_the_user_before() -> None:
    result = plan_after(EMT, "add tmux", "user deploy. and with sudo")
    users = {op.name: op.sudo for op in result.operations if op.op == "add_user"}
    assert users.get("deploy") is True, result.operations


@pytest.mark.parametrize(
    "request_",
    [
        "add a swap file... hmm forget that",
        "install htop... uh, never mind",
        "add jq, well, scratch that",
        "throw in nginx - oh forget it",
    ],
)
def test_an_interjection_before_a_take_back_leaves_it_the_clause_before(request_: str) -> None:
    result = plan_after(DEBIAN, "add tmux", request_)
    assert added(result) == [], result.operations
    assert not result.not_applied, result.not_applied


@pytest.mark.parametrize(
    "request_",
    [
        "If there are admin / testuser entries from a sample, remove them.",
        "the demo accounts are not needed, drop them",
        "any users from the sample? delete them",
        "no logins may be defined. take them out",
    ],
)
def test_a_pointer_after_accounts_never_reaches_the_turn_before_s_packages(request_: str) -> None:
    result = plan_after(DEBIAN, "add htop and jq", request_, earlier="Packages: htop, jq.")
    assert removed(result) == [], result.operations
