"""What every node needs from a run: its settings and the turn's request."""

from __future__ import annotations

from collections.abc import Sequence
from contextvars import ContextVar
from typing import Any

from oic_ai.graph.context import Context
from oic_ai.stores.settings import Settings

_SETTINGS_CACHE: dict[tuple[Any, ...], Settings] = {}

# The Python API pins its fully resolved settings (timeouts, keys, weights: more than the
# context carries) for the runs it starts; runs from the API server resolve the context.
PINNED_SETTINGS: ContextVar[Settings | None] = ContextVar("oic_ai_settings", default=None)


def settings_of(runtime: Any) -> Settings:
    """Resolve a run's context into settings (cached per distinct context and environment)."""
    import os
    from dataclasses import astuple

    pinned = PINNED_SETTINGS.get()
    if pinned is not None:
        return pinned
    context = getattr(runtime, "context", None)
    if not isinstance(context, Context):
        context = Context(**context) if isinstance(context, dict) else Context()
    key = (
        astuple(context),
        os.environ.get("OIC_AI_CONFIG"),
        tuple(os.environ.get(k) for k in ("OIC_AI_PROVIDER", "OIC_AI_DATA_DIR", "OLLAMA_HOST")),
        bool(os.environ.get("OPENAI_API_KEY")),
    )
    cached = _SETTINGS_CACHE.get(key)
    if cached is None:
        cached = context.settings()
        if len(_SETTINGS_CACHE) > 64:
            _SETTINGS_CACHE.clear()
        _SETTINGS_CACHE[key] = cached
    return cached


def review_enabled(runtime: Any) -> bool:
    """True when the run asked to pause for review before responding."""
    context = getattr(runtime, "context", None)
    if isinstance(context, dict):
        return bool(context.get("review"))
    return bool(getattr(context, "review", False))


def message_text(message: Any) -> str:
    """The text of a LangChain message (or a plain dict message)."""
    content = message.get("content") if isinstance(message, dict) else message.content
    if isinstance(content, list):
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return str(content or "")


def last_request(messages: Sequence[Any]) -> str:
    """The last human message's text: this turn's request."""
    for message in reversed(messages):
        kind = message.get("role") if isinstance(message, dict) else message.type
        if kind in ("human", "user"):
            return message_text(message).strip()
    return ""


def earlier_requests(messages: Sequence[Any], limit: int) -> list[str]:
    """Human requests before the last one, oldest first, at most ``limit`` (``max_history``)."""
    texts = [
        message_text(m)
        for m in messages
        if (m.get("role") if isinstance(m, dict) else m.type) in ("human", "user")
    ]
    earlier = texts[:-1]
    return earlier[-limit:] if limit > 0 else []


def record(state: Any, key: str) -> dict[str, Any]:
    """A mapping field of state as a plain dict (empty when unset)."""
    value = state.get(key)
    return dict(value) if isinstance(value, dict) else {}
