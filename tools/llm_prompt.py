"""Prompts a 7-8B model can follow, within a budget derived from the context window.

Every plan prompt carries the operation catalogue (one line per operation), three short
worked examples and the template trimmed to what the context window leaves after the
reply's tokens. Ollama never shows its ``format`` schema to the model, so the catalogue is
how the model learns the operation names.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, get_args, get_origin

from pydantic import BaseModel

from oic_ai.tools.plan_schema import operation_models

DEFAULT_NUM_CTX = 8192  # matches oic_ai.stores.chat_models.DEFAULT_NUM_CTX
DEFAULT_REPLY_TOKENS = 3072  # ai.generation.max_tokens
CHARS_PER_TOKEN = 3  # conservative for YAML and JSON (real tokenizers give 3.5-4)
_SAFETY_TOKENS = 256
_MIN_BUDGET = 2_000
_LIST_KEEP = 12

PLAN_RULES = """You edit OS image templates for os-image-composer.
Return an edit plan: a JSON object with "summary", "operations" and "not_applied".
Each operation is an object whose first key is "op", one of the operations below.
Use exact package names of the template's distribution. Never put a password in the plan.
Change nothing the request does not ask for. Put anything you cannot express as an
operation into not_applied, in words. Answer with the JSON object only."""

FIX_RULES = """The CURRENT TEMPLATE has the PROBLEMS listed below. Return an edit plan that
fixes exactly those problems and changes nothing else: for a package that does not exist,
remove it (remove_packages) and add the suggested replacement (add_packages)."""

EXAMPLES: tuple[tuple[str, dict[str, Any]], ...] = (
    (
        "add htop and vim, and make the disk 8GiB",
        {
            "summary": "add htop and vim; 8GiB disk",
            "operations": [
                {"op": "add_packages", "packages": ["htop", "vim"]},
                {"op": "set_disk_size", "size": "8GiB"},
            ],
            "not_applied": [],
        },
    ),
    (
        "for arm64, hostname edge-01, and a 2GiB /data partition",
        {
            "summary": "aarch64 target, hostname and a data partition",
            "operations": [
                {"op": "set_target", "arch": "aarch64"},
                {"op": "set_hostname", "hostname": "edge-01"},
                {"op": "add_partition", "id": "data", "mount_point": "/data", "size": "2GiB"},
            ],
            "not_applied": [],
        },
    ),
    (
        "drop nano, set the kernel cmdline quiet splash, and make it boot faster",
        {
            "summary": "remove nano and set the kernel command line",
            "operations": [
                {"op": "remove_packages", "packages": ["nano"]},
                {"op": "set", "path": "systemConfig.kernel.cmdline", "value": '"quiet splash"'},
            ],
            "not_applied": ["make it boot faster: no operation expresses this"],
        },
    ),
)


def _type_text(annotation: Any) -> str:
    origin = get_origin(annotation)
    args = [a for a in get_args(annotation) if a is not type(None)]
    if origin is list:
        return f"[{_type_text(args[0])}]" if args else "[...]"
    if args and origin is not None and str(origin).endswith("Literal"):
        return "|".join(str(a) for a in args)
    if args and len(args) == 1 and origin is not list:
        return _type_text(args[0])
    if args and str(origin) in ("typing.Union", "<class 'types.UnionType'>"):
        return "|".join(_type_text(a) for a in args)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        inner = ", ".join(
            f"{n}{'' if f.is_required() else '?'}: {_type_text(f.annotation)}"
            for n, f in annotation.model_fields.items()
        )
        return "{" + inner + "}"
    if annotation is Any:
        return "JSON text"
    return getattr(annotation, "__name__", str(annotation))


def catalogue() -> str:
    """One line per operation: name, fields (``?`` marks optional ones) and what it does."""
    lines = []
    for op, model in operation_models().items():
        fields = []
        for name, info in model.model_fields.items():
            if name == "op":
                continue
            mark = "" if info.is_required() else "?"
            fields.append(f"{name}{mark}: {_type_text(info.annotation)}")
        doc = (model.__doc__ or "").strip().splitlines()[0]
        lines.append(f"- {op}({', '.join(fields)}): {doc}")
    return "\n".join(lines)


def examples() -> str:
    """The worked examples, request then plan."""
    parts = []
    for request, plan in EXAMPLES:
        parts.append(f"REQUEST: {request}\nPLAN: {json.dumps(plan)}")
    return "\n\n".join(parts)


def plan_system(*, schema_in_prompt: str = "", fix: bool = False) -> str:
    """The system prompt of a plan turn (or of a plan-mode fix)."""
    parts = [PLAN_RULES]
    if fix:
        parts.append(FIX_RULES)
    parts.append("OPERATIONS:\n" + catalogue())
    parts.append("EXAMPLES:\n" + examples())
    if schema_in_prompt:
        parts.append("Answer with one JSON object matching this JSON schema:\n" + schema_in_prompt)
    return "\n\n".join(parts)


def prompt_budget(num_ctx: int | None, reply_tokens: int | None) -> int:
    """Characters the whole prompt may use: what the context leaves after the reply."""
    ctx = num_ctx or DEFAULT_NUM_CTX
    reply = min(reply_tokens or DEFAULT_REPLY_TOKENS, ctx // 2)
    return max(_MIN_BUDGET, (ctx - reply - _SAFETY_TOKENS) * CHARS_PER_TOKEN)


def plan_human(
    request: str,
    template_text: str,
    *,
    budget: int,
    history: Sequence[str] = (),
    errors: Sequence[str] = (),
) -> str:
    """The user message: template (trimmed to ``budget``), history, problems, request."""
    parts = []
    if history:
        parts.append("EARLIER REQUESTS:\n" + "\n".join(f"- {h}" for h in history))
    if errors:
        parts.append("PROBLEMS TO FIX:\n" + "\n".join(f"- {e}" for e in errors))
    parts.append(f"REQUEST: {request}")
    rest = sum(len(p) + 2 for p in parts) + len("CURRENT TEMPLATE:\n")
    template = summarise_source(template_text, max(0, budget - rest))
    return "\n\n".join([f"CURRENT TEMPLATE:\n{template}", *parts])


def model_budget(model: Any, num_ctx: int | None = None) -> int:
    """The prompt budget for ``model``: its ``num_ctx`` and reply tokens when it has them."""
    inner = getattr(model, "bound", model)  # a RunnableBinding asks its model
    return prompt_budget(num_ctx or _int_attr(inner, "num_ctx"), reply_tokens(inner))


def reply_tokens(model: Any) -> int | None:
    """The reply budget ``model`` was built with (``num_predict`` or ``max_tokens``)."""
    inner = getattr(model, "bound", model)
    return _int_attr(inner, "num_predict") or _int_attr(inner, "max_tokens")


def _int_attr(model: Any, name: str) -> int | None:
    value = getattr(model, name, None)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def summarise_source(text: str, budget: int) -> str:
    """Shrink a template to at most ``budget`` characters without cutting YAML mid-way.

    Comments go first, then long lists keep their first items plus a count, then the
    deepest levels collapse to a count of what they held; the result is always whole,
    parseable YAML, or empty when not even the top-level keys fit.
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
    while keep >= 2:
        summary = _dump(_shorten(data, keep))
        if len(summary) <= budget:
            return summary
        keep //= 2
    for depth in range(4, 0, -1):
        summary = _dump(_shorten(data, 2, depth))
        if len(summary) <= budget:
            return summary
    return ""


def _without_comments(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))


def _shorten(node: Any, keep: int, depth: int = 64) -> Any:
    if isinstance(node, Mapping | list) and depth <= 0:
        return f"... {len(node)} {'keys' if isinstance(node, Mapping) else 'items'}"
    if isinstance(node, Mapping):
        return {k: _shorten(v, keep, depth - 1) for k, v in node.items()}
    if isinstance(node, list):
        items = [_shorten(v, keep, depth - 1) for v in node[:keep]]
        if len(node) > keep:
            items.append(f"... {len(node) - keep} more")
        return items
    return node


def _dump(data: Any) -> str:
    import yaml

    return str(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100))
