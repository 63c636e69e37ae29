"""LLM planners: an edit plan through structured output, or a whole template (yaml mode).

In the ADR's ``yaml`` mode the model writes the whole template from the best sources.
Both return text or plans that go through the same validate, fix and package-check edges
as the builtin planner; nothing here trusts the model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from oic_ai.tools.edit_plan import EditPlan

SOURCE_BUDGET_CHARS = 12_000  # ~3,000 tokens of sources in yaml mode
_LIST_KEEP = 12

PLAN_SYSTEM = """You edit OS image templates for os-image-composer.
Return an edit plan: operations that change the CURRENT TEMPLATE to satisfy the REQUEST.
Use exact package names of the template's distribution. Never put a password in the plan.
Change nothing the request does not ask for. Put anything you cannot express as an
operation into not_applied, in words."""

YAML_SYSTEM = """You write OS image templates for os-image-composer as YAML.
Answer with the complete template only: one YAML document, no prose, no code fences.
Keep the structure of the SOURCES (image, target, disk, systemConfig). Use exact package
names of the target distribution. Never write a plaintext password."""

FIX_SYSTEM = """You repair OS image templates for os-image-composer.
Answer with the complete corrected template only: one YAML document, no prose, no code
fences. Fix exactly the listed errors and change nothing else."""


def _type_name(annotation: Any) -> str:
    text = str(annotation).replace("typing.", "")
    return re.sub(r"<class '(?:[\w.]+\.)?(\w+)'>", r"\1", text).replace(
        "oic_ai.tools.edit_plan.", ""
    )


def plan_format() -> str:
    """A compact description of the plan's JSON, for servers without schema support."""
    from typing import get_args

    from oic_ai.tools.edit_plan import Operation

    lines = ['{"summary": str, "operations": [OPERATION, ...], "not_applied": [str]}', ""]
    union = get_args(Operation)[0]
    for model in get_args(union):
        fields = []
        for name, info in model.model_fields.items():
            if name == "op":
                fields.append(f'"op": "{info.default}"')
            else:
                fields.append(f'"{name}": {_type_name(info.annotation)}')
        lines.append("OPERATION: {" + ", ".join(fields) + "}")
    lines.append('Artifact: {"type": str, "compression": str | None}')
    return "\n".join(lines)


class PlanError(Exception):
    """The model's answer was not a usable edit plan."""


def _content(message: Any) -> str:
    content = getattr(message, "content", message)
    if isinstance(content, list):
        parts = [p.get("text", "") if isinstance(p, Mapping) else str(p) for p in content]
        return "".join(parts)
    return str(content)


def plan_with_model(
    model: Any,
    request: str,
    template_text: str,
    *,
    history: Sequence[str] = (),
    errors: Sequence[str] = (),
    method: str = "json_schema",
) -> EditPlan:
    """Ask a chat model for an :class:`EditPlan` through structured output.

    Args:
        model: A LangChain chat model supporting ``with_structured_output``.
        request: What the user asked for this turn.
        template_text: The template the plan applies to.
        history: Earlier requests of the session, oldest first (already capped).
        errors: Validation errors to fix (the fix loop), if any.
        method: ``json_schema`` (the server constrains output to the plan's schema) or
            ``json_mode`` (plain JSON output; the format is described in the prompt), for
            OpenAI-compatible servers that reject JSON-schema response formats.

    Raises:
        PlanError: the model answered with something that is not a valid plan.
    """
    structured = model.with_structured_output(EditPlan, method=method, include_raw=True)
    system = PLAN_SYSTEM
    if method == "json_mode":
        system += "\nAnswer with one JSON object shaped like this:\n" + plan_format()
    parts = [f"CURRENT TEMPLATE:\n{template_text}"]
    if history:
        parts.append("EARLIER REQUESTS:\n" + "\n".join(f"- {h}" for h in history))
    if errors:
        parts.append("FIX THESE ERRORS:\n" + "\n".join(f"- {e}" for e in errors))
    parts.append(f"REQUEST: {request}")
    answer = structured.invoke([("system", system), ("human", "\n\n".join(parts))])
    if isinstance(answer, EditPlan):
        return answer
    if not isinstance(answer, Mapping):
        raise PlanError(f"the model returned {type(answer).__name__}, not a plan")
    parsed = answer.get("parsed")
    if isinstance(parsed, EditPlan):
        return parsed
    raw = answer.get("raw")
    text = _content(raw) if raw is not None else ""
    try:
        return EditPlan.model_validate_json(extract_json(text))
    except (ValidationError, ValueError) as exc:
        problem = answer.get("parsing_error") or exc
        first = str(problem).splitlines()[0][:160] if str(problem) else type(problem).__name__
        raise PlanError(f"the model's plan is malformed ({first})") from None


def extract_json(text: str) -> str:
    """Return the outermost JSON object in ``text`` (models wrap it in fences or prose)."""
    start = text.find("{")
    end = text.rfind("}")
    if start < 0 or end <= start:
        raise ValueError("no JSON object in the answer")
    return text[start : end + 1]


def summarise_source(text: str, budget: int) -> str:
    """Shrink a source template to ``budget`` characters without cutting YAML mid-way.

    Comments go first, then long lists keep their first items plus a count; the result is
    always whole, parseable YAML.
    """
    if len(text) <= budget:
        return text
    from oic_ai.stores.yaml_document import YamlSyntaxError, load_data

    try:
        data = load_data(text)
    except YamlSyntaxError:
        return ""  # an unparseable source is dropped, never cut
    bare = _without_comments(text)
    if len(bare) <= budget:
        return bare
    keep = _LIST_KEEP
    while True:
        summary = _dump(_shorten(data, keep))
        if len(summary) <= budget or keep <= 2:
            return summary
        keep //= 2


def _without_comments(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def _shorten(node: Any, keep: int) -> Any:
    if isinstance(node, Mapping):
        return {k: _shorten(v, keep) for k, v in node.items()}
    if isinstance(node, list):
        items = [_shorten(v, keep) for v in node[:keep]]
        if len(node) > keep:
            items.append(f"... {len(node) - keep} more")
        return items
    return node


def _dump(data: Any) -> str:
    import yaml

    return str(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100))


def write_template_with_model(
    model: Any,
    request: str,
    sources: Sequence[tuple[str, str]],
    *,
    current: str | None = None,
    budget: int = SOURCE_BUDGET_CHARS,
) -> str:
    """Ask a chat model to write the whole template (the ADR's ``yaml`` mode).

    Args:
        model: A LangChain chat model.
        request: What the user asked for.
        sources: ``(name, yaml text)`` of the best-matching templates, best first (top 3).
        current: The session's current template when refining.
        budget: Characters of source text the prompt may carry in total.

    Returns:
        The YAML text of the answer, with code fences and prose stripped.
    """
    parts: list[str] = []
    if current:
        parts.append(f"CURRENT TEMPLATE:\n{current}")
    top = list(sources)[:3]
    share = max(1_000, budget // max(1, len(top)))
    for name, text in top:
        summary = summarise_source(text, share)
        if summary:
            parts.append(f"SOURCE {name}:\n{summary}")
    parts.append(f"REQUEST: {request}")
    answer = model.invoke([("system", YAML_SYSTEM), ("human", "\n\n".join(parts))])
    return strip_to_yaml(_content(answer))


def fix_template_with_model(model: Any, text: str, errors: Sequence[str]) -> str:
    """Ask a chat model to repair ``text`` given the validator's error lines."""
    prompt = "ERRORS:\n" + "\n".join(f"- {e}" for e in errors) + f"\n\nTEMPLATE:\n{text}"
    answer = model.invoke([("system", FIX_SYSTEM), ("human", prompt)])
    return strip_to_yaml(_content(answer))


_FENCE = re.compile(r"```[ \t]*(?:ya?ml)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)
_TOP_KEY = re.compile(r"^(#|[A-Za-z_][\w-]*:(\s|$)|---\s*$)")


def strip_to_yaml(answer: str) -> str:
    """Strip code fences and surrounding prose from a model's YAML answer.

    Takes the first fenced block if there is one; otherwise the lines from the first
    top-level key (or comment) up to the first unindented line that is not YAML.
    """
    fenced = _FENCE.search(answer)
    if fenced:
        return fenced.group(1).strip("\n") + "\n"
    lines = answer.replace("\r\n", "\n").split("\n")
    start = next((i for i, line in enumerate(lines) if _TOP_KEY.match(line)), None)
    if start is None:
        return answer.strip() + "\n" if answer.strip() else ""
    kept: list[str] = []
    for line in lines[start:]:
        if line and not line[0].isspace() and not _TOP_KEY.match(line) and not line.startswith("-"):
            break
        kept.append(line)
    return "\n".join(kept).strip("\n") + "\n"


def plan_json(plan: EditPlan) -> dict[str, Any]:
    """The plan as plain JSON data, for state and ``--json`` output."""
    data: dict[str, Any] = json.loads(plan.model_dump_json())
    return data
