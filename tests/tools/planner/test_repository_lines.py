"""A sources line's suite and components end where the line does, and a priority said later.

Found on dev14 (session 17): a pasted ``deb URL suite component`` line followed by a new
line, by "(key URL)" or by " / key URL" lost its suite and component (the target's own
codename was put in), and "a higher priority than debian's own, 600" set no priority.
"""

from __future__ import annotations

import pytest

from tests.tools.planner.helpers import one_repository_op, repository_ops

DEBIAN = "debian13-x86_64-minimal-raw.yml"
UBUNTU = "ubuntu24-x86_64-minimal-raw.yml"


def _repository(said: str, template: str = DEBIAN) -> dict[str, object]:
    return one_repository_op(said, template)


@pytest.mark.parametrize(
    ("said", "suite", "component"),
    [
        (
            "please add this source:\ndeb https://pkgs.example.net/apt bookworm-extras main\n"
            "signing key: https://pkgs.example.net/key.asc",
            "bookworm-extras",
            "main",
        ),
        (
            "repo deb https://apt.example.org/tools stable main contrib "
            "(key https://apt.example.org/tools.gpg)",
            "stable",
            "main contrib",
        ),
        (
            "vendor repo is deb https://dl.example.com/deb edge main / key "
            "https://dl.example.com/gpg",
            "edge",
            "main",
        ),
        (
            "- repo: deb [signed-by=/usr/share/keyrings/acme.gpg] https://acme.example.io/apt "
            "acme-lts non-free\n- key: https://acme.example.io/acme.asc\n- install htop",
            "acme-lts",
            "non-free",
        ),
    ],
)
def test_a_sources_line_keeps_its_suite_and_components_up_to_its_end(
    said: str, suite: str, component: str
) -> None:
    repository = _repository(said)
    assert repository["codename"] == suite
    assert repository["component"] == component
    assert str(repository["pkey"]).startswith("https://")


def test_a_slash_between_components_still_joins_them() -> None:
    repository = _repository(
        "add the repo deb https://m.example.org/ubuntu noble main/universe, key "
        "https://m.example.org/k.gpg",
        UBUNTU,
    )
    assert repository["codename"] == "noble"
    assert repository["component"] == "main universe"


@pytest.mark.parametrize(
    ("said", "priority"),
    [
        (
            "add the repo https://r.example.org/apt stable main, a higher priority than "
            "debian's, 700",
            700,
        ),
        ("repo https://r.example.org/apt stable main, priority above the default: 990", 990),
        ("repo https://r.example.org/apt stable main and its priority should be 450", 450),
    ],
)
def test_a_priority_said_later_in_its_clause(said: str, priority: int) -> None:
    assert _priorities(said) == [priority]


def test_a_number_in_another_sentence_is_no_priority() -> None:
    said = "repo https://r.example.org/apt stable main with a high priority. disk 8 GiB"
    assert _priorities(said) == []


def _priorities(said: str) -> list[object]:
    ops, not_applied = repository_ops(said, DEBIAN)
    assert [op["url"] for op in ops if op["op"] == "add_repository"] == [
        "https://r.example.org/apt"
    ], (ops, not_applied)
    return [op["value"] for op in ops if str(op.get("path", "")).endswith(".priority")]
