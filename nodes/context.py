"""The run context: the settings a caller (CLI, API, Studio) may choose per run.

Every field defaults to ``None``, meaning "whatever ``config.yaml`` and the environment
say", so Studio's form can be left empty. Secrets are not here: API keys come from the
environment only and never enter state, checkpoints or the context form. The data folder
is not here either: it belongs to the process (``OIC_AI_DATA_DIR``), because the server's
checkpoints live there and a run must not record its session anywhere else.

Settings resolve at one point, :meth:`Context.settings`, once per context. A context made
by :meth:`Context.from_settings` (the Python API and the CLI) carries its caller's fully
resolved settings (timeouts, keys from the environment, weights: more than the form holds)
in a field that is neither a constructor argument nor part of the JSON schema.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from langgraph.runtime import Runtime
from pydantic.json_schema import SkipJsonSchema

from oic_ai.stores.settings import (
    EmbeddingProvider,
    GenerationMode,
    Provider,
    Settings,
    load_settings,
)


def _describe(text: str) -> Any:
    return field(default=None, metadata={"description": text})


@dataclass(kw_only=True)
class Context:
    """Per-run settings; ``None`` falls back to config.yaml, then env, then defaults."""

    provider: Provider | None = _describe(
        "Planner: auto (Ollama, else OpenAI if a key is set, else builtin), builtin, "
        "ollama or openai."
    )
    generation_mode: GenerationMode | None = _describe(
        "plan: the model returns an edit plan (default); yaml: it writes the whole template."
    )
    max_fix_attempts: int | None = _describe("Self-correction rounds before giving up (2).")
    review: bool | None = _describe("Pause before responding so a person can accept or edit.")
    templates_dir: str | None = _describe("Template library folder (the bundled one if empty).")
    embedding_provider: EmbeddingProvider | None = _describe(
        "Embeddings: local (offline), ollama or openai."
    )
    chroma_url: str | None = _describe("A Chroma server URL instead of the embedded store.")
    ollama_base_url: str | None = _describe("Ollama URL (env OLLAMA_HOST).")
    ollama_model: str | None = _describe("Ollama chat model (llama3.1:8b).")
    openai_model: str | None = _describe("OpenAI chat model (gpt-4o-mini).")
    openai_base_url: str | None = _describe("OpenAI-compatible server URL (env OPENAI_BASE_URL).")
    max_history: int | None = _describe("Messages of history given to an LLM (20).")
    resolved: SkipJsonSchema[Settings | None] = field(
        default=None, init=False, repr=False, compare=False
    )
    """The resolved settings: set by :meth:`from_settings`, else on first use."""

    def settings(self) -> Settings:
        """Resolve these choices over config.yaml, the environment and the defaults (once)."""
        if self.resolved is None:
            chosen = {name: getattr(self, name) for name in _choices()}
            chosen.pop("review")
            self.resolved = load_settings(**chosen)
        return self.resolved

    @classmethod
    def from_settings(cls, settings: Settings, *, review: bool | None = None) -> Context:
        """Pin every field to resolved settings and carry them (how the CLI runs the graph).

        Args:
            settings: Fully resolved settings; every node of the run uses exactly these.
            review: Pause before responding.
        """
        values = {n: getattr(settings, n) for n in _choices() - {"review"}}
        if values["templates_dir"] is not None:
            values["templates_dir"] = str(values["templates_dir"])
        context = cls(**values, review=review)
        context.resolved = settings
        return context


def _choices() -> set[str]:
    """The fields a caller may set: every field but the resolved settings."""
    return {f.name for f in fields(Context) if f.init}


def run_settings(runtime: Runtime[Context]) -> Settings:
    """The settings of the run ``runtime`` belongs to (defaults when it has no context)."""
    context = runtime.context if runtime.context is not None else Context()
    return context.settings()


def review_enabled(runtime: Runtime[Context]) -> bool:
    """True when the run asked to pause for review before responding."""
    return runtime.context is not None and bool(runtime.context.review)
