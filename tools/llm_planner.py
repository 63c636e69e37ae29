"""LLM planners: an edit plan through structured output, or a whole template (yaml mode).

Plan mode asks each server for the plan in the way it accepts (see
:func:`oic_ai.stores.chat_models.structured_method`): the strict wire schema of
:mod:`oic_ai.tools.plan_schema` as ``response_format`` or Ollama ``format``, JSON mode with
the schema in the prompt, or a forced tool call. Replies are parsed leniently
(:mod:`oic_ai.tools.llm_parse`); an unusable one is retried once with the reason before the
caller falls back. In the ADR's ``yaml`` mode the model writes the whole template from the
best sources. Nothing here trusts the model: everything goes through validate and fix.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict, Unpack

from oic_ai.stores.chat_models import StructuredOutput, rejects_response_format
from oic_ai.stores.secrets import mask_data, mask_secrets
from oic_ai.tools.edit_plan import EditPlan
from oic_ai.tools.llm_parse import ParsedPlan, parse_plan
from oic_ai.tools.llm_prompt import (
    model_budget,
    plan_human,
    plan_system,
    summarise_source,
)
from oic_ai.tools.plan_schema import SCHEMA_NAME, plan_schema, plan_tool, response_format

YAML_SYSTEM = """You write OS image templates for os-image-composer as YAML.
Answer with the complete template only: one YAML document, no prose, no code fences.
Keep the structure of the SOURCES (image, target, disk, systemConfig). Use exact package
names of the target distribution. Never write a plaintext password."""

FIX_SYSTEM = """You repair OS image templates for os-image-composer.
Answer with the complete corrected template only: one YAML document, no prose, no code
fences. Fix exactly the listed errors and change nothing else."""

FIX_REQUEST = "fix the listed problems"
_ECHO_LIMIT = 1_500


class PlanError(Exception):
    """The model's answer was not a usable edit plan (the message names the cause)."""


@dataclass
class Reply:
    """The parts of a chat reply the parser needs."""

    text: str
    finish_reason: str | None = None
    refusal: str | None = None
    tool_args: Mapping[str, Any] | None = None


@dataclass
class PlanOutcome:
    """A plan turn in full, for callers that report more than the plan (the benchmark).

    Attributes:
        plan: The plan used.
        parsed: The parse of the reply that produced it.
        requests: Chat requests made (1, or 2 after a retry or a format fallback).
        method: The structured-output method that produced the plan.
        notes: Lenient readings, retries and fallbacks, in words.
    """

    plan: EditPlan
    parsed: ParsedPlan
    requests: int
    method: str
    notes: list[str] = field(default_factory=list)


def _content(message: Any) -> str:
    """The model's text, with configured secrets masked: it goes into state and output."""
    content = getattr(message, "content", message)
    if isinstance(content, list):
        parts = [p.get("text", "") if isinstance(p, Mapping) else str(p) for p in content]
        return mask_secrets("".join(parts))
    return mask_secrets(str(content))


def _reply(message: Any) -> Reply:
    meta = getattr(message, "response_metadata", None) or {}
    extra = getattr(message, "additional_kwargs", None) or {}
    finish = meta.get("finish_reason") or meta.get("done_reason")
    calls = getattr(message, "tool_calls", None) or []
    args = next((c.get("args") for c in calls if c.get("name") == SCHEMA_NAME), None)
    return Reply(
        text=_content(message),
        finish_reason=str(finish) if finish else None,
        refusal=mask_secrets(str(extra["refusal"])) if extra.get("refusal") else None,
        tool_args=mask_data(args) if isinstance(args, Mapping) else None,
    )


def _kind(model: Any) -> str:
    inner = getattr(model, "bound", model)  # a RunnableBinding (model.bind(...)) asks its model
    module = type(inner).__module__
    if module.startswith("langchain_openai"):
        return "openai"
    if module.startswith("langchain_ollama"):
        return "ollama"
    return "other"


def _bound(model: Any, method: str) -> Any:
    """``model`` bound to ask for a plan with ``method``."""
    kind = _kind(model)
    if kind == "other":
        return model  # a scripted or foreign model: the prompt says what to answer
    if method == "tools":
        choice: Any = {"type": "function", "function": {"name": SCHEMA_NAME}}
        if kind == "ollama":
            return model.bind(tools=[plan_tool()])
        return model.bind(tools=[plan_tool()], tool_choice=choice)
    if kind == "ollama":
        return model.bind(format=plan_schema() if method == "json_schema" else "json")
    if method == "json_schema":
        return model.bind(response_format=response_format())
    if getattr(model, "openai_api_base", None):
        # compatible servers (llama.cpp, llama-cpp-python, vLLM) constrain JSON mode to a
        # schema given beside it; hosted OpenAI would refuse the extra key
        return model.bind(response_format={"type": "json_object", "schema": plan_schema()})
    return model.bind(response_format={"type": "json_object"})


def _finish_error(exc: BaseException) -> Reply | None:
    """The reply inside the OpenAI SDK's finish-reason errors (cut off, content filter)."""
    name = type(exc).__name__
    if name == "LengthFinishReasonError":
        completion = getattr(exc, "completion", None)
        choices = getattr(completion, "choices", None) or []
        text = str(getattr(choices[0].message, "content", "") or "") if choices else ""
        return Reply(text=mask_secrets(text), finish_reason="length")
    if name == "ContentFilterFinishReasonError":
        return Reply(text="", refusal="the server's content filter stopped the reply")
    return None


def _messages(system: str, human: str) -> list[tuple[str, str]]:
    return [("system", system), ("human", human)]


class _Asker:
    """Sends plan requests with one structured-output method, falling back once on rejection."""

    def __init__(self, model: Any, output: StructuredOutput) -> None:
        self.model = model
        self.output = output
        self.method = output.method
        self.requests = 0
        self.notes: list[str] = []

    def ask(self, system: str, human: str, extra: Sequence[tuple[str, str]] = ()) -> Reply:
        messages = [*_messages(self._system(system), human), *extra]
        try:
            return self._send(messages)
        except Exception as exc:
            if not (
                self.output.fallback
                and self.method == "json_schema"
                and rejects_response_format(exc)
            ):
                raise
            status = getattr(exc, "status_code", "?")
            self.method = "json_mode"
            self.output.remember("json_mode")
            self.notes.append(
                f"the server rejected the json_schema response format (HTTP {status}); "
                "used JSON mode with the schema in the prompt, remembered for this server"
            )
            messages = [*_messages(self._system(system), human), *extra]
            return self._send(messages)

    def _system(self, system: str) -> str:
        if self.method == "json_mode" and _kind(self.model) != "other":
            return (
                system
                + "\n\nAnswer with one JSON object matching this JSON schema:\n"
                + (json.dumps(plan_schema()))
            )
        return system

    def _send(self, messages: list[tuple[str, str]]) -> Reply:
        self.requests += 1
        try:
            return _reply(_bound(self.model, self.method).invoke(messages))
        except Exception as exc:
            reply = _finish_error(exc)
            if reply is None:
                raise
            return reply


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
) -> PlanOutcome:
    """Ask a chat model for an edit plan; retry once with the reason before giving up.

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

    Raises:
        PlanError: no usable plan after one retry; the message names the cause.
        Exception: the backend failed (connection, HTTP status, timeout): the caller
            reports it with :func:`~oic_ai.stores.chat_models.describe_backend_error`.
    """
    output = method if isinstance(method, StructuredOutput) else StructuredOutput(method)
    asker = _Asker(model, output)
    system = plan_system(fix=fix)
    budget = model_budget(model, num_ctx) - len(system)
    human = plan_human(request, template_text, budget=budget, history=history, errors=errors)
    first = asker.ask(system, human)
    parsed = _parse(first, salvage=False)
    if parsed.problem is None and parsed.plan is not None:
        return PlanOutcome(parsed.plan, parsed, asker.requests, asker.method, asker.notes)
    retry = [
        ("ai", first.text[:_ECHO_LIMIT] or "(empty)"),
        ("human", _retry_instruction(parsed)),
    ]
    try:
        second = asker.ask(system, human, retry)
    except Exception as exc:  # the retry itself failed: report the first cause
        raise PlanError(f"{parsed.detail}; the retry failed ({type(exc).__name__})") from None
    again = _parse(second, salvage=True)
    if again.problem is not None or again.plan is None:
        raise PlanError(f"{again.detail} (also after one retry with the error)")
    notes = [*asker.notes, f"retried once after: {parsed.detail}"]
    plan = again.plan.model_copy(
        update={
            "warnings": [*again.plan.warnings, f"the model's first answer failed: {parsed.detail}"]
        }
    )
    return PlanOutcome(plan, again, asker.requests, asker.method, notes)


def _parse(reply: Reply, *, salvage: bool) -> ParsedPlan:
    return parse_plan(
        reply.text,
        finish_reason=reply.finish_reason,
        refusal=reply.refusal,
        tool_args=reply.tool_args,
        salvage=salvage,
    )


def _retry_instruction(parsed: ParsedPlan) -> str:
    text = f"That answer could not be used: {parsed.detail}."
    if parsed.dropped:
        text += " Problems: " + "; ".join(parsed.dropped[:5]) + "."
    if parsed.problem == "truncated":
        text += " Answer with a shorter plan: fewer operations, a one-line summary."
    return text + ' Answer again with only the JSON edit plan, each operation starting with "op".'


class PlanOptions(TypedDict, total=False):
    """The optional keyword arguments :func:`plan_with_model` passes on to :func:`plan_turn`."""

    history: Sequence[str]
    errors: Sequence[str]
    method: str | StructuredOutput
    num_ctx: int | None


def plan_with_model(
    model: Any, request: str, template_text: str, **options: Unpack[PlanOptions]
) -> EditPlan:
    """Ask a chat model for an :class:`EditPlan` (see :func:`plan_turn`).

    Raises:
        PlanError: the model gave no usable plan, also after one retry.
    """
    return plan_turn(model, request, template_text, **options).plan


def fix_plan(
    model: Any,
    request: str,
    draft: str,
    problems: Sequence[str],
    *,
    method: str | StructuredOutput = "json_schema",
    num_ctx: int | None = None,
) -> EditPlan:
    """The fix loop in plan mode: a plan that repairs ``problems``, never a new YAML.

    Args:
        model: A LangChain chat model.
        request: The turn's request (context for the model).
        draft: The draft to repair.
        problems: The validator's findings and missing packages with suggestions, one line
            each.
        method: As for :func:`plan_turn`.
        num_ctx: As for :func:`plan_turn`.

    Raises:
        PlanError: the model gave no usable plan, also after one retry.
    """
    history = [request] if request else []
    return plan_turn(
        model,
        FIX_REQUEST,
        draft,
        history=history,
        errors=problems,
        method=method,
        num_ctx=num_ctx,
        fix=True,
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
        budget: Characters of source text the prompt may carry in total (default: what
            the context window leaves after the reply, the system prompt and ``current``).
        num_ctx: The context window in tokens (default: the model's, else 8192).

    Returns:
        The YAML text of the answer, with code fences and prose stripped.
    """
    if budget is None:
        budget = model_budget(model, num_ctx) - len(YAML_SYSTEM) - len(current or "") - 400
        budget = max(budget, 1_000)
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
    """Ask a chat model to repair ``text`` given the validator's error lines (yaml mode)."""
    prompt = "ERRORS:\n" + "\n".join(f"- {e}" for e in errors) + f"\n\nTEMPLATE:\n{text}"
    answer = model.invoke([("system", FIX_SYSTEM), ("human", prompt)])
    return strip_to_yaml(_content(answer))


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
