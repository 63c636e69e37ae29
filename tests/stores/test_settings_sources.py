"""Where settings come from: config locations, the composer's ``ai:`` section, XDG data."""

from __future__ import annotations

from pathlib import Path

import pytest

from oic_ai.stores.settings import explain_settings, load_settings


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """An empty working folder and home; the environment that points at them."""
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return {
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "xdg-config"),
        "XDG_DATA_HOME": str(tmp_path / "xdg-data"),
    }


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_the_data_folder_is_xdg_unless_a_local_cache_exists_or_one_is_set(
    home: dict[str, str],
) -> None:
    settings, sources = explain_settings(env=home)
    assert settings.data_dir == Path(home["XDG_DATA_HOME"]) / "oic-ai"
    assert "XDG" in sources["data_dir"]
    Path(".ai-cache").mkdir()
    assert load_settings(env=home).data_dir == Path(".ai-cache")
    chosen = {**home, "OIC_AI_DATA_DIR": "/srv/oic"}
    settings, sources = explain_settings(env=chosen)
    assert settings.data_dir == Path("/srv/oic")
    assert sources["data_dir"] == "env OIC_AI_DATA_DIR"


def test_xdg_data_home_falls_back_to_the_home_folder(home: dict[str, str]) -> None:
    env = {"HOME": home["HOME"]}
    assert load_settings(env=env).data_dir == Path(home["HOME"]) / ".local/share/oic-ai"


def test_the_xdg_config_file_is_read_when_there_is_no_local_one(home: dict[str, str]) -> None:
    write(Path(home["XDG_CONFIG_HOME"]) / "oic-ai/config.yaml", "ai:\n  provider: builtin\n")
    settings, sources = explain_settings(env=home)
    assert settings.provider == "builtin"
    assert sources["provider"].startswith("config ") and "xdg-config" in sources["provider"]
    write(Path("config.yaml"), "ai:\n  provider: ollama\n")
    assert load_settings(env=home).provider == "ollama"  # ./config.yaml comes first


def test_the_composers_ai_section_is_read_and_ours_overrides_it(home: dict[str, str]) -> None:
    composer = write(
        Path(home["HOME"]) / ".config/os-image-composer/config.yml",
        "workers: 8\ncache_dir: ./cache\nlogging:\n  level: info\n"
        "ai:\n  provider: openai\n  openai:\n    model: gpt-4.1-mini\n    timeout: 30\n",
    )
    env = {**home, "XDG_CONFIG_HOME": str(Path(home["HOME"]) / ".config")}
    settings, sources = explain_settings(env=env)
    assert settings.provider == "openai" and settings.openai_model == "gpt-4.1-mini"
    assert settings.openai_timeout == 30.0
    assert sources["openai_model"] == f"config {composer} (ai:)"
    write(Path("config.yaml"), "ai:\n  provider: builtin\n")
    settings = load_settings(env=env)
    assert settings.provider == "builtin" and settings.openai_model == "gpt-4.1-mini"


def test_a_composer_config_without_an_ai_section_is_ignored_quietly(
    home: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    write(Path("os-image-composer.yml"), "workers: 8\ncache_dir: ./cache\n")
    assert load_settings(env=home).provider == "auto"
    assert capsys.readouterr().err == ""


def test_an_unknown_key_warns_and_an_api_key_is_used_never_shown(
    home: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    write(
        Path("config.yaml"),
        "ai:\n  provider: openai\n  colour: blue\n  openai:\n    api_key: sk-from-file-123\n",
    )
    settings = load_settings(env=home)
    assert settings.openai_api_key == "sk-from-file-123"
    assert "sk-from-file-123" not in repr(settings)
    err = capsys.readouterr().err
    assert "ignoring unknown setting ai.colour" in err
    assert "ai.openai.api_key" in err and "sk-from-file-123" not in err


def test_an_api_key_reference_reads_the_environment(home: dict[str, str]) -> None:
    write(Path("config.yaml"), "ai:\n  openai:\n    api_key: ${MY_KEY}\n")
    assert load_settings(env={**home, "MY_KEY": "sk-env-9"}).openai_api_key == "sk-env-9"
    assert load_settings(env=home).openai_api_key is None
    # the environment's own variable still wins over the file
    env = {**home, "MY_KEY": "sk-env-9", "OPENAI_API_KEY": "sk-direct"}
    assert load_settings(env=env).openai_api_key == "sk-direct"


def test_sources_name_flags_and_defaults(home: dict[str, str]) -> None:
    settings, sources = explain_settings(env=home, provider="builtin")
    assert settings.provider == "builtin" and sources["provider"] == "command line"
    assert sources["ollama_model"] == "default"
