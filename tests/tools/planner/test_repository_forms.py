"""Repository fields in more of the forms people write them: "comp", a slash between suite
and component, a ``file://`` key, quoted components, a repository trusted without a key,
and a field changed for a listed repository with filler words ("the X suite there is ...")."""

from __future__ import annotations

import pytest
import yaml

from oic_ai.tools.planner import plan_request
from oic_ai.tools.references import target_clause_spans
from tests.conftest import OUR_TEMPLATES

DEBIAN = "debian13-x86_64-minimal-raw.yml"
LISTED = "https://pkgs.acme.example/apt"


def _text(with_repository: bool = False) -> str:
    text = (OUR_TEMPLATES / DEBIAN).read_text(encoding="utf-8")
    if not with_repository:
        return text
    data = yaml.safe_load(text)
    data["packageRepositories"] = [
        {"codename": "bookworm", "url": LISTED, "component": "main", "pkey": f"{LISTED}/k.asc"}
    ]
    return yaml.safe_dump(data, sort_keys=False)


def _ops(said: str, with_repository: bool = False) -> tuple[list[dict[str, object]], list[str]]:
    plan = plan_request(said, _text(with_repository), mode="refine")
    ops = [{"op": op.op, **op.model_dump(exclude_defaults=True)} for op in plan.operations]
    return ops, plan.not_applied


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
def test_repository_fields_in_other_forms(said: str, wanted: dict[str, str]) -> None:
    ops, not_applied = _ops(said)
    added = [op for op in ops if op["op"] == "add_repository"]
    assert len(added) == 1, ops
    for key, value in wanted.items():
        assert added[0].get(key) == value, (key, added[0])
    assert not_applied == [], not_applied


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
