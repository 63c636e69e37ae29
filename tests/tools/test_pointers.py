"""Pointers to template items by place or history ("the second user", "the partition we added").

The sentences are written for these tests, not copied from the labelled conversations.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from oic_ai.graph.agent import TemplateAgent
from oic_ai.stores.settings import load_settings
from oic_ai.tools.pointers import resolve_corrections, resolve_pointers
from tests.conftest import OUR_TEMPLATES

DEBIAN = (OUR_TEMPLATES / "debian13-x86_64-minimal-raw.yml").read_text(encoding="utf-8")


def _with(users: list[str], mounts: tuple[str, ...] = ()) -> str:
    doc: dict[str, Any] = yaml.safe_load(DEBIAN)
    doc["systemConfig"]["users"] = [{"name": name} for name in users]
    for mount in mounts:
        doc["disk"]["partitions"].append({"id": mount.strip("/"), "mountPoint": mount})
    return yaml.safe_dump(doc, sort_keys=False)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("the 2nd account gets fish as its shell", "the user dana gets fish as its shell"),
        ("drop the first user", "drop the user carl"),
        ("first login should be in plugdev", "the user carl should be in plugdev"),
        ("the last user needs sudo after all", "the user dana needs sudo after all"),
        # no such user, or a new one: as written
        ("the third user gets sudo", "the third user gets sudo"),
        ("add a second user erin", "add a second user erin"),
        ("one more second user? no", "one more second user? no"),
    ],
)
def test_a_user_named_by_its_place_is_the_template_user_at_that_place(
    said: str, meant: str
) -> None:
    assert resolve_pointers(said, _with(["carl", "dana"])) == meant


def test_the_partition_the_session_added_is_the_one_the_first_template_lacked() -> None:
    first = _with([], ("/srv/www",))
    now = _with([], ("/srv/www", "/var/cache/build"))
    assert (
        resolve_pointers("grow the new partition to 30GiB", now, first)
        == "grow the /var/cache/build partition to 30GiB"
    )
    assert resolve_pointers("the partition you added should be xfs", now, first) == (
        "the /var/cache/build partition should be xfs"
    )
    # nothing added in the session: as written
    assert resolve_pointers("the new partition", first, first) == "the new partition"


def test_it_with_a_file_system_is_the_one_partition_the_session_added() -> None:
    first = _with([])
    now = _with([], ("/srv/media",))
    assert resolve_pointers("change it over to btrfs, please", now, first) == (
        "make the /srv/media partition btrfs, please"
    )
    assert resolve_pointers("format that as vfat", now, first) == (
        "make the /srv/media partition vfat"
    )
    # no file system named, two partitions added, or none: as written
    assert resolve_pointers("make it bigger", now, first) == "make it bigger"
    two = _with([], ("/srv/media", "/var/spool"))
    assert resolve_pointers("make it xfs", two, first) == "make it xfs"
    assert resolve_pointers("make it xfs", first, first) == "make it xfs"


def test_a_turn_that_points_at_the_second_user_changes_that_user(agent_data_dir: Path) -> None:
    agent = TemplateAgent(load_settings(data_dir=agent_data_dir, env={}, provider="builtin"))
    try:
        first = agent.generate(
            "a minimal debian 13 raw image for x86_64, user carl with sudo and user dana"
        )
        turn = agent.generate("the second user should get zsh", session=first.session)
        users = yaml.safe_load(turn.template or "")["systemConfig"]["users"]
        shells = {u["name"]: u.get("shell") for u in users}
        assert shells["dana"] == "/bin/zsh" and shells["carl"] != "/bin/zsh"
        assert turn.not_applied == []
    finally:
        agent.close()


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("hostname gate-7. no wait, make it gate-9", "hostname gate-9"),
        ("install nano, actually no, make that micro please", "install micro please"),
        ("set the disk to 12GiB - sorry, I mean 14GiB", "set the disk to 14GiB"),
        # another kind of value, a withdrawal, or nothing before: left to the take-back rule
        (
            "a user ops with sudo, no wait, call it admin",
            "a user ops with sudo, no wait, call it admin",
        ),
        ("disk 10GiB, no wait, make it nano", "disk 10GiB, no wait, make it nano"),
        ("add gimp, no wait, no desktop apps", "add gimp, no wait, no desktop apps"),
        ("no wait, make it gate-9", "no wait, make it gate-9"),
    ],
)
def test_a_change_of_mind_gives_the_corrected_clause_its_new_value(said: str, meant: str) -> None:
    assert resolve_corrections(said) == meant


def test_a_turn_with_a_change_of_mind_applies_only_the_new_value(agent_data_dir: Path) -> None:
    agent = TemplateAgent(load_settings(data_dir=agent_data_dir, env={}, provider="builtin"))
    try:
        first = agent.generate("a minimal debian 13 raw image for x86_64")
        turn = agent.generate("add nano. actually no, make that btop", session=first.session)
        packages = yaml.safe_load(turn.template or "")["systemConfig"]["packages"]
        assert "btop" in packages and "nano" not in packages
        assert turn.not_applied == []
    finally:
        agent.close()
