"""The conversation checker's `keeps` rule: what an earlier undo took back is not "lost"."""

from __future__ import annotations

from typing import Any

from tests.support.conversations import _Conversation, _kept


def _doc(hostname: str, size: str | None) -> dict[str, Any]:
    disk: dict[str, Any] = {"size": size} if size else {}
    return {
        "target": {"os": "debian", "dist": "debian13", "arch": "x86_64", "imageType": "raw"},
        "disk": disk,
        "systemConfig": {"hostname": hostname},
    }


def _seen(*expects: dict[str, Any]) -> _Conversation:
    seen = _Conversation()
    seen.family = "deb"
    seen.expects = list(expects)
    return seen


def test_a_customisation_undone_by_a_later_turn_is_not_required_again() -> None:
    seen = _seen({"hostname": "gw-1"}, {"disk_size": "64GiB"}, {"same_as_turn": 1})
    assert _kept({"keeps": True}, _doc("gw-1", "8GiB"), seen) == []


def test_what_the_undone_to_turn_had_is_still_required() -> None:
    seen = _seen({"hostname": "gw-1"}, {"disk_size": "64GiB"}, {"same_as_turn": 1})
    assert _kept({"keeps": True}, _doc("other", "8GiB"), seen) == [
        "lost: hostname 'other', not 'gw-1'"
    ]


def test_without_an_undo_every_earlier_customisation_counts() -> None:
    seen = _seen({"hostname": "gw-1"}, {"disk_size": "64GiB"})
    lost = _kept({"keeps": True}, _doc("gw-1", "8GiB"), seen)
    assert len(lost) == 1 and lost[0].startswith("lost: disk size")


def test_a_user_or_package_a_later_turn_took_away_is_not_required_again() -> None:
    seen = _seen(
        {"hostname": "gw-1", "users": [{"name": "deploy"}], "present": ["htop", "jq"]},
        {"users_absent": ["deploy"], "absent": ["jq"]},
    )
    doc = _doc("gw-1", None)
    doc["systemConfig"]["packages"] = ["htop"]
    assert _kept({"keeps": True}, doc, seen) == []
    doc["systemConfig"]["packages"] = []
    assert _kept({"keeps": True}, doc, seen) == ["lost: package htop missing"]


def test_what_this_turn_takes_away_is_not_required_by_keeps() -> None:
    seen = _seen({"hostname": "gw-1", "users": [{"name": "deploy"}], "present": ["htop", "jq"]})
    doc = _doc("gw-1", None)
    doc["systemConfig"]["packages"] = ["htop"]
    expect = {"keeps": True, "absent": ["jq"], "users_absent": ["deploy"]}
    assert _kept(expect, doc, seen) == []
    assert _kept({"keeps": True}, doc, seen) == [
        "lost: package jq missing",
        "lost: user deploy missing",
    ]


def test_a_kernel_option_a_later_turn_dropped_is_not_required_again() -> None:
    seen = _seen({"hostname": "gw-1", "cmdline_has": ["quiet", "isolcpus=1-3"]}, {})
    doc = _doc("gw-1", None)
    doc["systemConfig"]["kernel"] = {"cmdline": "console=ttyS0,115200"}
    assert len(_kept({"keeps": True}, doc, seen)) == 2
    seen.expects[1] = {"cmdline_lacks": ["quiet", "isolcpus"]}
    assert _kept({"keeps": True}, doc, seen) == []
