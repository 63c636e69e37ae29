"""Lenient, honest parsing of a model's plan.

Small models wrap JSON in prose, fences or ``<think>`` blocks, invent operation names, add
keys and slip on types; reasoning models spend the reply budget thinking. This keeps every
operation that validates (up to the per-turn cap), moves the others into "not applied"
with the reason, and says plainly when a reply is unusable (no JSON, the template echoed
back, cut off, all reasoning, refused, empty) so the caller can retry once and then fall
back naming the real cause. The JSON itself is read by :mod:`oic_ai.tools.llm_json`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, get_args, get_origin

from pydantic import BaseModel, TypeAdapter, ValidationError

from oic_ai.tools.edit_plan import EditPlan, Operation
from oic_ai.tools.llm_json import (
    JsonValues,
    TooDeep,
    clean,
    clean_counted,
    read_json,
    valid_text,
)
from oic_ai.tools.plan_schema import operation_models, wire_operation_to_fields

MAX_OPERATIONS = 100  # ai.generation.max_operations
TRUNCATED = "truncated"
REASONING = "reasoning"
REFUSED = "refused"
ECHOED = "echoed"
EMPTY = "empty"
NO_JSON = "no_json"
NO_VALID_OP = "no_valid_operation"

# names 7-8B models invent for real operations
ALIASES = {
    "add_package": "add_packages",
    "install": "add_packages",
    "install_package": "add_packages",
    "install_packages": "add_packages",
    "add": "add_packages",
    "remove_package": "remove_packages",
    "uninstall": "remove_packages",
    "uninstall_packages": "remove_packages",
    "delete_packages": "remove_packages",
    "set_disk": "set_disk_size",
    "disk_size": "set_disk_size",
    "resize_disk": "set_disk_size",
    "set_size": "set_disk_size",
    "set_value": "set",
    "set_field": "set",
    "update": "set",
    "delete_value": "delete",
    "remove_value": "delete",
    "unset": "delete",
    "set_name": "set_image",
    "add_users": "add_user",
    "create_user": "add_user",
    "add_repo": "add_repository",
    "set_arch": "set_target",
    "set_architecture": "set_target",
}
_OP_KEYS = ("op", "operation", "action")
_TEMPLATE_KEYS = frozenset({"image", "target", "disk", "systemConfig"})
_THINK = re.compile(r"<(think|thinking|reasoning)>.*?(</\1>|$)", re.DOTALL | re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*(?:json)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)
_REFUSAL = re.compile(
    r"\b(I can(?:no|')t (?:help|assist|do)|I(?: am|'m) (?:unable|not able) to|I won't|"
    r"I will not|I must decline|as an AI)\b",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*$")
_CUT_OP = re.compile(r'"(?:op|operation|action)"\s*:\s*"([A-Za-z_ -]{1,40})"')
_ADAPTER: TypeAdapter[Any] = TypeAdapter(Operation)


@dataclass
class ParsedPlan:
    """What came out of one reply.

    Attributes:
        plan: The usable plan (None when ``problem`` is set).
        problem: Why the reply is unusable: one of the module's problem codes, else None.
        detail: Words for the problem, for the retry prompt and the notice.
        kept: Operations that validated.
        dropped: Why each other operation was not applied.
        notes: Lenient readings made (an alias, a coerced type, ignored keys).
        partial: The complete, valid operations of a reply that was cut off.
        cut: What a cut-off reply lost, in words ("" when nothing was cut).
        beyond_cap: Operations past the per-turn cap, not read.
    """

    plan: EditPlan | None = None
    problem: str | None = None
    detail: str = ""
    kept: int = 0
    dropped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    partial: list[Any] = field(default_factory=list)
    cut: str = ""
    beyond_cap: int = 0


def strip_reasoning(text: str) -> str:
    """Drop ``<think>…</think>`` blocks (an unclosed one runs to the end)."""
    return _THINK.sub("", text)


def _looks_like_plan(value: Any) -> bool:
    if isinstance(value, list):
        return bool(value) and all(isinstance(v, Mapping) and _op_name(v) for v in value)
    return isinstance(value, Mapping) and (
        "operations" in value or "summary" in value or bool(_op_name(value))
    )


def _looks_like_template(value: Any) -> bool:
    return isinstance(value, Mapping) and len(_TEMPLATE_KEYS & set(value)) >= 2


def _op_name(data: Mapping[str, Any]) -> str:
    for key in _OP_KEYS:
        if isinstance(data.get(key), str):
            return str(data[key])
    return ""


def _salvage_operations(text: str) -> tuple[list[Any], str]:
    """The complete operation objects of a reply cut off inside its ``operations`` list.

    Returns:
        The operations, and the name of the one that was cut off ("" when unknown).
    """
    match = re.search(r'"operations"\s*:\s*\[', text)
    if not match:
        return [], ""
    decoder = json.JSONDecoder()
    index = match.end()
    ops: list[Any] = []
    while True:
        while index < len(text) and text[index] in " \t\r\n,":
            index += 1
        try:
            value, index = decoder.raw_decode(text, index)
            ops.append(clean(value))
        except (ValueError, RecursionError):
            cut = _CUT_OP.search(text, index)
            return ops, cut.group(1) if cut else ""


def parse_plan(
    text: str,
    *,
    finish_reason: str | None = None,
    refusal: str | None = None,
    tool_args: Mapping[str, Any] | None = None,
    salvage: bool = False,
    max_operations: int = MAX_OPERATIONS,
    reasoning_tokens: int = 0,
) -> ParsedPlan:
    """Read a model's reply as a plan, leniently.

    Args:
        text: The reply's text.
        finish_reason: The server's finish (done) reason; ``length`` means cut off.
        refusal: The server's refusal text (OpenAI's ``message.refusal``), if any.
        tool_args: The arguments of the plan tool call (the ``tools`` method), if any.
        salvage: Use the complete operations of a cut-off reply (reporting what was cut)
            instead of calling it unusable (the second try).
        max_operations: Operations read at most; the rest are reported as not applied.
        reasoning_tokens: Reply tokens the server says went to reasoning.
    """
    if refusal:
        return ParsedPlan(problem=REFUSED, detail=f"the model refused to plan ({refusal[:120]})")
    raw, replaced = valid_text(text or "")
    body = strip_reasoning(raw)
    truncated = (finish_reason or "").lower() in ("length", "max_tokens")
    if truncated and not body.strip() and not tool_args:
        return _reasoning_filled(raw, reasoning_tokens)
    found = JsonValues()
    data: Any = None
    if tool_args:
        try:
            data, found.replaced = clean_counted(dict(tool_args))
        except TooDeep as exc:
            found.too_deep = str(exc)
    else:
        found = read_json(body)
        data = _plan_data(found)
        values = found.values
        if data is None and values and _looks_like_template(values[0]):
            return ParsedPlan(problem=ECHOED, detail=_echo_detail())
        if data is None and values and not truncated:
            data = values[0]
    complete = isinstance(data, Mapping) and "operations" in data
    ops, cut = ([], "") if complete or tool_args else _salvage_operations(body)
    if not truncated and ops and isinstance(data, Mapping) and "operations" not in data:
        data = {"operations": ops}  # broken JSON around whole operations: read them one by one
    if truncated and not complete:
        parsed = _from_data({"summary": "", "operations": ops}, max_operations) if ops else None
        where = _cut_words(parsed.kept if parsed else 0, cut)
        if salvage and parsed is not None and parsed.plan is not None:
            parsed.notes.append(f"the reply was cut off; kept its {len(ops)} complete operation(s)")
            parsed.plan.not_applied.append(f"not applied: {where}")
            parsed.cut = where
            return _finish(parsed, found, replaced)
        return ParsedPlan(
            problem=TRUNCATED,
            detail="the reply was cut off at the token limit (finish reason length) before "
            "the plan was complete",
            partial=list(parsed.plan.operations) if parsed and parsed.plan else [],
            cut=where,
        )
    if data is None:
        if found.too_deep:
            return ParsedPlan(problem=NO_JSON, detail=f"the model's plan is unreadable "
                              f"({found.too_deep})")  # fmt: skip
        return _no_json(body)
    return _finish(_from_data(data, max_operations), found, replaced)


def _plan_data(found: JsonValues) -> Any:
    """The plan in the reply's JSON values; several whole plans are read as one, in order.

    A lone operation object counts only when there is no whole plan (a broken plan's
    operations are salvaged one by one by the caller).
    """
    plans = [v for v in found.values if _whole_plan(v)]
    unique: list[Any] = []
    for plan in plans:
        if plan not in unique:
            unique.append(plan)
    if not unique:
        return next((v for v in found.values if _looks_like_plan(v)), None)
    for other in found.values:
        if not _looks_like_plan(other) and not _looks_like_template(other):
            text = json.dumps(other)
            found.notes.append(f"ignored a JSON value that is not a plan: {text[:80]}")
    if len(unique) == 1:
        return unique[0]
    merged: dict[str, Any] = {"summary": "", "operations": [], "not_applied": []}
    for plan in unique:
        part = {"operations": plan} if isinstance(plan, list) else plan
        merged["summary"] = merged["summary"] or part.get("summary") or ""
        ops = part.get("operations")
        for op in ops if isinstance(ops, list) else []:
            if op not in merged["operations"]:
                merged["operations"].append(op)
        merged["not_applied"].extend(_strings(part.get("not_applied")))
    found.notes.append(f"the reply held {len(unique)} JSON plans; read the operations of all")
    return merged


def _whole_plan(value: Any) -> bool:
    if isinstance(value, list):
        return _looks_like_plan(value)
    return isinstance(value, Mapping) and "operations" in value


def _finish(parsed: ParsedPlan, found: JsonValues, replaced: int) -> ParsedPlan:
    """Add what reading the JSON took to ``parsed``: its notes, and warnings to show."""
    parsed.notes.extend(found.notes)
    warnings = [n for n in found.notes if n.startswith(("ignored", "the reply held"))]
    if replaced + found.replaced:
        count = replaced + found.replaced
        warnings.append(f"replaced {count} invalid character(s) in the model's reply")
    if parsed.plan is not None and warnings:
        parsed.plan.warnings.extend(warnings)
    parsed.notes.extend(w for w in warnings if w not in parsed.notes)
    return parsed


def _cut_words(kept: int, cut: str) -> str:
    nth = _ordinal(kept + 1)
    what = f"the {nth} operation ({cut})" if cut else f"the {nth} operation"
    return (
        f"the plan was cut off at the token limit after {kept} complete operation(s); "
        f"{what} and anything after it were lost"
    )


def _ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def _reasoning_filled(raw: str, reasoning_tokens: int) -> ParsedPlan:
    """A reply cut off with nothing but (hidden or visible) reasoning in it."""
    if reasoning_tokens:
        spent = f"{reasoning_tokens:,} reasoning tokens"
    elif raw.strip():
        spent = "its thinking"
    else:
        spent = "hidden reasoning"
    return ParsedPlan(
        problem=REASONING,
        detail=f"the model spent its whole reply budget on {spent} and wrote no plan "
        "(finish reason length, empty answer)",
    )


def _echo_detail() -> str:
    return "the model echoed the template back instead of writing an edit plan"


def _no_json(body: str) -> ParsedPlan:
    stripped = body.strip()
    if not stripped:
        return ParsedPlan(problem=EMPTY, detail="the reply was empty")
    if _REFUSAL.search(stripped[:400]):
        first = stripped.splitlines()[0][:120]
        return ParsedPlan(problem=REFUSED, detail=f"the model refused to plan ({first!r})")
    if _template_yaml(stripped):
        return ParsedPlan(problem=ECHOED, detail=_echo_detail())
    return ParsedPlan(problem=NO_JSON, detail="the model's plan is malformed (no JSON object)")


def _template_yaml(text: str) -> bool:
    from oic_ai.stores.yaml_document import YamlSyntaxError, load_data

    fenced = re.search(r"```[ \t]*(?:ya?ml)?[ \t]*\n(.*?)```", text, re.DOTALL)
    try:
        data = load_data(fenced.group(1) if fenced else text)
    except (YamlSyntaxError, ValueError):
        return False
    return _looks_like_template(data)


def _from_data(data: Any, max_operations: int = MAX_OPERATIONS) -> ParsedPlan:
    parsed = ParsedPlan()
    if isinstance(data, list):
        data = {"operations": data}
    if isinstance(data, Mapping) and isinstance(data.get("plan"), Mapping):
        data = data["plan"]
    if not isinstance(data, Mapping):
        return ParsedPlan(problem=NO_JSON, detail="the model's plan is malformed (not an object)")
    if _looks_like_template(data) and "operations" not in data:
        return ParsedPlan(problem=ECHOED, detail=_echo_detail())
    raw_ops = data.get("operations")
    if raw_ops is None and _op_name(data):
        raw_ops = [data]
    if raw_ops is None:
        raw_ops = []
    if not isinstance(raw_ops, list):
        return ParsedPlan(
            problem=NO_JSON,
            detail="the model's plan is malformed (operations is not a list)",
        )
    if len(raw_ops) > max_operations:
        parsed.beyond_cap = len(raw_ops) - max_operations
        raw_ops = raw_ops[:max_operations]
    operations: list[Any] = []
    for number, raw in enumerate(raw_ops, 1):
        operation, reason = _operation(raw, number, parsed.notes)
        if operation is None:
            parsed.dropped.append(reason)
        else:
            operations.append(operation)
    summary = data.get("summary")
    not_applied = _strings(data.get("not_applied"))
    ignored = sorted(set(data) - {"summary", "operations", "not_applied", "warnings", "op"})
    if ignored:
        parsed.notes.append(f"ignored unknown keys {', '.join(ignored)}")
    parsed.kept = len(operations)
    if not operations and parsed.dropped:
        parsed.problem = NO_VALID_OP
        parsed.detail = f"the model's plan is malformed (no valid operation: {parsed.dropped[0]})"
        return parsed
    if not operations and not not_applied:
        parsed.problem = EMPTY
        parsed.detail = "the model's plan is empty (no operations)"
        return parsed
    beyond = []
    if parsed.beyond_cap:
        beyond.append(
            f"not applied: {parsed.beyond_cap:,} operation(s) beyond the cap of "
            f"{max_operations} per turn (ai.generation.max_operations)"
        )
        parsed.notes.append(
            f"read the first {max_operations} operations of {len(raw_ops) + parsed.beyond_cap:,}"
        )
    parsed.plan = EditPlan(
        summary=str(summary) if isinstance(summary, str) and summary else "the model's plan",
        operations=operations,
        not_applied=[*not_applied, *(f"not applied: {d}" for d in parsed.dropped), *beyond],
    )
    return parsed


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [str(v) for v in value if v not in (None, "")]
    return []


def _operation(raw: Any, number: int, notes: list[str]) -> tuple[Any, str]:
    if not isinstance(raw, Mapping):
        return None, f"operation {number} is not an object"
    name = _op_name(raw)
    if not name:
        return None, f"operation {number} has no op"
    models = operation_models()
    key = re.sub(r"[\s-]+", "_", name.strip().lower())
    op = key if key in models else ALIASES.get(key, "")
    if not op:
        return None, f"operation {number}: unknown op {name!r}"
    if op != name:
        notes.append(f"read op {name!r} as {op}")
    model = models[op]
    data = {k: v for k, v in raw.items() if k not in _OP_KEYS}
    unknown = sorted(k for k, v in data.items() if k not in model.model_fields and v is not None)
    if unknown:
        notes.append(f"operation {number}: ignored {', '.join(unknown)}")
    fields = wire_operation_to_fields({"op": op, **data})
    fields = {k: _coerce(model, k, v, notes) for k, v in fields.items()}
    try:
        return _ADAPTER.validate_python(fields), ""
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"][1:]) or op
        return None, f"operation {number} ({op}): {where}: {error['msg']}"


def _coerce(model: type[BaseModel], name: str, value: Any, notes: list[str]) -> Any:
    """Fix the type slips small models make, and say so."""
    info = model.model_fields.get(name)
    if info is None or name == "op":
        return value
    annotation = info.annotation
    kinds = {annotation, *get_args(annotation)}
    wants_list = any(get_origin(k) is list for k in kinds)
    wants_str = str in kinds
    wants_bool = bool in kinds
    if wants_list and isinstance(value, str):
        items = [part for part in re.split(r"[,\s]+", value) if part]
        notes.append(f"read {name} {value!r} as a list")
        return items
    if name == "size" and isinstance(value, (int, float)) and not isinstance(value, bool):
        notes.append(f"read size {value} as {value:g}GiB")
        return f"{value:g}GiB"
    if name == "size" and isinstance(value, str) and _NUMBER.match(value):
        notes.append(f"read size {value!r} as {value.strip()}GiB")
        return f"{value.strip()}GiB"
    if wants_str and isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if wants_bool and isinstance(value, str) and value.lower() in ("true", "false", "yes", "no"):
        return value.lower() in ("true", "yes")
    return value
