"""The ``search_templates`` tool and the process-wide search it shares with ``retrieve``."""

from __future__ import annotations

from pathlib import Path

import pytest

from oic_ai.stores.settings import load_settings
from oic_ai.tools.search_templates import find_templates, open_search, search_templates


def test_the_tool_describes_itself_to_a_model() -> None:
    assert search_templates.name == "search_templates"
    assert "templates" in search_templates.description
    args = search_templates.args
    assert args["query"]["type"] == "string"
    assert args["top_k"]["type"] == "integer" and args["top_k"]["default"] == 3


def test_find_templates_ranks_the_library(agent_data_dir: Path) -> None:
    settings = load_settings(data_dir=agent_data_dir, env={})
    found = find_templates("ubuntu 24.04 edge image for arm64 with docker", settings=settings)
    assert 1 <= len(found) <= 3
    assert found[0]["template"].startswith("ubuntu24-aarch64")
    assert {"template", "path", "score", "semantic", "keyword", "package", "dist"} <= set(found[0])
    assert open_search(settings) is open_search(settings)  # one search per library and model


def test_the_tool_runs_on_the_configured_library(
    agent_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("OIC_AI_CONFIG", "OIC_AI_TEMPLATES_DIR", "OIC_AI_CHROMA_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OIC_AI_EMBEDDING_PROVIDER", "local")
    monkeypatch.setenv("OIC_AI_DATA_DIR", str(agent_data_dir))
    found = search_templates.invoke({"query": "debian trixie installer iso", "top_k": 2})
    assert len(found) == 2 and found[0]["dist"] == "debian13"
