"""The wire schema passes OpenAI's strict subset and compiles in the grammar engines."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from pydantic import TypeAdapter

from oic_ai.tools.edit_plan import (
    AddPackages,
    AddPartition,
    AddUser,
    Artifact,
    EditPlan,
    Operation,
    SetArtifacts,
    SetTarget,
    SetValue,
)
from oic_ai.tools.plan_schema import (
    op_names,
    operation_schema,
    operation_to_wire,
    plan_schema,
    plan_tool,
    response_format,
    wire_operation_to_fields,
)
from tests.tools.llm.openai_strict import CURRENT_LIMITS, LAUNCH_LIMITS, strict_problems

_TYPED = ("type", "anyOf", "enum", "const", "$ref")


def _nodes(node: Any, where: str = "$") -> Iterator[tuple[str, Mapping[str, Any]]]:
    if isinstance(node, Mapping):
        yield where, node
        for name, sub in node.get("properties", {}).items():
            yield from _nodes(sub, f"{where}.{name}")
        if "items" in node:
            yield from _nodes(node["items"], f"{where}[]")
        for i, branch in enumerate(node.get("anyOf", [])):
            yield from _nodes(branch, f"{where}|{i}")


def test_the_plan_schema_passes_openais_strict_subset_now_and_at_launch() -> None:
    assert strict_problems(plan_schema(), CURRENT_LIMITS) == []
    assert strict_problems(plan_schema(), LAUNCH_LIMITS) == []
    assert strict_problems(plan_tool()["function"]["parameters"]) == []
    assert response_format()["json_schema"]["strict"] is True


def test_the_checker_rejects_the_raw_pydantic_schema_for_the_reasons_openai_gives() -> None:
    problems = " ".join(strict_problems(EditPlan.model_json_schema()))
    assert "'oneOf' is not permitted" in problems
    assert "'default' is not permitted" in problems
    assert "'discriminator' is not permitted" in problems
    assert "must have a 'type' key" in problems  # SetValue.value: Any
    assert "'required' is required" in problems


def test_op_is_first_required_and_an_enum_in_every_operation() -> None:
    operation = plan_schema()["properties"]["operations"]["items"]
    assert list(operation["properties"])[0] == "op"
    assert operation["required"][0] == "op"
    assert operation["properties"]["op"] == {**operation["properties"]["op"], "type": "string"}
    assert operation["properties"]["op"]["enum"] == op_names()
    assert len(op_names()) == 18
    assert set(operation["required"]) == set(operation["properties"])


def test_no_node_is_type_less_and_nothing_has_a_default_or_one_of() -> None:
    text = json.dumps(plan_schema())
    assert '"oneOf"' not in text and '"default"' not in text and '"allOf"' not in text
    for where, node in _nodes(plan_schema()):
        assert any(key in node for key in _TYPED), where
        if node.get("type") == "object":
            assert node["additionalProperties"] is False, where
            assert node["required"] == list(node["properties"]), where


def test_every_field_but_op_is_nullable() -> None:
    for name, node in operation_schema()["properties"].items():
        nullable = any(branch.get("type") == "null" for branch in node.get("anyOf", []))
        assert nullable is (name != "op"), name


def test_value_travels_as_json_text() -> None:
    value = operation_schema()["properties"]["value"]
    assert {"type": "string"} in value["anyOf"]
    wire = operation_to_wire(SetValue(path="disk.size", value={"a": [1, 2]}))
    assert wire["value"] == '{"a": [1, 2]}'
    assert wire_operation_to_fields(wire) == {
        "op": "set",
        "path": "disk.size",
        "value": {"a": [1, 2]},
    }
    bare = wire_operation_to_fields({"op": "set", "path": "x", "value": "ext4"})
    assert bare["value"] == "ext4"


@pytest.mark.parametrize(
    "operation",
    [
        SetTarget(arch="aarch64", dist="ubuntu24"),
        AddPartition(id="data", mount_point="/data", size="2GiB"),
        SetArtifacts(artifacts=[Artifact(type="raw", compression="gz")]),
        AddUser(name="edge", groups=["docker"], sudo=True),
        SetValue(path="systemConfig.hostname", value="edge-1"),
    ],
)
def test_wire_objects_round_trip_to_the_same_operation(operation: Any) -> None:
    wire = operation_to_wire(operation)
    assert list(wire) == list(operation_schema()["properties"])
    back = TypeAdapter(Operation).validate_python(wire_operation_to_fields(wire))
    assert back == operation


def test_the_schema_compiles_in_llguidance() -> None:
    llguidance = pytest.importorskip("llguidance")
    grammar = llguidance.grammar_from("json_schema", json.dumps(plan_schema()))
    assert llguidance.LLMatcher.validate_grammar(grammar) == ""
    broken = llguidance.grammar_from("json_schema", json.dumps({"type": "strin"}))
    assert llguidance.LLMatcher.validate_grammar(broken) != ""  # the check is real


def test_llguidance_accepts_a_plan_and_rejects_op_out_of_place() -> None:
    from tests.tools.llm.grammar import accepts

    wire = operation_to_wire(AddPackages(packages=["htop"]))
    good = {"summary": "add htop", "operations": [wire], "not_applied": []}
    assert accepts(plan_schema(), json.dumps(good))
    late = dict(wire)
    late.pop("op")
    late["op"] = "add_packages"
    assert not accepts(plan_schema(), json.dumps({**good, "operations": [late]}))
    assert not accepts(plan_schema(), json.dumps({**good, "operations": [{"op": "install"}]}))


def test_the_schema_converts_in_llamacpps_converter() -> None:
    grammar = pytest.importorskip(
        "llama_cpp.llama_grammar", reason="the [llamacpp] extra is not installed"
    )
    gbnf = grammar.json_schema_to_gbnf(json.dumps(plan_schema()))
    assert "root ::=" in gbnf
