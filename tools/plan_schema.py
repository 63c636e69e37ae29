"""The plan's wire schema: one shape that OpenAI's strict mode and the grammar engines accept.

:class:`~oic_ai.tools.edit_plan.EditPlan` is the typed plan the applier reads. Its own JSON
schema (a discriminated ``oneOf``, defaults, a type-less ``value``, ``op`` optional) is
rejected by OpenAI's strict mode and by some grammar converters, so models get a derived
*wire* schema instead:

- every operation is one flat object; ``op`` comes first and is a required enum;
- every other field of every operation is a property too, required but nullable
  (``null`` means "not given");
- ``value`` (the ``set`` operation) travels as a JSON string;
- unions are ``anyOf`` (never ``oneOf``), there are no defaults, every node has a type and
  every object has ``additionalProperties: false``.

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
    """``node`` or null, as ``anyOf`` (descriptions stay on the outer node)."""
    if _is_nullable(node):
        return dict(node)
    inner = {k: v for k, v in node.items() if k != "description"}
    out: dict[str, Any] = {"anyOf": [inner, {"type": "null"}]}
    if "description" in node:
        out = {"description": node["description"], **out}
    return out


def _field_schema(model: type[BaseModel], name: str) -> dict[str, Any]:
    raw = model.model_json_schema()
    prop = dict(raw["properties"][name])
    if name == "value" and "type" not in prop and "anyOf" not in prop:
        prop = {
            "type": "string",
            "description": 'the new value as JSON text, e.g. "\\"ext4\\"", "8", "true" or '
            '"[\\"a\\", \\"b\\"]"',
        }
    stripped = _strip(prop, raw.get("$defs", {}))
    assert isinstance(stripped, dict)
    return stripped


def _describe(model: type[BaseModel]) -> str:
    return (model.__doc__ or "").strip().splitlines()[0]


@cache
def _operation_schema_json() -> str:
    models = operation_models()
    props: dict[str, Any] = {
        "op": {
            "type": "string",
            "enum": list(models),
            "description": "the operation: "
            + "; ".join(f"{name}: {_describe(m)}" for name, m in models.items()),
        }
    }
    users: dict[str, list[str]] = {}
    notes: dict[str, list[str]] = {}
    for op, model in models.items():
        for name in model.model_fields:
            if name == "op":
                continue
            users.setdefault(name, []).append(op)
            field = _field_schema(model, name)
            if name not in props:
                props[name] = _nullable(field)
            elif _type_key(props[name]) != _type_key(_nullable(field)):
                raise TypeError(f"field {name!r} has two types across operations")
            if field.get("description"):
                notes.setdefault(name, []).append(str(field["description"]))
    for name, ops in users.items():
        text = f"for {', '.join(ops)}"
        unique = list(dict.fromkeys(notes.get(name, [])))
        if unique:
            text += ": " + "; ".join(unique)
        props[name] = {
            "description": text,
            **{k: v for k, v in props[name].items() if k != "description"},
        }
    schema = {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
    }
    return json.dumps(schema)


def _type_key(node: Mapping[str, Any]) -> str:
    return json.dumps({k: v for k, v in node.items() if k != "description"}, sort_keys=True)


def operation_schema() -> dict[str, Any]:
    """The flat wire schema of one operation (a fresh copy)."""
    data: dict[str, Any] = json.loads(_operation_schema_json())
    return data


def plan_schema() -> dict[str, Any]:
    """The wire schema of a whole plan (a fresh copy): summary, operations, not_applied."""
    fields = EditPlan.model_fields
    return {
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
            except ValueError:
                pass  # a bare string is the value itself
        out[key] = value
    return out


def operation_to_wire(operation: BaseModel) -> dict[str, Any]:
    """One typed operation as a complete wire object (every field, nulls where unset)."""
    data = operation.model_dump(mode="json")
    wire: dict[str, Any] = {name: None for name in operation_schema()["properties"]}
    for key, value in data.items():
        wire[key] = json.dumps(value) if key == "value" else value
    return wire
