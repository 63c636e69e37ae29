"""The plan's wire schema: one shape that OpenAI's strict mode and the grammar engines accept.

:class:`~oic_ai.tools.edit_plan.EditPlan` is the typed plan the applier reads. Its own JSON
schema (a discriminated ``oneOf``, defaults, a type-less ``value``, ``op`` optional) is
rejected by OpenAI's strict mode and by some grammar converters, so models get a derived,
compact *wire* schema instead:

- an operation is an ``anyOf`` of one small object per operation, each holding only its
  own fields; ``op`` comes first, is required and is an enum of that one name;
- every field is required (strict mode wants that), and the optional ones are nullable
  (``null`` means "not given");
- ``value`` (the ``set`` operation) travels as a JSON string;
- unions are ``anyOf`` (never ``oneOf``), there are no defaults, every node has a type and
  every object has ``additionalProperties: false``.

A grammar-constrained model writes only the fields of the operation it chose, so an
operation costs tens of tokens, not the hundreds a flat object of every field costs.
:func:`wire_operation_to_fields` turns one wire operation back into the fields of the
matching operation model; :mod:`oic_ai.tools.llm_parse` validates them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from typing import Any, get_args

from pydantic import BaseModel

from oic_ai.tools.edit_plan import EditPlan, Operation

SCHEMA_NAME = "edit_plan"
_DROP = frozenset({"title", "default", "discriminator"})
_SCALARS = frozenset({"string", "boolean", "integer", "number"})
_VALUE = {
    "type": "string",
    "description": 'the new value as JSON text, e.g. "\\"ext4\\"", "8", "true" or '
    '"[\\"a\\", \\"b\\"]"',
}


@cache
def operation_models() -> dict[str, type[BaseModel]]:
    """Every operation model by its ``op`` name, in the order of :data:`Operation`."""
    union = get_args(Operation)[0]
    models: dict[str, type[BaseModel]] = {}
    for model in get_args(union):
        models[str(model.model_fields["op"].default)] = model
    return models


def op_names() -> list[str]:
    """The ``op`` names, in catalogue order."""
    return list(operation_models())


def _strip(node: Any, defs: Mapping[str, Any]) -> Any:
    """Drop titles and defaults, inline ``$ref``s and close every object."""
    if isinstance(node, list):
        return [_strip(item, defs) for item in node]
    if not isinstance(node, Mapping):
        return node
    if "$ref" in node:
        name = str(node["$ref"]).rsplit("/", 1)[-1]
        return _strip({**defs[name], **{k: v for k, v in node.items() if k != "$ref"}}, defs)
    out = {k: _strip(v, defs) for k, v in node.items() if k not in _DROP and k != "$defs"}
    if out.get("type") == "object" or "properties" in out:
        props = out.get("properties", {})
        out["properties"] = {
            k: _nullable(v) if k not in _required(node) else v for k, v in props.items()
        }
        out["required"] = list(props)
        out["additionalProperties"] = False
    return out


def _required(node: Mapping[str, Any]) -> set[str]:
    return set(node.get("required", []))


def _is_nullable(node: Mapping[str, Any]) -> bool:
    if node.get("type") == "null":
        return True
    if isinstance(node.get("type"), list) and "null" in node["type"]:
        return True
    return any(_is_nullable(branch) for branch in node.get("anyOf", []))


def _nullable(node: Mapping[str, Any]) -> dict[str, Any]:
    """``node`` or null: a type list for a plain scalar, else ``anyOf``.

    Descriptions stay on the outer node.
    """
    if _is_nullable(node):
        return _collapsed(node)
    if node.get("type") in _SCALARS and set(node) <= {"type", "description"}:
        return {**node, "type": [node["type"], "null"]}
    inner = {k: v for k, v in node.items() if k != "description"}
    out: dict[str, Any] = {"anyOf": [inner, {"type": "null"}]}
    if "description" in node:
        out = {"description": node["description"], **out}
    return out


def _collapsed(node: Mapping[str, Any]) -> dict[str, Any]:
    """``anyOf: [{type: X}, {type: null}]`` of a plain scalar X as ``type: [X, null]``."""
    branches = node.get("anyOf", [])
    if len(branches) == 2 and {"type": "null"} in branches:
        other = next(b for b in branches if b != {"type": "null"})
        if set(other) == {"type"} and other["type"] in _SCALARS:
            rest = {k: v for k, v in node.items() if k != "anyOf"}
            return {**rest, "type": [other["type"], "null"]}
    return dict(node)


def _describe(model: type[BaseModel]) -> str:
    return (model.__doc__ or "").strip().splitlines()[0]


def _branch(op: str, model: type[BaseModel]) -> dict[str, Any]:
    """The wire object of one operation: ``op`` first, then its own fields."""
    raw = model.model_json_schema()
    defs = raw.get("$defs", {})
    props: dict[str, Any] = {"op": {"type": "string", "enum": [op]}}
    for name, info in model.model_fields.items():
        if name == "op":
            continue
        prop = dict(raw["properties"][name])
        if name == "value" and "type" not in prop and "anyOf" not in prop:
            prop = dict(_VALUE)
        field = _strip(prop, defs)
        props[name] = field if info.is_required() else _nullable(field)
    return {
        "type": "object",
        "description": f"{op}: {_describe(model)}",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }


@cache
def _operation_schema_json() -> str:
    branches = [_branch(op, model) for op, model in operation_models().items()]
    return json.dumps({"anyOf": branches})


def operation_schema() -> dict[str, Any]:
    """The wire schema of one operation, an ``anyOf`` of one object per operation."""
    data: dict[str, Any] = json.loads(_operation_schema_json())
    return data


def operation_branch(op: str) -> dict[str, Any]:
    """The wire object of the operation named ``op`` (a fresh copy).

    Raises:
        KeyError: ``op`` names no operation.
    """
    for branch in operation_schema()["anyOf"]:
        if branch["properties"]["op"]["enum"] == [op]:
            return dict(branch)
    raise KeyError(op)


def plan_schema(*, described: bool = True) -> dict[str, Any]:
    """The wire schema of a whole plan (a fresh copy): summary, operations, not_applied.

    Args:
        described: Keep the descriptions. Without them the schema is a third smaller, for
            servers that only compile it into a grammar (Ollama's ``format``, JSON mode),
            where the prompt's operation catalogue already says what each field holds.
    """
    fields = EditPlan.model_fields
    schema = {
        "title": "EditPlan",
        "type": "object",
        "properties": {
            "summary": {"type": "string", "description": fields["summary"].description},
            "operations": {
                "type": "array",
                "description": "the edits, in order",
                "items": operation_schema(),
            },
            "not_applied": {
                "type": "array",
                "description": fields["not_applied"].description,
                "items": {"type": "string"},
            },
        },
        "required": ["summary", "operations", "not_applied"],
        "additionalProperties": False,
    }
    return schema if described else _undescribed(schema)


def _undescribed(node: Any) -> Any:
    """``node`` without description keywords (property names stay)."""
    if isinstance(node, list):
        return [_undescribed(item) for item in node]
    if not isinstance(node, Mapping):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties":
            out[key] = {name: _undescribed(sub) for name, sub in value.items()}
        elif key != "description":
            out[key] = _undescribed(value)
    return out


def plan_schema_text() -> str:
    """The plan schema without descriptions as compact JSON text, for a prompt (JSON mode)."""
    return json.dumps(plan_schema(described=False), separators=(",", ":"))


def response_format() -> dict[str, Any]:
    """The OpenAI ``response_format`` for a strict JSON-schema plan."""
    return {
        "type": "json_schema",
        "json_schema": {"name": SCHEMA_NAME, "strict": True, "schema": plan_schema()},
    }


def plan_tool() -> dict[str, Any]:
    """The plan as one function tool (the ``tools`` structured-output method)."""
    return {
        "type": "function",
        "function": {
            "name": SCHEMA_NAME,
            "description": "Return the edit plan for the request.",
            "parameters": plan_schema(),
            "strict": True,
        },
    }


def wire_operation_to_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of one wire operation that its operation model knows.

    Nulls mean "not given" and are dropped (the model's defaults apply), keys the model
    does not know are dropped, and ``value`` is decoded from JSON text when it is JSON.
    The result still has to be validated against the model.
    """
    op = data.get("op")
    model = operation_models().get(str(op)) if isinstance(op, str) else None
    known = set(model.model_fields) if model is not None else set()
    out: dict[str, Any] = {}
    for key, value in data.items():
        if value is None or (model is not None and key not in known):
            continue
        if key == "value" and isinstance(value, str):
            try:
                value = json.loads(value)
            except (ValueError, RecursionError):
                pass  # a bare string is the value itself
        out[key] = value
    return out


def operation_to_wire(operation: BaseModel) -> dict[str, Any]:
    """One typed operation as its complete wire object (its own fields, nulls where unset)."""
    data = operation.model_dump(mode="json")
    op = str(data["op"])
    wire: dict[str, Any] = {name: None for name in operation_branch(op)["properties"]}
    defaults = {
        name: info.get_default(call_default_factory=True)
        for name, info in type(operation).model_fields.items()
        if not info.is_required()
    }
    for key, value in data.items():
        if key in defaults and key != "op" and value == defaults[key]:
            continue  # a default travels as null, as a grammar-constrained model writes it
        wire[key] = json.dumps(value) if key == "value" else value
    return wire
