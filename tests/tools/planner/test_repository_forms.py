"""Repository fields in more of the forms people write them: "comp", a slash between suite
and component, a ``file://`` key, quoted components, a repository trusted without a key,
and a field changed for a listed repository with filler words ("the X suite there is ...")."""

from __future__ import annotations

import pytest

from oic_ai.tools.references import target_clause_spans
from tests.tools.planner.helpers import one_repository_op, repository_ops

DEBIAN = "debian13-x86_64-minimal-raw.yml"
LISTED = "https://pkgs.acme.example/apt"


LISTED_REPOSITORY: dict[str, object] = {
    "codename": "bookworm",
    "url": LISTED,
    "component": "main",
    "pkey": f"{LISTED}/k.asc",
}


def _ops(said: str, with_repository: bool = False) -> tuple[list[dict[str, object]], list[str]]:
    return repository_ops(said, DEBIAN, LISTED_REPOSITORY if with_repository else None)


@pytest.mark.parametrize(
    ("said", "wanted"),
    [
        (
            "vendor repo https://r.vendor.example/deb suite edge2, comp main, key "
            "https://r.vendor.example/k.asc",
            {"codename": "edge2", "component": "main", "pkey": "https://r.vendor.example/k.asc"},
        ),
        (
            "our mirror: https://m.vendor.example/debian, trixie / main, keyring at "
            "file:///usr/share/keyrings/m.gpg",
            {"codename": "trixie", "component": "main", "pkey": "file:///usr/share/keyrings/m.gpg"},
        ),
        (
            "add the repo https://q.vendor.example/apt codename trixie, components 'main "
            "contrib non-free', key https://q.vendor.example/q.gpg",
            {"codename": "trixie", "component": "main contrib non-free"},
        ),
    ],
)
def test_repository_fields_in_other_forms(said: str, wanted: dict[str, object]) -> None:
    one_repository_op(said, DEBIAN, wanted=wanted)


@pytest.mark.parametrize(
    "trust",
    [
        "it is unsigned, just trust it",
        "there's no signing key, mark it as trusted",
        "[trusted=yes]",
    ],
)
def test_a_repository_trusted_without_a_key(trust: str) -> None:
    ops, not_applied = _ops(f"add repo https://t.vendor.example/apt codename trixie. {trust}")
    added = [op for op in ops if op["op"] == "add_repository"]
    assert added and added[0].get("pkey") == "[trusted=yes]", ops
    assert not_applied == [], not_applied


def test_no_key_alone_invents_no_trust_and_no_key() -> None:
    ops, not_applied = _ops("add repo https://t.vendor.example/apt codename trixie, no key")
    added = [op for op in ops if op["op"] == "add_repository"]
    assert added and "pkey" not in added[0], ops
    assert not_applied == [], not_applied


def test_a_field_of_a_listed_repository_said_with_filler_words() -> None:
    ops, not_applied = _ops("the acme codename there is trixie instead of bookworm", True)
    assert {
        "op": "set",
        "path": f"packageRepositories[url={LISTED}].codename",
        "value": "trixie",
    } in ops, ops
    assert not [op for op in ops if op["op"] == "set_target"], ops
    assert not_applied == [], not_applied


def test_a_release_said_as_a_repository_field_is_no_target_of_a_retarget() -> None:
    said = "same image for debian 13; the vendor suite there is trixie, not bookworm"
    spans = target_clause_spans(said)
    assert not any(said[s:e] == "trixie" for s, e in spans), spans
