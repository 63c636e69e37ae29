"""One plan request on the wire: the prompt within its budget, the format, the reply's parts.

:class:`PlanAsker` binds a chat model to ask for a plan with the server's structured-output
method (the strict schema as ``response_format`` or Ollama ``format``, JSON mode with the
schema in the prompt, or a forced tool call), falls back once from ``json_schema`` to JSON
mode when a compatible server refuses it, and budgets every prompt with everything that
goes into it: the system prompt, the schema pasted in for JSON mode, a retry's messages.
It can also ask again with a larger reply budget, for a model that spent its budget
reasoning.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from oic_ai.stores.chat_models import StructuredOutput, rejects_response_format
from oic_ai.stores.secrets import mask_data, mask_secrets
from oic_ai.tools.llm_json import valid_text
from oic_ai.tools.llm_prompt import model_budget, plan_human, plan_system, reply_tokens
from oic_ai.tools.plan_schema import (
    SCHEMA_NAME,
    plan_schema,
    plan_schema_text,
    plan_tool,
    response_format,
)

SCHEMA_INTRO = "Answer with one JSON object matching this JSON schema:\n"


@dataclass
class Reply:
    """The parts of a chat reply the parser needs."""

    text: str
    finish_reason: str | None = None
    refusal: str | None = None
    tool_args: Mapping[str, Any] | None = None
    reasoning_tokens: int = 0


@dataclass(frozen=True)
class PlanPrompt:
    """What a plan request says, before it is fitted to a budget."""

    request: str
    template_text: str
    history: Sequence[str] = ()
    errors: Sequence[str] = ()
    fix: bool = False
    num_ctx: int | None = None


def text_of(message: Any, *, valid: bool = True) -> str:
    """The model's text with configured secrets masked (it goes into state).

    Args:
        message: A chat message (or its content).
        valid: Replace invalid characters (lone surrogates); the plan parser does that
            itself, to say how many it replaced.
    """
    content = getattr(message, "content", message)
    if isinstance(content, list):
        parts = [p.get("text", "") if isinstance(p, Mapping) else str(p) for p in content]
        content = "".join(parts)
    text = valid_text(str(content))[0] if valid else str(content)
    return mask_secrets(text)


def _reasoning_tokens(message: Any) -> int:
    usage = getattr(message, "usage_metadata", None) or {}
    details = usage.get("output_token_details") or {}
    value = details.get("reasoning") or 0
    if not value:  # Ollama's thinking, when the client kept it
        thinking = (getattr(message, "additional_kwargs", None) or {}).get("reasoning_content")
        value = len(str(thinking)) // 4 if thinking else 0
    return int(value)


def reply_of(message: Any) -> Reply:
    """The parts of a LangChain chat message the parser needs."""
    meta = getattr(message, "response_metadata", None) or {}
    extra = getattr(message, "additional_kwargs", None) or {}
    finish = meta.get("finish_reason") or meta.get("done_reason")
    calls = getattr(message, "tool_calls", None) or []
    args = next((c.get("args") for c in calls if c.get("name") == SCHEMA_NAME), None)
    return Reply(
        text=text_of(message, valid=False),
        finish_reason=str(finish) if finish else None,
        refusal=mask_secrets(str(extra["refusal"])) if extra.get("refusal") else None,
        tool_args=mask_data(args) if isinstance(args, Mapping) else None,
        reasoning_tokens=_reasoning_tokens(message),
    )


def model_kind(model: Any) -> str:
    """``openai``, ``ollama`` or ``other`` (a scripted or foreign model)."""
    inner = getattr(model, "bound", model)  # a RunnableBinding (model.bind(...)) asks its model
    modules = [cls.__module__ for cls in type(inner).__mro__]  # our subclasses count too
    if any(m.startswith("langchain_openai") for m in modules):
        return "openai"
    if any(m.startswith("langchain_ollama") for m in modules):
        return "ollama"
    return "other"


def bound(model: Any, method: str) -> Any:
    """``model`` bound to ask for a plan with ``method``."""
    kind = model_kind(model)
    if kind == "other":
        return model  # a scripted or foreign model: the prompt says what to answer
    if method == "tools":
        choice: Any = {"type": "function", "function": {"name": SCHEMA_NAME}}
        if kind == "ollama":
            return model.bind(tools=[plan_tool()])
        return model.bind(tools=[plan_tool()], tool_choice=choice)
    if kind == "ollama":  # Ollama compiles the schema and never shows it to the model
        schema = plan_schema(described=False)
        return model.bind(format=schema if method == "json_schema" else "json")
    if method == "json_schema":
        return model.bind(response_format=response_format())
    if getattr(model, "openai_api_base", None):
        # compatible servers (llama.cpp, llama-cpp-python, vLLM) constrain JSON mode to a
        # schema given beside it; hosted OpenAI would refuse the extra key
        schema = plan_schema(described=False)
        return model.bind(response_format={"type": "json_object", "schema": schema})
    return model.bind(response_format={"type": "json_object"})


def with_reply_tokens(model: Any, tokens: int) -> Any:
    """A copy of ``model`` that may answer with ``tokens`` tokens (Ollama: a wider window)."""
    inner = getattr(model, "bound", None)
    if inner is not None and hasattr(model, "kwargs"):  # a RunnableBinding
        return model.model_copy(update={"bound": with_reply_tokens(inner, tokens)})
    kind = model_kind(model)
    if kind == "openai":
        return model.model_copy(update={"max_tokens": tokens})
    if kind == "ollama":
        grown = tokens - (getattr(model, "num_predict", None) or 0)
        window = (getattr(model, "num_ctx", None) or 0) + max(0, grown)
        return model.model_copy(update={"num_predict": tokens, "num_ctx": window or None})
    return model


def _finish_error(exc: BaseException) -> Reply | None:
    """The reply inside the OpenAI SDK's finish-reason errors (cut off, content filter)."""
    name = type(exc).__name__
    if name == "LengthFinishReasonError":
        completion = getattr(exc, "completion", None)
        choices = getattr(completion, "choices", None) or []
        text = str(getattr(choices[0].message, "content", "") or "") if choices else ""
        usage = getattr(completion, "usage", None)
        details = getattr(usage, "completion_tokens_details", None)
        reasoning = int(getattr(details, "reasoning_tokens", 0) or 0)
        return Reply(
            text=text_of(text, valid=False), finish_reason="length", reasoning_tokens=reasoning
        )
    if name == "ContentFilterFinishReasonError":
        return Reply(text="", refusal="the server's content filter stopped the reply")
    return None


@dataclass
class PlanAsker:
    """Sends plan requests with one structured-output method, falling back once on rejection.

    Attributes:
        model: The chat model (replaced by a copy with a larger budget by :meth:`grow`).
        output: The server's structured-output choice.
        prompt: What every request says.
        method: The method in use.
        requests: Requests sent so far.
        notes: Fallbacks and retries, in words.
    """

    model: Any
    output: StructuredOutput
    prompt: PlanPrompt
    method: str = ""
    requests: int = 0
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Start with the server's method."""
        self.method = self.method or self.output.method

    def system(self) -> str:
        """The system prompt for the method in use (JSON mode carries the schema)."""
        system = plan_system(fix=self.prompt.fix)
        if self.method == "json_mode" and model_kind(self.model) != "other":
            return f"{system}\n\n{SCHEMA_INTRO}{plan_schema_text()}"
        return system

    def messages(self, extra: Sequence[tuple[str, str]] = ()) -> list[tuple[str, str]]:
        """The request's messages, the template trimmed so that all of them fit the budget."""
        system = self.system()
        used = len(system) + sum(len(text) for _, text in extra)
        budget = model_budget(self.model, self.prompt.num_ctx) - used
        human = plan_human(
            self.prompt.request,
            self.prompt.template_text,
            budget=budget,
            history=self.prompt.history,
            errors=self.prompt.errors,
        )
        return [("system", system), ("human", human), *extra]

    def ask(self, extra: Sequence[tuple[str, str]] = ()) -> Reply:
        """Send one request (and, when the server refuses ``json_schema``, one in JSON mode)."""
        try:
            return self._send(self.messages(extra))
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
            return self._send(self.messages(extra))

    def grow(self) -> int:
        """Double the reply budget for the next request; returns the new budget in tokens."""
        tokens = 2 * (reply_tokens(self.model) or 3072)
        self.model = with_reply_tokens(self.model, tokens)
        return tokens

    def learned(self) -> list[str]:
        """What the client learned or retried on the wire (refused parameters, busy server)."""
        inner = getattr(self.model, "bound", self.model)
        found = [*getattr(inner, "learned", []), *getattr(inner, "retried", [])]
        return [str(line) for line in found]

    def _send(self, messages: list[tuple[str, str]]) -> Reply:
        self.requests += 1
        try:
            return reply_of(bound(self.model, self.method).invoke(messages))
        except Exception as exc:
            reply = _finish_error(exc)
            if reply is None:
                raise
            return reply
