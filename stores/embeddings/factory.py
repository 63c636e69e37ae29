"""The one place that knows every embedding backend; each is imported only when chosen."""

from __future__ import annotations

from oic_ai.stores.embeddings.base import Embedder
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.settings import Settings


def make_embedder(settings: Settings) -> Embedder:
    """Return the embedder that ``settings.embedding_provider`` names.

    Raises:
        UserInputError: the provider is unknown or cannot be set up (e.g. no API key).
    """
    provider = settings.embedding_provider
    if provider == "local":
        from oic_ai.stores.embeddings.minilm import shared_embedder
        from oic_ai.stores.embeddings.weights import verification_cache

        return shared_embedder(verification_cache())
    if provider == "ollama":
        from oic_ai.stores.embeddings.remote import OllamaEmbedder

        return OllamaEmbedder(
            model=settings.ollama_embedding_model,
            base_url=settings.ollama_base_url,
            timeout=settings.ollama_timeout,
        )
    if provider == "openai":
        from oic_ai.stores.embeddings.remote import OpenAIEmbedder

        return OpenAIEmbedder(
            model=settings.openai_embedding_model,
            api_key=settings.openai_api_key,
            base_url=settings.openai_base_url,
            timeout=settings.openai_timeout,
        )
    raise UserInputError(
        f"unknown embedding provider {provider!r}", fix="use one of local, ollama, openai"
    )
