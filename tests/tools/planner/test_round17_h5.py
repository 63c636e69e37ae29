"""Round 17 (h5): kernel command line, disks and users."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from oic_ai.tools.applier import apply_plan
from oic_ai.tools.ordinals import resolve_ordinals
from oic_ai.tools.planner import plan_request
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import (
    added,
    kernel_after,
    ops_of,
    plan_after,
    plan_on,
    set_values,
    users,
)

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"

# (the one list of acknowledgement words, read three ways, is checked by the rows of round 17
# in test_courtesy and test_round16_h2)


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


# --- kernel command line (the options a line has after a request: test_kernel_line) -------


@pytest.mark.parametrize(
    "said",
    [
        "kernel cmdline: lockdown=confidentiality, vsyscall=none\n- no compilers: gcc is not in it",
        "Requirements:\n- kernel args: audit=1 slab_nomerge\n- hostname web-3",
        "cmdline: quiet nomodeset\n- add htop",
    ],
)
def test_a_bullet_after_a_labelled_list_is_no_option(said: str) -> None:
    line = kernel_after(said, first="add htop")[0]
    assert "-" not in line and all(not arg.startswith("-") for arg in line)


_RT_LINE = (
    "add isolcpus=1-7 processor.max_cstate=1 intel_idle.max_cstate=0 idle=poll"
    " lockdown=integrity module.sig_enforce=1 to the kernel command line"
)


@pytest.mark.parametrize(
    ("said", "gone", "kept"),
    [
        (
            "hmm idle=poll burns way too much power on these, drop it. keep the cstate ones",
            "idle=poll",
            ["processor.max_cstate=1", "intel_idle.max_cstate=0"],
        ),
        ("idle=poll is overkill for us, take it out", "idle=poll", ["isolcpus=1-7"]),
        (
            "the idle=poll setting cooks the CPUs; remove it but leave the max_cstate options",
            "idle=poll",
            ["processor.max_cstate=1"],
        ),
        (
            "lockdown=integrity blocks our driver, pull it out please",
            "lockdown=integrity",
            ["module.sig_enforce=1"],
        ),
    ],
)
def test_an_option_written_out_then_taken_away_with_it(
    said: str, gone: str, kept: list[str]
) -> None:
    result = plan_after(UBUNTU, _RT_LINE, said)
    assert not result.not_applied, result.not_applied
    line = kernel_after(said, first=_RT_LINE)[0]
    assert gone not in line and all(k in line for k in kept), line


def test_two_options_then_it_is_not_sure() -> None:
    line = kernel_after("idle=poll and isolcpus=1-7 are heavy, drop it", first=_RT_LINE)[0]
    assert "idle=poll" in line and "isolcpus=1-7" in line


# --- a user pointed at by its place in the list ---------------------------------------------


def _three_users() -> str:
    base = (OUR_TEMPLATES / UBUNTU).read_text(encoding="utf-8")
    first = "add users alice, bob and carol with sudo"
    return apply_plan(base, plan_request(first, base, mode="refine")).text


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("remove the first user", "remove the user alice"),
        ("give the 2nd account zsh as its shell", "give the account bob zsh as its shell"),
        ("the last login needs the docker group", "the login carol needs the docker group"),
        ("second user shouldnt be in adm after all", "the user bob shouldnt be in adm after all"),
        ("drop the third user, keep the others", "drop the user carol, keep the others"),
    ],
)
def test_an_ordinal_names_the_user_at_that_place(said: str, meant: str) -> None:
    assert resolve_ordinals(said, _three_users()) == meant


@pytest.mark.parametrize(
    "said", ["remove the fifth user", "first, add a user ops", "the first partition is too small"]
)
def test_an_ordinal_past_the_list_or_of_nothing_stays(said: str) -> None:
    assert resolve_ordinals(said, _three_users()) == said


def test_an_ordinal_without_users_stays() -> None:
    base = (OUR_TEMPLATES / UBUNTU).read_text(encoding="utf-8")
    assert resolve_ordinals("remove the first user", base) == "remove the first user"


def test_the_first_user_is_removed_in_a_conversation(agent: Any) -> None:
    first = agent.generate("ubuntu 24.04 raw image with users alice, bob and carol, all sudo")
    later = agent.generate("remove the first user", session=first.session)
    assert "name: alice" not in later.template and "name: bob" in later.template
    assert not later.not_applied, later.not_applied


# --- a negation typed without its apostrophe -------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "storeops shouldnt be in adm after all",
        "storeops doesnt need to be in adm",
        "the user storeops shouldnt be in adm after all, just sudo",
        "storeops mustnt be in adm",
    ],
)
def test_a_negation_without_its_apostrophe_takes_the_group_away(said: str) -> None:
    first = "add user kiosk no sudo and user storeops w sudo, storeops in the adm group too"
    result = plan_after(UBUNTU, first, said)
    assert set_values(result).get("systemConfig.users[name=storeops].groups") == []
    assert "sudo" not in added(result)


# --- users listed with spaces, "all" said of them, a correction of one of them ---------------


@pytest.mark.parametrize(
    ("said", "sudo"),
    [
        ("users alice bob carol all sudo", {"alice": True, "bob": True, "carol": True}),
        ("users alice, bob, carol all sudo", {"alice": True, "bob": True, "carol": True}),
        (
            "add users alice bob and carol, all with sudo",
            {"alice": True, "bob": True, "carol": True},
        ),
        (
            "users alice bob carol all sudo, no wait carol no sudo",
            {"alice": True, "bob": True, "carol": False},
        ),
        (
            "add users dev1 and dev2 with sudo, no, dev2 without sudo",
            {"dev1": True, "dev2": False},
        ),
    ],
)
def test_users_listed_then_said_of_all_or_one(said: str, sudo: dict[str, bool]) -> None:
    found = users(plan_on(UBUNTU, said))
    assert {n: bool(u.get("sudo")) for n, u in found.items()} == sudo


def test_accounts_listed_with_spaces_share_a_group() -> None:
    found = users(plan_on(UBUNTU, "accounts dev1 dev2 dev3, all in the docker group"))
    assert sorted(found) == ["dev1", "dev2", "dev3"]
    assert all(u["groups"] == ["docker"] for u in found.values())


@pytest.mark.parametrize(
    ("said", "names"),
    [
        ("add user ops with sudo, no wait, ops without sudo", ["ops"]),
        ("add users ann and ben, no wait, just ann", ["ann"]),
        ("add user alice with sudo and htop", ["alice"]),
    ],
)
def test_a_correction_of_the_whole_list_or_a_single_user_stays_as_it_was(
    said: str, names: list[str]
) -> None:
    assert sorted(users(plan_on(UBUNTU, said))) == names


# --- a user said to be like another -------------------------------------------------------

AZL = "azl3-x86_64-minimal-raw.yml"
_MARIA = "add user maria with sudo in the wheel and docker groups, shell /bin/zsh"


@pytest.mark.parametrize(
    ("said", "name", "sudo", "shell"),
    [
        ("add user tkaplan, same as maria but with bash", "tkaplan", True, "/bin/bash"),
        ("add user bob with the same settings as maria", "bob", True, "/bin/zsh"),
        ("create user lee identical to maria, without sudo", "lee", False, "/bin/zsh"),
        ("a new account 'ann', just like maria", "ann", True, "/bin/zsh"),
    ],
)
def test_a_user_like_another_gets_its_groups_sudo_and_shell(
    said: str, name: str, sudo: bool, shell: str
) -> None:
    result = plan_after(AZL, _MARIA, said)
    user = users(result)[name]
    assert user["groups"] == ["wheel", "docker"]
    assert bool(user.get("sudo")) is sudo and user["shell"] == shell
    assert "systemConfig.users[name=maria].shell" not in set_values(result)


def test_a_user_like_one_named_before_in_the_same_request() -> None:
    said = (
        "Steps:\n1. user `maria` (admin): sudo, groups wheel and docker, shell /bin/zsh\n"
        "2. user `tkaplan`: same as maria but with bash\n3. install git"
    )
    found = users(plan_on(AZL, said))
    assert found["tkaplan"]["groups"] == ["wheel", "docker"]
    assert found["tkaplan"]["shell"] == "/bin/bash" and found["maria"]["shell"] == "/bin/zsh"
    assert "bash" not in added(plan_on(AZL, said))


def test_a_user_like_one_nobody_has_is_only_itself() -> None:
    user = users(plan_on(AZL, "add user kim, same as zed but in the video group"))["kim"]
    assert user["groups"] == ["video"] and not user.get("sudo")


# --- an undo that says what stays ------------------------------------------------------------


@pytest.mark.parametrize(
    "said",
    [
        "wait undo the partition, keep the 6 gigs",
        "undo the partition change, the disk size stays",
        "revert the partitioning, keeping the 6GiB disk",
        "take back the partition but leave the disk size",
    ],
)
def test_an_undo_of_the_partition_keeps_the_size_said_to_stay(agent: Any, said: str) -> None:
    first = agent.generate("azure linux 3 raw image x86_64 with nginx")
    agent.generate("make disk 6 gigs and add a /var/log partition of 1 gig", session=first.session)
    undone = agent.generate(said, session=first.session)
    doc = yaml.safe_load(undone.template)
    assert doc["disk"]["size"] == "6GiB"
    assert "/var/log" not in [p.get("mountPoint") for p in doc["disk"].get("partitions") or []]


def test_an_undo_of_the_partition_alone_takes_the_size_back_too(agent: Any) -> None:
    first = agent.generate("azure linux 3 raw image x86_64 with nginx")
    agent.generate("make disk 6 gigs and add a /var/log partition of 1 gig", session=first.session)
    undone = agent.generate("undo the partition", session=first.session)
    assert yaml.safe_load(undone.template)["disk"]["size"] != "6GiB"


# --- a partition named by its role word after its size, or given a file system ---------------

DEBIAN = "debian13-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("said", "sizes"),
    [
        (
            "Disk 16GB. Partitions: 256M ESP, 12 GiB root, rest goes to /var/lib/alloy",
            {"rootfs": "12GiB"},
        ),
        ("layout: 512MiB esp, 30 GiB root", {"boot": "512MiB", "rootfs": "30GiB"}),
        ("give it 20 GiB of root and a 1 GiB efi", {"rootfs": "20GiB"}),
        ("10 gigs for root please", {"rootfs": "10GiB"}),
    ],
)
def test_a_size_then_the_partitions_role_word_resizes_it(said: str, sizes: dict[str, str]) -> None:
    result = plan_on(DEBIAN, said)
    resized = {op["partition"]: op["size"] for op in ops_of(result, "resize_partition")}
    assert {k: resized.get(k) for k in sizes} == sizes, result.operations
    assert not result.not_applied, result.not_applied


def test_the_size_a_partition_has_is_no_new_size() -> None:
    result = plan_on(DEBIAN, "the 12 GiB root is too small, make it 16G")
    assert not any(op.get("size") == "12GiB" for op in ops_of(result, "resize_partition"))


@pytest.mark.parametrize(
    ("said", "fs"),
    [
        ("disk 40 gigs and root should be xfs", "xfs"),
        ("rootfs must be btrfs", "btrfs"),
        ("the root partition needs to be xfs", "xfs"),
        ("root has to be btrfs", "btrfs"),
    ],
)
def test_a_file_system_said_of_root_sets_it(said: str, fs: str) -> None:
    result = plan_on(DEBIAN, said)
    assert set_values(result).get("disk.partitions[id=rootfs].fsType") == fs
    assert not result.not_applied, result.not_applied


# --- a user's name given with "=", a group added with "+" --------------------------------------


@pytest.mark.parametrize(
    ("said", "name", "sudo", "groups"),
    [
        ("user me = dan w sudo + docker group, and a cron job for rsync", "dan", True, ["docker"]),
        ("user = dan with sudo", "dan", True, []),
        ("username=kim, no sudo", "kim", False, []),
        ("an account for me = lee, in the video group", "lee", False, ["video"]),
        ("add user kai with sudo & video group", "kai", True, ["video"]),
    ],
)
def test_a_name_given_with_equals_and_a_group_with_plus(
    said: str, name: str, sudo: bool, groups: list[str]
) -> None:
    user = users(plan_on(DEBIAN, said))[name]
    assert bool(user.get("sudo")) is sudo and user.get("groups", []) == groups


@pytest.mark.parametrize(
    ("said", "name", "shell"),
    [
        ("add a read-only 'auditor' user without sudo", "auditor", None),
        ('create a low privilege "viewer" account', "viewer", None),
        ("we also need a dedicated 'backup' login, shell /sbin/nologin", "backup", "/sbin/nologin"),
        (
            "and a read-only 'auditor' user without sudo, shell /usr/sbin/nologin... no wait, "
            "the auditor does need to log in, give them /bin/bash",
            "auditor",
            "/bin/bash",
        ),
    ],
)
def test_a_quoted_name_after_words_that_describe_the_user(
    said: str, name: str, shell: str | None
) -> None:
    user = users(plan_on(UBUNTU, said))[name]
    assert not user.get("sudo") and user.get("shell") == shell


# --- a user renamed in the same request, then changed ------------------------------------------

EMT = "emt3-x86_64-minimal-raw.yml"
_OPS_DEPLOY = "users: 'ops' with sudo, in group wheel; 'deploy' without sudo, shell /bin/sh"


@pytest.mark.parametrize(
    ("said", "name", "groups", "shell"),
    [
        (
            "rename ops to sre and put it in wheel and systemd-journal",
            "sre",
            ["wheel", "systemd-journal"],
            None,
        ),
        (
            "rename ops to sre and add him to the systemd-journal group",
            "sre",
            ["wheel", "systemd-journal"],
            None,
        ),
        ("rename ops to sre, then put sre in the video group", "sre", ["wheel", "video"], None),
        ("rename deploy to ci and give it zsh", "ci", [], "/bin/zsh"),
    ],
)
def test_a_user_renamed_then_changed_keeps_its_new_name(
    said: str, name: str, groups: list[str], shell: str | None
) -> None:
    base = (OUR_TEMPLATES / EMT).read_text(encoding="utf-8")
    text = apply_plan(base, plan_request(_OPS_DEPLOY, base, mode="refine")).text
    result = plan_request(said, text, mode="refine")
    assert not result.not_applied, result.not_applied
    after = apply_plan(text, result).text
    found = {u["name"]: u for u in yaml.safe_load(after)["systemConfig"]["users"]}
    assert set(found) == {name, "deploy" if name == "sre" else "ops"}
    assert found[name].get("groups", []) == groups and found[name].get("shell") == shell


@pytest.mark.parametrize(
    "said",
    [
        "deploy should get sudo after all, but only for 'systemctl restart shopd', nothing else",
        "give deploy sudo limited to apt and systemctl",
        "deploy can use sudo only to run the backup script",
        "grant deploy sudo just for the restart command",
    ],
)
def test_sudo_for_some_commands_only_is_reported_not_granted(said: str) -> None:
    result = plan_after(EMT, _OPS_DEPLOY, said)
    assert "systemConfig.users[name=deploy].sudo" not in set_values(result)
    assert any("sudoers" in line for line in result.not_applied), result.not_applied
    assert "systemctl" not in added(result)


@pytest.mark.parametrize(
    "said",
    ["give deploy sudo", "deploy gets full sudo, it's a dev box", "give deploy sudo, only him"],
)
def test_full_sudo_is_still_granted(said: str) -> None:
    assert set_values(plan_after(EMT, _OPS_DEPLOY, said))["systemConfig.users[name=deploy].sudo"]


_LAB = (
    "Users: 'labadmin' (sudo, groups sudo, plugdev, dialout, shell /bin/bash) and 'student'"
    " (no sudo, group plugdev)."
)
ISO = "debian13-x86_64-installer-iso.yml"


@pytest.mark.parametrize(
    ("said", "name", "groups"),
    [
        (
            "rename student to student01 and add a student02 with the same settings",
            "student02",
            ["plugdev"],
        ),
        ("add another lab2 just like labadmin", "lab2", ["sudo", "plugdev", "dialout"]),
        ("create a ops2 identical to labadmin", "ops2", ["sudo", "plugdev", "dialout"]),
        ("add a user tmp with the same settings as student", "tmp", ["plugdev"]),
    ],
)
def test_a_new_name_said_to_be_like_a_user_is_a_user(
    said: str, name: str, groups: list[str]
) -> None:
    found = users(plan_after(ISO, _LAB, said))
    assert found[name]["groups"] == groups


def test_a_package_like_another_is_no_user() -> None:
    result = plan_after(ISO, _LAB, "add a package like htop")
    assert not users(result)


_ZSH_ADMIN = "users: devops-admin with sudo, groups adm,sudo, shell /usr/bin/zsh"
U26 = "ubuntu26-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    ("said", "shell"),
    [
        (
            "actually take zsh off devops-admin, /bin/bash is fine. leave the zsh package",
            "/bin/bash",
        ),
        ("drop the zsh shell from devops-admin, give it /bin/sh", "/bin/sh"),
        ("remove zsh from devops-admin", None),
        ("take /usr/bin/zsh away from devops-admin", None),
    ],
)
def test_a_shell_taken_off_a_user(said: str, shell: str | None) -> None:
    result = plan_after(U26, _ZSH_ADMIN, said)
    path = "systemConfig.users[name=devops-admin].shell"
    if shell is None:
        assert any(
            getattr(op, "path", "") == path and op.op == "delete" for op in result.operations
        )
    else:
        assert set_values(result)[path] == shell
    assert not result.not_applied, result.not_applied


def test_a_package_removal_is_no_shell_taken_off() -> None:
    result = plan_after(U26, _ZSH_ADMIN, "remove zsh from the image")
    assert not any("shell" in getattr(op, "path", "") for op in result.operations)
