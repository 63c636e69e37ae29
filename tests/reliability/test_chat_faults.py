"""A chat backend that misbehaves ends in one clear error, or in a fallback with a notice.

Retries are bounded, and the session keeps its last good template.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from oic_ai.graph.agent import TemplateAgent
from oic_ai.stores.chat_models import ChatBackendError
from oic_ai.stores.settings import load_settings
from tests.support.cli import cli_env, oic
from tests.support.fake_chat_server import FakeChatServer
from tests.support.loopback import unused_url

FAULTS = ["down", "slow", "429", "500", "garbage", "truncated"]
PLAN = {"summary": "add iftop", "operations": [{"op": "add_packages", "packages": ["iftop"]}]}
REQUEST = "a minimal ubuntu 24.04 image for x86_64"


@pytest.fixture
def server() -> Iterator[FakeChatServer]:
    with FakeChatServer([PLAN]) as fake:
        yield fake


def _settings(data: Path, server: FakeChatServer, provider: str, fault: str) -> Any:
    base = unused_url() if fault == "down" else server.url
    values: dict[str, Any] = {"ollama_timeout": 1.0, "openai_timeout": 1.0}
    if provider == "openai":
        values["openai_base_url"] = f"{base}/v1"
        values["ollama_base_url"] = unused_url()
    else:
        values["ollama_base_url"] = base
    return load_settings(data_dir=data, env={}, provider=provider, **values)


def _break(server: FakeChatServer, fault: str) -> None:
    if fault == "slow":
        server.fail("slow", delay=5.0)
    elif fault != "down":
        server.fail(fault)


@pytest.mark.parametrize("backend", ["openai", "ollama"])
def test_a_healthy_backend_plans_the_turn(
    agent_data_dir: Path, server: FakeChatServer, backend: str
) -> None:
    with TemplateAgent(_settings(agent_data_dir, server, backend, "none")) as agent:
        # a model's plan adds only what was asked for (issue 21's package rule holds for it)
        result = agent.generate(f"{REQUEST} with iftop")
    # iftop is in neither the catalog nor the library, and there is no index: unverified
    assert result.provider == backend and result.status == "valid_with_warnings"
    assert result.packages["unverified"] == ["iftop"]
    assert "iftop" in yaml.safe_load(result.template or "")["systemConfig"]["packages"]
    assert len(server.requests) == 1
    body = server.requests[0].body
    if backend == "openai":
        # a compatible server (custom base URL) gets the strict json_schema first
        assert body["response_format"]["type"] == "json_schema"
        assert body["response_format"]["json_schema"]["strict"] is True
        assert '"op": "add_packages"' in body["messages"][0]["content"]
    else:
        assert body["format"]["title"] == "EditPlan"  # Ollama constrains to the schema


@pytest.mark.parametrize("backend", ["openai", "ollama"])
@pytest.mark.parametrize("fault", FAULTS)
def test_an_explicit_provider_fails_with_one_clear_line(
    agent_data_dir: Path, server: FakeChatServer, backend: str, fault: str
) -> None:
    settings = _settings(agent_data_dir, server, backend, fault)
    with TemplateAgent(load_settings(data_dir=agent_data_dir, env={}, provider="builtin")) as ok:
        first = ok.generate(REQUEST)
    good = first.template
    _break(server, fault)
    with TemplateAgent(settings) as agent:
        with pytest.raises(ChatBackendError) as caught:
            agent.generate("add iftop", session=first.session)
        message = str(caught.value)
        assert "\n" not in message and "--provider builtin" in message
        assert backend in message
        assert len(server.requests) <= 2  # one try plus at most one bounded retry
        assert agent.current_template(first.session) == good  # nothing lost
        assert agent.sessions.get(first.session).turns == 1
    server.fail(None)
    with TemplateAgent(load_settings(data_dir=agent_data_dir, env={}, provider="builtin")) as ok:
        healed = ok.generate("add iftop", session=first.session)
    assert healed.status == "valid_with_warnings" and healed.turn == 2  # iftop: unverified
    assert healed.packages["unverified"] == ["iftop"]


@pytest.mark.parametrize("fault", FAULTS)
def test_auto_falls_back_to_builtin_with_a_notice(
    agent_data_dir: Path, server: FakeChatServer, fault: str
) -> None:
    settings = _settings(agent_data_dir, server, "openai", fault)
    settings = load_settings(
        data_dir=agent_data_dir,
        env={},
        provider="auto",
        openai_base_url=settings.openai_base_url,
        ollama_base_url=unused_url(),
        openai_timeout=1.0,
    )
    _break(server, fault)
    with TemplateAgent(settings) as agent:
        result = agent.generate(REQUEST)
    assert result.status == "valid"
    assert result.provider == "builtin (fallback from openai)"
    assert any("used the builtin planner instead" in n for n in result.notices)


@pytest.mark.parametrize(("fault", "code"), [("500", 3), ("429", 3), ("401", 2)])
def test_the_cli_reports_a_backend_failure_on_one_line(
    agent_data_dir: Path, server: FakeChatServer, fault: str, code: int
) -> None:
    """Retry (3) for a failing server, fix your setup (2) for a refused key."""
    server.fail(fault)
    env = cli_env(
        agent_data_dir,
        OPENAI_BASE_URL=server.openai_url,
        OPENAI_API_KEY="sk-canary-0001",
        OLLAMA_HOST=unused_url(),
    )
    done = oic("generate", "--provider", "openai", REQUEST, env=env, timeout=120)
    assert done.returncode == code
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "openai chat model failed" in done.stderr and "sk-canary-0001" not in done.stderr
