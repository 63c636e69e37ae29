"""Phrasal verbs of taking a package out ("rip out", "pull out", "cut out").

The sentences were written for these tests: the verb and its particle together remove what
follows, as "leave out" does, and the particle is never read as a package.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import added, plan_on, removed

UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


@pytest.mark.parametrize(
    "request_text",
    [
        "rip out openssh-server, nobody logs in remotely",
        "please pull out openssh-server and systemd-timesyncd",
        "cut out systemd-timesyncd and openssh-server",
        "yank out openssh-server",
    ],
)
def test_a_phrasal_verb_removes_what_follows(request_text: str) -> None:
    result = plan_on(UBUNTU, request_text)
    assert "openssh-server" in removed(result) or "systemd-timesyncd" in removed(result), (
        result.operations,
        result.not_applied,
    )
    assert not added(result), result.operations


def test_both_names_after_a_phrasal_verb_are_removed() -> None:
    result = plan_on(UBUNTU, "pull out openssh-server and systemd-timesyncd")
    assert sorted(removed(result)) == ["openssh-server", "systemd-timesyncd"]
