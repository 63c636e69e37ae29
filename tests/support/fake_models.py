"""In-process fakes: a scripted chat model and a hash embedder. No network, no weights."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.runnables import RunnableLambda
from pydantic import ValidationError


class ScriptedChatModel(GenericFakeChatModel):
    """``GenericFakeChatModel`` plus ``bind_tools`` and ``with_structured_output``.

    Each call consumes the next scripted answer; a structured call parses it into the schema
    the way the real integrations do (``include_raw`` gives raw, parsed and parsing_error).
    Every prompt it was given is kept in ``prompts``.
    """

    prompts: list[list[BaseMessage]] = []

    @classmethod
    def answering(cls, answers: Sequence[str | dict[str, Any] | Exception]) -> ScriptedChatModel:
        """A model that gives these answers, in order (dicts are sent as JSON text)."""

        def script() -> Iterator[AIMessage]:
            for answer in answers:
                if isinstance(answer, Exception):
                    raise answer
                text = json.dumps(answer) if isinstance(answer, dict) else answer
                yield AIMessage(content=text)

        return cls(messages=script(), prompts=[])

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.prompts.append(list(messages))
        return super()._generate(messages, *args, **kwargs)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChatModel:
        """Tools are ignored: the script already says what to answer."""
        return self

    def with_structured_output(  # type: ignore[override]
        self, schema: Any, *, include_raw: bool = False, **kwargs: Any
    ) -> Any:
        """Parse the next answer into ``schema``."""

        def parse(prompt: Any) -> Any:
            raw = self.invoke(prompt)
            try:
                parsed = schema.model_validate_json(str(raw.content))
                error = None
            except (ValidationError, ValueError) as exc:
                if not include_raw:
                    raise
                parsed, error = None, exc
            if include_raw:
                return {"raw": raw, "parsed": parsed, "parsing_error": error}
            return parsed

        return RunnableLambda(parse)


class HashEmbedder:
    """A fast deterministic embedder for index bookkeeping tests (not for ranking)."""

    def __init__(self, dimensions: int = 16, name: str = "hash") -> None:
        self._dimensions = dimensions
        self._name = name
        self.calls: list[int] = []

    @property
    def model_id(self) -> str:
        return f"{self._name}-{self._dimensions}"

    @property
    def dimensions(self) -> int:
        return self._dimensions

    def _vector(self, text: str) -> list[float]:
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")
        v = np.random.default_rng(seed).standard_normal(self._dimensions)
        return list((v / np.linalg.norm(v)).astype(float))

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(len(texts))
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)
