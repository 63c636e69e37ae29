"""The run context: the settings a caller (CLI, API, Studio) may choose per run.

Every field defaults to ``None``, meaning "whatever ``config.yaml`` and the environment
say", so Studio's form can be left empty. Secrets are not here: API keys come from the
environment only and never enter state, checkpoints or context. The data folder is not
here either: it belongs to the process (``OIC_AI_DATA_DIR``), because the server's
checkpoints live there and a run must not record its session anywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from oic_ai.stores.settings import Settings, load_settings


def _describe(text: str) -> Any:
    return field(default=None, metadata={"description": text})


@dataclass(kw_only=True)
class Context:
    """Per-run settings; ``None`` falls back to config.yaml, then env, then defaults."""

    provider: str | None = _describe(
        "Planner: auto (Ollama, else OpenAI if a key is set, else builtin), builtin, "
        "ollama or openai."
    )
    generation_mode: str | None = _describe(
        "plan: the model returns an edit plan (default); yaml: it writes the whole template."
    )
    max_fix_attempts: int | None = _describe("Self-correction rounds before giving up (2).")
    review: bool | None = _describe("Pause before responding so a person can accept or edit.")
    templates_dir: str | None = _describe("Template library folder (the bundled one if empty).")
    embedding_provider: str | None = _describe("Embeddings: local (offline), ollama or openai.")
    chroma_url: str | None = _describe("A Chroma server URL instead of the embedded store.")
    ollama_base_url: str | None = _describe("Ollama URL (env OLLAMA_HOST).")
    ollama_model: str | None = _describe("Ollama chat model (llama3.1:8b).")
    openai_model: str | None = _describe("OpenAI chat model (gpt-4o-mini).")
    openai_base_url: str | None = _describe("OpenAI-compatible server URL (env OPENAI_BASE_URL).")
    max_history: int | None = _describe("Messages of history given to an LLM (20).")

    def settings(self) -> Settings:
        """Resolve these choices over config.yaml, the environment and the defaults."""
        chosen = {f.name: getattr(self, f.name) for f in fields(self)}
        chosen.pop("review")
        return load_settings(**chosen)

    @classmethod
    def from_settings(cls, settings: Settings, **extra: Any) -> Context:
        """Pin every field to resolved settings (how the CLI runs the graph)."""
        names = {f.name for f in fields(cls)} - {"review"}
        values = {n: getattr(settings, n) for n in names}
        if values["templates_dir"] is not None:
            values["templates_dir"] = str(values["templates_dir"])
        values.update(extra)
        return cls(**values)
