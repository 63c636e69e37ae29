"""The one place that knows every chat backend; each is imported only when chosen.

Provider ``auto`` asks Ollama first (a quick probe of ``/api/tags``), then OpenAI when a key
or a compatible ``base_url`` is configured, and otherwise falls back to the builtin planner.
The caller always learns which provider was used and why.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from oic_ai.stores.errors import UserInputError
from oic_ai.stores.settings import Settings

PROBE_TIMEOUT_S = 0.5


class ChatBackendError(UserInputError):
    """The chat backend failed in a way the user can fix (down, bad key, bad model)."""


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

    Raises:
        UserInputError: the provider has no chat model (builtin) or is unknown.
    """
    if provider == "ollama":
        from langchain_ollama import ChatOllama

        return ChatOllama(
            model=settings.ollama_model,
            base_url=settings.ollama_base_url,
            temperature=0,
            num_predict=settings.max_tokens,
            client_kwargs={"timeout": settings.ollama_timeout},
        )
    if provider == "openai":
        from langchain_openai import ChatOpenAI
        from pydantic import SecretStr

        # compatible servers (llama.cpp, vLLM) may not check the key at all
        return ChatOpenAI(
            model=settings.openai_model,
            api_key=SecretStr(settings.openai_api_key or "not-needed"),
            base_url=settings.openai_base_url,
            timeout=settings.openai_timeout,
            max_retries=1,
            temperature=0,
            max_tokens=settings.max_tokens,  # type: ignore[call-arg]  # weak models can loop
            # compatible servers (llama.cpp) read the classic field, not max_completion_tokens
            extra_body={"max_tokens": settings.max_tokens} if settings.openai_base_url else None,
        )
    raise UserInputError(f"provider {provider!r} has no chat model", fix="use ollama or openai")


def structured_method(provider: str, settings: Settings) -> str:
    """How to ask ``provider`` for structured output.

    OpenAI itself and Ollama constrain output to a JSON schema. Compatible servers
    (``OPENAI_BASE_URL``: llama.cpp, vLLM, ...) often reject that response format, so they
    get plain JSON mode with the format described in the prompt.
    """
    if provider == "openai" and settings.openai_base_url:
        return "json_mode"
    return "json_schema"


def describe_backend_error(provider: str, settings: Settings, exc: BaseException) -> str:
    """One line naming what went wrong with the chat backend and how to fix it."""
    name = type(exc).__name__
    text = str(exc).splitlines()[0][:200] if str(exc) else name
    if settings.openai_api_key:
        text = text.replace(settings.openai_api_key, "***")
    if provider == "ollama":
        where = settings.ollama_base_url
        fix = (
            f"start Ollama (ollama serve) and pull {settings.ollama_model}, "
            "or use --provider builtin"
        )
    else:
        where = settings.openai_base_url or "the OpenAI API"
        fix = "check OPENAI_API_KEY / OPENAI_BASE_URL and the model name, or use --provider builtin"
    return f"{provider} chat model failed at {where} ({name}: {text}); {fix}"
