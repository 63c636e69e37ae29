"""The whole agent against the wire fakes: method per server, memory, honest errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from oic_ai.graph.agent import TemplateAgent
from oic_ai.stores.chat_models import ChatBackendError
from oic_ai.stores.settings import load_settings
from tests.tools.llm.wire_fakes import WireServer

PLAN = {"summary": "add iftop", "operations": [{"op": "install", "packages": ["iftop"]}]}
# issue 21: the plans below add iftop, so the request asks for it (a model may not invent it)
REQUEST = "a minimal ubuntu 24.04 image for x86_64 with iftop"


def test_a_compatible_server_without_json_schema_still_plans_and_is_remembered(
    agent_data_dir: Path,
) -> None:
    with WireServer([PLAN], reject=frozenset({"json_schema"})) as server:
        settings = load_settings(
            data_dir=agent_data_dir, env={}, provider="openai",
            openai_base_url=f"{server.url}/v1",
        )  # fmt: skip
        with TemplateAgent(settings) as agent:
            first = agent.generate(REQUEST)
            second = agent.generate("add iftop", session=first.session)
    # iftop is in neither the catalog nor the library, and there is no index: unverified
    assert first.provider == "openai" and first.status == "valid_with_warnings"
    assert first.packages["unverified"] == ["iftop"]
    assert "iftop" in yaml.safe_load(first.template or "")["systemConfig"]["packages"]
    kinds = [b["response_format"]["type"] for b in server.bodies]
    assert kinds[:2] == ["json_schema", "json_object"]  # one fallback, then remembered
    assert all(kind == "json_object" for kind in kinds[2:]) and second.provider == "openai"
    # JSON mode still carries the schema, which llama.cpp-style servers compile to a grammar
    fallback = server.bodies[1]["response_format"]["schema"]
    branches = fallback["properties"]["operations"]["items"]["anyOf"]
    assert all(branch["required"][0] == "op" for branch in branches)
    memory = json.loads((agent_data_dir / "structured_output.json").read_text())
    assert memory == {f"{server.url}/v1": "json_mode"}


def test_ollama_plans_through_format_with_num_ctx(agent_data_dir: Path) -> None:
    with WireServer([PLAN]) as server:
        settings = load_settings(
            data_dir=agent_data_dir, env={}, provider="ollama", ollama_base_url=server.url
        )
        with TemplateAgent(settings) as agent:
            result = agent.generate(REQUEST)
    # iftop is in neither the catalog nor the library, and there is no index: unverified
    assert result.provider == "ollama" and result.status == "valid_with_warnings"
    assert result.packages["unverified"] == ["iftop"]
    body = server.bodies[0]
    branches = body["format"]["properties"]["operations"]["items"]["anyOf"]
    assert all(branch["required"][0] == "op" for branch in branches)
    assert body["options"]["num_ctx"] == 8192


def test_an_explicit_provider_names_a_schema_rejection(agent_data_dir: Path) -> None:
    with WireServer([PLAN], reject=frozenset({"json_schema", "json_object"})) as server:
        settings = load_settings(
            data_dir=agent_data_dir, env={}, provider="openai",
            openai_base_url=f"{server.url}/v1",
        )  # fmt: skip
        with TemplateAgent(settings) as agent, pytest.raises(ChatBackendError) as caught:
            agent.generate(REQUEST)
    message = str(caught.value)
    assert "the server rejected the plan schema (HTTP 400" in message
    assert "OPENAI_API_KEY" not in message  # not the wrong cause
    assert len(server.bodies) == 2


def test_auto_falls_back_with_the_real_cause(agent_data_dir: Path) -> None:
    with WireServer(["I'm sorry, but I can't help with that."]) as server:
        settings = load_settings(
            data_dir=agent_data_dir, env={}, provider="auto",
            openai_base_url=f"{server.url}/v1", ollama_base_url="http://127.0.0.1:9",
        )  # fmt: skip
        with TemplateAgent(settings) as agent:
            result = agent.generate("a minimal ubuntu 24.04 image for x86_64")
    assert result.provider == "builtin (fallback from openai)" and result.status == "valid"
    assert any("refused to plan" in n and "builtin planner" in n for n in result.notices)
    assert len(server.bodies) == 2  # one retry with the error before the fallback


def test_a_bad_operation_is_reported_not_applied_and_the_rest_is_used(
    agent_data_dir: Path,
) -> None:
    plan = {
        "summary": "add iftop and tune",
        "operations": [
            {"op": "add_packages", "packages": ["iftop"]},
            {"op": "set_disk_size"},  # no size: invalid, reported
        ],
    }
    with WireServer([plan]) as server:
        settings = load_settings(
            data_dir=agent_data_dir, env={}, provider="ollama", ollama_base_url=server.url,
            ollama_num_ctx=4096,
        )  # fmt: skip
        with TemplateAgent(settings) as agent:
            result = agent.generate(REQUEST)
    assert result.provider == "ollama"
    assert "iftop" in yaml.safe_load(result.template or "")["systemConfig"]["packages"]
    assert any("set_disk_size" in line for line in result.not_applied), result.not_applied
    assert server.bodies[0]["options"]["num_ctx"] == 4096
