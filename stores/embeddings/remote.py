"""Ollama and OpenAI(-compatible) embeddings through LangChain, with clear failures.

Every failure of the backend (down, timeout, 4xx/5xx, garbage, wrong vector size)
becomes an :class:`EmbeddingBackendError` naming the server and the fix. Retries are
bounded by ``max_retries``.
"""

from __future__ import annotations

import math
from typing import Any

from oic_ai.stores.embeddings.base import EmbeddingBackendError, EmbeddingBackendUnavailable
from oic_ai.stores.secrets import mask_secrets

# Known sizes, so a wrong answer is caught on the first call instead of being stored.
KNOWN_DIMENSIONS = {
    "nomic-embed-text": 768,
    "mxbai-embed-large": 1024,
    "all-minilm": 384,
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}


class _RemoteEmbedder:
    provider = "remote"

    def __init__(self, model: str, dimensions: int | None, where: str, fix: str) -> None:
        self._model = model
        self._dimensions = dimensions or KNOWN_DIMENSIONS.get(model.split(":")[0])
        self._where = where
        self._fix = fix

    @property
    def model_id(self) -> str:
        return f"{self.provider}-{self._model}"

    @property
    def dimensions(self) -> int:
        if self._dimensions is None:  # unknown model: ask it once
            self._dimensions = len(self._call([["dimension probe"]], probe=True)[0])
        return self._dimensions

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        if not texts:
            return []
        return self._call([texts])

    def embed_query(self, text: str) -> list[float]:
        return self._call([[text]], query=True)[0]

    def _client(self) -> Any:
        raise NotImplementedError

    def _call(
        self, args: list[list[str]], *, query: bool = False, probe: bool = False
    ) -> list[list[float]]:
        client = self._client()
        try:
            if query:
                vectors: Any = [client.embed_query(args[0][0])]
            else:
                vectors = client.embed_documents(args[0])
        except EmbeddingBackendError:
            raise
        except Exception as exc:  # noqa: BLE001 - every client error becomes one clear line
            from oic_ai.stores.chat_models import is_retryable

            kind = EmbeddingBackendUnavailable if is_retryable(exc) else EmbeddingBackendError
            raise kind(self._describe(exc), fix=self._fix) from None
        return self._check(vectors, expected=len(args[0]), probe=probe)

    def _check(self, vectors: Any, *, expected: int, probe: bool) -> list[list[float]]:
        if not isinstance(vectors, list) or len(vectors) != expected:
            raise EmbeddingBackendError(
                f"{self._where} returned {len(vectors) if isinstance(vectors, list) else 'no'} "
                f"vectors for {expected} texts",
                fix="check the server and the model name",
            )
        out: list[list[float]] = []
        for vector in vectors:
            if not isinstance(vector, list) or not vector:
                raise EmbeddingBackendError(
                    f"{self._where} returned something that is not a vector",
                    fix="check the server and the model name",
                )
            if not probe and self._dimensions is not None and len(vector) != self._dimensions:
                raise EmbeddingBackendError(
                    f"{self._where} returned {len(vector)}-dimensional vectors for "
                    f"{self._model}, expected {self._dimensions}",
                    fix="check the embedding model name; nothing was written to the index",
                )
            floats = [float(x) for x in vector]
            if not all(math.isfinite(x) for x in floats):
                raise EmbeddingBackendError(
                    f"{self._where} returned a vector with NaN or infinite values",
                    fix="check the server",
                )
            out.append(floats)
        return out

    def _describe(self, exc: Exception) -> str:
        name = type(exc).__name__
        # mask before cutting, so a cut never leaves half a key behind
        full = mask_secrets(str(exc), [getattr(self, "_api_key", None)]).strip()
        text = full.splitlines()[0] if full else name
        lowered = f"{name} {text}".lower()
        if "timeout" in lowered or "timed out" in lowered:
            return f"{self._where} did not answer in time ({text})"
        if "disconnect" in lowered or "reset by peer" in lowered:
            return f"{self._where} dropped the connection ({text})"
        if "connect" in lowered or "refused" in lowered:
            return f"cannot reach {self._where} ({text})"
        status = getattr(exc, "status_code", None) or getattr(
            getattr(exc, "response", None), "status_code", None
        )
        if status:
            return f"{self._where} answered HTTP {status} ({text[:200]})"
        return f"{self._where} failed: {name}: {text[:200]}"


class OllamaEmbedder(_RemoteEmbedder):
    """Embeddings from an Ollama server (``OLLAMA_HOST``), default ``nomic-embed-text``."""

    provider = "ollama"

    def __init__(
        self,
        model: str = "nomic-embed-text",
        base_url: str = "http://localhost:11434",
        timeout: float = 120.0,
        dimensions: int | None = None,
    ) -> None:
        """Describe the server; nothing connects until the first embedding."""
        super().__init__(
            model,
            dimensions,
            where=f"Ollama at {base_url}",
            fix=f"start it with 'ollama serve' and 'ollama pull {model}', or set OLLAMA_HOST",
        )
        self._base_url = base_url
        self._timeout = timeout
        self._lc: Any = None

    def _client(self) -> Any:
        if self._lc is None:
            from langchain_ollama import OllamaEmbeddings

            self._lc = OllamaEmbeddings(
                model=self._model,
                base_url=self._base_url,
                client_kwargs={"timeout": self._timeout},
                sync_client_kwargs={"timeout": self._timeout},
            )
        return self._lc


class OpenAIEmbedder(_RemoteEmbedder):
    """Embeddings from OpenAI or an OpenAI-compatible server (``OPENAI_BASE_URL``)."""

    provider = "openai"

    def __init__(
        self,
        model: str = "text-embedding-3-small",
        api_key: str | None = None,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        dimensions: int | None = None,
    ) -> None:
        """Describe the server; the key is checked now, the network on first use."""
        where = f"the OpenAI API at {base_url}" if base_url else "the OpenAI API"
        super().__init__(
            model,
            dimensions,
            where=where,
            fix="check OPENAI_API_KEY, OPENAI_BASE_URL and the model",
        )
        if not api_key:
            raise EmbeddingBackendError(
                "the openai embedding provider needs an API key",
                fix="set OPENAI_API_KEY (any value for a local OpenAI-compatible server)",
            )
        self._api_key = api_key
        self._base_url = base_url
        self._timeout = timeout
        self._max_retries = max_retries
        self._lc: Any = None

    def __repr__(self) -> str:
        return f"OpenAIEmbedder(model={self._model!r}, base_url={self._base_url!r})"

    def _client(self) -> Any:
        if self._lc is None:
            from langchain_openai import OpenAIEmbeddings
            from pydantic import SecretStr

            self._lc = OpenAIEmbeddings(
                model=self._model,
                api_key=SecretStr(self._api_key),
                base_url=self._base_url,
                timeout=self._timeout,
                max_retries=self._max_retries,
                # tiktoken would fetch its vocabulary from the internet; send text as is
                check_embedding_ctx_length=False,
            )
        return self._lc
