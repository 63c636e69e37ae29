"""The labelled requests (typos, paraphrases, negations) end to end with the builtin planner.

Each request of ``tests/data/understanding.yaml`` runs through the whole graph
(:class:`~oic_ai.graph.agent.TemplateAgent`, provider ``builtin``, the bundled library
indexed with the local embedder) and the final template is checked for its target, its
packages, the turn's changes and the notices that say what was read how.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from oic_ai.graph.agent import TemplateAgent
from oic_ai.stores.settings import load_settings
from oic_ai.tools.planner.text import RequestText, reading_notices, split_items, tokenize
from tests.conftest import PROJECT
from tests.tools.planner.helpers import plan_on

LABELLED = PROJECT / "tests" / "data" / "understanding.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(LABELLED.read_text(encoding="utf-8"))["requests"]


@pytest.fixture(scope="module")
def agent(tmp_path_factory: pytest.TempPathFactory, indexed_data: Path) -> Iterator[TemplateAgent]:
    data = tmp_path_factory.mktemp("understanding") / "data"
    shutil.copytree(indexed_data / "chroma", data / "chroma")
    with TemplateAgent(load_settings(data_dir=data, env={}, provider="builtin")) as running:
        yield running


def test_the_labelled_set_is_large_and_covers_every_kind() -> None:
    assert len(CASES) >= 60
    kinds = [kind for case in CASES for kind in case["kinds"]]
    for kind in ("typo", "paraphrase", "negation"):
        assert kinds.count(kind) >= 15, kind
    assert all(case.get("target") for case in CASES)


def _packages(template: str | None) -> set[str]:
    data = yaml.safe_load(template or "") or {}
    system = data.get("systemConfig") or {}
    kernel = system.get("kernel") or {}
    return {*(system.get("packages") or []), *(kernel.get("packages") or [])}


@pytest.mark.parametrize("case", CASES, ids=[c["request"][:60] for c in CASES])
def test_labelled_request(agent: TemplateAgent, case: dict[str, Any]) -> None:
    session = agent.generate(case["first"]).session if case.get("first") else None
    result = agent.generate(case["request"], session=session)
    assert result.ok, (result.status, result.reasons)
    target = (yaml.safe_load(result.template or "") or {}).get("target") or {}
    assert {key: target.get(key) for key in case["target"]} == case["target"]
    packages = _packages(result.template)
    assert set(case.get("present", [])) <= packages, result.changes
    assert not set(case.get("absent", [])) & packages, result.changes
    for fragment in case.get("changes", []):
        assert any(fragment in line for line in result.changes), (fragment, result.changes)
    for fragment in case.get("reads", []):
        assert any(fragment in line for line in result.notices), (fragment, result.notices)
    if case.get("no_reads"):
        assert not [n for n in result.notices if n.startswith("read '")], result.notices


# --- the planner's reading of the request, without the graph --------------------------------


def test_request_text_reads_the_corrected_request_and_keeps_what_was_written() -> None:
    text = RequestText("add Dokcer and nginxx")
    assert text.written == "add Dokcer and nginxx"
    assert text.original == "add docker and nginx"
    assert [c.notice for c in text.corrections] == [
        "read 'Dokcer' as 'docker'",
        "read 'nginxx' as 'nginx'",
    ]
    assert RequestText("add Dokcer", understand=False).original == "add Dokcer"


def test_reading_notices_never_repeat_a_password() -> None:
    notices = reading_notices("add a user admin with password dokcerr and add dokcer")
    assert notices == ["read 'dokcer' as 'docker'"]


@pytest.mark.parametrize(
    "request_text",
    [
        "without docker",
        "without any docker",
        "no docker",
        "minus docker",
        "except docker",
        "drop docker",
        "leave out docker",
        "keep everything except docker",
        "I don't want docker",
        "no need for docker",
        "do without docker",
        "a docker-free image",
    ],
)
def test_negation_forms_remove(request_text: str) -> None:
    plan = plan_on("ubuntu24-aarch64-edge-container-raw.yml", request_text)
    ops = [(op.op, getattr(op, "packages", None)) for op in plan.operations]
    assert ("remove_packages", ["docker.io"]) in ops, (ops, plan.not_applied)
    assert not any(op == "add_packages" for op, _ in ops), ops
    assert plan.not_applied == []


@pytest.mark.parametrize(
    ("request_text", "mode"),
    [
        ("not a desktop", "remove"),
        ("no GUI", "remove"),
        ("other than vim", "remove"),
        ("free of snapd", "remove"),
        ("don't install vim", "remove"),
        ("add vim", "add"),
        ("with vim", "add"),
    ],
)
def test_list_items_carry_the_verb_before_them(request_text: str, mode: str) -> None:
    items = list(split_items(tokenize(RequestText(request_text).work)))
    assert items and items[-1].mode == mode, items
