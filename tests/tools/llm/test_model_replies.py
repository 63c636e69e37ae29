"""Replies shaped like real 7-8B output, through the real clients, each with its outcome."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from oic_ai.stores.chat_models import StructuredOutput, make_chat_model
from oic_ai.stores.settings import Settings
from oic_ai.tools.edit_plan import AddPackages, EditPlan, SetDiskSize
from oic_ai.tools.llm_planner import PlanError, PlanOutcome, plan_turn
from oic_ai.tools.plan_schema import operation_to_wire
from tests.tools.llm.wire_fakes import TEMPLATE, Scripted, WireServer

GOOD = {"summary": "add htop", "operations": [{"op": "add_packages", "packages": ["htop"]}]}
GOOD_TEXT = json.dumps(GOOD)
TWO_OPS = json.dumps(
    {
        "summary": "htop and 8GiB",
        "operations": [
            {"op": "add_packages", "packages": ["htop"]},
            {"op": "set_disk_size", "size": "8GiB"},
        ],
    }
)


def _packages(plan: EditPlan) -> list[str]:
    return [p for op in plan.operations if isinstance(op, AddPackages) for p in op.packages]


@dataclass
class Case:
    """Scripted replies and what must come of them."""

    answers: list[str | dict[str, Any] | Scripted]
    requests: int
    check: Callable[[PlanOutcome], None] | None = None
    error: str | None = None
    retry_says: str = "could not be used"


def _expect_htop(outcome: PlanOutcome) -> None:
    assert _packages(outcome.plan) == ["htop"]


def _invented(outcome: PlanOutcome) -> None:
    assert _packages(outcome.plan) == ["htop", "vim"]
    assert "read op 'install' as add_packages" in outcome.parsed.notes


def _unknown_kept_apart(outcome: PlanOutcome) -> None:
    assert _packages(outcome.plan) == ["htop"]
    assert outcome.parsed.kept == 1 and len(outcome.parsed.dropped) == 1
    assert any("unknown op 'configure_docker'" in n for n in outcome.plan.not_applied)


def _extra_keys(outcome: PlanOutcome) -> None:
    assert _packages(outcome.plan) == ["htop"]
    assert any("ignored reason" in n for n in outcome.parsed.notes)


def _type_slips(outcome: PlanOutcome) -> None:
    ops = outcome.plan.operations
    assert isinstance(ops[0], SetDiskSize) and ops[0].size == "8GiB"
    assert isinstance(ops[1], AddPackages) and ops[1].packages == ["htop", "curl"]
    assert isinstance(ops[2], AddPackages) and ops[2].kernel is True


def _two_ops(outcome: PlanOutcome) -> None:
    assert [op.op for op in outcome.plan.operations] == ["add_packages", "set_disk_size"]


def _salvaged(outcome: PlanOutcome) -> None:
    assert _packages(outcome.plan) == ["htop"]
    assert any("cut off" in n for n in outcome.parsed.notes)
    assert any("cut off" in w for w in outcome.plan.warnings)
    # what was cut is said, not lost silently
    assert any(
        "after 1 complete operation(s); the 2nd operation and anything after it were lost" in line
        for line in outcome.plan.not_applied
    ), outcome.plan.not_applied


def _rest(outcome: PlanOutcome) -> None:
    assert [op.op for op in outcome.plan.operations] == ["add_packages", "set_disk_size"]
    assert any("first answer was cut off" in w for w in outcome.plan.warnings)
    assert any("asked once for the rest" in n for n in outcome.notes)


def _retried(outcome: PlanOutcome) -> None:
    _expect_htop(outcome)
    assert any("first answer failed" in w for w in outcome.plan.warnings)


CUT = TWO_OPS[: TWO_OPS.index('{"op": "set_disk_size"') + 12]
FULL_WIRE = json.dumps(
    {
        "summary": "add htop",
        "operations": [operation_to_wire(AddPackages(packages=["htop"]))],
        "not_applied": [],
    }
)

CASES: dict[str, Case] = {
    "a clean plan": Case([GOOD], 1, _expect_htop),
    "grammar output with every field null": Case([FULL_WIRE], 1, _expect_htop),
    "invented op names": Case(
        [
            {
                "summary": "s",
                "operations": [
                    {"op": "install", "packages": ["htop"]},
                    {"op": "add_package", "packages": ["vim"]},
                ],
            }
        ],
        1,
        _invented,
    ),
    "an unknown op beside a good one": Case(
        [
            {
                "summary": "s",
                "operations": [
                    {"op": "configure_docker", "enable": True},
                    {"op": "add_packages", "packages": ["htop"]},
                ],
            }
        ],
        1,
        _unknown_kept_apart,
    ),
    "extra keys": Case(
        [
            {
                "summary": "s",
                "explanation": "because",
                "operations": [{"op": "add_packages", "packages": ["htop"], "reason": "top"}],
            }
        ],
        1,
        _extra_keys,
    ),
    "type slips": Case(
        [
            {
                "summary": "s",
                "operations": [
                    {"op": "set_disk_size", "size": 8},
                    {"op": "add_packages", "packages": "htop, curl"},
                    {"op": "add_packages", "packages": ["linux-tools"], "kernel": "true"},
                ],
            }
        ],
        1,
        _type_slips,
    ),
    "prose and fences": Case(
        [f"Sure! Here is the plan:\n```json\n{TWO_OPS}\n```\nLet me know if you need more."],
        1,
        _two_ops,
    ),
    "a think block with braces": Case(
        [f'<think>The user wants {{htop}}. Maybe {{"op": "install"}}?</think>\n{TWO_OPS}'],
        1,
        _two_ops,
    ),
    "a bare list of operations": Case(
        ['[{"op": "add_packages", "packages": ["htop"]}]'], 1, _expect_htop
    ),
    "cut off after one operation, then the rest": Case(
        [
            Scripted(CUT, "length"),
            {"summary": "the rest", "operations": [{"op": "set_disk_size", "size": "8GiB"}]},
        ],
        2,
        _rest,
        retry_says="cut off at the token limit after 1 complete operation(s)",
    ),
    "truncated twice, one op complete": Case(
        [Scripted(CUT, "length")] * 2, 2, _salvaged, retry_says="cut off at the token limit"
    ),
    "truncated twice, nothing complete": Case(
        [Scripted('{"summary": "add ht', "length")] * 2, 2, error="cut off at the token limit"
    ),
    "prose only, then good": Case(["I would add htop to the packages.", GOOD], 2, _retried),
    "a refusal": Case(
        ["I'm sorry, but I can't help with that request."] * 2, 2, error="refused to plan"
    ),
    "an empty plan": Case(
        [{"summary": "nothing to do", "operations": []}] * 2, 2, error="plan is empty"
    ),
    "an empty reply": Case([""] * 2, 2, error="reply was empty"),
    "the template echoed as YAML": Case(
        [f"```yaml\n{TEMPLATE}```"] * 2, 2, error="echoed the template"
    ),
    "the template echoed as JSON": Case(
        [{"image": {"name": "edge"}, "target": {"os": "ubuntu"}}] * 2,
        2,
        error="echoed the template",
    ),
    "only invalid operations": Case(
        [{"summary": "s", "operations": [{"op": "explode"}, {"packages": ["x"]}]}] * 2,
        2,
        error="no valid operation",
    ),
    "empty but explained": Case(
        [{"summary": "s", "operations": [], "not_applied": ["a GUI: not in this template"]}],
        1,
        lambda o: None if o.plan.not_applied == ["a GUI: not in this template"] else pytest.fail(),
    ),
}


@pytest.fixture(params=["openai", "ollama"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def server() -> Iterator[WireServer]:
    with WireServer() as fake:
        yield fake


def _model(backend: str, server: WireServer, tmp_path: Path) -> Any:
    if backend == "openai":
        settings = Settings(openai_base_url=f"{server.url}/v1", data_dir=tmp_path)
    else:
        settings = Settings(ollama_base_url=server.url)
    return make_chat_model(backend, settings)


@pytest.mark.parametrize("name", list(CASES))
def test_model_reply_shapes(name: str, backend: str, server: WireServer, tmp_path: Path) -> None:
    case = CASES[name]
    server.answers = case.answers
    model = _model(backend, server, tmp_path)
    if case.error:
        with pytest.raises(PlanError, match=case.error):
            plan_turn(model, "add htop", TEMPLATE, method=StructuredOutput("json_schema"))
    else:
        outcome = plan_turn(model, "add htop", TEMPLATE, method=StructuredOutput("json_schema"))
        assert case.check is not None
        case.check(outcome)
        assert outcome.requests == case.requests
    assert len(server.bodies) == case.requests
    if case.requests == 2:  # the retry carries the reason
        assert case.retry_says in server.bodies[1]["messages"][-1]["content"]


def test_an_openai_refusal_field_is_a_refusal(server: WireServer, tmp_path: Path) -> None:
    server.answers = [Scripted(refusal="I can't help with that.")]
    with pytest.raises(PlanError, match="refused to plan"):
        plan_turn(_model("openai", server, tmp_path), "x", TEMPLATE, method="json_schema")
    assert len(server.bodies) == 2
