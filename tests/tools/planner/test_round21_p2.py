"""Packages, repositories and the kernel package (issue 21, round 21, helper p2).

The sentences were written for these tests, not copied from the labelled conversations.
Each class is checked with paraphrases that differ in verb, order and field, and with
near-misses that must not trigger.
"""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.planner import plan_request
from oic_ai.tools.planner.text import planner_vocabulary
from oic_ai.tools.planner.vendor_repos import read_vendor_repositories
from oic_ai.tools.references import keep_rest_spans
from oic_ai.tools.retrieval.spelling import correct_text, field_shorthand
from tests.tools.planner.helpers import added, plan_on, removed, repository_ops, template_text

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"
UBUNTU_CLOUD = "ubuntu24-x86_64-cloud-vm-qcow2.yml"  # kernel: linux-image-virtual
DEBIAN = "debian13-x86_64-minimal-raw.yml"  # kernel: linux-image-amd64
EMT = "emt3-x86_64-minimal-raw.yml"
CORP = {
    "url": "https://apt.corp.example/ubuntu",
    "codename": "noble",
    "component": "main",
    "pkey": "https://apt.corp.example/key.gpg",
}
DOCKER = {
    "url": "https://download.docker.com/linux/ubuntu",
    "codename": "noble",
    "component": "stable",
    "pkey": "https://download.docker.com/linux/ubuntu/gpg",
}


def _kernel_ops(request: str, template: str) -> tuple[list[str], list[str], list[str]]:
    """The kernel packages a plan adds, the packages it removes, and its not-applied."""
    plan = plan_on(template, request)
    kernel = [
        n for op in plan.operations if op.op == "add_packages" and op.kernel for n in op.packages
    ]
    return kernel, removed(plan), plan.not_applied


def _with(template: str, repository: dict[str, str], *packages: str) -> str:
    data = yaml.safe_load(template_text(template))
    data["packageRepositories"] = [repository]
    data["systemConfig"]["packages"] += list(packages)
    return yaml.safe_dump(data, sort_keys=False)


# --- a sources line written by a pasted command, the key given on its own ---------------


@pytest.mark.parametrize(
    ("pasted", "url", "suite", "key"),
    [
        (
            'grab acme-agent, their docs say:\necho "deb [signed-by=/usr/share/keyrings/acme.gpg] '
            'https://apt.acme.example/debian trixie main" | sudo tee '
            "/etc/apt/sources.list.d/acme.list\n"
            "key: https://apt.acme.example/acme.key",
            "https://apt.acme.example/debian",
            "trixie",
            "https://apt.acme.example/acme.key",
        ),
        (
            "the vendor wants this:\n"
            "sudo sh -c 'echo \"deb [signed-by=/etc/apt/keyrings/probe.gpg] "
            "https://pkgs.probe.example/apt bookworm main\" > /etc/apt/sources.list.d/probe.list'\n"
            "their signing key is at https://pkgs.probe.example/probe.asc",
            "https://pkgs.probe.example/apt",
            "bookworm",
            "https://pkgs.probe.example/probe.asc",
        ),
        (
            '$ echo "deb https://mirror.corp.example/debian stable main" | tee -a '
            "/etc/apt/sources.list.d/corp.list\nsigning key https://mirror.corp.example/corp.gpg",
            "https://mirror.corp.example/debian",
            "stable",
            "https://mirror.corp.example/corp.gpg",
        ),
        (
            'printf "deb [signed-by=/etc/apt/keyrings/x.gpg] https://x.example/deb noble main\\n" '
            "| sudo tee /etc/apt/sources.list.d/x.list\ngpg key: https://x.example/x.gpg",
            "https://x.example/deb",
            "noble",
            "https://x.example/x.gpg",
        ),
    ],
)
def test_a_sources_line_written_by_a_command_is_the_repository(
    pasted: str, url: str, suite: str, key: str
) -> None:
    ops, not_applied = repository_ops(pasted, DEBIAN)
    repos = [op for op in ops if op["op"] == "add_repository"]
    assert len(repos) == 1, (ops, not_applied)
    assert repos[0]["url"] == url
    assert repos[0]["codename"] == suite
    assert repos[0]["component"] == "main"
    assert repos[0]["pkey"] == key


def test_a_sources_line_said_in_a_sentence_is_left_to_the_repository_rule() -> None:
    said = "add deb [signed-by=/x.gpg] https://pkgs.corp.example/apt stable main please"
    assert read_vendor_repositories(said)[0] == said


# --- "NAME from their repo": a verbless clause of names and where they come from ----------


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("fluent-bit from their repo, docs say so", ["fluent-bit"]),
        ("and the platform-baseline package from it", ["platform-baseline"]),
        ("plus acme-agent and acme-cli from that repository", ["acme-agent", "acme-cli"]),
        ("ok. corp-tools from there too", ["corp-tools"]),
    ],
)
def test_names_said_with_the_repository_they_come_from_are_added(
    said: str, names: list[str]
) -> None:
    ops, not_applied = repository_ops(said, UBUNTU, CORP)
    found = [n for op in ops if op["op"] == "add_packages" for n in op["packages"]]
    assert found == names, (said, ops, not_applied)
    assert not not_applied, not_applied


@pytest.mark.parametrize(
    "said",
    [
        "corp-tools from their repo is too old",  # says something of it
        "and the key from it",  # an English word, no name
    ],
)
def test_a_statement_about_a_repository_adds_nothing(said: str) -> None:
    ops, _ = repository_ops(said, UBUNTU, CORP)
    assert not [op for op in ops if op["op"] == "add_packages"], (said, ops)


def test_names_from_a_repository_need_a_repository() -> None:
    ops, _ = repository_ops("acme-agent from their repo", UBUNTU)
    assert not [op for op in ops if op["op"] == "add_packages"], ops


# --- a vendor's spelling, on a template with that vendor's repository, stays --------------


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("also docker-ce-cli, containerd.io and docker-compose-plugin", None),
        ("add containerd.io too", ["containerd.io"]),
        ("docker-compose-plugin please", ["docker-compose-plugin"]),
        ("we need docker-ce-cli as well", ["docker-ce-cli"]),
    ],
)
def test_vendor_spellings_stay_beside_the_vendors_repository(
    said: str, names: list[str] | None
) -> None:
    text = _with(UBUNTU, DOCKER, "docker-ce")
    plan = plan_request(said, text, mode="refine")
    expected = names or ["docker-ce-cli", "containerd.io", "docker-compose-plugin"]
    assert set(expected) <= set(added(plan)), (said, plan.operations)
    assert "docker.io" not in added(plan)
    assert not plan.not_applied, plan.not_applied


def test_a_vendor_spelling_replaces_the_distros_conflicting_package() -> None:
    text = _with(UBUNTU, DOCKER, "docker-ce", "containerd")
    plan = plan_request("add containerd.io", text, mode="refine")
    assert "containerd.io" in added(plan)
    assert "containerd" in removed(plan)


@pytest.mark.parametrize(
    "text",
    [
        template_text(UBUNTU),  # no repository: the distro's docker.io
        _with(UBUNTU, CORP),  # a repository, but no vendor's spelling from it
    ],
)
def test_a_vendor_spelling_without_the_vendors_repository_is_the_distros(text: str) -> None:
    plan = plan_request("add docker-ce-cli", text, mode="refine")
    assert added(plan) == ["docker.io"], plan.operations


# --- "keep everything but X": X goes; "remove everything but X" is reported ---------------


@pytest.mark.parametrize(
    ("said", "gone"),
    [
        ("keep everything but htop and jq", ["htop", "jq"]),
        ("keep it all except jq", ["jq"]),
        ("leave all the packages apart from htop", ["htop"]),
        ("everything except jq can stay", ["jq"]),
        ("I'd retain everything save for htop", ["htop"]),
    ],
)
def test_keeping_all_but_some_removes_those(said: str, gone: list[str]) -> None:
    text = template_text(UBUNTU).replace(
        "    - systemd-timesyncd\n", "    - systemd-timesyncd\n    - htop\n    - jq\n"
    )
    plan = plan_request(said, text, mode="refine")
    assert removed(plan) == gone, (said, plan.operations, plan.not_applied)
    assert not added(plan)
    assert not plan.not_applied, plan.not_applied


@pytest.mark.parametrize(
    "said", ["drop everything but htop", "remove all the packages except jq and htop"]
)
def test_removing_all_but_some_is_reported_and_keeps_them(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert not removed(plan), plan.operations
    assert plan.not_applied


def test_keeping_everything_then_adding_is_no_removal() -> None:
    plan = plan_on(UBUNTU, "keep everything, but add htop")
    assert added(plan) == ["htop"]
    assert not removed(plan)


def test_keeping_all_but_some_is_no_reference_to_keep_the_rest() -> None:
    assert keep_rest_spans("keep everything but gnupg and curl") == ()
    assert keep_rest_spans("keep everything except jq") == ()
    assert keep_rest_spans("keep everything else")
    assert keep_rest_spans("keep everything but add htop")  # "but" joins a change


# --- a name said as the kernel, or the kernel set to a flavour ----------------------------


@pytest.mark.parametrize(
    "said",
    [
        "add walinuxagent and the linux-azure kernel",
        "set the kernel to linux-azure",
        "the kernel should be linux-azure",
        "kernel: linux-azure",
        "install linux-azure as the kernel",
    ],
)
def test_a_name_said_as_the_kernel_is_the_kernel_package(said: str) -> None:
    kernel, gone, not_applied = _kernel_ops(said, UBUNTU_CLOUD)
    assert kernel == ["linux-azure"], (said, kernel, not_applied)
    assert "linux-image-virtual" in gone
    assert not not_applied, not_applied


@pytest.mark.parametrize(
    "said",
    [
        "switch the kernel package to the rt one",
        "change the kernel to the realtime flavour",
        "the kernel should be the rt one",
        "use the rt flavour of the kernel",
    ],
)
def test_the_kernel_set_to_a_flavour_is_that_flavours_kernel(said: str) -> None:
    kernel, gone, not_applied = _kernel_ops(said, DEBIAN)
    assert kernel == ["linux-image-rt-amd64"], (said, kernel, not_applied)
    assert "linux-image-amd64" in gone
    assert not not_applied, not_applied


@pytest.mark.parametrize(
    ("said", "template", "name", "stock"),
    [
        (
            "build it around the lowlatency kernel (linux-image-lowlatency-hwe-24.04) please",
            UBUNTU,
            "linux-image-lowlatency-hwe-24.04",
            "linux-image-generic-hwe-24.04",
        ),
        (
            "we boot the 64k page kernel (kernel-64k) rather than the default one",
            "azl3-aarch64-edge-gateway-raw.yml",
            "kernel-64k",
            "kernel",
        ),
        ("use the Azure-tuned kernel (linux-azure)", UBUNTU_CLOUD, "linux-azure", None),
        ("the cloud kernel ( linux-image-cloud-amd64 ) instead", DEBIAN, None, "linux-image-amd64"),
    ],
)
def test_a_kernel_with_its_package_in_parentheses_is_that_package(
    said: str, template: str, name: str | None, stock: str | None
) -> None:
    kernel, gone, not_applied = _kernel_ops(said, template)
    assert kernel == [name or "linux-image-cloud-amd64"], (said, kernel, not_applied)
    assert stock is None or stock in gone, gone
    assert not not_applied, not_applied


def test_headers_in_parentheses_are_no_kernel() -> None:
    kernel, _, _ = _kernel_ops("add the kernel (linux-headers-generic) headers", UBUNTU)
    assert not kernel


def test_a_flavour_with_no_kernel_on_the_target_is_reported() -> None:
    kernel, gone, not_applied = _kernel_ops("set the kernel to the cloud one", DEBIAN)
    assert not kernel and not gone
    assert not_applied


def test_what_goes_with_a_kernel_is_no_kernel() -> None:
    kernel, _, _ = _kernel_ops("add linux-headers-amd64 for the kernel", DEBIAN)
    assert not kernel


# --- words that point back at what the request described --------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "walinuxagent and cloud-init. Could you set up the equivalent?",
        "htop, jq and tmux. can you replicate it?",
        "ours has nginx and certbot; build me something like that",
        "chrony plus curl. can you make me a replica of that?",
    ],
)
def test_pointing_back_at_the_description_is_no_request_of_its_own(said: str) -> None:
    plan = plan_on(UBUNTU, said)
    assert added(plan), plan.operations
    assert not plan.not_applied, (said, plan.not_applied)


def test_a_copy_of_something_named_is_still_read() -> None:
    plan = plan_on(UBUNTU, "copy the ssh key")
    assert plan.not_applied


# --- field nouns typed without their vowels ----------------------------------------------


@pytest.mark.parametrize(
    ("word", "noun"),
    [
        ("grps", "groups"),
        ("grp", "group"),
        ("prtn", "partition"),
        ("krnl", "kernel"),
        ("opts", "options"),
    ],
)
def test_a_field_noun_without_vowels_is_read_as_the_noun(word: str, noun: str) -> None:
    assert field_shorthand(word, planner_vocabulary()) == noun


@pytest.mark.parametrize("word", ["rsync", "sshd", "grpc", "ots", "lvm", "psql", "pkg"])
def test_names_without_vowels_stay(word: str) -> None:
    assert field_shorthand(word, planner_vocabulary()) is None


@pytest.mark.parametrize(
    "said",
    [
        "user kiosk no sudo, in video+input grps",
        "add user plc, grp dialout",
        "a user cam in the video grp",
    ],
)
def test_groups_typed_short_add_no_package(said: str) -> None:
    plan = plan_on(DEBIAN, said)
    assert not [n for n in added(plan) if n.startswith("gr")], plan.operations
    (user,) = [op for op in plan.operations if op.op == "add_user"]
    assert user.groups, plan.operations


def test_a_path_is_not_read_as_a_field_noun() -> None:
    for said in ("a /grps partition of 2GiB", "keep the logs in /var/krnl/ too"):
        corrected, corrections = correct_text(said, planner_vocabulary())
        assert corrected == said and not corrections, corrected


# --- the subject of a wish of its own is no package --------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "we want immutability off for the pilot, ops wants to be able to install things by hand",
        "add jq, devops needs to log in as well",
        "htop please; qa would like to test it first",
        "add tmux, netops can ssh in later",
    ],
)
def test_the_subject_of_a_wish_is_no_package(said: str) -> None:
    plan = plan_on(EMT, said)
    assert not {"ops", "devops", "qa", "netops"} & set(added(plan)), plan.operations


@pytest.mark.parametrize(
    ("said", "name"), [("qa wants htop", "htop"), ("install mytool", "mytool")]
)
def test_what_is_wanted_is_still_added(said: str, name: str) -> None:
    assert name in added(plan_on(EMT, said))
