"""What every embedding provider offers, and the error it raises when its backend fails."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from oic_ai.stores.errors import UserInputError


class EmbeddingBackendError(UserInputError):
    """The embedding backend is refusing (key, model) or answering nonsense (exit 2)."""


class EmbeddingBackendUnavailable(EmbeddingBackendError):
    """The embedding backend is down, timed out, or keeps failing: worth a retry (exit 3)."""

    exit_code = 3


@runtime_checkable
class Embedder(Protocol):
    """An embedding model: batched documents, single queries, a model id and a size."""

    @property
    def model_id(self) -> str:
        """A stable id for the model; it names the Chroma collection."""
        ...

    @property
    def dimensions(self) -> int:
        """The length of every vector this model returns."""
        ...

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed many texts at once."""
        ...

    def embed_query(self, text: str) -> list[float]:
        """Embed one search query."""
        ...
