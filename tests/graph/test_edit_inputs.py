"""The graph inputs ``template_edit`` and ``template_origin`` (the editor's Apply, "start from").

A turn that brings its own template skips retrieval and planning: ``apply_edit`` makes it
the draft, and validate, fix, verify_packages and respond treat it like any result.
"""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.runtime import Runtime

from oic_ai.graph.agent import TemplateAgent
from oic_ai.graph.builder import graph
from oic_ai.graph.routers import route_after_classify
from oic_ai.nodes.classify import classify
from oic_ai.nodes.context import Context
from oic_ai.nodes.respond import OWN_EDIT_HINT
from oic_ai.stores.session_store import SessionStore, sessions_db_path
from oic_ai.stores.template_library import TemplateNotFoundError
from tests.conftest import FIXTURES, OUR_TEMPLATES

MINIMAL = OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml"


def _classified(**state: Any) -> dict[str, Any]:
    messages = [{"role": "user", "content": "apply my edit"}]
    return classify({"messages": messages, **state}, Runtime(context=Context()))  # type: ignore[arg-type]


def test_classify_routes_a_turn_with_a_template_to_apply_edit() -> None:
    edit = _classified(template_edit="image: {}\n", template="old: 1\n")
    assert edit["route"]["intent"] == "edit" and edit["route"]["reason"] == "applied your edit"
    assert route_after_classify(edit) == "apply_edit"  # type: ignore[arg-type]
    origin = _classified(template_edit="image: {}\n", template_origin="edge-gw")
    assert origin["route"]["reason"] == "started from edge-gw"
    plain = _classified(template="image: {}\n")  # no edit: the request is planned as before
    assert plain["route"]["intent"] == "refine"
    assert route_after_classify(plain) == "generate"  # type: ignore[arg-type]


def test_the_graph_draws_the_edit_path() -> None:
    drawn = graph.get_graph()
    edges = {(edge.source, edge.target) for edge in drawn.edges}
    assert {("classify", "apply_edit"), ("apply_edit", "validate")} <= edges
    assert not {("apply_edit", "generate"), ("apply_edit", "retrieve")} & edges
    schema = graph.get_input_jsonschema()["properties"]
    assert {"messages", "template_edit", "template_origin"} <= set(schema)
    assert "Apply" in schema["template_edit"]["description"]


def _steps() -> tuple[list[str], Any]:
    steps: list[str] = []
    return steps, lambda node, update: steps.append(node)


def test_start_from_seeds_a_session_with_a_library_template(agent: TemplateAgent) -> None:
    steps, on_step = _steps()
    result = agent.start_from(MINIMAL.stem, on_step=on_step)
    assert steps == ["classify", "apply_edit", "validate", "verify_packages", "respond"]
    assert result.status in ("valid", "valid_with_warnings")
    assert result.template == MINIMAL.read_text()
    assert result.base_template == MINIMAL.stem and result.sources == []
    assert result.changes[0].startswith(f"started from {MINIMAL.stem} (+")
    assert result.message.startswith(f"Started from {MINIMAL.stem}.")
    assert result.route["intent"] == "edit"
    assert agent.current_template(result.session) == MINIMAL.read_text()
    with pytest.raises(TemplateNotFoundError):
        agent.start_from("no-such-template")


def test_an_edit_becomes_the_template_and_is_recorded(agent: TemplateAgent) -> None:
    first = agent.start_from(MINIMAL.stem)
    edited = MINIMAL.read_text().replace("systemConfig:", "# tuned by hand\nsystemConfig:", 1)
    steps, on_step = _steps()
    result = agent.apply_edit(first.session, edited, on_step=on_step)
    assert "retrieve" not in steps and "generate" not in steps
    assert steps[:3] == ["classify", "apply_edit", "validate"] and steps[-1] == "respond"
    assert result.status in ("valid", "valid_with_warnings")
    assert result.changes == ["applied your edit (+1 -0 lines)"]
    assert result.message.startswith("Applied your edit.")
    assert "+# tuned by hand" in result.diff
    assert agent.current_template(first.session) == edited
    assert result.provider == "builtin (edit)"
    state = agent.state(first.session)
    assert state.get("template_edit") is None and state.get("template_origin") is None
    with SessionStore(sessions_db_path(agent.settings.data_dir)) as store:
        row = store.get(first.session)
    assert (row.turns, row.request, row.status) == (2, "apply my edit", result.status)


def test_an_invalid_edit_is_reported_and_the_session_keeps_its_template(
    agent: TemplateAgent,
) -> None:
    first = agent.start_from(MINIMAL.stem)
    lines = MINIMAL.read_text().splitlines(keepends=True)
    index = next(i for i, line in enumerate(lines) if line.strip().startswith("name:"))
    lines.insert(index + 1, lines[index].split("name")[0] + "bogusKey: 1\n")
    result = agent.apply_edit(first.session, "".join(lines))
    assert result.status == "invalid"
    errors = result.validation["errors"]
    assert errors and errors[0]["line"] == index + 2
    assert agent.current_template(first.session) == MINIMAL.read_text()


def test_an_own_edit_is_reported_not_fixed_until_asked(agent: TemplateAgent) -> None:
    broken = (FIXTURES / "invalid" / "duplicate-packages.yml").read_text()
    steps, on_step = _steps()
    result = agent.apply_edit(None, broken, on_step=on_step)
    assert "fix" not in steps and result.status == "invalid", result.message
    assert result.validation["errors"] and not any(c.startswith("fix:") for c in result.changes)
    assert "not fixed without asking" in result.reasons[0]
    assert result.message.splitlines()[-1] == OWN_EDIT_HINT
    # the follow-up turn asks for the fix ("Fix it"): now the loop runs
    steps, on_step = _steps()
    fixed = agent.apply_edit(result.session, broken, fix=True, on_step=on_step)
    assert "fix" in steps and fixed.status in ("valid", "valid_with_warnings"), fixed.message
    assert fixed.changes[0].startswith("fixed your edit")
    assert any(change.startswith("fix:") for change in fixed.changes)
    state = agent.state(result.session)
    assert state.get("fix_edit") is None and not state.get("own_edit")


def test_a_moved_partition_is_not_moved_back_without_asking(agent: TemplateAgent) -> None:
    """The issue's case: the fix loop moved a partition the user had just moved, said valid."""
    first = agent.start_from(MINIMAL.stem)
    good = agent.current_template(first.session)
    moved = good.replace("      start: 257MiB\n", "      start: 200MiB\n", 1)
    assert moved != good
    steps, on_step = _steps()
    result = agent.apply_edit(first.session, moved, on_step=on_step)
    assert steps == ["classify", "apply_edit", "validate", "respond"], steps
    assert result.status == "invalid"
    assert [e["code"] for e in result.validation["errors"]] == ["partition-overlap"]
    assert result.template == moved  # the edit comes back exactly as written
    assert agent.current_template(first.session) == good  # and the last good template kept
    asked = agent.apply_edit(first.session, moved, fix=True)
    assert asked.status in ("valid", "valid_with_warnings")
    assert "start: 200MiB" not in asked.template


def test_a_library_starting_point_is_still_fixed(agent: TemplateAgent) -> None:
    broken = (FIXTURES / "invalid" / "duplicate-packages.yml").read_text()
    payload = {
        "messages": [{"role": "user", "content": "start from dup"}],
        "template_edit": broken,
        "template_origin": "dup",
    }
    steps, on_step = _steps()
    result = agent._run(agent.new_session_id(), payload, on_step)
    assert "fix" in steps and result.status in ("valid", "valid_with_warnings")


def test_the_edit_is_consumed_so_the_next_request_is_planned(agent: TemplateAgent) -> None:
    first = agent.start_from(MINIMAL.stem)
    steps, on_step = _steps()
    after = agent.generate("make the disk 16GiB", session=first.session, on_step=on_step)
    assert after.route["intent"] == "refine" and "generate" in steps
    assert "apply_edit" not in steps
    assert any("16GiB" in change for change in after.changes)
