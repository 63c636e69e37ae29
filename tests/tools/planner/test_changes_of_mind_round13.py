"""A value corrected inside one request keeps only the last value said (issue 21, round 13).

The sentences were written for these tests. A correction that gives a bare value ("..
no, just X", "no wait, X", "nope, make it X") replaces the value it corrects and the slot
keeps it: the hostname, a user's groups (with "just", the whole list), a number. An option
asked about and answered "no" ("and nosmt? hmm no, ...") is declined. The abandoned value
leaves no trace: no operation and no "not applied" line.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import ops_of, plan_on, users

DEBIAN = "debian13-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    "said",
    [
        "hostname edge-gw-.. no, just edge-gw",
        "set the hostname to plant7-hmi, no wait, edge-gw",
        "hostname rack3-a? nope, make it edge-gw",
        "hostname plant7... actually edge-gw",
        "call the host plant7 I mean edge-gw",
    ],
)
def test_a_corrected_hostname_is_the_last_one(said: str) -> None:
    result = plan_on(DEBIAN, said)
    assert [op["hostname"] for op in ops_of(result, "set_hostname")] == ["edge-gw"], result
    assert not result.not_applied


@pytest.mark.parametrize(
    ("said", "groups"),
    [
        ("a user kim with sudo, groups adm and plugdev.. no, just adm", ["adm"]),
        ("user kim in groups video and render, no, only video and dialout", ["video", "dialout"]),
        ("user kim, groups adm, plugdev — no, just plugdev", ["plugdev"]),
        ("user kim, groups adm and plugdev, actually only adm", ["adm"]),
    ],
)
def test_a_restricted_group_list_keeps_only_the_last_list(said: str, groups: list[str]) -> None:
    result = plan_on(DEBIAN, said)
    found = users(result)
    assert sorted(found["kim"].get("groups", [])) == sorted(groups), found
    assert not result.not_applied


def test_a_corrected_number_replaces_the_number_not_the_word_after_it() -> None:
    result = plan_on(DEBIAN, "disk 12GB for the spool. hmm no, 20GB")
    assert [op["size"] for op in ops_of(result, "set_disk_size")] == ["20GB"], result


def test_an_option_asked_about_and_answered_no_is_declined() -> None:
    result = plan_on(DEBIAN, "cmdline: mitigations=off and nohz=off? hmm no, keep nohz as it is")
    cmdline = [a for op in ops_of(result, "set_kernel") for a in op.get("append_cmdline", [])]
    assert cmdline == ["mitigations=off"], result
    assert not result.not_applied


def test_the_words_after_a_corrected_value_stay() -> None:
    result = plan_on(DEBIAN, "add isolcpus=4-7 to the kernel command line, no, 2-7")
    cmdline = [a for op in ops_of(result, "set_kernel") for a in op.get("append_cmdline", [])]
    assert cmdline == ["isolcpus=2-7"] and not result.not_applied, result


def test_actually_before_more_than_a_value_corrects_nothing() -> None:
    result = plan_on(DEBIAN, "add htop, actually tmux too")
    added = [p for op in ops_of(result, "add_packages") for p in op["packages"]]
    assert "htop" in added, result  # "tmux too" is no bare value: htop is not replaced


def test_a_correction_of_another_shape_leaves_the_clause_before_it() -> None:
    result = plan_on(
        DEBIAN, "the image, make it 12 gigs, the units have small eMMCs, actually 10 gigs"
    )
    assert [op["size"] for op in ops_of(result, "set_disk_size")] == ["10GiB"], result


def test_no_before_a_name_is_still_a_removal() -> None:
    result = plan_on(DEBIAN, "add htop, no openssh-server")
    removed = [op["packages"] for op in ops_of(result, "remove_packages")]
    assert removed == [["openssh-server"]], result
