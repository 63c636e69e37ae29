"""The LLM path's settings: num_ctx and the structured-output method come from config."""

from __future__ import annotations

from pathlib import Path

import pytest

from oic_ai.stores.chat_models import num_ctx, structured_method
from oic_ai.stores.errors import UserInputError
from oic_ai.stores.settings import load_settings


def _config(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(body)
    return path


def test_num_ctx_and_a_forced_method_come_from_the_config(tmp_path: Path) -> None:
    path = _config(
        tmp_path, "ai:\n  ollama:\n    num_ctx: 4096\n    structured_output: json_mode\n"
    )
    settings = load_settings(config=path, env={}, data_dir=tmp_path)
    assert num_ctx(settings) == 4096
    assert structured_method("ollama", settings).method == "json_mode"


def test_the_defaults_are_8192_and_auto(tmp_path: Path) -> None:
    settings = load_settings(env={}, data_dir=tmp_path)
    assert num_ctx(settings) == 8192
    assert settings.openai_structured_output == settings.ollama_structured_output == "auto"


@pytest.mark.parametrize(
    "body",
    [
        "ai:\n  openai:\n    structured_output: grammar\n",
        "ai:\n  ollama:\n    num_ctx: 100\n",
    ],
)
def test_bad_llm_settings_are_one_clear_usage_error(tmp_path: Path, body: str) -> None:
    with pytest.raises(UserInputError):
        load_settings(config=_config(tmp_path, body), env={}, data_dir=tmp_path)
