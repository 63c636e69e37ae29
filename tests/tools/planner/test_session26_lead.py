"""Session 26, the lead's reading fixes: options said to go, flags beside a console, hostnames.

- "lockdown isn't needed", "quiet can go", "we can do without lockdown", "leave loglevel off",
  "the quiet flag? leave it off": an option of the command line said to go after its key.
  These used to be read as remarks (nothing changed, nothing said) or, for "leave it off",
  to add the flag.
- "kernel cmdline: console=ttyS0,115200 loglevel=7 quiet": the console rule read the clause
  and kept only the ``key=value`` options for the kernel rule, so ``quiet`` was lost.
- "rename store-3 to store-4" (the template's hostname), "hostname: make it kiosk-12",
  "the hostname - kiosk-12": the first was reported or set the image's name to "from", the
  second set the hostname to "make", the third read "-" as the name.
"""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.planner import plan_request
from tests.tools.planner.helpers import template_text

UBUNTU = template_text("ubuntu24-x86_64-minimal-raw.yml")


def _with(cmdline: str = "", hostname: str = "") -> str:
    doc = yaml.safe_load(UBUNTU)
    if cmdline:
        doc["systemConfig"]["kernel"]["cmdline"] = cmdline
    if hostname:
        doc["systemConfig"]["hostname"] = hostname
    return yaml.safe_dump(doc, sort_keys=False)


LINE = "console=ttyS0,115200 loglevel=4 lockdown=integrity quiet"
WITH_OPTIONS = _with(cmdline=LINE)


def _cmdline(plan: EditPlan) -> list[str] | None:
    """The command line the plan leaves, or None when it does not touch it."""
    for op in plan.operations:
        if op.op == "set_kernel":
            base = (op.cmdline if op.cmdline is not None else LINE).split()
            return [*base, *(op.append_cmdline or [])]
    return None


@pytest.mark.parametrize(
    ("said", "gone"),
    [
        ("lockdown isn't needed", "lockdown=integrity"),
        ("lockdown isnt needed anymore", "lockdown=integrity"),
        ("the lockdown option is not needed", "lockdown=integrity"),
        ("lockdown: not needed", "lockdown=integrity"),
        ("lockdown=integrity is unnecessary", "lockdown=integrity"),
        ("we can do without lockdown", "lockdown=integrity"),
        ("no need for quiet", "quiet"),
        ("quiet is not needed", "quiet"),
        ("the quiet flag? leave it off", "quiet"),
        ("quiet? just drop it", "quiet"),
        ("the lockdown thing? get rid of it", "lockdown=integrity"),
        ("leave loglevel off", "loglevel=4"),
        ("loglevel can go", "loglevel=4"),
    ],
)
def test_an_option_said_to_go_after_its_key_goes(said: str, gone: str) -> None:
    plan = plan_request(said, WITH_OPTIONS, mode="refine")
    line = _cmdline(plan)
    assert line is not None and gone not in line, (line, plan.not_applied)
    assert len(line) == len(LINE.split()) - 1, line  # only that one
    assert plan.not_applied == []


@pytest.mark.parametrize(
    "said",
    [
        "a GUI isn't needed",  # no option: a remark, the command line untouched
        "htop isn't needed",  # a package's word, not the kernel's
        "the console isn't needed on tty0",  # the console rule's, never a key "console"
        "is lockdown needed?",  # a question, not a removal
        "quiet please",  # asks for the flag
        "keep lockdown",
    ],
)
def test_words_that_do_not_say_an_option_goes_leave_the_line(said: str) -> None:
    line = _cmdline(plan_request(said, WITH_OPTIONS, mode="refine"))
    assert line is None or ("lockdown=integrity" in line and "quiet" in line), line


def test_an_option_said_to_go_that_the_line_lacks_is_said_so() -> None:
    plan = plan_request("nomodeset isn't needed", WITH_OPTIONS, mode="refine")
    assert _cmdline(plan) is None and plan.not_applied == []
    assert plan.notes == ["Nomodeset is not on the kernel command line."]


@pytest.mark.parametrize(
    ("said", "flags"),
    [
        ("kernel cmdline: console=ttyS0,115200 loglevel=7 quiet", ["loglevel=7", "quiet"]),
        ("cmdline: console=ttyS1,115200 quiet splash", ["quiet", "splash"]),
        ("console=ttyS0,115200 nomodeset", ["nomodeset"]),
    ],
)
def test_flags_beside_a_console_reach_the_command_line(said: str, flags: list[str]) -> None:
    plan = plan_request(said, UBUNTU, mode="refine")
    line = _cmdline(plan) or []
    assert all(flag in line for flag in flags), line


@pytest.mark.parametrize(
    "said",
    [
        "rename store-3 to store-4",
        "rename it from store-3 to store-4",
        "change store-3 to store-4",
        "store-3 -> store-4",
        "Rename STORE-3 to store-4",
    ],
)
def test_the_hostname_renamed_from_its_current_value(said: str) -> None:
    plan = plan_request(said, _with(hostname="store-3"), mode="refine")
    names = [
        (op.op, getattr(op, "hostname", None) or getattr(op, "name", None))
        for op in plan.operations
    ]
    assert ("set_hostname", "store-4") in names and plan.not_applied == [], names
    assert not any(op == "set_image" for op, _ in names), names  # never an image called "from"


@pytest.mark.parametrize(
    "said",
    [
        "rename kiosk-1 to kiosk-2",  # not the template's hostname: no hostname change
        "change ubuntu24 to ubuntu26",
        "loglevel=4 -> loglevel=7",
    ],
)
def test_a_rename_of_something_else_is_no_hostname(said: str) -> None:
    plan = plan_request(said, _with(hostname="store-3"), mode="refine")
    assert not any(op.op == "set_hostname" for op in plan.operations), plan.operations


@pytest.mark.parametrize(
    ("said", "hostname"),
    [
        ("hostname: make it kiosk-12", "kiosk-12"),
        ("hostname? make it kiosk-12", "kiosk-12"),
        ("hostname: set it to kiosk-9", "kiosk-9"),
        ("the hostname - kiosk-12 please", "kiosk-12"),
        ("the hostname - call it kiosk-12", "kiosk-12"),
        ("hostname \u2014 kiosk-3", "kiosk-3"),
    ],
)
def test_the_hostname_label_then_its_value_in_other_words(said: str, hostname: str) -> None:
    plan = plan_request(said, UBUNTU, mode="refine")
    values = [op.hostname for op in plan.operations if op.op == "set_hostname"]
    assert values == [hostname] and plan.not_applied == [], (values, plan.not_applied)


@pytest.mark.parametrize("said", ["make it arm64", "make it 16G", "rename it to gw-img"])
def test_make_it_without_the_hostname_label_is_no_hostname(said: str) -> None:
    plan = plan_request(said, UBUNTU, mode="refine")
    assert not any(op.op == "set_hostname" for op in plan.operations), plan.operations


def test_a_name_that_is_not_one_is_still_reported() -> None:
    plan = plan_request("hostname -bad-", UBUNTU, mode="refine")
    assert plan.not_applied and "-bad-" in plan.not_applied[0]


ELXR = template_text("elxr12-x86_64-minimal-raw.yml")


@pytest.mark.parametrize(
    ("said", "name", "sudo"),
    [
        ("create admin with sudo", "admin", True),
        ("create admin, sudo yes", "admin", True),
        ("create admin with password from env, sudo yes", "admin", True),
        ("create ops with sudo, password from the vault", "ops", True),
        ("create ops with sudo", "ops", True),
    ],
)
def test_a_role_word_created_with_attributes_is_the_name(said: str, name: str, sudo: bool) -> None:
    plan = plan_request(said, ELXR, mode="refine")
    users = [(op.name, op.sudo) for op in plan.operations if op.op == "add_user"]
    assert users == [(name, sudo)] and plan.not_applied == [], (users, plan.not_applied)


@pytest.mark.parametrize(
    "said",
    [
        "create bob with password from env",  # "env" is where the password is, never a user
        "set root password from the secrets file",
        "the password is in the vault",
    ],
)
def test_where_a_password_comes_from_is_no_name(said: str) -> None:
    plan = plan_request(said, ELXR, mode="refine")
    names = [op.name for op in plan.operations if op.op == "add_user"]
    assert not {"env", "the", "secrets", "vault", "file"} & set(names), names


def test_an_admin_without_a_name_adds_no_user_called_admin() -> None:
    plan = plan_request("add htop with a password manager", ELXR, mode="refine")
    assert not any(op.op == "add_user" for op in plan.operations)


WITH_TOOLS = yaml.safe_dump(
    {
        **yaml.safe_load(UBUNTU),
        "systemConfig": {
            **yaml.safe_load(UBUNTU)["systemConfig"],
            "packages": [*yaml.safe_load(UBUNTU)["systemConfig"]["packages"], "htop", "tmux"],
        },
    },
    sort_keys=False,
)


@pytest.mark.parametrize(
    ("earlier", "said", "op", "names"),
    [
        ("remove htop", "and tmux too", "remove_packages", ["tmux"]),
        ("drop htop", "tmux as well", "remove_packages", ["tmux"]),
        ("htop isn't needed", "same for tmux", "remove_packages", ["tmux"]),
        ("remove htop", "the same for jq and tmux please", "remove_packages", ["tmux"]),
        ("add curl", "same for git", "add_packages", ["git"]),
        ("install curl", "ditto for git", "add_packages", ["git"]),
    ],
)
def test_a_turn_that_names_more_for_the_turn_before_does_the_same(
    earlier: str, said: str, op: str, names: list[str]
) -> None:
    plan = plan_request(said, WITH_TOOLS, mode="refine", earlier=earlier)
    done = [p for o in plan.operations if o.op == op for p in o.packages]
    assert done == names and plan.not_applied == [], (plan.operations, plan.not_applied)


@pytest.mark.parametrize(
    ("earlier", "said"),
    [
        ("add curl", "and tmux too"),  # an addition: tmux is there already, nothing goes
        ("what's the hostname?", "and tmux too"),
        ("remove htop", "and ubuntu26 too"),  # no package: the target's rule reads it
    ],
)
def test_more_of_the_same_after_no_removal_removes_nothing(earlier: str, said: str) -> None:
    plan = plan_request(said, WITH_TOOLS, mode="refine", earlier=earlier)
    assert not any(o.op == "remove_packages" for o in plan.operations), plan.operations


@pytest.mark.parametrize(
    ("said", "packages"),
    [
        ("add docker... on second thought, podman", ["podman"]),
        ("add vim. oh wait, nano instead", ["nano"]),
        ("add vim or actually emacs", ["emacs"]),
        ("add mariadb-server, sorry I meant postgresql", ["postgresql"]),
        ("install apache2, hmm, rather nginx", ["nginx"]),
        ("put nginx on it. nah, forget it", []),
        ("add htop, on second thought, no", []),
        ("add nginx, no wait, make it caddy", ["caddy"]),  # worked before: still does
    ],
)
def test_a_change_of_mind_in_other_words_keeps_only_the_last(
    said: str, packages: list[str]
) -> None:
    plan = plan_request(said, UBUNTU, mode="refine")
    added = [p for op in plan.operations if op.op == "add_packages" for p in op.packages]
    assert added == packages and plan.not_applied == [], (added, plan.not_applied)


@pytest.mark.parametrize(
    ("said", "op", "value"),
    [
        ("hostname gw-1, on second thought gw-2", "set_hostname", "gw-2"),
        ("hostname gw-1 or actually gw-3", "set_hostname", "gw-3"),
        ("disk 8G, oh wait, 16G", "set_disk_size", "16GiB"),
    ],
)
def test_a_change_of_mind_corrects_a_value(said: str, op: str, value: str) -> None:
    plan = plan_request(said, UBUNTU, mode="refine")
    values = [
        getattr(o, "hostname", None) or getattr(o, "size", None)
        for o in plan.operations
        if o.op == op
    ]
    assert values == [value], plan.operations


@pytest.mark.parametrize(
    "said", ["on second thought, add htop", "I'd rather have htop", "actually, add htop too"]
)
def test_the_words_of_a_change_of_mind_alone_take_nothing_back(said: str) -> None:
    plan = plan_request(said, UBUNTU, mode="refine")
    added = [p for op in plan.operations if op.op == "add_packages" for p in op.packages]
    assert added == ["htop"], plan.operations


@pytest.mark.parametrize(
    ("said", "packages"),
    [
        ("ubuntu 26.04 box for dns + dhcp. unbound and kea dhcp4", ["unbound", "kea-dhcp4-server"]),
        ("add dhcp", []),
        ("dns and dhcp server", ["kea-dhcp4-server"]),
        ("add https and nginx", ["nginx"]),
    ],
)
def test_a_protocol_is_never_a_package(said: str, packages: list[str]) -> None:
    plan = plan_request(said, UBUNTU, mode="refine")
    added = [p for op in plan.operations if op.op == "add_packages" for p in op.packages]
    assert added == packages, (added, plan.not_applied)


WITH_REPO = yaml.safe_dump(
    {
        **yaml.safe_load(template_text("debian13-x86_64-minimal-raw.yml")),
        "packageRepositories": [
            {
                "codename": "trixie",
                "url": "https://download.docker.com/linux/debian",
                "pkey": "https://download.docker.com/linux/debian/gpg",
                "component": "stable",
            }
        ],
    },
    sort_keys=False,
)


@pytest.mark.parametrize(
    ("said", "component"),
    [
        ("change the repo's component to stable,test", "stable test"),  # was cut to "stable"
        ("set the component to test", "test"),
        ("component: edge", "edge"),
        ("component main, we install it later", "main"),  # the words after are no component
    ],
)
def test_a_repository_component_list_is_kept_whole(said: str, component: str) -> None:
    plan = plan_request(said, WITH_REPO, mode="refine")
    values = [
        op.value for op in plan.operations if op.op == "set" and op.path.endswith("component")
    ]
    assert values == [component] and plan.not_applied == [], (values, plan.not_applied)


@pytest.mark.parametrize(
    ("said", "packages"),
    [
        ("add rt-tests so we can run cyclictest", ["rt-tests"]),  # rt-tests' own program
        ("add htop so we can use foobar", ["htop"]),
        ("add htop so we can run tmux", ["htop", "tmux"]),  # a name something knows stays
        ("the touch screen needs calibration", []),
        ("we need vlc", ["vlc"]),  # no English word: still a name after a need
        ("we need htop", ["htop"]),
    ],
)
def test_what_a_package_is_for_and_what_a_device_needs_are_no_packages(
    said: str, packages: list[str]
) -> None:
    plan = plan_request(said, UBUNTU, mode="refine")
    added = [p for op in plan.operations if op.op == "add_packages" for p in op.packages]
    assert added == packages, (added, plan.not_applied)


def test_a_hardened_baseline_needed_is_no_package() -> None:
    said = (
        "Need an Azure Linux 3 raw image for an edge gateway, hardened baseline. Start with: aide"
    )
    plan = plan_request(said, template_text("azl3-x86_64-minimal-raw.yml"), mode="refine")
    added = [p for op in plan.operations if op.op == "add_packages" for p in op.packages]
    assert "baseline" not in added and "aide" in added, added


def test_its_own_partition_names_no_partition_called_own() -> None:
    plan = plan_request("Mount /tmp as its own partition with noexec.", UBUNTU, mode="refine")
    assert plan.not_applied == [], plan.not_applied
    assert [op.mount_point for op in plan.operations if op.op == "add_partition"] == ["/tmp"]


def test_people_said_to_be_in_a_group_are_no_absent_user() -> None:
    said = "our runners need to be in the docker group: user runner, groups docker, no sudo"
    plan = plan_request(said, UBUNTU, mode="refine")
    users = [(op.name, op.groups) for op in plan.operations if op.op == "add_user"]
    assert users == [("runner", ["docker"])] and plan.not_applied == [], plan.not_applied
