"""Configs and command lines pasted from other image tooling are read as what they say."""

from __future__ import annotations

from oic_ai.tools.planner import plan_request
from oic_ai.tools.planner.configs import read_configs
from tests.conftest import OUR_TEMPLATES
from tests.tools.planner.helpers import ops_by_key, plan_on

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


def _plan(said: str) -> tuple[dict[str, dict[str, object]], list[str]]:
    plan = plan_on(UBUNTU, said)
    return ops_by_key(plan), plan.not_applied


def test_a_kickstart_gives_packages_options_users_and_reports_the_rest_once() -> None:
    ops, not_applied = _plan(
        "our old ks.cfg:\n"
        "keyboard --vckeymap=fr\n"
        "rootpw --iscrypted $6$abcdefgh$secretsecret\n"
        'bootloader --append="nosmt mitigations=auto"\n'
        "user --name=builder --groups=wheel,video\n"
        "%packages\n@standard\nstrace\n-nano\n%end\n"
    )
    assert "strace" in ops["add_packages"]["packages"]  # type: ignore[operator]
    assert "nosmt" in str(ops["set_kernel"]) and "mitigations=auto" in str(ops["set_kernel"])
    assert ops["add_user:builder"]["groups"] == ["wheel", "video"]
    reported = [item for item in not_applied if "kickstart" in item]
    assert len(reported) == 1
    assert "keyboard" in reported[0] and "rootpw" in reported[0] and "@standard" in reported[0]
    assert "secret" not in " ".join(not_applied)


def test_shell_lines_flags_and_command_names_are_never_packages() -> None:
    ops, _ = _plan(
        "our provisioning did:\n"
        "sudo apt-get update && sudo apt-get install -y --no-install-recommends socat lsof\n"
        "useradd -m -s /bin/zsh -G adm,audio kim\n"
        "echo relay-9 > /etc/hostname\n"
    )
    # zsh is kim's login shell's package, not a word of the command read as one
    assert ops["add_packages"]["packages"] == ["zsh", "socat", "lsof"]
    assert ops["add_user:kim"]["shell"] == "/bin/zsh"
    assert ops["add_user:kim"]["groups"] == ["adm", "audio"]
    assert ops["set_hostname"]["hostname"] == "relay-9"


def test_package_listings_give_only_the_names() -> None:
    said = (
        "ii  socat   1.8.0.0-4build3   amd64   multipurpose relay for bidirectional data\n"
        "strace-6.8-1.el10.x86_64\n"
    )
    rewritten, notices, _ = read_configs(said)
    assert "add the packages socat" in rewritten and "add the packages strace" in rewritten
    assert "1.8" not in rewritten and "x86_64" not in rewritten and notices


def test_an_mkosi_config_sets_target_packages_cmdline_and_hostname() -> None:
    said = (
        "[Distribution]\nDistribution=ubuntu\nRelease=noble\nArchitecture=x86-64\n"
        "[Content]\nPackages=socat,lsof\nHostname=relay-2\nAutologin=yes\n"
    )
    rewritten, _, unmapped = read_configs(said)
    assert all(f"\n{word};" in f"\n{rewritten}" for word in ("ubuntu", "noble", "x86_64"))
    assert "add the packages socat, lsof" in rewritten
    assert "hostname relay-2" in rewritten and "[Content]" not in rewritten
    assert len(unmapped) == 1 and "Autologin" in unmapped[0]


def test_preseed_yocto_dockerfile_and_packer_lines() -> None:
    said = (
        "d-i pkgsel/include string socat lsof\n"
        "d-i passwd/username string kim\n"
        "d-i clock-setup/utc boolean true\n"
        'IMAGE_INSTALL:append = " strace"\n'
        'EXTRA_IMAGE_FEATURES += "read-only-rootfs debug-tweaks"\n'
        "FROM debian:13\nRUN apt-get install -y jq\nUSER svc\nEXPOSE 80\n"
        "disk_size = 10240\n"
    )
    rewritten, _, unmapped = read_configs(said)
    for wanted in (
        "add the packages socat, lsof", "add a user kim", "add the packages strace",
        "read-only root", "debian 13", "add the packages jq", "add a user svc",
        "disk size 10240MiB",
    ):  # fmt: skip
        assert wanted in rewritten
    joined = " ".join(unmapped)
    assert "clock-setup/utc" in joined and "EXPOSE" in joined and "debug-tweaks" in joined


def test_sentences_that_only_start_like_commands_are_left_alone() -> None:
    for said in (
        "ADD HTOP PLEASE\nand a bigger disk",
        "yum is what we used before\nnow add jq",
        "hi there how are you today\nadd jq",
        "user cashier, no sudo\nadd jq",
        "useradd was slow for us\nadd jq",
    ):
        assert read_configs(said) == (said, [], [])


def test_mkosi_keys_inside_a_sentence_are_the_config_not_kernel_options() -> None:
    text = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    result = plan_request(
        "porting our mkosi setup: Distribution=debian, Release=trixie, Format=disk, "
        "Packages=strace,jq",
        text,
        mode="refine",
    )
    assert not [op for op in result.operations if op.op == "set_kernel"], result.operations
    packages = [n for op in result.operations if op.op == "add_packages" for n in op.packages]
    assert packages == ["strace", "jq"]


def test_a_useradd_inside_a_sentence_is_the_user_not_a_capability() -> None:
    text = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text(encoding="utf-8")
    result = plan_request(
        "the old image ran useradd -G plugdev,video kiosk — same user here", text, mode="refine"
    )
    users = [op for op in result.operations if op.op == "add_user"]
    assert [(u.name, u.groups) for u in users] == [("kiosk", ["plugdev", "video"])]
    assert not [op for op in result.operations if op.op == "add_packages"]  # no "video kiosk"
