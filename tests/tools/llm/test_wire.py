"""The real ChatOpenAI and ChatOllama against loopback fakes that enforce the servers' rules."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from oic_ai.stores.chat_models import (
    StructuredOutput,
    describe_backend_error,
    make_chat_model,
    structured_method,
)
from oic_ai.stores.settings import Settings
from oic_ai.tools.edit_plan import AddPackages, EditPlan
from oic_ai.tools.llm_planner import PlanError, fix_plan, plan_turn
from oic_ai.tools.plan_schema import plan_schema, plan_schema_text
from tests.tools.llm.wire_fakes import PLAN, TEMPLATE, Scripted, WireServer


@pytest.fixture
def server() -> Iterator[WireServer]:
    with WireServer([PLAN]) as fake:
        yield fake


def _openai(server: WireServer, tmp_path: Path, **values: Any) -> tuple[Any, Settings]:
    settings = Settings(
        openai_base_url=f"{server.url}/v1", openai_api_key="sk-wire", data_dir=tmp_path, **values
    )
    return make_chat_model("openai", settings), settings


def _ollama(server: WireServer, **values: Any) -> tuple[Any, Settings]:
    settings = Settings(ollama_base_url=server.url, ollama_model="llama3.1:8b", **values)
    return make_chat_model("ollama", settings), settings


def test_openai_gets_the_strict_schema_and_max_tokens(server: WireServer, tmp_path: Path) -> None:
    model, _ = _openai(server, tmp_path)
    outcome = plan_turn(model, "add htop", TEMPLATE, method=StructuredOutput("json_schema"))
    assert isinstance(outcome.plan.operations[0], AddPackages)
    assert outcome.requests == 1 and len(server.bodies) == 1
    body = server.bodies[0]
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    assert fmt["json_schema"]["schema"] == plan_schema()
    assert body["max_tokens"] == 3072  # compatible servers read the classic field
    system = body["messages"][0]["content"]
    assert "- add_packages(packages: [str], kernel?: bool)" in system  # the catalogue
    assert system.count("REQUEST:") == 3  # three worked examples


def test_the_openai_fake_rejects_the_raw_pydantic_schema_with_the_real_400(
    server: WireServer, tmp_path: Path
) -> None:
    model, settings = _openai(server, tmp_path)
    raw = {"name": "EditPlan", "strict": True, "schema": EditPlan.model_json_schema()}
    bound = model.bind(response_format={"type": "json_schema", "json_schema": raw})
    with pytest.raises(Exception) as caught:
        bound.invoke([("human", "x")])
    assert getattr(caught.value, "status_code", None) == 400
    assert "Invalid schema for response_format 'EditPlan': In context=(" in str(caught.value)
    line = describe_backend_error("openai", settings, caught.value)
    assert "the server rejected the plan schema (HTTP 400" in line
    assert "structured_output: json_mode" in line and "\n" not in line


def test_a_server_that_rejects_json_schema_gets_json_mode_once_and_it_is_remembered(
    tmp_path: Path,
) -> None:
    with WireServer([PLAN], reject=frozenset({"json_schema"})) as server:
        model, settings = _openai(server, tmp_path)
        method = structured_method("openai", settings)
        assert method.method == "json_schema" and method.fallback
        outcome = plan_turn(model, "add htop", TEMPLATE, method=method)
        assert outcome.requests == 2 and outcome.method == "json_mode"
        assert [b["response_format"]["type"] for b in server.bodies] == [
            "json_schema",
            "json_object",
        ]
        assert plan_schema_text() in server.bodies[1]["messages"][0]["content"]
        assert any("rejected the json_schema" in n for n in outcome.notes)
        again = structured_method("openai", settings)  # remembered in the data folder
        assert again.method == "json_mode" and not again.fallback
        assert json.loads((tmp_path / "structured_output.json").read_text()) == {
            f"{server.url}/v1": "json_mode"
        }
        plan_turn(model, "add htop", TEMPLATE, method=again)
        assert len(server.bodies) == 3 and server.bodies[2]["response_format"]["type"] == (
            "json_object"
        )


def test_lm_studio_style_servers_reject_json_object_but_take_json_schema(tmp_path: Path) -> None:
    with WireServer([PLAN], reject=frozenset({"json_object"})) as server:
        model, settings = _openai(server, tmp_path)
        outcome = plan_turn(
            model, "add htop", TEMPLATE, method=structured_method("openai", settings)
        )
        assert outcome.requests == 1 and outcome.method == "json_schema"
        assert not (tmp_path / "structured_output.json").exists()


def test_a_rejected_fallback_names_the_schema_rejection(tmp_path: Path) -> None:
    both = frozenset({"json_schema", "json_object"})
    with WireServer([PLAN], reject=both) as server:
        model, settings = _openai(server, tmp_path)
        with pytest.raises(Exception) as caught:
            plan_turn(model, "add htop", TEMPLATE, method=structured_method("openai", settings))
        assert len(server.bodies) == 2  # json_schema, then json_object once; no loop
        line = describe_backend_error("openai", settings, caught.value)
        assert "rejected the plan schema (HTTP 400" in line


@pytest.mark.parametrize("stream", [True, False])
def test_ollama_gets_the_schema_as_format_and_num_ctx(server: WireServer, stream: bool) -> None:
    model, _ = _ollama(server)
    if not stream:
        model = model.bind(stream=False)
    outcome = plan_turn(model, "add htop", TEMPLATE, method=StructuredOutput("json_schema"))
    assert [op.model_dump() for op in outcome.plan.operations] == [
        {"op": "add_packages", "packages": ["htop"], "kernel": False}
    ]
    body = server.bodies[0]
    assert server.paths == ["/api/chat"] and body["stream"] is stream
    assert body["format"] == plan_schema(described=False)
    assert body["options"]["num_ctx"] == 8192 and body["options"]["num_predict"] == 3072
    assert "- set_disk_size(size: str)" in body["messages"][0]["content"]


def test_ollama_num_ctx_follows_the_setting(server: WireServer) -> None:
    model, _ = _ollama(server)
    assert model.num_ctx == 8192
    small = make_chat_model("ollama", Settings(ollama_base_url=server.url))
    object.__setattr__(small, "num_ctx", 4096)
    plan_turn(small, "add htop", TEMPLATE * 200, method="json_schema")
    body = server.bodies[-1]
    assert body["options"]["num_ctx"] == 4096
    prompt = sum(len(m["content"]) for m in body["messages"])
    assert prompt <= (4096 - 2048) * 3  # the template was trimmed to the window


def test_the_ollama_fake_answers_500_for_a_schema_that_does_not_compile(
    server: WireServer,
) -> None:
    model, settings = _ollama(server)
    with pytest.raises(Exception) as caught:
        model.bind(format=EditPlan.model_json_schema()).invoke([("human", "x")])
    assert getattr(caught.value, "status_code", None) == 500
    line = describe_backend_error("ollama", settings, caught.value)
    assert "rejected the plan schema (HTTP 500" in line and "oneOf" in line
    assert "ollama serve" not in line  # not the wrong cause


@pytest.mark.parametrize("backend", ["openai", "ollama"])
def test_the_tools_method_sends_the_plan_as_a_function(backend: str, tmp_path: Path) -> None:
    with WireServer([Scripted(tool_args=PLAN | {"not_applied": []})]) as server:
        model, settings = (
            _openai(server, tmp_path, openai_model="m") if backend == "openai" else _ollama(server)
        )
        object.__setattr__(settings, f"{backend}_structured_output", "tools")
        method = structured_method(backend, settings)
        assert method == StructuredOutput("tools")
        outcome = plan_turn(model, "add htop", TEMPLATE, method=method)
        assert isinstance(outcome.plan.operations[0], AddPackages)
        tool = server.bodies[0]["tools"][0]["function"]
        assert tool["name"] == "edit_plan"
        operation = tool["parameters"]["properties"]["operations"]["items"]
        assert all(branch["required"][0] == "op" for branch in operation["anyOf"])
        if backend == "openai":
            assert tool["parameters"] == plan_schema() and tool["strict"] is True
            assert server.bodies[0]["tool_choice"]["function"]["name"] == "edit_plan"


@pytest.mark.parametrize("backend", ["openai", "ollama"])
def test_fix_plan_asks_for_a_plan_with_the_findings(backend: str, tmp_path: Path) -> None:
    fix = {
        "summary": "swap docker-ce for docker.io",
        "operations": [
            {"op": "remove_packages", "packages": ["docker-ce"]},
            {"op": "add_packages", "packages": ["docker.io"]},
        ],
    }
    with WireServer([fix]) as server:
        model = _openai(server, tmp_path)[0] if backend == "openai" else _ollama(server)[0]
        problem = "package 'docker-ce' does not exist for this target; use one of docker.io"
        plan = fix_plan(model, "add docker", TEMPLATE, [problem], method="json_schema")
        assert [op.op for op in plan.operations] == ["remove_packages", "add_packages"]
        messages = server.bodies[0]["messages"]
        assert "PROBLEMS TO FIX:\n- " + problem in messages[-1]["content"]
        assert "fixes exactly those problems" in messages[0]["content"]
        assert "response_format" in server.bodies[0] or "format" in server.bodies[0]


def test_plan_errors_are_not_backend_errors(server: WireServer, tmp_path: Path) -> None:
    server.answers = ["no plan today"]
    model, _ = _openai(server, tmp_path)
    with pytest.raises(PlanError, match="malformed"):
        plan_turn(model, "add htop", TEMPLATE, method="json_schema")
    assert len(server.bodies) == 2  # one retry with the error, then the caller falls back
