"""The compact wire schema passes OpenAI's strict subset and compiles in the grammar engines."""

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
    operation_branch,
    operation_models,
    operation_to_wire,
    plan_schema,
    plan_schema_text,
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
    for schema in (plan_schema(), plan_schema(described=False)):
        assert strict_problems(schema, CURRENT_LIMITS) == []
        assert strict_problems(schema, LAUNCH_LIMITS) == []
    assert strict_problems(plan_tool()["function"]["parameters"]) == []
    assert response_format()["json_schema"]["strict"] is True


def test_the_checker_rejects_the_raw_pydantic_schema_for_the_reasons_openai_gives() -> None:
    problems = " ".join(strict_problems(EditPlan.model_json_schema()))
    assert "'oneOf' is not permitted" in problems
    assert "'default' is not permitted" in problems
    assert "'discriminator' is not permitted" in problems
    assert "must have a 'type' key" in problems  # SetValue.value: Any
    assert "'required' is required" in problems


def test_every_operation_is_its_own_small_object_with_op_first() -> None:
    branches = plan_schema()["properties"]["operations"]["items"]["anyOf"]
    assert [b["properties"]["op"]["enum"] for b in branches] == [[n] for n in op_names()]
    assert len(op_names()) == 18
    for branch in branches:
        model = operation_models()[branch["properties"]["op"]["enum"][0]]
        assert list(branch["properties"]) == list(model.model_fields)  # its own fields only
        assert branch["required"] == list(branch["properties"])  # op first, all required
        assert branch["properties"]["op"]["type"] == "string"
        assert branch["additionalProperties"] is False
    assert max(len(b["properties"]) for b in branches) <= 6  # the flat object had 36


def test_no_node_is_type_less_and_nothing_has_a_default_or_one_of() -> None:
    text = json.dumps(plan_schema())
    assert '"oneOf"' not in text and '"default"' not in text and '"allOf"' not in text
    for where, node in _nodes(plan_schema()):
        assert any(key in node for key in _TYPED), where
        if node.get("type") == "object":
            assert node["additionalProperties"] is False, where
            assert node["required"] == list(node["properties"]), where


def _nullable(node: Mapping[str, Any]) -> bool:
    kinds = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
    return "null" in kinds or any(b.get("type") == "null" for b in node.get("anyOf", []))


def test_exactly_the_optional_fields_are_nullable() -> None:
    for op, model in operation_models().items():
        branch = operation_branch(op)
        for name, info in model.model_fields.items():
            nullable = _nullable(branch["properties"][name])
            assert nullable is (name != "op" and not info.is_required()), (op, name)


def test_value_travels_as_json_text() -> None:
    value = operation_branch("set")["properties"]["value"]
    assert value["type"] == "string"
    wire = operation_to_wire(SetValue(path="disk.size", value={"a": [1, 2]}))
    assert wire == {"op": "set", "path": "disk.size", "value": '{"a": [1, 2]}'}
    assert wire_operation_to_fields(wire) == {
        "op": "set",
        "path": "disk.size",
        "value": {"a": [1, 2]},
    }
    bare = wire_operation_to_fields({"op": "set", "path": "x", "value": "ext4"})
    assert bare["value"] == "ext4"


def test_the_prompt_copy_has_no_descriptions_and_is_compact() -> None:
    text = plan_schema_text()
    assert ": " not in text and json.loads(text) == plan_schema(described=False)
    for where, node in _nodes(json.loads(text)):
        assert not isinstance(node.get("description"), str), where
    metadata = operation_branch("set_metadata")["properties"]
    assert '"required":["op",' + ",".join(f'"{k}"' for k in list(metadata)[1:]) in text
    assert len(text) < 5_500  # the flat schema was 6,810 characters


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
    assert list(wire) == list(operation_branch(operation.op)["properties"])
    back = TypeAdapter(Operation).validate_python(wire_operation_to_fields(wire))
    assert back == operation


def test_the_schema_compiles_in_llguidance() -> None:
    llguidance = pytest.importorskip("llguidance")
    for schema in (plan_schema(), plan_schema(described=False)):
        grammar = llguidance.grammar_from("json_schema", json.dumps(schema))
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
    # a field of another operation, or one of its own left out, is outside the grammar
    other = {**wire, "hostname": "h"}
    assert not accepts(plan_schema(), json.dumps({**good, "operations": [other]}))
    short = {k: v for k, v in wire.items() if k != "kernel"}
    assert not accepts(plan_schema(), json.dumps({**good, "operations": [short]}))


def test_llguidance_accepts_every_operation_in_its_compact_form() -> None:
    from tests.tools.llm.grammar import accepts

    operations = [
        SetTarget(arch="aarch64", dist="ubuntu24"),
        AddPartition(id="data", mount_point="/data", size="2GiB"),
        SetArtifacts(artifacts=[Artifact(type="raw", compression="gz")]),
        AddUser(name="edge", groups=["docker"], sudo=True),
        SetValue(path="systemConfig.hostname", value="edge-1"),
    ]
    plan = {"summary": "s", "operations": [operation_to_wire(o) for o in operations]}
    assert accepts(plan_schema(described=False), json.dumps({**plan, "not_applied": []}))


def test_the_schema_converts_in_llamacpps_converter() -> None:
    grammar = pytest.importorskip(
        "llama_cpp.llama_grammar", reason="the [llamacpp] extra is not installed"
    )
    for schema in (plan_schema(), plan_schema(described=False)):
        gbnf = grammar.json_schema_to_gbnf(json.dumps(schema))
        assert "root ::=" in gbnf and '\\"set_hostname\\"' in gbnf
