"""LLM planners: an edit plan through structured output, or a whole template (yaml mode).

Plan mode asks each server for the plan in the way it accepts (see
:func:`oic_ai.stores.chat_models.structured_method` and :mod:`oic_ai.tools.llm_asker`).
Replies are parsed leniently (:mod:`oic_ai.tools.llm_parse`), and an unusable one gets one
retry that fits its cause: a reply whose budget went to reasoning is asked again with a
larger budget, a plan cut off after some complete operations is asked for the rest, and
any other is asked again with the reason. Then the caller falls back, naming the real
cause. In the ADR's ``yaml`` mode the model writes the whole template from the best
sources. Nothing here trusts the model: everything goes through validate and fix.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict, Unpack

from oic_ai.stores.chat_models import StructuredOutput
from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.llm_asker import PlanAsker, PlanPrompt, Reply, text_of
from oic_ai.tools.llm_parse import (
    MAX_OPERATIONS,
    REASONING,
    TRUNCATED,
    ParsedPlan,
    parse_plan,
)
from oic_ai.tools.llm_prompt import model_budget, summarise_source

YAML_SYSTEM = """You write OS image templates for os-image-composer as YAML.
Answer with the complete template only: one YAML document, no prose, no code fences.
Keep the structure of the SOURCES (image, target, disk, systemConfig). Use exact package
names of the target distribution. Never write a plaintext password."""

FIX_SYSTEM = """You repair OS image templates for os-image-composer.
Answer with the complete corrected template only: one YAML document, no prose, no code
fences. Fix exactly the listed errors and change nothing else."""

FIX_REQUEST = "fix the listed problems"
REASONING_FIX = (
    "lower ai.openai.reasoning_effort, keep ai.ollama.think false, or raise "
    "ai.generation.max_tokens"
)
_ECHO_LIMIT = 1_500
_MIN_SOURCE = 400


class PlanError(Exception):
    """The model's answer was not a usable edit plan (the message names the cause)."""


@dataclass
class PlanOutcome:
    """A plan turn in full, for callers that report more than the plan (the benchmark).

    Attributes:
        plan: The plan used.
        parsed: The parse of the reply that produced it.
        requests: Chat requests made (1, or 2 after a retry or a format fallback).
        method: The structured-output method that produced the plan.
        notes: Lenient readings, retries and fallbacks, in words (shown as notices).
    """

    plan: EditPlan
    parsed: ParsedPlan
    requests: int
    method: str
    notes: list[str] = field(default_factory=list)


def plan_turn(
    model: Any,
    request: str,
    template_text: str,
    *,
    history: Sequence[str] = (),
    errors: Sequence[str] = (),
    method: str | StructuredOutput = "json_schema",
    num_ctx: int | None = None,
    fix: bool = False,
    max_operations: int = MAX_OPERATIONS,
) -> PlanOutcome:
    """Ask a chat model for an edit plan; retry once, as the failure asks, before giving up.

    Args:
        model: A LangChain chat model (ChatOpenAI, ChatOllama, or any other chat model).
        request: What the user asked for this turn.
        template_text: The template the plan applies to.
        history: Earlier requests of the session, oldest first (already capped).
        errors: Problems the plan must fix (the fix loop), if any.
        method: The structured-output method, or the server's
            :class:`~oic_ai.stores.chat_models.StructuredOutput` (with its fallback).
        num_ctx: The context window in tokens (default: the model's, else 8192).
        fix: The plan repairs ``errors`` (the fix loop's system prompt).
        max_operations: Operations applied at most; the rest are reported.

    Raises:
        PlanError: no usable plan after one retry; the message names the cause.
        Exception: the backend failed (connection, HTTP status, timeout): the caller
            reports it with :func:`~oic_ai.stores.chat_models.describe_backend_error`.
    """
    output = method if isinstance(method, StructuredOutput) else StructuredOutput(method)
    prompt = PlanPrompt(request, template_text, tuple(history), tuple(errors), fix, num_ctx)
    asker = PlanAsker(model, output, prompt)
    first = asker.ask()
    parsed = _parse(first, salvage=False, cap=max_operations)
    if parsed.problem is None and parsed.plan is not None:
        return _outcome(parsed.plan, parsed, asker, [])
    if parsed.problem == REASONING:
        return _retry_larger(asker, parsed, max_operations)
    if parsed.problem == TRUNCATED and parsed.partial:
        return _retry_rest(asker, first, parsed, max_operations)
    retry = [
        ("ai", text_of(first.text[:_ECHO_LIMIT]) or "(empty)"),
        ("human", _retry_instruction(parsed)),
    ]
    try:
        second = asker.ask(retry)
    except Exception as exc:  # the retry itself failed: report the first cause
        raise PlanError(f"{parsed.detail}; the retry failed ({type(exc).__name__})") from None
    again = _parse(second, salvage=True, cap=max_operations)
    if again.problem is not None or again.plan is None:
        raise PlanError(f"{again.detail} (also after one retry with the error)")
    plan = _warned(again.plan, f"the model's first answer failed: {parsed.detail}")
    return _outcome(plan, again, asker, [f"retried once after: {parsed.detail}"])


def _outcome(plan: EditPlan, parsed: ParsedPlan, asker: PlanAsker, notes: list[str]) -> PlanOutcome:
    shown = [n for n in parsed.notes if n in plan.warnings or n.startswith("read the first")]
    return PlanOutcome(
        plan,
        parsed,
        asker.requests,
        asker.method,
        [*asker.learned(), *asker.notes, *notes, *shown],
    )


def _warned(plan: EditPlan, warning: str) -> EditPlan:
    return plan.model_copy(update={"warnings": [*plan.warnings, warning]})


def _retry_larger(asker: PlanAsker, parsed: ParsedPlan, cap: int) -> PlanOutcome:
    """The reply budget went to reasoning: ask again, once, with twice the budget."""
    tokens = asker.grow()
    try:
        second = asker.ask()
    except Exception as exc:
        raise PlanError(f"{parsed.detail}; the retry failed ({type(exc).__name__})") from None
    again = _parse(second, salvage=True, cap=cap)
    if again.problem is not None or again.plan is None:
        detail = again.detail if again.problem != REASONING else parsed.detail
        raise PlanError(
            f"{detail} (also after one retry with a {tokens:,}-token budget); {REASONING_FIX}"
        )
    note = f"{parsed.detail}; retried once with a {tokens:,}-token reply budget"
    return _outcome(_warned(again.plan, note), again, asker, [note])


def _retry_rest(asker: PlanAsker, first: Reply, parsed: ParsedPlan, cap: int) -> PlanOutcome:
    """A plan cut off after some complete operations: keep them and ask for the rest."""
    kept = list(parsed.partial)
    done = json.dumps(
        [{"op": op.op, **op.model_dump(mode="json", exclude_defaults=True)} for op in kept]
    )
    ask = (
        f"Your plan was cut off at the token limit after {len(kept)} complete operation(s): "
        f"{done[:_ECHO_LIMIT]}. Answer with a JSON edit plan holding only the operations "
        'that come after those, each starting with "op"; keep it short.'
    )
    rest: ParsedPlan | None = None
    try:
        second = asker.ask([("ai", text_of(first.text[:_ECHO_LIMIT])), ("human", ask)])
        rest = _parse(second, salvage=True, cap=max(1, cap - len(kept)))
    except Exception:  # the retry failed: the complete operations still stand, reported
        rest = None
    operations = [*kept]
    not_applied = [f"not applied: {parsed.cut}"]
    notes = [f"the reply was cut off after {len(kept)} operation(s); asked once for the rest"]
    parsed_rest = rest if rest is not None and rest.plan is not None else None
    if parsed_rest is not None and parsed_rest.plan is not None:
        operations += [op for op in parsed_rest.plan.operations if op not in kept]
        not_applied = list(parsed_rest.plan.not_applied)
        notes.append(f"the retry gave {len(parsed_rest.plan.operations)} more operation(s)")
    plan = EditPlan(
        summary=f"the model's plan ({len(operations)} operation(s))",
        operations=operations[:cap],
        not_applied=not_applied,
        warnings=[f"the model's first answer was cut off: {parsed.cut}"],
    )
    return _outcome(plan, parsed_rest or parsed, asker, notes)


def _parse(reply: Reply, *, salvage: bool, cap: int) -> ParsedPlan:
    return parse_plan(
        reply.text,
        finish_reason=reply.finish_reason,
        refusal=reply.refusal,
        tool_args=reply.tool_args,
        salvage=salvage,
        max_operations=cap,
        reasoning_tokens=reply.reasoning_tokens,
    )


def _retry_instruction(parsed: ParsedPlan) -> str:
    text = f"That answer could not be used: {parsed.detail}."
    if parsed.dropped:
        text += " Problems: " + "; ".join(parsed.dropped[:5]) + "."
    if parsed.problem == TRUNCATED:
        text += " Answer with a shorter plan: fewer operations, a one-line summary."
    return text + ' Answer again with only the JSON edit plan, each operation starting with "op".'


class FixOptions(TypedDict, total=False):
    """The optional keyword arguments :func:`fix_plan` passes on to :func:`plan_turn`."""

    method: str | StructuredOutput
    num_ctx: int | None
    max_operations: int


class PlanOptions(FixOptions, total=False):
    """The optional keyword arguments :func:`plan_with_model` passes on to :func:`plan_turn`."""

    history: Sequence[str]
    errors: Sequence[str]


def plan_with_model(
    model: Any, request: str, template_text: str, **options: Unpack[PlanOptions]
) -> EditPlan:
    """Ask a chat model for an :class:`EditPlan` (see :func:`plan_turn`).

    Raises:
        PlanError: the model gave no usable plan, also after one retry.
    """
    return plan_turn(model, request, template_text, **options).plan


def fix_plan(
    model: Any, request: str, draft: str, problems: Sequence[str], **options: Unpack[FixOptions]
) -> EditPlan:
    """The fix loop in plan mode: a plan that repairs ``problems``, never a new YAML.

    Args:
        model: A LangChain chat model.
        request: The turn's request (context for the model).
        draft: The draft to repair.
        problems: The validator's findings and missing packages with suggestions, one line
            each.
        **options: ``method``, ``num_ctx`` and ``max_operations``, as for :func:`plan_turn`.

    Raises:
        PlanError: the model gave no usable plan, also after one retry.
    """
    history = [request] if request else []
    return plan_turn(
        model, FIX_REQUEST, draft, history=history, errors=problems, fix=True, **options
    ).plan


def extract_json(text: str) -> str:
    """Return the outermost JSON object in ``text`` (models wrap it in fences or prose)."""
    start = text.find("{")
    end = text.rfind("}")
    if start < 0 or end <= start:
        raise ValueError("no JSON object in the answer")
    return text[start : end + 1]


def write_template_with_model(
    model: Any,
    request: str,
    sources: Sequence[tuple[str, str]],
    *,
    current: str | None = None,
    budget: int | None = None,
    num_ctx: int | None = None,
) -> str:
    """Ask a chat model to write the whole template (the ADR's ``yaml`` mode).

    Args:
        model: A LangChain chat model.
        request: What the user asked for.
        sources: ``(name, yaml text)`` of the best-matching templates, best first (top 3).
        current: The session's current template when refining.
        budget: Characters the user message may carry in total (default: what the context
            window leaves after the reply and the system prompt). Sources are trimmed
            first (down to none); the current template only when no source fits, its
            comments before its content.
        num_ctx: The context window in tokens (default: the model's, else 8192).

    Returns:
        The YAML text of the answer, with code fences and prose stripped.
    """
    if budget is None:
        budget = model_budget(model, num_ctx) - len(YAML_SYSTEM)
    tail = f"REQUEST: {request}"
    room = budget - len(tail) - 2
    parts: list[str] = []
    top = list(sources)[:3]
    if current:
        head = "CURRENT TEMPLATE:\n"
        if len(head) + len(current) + 2 > room:
            top = []  # every source goes before the template is trimmed at all
        parts.append(head + summarise_source(current, max(0, room - len(head) - 2)))
        room -= len(parts[-1]) + 2
    while top and room // len(top) < _MIN_SOURCE:
        top = top[:-1]  # the weakest source goes first
    for name, text in top:
        head = f"SOURCE {name}:\n"
        summary = summarise_source(text, room // len(top) - len(head) - 2)
        if summary:
            parts.append(head + summary)
    parts.append(tail)
    answer = model.invoke([("system", YAML_SYSTEM), ("human", "\n\n".join(parts))])
    return strip_to_yaml(text_of(answer))


def fix_template_with_model(model: Any, text: str, errors: Sequence[str]) -> str:
    """Ask a chat model to repair ``text`` given the validator's error lines (yaml mode)."""
    prompt = "ERRORS:\n" + "\n".join(f"- {e}" for e in errors) + f"\n\nTEMPLATE:\n{text}"
    answer = model.invoke([("system", FIX_SYSTEM), ("human", prompt)])
    return strip_to_yaml(text_of(answer))


_FENCE = re.compile(r"```[ \t]*(?:ya?ml)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)
_TOP_KEY = re.compile(r"^(#|[A-Za-z_][\w-]*:(\s|$)|---\s*$)")


def strip_to_yaml(answer: str) -> str:
    """Strip ``<think>`` blocks, code fences and surrounding prose from a YAML answer.

    Takes the first fenced block if there is one; otherwise the lines from the first
    top-level key (or comment) up to the first unindented line that is not YAML.
    """
    from oic_ai.tools.llm_parse import strip_reasoning

    answer = strip_reasoning(answer)
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
