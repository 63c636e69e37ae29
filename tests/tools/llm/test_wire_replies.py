"""The plan itself, on the wire: a compact schema, prompts that fit, replies as they really come.

Every reply reaches the planner through the real ``ChatOpenAI`` or ``ChatOllama`` from a
loopback fake (``tests/tools/llm/wire_fakes.py``) that cuts replies at the token limit and,
for ``Scripted(plan=...)``, writes the plan the way a schema-constrained model must: every
property the request's schema lists for an operation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from oic_ai.graph.agent import TemplateAgent
from oic_ai.stores.chat_models import StructuredOutput, make_chat_model, structured_method
from oic_ai.stores.settings import Settings, load_settings
from oic_ai.tools.edit_plan import AddPackages
from oic_ai.tools.llm_planner import plan_turn, write_template_with_model
from oic_ai.tools.llm_prompt import prompt_budget
from oic_ai.tools.plan_schema import plan_schema
from tests.conftest import OUR_TEMPLATES
from tests.tools.llm.wire_fakes import (
    CHARS_PER_TOKEN,
    Scripted,
    WireServer,
    constrained,
    request_schema,
)

TEMPLATE = "image:\n  name: edge\ntarget:\n  os: ubuntu\nsystemConfig:\n  packages: [vim]\n"
SCHEMA = StructuredOutput("json_schema")
REQUEST = "a minimal ubuntu 24.04 image for x86_64"
HTOP = {"op": "add_packages", "packages": ["htop"]}


def _model(backend: str, server: WireServer, tmp_path: Path, **values: Any) -> Any:
    if backend == "openai":
        settings = Settings(openai_base_url=f"{server.url}/v1", data_dir=tmp_path, **values)
    else:
        settings = Settings(ollama_base_url=server.url, **values)
    return make_chat_model(backend, settings)


def _packages(outcome: Any) -> list[str]:
    ops = outcome.plan.operations
    return [p for op in ops if isinstance(op, AddPackages) for p in op.packages]


def _twelve() -> dict[str, Any]:
    ops: list[dict[str, Any]] = [
        {"op": "add_packages", "packages": [f"tool{i}"]} for i in range(1, 9)
    ]
    ops += [
        {"op": "set_hostname", "hostname": "edge-01"},
        {"op": "set_disk_size", "size": "8GiB"},
        {"op": "add_partition", "id": "data", "mount_point": "/data", "size": "2GiB"},
        {"op": "set_kernel", "append_cmdline": ["quiet"]},
    ]
    return {"summary": "twelve changes", "operations": ops}


# 5. a compact schema; a cut-off plan is never applied silently --------------------------------


@pytest.mark.parametrize("backend", ["openai", "ollama"])
def test_twelve_operations_fit_the_budget_when_the_model_writes_the_schema(
    backend: str, tmp_path: Path
) -> None:
    plan = _twelve()
    with WireServer([Scripted(plan=plan)]) as server:
        outcome = plan_turn(_model(backend, server, tmp_path), "twelve", TEMPLATE, method=SCHEMA)
    assert outcome.requests == 1 and len(outcome.plan.operations) == 12
    assert not outcome.plan.not_applied
    written = constrained(plan, request_schema(server.bodies[0]))  # what the model wrote
    assert len(written) / CHARS_PER_TOKEN / 12 < 60  # tokens per operation


def _tokens_for_six(plan: dict[str, Any]) -> int:
    """A reply budget that ends the constrained reply inside its 7th operation."""
    text = constrained(plan, plan_schema())
    return text.index('"tool7"') // CHARS_PER_TOKEN


def test_a_cut_off_plan_is_reported_and_the_rest_is_asked_for(tmp_path: Path) -> None:
    plan = _twelve()
    rest = {"summary": "the rest", "operations": plan["operations"][6:]}
    with WireServer([Scripted(plan=plan), Scripted(plan=rest)]) as server:
        chat = _model("openai", server, tmp_path, max_tokens=_tokens_for_six(plan))
        outcome = plan_turn(chat, "twelve", TEMPLATE, method=SCHEMA)
    assert len(outcome.plan.operations) == 12 and outcome.requests == 2
    ask = server.bodies[1]["messages"][-1]["content"]
    assert "cut off at the token limit after 6 complete operation(s)" in ask
    assert '"op": "add_packages", "packages": ["tool6"]' in ask
    assert any("cut off" in w for w in outcome.plan.warnings)


def test_a_plan_cut_twice_keeps_its_complete_operations_and_says_what_was_lost(
    tmp_path: Path,
) -> None:
    plan = _twelve()
    with WireServer([Scripted(plan=plan)]) as server:
        chat = _model("openai", server, tmp_path, max_tokens=_tokens_for_six(plan))
        outcome = plan_turn(chat, "twelve", TEMPLATE, method=SCHEMA)
    assert outcome.requests == 2
    assert _packages(outcome) == [f"tool{i}" for i in range(1, 9)][:6]
    lost = [line for line in outcome.plan.not_applied if "cut off" in line]
    assert lost and "the 7th operation (add_packages) and anything after it were lost" in lost[0]


# 6. JSON mode: the prompt is budgeted with the schema in it ------------------------------------


def _big_template() -> str:
    """A large base template: long configuration scripts, each with a comment."""
    text = (OUR_TEMPLATES / "ubuntu24-aarch64-edge-container-raw.yml").read_text()
    script = "; ".join(
        f"install -m 0644 /usr/share/edge/unit-{n}.conf /etc/edge/" for n in range(14)
    )
    commands = "".join(
        f'    # step {i}: why this one\n    - cmd: "{script}; echo step {i}"\n' for i in range(20)
    )
    return text.replace("  configurations:\n", f"  configurations:\n{commands}", 1)


def test_json_mode_prompts_fit_the_window_with_the_schema_pasted_in(tmp_path: Path) -> None:
    big = _big_template()
    assert len(big) > 20_000
    with WireServer([{"summary": "s", "operations": [HTOP]}], reject={"json_schema"}) as server:
        chat = _model("openai", server, tmp_path)
        settings = Settings(openai_base_url=f"{server.url}/v1", data_dir=tmp_path)
        outcome = plan_turn(chat, "add htop", big, method=structured_method("openai", settings))
    assert outcome.method == "json_mode" and _packages(outcome) == ["htop"]
    budget = prompt_budget(8192, 3072)
    assert budget == 14_592
    for body in server.bodies:
        assert sum(len(m["content"]) for m in body["messages"]) <= budget
    system = server.bodies[1]["messages"][0]["content"]
    assert "matching this JSON schema" in system and '"anyOf"' in system
    human = server.bodies[1]["messages"][1]["content"]
    template = human.split("CURRENT TEMPLATE:\n", 1)[1].split("\n\nREQUEST:", 1)[0]
    assert "# step" not in template  # comments go before content
    assert yaml.safe_load(template)["target"] == yaml.safe_load(big)["target"]


def test_yaml_mode_trims_the_template_it_refines_only_when_no_source_fits(
    tmp_path: Path,
) -> None:
    big = _big_template()
    sources = [(p.stem, p.read_text()) for p in sorted(OUR_TEMPLATES.glob("*.yml"))[:3]]
    with WireServer(["image:\n  name: out\n"]) as server:
        write_template_with_model(
            _model("openai", server, tmp_path), "add htop", sources, current=big
        )
    messages = server.bodies[0]["messages"]
    assert sum(len(m["content"]) for m in messages) <= prompt_budget(8192, 3072)
    human = messages[1]["content"]
    assert "SOURCE " not in human  # the sources went first
    current = human.split("CURRENT TEMPLATE:\n", 1)[1].split("\n\nREQUEST:", 1)[0]
    assert "# step" not in current  # then the template's comments, before its content
    assert yaml.safe_load(current)["target"] == yaml.safe_load(big)["target"]


def test_yaml_mode_trims_sources_before_the_template_it_refines(tmp_path: Path) -> None:
    current = (OUR_TEMPLATES / "ubuntu24-x86_64-minimal-raw.yml").read_text()
    sources = [(p.stem, _big_template()) for p in sorted(OUR_TEMPLATES.glob("*.yml"))[:3]]
    with WireServer(["image:\n  name: out\n"]) as server:
        write_template_with_model(
            _model("openai", server, tmp_path), "add htop", sources, current=current
        )
    messages = server.bodies[0]["messages"]
    assert sum(len(m["content"]) for m in messages) <= prompt_budget(8192, 3072)
    assert f"CURRENT TEMPLATE:\n{current}" in messages[1]["content"]  # whole, comments too


# 7-11. replies as they really come ------------------------------------------------------------


@pytest.mark.parametrize("backend", ["openai", "ollama"])
def test_two_json_objects_in_a_reply_are_both_read(backend: str, tmp_path: Path) -> None:
    first = {"summary": "htop", "operations": [HTOP]}
    second = {"summary": "disk", "operations": [{"op": "set_disk_size", "size": "8GiB"}]}
    extra = {"confidence": 0.9}
    reply = f"{json.dumps(first)}\n{json.dumps(second)}\n{json.dumps(extra)}"
    with WireServer([reply]) as server:
        outcome = plan_turn(_model(backend, server, tmp_path), "x", TEMPLATE, method=SCHEMA)
    assert [op.op for op in outcome.plan.operations] == ["add_packages", "set_disk_size"]
    assert outcome.requests == 1
    assert any("held 2 JSON plans" in n for n in outcome.notes)
    assert any('ignored a JSON value that is not a plan: {"confidence": 0.9}' in w
               for w in outcome.plan.warnings)  # fmt: skip


@pytest.mark.parametrize("backend", ["openai", "ollama"])
def test_trailing_commas_are_read_leniently(backend: str, tmp_path: Path) -> None:
    reply = (
        '{"summary": "htop and disk", "operations": [{"op": "add_packages", '
        '"packages": ["htop", "curl",],}, {"op": "set_disk_size", "size": "8GiB",},], '
        '"not_applied": [],}'
    )
    with WireServer([reply]) as server:
        outcome = plan_turn(_model(backend, server, tmp_path), "x", TEMPLATE, method=SCHEMA)
    assert outcome.requests == 1  # no retry telling the model its plan was empty
    assert _packages(outcome) == ["htop", "curl"]
    assert [op.op for op in outcome.plan.operations] == ["add_packages", "set_disk_size"]
    assert any("trailing comma" in n for n in outcome.parsed.notes)


def test_deep_nesting_is_an_unreadable_reply_then_a_retry(tmp_path: Path) -> None:
    good = {"summary": "htop", "operations": [HTOP]}
    with WireServer(["[" * 1500, good]) as server:
        outcome = plan_turn(_model("openai", server, tmp_path), "x", TEMPLATE, method=SCHEMA)
    assert _packages(outcome) == ["htop"] and outcome.requests == 2
    assert "too deep" in server.bodies[1]["messages"][-1]["content"]


def test_deep_nesting_under_auto_falls_back_naming_the_reply(agent_data_dir: Path) -> None:
    with WireServer(["[" * 1500]) as server:
        settings = load_settings(
            data_dir=agent_data_dir, env={}, provider="auto",
            openai_base_url=f"{server.url}/v1", ollama_base_url="http://127.0.0.1:9",
        )  # fmt: skip
        with TemplateAgent(settings) as agent:
            result = agent.generate(REQUEST)
    assert result.provider == "builtin (fallback from openai)" and result.status == "valid"
    notice = " ".join(result.notices)
    assert "unreadable" in notice and "too deep" in notice
    assert "OPENAI_API_KEY" not in notice


def test_an_explicit_provider_with_deep_nesting_falls_back_not_exit_2(
    agent_data_dir: Path,
) -> None:
    with WireServer(["[" * 1500]) as server:
        settings = load_settings(
            data_dir=agent_data_dir, env={}, provider="openai",
            openai_base_url=f"{server.url}/v1",
        )  # fmt: skip
        with TemplateAgent(settings) as agent:
            result = agent.generate(REQUEST)  # a plan error falls back; no backend error
    assert result.provider == "builtin (fallback from openai)"
    assert any("too deep" in n for n in result.notices)


@pytest.mark.parametrize("where", ["escaped", "raw"])
def test_a_lone_surrogate_is_replaced_never_a_traceback(agent_data_dir: Path, where: str) -> None:
    name = "\\ud83d" if where == "escaped" else "\ud83d"
    reply = '{"summary": "add htop ' + name + '", "operations": [{"op": "add_packages", '
    reply += '"packages": ["htop"]}, {"op": "set_hostname", "hostname": "edge' + name + '"}]}'
    with WireServer([reply]) as server:
        settings = load_settings(
            data_dir=agent_data_dir, env={}, provider="auto",
            openai_base_url=f"{server.url}/v1", ollama_base_url="http://127.0.0.1:9",
        )  # fmt: skip
        with TemplateAgent(settings) as agent:
            # issue 21: a model may not invent a package, so the request asks for htop
            result = agent.generate(REQUEST + " with htop")
            again = agent.sessions.get(result.session)  # the checkpoint was written
    assert result.provider == "openai" and again.turns == 1
    assert "htop" in yaml.safe_load(result.template or "")["systemConfig"]["packages"]
    assert "\ud83d" not in json.dumps(result.__dict__, default=str, ensure_ascii=False)
    assert any(
        "replaced 2 invalid character(s) in the model's reply" in w
        for w in result.warnings + result.notices
    )


def test_a_huge_plan_is_capped_and_what_was_beyond_the_cap_reported(tmp_path: Path) -> None:
    ops = [{"op": "add_packages", "packages": [f"pkg{i:05d}"]} for i in range(40_000)]
    reply = json.dumps({"summary": "everything", "operations": ops})
    assert len(reply) > 2_000_000
    with WireServer([reply]) as server:
        chat = _model("openai", server, tmp_path, max_tokens=1_000_000)
        outcome = plan_turn(chat, "x", TEMPLATE, method=SCHEMA)
    assert len(outcome.plan.operations) == 100 and outcome.requests == 1
    assert _packages(outcome)[-1] == "pkg00099"
    beyond = [n for n in outcome.plan.not_applied if "beyond the cap" in n]
    assert beyond == [
        "not applied: 39,900 operation(s) beyond the cap of 100 per turn "
        "(ai.generation.max_operations)"
    ]


def test_the_cap_comes_from_the_settings_and_reaches_the_template(agent_data_dir: Path) -> None:
    ops = [{"op": "add_packages", "packages": [f"pkg{i:05d}"]} for i in range(40_000)]
    with WireServer([{"summary": "everything", "operations": ops}]) as server:
        settings = load_settings(
            data_dir=agent_data_dir, env={}, provider="openai", max_tokens=1_000_000,
            openai_base_url=f"{server.url}/v1", max_operations=5,
        )  # fmt: skip
        with TemplateAgent(settings) as agent:
            # issue 21: a model may not invent packages, so the request installs them
            wanted = ", ".join(f"pkg{i:05d}" for i in range(10))
            result = agent.generate(f"{REQUEST}, install the packages {wanted}")
    packages = yaml.safe_load(result.template or "")["systemConfig"]["packages"]
    assert [p for p in packages if p.startswith("pkg")] == [f"pkg{i:05d}" for i in range(5)]
    assert any("39,995 operation(s) beyond the cap of 5" in n for n in result.not_applied)
