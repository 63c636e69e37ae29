"""Choose the chat backend of a turn: the injected model, the configured provider or builtin.

``generate`` and ``fix`` share one :class:`ChatBackend`, built with the graph, so a model
injected through the Python API (or a test) plans and fixes alike.
"""

from __future__ import annotations

from typing import Any

from oic_ai.stores.chat_models import (
    ChatBackendError,
    ChatBackendUnavailable,
    describe_backend_error,
    is_retryable,
    make_chat_model,
    resolve_provider,
)
from oic_ai.stores.settings import Settings

INJECTED = "chat-model"


class ChatBackend:
    """Picks the provider and chat model of a turn, and decides what a failure means.

    Args:
        chat_model: A chat model to use instead of the configured provider (the Python
            API and tests pass one; ``langgraph dev`` never does).
    """

    def __init__(self, chat_model: Any = None) -> None:
        """Keep the injected model, if any."""
        self.chat_model = chat_model

    def provider(self, settings: Settings, kept: str | None = None) -> tuple[str, list[str]]:
        """The provider for this turn, plus notices.

        Args:
            settings: The run's settings.
            kept: A provider chosen earlier in the turn, used again when given.
        """
        if self.chat_model is not None:
            return INJECTED, []
        if kept:
            return kept, []
        choice = resolve_provider(settings)
        return choice.provider, list(choice.notices)

    def model(self, provider: str, settings: Settings) -> Any:
        """The chat model for ``provider`` (None for builtin)."""
        if provider == INJECTED:
            return self.chat_model
        if provider == "builtin":
            return None
        return make_chat_model(provider, settings)

    def backend_failed(
        self, provider: str, settings: Settings, exc: BaseException, notices: list[str]
    ) -> None:
        """Fall back to builtin under ``auto`` (with a notice), or stop with one clear line."""
        line = describe_backend_error(provider, settings, exc)
        if settings.provider == "auto" or provider == INJECTED:
            notices.append(f"{line}; used the builtin planner instead")
            return
        if is_retryable(exc):
            raise ChatBackendUnavailable(line) from None
        raise ChatBackendError(line) from None
