"""The turn's request and the conversation before it, read from the messages in state."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def message_text(message: Any) -> str:
    """The text of a LangChain message (or a plain dict message)."""
    content = message.get("content") if isinstance(message, dict) else message.content
    if isinstance(content, list):
        return "".join(p.get("text", "") if isinstance(p, dict) else str(p) for p in content)
    return str(content or "")


def _is_human(message: Any) -> bool:
    kind = message.get("role") if isinstance(message, dict) else message.type
    return kind in ("human", "user")


def last_request(messages: Sequence[Any]) -> str:
    """The last human message's text: this turn's request."""
    for message in reversed(messages):
        if _is_human(message):
            return message_text(message).strip()
    return ""


def earlier_requests(messages: Sequence[Any], limit: int) -> list[str]:
    """Human requests before the last one, oldest first, at most ``limit`` (``max_history``)."""
    earlier = [message_text(m) for m in messages if _is_human(m)][:-1]
    return earlier[-limit:] if limit > 0 else []
