"""A checker for OpenAI's structured-output ("strict") subset of JSON Schema.

Encodes the published rules
(https://platform.openai.com/docs/guides/structured-outputs#supported-schemas):

- the root is an object, not ``anyOf``;
- only the supported keywords appear: ``type``, ``properties``, ``required``,
  ``additionalProperties``, ``items``, ``anyOf``, ``enum``, ``const``, ``description``,
  ``title``, ``$defs``/``definitions``, ``$ref``, string ``pattern``/``format``, number
  ``minimum``/``maximum``/``exclusiveMinimum``/``exclusiveMaximum``/``multipleOf`` and
  array ``minItems``/``maxItems`` (``oneOf``, ``allOf``, ``not``, ``if``, ``default``,
  ``discriminator``, ``patternProperties`` ... are not permitted);
- every object has ``additionalProperties: false`` and lists every property in
  ``required``;
- every node says what it is (``type``, ``anyOf``, ``enum``, ``const`` or ``$ref``);
- at most 10 levels of object nesting and 5,000 object properties (the limits were 5 and
  100 at launch; :data:`LAUNCH_LIMITS` keeps them), at most 1,000 enum values, and at most
  120,000 characters of property names, definition names, enum values and const values
  (15,000 at launch).

Messages follow the server's 400 text: ``In context=('properties', 'x'), 'oneOf' is not
permitted.``
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SUPPORTED = frozenset(
    {
        "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum",
        "const", "description", "title", "$defs", "definitions", "$ref", "pattern",
        "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "multipleOf", "minItems", "maxItems",
    }
)  # fmt: skip
TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})


@dataclass(frozen=True)
class Limits:
    """The size limits of one version of the rules."""

    depth: int
    properties: int
    enum_values: int
    characters: int


CURRENT_LIMITS = Limits(depth=10, properties=5_000, enum_values=1_000, characters=120_000)
LAUNCH_LIMITS = Limits(depth=5, properties=100, enum_values=500, characters=15_000)


def strict_problems(schema: Mapping[str, Any], limits: Limits = CURRENT_LIMITS) -> list[str]:
    """Every reason OpenAI's strict mode would reject ``schema`` (empty: accepted)."""
    problems: list[str] = []
    if schema.get("type") != "object" or "anyOf" in schema:
        problems.append("the root schema must be an object and not anyOf")
    counts = {"properties": 0, "enum": 0, "chars": 0, "depth": 0}
    _walk(schema, (), 1, problems, counts)
    if counts["depth"] > limits.depth:
        problems.append(f"{counts['depth']} levels of nesting exceeds limit of {limits.depth}")
    if counts["properties"] > limits.properties:
        problems.append(
            f"{counts['properties']} object properties exceeds limit of {limits.properties}"
        )
    if counts["enum"] > limits.enum_values:
        problems.append(f"{counts['enum']} enum values exceeds limit of {limits.enum_values}")
    if counts["chars"] > limits.characters:
        problems.append(f"{counts['chars']} characters exceeds limit of {limits.characters}")
    return problems


def _walk(
    node: Any, where: tuple[str, ...], depth: int, problems: list[str], counts: dict[str, int]
) -> None:
    context = f"In context={where!r}, "
    if not isinstance(node, Mapping):
        problems.append(f"{context}a schema must be an object")
        return
    for key in node:
        if key not in SUPPORTED:
            problems.append(f"{context}'{key}' is not permitted.")
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind is not None else []
    for one in kinds:
        if one not in TYPES:
            problems.append(f"{context}type {one!r} is not supported.")
    if not kinds and not any(k in node for k in ("anyOf", "enum", "const", "$ref")):
        problems.append(f"{context}schema must have a 'type' key.")
    if "enum" in node:
        counts["enum"] += len(node["enum"])
        counts["chars"] += sum(len(str(v)) for v in node["enum"])
    if "const" in node:
        counts["chars"] += len(str(node["const"]))
    for name, sub in node.get("$defs", node.get("definitions", {})).items():
        counts["chars"] += len(name)
        _walk(sub, (*where, "$defs", name), depth, problems, counts)
    if "object" in kinds or "properties" in node:
        counts["depth"] = max(counts["depth"], depth)
        props = node.get("properties", {})
        counts["properties"] += len(props)
        if node.get("additionalProperties") is not False:
            problems.append(
                f"{context}'additionalProperties' is required to be supplied and to be false."
            )
        missing = [p for p in props if p not in node.get("required", [])]
        if missing:
            problems.append(
                f"{context}'required' is required to be supplied and to be an array including "
                f"every key in properties. Missing {missing[0]!r}."
            )
        for name, sub in props.items():
            counts["chars"] += len(name)
            _walk(sub, (*where, "properties", name), depth + 1, problems, counts)
    if "items" in node:
        _walk(node["items"], (*where, "items"), depth, problems, counts)
    for i, branch in enumerate(node.get("anyOf", [])):
        _walk(branch, (*where, "anyOf", str(i)), depth, problems, counts)
