"""The one place that knows every chat backend; each is imported only when chosen.

Provider ``auto`` asks Ollama first (a quick probe of ``/api/tags``), then OpenAI when a key
or a compatible ``base_url`` is configured, and otherwise falls back to the builtin planner.
The caller always learns which provider was used and why.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oic_ai.stores.chat_params import (
    ParamMemory,
    is_hosted_openai,
    openai_rules,
    refused_parameter,
    server_key,
)
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.secrets import mask_secrets
from oic_ai.stores.settings import STRUCTURED_OUTPUT_METHODS, Settings

PROBE_TIMEOUT_S = 0.5
DEFAULT_NUM_CTX = 8192  # Ollama's own default (2-4k tokens) silently cuts plan prompts
METHODS = STRUCTURED_OUTPUT_METHODS
_MEMORY_FILE = "structured_output.json"
_REJECTION = re.compile(r"response_format|json_schema|json_object|schema|grammar|format", re.I)


class ChatBackendError(UserInputError):
    """The chat backend failed in a way the user can fix (bad key, unknown model, schema)."""


class ChatBackendUnavailable(ChatBackendError):
    """The chat backend is down, timed out, or keeps failing: worth a retry (exit 3)."""

    exit_code = 3


def is_retryable(exc: BaseException) -> bool:
    """True for failures a retry may cure: unreachable, timeout, 429 or a 5xx answer."""
    status = http_status(exc)
    return is_timeout(exc) or is_unreachable(exc) or status == 429 or (status or 0) >= 500


@dataclass(frozen=True)
class ProviderChoice:
    """Which planner runs this turn, and the notices explaining a fallback."""

    provider: str
    notices: list[str] = field(default_factory=list)


def ollama_answers(base_url: str, timeout: float = PROBE_TIMEOUT_S) -> bool:
    """True when an Ollama server answers ``GET /api/tags`` at ``base_url``."""
    try:
        with urllib.request.urlopen(f"{base_url.rstrip('/')}/api/tags", timeout=timeout) as reply:
            json.loads(reply.read(1_000_000) or b"{}")
            return bool(reply.status == 200)
    except (OSError, ValueError, urllib.error.URLError):
        return False


def resolve_provider(settings: Settings, requested: str | None = None) -> ProviderChoice:
    """Pick the planner for a turn.

    Args:
        settings: Resolved settings.
        requested: Overrides ``settings.provider`` when given.

    Raises:
        UserInputError: an explicitly requested provider cannot work (OpenAI without a key
            or base URL). An unreachable Ollama is reported when the model is first called.
    """
    provider = requested or settings.provider
    if provider == "builtin":
        return ProviderChoice("builtin")
    if provider == "ollama":
        return ProviderChoice("ollama")
    if provider == "openai":
        if not settings.openai_api_key and not settings.openai_base_url:
            raise UserInputError(
                "provider openai needs OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server)",
                fix="export OPENAI_API_KEY=... or use --provider builtin",
            )
        return ProviderChoice("openai")
    if provider != "auto":
        raise UserInputError(
            f"unknown provider {provider!r}", fix="use one of auto, builtin, ollama, openai"
        )
    if ollama_answers(settings.ollama_base_url):
        return ProviderChoice("ollama")
    if settings.openai_api_key or settings.openai_base_url:
        return ProviderChoice("openai")
    return ProviderChoice(
        "builtin",
        [
            f"provider auto: Ollama is not answering at {settings.ollama_base_url} and no "
            "OpenAI key is set, so the builtin planner was used"
        ],
    )


def make_chat_model(provider: str, settings: Settings) -> Any:
    """Build the LangChain chat model for ``provider`` (``ollama`` or ``openai``).

    OpenAI-style servers get only the parameters their model takes (see
    :func:`~oic_ai.stores.chat_params.openai_rules`); Ollama gets ``think``
    (``ai.ollama.think``, default false) so a thinking model answers instead of spending
    the reply budget thinking.

    Raises:
        UserInputError: the provider has no chat model (builtin) or is unknown.
    """
    if provider == "ollama":
        from oic_ai.stores.chat_clients import RetryingChatOllama

        return RetryingChatOllama(
            model=settings.ollama_model,
            base_url=settings.ollama_base_url,
            temperature=0,
            num_predict=settings.max_tokens,
            num_ctx=num_ctx(settings),
            reasoning=think(settings),
            client_kwargs={"timeout": settings.ollama_timeout},
        )
    if provider == "openai":
        from pydantic import SecretStr

        from oic_ai.stores.chat_clients import RuledChatOpenAI

        rules = openai_rules(settings)
        # compatible servers (llama.cpp, vLLM) may not check the key at all
        return RuledChatOpenAI(
            model=settings.openai_model,
            api_key=SecretStr(settings.openai_api_key or "not-needed"),
            base_url=settings.openai_base_url,
            timeout=settings.openai_timeout,
            max_retries=1,
            temperature=rules.temperature,
            max_tokens=settings.max_tokens,  # type: ignore[call-arg]  # weak models can loop
            reasoning_effort=rules.reasoning_effort,
            use_responses_api=False,  # compatible servers have only chat completions
            token_field=rules.token_field,
            refused=sorted(rules.refused),
            server=server_key(settings),
            memory_file=str(ParamMemory.for_settings(settings).path),
        )
    raise UserInputError(f"provider {provider!r} has no chat model", fix="use ollama or openai")


def think(settings: Settings) -> bool | str | None:
    """Ollama's ``think`` value from ``ai.ollama.think`` (None: send none)."""
    value = settings.ollama_think
    if value is None:
        return None
    value = value.lower()
    return value == "true" if value in ("true", "false") else value


def num_ctx(settings: Settings) -> int:
    """The context window to ask Ollama for (``ai.ollama.num_ctx``, default 8192)."""
    value = getattr(settings, "ollama_num_ctx", None)
    return int(value) if isinstance(value, int) and value > 0 else DEFAULT_NUM_CTX


@dataclass(frozen=True)
class StructuredOutput:
    """How to ask one server for a plan, and where its choice is remembered.

    Attributes:
        method: ``json_schema`` (the server constrains output to the plan schema; for
            Ollama that is ``format``), ``json_mode`` (any JSON; the schema goes into the
            prompt) or ``tools`` (the plan as a forced function call).
        fallback: Retry once with ``json_mode`` when the server rejects ``json_schema``
            (``base_url`` servers under ``auto``).
        server: The server the choice is remembered for ("" for none).
        memory: The file remembering choices per server (None: do not remember).
    """

    method: str
    fallback: bool = False
    server: str = ""
    memory: Path | None = None

    def remember(self, method: str) -> None:
        """Remember that ``server`` needs ``method`` (best effort: a read-only folder is fine)."""
        if self.memory is None or not self.server:
            return
        choices = _read_memory(self.memory)
        choices[self.server] = method
        try:
            self.memory.parent.mkdir(parents=True, exist_ok=True)
            self.memory.write_text(json.dumps(choices, indent=1, sort_keys=True), "utf-8")
        except OSError:
            pass


def _read_memory(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): str(v) for k, v in data.items() if v in METHODS}


def _forced(provider: str, settings: Settings) -> str:
    value = str(getattr(settings, f"{provider}_structured_output", None) or "auto")
    if value not in METHODS:
        raise UserInputError(
            f"unknown structured_output {value!r} for {provider}",
            fix=f"use one of {', '.join(METHODS)}",
        )
    return value


def structured_method(provider: str, settings: Settings) -> StructuredOutput:
    """How to ask ``provider`` for a structured plan.

    Hosted OpenAI gets strict ``json_schema`` and Ollama its ``format`` (both
    ``json_schema``). A ``base_url`` server gets ``json_schema`` first; when it rejects the
    response format the planner retries once with ``json_mode`` and remembers that choice
    for the server in the data folder. ``ai.<provider>.structured_output`` forces a method.
    """
    forced = _forced(provider, settings) if provider in ("openai", "ollama") else "auto"
    if forced != "auto":
        return StructuredOutput(forced)
    if provider != "openai" or is_hosted_openai(settings):
        return StructuredOutput("json_schema")
    server = str(settings.openai_base_url).rstrip("/")
    memory = Path(settings.data_dir) / _MEMORY_FILE
    remembered = _read_memory(memory).get(server)
    if remembered and remembered != "auto":
        return StructuredOutput(remembered, server=server, memory=memory)
    return StructuredOutput("json_schema", fallback=True, server=server, memory=memory)


def http_status(exc: BaseException) -> int | None:
    """The HTTP status of a failed chat request, when the error carries one."""
    for name in ("status_code", "status"):
        value = getattr(exc, name, None)
        if isinstance(value, int) and 100 <= value < 600:
            return value
    response = getattr(exc, "response", None)
    value = getattr(response, "status_code", None)
    return value if isinstance(value, int) else None


def rejects_response_format(exc: BaseException) -> bool:
    """True when the server refused the structured-output request itself (not the model)."""
    status = http_status(exc)
    if status not in (400, 415, 422, 500, 501):
        return False
    return bool(_REJECTION.search(_error_text(exc)))


def _error_text(exc: BaseException) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if message:
            return str(message)
    return str(getattr(exc, "error", "") or getattr(exc, "message", "") or exc)


def is_timeout(exc: BaseException) -> bool:
    """True for a read/connect timeout of the chat request."""
    names = {type(e).__name__ for e in _chain(exc)}
    return bool(
        names
        & {
            "APITimeoutError",
            "ReadTimeout",
            "ConnectTimeout",
            "TimeoutException",
            "WriteTimeout",
            "PoolTimeout",
            "TimeoutError",
        }
    )


def is_unreachable(exc: BaseException) -> bool:
    """True when nothing answered at the server's address."""
    names = {type(e).__name__ for e in _chain(exc)}
    return bool(names & {"APIConnectionError", "ConnectError", "ConnectionRefusedError"})


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen and len(seen) < 8:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def describe_backend_error(provider: str, settings: Settings, exc: BaseException) -> str:
    """One line naming what went wrong with the chat backend (the real cause) and the fix."""
    name = type(exc).__name__
    text = _error_text(exc).splitlines()[0][:200] if str(exc) else name
    text = mask_secrets(text, [settings.openai_api_key])
    status = http_status(exc)
    if provider == "ollama":
        where = settings.ollama_base_url
        model = settings.ollama_model
        timeout = settings.ollama_timeout
    else:
        where = settings.openai_base_url or "the OpenAI API"
        model = settings.openai_model
        timeout = settings.openai_timeout
    if rejects_response_format(exc):
        cause = f"the server rejected the plan schema (HTTP {status}: {text})"
        fix = f"set ai.{provider}.structured_output: json_mode, or use --provider builtin"
    elif is_timeout(exc):
        cause = f"timed out after {timeout:g}s ({name})"
        fix = f"raise ai.{provider}.timeout or use a smaller model, or use --provider builtin"
    elif status in (401, 403):
        cause = f"HTTP {status}, the key was refused ({text})"
        fix = "check OPENAI_API_KEY, or use --provider builtin"
    elif status == 404:
        cause = f"HTTP 404, model {model!r} not found ({text})"
        fix = (
            f"ollama pull {model}" if provider == "ollama" else "check the model name"
        ) + ", or use --provider builtin"
    elif refused_parameter(exc):
        param = refused_parameter(exc)
        cause = f"HTTP {status}, the server refused {param} for model {model} ({text})"
        fix = (
            f"set ai.{provider}.{param}: null"
            if param in ("temperature", "reasoning_effort")
            else "check the model name and the server"
        ) + ", or use --provider builtin"
    elif status is not None and 400 <= status < 500 and status not in (408, 409, 429):
        cause = f"HTTP {status}, the server refused the request ({name}: {text})"
        fix = f"check ai.{provider}.* and the model name, or use --provider builtin"
    elif status is not None:
        cause = f"HTTP {status} ({name}: {text})"
        fix = "try again later, or use --provider builtin"
    elif provider == "ollama" and is_unreachable(exc):
        cause = f"not reachable ({name}: {text})"
        fix = f"start Ollama (ollama serve) and pull {model}, or use --provider builtin"
    elif provider == "ollama":
        cause = f"{name}: {text}"
        fix = f"check the Ollama server and {model}, or use --provider builtin"
    else:
        cause = f"{name}: {text}"
        fix = "check OPENAI_API_KEY / OPENAI_BASE_URL and the model name, or use --provider builtin"
    return f"{provider} chat model failed at {where} ({cause}); {fix}"
