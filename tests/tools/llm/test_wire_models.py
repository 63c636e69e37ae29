"""Models and servers people use now, on the wire: reasoning models, gateways, busy servers.

The real ``ChatOpenAI`` and ``ChatOllama`` (as :func:`make_chat_model` builds them) talk to
loopback fakes that answer as the providers document (``tests/tools/llm/wire_fakes.py``):
o-series and gpt-5 refuse sampling parameters and ``max_tokens``, OpenAI refuses both token
fields together, reasoning spends the reply budget, Ollama thinks unless told not to and
answers 503 when its queue is full.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from oic_ai.stores.chat_models import (
    StructuredOutput,
    describe_backend_error,
    is_retryable,
    make_chat_model,
)
from oic_ai.stores.settings import Settings, load_settings
from oic_ai.tools.edit_plan import AddPackages
from oic_ai.tools.llm_planner import PlanError, plan_turn
from tests.tools.llm.wire_fakes import PLAN, TEMPLATE, WireServer

SCHEMA = StructuredOutput("json_schema")


def _openai(server: WireServer, tmp_path: Path, model: str, **values: Any) -> tuple[Any, Settings]:
    settings = Settings(
        openai_base_url=f"{server.url}/v1",
        openai_api_key="sk-wire",
        openai_model=model,
        data_dir=tmp_path,
        **values,
    )
    return make_chat_model("openai", settings), settings


def _ollama(server: WireServer, model: str = "llama3.1:8b", **values: Any) -> Any:
    settings = Settings(ollama_base_url=server.url, ollama_model=model, **values)
    return make_chat_model("ollama", settings)


def _htop(outcome: Any) -> bool:
    ops = outcome.plan.operations
    return len(ops) == 1 and isinstance(ops[0], AddPackages) and ops[0].packages == ["htop"]


# 1. o-series models refuse temperature ------------------------------------------------------


@pytest.mark.parametrize("model", ["o1", "o3", "o4-mini", "openai/o4-mini", "gpt-5-mini"])
def test_reasoning_models_get_no_sampling_parameters(tmp_path: Path, model: str) -> None:
    with WireServer([PLAN], hosted=True) as server:
        chat, _ = _openai(server, tmp_path, model)
        outcome = plan_turn(chat, "add htop", TEMPLATE, method=SCHEMA)
    assert _htop(outcome) and outcome.requests == 1 and len(server.bodies) == 1
    body = server.bodies[0]
    assert "temperature" not in body and "top_p" not in body
    assert body["max_completion_tokens"] == 3072 and "max_tokens" not in body
    assert body["reasoning_effort"] == "low"


def test_an_unknown_model_that_refuses_temperature_is_retried_once_and_remembered(
    tmp_path: Path,
) -> None:
    refuse = {"temperature": "unsupported_value"}
    with WireServer([PLAN], refuse=refuse) as server:
        chat, settings = _openai(server, tmp_path, "acme/thinker-1")
        outcome = plan_turn(chat, "add htop", TEMPLATE, method=SCHEMA)
        assert _htop(outcome)
        assert [("temperature" in b) for b in server.bodies] == [True, False]
        assert any("refused temperature for model acme/thinker-1" in n for n in outcome.notes)
        memory = json.loads((tmp_path / "chat_params.json").read_text())
        assert memory == {f"{server.url}/v1 acme/thinker-1": ["temperature"]}
        again = make_chat_model("openai", settings)  # the next turn knows it already
        plan_turn(again, "add htop", TEMPLATE, method=SCHEMA)
        assert len(server.bodies) == 3 and "temperature" not in server.bodies[2]


def test_temperature_null_in_the_config_omits_it(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("ai:\n  openai:\n    temperature: null\n")
    with WireServer([PLAN]) as server:
        settings = load_settings(
            config, env={}, data_dir=tmp_path, openai_base_url=f"{server.url}/v1"
        )
        assert settings.openai_temperature is None
        plan_turn(make_chat_model("openai", settings), "add htop", TEMPLATE, method=SCHEMA)
    assert "temperature" not in server.bodies[0]
    assert "reasoning_effort" not in server.bodies[0]  # gpt-4o-mini does not reason


def test_a_refused_parameter_is_named_with_its_fix_not_try_again_later(tmp_path: Path) -> None:
    from langchain_openai import ChatOpenAI

    with WireServer([PLAN], hosted=True) as server:
        _, settings = _openai(server, tmp_path, "o4-mini")
        stock = ChatOpenAI(
            model="o4-mini", base_url=f"{server.url}/v1", api_key="sk-wire", temperature=0
        )
        with pytest.raises(Exception) as caught:
            stock.invoke([("human", "x")])
    line = describe_backend_error("openai", settings, caught.value)
    assert "refused temperature for model o4-mini" in line
    assert "ai.openai.temperature: null" in line
    assert "try again later" not in line and "\n" not in line
    assert not is_retryable(caught.value)  # exit 2: a setup to fix, not a server to wait for


# 2. exactly one of max_tokens / max_completion_tokens -----------------------------------------


def test_openai_itself_gets_only_max_completion_tokens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with WireServer([PLAN], hosted=True) as server:
        # OPENAI_BASE_URL names OpenAI's API; the request reaches the fake as its proxy
        monkeypatch.setenv("HTTP_PROXY", server.url)
        monkeypatch.delenv("NO_PROXY", raising=False)
        settings = Settings(
            openai_base_url="http://api.openai.com/v1", openai_api_key="sk-wire", data_dir=tmp_path
        )
        outcome = plan_turn(make_chat_model("openai", settings), "add htop", TEMPLATE)
    assert _htop(outcome) and server.paths == ["http://api.openai.com/v1/chat/completions"]
    body = server.bodies[0]
    assert body["max_completion_tokens"] == 3072 and "max_tokens" not in body
    assert body["temperature"] == 0  # gpt-4o-mini takes it


def test_a_gateway_in_front_of_gpt5_gets_max_completion_tokens(tmp_path: Path) -> None:
    with WireServer([PLAN]) as server:
        chat, _ = _openai(server, tmp_path, "openai/gpt-5-mini")
        outcome = plan_turn(chat, "add htop", TEMPLATE, method=SCHEMA)
    assert _htop(outcome) and len(server.bodies) == 1
    assert "max_tokens" not in server.bodies[0]
    assert server.bodies[0]["max_completion_tokens"] == 3072


def test_a_compatible_server_gets_only_the_classic_max_tokens(tmp_path: Path) -> None:
    with WireServer([PLAN]) as server:
        chat, _ = _openai(server, tmp_path, "qwen2.5-7b-instruct")
        plan_turn(chat, "add htop", TEMPLATE, method=SCHEMA)
    body = server.bodies[0]
    assert body["max_tokens"] == 3072 and "max_completion_tokens" not in body


def test_a_server_that_refuses_max_tokens_gets_the_other_field_and_it_is_remembered(
    tmp_path: Path,
) -> None:
    with WireServer([PLAN], refuse={"max_tokens": "unsupported_parameter"}) as server:
        chat, settings = _openai(server, tmp_path, "acme/thinker-1")
        outcome = plan_turn(chat, "add htop", TEMPLATE, method=SCHEMA)
        assert _htop(outcome)
        fields = [sorted(k for k in b if "tokens" in k) for b in server.bodies]
        assert fields == [["max_tokens"], ["max_completion_tokens"]]
        plan_turn(make_chat_model("openai", settings), "add htop", TEMPLATE, method=SCHEMA)
        assert "max_tokens" not in server.bodies[2] and len(server.bodies) == 3


# 3. reasoning eats the reply budget -----------------------------------------------------------


def test_reasoning_that_fills_the_budget_is_retried_once_with_a_larger_one(
    tmp_path: Path,
) -> None:
    with WireServer([PLAN], hosted=True) as server:
        # high effort spends 6,000 tokens thinking: 3,072 is all reasoning, 6,144 is not
        chat, _ = _openai(server, tmp_path, "gpt-5-mini", openai_reasoning_effort="high")
        outcome = plan_turn(chat, "add htop", TEMPLATE, method=SCHEMA)
    assert _htop(outcome) and outcome.requests == 2
    assert [b["max_completion_tokens"] for b in server.bodies] == [3072, 6144]
    assert server.bodies[1]["messages"] == server.bodies[0]["messages"]  # not "shorter"
    assert any("3,072 reasoning tokens" in n and "6,144-token" in n for n in outcome.notes)


def test_when_reasoning_still_fills_the_budget_the_notice_names_reasoning(
    tmp_path: Path,
) -> None:
    with WireServer([PLAN], hosted=True) as server:
        chat, _ = _openai(
            server, tmp_path, "o4-mini", openai_reasoning_effort="high", max_tokens=1000
        )
        with pytest.raises(PlanError) as caught:
            plan_turn(chat, "add htop", TEMPLATE, method=SCHEMA)
    message = str(caught.value)
    assert "spent its whole reply budget on 1,000 reasoning tokens" in message
    assert "2,000-token budget" in message and "ai.openai.reasoning_effort" in message
    assert "cut off" not in message and "shorter" not in server.bodies[1]["messages"][-1]["content"]


def test_ollama_thinking_models_are_told_not_to_think() -> None:
    with WireServer([PLAN]) as server:
        outcome = plan_turn(_ollama(server, "qwen3:8b"), "add htop", TEMPLATE, method=SCHEMA)
    assert _htop(outcome) and outcome.requests == 1
    assert server.bodies[0]["think"] is False


def test_a_model_without_thinking_accepts_think_false() -> None:
    with WireServer([PLAN]) as server:
        outcome = plan_turn(_ollama(server), "add htop", TEMPLATE, method=SCHEMA)
    assert _htop(outcome) and server.bodies[0]["think"] is False


def test_ollama_thinking_on_purpose_that_fills_the_budget_gets_a_larger_one() -> None:
    with WireServer([PLAN]) as server:
        chat = _ollama(server, "qwen3:8b", ollama_think="true")
        outcome = plan_turn(chat, "add htop", TEMPLATE, method=SCHEMA)
    assert _htop(outcome) and outcome.requests == 2
    options = [b["options"] for b in server.bodies]
    assert [o["num_predict"] for o in options] == [3072, 6144]
    assert options[1]["num_ctx"] == 8192 + 3072  # the window grows with the reply
    assert server.bodies[0]["think"] is True
    assert any("reply budget on" in n and "6,144-token" in n for n in outcome.notes)


# 4. Ollama 503 "server busy" and 429 ----------------------------------------------------------


@pytest.mark.parametrize(("status", "retry_after"), [(503, ""), (429, "1")])
def test_a_busy_ollama_is_retried_once(status: int, retry_after: str) -> None:
    with WireServer([PLAN], busy=[status], retry_after=retry_after) as server:
        outcome = plan_turn(_ollama(server), "add htop", TEMPLATE, method=SCHEMA)
    assert _htop(outcome) and len(server.bodies) == 2
    assert any(f"HTTP {status}" in n and "retried once" in n for n in outcome.notes)


def test_ollama_busy_twice_is_a_retryable_failure_named_as_such() -> None:
    with WireServer([PLAN], busy=[503, 503, 503]) as server:
        settings = Settings(ollama_base_url=server.url)
        with pytest.raises(Exception) as caught:
            plan_turn(make_chat_model("ollama", settings), "add htop", TEMPLATE, method=SCHEMA)
    assert len(server.bodies) == 2  # one retry, no loop
    assert is_retryable(caught.value)  # exit 3
    line = describe_backend_error("ollama", settings, caught.value)
    assert "HTTP 503" in line and "server busy" in line and "try again later" in line


def test_a_refusal_is_remembered_without_the_servers_credentials(tmp_path: Path) -> None:
    with WireServer([PLAN], refuse={"temperature": "unsupported_parameter"}) as server:
        host = server.url.removeprefix("http://")
        settings = Settings(
            openai_base_url=f"http://gw:s3cret-pass@{host}/v1",
            openai_model="acme/thinker-1",
            data_dir=tmp_path,
        )
        plan_turn(make_chat_model("openai", settings), "add htop", TEMPLATE, method=SCHEMA)
    memory = (tmp_path / "chat_params.json").read_text()
    assert "s3cret-pass" not in memory
    assert json.loads(memory) == {f"http://{host}/v1 acme/thinker-1": ["temperature"]}
