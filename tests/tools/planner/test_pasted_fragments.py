"""Pasted template fragments are applied as what they say."""

from __future__ import annotations

from oic_ai.tools.planner.pasted import read_pasted
from tests.tools.planner.helpers import repository_ops

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


def _plan(said: str) -> tuple[list[dict[str, object]], list[str]]:
    return repository_ops(said, UBUNTU)


def test_a_users_list_adds_each_user_with_its_fields() -> None:
    said = (
        "users:\n  - name: builder\n    groups: [docker, video]\n"
        "  - name: guest\n    sudo: false\n    shell: /bin/sh\n"
    )
    ops, not_applied = _plan(said)
    assert not_applied == []
    users = {op["name"]: op for op in ops if op["op"] == "add_user"}
    assert users["builder"]["groups"] == ["docker", "video"]
    assert users["guest"]["shell"] == "/bin/sh" and not users["guest"].get("sudo")


def test_a_kernel_fragment_after_words_sets_its_options() -> None:
    ops, not_applied = _plan("could you put this in:\nkernel:\n  cmdline: nomodeset audit=1\n")
    assert not_applied == []
    kernel = next(op for op in ops if op["op"] == "set_kernel")
    assert kernel["append_cmdline"] == ["nomodeset", "audit=1"]


def test_system_config_keys_are_read_inside_it() -> None:
    ops, not_applied = _plan("systemConfig:\n  hostname: bench-3\n  packages: [htop, jq]\n")
    assert not_applied == []
    assert {"op": "set_hostname", "hostname": "bench-3"} in ops
    assert {"op": "add_packages", "packages": ["htop", "jq"]} in ops


def test_what_is_no_template_fragment_stays_as_written() -> None:
    for said in (
        "add htop: it helps",
        "notes:\n  - call Bob\n",
        "users:\n  - just me\n",
        "kernel: [unclosed\n  x",
    ):
        assert read_pasted(said) == (said, [])


def test_a_fragment_with_a_key_nobody_reads_is_left_for_the_report() -> None:
    said = "systemConfig:\n  hostname: a1\n  colour: blue\n"
    assert read_pasted(said)[0] == said


def test_user_data_keys_no_template_holds_are_reported_once_by_key() -> None:
    said = (
        "#cloud-config\nhostname: tiny-3\nruncmd:\n  - [sh, -c, echo hi]\n"
        "timezone: Asia/Tokyo\nusers:\n  - default\n  - name: ann\n"
        "    sudo: ALL=(ALL) NOPASSWD:ALL\n"
    )
    ops, not_applied = _plan(said)
    assert {"op": "set_hostname", "hostname": "tiny-3"} in ops
    users = [op for op in ops if op["op"] == "add_user"]
    assert [u["name"] for u in users] == ["ann"] and users[0]["sudo"] is True
    assert len(not_applied) == 1
    assert "runcmd, timezone" in not_applied[0] and "Asia/Tokyo" not in not_applied[0]


def test_a_backticked_user_data_key_is_reported_not_installed() -> None:
    ops, not_applied = _plan("the old setup also had `bootcmd: [modprobe foo]`, keep that")
    assert not any(op["op"] == "add_packages" for op in ops)
    assert any("bootcmd" in item for item in not_applied)
